"""The offline judge's server process with a scripted engine instead of llama.cpp.

The launcher runs it when a test sets `launcher.SERVER_MODULE` to this module (see the
`fake_runtime` fixture). It answers every prompt with "ok"; a prompt containing SEGFAULT makes
the process die of SIGSEGV mid-generation, as a crash inside llama.cpp does.
"""

from __future__ import annotations

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
    return {"id": "chatcmpl-fake", "object": "chat.completion", "created": 0, "model": "fake",
            "choices": [{"index": 0, "finish_reason": "stop",
                         "message": {"role": "assistant", "content": "ok"}}],
            "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}}


def load(path: Path, n_ctx: int, n_threads: int) -> server.Engine:
    """Stands in for server.LlamaEngine(path, n_ctx, n_threads)."""
    return engine


if __name__ == "__main__":
    server.LlamaEngine = load  # type: ignore[assignment,misc]
    server.main()
