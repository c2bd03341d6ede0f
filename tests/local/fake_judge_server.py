"""The offline judge's server process with a scripted engine instead of llama.cpp.

The launcher runs it when a test sets `launcher.SERVER_MODULE` to this module (see the
`fake_runtime` fixture). It answers a claims request (a schema with `claims`) with the output's
sentences, every other prompt with "ok", and every verdict label request (logprobs) with "no" (P(no)
0.9) but "yes" to a support question whose words the document says word for word, logging the
request's last line and words to $FAKE_ENGINE_LOG when set; the narrow questions get "yes" (a
sentence states a fact, the context names a token or gives an amount), but "no" to "does the
sentence say more than its claims"; a prompt containing SEGFAULT makes the process
die of SIGSEGV mid-generation, as a crash inside llama.cpp does.
"""

from __future__ import annotations

import json
import math
import os
import signal
import time
from pathlib import Path
from typing import Any

from pytest_llmfaith.local import server


def engine(kwargs: dict[str, Any]) -> dict[str, Any]:
    if "SEGFAULT" in kwargs["messages"][-1]["content"]:
        os.kill(os.getpid(), signal.SIGSEGV)
        time.sleep(5)  # the signal arrives asynchronously
    if kwargs.get("logprobs"):
        return label(kwargs)
    content = "ok"
    if "claims" in ((kwargs.get("response_format") or {}).get("schema") or {}).get("properties", {}):
        output = kwargs["messages"][-1]["content"].split("<output>\n", 1)[-1].split("\n</output>", 1)[0]
        content = json.dumps({"claims": [f"{claim.rstrip('.')}." for claim in output.split(". ")]})
    return {"id": "chatcmpl-fake", "object": "chat.completion", "created": 0, "model": "fake",
            "choices": [{"index": 0, "finish_reason": "stop",
                         "message": {"role": "assistant", "content": content}}],
            "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}}


def label(kwargs: dict[str, Any]) -> dict[str, Any]:
    text = kwargs["messages"][-1]["content"]
    claim = text.split("Words to check: ", 1)[-1].splitlines()[0] if "Words to check: " in text else ""
    if os.environ.get("FAKE_ENGINE_LOG") and claim:
        with open(os.environ["FAKE_ENGINE_LOG"], "a", encoding="utf-8") as log:
            log.write(text.splitlines()[-1] + " | " + claim + "\n")
    if claim:  # a verdict: supported when the document says the words word for word
        said = claim in text.split("Document:\n", 1)[-1].split("\n\nSentence: ", 1)[0]
        answer, other = ("yes", "no") if said and "supported" in text.splitlines()[-1] else ("no", "yes")
    else:  # the narrow questions: a sentence states a fact, says no more than its claims, a context names it
        answer, other = ("no", "yes") if "already checked" in text else ("yes", "no")
    top = [{"token": answer, "logprob": math.log(0.9), "bytes": None},
           {"token": other, "logprob": math.log(0.1), "bytes": None}]
    return {"id": "label-fake", "object": "chat.completion", "created": 0, "model": "fake",
            "choices": [{"index": 0, "finish_reason": "length", "message": {"role": "assistant", "content": answer},
                         "logprobs": {"content": [{**top[0], "top_logprobs": top}]}}],
            "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}}


def load(path: Path, n_ctx: int, n_threads: int) -> server.Engine:
    """Stands in for server.LlamaEngine(path, n_ctx, n_threads)."""
    return engine


if __name__ == "__main__":
    server.LlamaEngine = load  # type: ignore[assignment,misc]
    server.main()
