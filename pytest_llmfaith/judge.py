"""The judge client: the only module that talks to litellm.

One method, `ask`, turns a prompt and a pydantic schema into a validated answer: cache lookup,
then the call with transport retries (429 / 5xx / connection / timeout, with backoff), tolerant
JSON parsing, and a bounded re-ask when the answer is malformed. Failed answers are never stored.
litellm is imported on the first real call, so `import pytest_llmfaith` and fully cached runs
never pay its 5-9 s import nor touch the network.
"""

from __future__ import annotations

import copy
import functools
import json
import os
import re
import shlex
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any, Literal, NamedTuple, TypeVar
from urllib.parse import urlparse

from pydantic import BaseModel, Field, ValidationError

from .cache import JudgeCache, request_key
from .errors import CacheMissError, JudgeError
from .progress import NO_PROGRESS, JudgeProgress
from .recordings import StoredAnswer, summarise
from .results import JudgeCall

if TYPE_CHECKING:
    from types import ModuleType

    from .budget import Budget
    from .local import LocalModel
    from .local.watch import ServerWatch
    from .recordings import Recorder

T = TypeVar("T", bound=BaseModel)
Messages = list[dict[str, str]]

LOCAL_TRANSPORT_MODEL = "openai/local"
_SHOWN_ANSWER_CHARS = 300
TOP_LOGPROBS = 20


class NextToken(BaseModel):
    """A one-token answer read as probabilities: the judge's most likely next tokens and their
    log probabilities (OpenAI's `logprobs`). Asked for with this class as the schema."""

    top: dict[str, float] = Field(min_length=1)


UNREACHABLE_AFTER = 3  # calls in a row that could not connect; then the rest of the run fails at once


class JudgeConfig(BaseModel):
    """How to reach the judge. Everything except the key's *value* may end up in a cache key."""

    model: str
    api_base: str | None = None
    api_key_env: str | None = None
    timeout: float | None = None  # None: 60 s, or 600 s for the local judge (requests queue there)
    retries: int = 3
    reasks: int = 2
    temperature: float = 0.0
    seed: int | None = None
    max_tokens: int | None = None
    verdicts: Literal["auto", "all", "one", "label"] = "auto"
    votes: int = Field(default=1, ge=1)
    votes_temperature: float = Field(default=0.7, gt=0)
    concurrency: int = 8
    backoff_s: float = 0.5

    @property
    def is_local(self) -> bool:
        return self.model == "local" or self.model.startswith("local:")

    @property
    def request_timeout(self) -> float:
        return self.timeout or (600.0 if self.is_local else 60.0)

    def sampling(self, sample: int) -> tuple[float, int | None]:
        """(temperature, seed) of verdict sample `sample`: sample 0 is the plain request; later
        samples are drawn at the votes temperature with a seed of their own, so that a judge at
        temperature 0 (or a server that seeds by default) does not give the same answer N times."""
        if sample == 0:
            return self.temperature, self.seed
        return self.votes_temperature, (self.seed or 0) + sample

    @property
    def verdict_mode(self) -> Literal["all", "one", "label"]:
        """'auto': the offline judge reads each claim's label from one forward pass (faster and
        more accurate for a small model, benchmarks/README.md); a hosted judge gets all claims
        in one JSON call."""
        if self.verdicts == "auto":
            return "label" if self.is_local else "all"
        return self.verdicts


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


def extract_json(text: str) -> Any:
    """Parse a JSON answer that may be wrapped in code fences or prose."""
    body = text.strip()
    fenced = re.search(r"```(?:json)?\s*(.*?)```", body, re.DOTALL)
    if fenced:
        body = fenced.group(1).strip()
    try:
        return json.loads(body)
    except ValueError:
        start, end = body.find("{"), body.rfind("}")
        if start != -1 and end > start:
            try:
                return json.loads(body[start : end + 1])
            except ValueError:
                pass
    raise ValueError("the answer is not JSON")


def _secrets(names: Iterable[str | None] = ()) -> list[str]:
    named = [os.environ.get(name) or "" for name in names if name]
    found = [v for k, v in os.environ.items() if len(v) >= 8 and re.search(r"(KEY|TOKEN|SECRET)$", k)]
    return sorted({v for v in [*named, *found] if len(v) >= 4}, key=len, reverse=True)


