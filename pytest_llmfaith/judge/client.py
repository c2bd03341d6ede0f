"""The judge client: `ask` turns a prompt and a schema into a validated answer.

Recordings and cache first, then the transport, with a bounded re-ask on a malformed answer;
failed answers are never stored. The transport is made on the first uncached call, so import
and fully cached runs never pay litellm's import nor touch the network.
"""

from __future__ import annotations

import functools
import json
import math
import re
import shlex
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any, TypeVar

from pydantic import BaseModel, Field, ValidationError, model_validator

from pytest_llmfaith.errors import CacheMissError, JudgeError, redact, redact_data
from pytest_llmfaith.judge.cache import JudgeCache, request_key
from pytest_llmfaith.judge.config import JudgeConfig
from pytest_llmfaith.judge.offline import OfflineJudge, plugged_in
from pytest_llmfaith.judge.progress import NO_PROGRESS, JudgeProgress
from pytest_llmfaith.judge.transport import Completion, CompletionRequest, LiteLLMTransport, Transport
from pytest_llmfaith.recordings.asked import summarise
from pytest_llmfaith.recordings.asker import NOBODY, Asker
from pytest_llmfaith.recordings.files import StoredAnswer
from pytest_llmfaith.results import JudgeCall
from pytest_llmfaith.wording import shorten

if TYPE_CHECKING:
    from pytest_llmfaith.judge.budget import Budget
    from pytest_llmfaith.judge.flight import Flights
    from pytest_llmfaith.recordings.recorder import Recorder

SHOWN_ANSWER_CHARS = 300  # of a judge's answer in an error message: enough to see what went wrong
T = TypeVar("T", bound=BaseModel)
Messages = list[dict[str, str]]

TOP_LOGPROBS = 20


class NextToken(BaseModel):
    """A one-token answer as top log probabilities. A recording keeps only P(yes), which decides."""

    top: dict[str, float] = Field(default_factory=dict)
    p_yes: float | None = Field(default=None, ge=0.0, le=1.0)

    @model_validator(mode="after")
    def _probabilities(self) -> NextToken:
        if not self.top and self.p_yes is None:
            raise ValueError("a one-token answer needs its top tokens or its P(yes)")
        return self


def p_yes(answer: NextToken) -> float:
    """P(yes) / (P(yes) + P(no)) over the answer's first token, whatever its case or spacing; a
    recording keeps it alone."""
    if answer.p_yes is not None:
        return answer.p_yes
    mass = {"yes": 0.0, "no": 0.0}
    for token, logprob in answer.top.items():
        word = token.strip().lower()
        if word in mass:
            mass[word] += math.exp(logprob)
    total = mass["yes"] + mass["no"]
    return mass["yes"] / total if total > 0 else 0.5


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


