"""The offline judge's engine where no compiler is: llama.cpp's own server, prebuilt (xllamacpp).

Its prompt cache is off and it has one slot, because it cannot reuse a prefix on LlamaEngine's
REUSE_GRID: a reused or batched prompt moves a label's logprobs (by up to 0.17 when measured).
Every prompt is read whole, at the speed it has. Its schema grammar (LLGuidance) is cheap, so
JSON is generated under it directly, streamed to stop a greedy loop.
"""

from __future__ import annotations

import json
import secrets
import time
from pathlib import Path
from typing import Any, NoReturn

from pytest_llmfaith.local.engine import TOP_LOGPROBS_MAX, chat_completion, label_completion, loop_cut, loop_start

_LABEL = {"max_tokens": 1, "temperature": 0, "logprobs": True, "post_sampling_probs": False}
"""post_sampling_probs off: the softmax of the raw logits over the whole vocabulary (on, at
temperature 0 it reports the greedy token with probability 1)."""


class XllamaEngine:
    """One GGUF model behind a callable taking llama_cpp `create_chat_completion` kwargs."""

    def __init__(self, path: Path, n_ctx: int, n_threads: int) -> None:
        import xllamacpp

        params: Any = xllamacpp.CommonParams()
        params.model.path = str(path)
        params.n_ctx = n_ctx
        params.fit_params = False  # n_ctx as given, never shrunk to fit
        params.n_parallel = 1  # batched with another request, a label moves
        params.cache_prompt = False
        params.cache_ram_mib = 0  # nor restored from its host-memory prompt cache
        params.cpuparams.n_threads = n_threads
        params.cpuparams_batch.n_threads = n_threads
        params.n_threads_http = 1
        params.warmup = False
        params.use_jinja = True  # the GGUF's own chat template, as LlamaEngine renders it
        params.verbosity = 2  # warnings and errors; not six lines a request
        # It also listens on a loopback port of its own; a key nobody knows keeps it to us.
        params.api_keys = [secrets.token_urlsafe(32)]
        self._server: Any = xllamacpp.Server(params)

    def __call__(self, kwargs: dict[str, Any]) -> dict[str, Any]:
        if kwargs.get("logprobs"):
            if kwargs.get("max_tokens") != 1:
                raise ValueError("logprobs are served for one-token answers only: send max_tokens=1")
            return self.label(kwargs["messages"], int(kwargs.get("top_logprobs") or 5))
        request = {k: v for k, v in kwargs.items() if k not in ("logprobs", "top_logprobs", "response_format")}
        response_format = kwargs.get("response_format")
        schema = (response_format or {}).get("schema")
        if isinstance(schema, dict):
            return self._json({**request, "json_schema": schema}, schema)
        if response_format is not None:
            request["response_format"] = {"type": "json_object"}
        return self._ask(request)

    def label(self, messages: list[dict[str, str]], top: int) -> dict[str, Any]:
        """The next token's `top` most likely tokens, answered as LlamaEngine.label answers (label_completion)."""
        answer = self._ask({"messages": messages, **_LABEL, "top_logprobs": max(1, min(top, TOP_LOGPROBS_MAX))})
        best = [(_text(entry), float(entry["logprob"]))
                for entry in answer["choices"][0]["logprobs"]["content"][0]["top_logprobs"]]
        prompt = int(answer["usage"]["prompt_tokens"])
        return label_completion(best, prompt, int((answer.get("timings") or {}).get("prompt_n", prompt)))

    def _json(self, request: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any]:
        """Generated under the schema, streamed: a greedy loop is cut (`loop_cut`) instead of running
        to the token limit."""
        text, pieces = "", 0
        last: dict[str, Any] = {}
        loop: list[int] = []
        error: list[dict[str, Any]] = []

        def take(chunk: Any) -> bool:  # called by xllamacpp: it must not raise
            nonlocal text, pieces
            chunk = json.loads(chunk) if isinstance(chunk, (str, bytes)) else chunk
            if not isinstance(chunk, dict) or "error" in chunk:
                error.append(chunk if isinstance(chunk, dict) else {"error": f"xllamacpp streamed {chunk!r}"})
                return True
            last.update({k: v for k, v in chunk.items() if k in ("id", "usage", "timings")})
            for choice in chunk.get("choices") or []:
                piece = str((choice.get("delta") or {}).get("content") or "")
                last["finish_reason"] = choice.get("finish_reason") or last.get("finish_reason")
                if piece:
                    pieces += 1
                    text += piece
                    start = loop_start(text.lstrip())
                    if start is not None:
                        loop.append(start)
                        return True  # stops the generation
            return False

        # timings in every chunk: the prompt's length, which a stopped stream's usage never tells
        self._call({**request, "stream": True, "stream_options": {"include_usage": True},
                    "timings_per_token": True}, take)
        if error:
            _raise(error[0])
        head = text.lstrip()
        usage = last.get("usage") or {}
        timings = last.get("timings") or {}
        prompt = int(usage.get("prompt_tokens") or int(timings.get("prompt_n") or 0) + int(timings.get("cache_n") or 0))
        if loop:
            return loop_cut(head, loop[0], schema, prompt, pieces)
        completion = int(usage.get("completion_tokens") or pieces)
        return chat_completion(str(last.get("id") or f"json-{time.time_ns()}"), head.rstrip(),
                           str(last.get("finish_reason") or "stop"), prompt, completion)

    def _ask(self, request: dict[str, Any]) -> dict[str, Any]:
        answer = _as_dict(self._call(request))
        if "error" in answer:
            _raise(answer)
        return answer

    def _call(self, request: dict[str, Any], *stream: Any) -> Any:
        """Every request with the prompt cache off (a request may turn it on for itself)."""
        return self._server.handle_chat_completions({**request, "cache_prompt": False}, *stream)


def _as_dict(answer: Any) -> dict[str, Any]:
    """xllamacpp answers a dict request with a dict; a str or bytes answer is its JSON."""
    value = json.loads(answer) if isinstance(answer, (str, bytes)) else answer
    if not isinstance(value, dict):
        raise RuntimeError(f"xllamacpp answered {type(value).__name__}, not a JSON object")
    return value


def _raise(answer: dict[str, Any]) -> NoReturn:
    """Its error as the exception server.py answers with a 400 (a ValueError) or a 500."""
    error = answer.get("error")
    message = str(error.get("message") or error) if isinstance(error, dict) else str(error)
    code = error.get("code") if isinstance(error, dict) else None
    if isinstance(code, int) and code >= 500:
        raise RuntimeError(message)
    raise ValueError(message)


def _text(entry: dict[str, Any]) -> str:
    """The token's text as LlamaEngine writes it: its bytes, a partial UTF-8 character replaced."""
    raw = entry.get("bytes")
    return bytes(raw).decode("utf-8", errors="replace") if isinstance(raw, list) else str(entry.get("token", ""))
