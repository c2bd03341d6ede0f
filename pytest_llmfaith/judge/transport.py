"""The transport: the only module that talks to litellm (import kept lazy: it costs seconds).

A transport sends one request and returns the parsed reply, or raises a JudgeError naming the
failure and the fix. Where requests go is its `Endpoint`'s (judge/endpoint.py).
"""

from __future__ import annotations

import copy
import os
import re
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Protocol

from pydantic import BaseModel

from pytest_llmfaith.errors import JudgeError
from pytest_llmfaith.judge.config import JudgeConfig
from pytest_llmfaith.judge.endpoint import Endpoint, HostedEndpoint
from pytest_llmfaith.judge.failures import failure
from pytest_llmfaith.judge.offline import Announce, plugged_in

if TYPE_CHECKING:
    from types import ModuleType

    from pytest_llmfaith.judge.offline import OfflineJudge

UNREACHABLE_AFTER = 3  # calls in a row that could not connect; then the rest of the run fails at once


class CompletionRequest(BaseModel):
    """One completion as the judge wants it sent; nothing about the cache or the provider."""

    step: str  # named in error messages
    messages: list[dict[str, str]]
    temperature: float
    seed: int | None = None
    max_tokens: int | None = None
    json_schema: dict[str, Any] | None = None  # the answer's JSON Schema, enforced where the provider can
    schema_name: str = ""
    top_logprobs: int | None = None  # a one-token answer read from its N most likely tokens


class Completion(BaseModel):
    """The reply: its text (or, for `top_logprobs`, the first token's alternatives) and its price."""

    text: str
    usage: dict[str, int]
    cost: float | None = None
    finish_reason: str | None = None
    top_logprobs: dict[str, float] | None = None


class Transport(Protocol):
    """What `Judge` needs from a way of reaching a model."""

    def complete(self, request: CompletionRequest) -> Completion:
        """Send one request; a failure is a JudgeError whose message names the fix."""
        ...

    def close(self) -> None:
        """Release what the transport holds (the offline judge's server lease)."""
        ...


def in_process(config: JudgeConfig, offline: OfflineJudge | None, announce: Announce | None) -> Transport:
    """litellm in this process; for a local model, the offline judge's own (`offline`, or the one
    plugged in), to the shared server on this machine. Made on the first uncached call."""
    if config.is_local:
        return plugged_in(offline).transport(config, announce)
    return LiteLLMTransport(config)


class Throttle:
    """Concurrency limit and 429 back-off, shared by whoever holds it: the relay holds one per run,
    so the limits hold across all of a run's xdist workers."""

    def __init__(self, limit: int) -> None:
        self._slots = threading.BoundedSemaphore(max(1, limit))
        self._lock = threading.Lock()
        self._resume_at = 0.0  # time.monotonic() before which nothing is sent

    @contextmanager
    def slot(self) -> Iterator[None]:
        """Hold one of the in-flight places, after any back-off in force."""
        with self._slots:
            while (delay := self._resume_at - time.monotonic()) > 0:
                time.sleep(delay)
            yield

    def pause(self, seconds: float) -> None:
        """Hold every request back for `seconds` (a 429's Retry-After, or the exponential back-off)."""
        with self._lock:
            self._resume_at = max(self._resume_at, time.monotonic() + seconds)


def import_litellm() -> ModuleType:
    """Import litellm without its import-time price-list download and .env loading."""
    import sys

    if "litellm" in sys.modules:
        return sys.modules["litellm"]
    quiet = {"LITELLM_LOCAL_MODEL_COST_MAP": "True", "LITELLM_MODE": "PRODUCTION"}
    saved = {name: os.environ.get(name) for name in quiet}
    os.environ.update({k: v for k, v in quiet.items() if saved[k] is None})
    try:
        import litellm
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
    litellm.suppress_debug_info = True
    litellm.telemetry = False
    return litellm