class Judge:
    """Asks one judge model for structured answers, through the cache."""

    def __init__(self, config: JudgeConfig, cache: JudgeCache | None = None,
                 transport: Transport | None = None, *, offline: OfflineJudge | None = None,
                 asker: Asker = NOBODY) -> None:
        self.config = config
        self.offline = offline  # None: the one plugged in (judge/offline.py), asked only for a local model
        self.asker = asker  # the test that is asking, named in a replay miss
        self.cache = cache or JudgeCache(None, mode="off")
        self._transport = transport  # None: a LiteLLMTransport, made on the first uncached call
        self._identity: str | None = None
        self._lock = threading.Lock()
        self.progress: JudgeProgress = NO_PROGRESS  # told about judge calls and server starts
        self.recorder: Recorder | None = None  # the committed recordings, read before the cache
        self.budget: Budget | None = None  # the run's limit on requests
        self.flights: Flights | None = None  # the run's single flight; None: every miss is asked
        self.connect: Callable[[], Transport] | None = None  # makes the transport (the run's relay); None: litellm here

    # -- cache identity -------------------------------------------------------------------
    @property
    def identity(self) -> str:
        """The model as it enters cache keys: a local model is named by its weights' hash."""
        if self._identity is None:
            if self.config.is_local:
                self._identity = self._offline().identity(self.config.model, replay=self.cache.mode == "replay")
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
        stored = (self.recorder.get(key) if self.recorder is not None else None) or self.cache.get(key)
        return self._serve(stored, step, key, messages, prompt_version, sample, schema, check)

    def _serve(self, stored: dict[str, Any] | None, step: str, key: str, messages: Messages, prompt_version: str,
               sample: int, schema: type[T] | None, check: Callable[[T], None] | None,
               ) -> tuple[T | str, JudgeCall] | None:
        """A stored answer as the answer of this call (cached: no new request), or None."""
        started = time.perf_counter()
        if stored is None:
            return None
        try:
            answer = self._validate(stored["answer"], schema, check)
        except (KeyError, TypeError, ValueError):
            return None  # an entry from an older schema: a miss, replaced when fetched again
        usage = stored.get("usage") or {}
        if self.recorder is not None:  # a hit's entry is only wanted by the module's recording
            self._used(key, step, messages, prompt_version, sample, stored["answer"], usage, stored.get("cost_usd"),
                       schema)
        return answer, JudgeCall(
            step=step, model=self.config.model, cached=True, key=key,
            latency_s=time.perf_counter() - started, cost_usd=stored.get("cost_usd"),
            prompt_tokens=usage.get("prompt_tokens"), completion_tokens=usage.get("completion_tokens"),
        )

    def _fetch(self, step: str, key: str, messages: Messages, prompt_version: str, sample: int,
               schema: type[T] | None, check: Callable[[T], None] | None,
               of: tuple[int, int] = (1, 1)) -> tuple[T | str, JudgeCall]:
        """Ask the judge, once per run and key (single flight): a test that asks what another
        test of the run is asking waits for that answer and shares it."""
        if self.cache.mode == "replay":
            raise CacheMissError(self._replay_miss(step, key))
        if self.flights is None:
            return self._ask_judge(step, key, messages, prompt_version, sample, schema, check, of)
        with self.flights.alone(key):
            shared = self._serve(self.flights.answer(key), step, key, messages, prompt_version, sample, schema, check)
            return shared or self._ask_judge(step, key, messages, prompt_version, sample, schema, check, of)

    def _ask_judge(self, step: str, key: str, messages: Messages, prompt_version: str, sample: int,
                   schema: type[T] | None, check: Callable[[T], None] | None,
                   of: tuple[int, int]) -> tuple[T | str, JudgeCall]:
        transport = self.transport
        started = time.perf_counter()  # judge time, not the one-off cost of importing litellm
        with self.progress.call(step, *of):
            answer, raw, usage, cost, attempts = self._ask_until_valid(
                transport, step, messages, schema, check, sample)
        entry = self._used(key, step, messages, prompt_version, sample, raw, usage, cost, schema)
        recorded_by = self.recorder.recorded_by() if self.recorder is not None else ""
        stored = {**entry.model_dump(mode="json"), "recorded_by": recorded_by}
        if self.flights is not None:
            self.flights.keep(key, stored)
        self.cache.set(key, stored)
        return answer, JudgeCall(
            step=step, model=self.config.model, cached=False, key=key, attempts=attempts,
            latency_s=time.perf_counter() - started, cost_usd=cost,
            prompt_tokens=usage.get("prompt_tokens"), completion_tokens=usage.get("completion_tokens"),
        )

    # -- internals ------------------------------------------------------------------------
    def _used(self, key: str, step: str, messages: Messages, prompt_version: str, sample: int, raw: Any,
              usage: dict[str, int], cost: float | None, schema: type[BaseModel] | None) -> StoredAnswer:
        """Noted on the running test for its module's recording, redacted: also answers stored before
        answers were redacted on arrival."""
        names = [self.config.api_key_env]
        entry = StoredAnswer(step=step, model=self.config.model, prompt_version=prompt_version, sample=sample,
                             asked=redact_data(summarise(messages), names), answer=redact_data(raw, names),
                             usage=usage, cost_usd=cost)
        if self.recorder is not None:
            p = p_yes(NextToken.model_validate(entry.answer)) if schema is NextToken else None
            self.recorder.used(key, entry, p_yes=p, exact=self.config.votes > 1)
        return entry

    def _replay_miss(self, step: str, key: str) -> str:
        """Name what entered the key (test, model, api base) and how to record just that test."""
        item = self.asker.asking()
        test = f"test {item.nodeid}" if item is not None else "this call"
        command = f"pytest {shlex.quote(item.nodeid)} --llm-cache=use" if item is not None else \
            "the same call with --llm-cache=use (LLMFAITH_CACHE=use)"
        api_base = None if self.config.is_local else self.config.api_base
        recording = self.recorder.path() if self.recorder is not None else None
        where = f"the recordings {recording} or the cache " if recording is not None else ""  # "has no ... in"
        keep = "commit the recordings" if recording is not None else \
            "keep the cache directory (commit it or restore it in CI)"
        return (
            f"llmfaith: replay has no stored judge answer for {test} (step '{step}', model "
            f"{self.config.model}, api base {api_base or 'none'}, cache key {key[:12]}) in "
            f"{where}{self.cache.directory}; --llm-cache=replay never calls the judge. Fix: record it "
            f"with a reachable judge and the same model and api base: {command}; then {keep}."
            + (self._offline().replay_hint(self.identity) if self.config.is_local else "")
        )

    @property
    def transport(self) -> Transport:
        """The way to the model, made when first needed: litellm's import is paid only then."""
        if self._transport is None:
            with self._lock:
                if self._transport is None:
                    self._transport = self.connect() if self.connect is not None else self._litellm()
        return self._transport

    def _litellm(self) -> Transport:
        """litellm in this process, to the config's endpoint; the offline judge's own way to its server."""
        if self.config.is_local:
            return self._offline().transport(self.config, self.progress.judge_loading)
        return LiteLLMTransport(self.config)

    def _offline(self) -> OfflineJudge:
        return self.offline if self.offline is not None else plugged_in()

    def _completion(self, step: str, messages: Messages, schema: type[BaseModel] | None,
                    sample: int) -> CompletionRequest:
        temperature, seed = self.config.sampling(sample)
        shape: dict[str, Any] = {}
        if schema is NextToken:
            shape = {"top_logprobs": TOP_LOGPROBS}
        elif schema is not None:
            shape = {"json_schema": schema_json(schema), "schema_name": schema.__name__}
        return CompletionRequest(step=step, messages=messages, temperature=temperature, seed=seed,
                                 max_tokens=self.config.max_tokens, **shape)

    def close(self) -> None:
        """Give up this process's lease on the local judge server, if it used one."""
        if self._transport is not None:
            self._transport.close()

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
        self, transport: Transport, step: str, messages: Messages, schema: type[T] | None,
        check: Callable[[T], None] | None, sample: int = 0,
    ) -> tuple[T | str, Any, dict[str, int], float | None, int]:
        conversation = list(messages)
        tokens = {"prompt_tokens": 0, "completion_tokens": 0}
        cost: float | None = None
        problem = ""
        text = ""
        for attempt in range(1, self.config.reasks + 2):
            reply = self._send(transport, self._completion(step, conversation, schema, sample))
            text = _answer_text(reply, schema)
            for name in tokens:
                tokens[name] += reply.usage.get(name) or 0
            if reply.cost is not None:
                cost = (cost or 0.0) + reply.cost
            try:
                # redacted as it arrives: the scorer, the stores and replay all see the same answer
                raw = redact_data(text if schema is None else extract_json(text), [self.config.api_key_env])
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
            f"{self.config.reasks + 1} attempts: {problem}. Last answer: {shorten(text, SHOWN_ANSWER_CHARS)!r}. "
            "Fix: use a stronger judge model (--llm-judge-model), or check that the server "
            "returns the JSON it is asked for."
        ))

    def _send(self, transport: Transport, request: CompletionRequest) -> Completion:
        """One request to the judge, within the run's budget: admitted before it leaves the
        process, settled with its price when it returns (or fails)."""
        if self.budget is None:
            return transport.complete(request)
        reservation = self.budget.reserve(request.step, self.config.model)
        reply: Completion | None = None
        try:
            reply = transport.complete(request)
            return reply
        finally:
            self.budget.settle(reservation, reply.cost if reply else None, answered=reply is not None)

    def _cut_off(self, step: str, text: str) -> JudgeError:
        limit = f"max_tokens={self.config.max_tokens}" if self.config.max_tokens else "the server's default limit"
        return JudgeError(self._redact(
            f"llmfaith: judge {self.config.model}'s answer at step '{step}' was cut off by the token "
            f"limit ({limit}) before it was complete: {shorten(text, SHOWN_ANSWER_CHARS)!r}. Fix: raise the limit with "
            "--llm-judge-max-tokens=N (ini llm_judge_max_tokens, env LLMFAITH_JUDGE_MAX_TOKENS)."
        ))

@functools.cache
def schema_json(schema: type[BaseModel]) -> dict[str, Any]:
    """A schema's JSON Schema, built once: it is most of the cost of a cache hit otherwise."""
    return schema.model_json_schema()


def _answer_text(reply: Completion, schema: type[BaseModel] | None) -> str:
    """The reply as the answer's JSON: a one-token answer is its alternatives as NextToken."""
    if schema is NextToken:
        return json.dumps({"top": reply.top_logprobs})
    return reply.text


def _describe(err: Exception) -> str:
    if isinstance(err, ValidationError):
        first = err.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "answer"
        return f"{where}: {first['msg']}"
    return str(err)
