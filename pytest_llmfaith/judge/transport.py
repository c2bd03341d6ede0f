"""The transport: the only module that talks to litellm (import kept lazy: it costs seconds).

A transport sends one request and returns the parsed reply, or raises a JudgeError naming the
failure and the fix. The key each request carries is read by judge/endpoint.py; what every
transport takes and gives is in completion.py. The offline judge has its own, without litellm
(local/local_transport.py).
"""

from __future__ import annotations

import copy
import os
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from pytest_llmfaith.errors import ConfigError, JudgeError
from pytest_llmfaith.judge.completion import Completion as Completion
from pytest_llmfaith.judge.completion import CompletionRequest as CompletionRequest
from pytest_llmfaith.judge.completion import Transport as Transport
from pytest_llmfaith.judge.completion import parse_completion, sendable
from pytest_llmfaith.judge.config import JudgeConfig
from pytest_llmfaith.judge.endpoint import api_key, bypass_proxy_for_loopback
from pytest_llmfaith.judge.failures import failure

if TYPE_CHECKING:
    from types import ModuleType

    from pytest_llmfaith.judge.backend import Announce

UNREACHABLE_AFTER = 3  # calls in a row that could not connect; then the rest of the run fails at once


class HostedBackend:
    """A hosted model through litellm in this process (the backend a judge has unless told)."""

    def __init__(self, config: JudgeConfig) -> None:
        self.config = config

    def identity(self, replay: bool) -> str:
        if self.config.is_local:
            raise ConfigError(
                "llmfaith: a local judge model needs the offline judge's backend, and this judge was built "
                "without one. Fix: use `from pytest_llmfaith import Judge` (it picks the backend from the model), "
                "or pass Judge(..., backend=pytest_llmfaith.local.port.OfflineBackend(config)).")
        return self.config.model

    def replay_hint(self, key_model: str) -> str:
        return ""

    def transport(self, announce: Announce | None) -> Transport:
        self.identity(replay=False)  # a local model is refused here too
        return LiteLLMTransport(self.config)


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

    def __init__(self, config: JudgeConfig, throttle: Throttle | None = None) -> None:
        self.config = config
        self.throttle = throttle or Throttle(config.concurrency)
        self.litellm = import_litellm()
        self._lock = threading.Lock()
        self._unreachable_calls = 0  # calls in a row that ended in a connection error
        self._unreachable: str | None = None  # once set, every call fails at once with this message

    def complete(self, request: CompletionRequest) -> Completion:
        litellm, step = self.litellm, request.step
        if self._unreachable is not None:
            raise JudgeError(self._unreachable)
        model, api_base = self.config.model, self.config.api_base
        bypass_proxy_for_loopback(api_base)
        kwargs: dict[str, Any] = {
            "model": model, "messages": [{**m, "content": sendable(m["content"])} for m in request.messages],
            "timeout": self.config.request_timeout, "temperature": request.temperature, "max_retries": 0,
        }
        for name, value in (("api_base", api_base), ("api_key", api_key(self.config)),
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
                    response = litellm.completion(**kwargs)
                break
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
        """litellm's response read as every transport reads its JSON (completion.parse_completion)."""
        completion = parse_completion(response.model_dump(warnings=False), self.config, request)
        completion.cost = _cost(self.litellm, response)
        return completion

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
        """A hosted judge holds nothing to release."""

    def _response_format(self, model: str, request: CompletionRequest) -> dict[str, Any]:
        """JSON schema where the provider enforces it, plain JSON mode otherwise."""
        try:
            strict = self.litellm.supports_response_schema(model=model)
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


def _cost(litellm: ModuleType, response: Any) -> float | None:
    hidden = getattr(response, "_hidden_params", None) or {}
    cost = hidden.get("response_cost")
    if cost is None:
        try:
            cost = litellm.completion_cost(completion_response=response)
        except Exception:
            return None
    return float(cost) if cost else None
