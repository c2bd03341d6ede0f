"""The judge client: `ask` turns a prompt and a schema into a validated answer, from the stores
or through the sending chain, with a bounded re-ask on a malformed answer (failed answers are
never stored). The chain is made on the first uncached call, so import and fully cached runs
never pay litellm's import nor touch the network.
"""

from __future__ import annotations

import shlex
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Literal

from pytest_llmfaith.errors import CacheMissError, ConfigError
from pytest_llmfaith.judge.asking import ask_until_valid
from pytest_llmfaith.judge.backend import Backend, JudgeConfig, Traits, Transport
from pytest_llmfaith.judge.cache import JudgeCache
from pytest_llmfaith.judge.progress import NO_PROGRESS, JudgeProgress
from pytest_llmfaith.judge.question import Messages, Question, T
from pytest_llmfaith.judge.stores import Stores
from pytest_llmfaith.results import JudgeCall
from pytest_llmfaith.running import running_test

Answer = tuple[T | str, JudgeCall]


class Judge:
    """Asks one judge model for structured answers, through its stores.

    Built whole: `stores` (Stores: recordings, cache, single flight) and `backend` (the model as
    cache keys name it, and the sending chain, made on the first uncached call). For library use,
    `cache` is the short form of `stores=Stores(cache)` and `transport` a chain made already;
    `pytest_llmfaith.Judge` picks the backend from the model.
    """

    def __init__(self, config: JudgeConfig, cache: JudgeCache | None = None, transport: Transport | None = None,
                 *, stores: Stores | None = None, backend: Backend | None = None,
                 progress: JudgeProgress = NO_PROGRESS) -> None:
        if cache is not None and stores is not None:
            raise TypeError("Judge takes a cache or stores, not both")
        self.config = config
        self.stores = stores if stores is not None else Stores(cache or JudgeCache(None, mode="off"))
        self.progress = progress  # told about judge calls and server starts
        self.backend = backend if backend is not None else self.default_backend(config)
        self._transport = transport  # None: made by the backend on the first uncached call
        self._identity: str | None = None
        self._lock = threading.Lock()

    def default_backend(self, config: JudgeConfig) -> Backend:
        """The backend of a judge built without one: the core reads no model name, so it has none to
        choose (`pytest_llmfaith.Judge` chooses by the model)."""
        raise ConfigError(
            f"llmfaith: this judge of {config.model!r} was built without a backend (a local judge model "
            "needs the offline judge's backend, a hosted one litellm's). Fix: use `from pytest_llmfaith "
            "import Judge` (it picks the backend from the model), or pass Judge(..., backend=pytest_llmfaith"
            ".local.local_transport.OfflineBackend(config)), or backend=pytest_llmfaith.judge.transport"
            ".HostedBackend(config) for litellm.")

    @property
    def cache(self) -> JudgeCache:
        return self.stores.cache

    @property
    def traits(self) -> Traits:
        """What differs for this judge's backend: the core asks this, never the model's name."""
        return self.backend.traits

    @property
    def verdict_mode(self) -> Literal["all", "one", "label"]:
        """How verdicts are asked: --llm-judge-verdicts, or what `auto` means for this backend."""
        return self.traits.verdict_mode(self.config)

    # -- what is asked --------------------------------------------------------------------
    @property
    def identity(self) -> str:
        """The model as it enters cache keys: a local model is named by its weights' hash."""
        if self._identity is None:
            self._identity = self.backend.identity(replay=self.stores.replay)
        return self._identity

    def question(self, step: str, messages: Messages, schema: type[T] | None, prompt_version: str,
                 sample: int = 0, check: Callable[[T], None] | None = None) -> Question[T]:
        """The api base enters the key unless the backend says not (the offline server's address)."""
        api_base = self.config.api_base if self.traits.api_base_in_key else None
        return Question(self.config, self.identity, api_base, step, messages, schema, prompt_version, sample, check)

    # -- the entry points -----------------------------------------------------------------
    def ask(self, step: str, messages: Messages, schema: type[T] | None, prompt_version: str,
            check: Callable[[T], None] | None = None, sample: int = 0) -> tuple[T | str, JudgeCall]:
        """Return a validated answer (a `schema` instance, or text when schema is None).
        `sample` > 0 asks for another independent sample of the same answer (votes)."""
        question = self.question(step, messages, schema, prompt_version, sample, check)
        return self._found(question) or self._fetch(question)

    def ask_each(self, step: str, conversations: Sequence[Messages], schema: type[T], prompt_version: str,
                 sample: int = 0) -> list[tuple[T, JudgeCall]]:
        """Several independent questions: cache hits first, then the misses, concurrently, or in
        order for a model that answers one at a time anyway (the offline judge)."""
        questions = [self.question(step, m, schema, prompt_version, sample) for m in conversations]
        answers = [self._found(q) for q in questions]
        misses = [i for i, found in enumerate(answers) if found is None]
        workers = 1 if self.traits.one_at_a_time else max(1, min(self.config.concurrency, len(misses)))

        def fetch(i: int) -> Answer[T]:
            return self._fetch(questions[i], of=(i + 1, len(questions)))

        if workers == 1:
            fetched = [fetch(i) for i in misses]
        else:
            with ThreadPoolExecutor(max_workers=workers) as pool:
                fetched = list(pool.map(fetch, misses))
        for i, found in zip(misses, fetched):
            answers[i] = found
        return answers  # type: ignore[return-value]

    # -- found, or asked ------------------------------------------------------------------
    def _found(self, question: Question[T]) -> Answer[T] | None:
        return self._serve(question, self.stores.get(question.key))

    def _serve(self, question: Question[T], stored: dict[str, Any] | None) -> Answer[T] | None:
        """A stored answer as the answer of this call (cached: no new request), or None."""
        started = time.perf_counter()
        if stored is None:
            return None
        try:
            answer = question.validate(stored["answer"])
        except (KeyError, TypeError, ValueError):
            return None  # an entry from an older schema: a miss, replaced when fetched again
        usage, cost = stored.get("usage") or {}, stored.get("cost_usd")
        self.stores.used(question.key, lambda: question.entry(stored["answer"], usage, cost))
        return answer, self._call(question, True, started, usage, cost)

    def _fetch(self, question: Question[T], of: tuple[int, int] = (1, 1)) -> Answer[T]:
        """Ask the judge, once per run and key (single flight): a test that asks what another
        test of the run is asking waits for that answer and shares it."""
        if self.stores.replay:
            raise CacheMissError(self._replay_miss(question))
        with self.stores.alone(question.key) as shared:
            return self._serve(question, shared) or self._ask_judge(question, of)

    def _ask_judge(self, question: Question[T], of: tuple[int, int]) -> Answer[T]:
        transport = self.transport
        started = time.perf_counter()  # judge time, not the one-off cost of importing litellm
        with self.progress.call(question.step, *of):
            asked = ask_until_valid(transport, question)
        self.stores.keep(question.key, question.entry(asked.raw, asked.usage, asked.cost, self.stores.recorded_by()))
        return asked.answer, self._call(question, False, started, asked.usage, asked.cost, asked.attempts)

    def _call(self, question: Question[Any], cached: bool, started: float, usage: dict[str, int],
              cost: float | None, attempts: int = 1) -> JudgeCall:
        return JudgeCall(
            step=question.step, model=self.config.model, cached=cached, key=question.key, attempts=attempts,
            latency_s=time.perf_counter() - started, cost_usd=cost,
            prompt_tokens=usage.get("prompt_tokens"), completion_tokens=usage.get("completion_tokens"),
        )

    def _replay_miss(self, question: Question[Any]) -> str:
        """Name what entered the key (test, model, api base) and how to record just that test."""
        item = running_test()
        test = f"test {item.nodeid}" if item is not None else "this call"
        command = f"pytest {shlex.quote(item.nodeid)} --llm-cache=use" if item is not None else \
            "the same call with --llm-cache=use (LLMFAITH_CACHE=use)"
        recordings = self.stores.recordings
        recording = recordings.path() if recordings is not None else None
        where = f"the recordings {recording} or the cache " if recording is not None else ""  # "has no ... in"
        keep = "commit the recordings" if recording is not None else \
            "keep the cache directory (commit it or restore it in CI)"
        return (
            f"llmfaith: replay has no stored judge answer for {test} (step '{question.step}', model "
            f"{self.config.model}, api base {question.api_base or 'none'}, cache key {question.key[:12]}) in "
            f"{where}{self.cache.directory}; --llm-cache=replay never calls the judge. Fix: record it "
            f"with a reachable judge and the same model and api base: {command}; then {keep}."
            + self.backend.replay_hint(self.identity)
        )

    # -- the sending chain ----------------------------------------------------------------
    @property
    def transport(self) -> Transport:
        """The way to the model, made when first needed: litellm's import is paid only then."""
        if self._transport is None:
            with self._lock:
                if self._transport is None:
                    self._transport = self.backend.transport(self.progress.judge_loading)
        return self._transport

    def close(self) -> None:
        """Give up this process's lease on the local judge server, if it used one."""
        if self._transport is not None:
            self._transport.close()
