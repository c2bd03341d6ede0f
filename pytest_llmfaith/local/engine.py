"""The offline judge's engine: OpenAI-style chat requests answered by llama.cpp, in the server.

Two kinds of request, chosen by what the judge asks for:
- a label (`logprobs` with `max_tokens=1`): one forward pass over the prompt, and the log
  probabilities of the next token read from its logits. No sampling, no grammar, no reason:
  a claim's verdict costs the few tokens of the claim once its context is in the KV cache.
- text or JSON (the claims step): generated, JSON-schema answers under a grammar. Not with
  prompt-lookup decoding: measured here it made claims 1.6x slower, since it needs every
  prompt position's logits over a 150k-token vocabulary.
Labels and generation each keep a KV cache of their own, and each reuses its longest matching
token prefix, so the claims instructions and an assertion's context are read once, not again
after every switch. llama_cpp is imported here only, in the server process.
"""

from __future__ import annotations

import math
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from llama_cpp import Llama

TOP_LOGPROBS_MAX = 20


class LlamaEngine:
    """One GGUF model behind a callable taking llama_cpp `create_chat_completion` kwargs."""

    def __init__(self, path: Path, n_ctx: int, n_threads: int) -> None:
        from llama_cpp import Llama
        from llama_cpp.llama_chat_format import Jinja2ChatFormatter

        self._common = {"model_path": str(path), "n_threads": n_threads, "n_threads_batch": n_threads,
                        "verbose": False}
        self._n_ctx = n_ctx
        # Labels: logits of the last prompt token only (logits_all would compute the 150k-wide
        # output layer for every prompt token).
        self.reader: Llama = Llama(n_ctx=n_ctx, **self._common)
        self._writer: Llama | None = None
        model = self.reader._model
        template = self.reader.metadata.get("tokenizer.chat_template")
        self._format = Jinja2ChatFormatter(
            template=template, eos_token=model.token_get_text(self.reader.token_eos()),
            bos_token=model.token_get_text(self.reader.token_bos()),
        ) if template else None

    def __call__(self, kwargs: dict[str, Any]) -> dict[str, Any]:
        if kwargs.get("logprobs"):
            if kwargs.get("max_tokens") != 1:
                raise ValueError("logprobs are served for one-token answers only: send max_tokens=1")
            return self.label(kwargs["messages"], int(kwargs.get("top_logprobs") or 5))
        kwargs = {k: v for k, v in kwargs.items() if k not in ("logprobs", "top_logprobs")}
        return dict(self.writer().create_chat_completion(**kwargs))

    def writer(self) -> Llama:
        """The generating context, made on the first generation (a label-only run never needs
        it); the weights are memory-mapped once for both contexts."""
        if self._writer is None:
            from llama_cpp import Llama

            self._writer = Llama(n_ctx=min(self._n_ctx, 4096), **self._common)
        return self._writer

    def label(self, messages: list[dict[str, str]], top: int) -> dict[str, Any]:
        """The next token's `top` most likely tokens, as an OpenAI chat completion with logprobs."""
        if self._format is None:
            raise ValueError("this GGUF file has no chat template; labels need one")
        import numpy as np

        llm = self.reader
        prompt = self._format(messages=messages)
        tokens = llm.tokenize(prompt.prompt.encode(), add_bos=not prompt.added_special, special=True)
        if len(tokens) >= llm.n_ctx():
            raise ValueError(f"Requested tokens ({len(tokens)}) exceed context window of {llm.n_ctx()}")
        reuse = min(_common_prefix(llm.input_ids[: llm.n_tokens].tolist(), tokens), len(tokens) - 1)
        if reuse == 0 or not llm._ctx.kv_cache_seq_rm(-1, reuse, -1):
            llm.reset()
            reuse = 0
        llm.n_tokens = reuse
        llm.eval(tokens[reuse:])
        logits = np.ctypeslib.as_array(llm._ctx.get_logits(), shape=(llm.n_vocab(),)).astype(np.float64)
        logits -= logits.max()
        logprobs = logits - math.log(float(np.exp(logits).sum()))
        best = np.argsort(-logprobs)[: max(1, min(top, TOP_LOGPROBS_MAX))]
        entries = [{"token": _piece(llm, int(t)), "logprob": float(logprobs[t])} for t in best]
        return {
            "id": f"label-{time.time_ns()}", "object": "chat.completion", "created": int(time.time()),
            "choices": [{
                "index": 0, "finish_reason": "length",
                "message": {"role": "assistant", "content": entries[0]["token"]},
                "logprobs": {"content": [{**entries[0], "bytes": None, "top_logprobs": [
                    {**entry, "bytes": None} for entry in entries]}]},
            }],
            "usage": {"prompt_tokens": len(tokens), "completion_tokens": 1, "total_tokens": len(tokens) + 1,
                      "prompt_tokens_read": len(tokens) - reuse},
        }


def _common_prefix(a: list[int], b: list[int]) -> int:
    n = 0
    for x, y in zip(a, b):
        if x != y:
            break
        n += 1
    return n


def _piece(llm: Llama, token: int) -> str:
    return llm.detokenize([token]).decode("utf-8", errors="replace")