def redact(text: str, names: Iterable[str | None] = ()) -> str:
    """Remove every credential-looking environment value from text that may reach a user, and
    the values of `names` (the configured key variable, which may be called anything)."""
    for secret in _secrets(names):
        text = text.replace(secret, "***")
    return text


def _shorten(text: str, limit: int = _SHOWN_ANSWER_CHARS) -> str:
    return text if len(text) <= limit else text[:limit] + f"... [{len(text) - limit} more chars]"


_SURROGATE = re.compile("[\ud800-\udfff]")


def sendable(text: str) -> str:
    """Text that survives UTF-8 encoding: a lone surrogate (broken decoding upstream) becomes U+FFFD
    instead of failing the HTTP request. The cache key keeps the text as given."""
    return _SURROGATE.sub("\ufffd", text)


class _Reply(NamedTuple):
    text: str
    usage: dict[str, int]
    cost: float | None
    finish_reason: str | None


class Judge:
    """Asks one judge model for structured answers, through the cache."""

    def __init__(self, config: JudgeConfig, cache: JudgeCache | None = None) -> None:
        self.config = config
        self.cache = cache or JudgeCache(None, mode="off")
        self._transport: tuple[str, str | None, str | None] | None = None
        self._identity: str | None = None
        self._local_model: LocalModel | None = None  # set once the local judge server is in use
        self._server: ServerWatch | None = None
        self._lock = threading.Lock()
        self.progress: JudgeProgress = NO_PROGRESS  # told about judge calls and server starts
        self._unreachable_calls = 0  # calls in a row that ended in a connection error
        self._unreachable: str | None = None  # once set, every call fails at once with this message
        self.recorder: Recorder | None = None  # the committed recordings, read before the cache
        self.budget: Budget | None = None  # the run's limit on new calls

    # -- cache identity -------------------------------------------------------------------
    @property
    def identity(self) -> str:
        """The model as it enters cache keys: a local model is named by its weights' hash."""
        if self._identity is None:
            if self.config.model == "local":  # known without the weights: replay needs no model
                from .local.weights import DEFAULT_MODEL_SHA256

                self._identity = f"local:{DEFAULT_MODEL_SHA256}"
            elif self.config.is_local:
                from .local import resolve_local_model

                self._identity = f"local:{resolve_local_model(self.config.model).sha256}"
            else:
                self._identity = self.config.model
        return self._identity

    def request(self, messages: Messages, schema: type[BaseModel] | None, prompt_version: str,
                sample: int = 0) -> dict[str, Any]:
        cfg = self.config
        temperature, seed = cfg.sampling(sample)
        request: dict[str, Any] = {
            "model": self.identity,
            "api_base": None if cfg.is_local else cfg.api_base,
            "messages": messages,
            "schema": schema_json(schema) if schema else None,
            "temperature": temperature,
            "seed": seed,
            "max_tokens": cfg.max_tokens,
            "prompt_version": prompt_version,
        }
        if sample:  # sample 0 keeps the key it had before votes existed: old caches stay valid
            request["sample"] = sample
        if schema is NextToken:
            request.update(schema=None, max_tokens=1, logprobs=TOP_LOGPROBS)
        return request

    # -- the one entry point --------------------------------------------------------------
    def ask(
        self,
        step: str,
        messages: Messages,
        schema: type[T] | None,
        prompt_version: str,
        check: Callable[[T], None] | None = None,
        sample: int = 0,
    ) -> tuple[T | str, JudgeCall]:
        """Return a validated answer (a `schema` instance, or text when schema is None).
        `sample` > 0 asks for another independent sample of the same answer (votes)."""
        key = request_key(self.request(messages, schema, prompt_version, sample))
        return (self._lookup(step, key, messages, prompt_version, sample, schema, check)
                or self._fetch(step, key, messages, prompt_version, sample, schema, check))

    def ask_each(
        self, step: str, conversations: Sequence[Messages], schema: type[T], prompt_version: str,
        sample: int = 0,
    ) -> list[tuple[T, JudgeCall]]:
        """Several independent questions: cache hits first, then the misses, concurrently for
        hosted judges and in order for the local one (it answers one at a time anyway)."""
        keys = [request_key(self.request(m, schema, prompt_version, sample)) for m in conversations]
        answers = [self._lookup(step, key, m, prompt_version, sample, schema, None)
                   for key, m in zip(keys, conversations)]
        misses = [i for i, found in enumerate(answers) if found is None]
        workers = 1 if self.config.is_local else max(1, min(self.config.concurrency, len(misses)))

        def fetch(i: int) -> tuple[T | str, JudgeCall]:
            return self._fetch(step, keys[i], conversations[i], prompt_version, sample, schema, None,
                               of=(i + 1, len(keys)))

        if workers == 1:
            fetched = [fetch(i) for i in misses]
        else:
            with ThreadPoolExecutor(max_workers=workers) as pool:
                fetched = list(pool.map(fetch, misses))
        for i, found in zip(misses, fetched):
            answers[i] = found
        return answers  # type: ignore[return-value]

    def _lookup(self, step: str, key: str, messages: Messages, prompt_version: str, sample: int,
                schema: type[T] | None, check: Callable[[T], None] | None) -> tuple[T | str, JudgeCall] | None:
        """The recordings first (committed, reviewed), then the working cache."""
        started = time.perf_counter()
        stored = (self.recorder.get(key) if self.recorder is not None else None) or self.cache.get(key)
        if stored is None:
            return None
        try:
            answer = self._validate(stored["answer"], schema, check)
        except (KeyError, TypeError, ValueError):
            return None  # an entry from an older schema: a miss, replaced when fetched again
        usage = stored.get("usage") or {}
        self._used(key, step, messages, prompt_version, sample, stored["answer"], usage, stored.get("cost_usd"))
        return answer, JudgeCall(
            step=step, model=self.config.model, cached=True, key=key,
            latency_s=time.perf_counter() - started, cost_usd=stored.get("cost_usd"),
            prompt_tokens=usage.get("prompt_tokens"), completion_tokens=usage.get("completion_tokens"),
        )

    def _fetch(self, step: str, key: str, messages: Messages, prompt_version: str, sample: int,
               schema: type[T] | None, check: Callable[[T], None] | None,
               of: tuple[int, int] = (1, 1)) -> tuple[T | str, JudgeCall]:
        if self.cache.mode == "replay":
            raise CacheMissError(self._replay_miss(step, key))
        if self.budget is not None:
            self.budget.reserve(step, self.config.model)
        import_litellm()
        started = time.perf_counter()  # judge time, not the one-off cost of importing litellm
        with self.progress.call(step, *of):
            answer, raw, usage, cost, attempts = self._ask_until_valid(step, messages, schema, check, sample)
        if self.budget is not None:
            self.budget.spend(cost)
        entry = self._used(key, step, messages, prompt_version, sample, raw, usage, cost)
        recorded_by = self.recorder.recorded_by() if self.recorder is not None else ""
        self.cache.set(key, {**entry.model_dump(mode="json"), "recorded_by": recorded_by})
        return answer, JudgeCall(
            step=step, model=self.config.model, cached=False, key=key, attempts=attempts,
            latency_s=time.perf_counter() - started, cost_usd=cost,
            prompt_tokens=usage.get("prompt_tokens"), completion_tokens=usage.get("completion_tokens"),
        )

    # -- internals ------------------------------------------------------------------------
    def _used(self, key: str, step: str, messages: Messages, prompt_version: str, sample: int, raw: Any,
              usage: dict[str, int], cost: float | None) -> StoredAnswer:
        """The answer with what was asked, noted on the running test for its module's recording."""
        entry = StoredAnswer(step=step, model=self.config.model, prompt_version=prompt_version, sample=sample,
                             asked=summarise(messages), answer=raw, usage=usage, cost_usd=cost)
        if self.recorder is not None:
            self.recorder.used(key, entry)
        return entry

    def _replay_miss(self, step: str, key: str) -> str:
        """Name what entered the key (test, model, api base) and how to record just that test."""
        from .session import running_item

        item = running_item()
        test = f"test {item.nodeid}" if item is not None else "this call"
        command = f"pytest {shlex.quote(item.nodeid)} --llm-cache=use" if item is not None else \
            "the same call with --llm-cache=use (LLMFAITH_CACHE=use)"
        api_base = None if self.config.is_local else self.config.api_base
        recording = self.recorder.path() if self.recorder is not None else None
        where = f"neither the recordings {recording} nor the cache " if recording is not None else ""
        keep = "commit the recordings" if recording is not None else \
            "keep the cache directory (commit it or restore it in CI)"
        return (
            f"llmfaith: replay has no stored judge answer for {test} (step '{step}', model "
            f"{self.config.model}, api base {api_base or 'none'}, cache key {key[:12]}) in "
            f"{where}{self.cache.directory}; --llm-cache=replay never calls the judge. Fix: record it "
            f"with a reachable judge and the same model and api base: {command}; then {keep}."
        )

    def _redact(self, text: str) -> str:
        return redact(text, [self.config.api_key_env])

    @staticmethod
    def _validate(data: Any, schema: type[T] | None, check: Callable[[T], None] | None) -> T | str:
        if schema is None:
            if not isinstance(data, str):
                raise TypeError("expected text")
            return data
        answer = schema.model_validate(data)
        if check is not None:
            check(answer)
        return answer

    def _ask_until_valid(
        self, step: str, messages: Messages, schema: type[T] | None, check: Callable[[T], None] | None,
        sample: int = 0,
    ) -> tuple[T | str, Any, dict[str, int], float | None, int]:
        conversation = list(messages)
        tokens = {"prompt_tokens": 0, "completion_tokens": 0}
        cost: float | None = None
        problem = ""
        text = ""
        for attempt in range(1, self.config.reasks + 2):
            reply = self._complete(step, conversation, schema, sample)
            text = reply.text
            for name in tokens:
                tokens[name] += reply.usage.get(name) or 0
            if reply.cost is not None:
                cost = (cost or 0.0) + reply.cost
            try:
                raw = text if schema is None else extract_json(text)
                if schema is None and not text.strip():
                    raise ValueError("the answer is empty")
                return self._validate(raw, schema, check), raw, tokens, cost, attempt
            except (ValueError, ValidationError) as err:
                if reply.finish_reason == "length":  # asked again, it would be cut again
                    raise self._cut_off(step, text) from None
                problem = _describe(err)
            conversation = [
                *messages,
                {"role": "assistant", "content": text},
                {"role": "user", "content": f"That answer was invalid: {problem}. Reply again with "
                 "only the JSON object, in exactly the requested format."},
            ]
        raise JudgeError(self._redact(
            f"llmfaith: judge {self.config.model} gave no valid answer at step '{step}' after "
            f"{self.config.reasks + 1} attempts: {problem}. Last answer: {_shorten(text)!r}. "
            "Fix: use a stronger judge model (--llm-judge-model), or check that the server "
            "returns the JSON it is asked for."
        ))

    def _cut_off(self, step: str, text: str) -> JudgeError:
        limit = f"max_tokens={self.config.max_tokens}" if self.config.max_tokens else "the server's default limit"
        return JudgeError(self._redact(
            f"llmfaith: judge {self.config.model}'s answer at step '{step}' was cut off by the token "
            f"limit ({limit}) before it was complete: {_shorten(text)!r}. Fix: raise the limit with "
            "--llm-judge-max-tokens=N (ini llm_judge_max_tokens, env LLMFAITH_JUDGE_MAX_TOKENS)."
        ))

    def _complete(self, step: str, messages: Messages, schema: type[BaseModel] | None, sample: int = 0) -> _Reply:
        litellm = import_litellm()
        if self._unreachable is not None:
            raise JudgeError(self._unreachable)
        model, api_base, api_key = self._resolve_transport()
        messages = [{**m, "content": sendable(m["content"])} for m in messages]
        temperature, seed = self.config.sampling(sample)
        kwargs: dict[str, Any] = {
            "model": model, "messages": messages, "timeout": self.config.request_timeout,
            "temperature": temperature, "max_retries": 0,
        }
        for name, value in (("api_base", api_base), ("api_key", api_key),
                            ("seed", seed), ("max_tokens", self.config.max_tokens)):
            if value is not None:
                kwargs[name] = value
        if schema is NextToken:
            kwargs.update(max_tokens=1, logprobs=True, top_logprobs=TOP_LOGPROBS)
        elif schema is not None:
            kwargs["response_format"] = self._response_format(litellm, model, schema)
        transient = (litellm.RateLimitError, litellm.Timeout, litellm.APIConnectionError,
                     litellm.InternalServerError, litellm.ServiceUnavailableError, litellm.BadGatewayError)
        for attempt in range(self.config.retries + 1):
            try:
                response = self._send(litellm, kwargs, step)
                break
            except JudgeError:
                raise  # the offline judge's server died: already explained
            except transient as err:
                if attempt == self.config.retries:
                    raise self._count_unreachable(self._failure(step, err, attempts=attempt + 1)) from None
                time.sleep(self._backoff(err, attempt))
            except Exception as err:  # auth, bad request, unknown provider: not worth retrying
                raise self._failure(step, err, attempts=attempt + 1) from None
        self._unreachable_calls = 0
        if not response.choices:
            raise JudgeError(
                f"llmfaith: judge {self.config.model} answered step '{step}' with no choices (an empty "
                "`choices` list, so no answer at all). Fix: check the judge server and its logs "
                "(a content filter or a server fault can drop every choice)."
            )
        choice = response.choices[0]
        text = choice.message.content or ""
        if schema is NextToken:
            text = _next_token_json(choice)
            if not text:
                raise JudgeError(
                    f"llmfaith: judge {self.config.model} returned no logprobs at step '{step}': "
                    "label verdicts read the answer's token probabilities. Fix: use a judge that "
                    "returns logprobs (OpenAI, the offline judge) or --llm-judge-verdicts=one."
                )
        usage = getattr(response, "usage", None)
        return _Reply(text, {
            "prompt_tokens": getattr(usage, "prompt_tokens", None) or 0,
            "completion_tokens": getattr(usage, "completion_tokens", None) or 0,
        }, _cost(litellm, response), getattr(choice, "finish_reason", None))

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
        """Give up this process's lease on the local judge server, if it used one."""
        if self._local_model is not None:
            from .local import shutdown_server

            shutdown_server(self._local_model)

    def _resolve_transport(self) -> tuple[str, str | None, str | None]:
        if self._transport is None:
            with self._lock:
                if self._transport is None:
                    cfg = self.config
                    if cfg.is_local:
                        from .local import resolve_local_model

                        self._local_model = resolve_local_model(cfg.model)
                        self._transport = (LOCAL_TRANSPORT_MODEL, self._local_server().api_base(), "local")
                    else:
                        key = os.environ.get(cfg.api_key_env) if cfg.api_key_env else None
                        if cfg.api_key_env and not key:
                            raise JudgeError(
                                f"llmfaith: the judge API key variable {cfg.api_key_env} is not set. "
                                f"Fix: export {cfg.api_key_env}=<your key>, or change --llm-judge-api-key-env."
                            )
                        if key is None and cfg.api_base and cfg.model.startswith("openai/"):
                            key = os.environ.get("OPENAI_API_KEY") or "none"  # keyless local servers
                        self._transport = (cfg.model, cfg.api_base, key)
                    bypass_proxy_for_loopback(self._transport[1])
        return self._transport

    def _local_server(self) -> ServerWatch:
        from .local.watch import ServerWatch

        assert self._local_model is not None
        self._server = ServerWatch(self._local_model, announce=self.progress.judge_loading)
        return self._server

    def _send(self, litellm: ModuleType, kwargs: dict[str, Any], step: str) -> Any:
        """litellm.completion; a request that cannot reach the offline judge's server finds out
        whether it died, and if so goes once to a replacement (see local/watch.py)."""
        while True:
            try:
                return litellm.completion(**kwargs)
            except (litellm.APIConnectionError, litellm.InternalServerError) as err:
                failure = err
            # outside the handler: an error about a dead server does not chain litellm's traceback
            base = self._server.replace_if_dead(step) if self._server is not None else None
            if base is None:
                raise failure
            kwargs["api_base"] = base
            self._transport = (LOCAL_TRANSPORT_MODEL, base, "local")

    def _response_format(self, litellm: ModuleType, model: str, schema: type[BaseModel]) -> dict[str, Any]:
        """JSON schema where the provider enforces it, plain JSON mode otherwise."""
        try:
            strict = self.config.is_local or litellm.supports_response_schema(model=model)
        except Exception:
            strict = False
        if strict:
            return {"type": "json_schema",
                    "json_schema": {"name": schema.__name__, "schema": copy.deepcopy(schema_json(schema))}}
        return {"type": "json_object"}

    def _backoff(self, err: Exception, attempt: int) -> float:
        headers = getattr(getattr(err, "response", None), "headers", None) or {}
        for name, scale in (("retry-after-ms", 0.001), ("retry-after", 1.0)):
            try:
                return min(float(headers[name]) * scale, 60.0)
            except (KeyError, TypeError, ValueError):
                continue
        return min(self.config.backoff_s * 2**attempt, 30.0)

    def _failure(self, step: str, err: Exception, attempts: int) -> JudgeError:
        kind = type(err).__name__
        if "connection error" in str(err).lower():
            kind = "APIConnectionError"  # litellm reports some refused connections as 500s
        server_error = "the judge server failed (see its message); check its logs, or raise --llm-judge-retries"
        hint = {
            "RateLimitError": "the judge is rate-limiting; lower concurrency (-n), raise "
                              "--llm-judge-retries, or record once and use --llm-cache=replay in CI",
            "Timeout": "raise --llm-judge-timeout or check the judge server is responsive",
            "APIConnectionError": "check --llm-judge-api-base and that the judge server is running",
            "AuthenticationError": "set the provider's API key variable (e.g. OPENAI_API_KEY) or "
                                   "--llm-judge-api-key-env",
            "InternalServerError": server_error, "ServiceUnavailableError": server_error,
            "BadGatewayError": server_error, "APIError": server_error,
        }.get(kind, "check the server's message, the judge model string (--llm-judge-model) and "
                    "--llm-judge-api-base")
        error = JudgeError(self._redact(
            f"llmfaith: judge {self.config.model} failed at step '{step}' after {attempts} "
            f"attempt(s): {kind}: {_shorten(server_said(err).rstrip('. ') or kind)}. Fix: {hint}."
        ))
        error.kind = kind
        return error