class LiteLLMTransport:
    """litellm.completion with retries. Constructing it imports litellm (the first uncached call)."""

    def __init__(self, config: JudgeConfig, endpoint: Endpoint | None = None,
                 throttle: Throttle | None = None) -> None:
        self.config = config
        self.endpoint = endpoint or HostedEndpoint(config)
        self.throttle = throttle or Throttle(config.concurrency)
        self.litellm = import_litellm()
        self._lock = threading.Lock()
        self._unreachable_calls = 0  # calls in a row that ended in a connection error
        self._unreachable: str | None = None  # once set, every call fails at once with this message

    def complete(self, request: CompletionRequest) -> Completion:
        litellm, step = self.litellm, request.step
        if self._unreachable is not None:
            raise JudgeError(self._unreachable)
        model, api_base, api_key = self.endpoint.target()
        kwargs: dict[str, Any] = {
            "model": model, "messages": [{**m, "content": sendable(m["content"])} for m in request.messages],
            "timeout": self.config.request_timeout, "temperature": request.temperature, "max_retries": 0,
        }
        for name, value in (("api_base", api_base), ("api_key", api_key),
                            ("seed", request.seed), ("max_tokens", request.max_tokens)):
            if value is not None:
                kwargs[name] = value
        if request.top_logprobs:
            kwargs.update(max_tokens=1, logprobs=True, top_logprobs=request.top_logprobs)
        elif request.json_schema is not None:
            kwargs["response_format"] = self._response_format(model, request)
        transient = (litellm.RateLimitError, litellm.Timeout, litellm.APIConnectionError,
                     litellm.InternalServerError, litellm.ServiceUnavailableError, litellm.BadGatewayError)
        for attempt in range(self.config.retries + 1):
            try:
                with self.throttle.slot():
                    response = self._send(kwargs, step)
                break
            except JudgeError:
                raise  # the offline judge's server died: already explained
            except transient as err:
                if attempt == self.config.retries:
                    raise self._count_unreachable(failure(self.config, step, err, attempts=attempt + 1)) from None
                if isinstance(err, litellm.RateLimitError):
                    self.throttle.pause(self._backoff(err, attempt))  # the limit is the judge's: all wait
                else:
                    time.sleep(self._backoff(err, attempt))
            except Exception as err:  # auth, bad request, unknown provider: not worth retrying
                raise failure(self.config, step, err, attempts=attempt + 1) from None
        self._unreachable_calls = 0
        return self._parse(response, request)

    def _parse(self, response: Any, request: CompletionRequest) -> Completion:
        if not response.choices:
            raise JudgeError(
                f"llmfaith: judge {self.config.model} answered step '{request.step}' with no choices (an "
                "empty `choices` list, so no answer at all). Fix: check the judge server and its logs "
                "(a content filter or a server fault can drop every choice)."
            )
        choice = response.choices[0]
        top = _top_logprobs(choice) if request.top_logprobs else None
        if request.top_logprobs and not top:
            raise JudgeError(
                f"llmfaith: judge {self.config.model} returned no logprobs at step '{request.step}': "
                "label verdicts read the answer's token probabilities. Fix: use a judge that "
                "returns logprobs (OpenAI, the offline judge) or --llm-judge-verdicts=one."
            )
        usage = getattr(response, "usage", None)
        return Completion(
            text=choice.message.content or "",
            usage={"prompt_tokens": getattr(usage, "prompt_tokens", None) or 0,
                   "completion_tokens": getattr(usage, "completion_tokens", None) or 0},
            cost=_cost(self.litellm, response), finish_reason=getattr(choice, "finish_reason", None),
            top_logprobs=top,
        )

    def _count_unreachable(self, error: JudgeError) -> JudgeError:
        """After UNREACHABLE_AFTER calls in a row could not connect, the rest fail at once with the
        same message instead of each waiting out its retries."""
        with self._lock:
            if error.kind != "APIConnectionError":
                self._unreachable_calls = 0  # the server answered, if with an error
                return error
            self._unreachable_calls += 1
            if self._unreachable_calls >= UNREACHABLE_AFTER and self._unreachable is None:
                self._unreachable = (f"{error} (The judge could not be reached {UNREACHABLE_AFTER} times "
                                     "in a row: the remaining judge calls of this run fail at once.)")
        return error

    def close(self) -> None:
        self.endpoint.close()

    def _send(self, kwargs: dict[str, Any], step: str) -> Any:
        """litellm.completion; a request that could not connect asks the endpoint for a replacement
        server (the offline judge's, once, if it died: local/watch.py)."""
        litellm = self.litellm
        while True:
            try:
                return litellm.completion(**kwargs)
            except (litellm.APIConnectionError, litellm.InternalServerError) as err:
                failed = err
            # outside the handler: an error about a dead server does not chain litellm's traceback
            base = self.endpoint.replacement(step)
            if base is None:
                raise failed
            kwargs["api_base"] = base

    def _response_format(self, model: str, request: CompletionRequest) -> dict[str, Any]:
        """JSON schema where the provider enforces it, plain JSON mode otherwise."""
        try:
            strict = self.config.is_local or self.litellm.supports_response_schema(model=model)
        except Exception:
            strict = False
        if strict:
            return {"type": "json_schema",
                    "json_schema": {"name": request.schema_name, "schema": copy.deepcopy(request.json_schema)}}
        return {"type": "json_object"}

    def _backoff(self, err: Exception, attempt: int) -> float:
        headers = getattr(getattr(err, "response", None), "headers", None) or {}
        for name, scale in (("retry-after-ms", 0.001), ("retry-after", 1.0)):
            try:
                return min(float(headers[name]) * scale, 60.0)
            except (KeyError, TypeError, ValueError):
                continue
        return min(self.config.backoff_s * 2.0**attempt, 30.0)


_SURROGATE = re.compile("[\ud800-\udfff]")


def sendable(text: str) -> str:
    """A lone surrogate becomes U+FFFD instead of failing the HTTP request; the cache key keeps the text as given."""
    return _SURROGATE.sub("\ufffd", text)


def _top_logprobs(choice: Any) -> dict[str, float]:
    """The first answer token's alternatives, least likely first ({} when the judge sent none)."""
    content = getattr(getattr(choice, "logprobs", None), "content", None) or []
    first = content[0] if content else None
    alternatives = (getattr(first, "top_logprobs", None) or []) if first is not None else []
    return {alt.token: float(alt.logprob) for alt in reversed(alternatives)}


def _cost(litellm: ModuleType, response: Any) -> float | None:
    hidden = getattr(response, "_hidden_params", None) or {}
    cost = hidden.get("response_cost")
    if cost is None:
        try:
            cost = litellm.completion_cost(completion_response=response)
        except Exception:
            return None
    return float(cost) if cost else None
