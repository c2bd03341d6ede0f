"""The run's judges and scorers, built from settings, with the relay and the offline judge wired in.

The judge core never imports relay/ or local/: this is where they are plugged in, for the pytest
layer (its session is a JudgeRun) and for the command line (the judge self-check). Light at
import time (stdlib and settings only): a suite that never scores never pays for a judge.
"""

from __future__ import annotations

import contextvars
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pytest_llmfaith.errors import ConfigError
from pytest_llmfaith.judge.progress import NO_PROGRESS, JudgeProgress
from pytest_llmfaith.recordings.asker import NOBODY, Asker, AskingTest
from pytest_llmfaith.settings import Settings

if TYPE_CHECKING:
    from pytest_llmfaith.judge.backend import Backend
    from pytest_llmfaith.judge.budget import Budget
    from pytest_llmfaith.judge.cache import JudgeCache
    from pytest_llmfaith.judge.client import Judge
    from pytest_llmfaith.judge.config import JudgeConfig
    from pytest_llmfaith.judge.stores import Stores
    from pytest_llmfaith.recordings.recorder import Recorder
    from pytest_llmfaith.relay.relay_client import RelayClient
    from pytest_llmfaith.scorers import Scorer
    from pytest_llmfaith.scorers.registry import ScorerRegistry

RegisterScorers = Callable[[Callable[[type["Scorer"]], None]], None]

NO_JUDGE = """llmfaith: no judge model is configured, so this assertion cannot be scored.
Set one (the command line wins over the environment, which wins over pyproject.toml):
  command line:    pytest --llm-judge-model=openai/gpt-4o-mini
  environment:     LLMFAITH_JUDGE_MODEL=openai/gpt-4o-mini
  pyproject.toml:  [tool.pytest.ini_options]
                   llm_judge_model = "openai/gpt-4o-mini"
Model strings are litellm's: openai/gpt-4o-mini, anthropic/claude-3-5-haiku-latest,
ollama/llama3.1, or openai/<name> plus --llm-judge-api-base=http://host:port/v1 for any
OpenAI-compatible server.
Offline, no API key: python -m pytest_llmfaith local install (in the venv that runs pytest),
then --llm-judge-model=local"""


class QuietAsker:
    """The asker, silenced while the run asks for itself (the judge self-check): those answers
    belong to no test, not even an enclosing pytester run's."""

    def __init__(self, asker: Asker) -> None:
        self.inner = asker
        self.quiet = contextvars.ContextVar("llmfaith_quiet", default=False)

    def asking(self) -> AskingTest | None:
        return None if self.quiet.get() else self.inner.asking()

    def note_used(self, key: str, answer: dict[str, Any]) -> None:
        if not self.quiet.get():
            self.inner.note_used(key, answer)