@functools.lru_cache(maxsize=None)
def schema_json(schema: type[BaseModel]) -> dict[str, Any]:
    """A schema's JSON Schema, built once: it is most of the cost of a cache hit otherwise."""
    return schema.model_json_schema()


def bypass_proxy_for_loopback(api_base: str | None) -> None:
    """A judge on this machine (the offline judge, a local server) is never reached through
    HTTP(S)_PROXY: add its host to NO_PROXY, which litellm's HTTP client honours."""
    host = urlparse(api_base or "").hostname
    if host not in ("127.0.0.1", "localhost", "::1"):
        return
    for name in ("NO_PROXY", "no_proxy"):
        hosts = [h for h in os.environ.get(name, "").split(",") if h.strip()]
        if host not in hosts:
            os.environ[name] = ",".join([*hosts, host])


def _next_token_json(choice: Any) -> str:
    """The first answer token's alternatives as NextToken JSON ("" when the judge sent none)."""
    content = getattr(getattr(choice, "logprobs", None), "content", None) or []
    first = content[0] if content else None
    alternatives = (getattr(first, "top_logprobs", None) or []) if first is not None else []
    top = {alt.token: float(alt.logprob) for alt in reversed(alternatives)}
    return json.dumps({"top": top}) if top else ""


def server_said(err: BaseException) -> str:
    """What the server said: the innermost message of the exception chain. litellm's own text
    loses it when a 200 response's body is an error object."""
    said, seen = "", err
    for _ in range(10):  # a chain is a handful of wrappers; never follow a cycle forever
        if seen is None:
            break
        message = getattr(seen, "message", None)
        if isinstance(message, str) and message.strip():
            said = message.strip().splitlines()[0]
        seen = seen.__cause__ or seen.__context__
    return said or (str(err).strip().splitlines() or [""])[0]


def _describe(err: Exception) -> str:
    if isinstance(err, ValidationError):
        first = err.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "answer"
        return f"{where}: {first['msg']}"
    return str(err)


def _cost(litellm: ModuleType, response: Any) -> float | None:
    hidden = getattr(response, "_hidden_params", None) or {}
    cost = hidden.get("response_cost")
    if cost is None:
        try:
            cost = litellm.completion_cost(completion_response=response)
        except Exception:
            return None
    return float(cost) if cost else None


