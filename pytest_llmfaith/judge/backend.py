"""What a judge is handed to send through, and the contract every way to a model keeps: how to reach
and ask it (`JudgeConfig`), what a transport takes and gives (the one OpenAI request body and the one
reader of its completion, without litellm) and says when it fails, and the `Backend` that makes the
transport on the first uncached call and says in its `Traits` what differs about it, so that the
core asks no model name. Defaults are the options': a library judge asks as a pytest run would.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from pydantic import BaseModel, Field

from pytest_llmfaith.errors import JudgeError, redact
from pytest_llmfaith.settings import default
from pytest_llmfaith.wording import shorten


class JudgeConfig(BaseModel):
    """How to reach the judge. Everything except the key's *value* may end up in a cache key."""

    model: str
    api_base: str | None = default("llm_judge_api_base")
    api_key_env: str | None = default("llm_judge_api_key_env")
    timeout: float | None = default("llm_judge_timeout")  # None: the backend's (Traits.timeout)
    retries: int = default("llm_judge_retries")
    reasks: int = 2
    temperature: float = 0.0
    seed: int | None = None
    max_tokens: int | None = default("llm_judge_max_tokens")
    verdicts: Literal["auto", "all", "one", "label"] = default("llm_judge_verdicts")
    votes: int = Field(default=default("llm_judge_votes"), ge=1)
    votes_temperature: float = Field(default=default("llm_judge_votes_temperature"), gt=0)
    concurrency: int = default("llm_judge_concurrency")
    backoff_s: float = 0.5

    def sampling(self, sample: int) -> tuple[float, int | None]:
        """Later samples get the votes temperature and their own seed, or a judge at temperature 0
        (or a server that seeds by default) gives the same answer N times."""
        if sample == 0:
            return self.temperature, self.seed
        return self.votes_temperature, (self.seed or 0) + sample


@dataclass(frozen=True)
class Traits:
    """What differs between the ways to a model, said by its backend (the core asks no model name):
    a hosted model's by default, the offline judge's its own."""

    api_base_in_key: bool = True  # the offline server's address changes from run to run, its answers do not
    one_at_a_time: bool = False  # the model answers one request at a time: a batch's misses are asked in order
    timeout: float = 60.0  # a request's, unless --llm-judge-timeout (the offline server queues requests)
    verdicts: Literal["all", "label"] = "all"  # --llm-judge-verdicts=auto: labels suit a small model
    # Questions about one claim are asked one after the other, so the second reads the first's
    # prompt from the KV cache.
    asks_in_turn: bool = False

    def request_timeout(self, config: JudgeConfig) -> float:
        return config.timeout or self.timeout

    def verdict_mode(self, config: JudgeConfig) -> Literal["all", "one", "label"]:
        """'auto': labels for the offline judge (faster and more accurate for a small model:
        benchmarks/HISTORY.md), one JSON call for a hosted one."""
        return self.verdicts if config.verdicts == "auto" else config.verdicts


HOSTED = Traits()


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


_SERVER_ERROR = "the judge server failed (see its message); check its logs, or raise --llm-judge-retries"
HINTS = {
    "RateLimitError": "the judge is rate-limiting; lower --llm-judge-concurrency "
                      "(one limit for the whole run, all workers), raise --llm-judge-retries, or record "
                      "once and use --llm-cache=replay in CI",
    "Timeout": "raise --llm-judge-timeout or check the judge server is responsive",
    "APIConnectionError": "check --llm-judge-api-base and that the judge server is running",
    "AuthenticationError": "set the provider's API key variable (e.g. OPENAI_API_KEY) or "
                           "--llm-judge-api-key-env",
    "InternalServerError": _SERVER_ERROR, "ServiceUnavailableError": _SERVER_ERROR,
    "BadGatewayError": _SERVER_ERROR, "APIError": _SERVER_ERROR,
}
OTHER_HINT = "check the server's message, the judge model string (--llm-judge-model) and --llm-judge-api-base"


def judge_failure(config: JudgeConfig, step: str, kind: str, said: str, attempts: int,
                  hint: str | None = None) -> JudgeError:
    """The error of a request that failed: the kind of failure (litellm's exception names), what
    the server said, and the fix (`hint`, else the kind's)."""
    error = JudgeError(redact(
        f"llmfaith: judge {config.model} failed at step '{step}' after {attempts} "
        f"attempt(s): {kind}: {shorten(said.rstrip('. ') or kind, 300)}. Fix: {hint or HINTS.get(kind, OTHER_HINT)}.",
        [config.api_key_env],
    ))
    error.kind = kind
    return error