class JudgeRun:
    """Owns the judges (one per model), their shared cache, recordings, budget and relay."""

    def __init__(self, settings: Settings, progress: JudgeProgress = NO_PROGRESS, asker: Asker = NOBODY,
                 register_scorers: RegisterScorers | None = None) -> None:
        self.settings = settings
        self.progress = progress
        self.asker = QuietAsker(asker)
        self.register_scorers = register_scorers  # None: the built-in scorers
        self._judges: dict[str, Judge] = {}
        self._cache: JudgeCache | None = None
        self._recorder: Recorder | None = None
        # The run's shared state (budget counters, single-flight locks and answers): a temporary
        # folder the controller names for its xdist workers, made by the first process that needs it.
        self.run_dir: Path | None = None
        self._budget: Budget | None = None
        # The run's judge relay (wire.RelayRun as JSON): given to xdist workers by the controller;
        # in the run's first process, made on first need when `owns_relay` (see relay_run_info).
        self.relay_run: dict[str, Any] | None = None
        self.owns_relay = False
        self.relay_off: str | None = None  # why `auto` runs no relay here (relay.identity.why_no_relay), once asked
        self._relay: RelayClient | None = None
        self._judges_lock = threading.Lock()  # judges, cache and scorers are made once, in any thread
        self._registry: ScorerRegistry | None = None

    def scorer(self, name: str, model: str | None = None) -> Scorer:
        return self.scorer_class(name)(self.judge(model), reason=self.settings.reason)  # type: ignore[arg-type]

    def scorer_class(self, name: str) -> type[Scorer]:
        """The registry is filled on first use, so that a run that never scores imports no scorer."""
        __tracebackhide__ = True
        with self._judges_lock:
            if self._registry is None:
                from pytest_llmfaith.scorers.registry import ScorerRegistry, builtin

                registry = ScorerRegistry()
                (self.register_scorers or builtin)(registry.register)
                self._registry = registry
        return self._registry.get(name)

    def judge(self, model: str | None = None) -> Judge:
        model = model or self.settings.judge_model
        if not model:
            raise ConfigError(NO_JUDGE)
        with self._judges_lock:  # concurrent assertions (the async ones) share one judge per model
            return self._judge(model)

    def _judge(self, model: str) -> Judge:
        if model not in self._judges:
            from pytest_llmfaith.judge.client import Judge
            from pytest_llmfaith.judge.config import JudgeConfig
            s = self.settings
            config = JudgeConfig(
                model=model, api_base=s.judge_api_base, api_key_env=s.judge_api_key_env,
                timeout=s.judge_timeout, retries=s.judge_retries, verdicts=s.judge_verdicts,
                max_tokens=s.judge_max_tokens, votes=s.judge_votes, votes_temperature=s.judge_votes_temperature,
                concurrency=s.judge_concurrency,
            )
            self._judges[model] = Judge(config, stores=self._stores(), backend=self._backend(config),
                                        progress=self.progress, asker=self.asker)
        return self._judges[model]

    def _stores(self) -> Stores:
        """The run's recordings and cache, shared by its judges (made with the first one, as is the
        budget), and its single flight."""
        from pytest_llmfaith.judge.stores import Stores

        s = self.settings
        if self._cache is None:
            from pytest_llmfaith.judge.cache import JudgeCache
            from pytest_llmfaith.recordings.recorder import Recorder
            from pytest_llmfaith.scorers.labels import CONTRADICTED_AT, SUPPORTED_AT, SUPPORTED_FROM

            self._cache = JudgeCache(s.cache_dir, s.cache)
            self._recorder = Recorder(s.recordings, s.cache if s.cache_dir is not None else "off", asker=self.asker,
                                      thresholds=(SUPPORTED_AT, SUPPORTED_FROM, CONTRADICTED_AT),
                                      exact=s.judge_votes > 1)
            if self.run_dir is not None and self.budgeted:
                from pytest_llmfaith.judge.budget import Budget

                self._budget = Budget(self.run_dir, s.max_judge_calls, s.max_cost)
        flights = None
        if self.run_dir is not None and s.cache in ("use", "refresh"):  # off: every request is asked
            from pytest_llmfaith.judge.stores import Flights

            flights = Flights(self.run_dir)
        return Stores(self._cache, self._recorder, flights)

    def _backend(self, config: JudgeConfig) -> Backend:
        """What the judge sends through: the run's relay, or this process (litellm, or the offline
        judge's server, which already is the run's one warm process), within the run's budget."""
        relay = self.relay()  # asked for every model, as the run's relay line says what it found
        if relay is not None and not config.is_local:
            from pytest_llmfaith.relay.relay_client import RelayBackend

            backend: Backend = RelayBackend(relay, config)
        else:
            backend = backend_for(config)
        if self._budget is None:
            return backend
        from pytest_llmfaith.judge.budget import WithinBudget

        return WithinBudget(backend, self._budget, config.model)

    @property
    def budgeted(self) -> bool:
        """The run limits its judge requests (--llm-max-judge-calls, --llm-max-cost)."""
        return self.settings.max_judge_calls is not None or self.settings.max_cost is not None

    def relay_run_info(self) -> dict[str, Any] | None:
        """Made on first need: its identity costs a metadata look-up and hashing the environment,
        which a serial suite that never calls the judge must not pay. Under `auto`, wherever the
        relay cannot run safely, for any reason, there is none: the run is judged in its processes,
        and says why in one line. Under `on` the relay's client refuses, with the same reason."""
        if self.relay_run is None and self.owns_relay:
            from pytest_llmfaith.relay.identity import new_relay_run, why_no_relay

            why = why_no_relay() if self.settings.judge_relay == "auto" else None
            if why is not None:
                self.relay_off, self.owns_relay = why, False
                return None
            self.relay_run = new_relay_run(self.settings)
        return self.relay_run

    def relay_attached(self) -> bool:
        """Whether a process of this run leased the run's relay: it needed a judge call."""
        if self.relay_run is None:
            return False
        from pytest_llmfaith.relay.identity import attached

        return attached(self.relay_run)

    def relay_deaths(self) -> list[tuple[int, str, bool]]:
        """The run's relays this process saw die, (pid, how, True), and how the processes it started
        ended (False): only the one that started a relay can read its exit status, and under xdist it
        may not be the worker that saw it die. For the run's summary, which the controller writes."""
        if self._relay is None:
            return []
        from pytest_llmfaith.processes.children import ended_children

        return [*((death.pid, death.how, True) for death in self._relay.deaths),
                *((pid, how, False) for pid, how in ended_children())]

    def relay(self) -> RelayClient | None:
        """This process's client of the run's judge relay; None when the run has none."""
        run = self.relay_run_info() if self._relay is None else None
        if run is not None:
            from pytest_llmfaith.relay.relay_client import RelayClient
            from pytest_llmfaith.relay.wire import RelayRun

            self._relay = RelayClient(RelayRun.model_validate(run))
        return self._relay

    def prewarm_relay(self) -> None:
        """Start the relay early only when calls will reach the judge, so litellm's import overlaps the
        tests; a cached or replayed run starts nothing."""
        s = self.settings
        calls = s.cache in ("off", "refresh") or (s.cache == "use" and s.recordings is None
                                                   and not s.cache_dir.exists())
        relay = self.relay() if calls and s.judge_model and not s.judge_model.startswith("local") else None
        if relay is not None:
            relay.prewarm()

    @contextmanager
    def asking_outside_tests(self, owner: str) -> Iterator[None]:
        """Mark answers stored meanwhile as `owner`'s, so that no test module's recording or
        unused-entry report claims them (not even an enclosing pytester run's)."""
        self.judge()  # the recorder comes with the first judge
        assert self._recorder is not None
        previous, self._recorder.outside = self._recorder.outside, owner
        token = self.asker.quiet.set(True)
        try:
            yield
        finally:
            self.asker.quiet.reset(token)
            self._recorder.outside = previous

    def close(self) -> None:
        for judge in self._judges.values():
            judge.close()
        for store in (self._cache, self._budget):
            if store is not None:
                store.close()
        if self.owns_relay and self.relay_attached():
            from pytest_llmfaith.relay.relay_client import detach
            from pytest_llmfaith.relay.wire import RelayRun

            detach(RelayRun.model_validate(self.relay_run))


def backend_for(config: JudgeConfig) -> Backend:
    """The backend a judge's model names: the offline judge for a local model, else litellm here."""
    if config.is_local:
        from pytest_llmfaith.local.port import OfflineBackend

        return OfflineBackend(config)
    from pytest_llmfaith.judge.transport import HostedBackend

    return HostedBackend(config)
