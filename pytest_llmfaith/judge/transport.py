"""The hosted backend and its transport: the only module that talks to litellm (imported lazily:
it costs seconds). The transport sends one request and returns the parsed reply, or raises a
JudgeError naming the failure and the fix; the key each request carries is read at each call, as
litellm reads its own variables.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any
from urllib.parse import urlparse

from pytest_llmfaith.errors import JudgeError
from pytest_llmfaith.judge.backend import (
    HOSTED,
    Completion,
    CompletionRequest,
    JudgeConfig,
    Transport,
    chat_body,
    judge_failure,
    parse_completion,
)
from pytest_llmfaith.processes.loopback import LOOPBACK_HOSTS

if TYPE_CHECKING:
    from types import ModuleType

    from pytest_llmfaith.judge.backend import Announce

UNREACHABLE_AFTER = 3  # calls in a row that could not connect; then the rest of the run fails at once


class HostedBackend:
    """A hosted model through litellm in this process."""

    traits = HOSTED

    def __init__(self, config: JudgeConfig) -> None:
        self.config = config

    def identity(self, replay: bool) -> str:
        return self.config.model

    def replay_hint(self, key_model: str) -> str:
        return ""

    def transport(self, announce: Announce | None) -> Transport:
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
        enforce = request.json_schema is not None and not request.top_logprobs and self._enforces_schema(model)
        kwargs: dict[str, Any] = {**chat_body(request, model, enforce),
                                  "timeout": HOSTED.request_timeout(self.config), "max_retries": 0}
        for name, value in (("api_base", api_base), ("api_key", api_key(self.config))):
            if value is not None:
                kwargs[name] = value
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

    def _enforces_schema(self, model: str) -> bool:
        """Whether the provider enforces a JSON schema (else the answer is asked in plain JSON mode)."""
        try:
            return bool(self.litellm.supports_response_schema(model=model))
        except Exception:
            return False

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


# -- where a request goes, with which key ---------------------------------------------
def api_key(config: JudgeConfig) -> str | None:
    """The key of a hosted judge's request, read at each call as litellm reads its own variables:
    a fixture may set it after the first call."""
    key = os.environ.get(config.api_key_env) if config.api_key_env else None
    if config.api_key_env and not key:
        raise JudgeError(
            f"llmfaith: the judge API key variable {config.api_key_env} is not set. "
            f"Fix: export {config.api_key_env}=<your key>, or change --llm-judge-api-key-env."
        )
    # the variable litellm reads itself otherwise: the provider's, by its convention
    name = config.api_key_env or f"{config.model.partition('/')[0].upper()}_API_KEY"
    refuse_whitespace(name, os.environ.get(name, ""))
    if key is None and config.api_base and config.model.startswith("openai/"):
        key = os.environ.get("OPENAI_API_KEY") or "none"  # keyless local servers
    return key


_BLANKS = {"\n": "a newline", "\r": "a carriage return", " ": "a space", "\t": "a tab"}


def refuse_whitespace(name: str, key: str) -> None:
    """A key read from a file keeps its newline, which no HTTP header may hold: said as such, not
    as the connection error it becomes. Not stripped: the redaction of every output looks for the
    variable's value as it is, so a stripped key echoed by a server would be shown."""
    ends = [f"{where} {_BLANKS.get(char, 'whitespace')}"
            for where, char, edge in (("starts with", key[:1], key.lstrip()), ("ends with", key[-1:], key.rstrip()))
            if edge != key]
    if ends:
        raise JudgeError(
            f"llmfaith: the judge's API key in {name} {' and '.join(ends)}: it cannot be sent like that (a "
            "key read from a file keeps its newline, and no HTTP header may hold one). Fix: set it "
            f"without, e.g. {name}=\"$(tr -d '[:space:]' < key.txt)\"; the key is not shown.")


def bypass_proxy_for_loopback(api_base: str | None) -> None:
    """A judge on this machine (the offline judge, a local server) is never reached through
    HTTP(S)_PROXY: add its host to NO_PROXY, which litellm's HTTP client honours."""
    host = urlparse(api_base or "").hostname
    if host not in LOOPBACK_HOSTS:
        return
    for name in ("NO_PROXY", "no_proxy"):
        hosts = [h for h in os.environ.get(name, "").split(",") if h.strip()]
        if host not in hosts:
            os.environ[name] = ",".join([*hosts, host])


# -- what a failed call says ------------------------------------------------------------
def failure(config: JudgeConfig, step: str, err: Exception, attempts: int) -> JudgeError:
    """A failed call as a JudgeError, its kind set on it (connection failures are counted)."""
    kind = type(err).__name__
    if "connection error" in str(err).lower():
        kind = "APIConnectionError"  # litellm reports some refused connections as 500s
    return judge_failure(config, step, kind, server_said(err), attempts)


def server_said(err: BaseException) -> str:
    """What the server said: the innermost message of the exception chain. litellm's own text
    loses it when a 200 response's body is an error object."""
    said = ""
    seen: BaseException | None = err
    for _ in range(10):  # a chain is a handful of wrappers; never follow a cycle forever
        if seen is None:
            break
        message = getattr(seen, "message", None)
        if isinstance(message, str) and message.strip():
            said = message.strip().splitlines()[0]
        seen = seen.__cause__ or seen.__context__
    return said or (str(err).strip().splitlines() or [""])[0]