def chat_body(request: CompletionRequest, model: str, enforce_schema: bool = True) -> dict[str, Any]:
    """The OpenAI chat request of `request`, as every transport sends it: a one-token answer with its
    alternatives, or the answer's JSON Schema where the server enforces it (plain JSON mode where not)."""
    body: dict[str, Any] = {"model": model, "temperature": request.temperature,
                            "messages": [{**m, "content": sendable(m["content"])} for m in request.messages]}
    for name, value in (("seed", request.seed), ("max_tokens", request.max_tokens)):
        if value is not None:
            body[name] = value
    if request.top_logprobs:
        body.update(max_tokens=1, logprobs=True, top_logprobs=request.top_logprobs)
    elif request.json_schema is not None:
        body["response_format"] = {"type": "json_object"} if not enforce_schema else {
            "type": "json_schema",
            "json_schema": {"name": request.schema_name, "schema": copy.deepcopy(request.json_schema)}}
    return body


def parse_completion(payload: bytes | dict[str, Any], config: JudgeConfig, request: CompletionRequest) -> Completion:
    """An OpenAI chat completion (its JSON, or litellm's as a dict) as every transport reads it: the
    first choice's text, finish reason and (for `top_logprobs`) first token's alternatives, and the
    usage; the cost is the transport's to add. A payload of another shape is an error naming it."""
    model, step = config.model, request.step
    try:
        data = json.loads(payload) if isinstance(payload, bytes) else payload
        if not (choices := data.get("choices")):
            raise JudgeError(f"llmfaith: judge {model} answered step '{step}' with no choices (an empty `choices` "
                             "list, so no answer at all). Fix: check the judge server and its logs (a content "
                             "filter or a server fault can drop every choice).")
        top = _top_logprobs(choices[0]) if request.top_logprobs else None
        if request.top_logprobs and not top:
            raise JudgeError(f"llmfaith: judge {model} returned no logprobs at step '{step}': label verdicts read "
                             "the answer's token probabilities. Fix: use a judge that returns logprobs (OpenAI, "
                             "the offline judge) or --llm-judge-verdicts=one.")
        usage = data.get("usage") or {}
        return Completion(text=(choices[0].get("message") or {}).get("content") or "",
                          usage={"prompt_tokens": usage.get("prompt_tokens") or 0,
                                 "completion_tokens": usage.get("completion_tokens") or 0},
                          finish_reason=choices[0].get("finish_reason"), top_logprobs=top)
    except (ValueError, AttributeError, TypeError, KeyError, IndexError) as err:
        raise JudgeError(f"llmfaith: judge {model} answered step '{step}' with no chat completion "
                         f"({type(err).__name__}: {err}). Fix: report it with the server's log.") from None


def _top_logprobs(choice: dict[str, Any]) -> dict[str, float]:
    """The first answer token's alternatives, least likely first ({} when the judge sent none)."""
    content = (choice.get("logprobs") or {}).get("content") or []
    alternatives = (content[0].get("top_logprobs") or []) if content else []
    return {alt["token"]: float(alt["logprob"]) for alt in reversed(alternatives)}


_SURROGATE = re.compile("[\ud800-\udfff]")


def sendable(text: str) -> str:
    """A lone surrogate becomes U+FFFD instead of failing the HTTP request; the cache key keeps the text as given."""
    return _SURROGATE.sub("\ufffd", text)


Announce = Callable[[str, float | None], None]  # the model starts loading (None) / is ready after s


class Backend(Protocol):
    @property
    def traits(self) -> Traits:
        """What differs for this way to a model (the api base in the key, parallelism, timeout, ...)."""
        ...

    def identity(self, replay: bool) -> str:
        """The model as it enters cache keys (for the offline judge, its weights and the kernels
        that run them, not its name). A replay runs no model, not even to choose kernels."""
        ...

    def replay_hint(self, key_model: str) -> str:
        """What a replay miss adds about the model in the key ("" when nothing)."""
        ...

    def transport(self, announce: Announce | None) -> Transport:
        """The way to the model; `announce` is told when a model starts loading and when it is
        ready (the offline judge's server)."""
        ...
