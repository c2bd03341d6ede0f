"""The run's judges and scorers, built from settings, with the relay and the offline judge wired in.

The judge core never imports relay/ or local/: this is where they are plugged in, for the pytest
layer (its session holds a JudgeRun) and for the command line (the judge self-check). Light at
import time (stdlib and settings only): a suite that never scores never pays for a judge.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pytest_llmfaith.errors import ConfigError
from pytest_llmfaith.judge.progress import NO_PROGRESS, JudgeProgress
from pytest_llmfaith.settings import Settings

if TYPE_CHECKING:
    from pytest_llmfaith.judge.backend import Backend, JudgeConfig
    from pytest_llmfaith.judge.budget import Budget
    from pytest_llmfaith.judge.cache import JudgeCache
    from pytest_llmfaith.judge.client import Judge
    from pytest_llmfaith.judge.stores import Stores
    from pytest_llmfaith.recordings.recorder import Recorder
    from pytest_llmfaith.relay.relay_client import RelayClient
    from pytest_llmfaith.relay.run_relay import RunRelay
    from pytest_llmfaith.scorers import Scorer, ScorerRegistry

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


class JudgeRun:
    """Owns the judges (one per model), their shared cache, recordings and budget, and holds the run's relay."""

    def __init__(self, settings: Settings, progress: JudgeProgress = NO_PROGRESS,
                 register_scorers: RegisterScorers | None = None, *, relay_run: dict[str, Any] | None = None,
                 owns_relay: bool = False) -> None:
        """`relay_run`: the relay an xdist worker is handed; `owns_relay`: the run's first process,
        which starts one on first need. Neither (the command line, library use): no relay."""
        self.settings = settings
        self._relay_args = relay_run, owns_relay
        self.progress = progress
        self.register_scorers = register_scorers  # None: the built-in scorers
        self._judges: dict[str, Judge] = {}
        self._cache: JudgeCache | None = None
        self._recorder: Recorder | None = None
        # The run's shared state (budget counters, single-flight locks and answers): a temporary
        # folder the controller names for its xdist workers, made by the first process that needs it.
        self.run_dir: Path | None = None
        self._budget: Budget | None = None
        self._relay: RunRelay | None = None  # the run's judge relay, made on first need (`relay`)
        self._judges_lock = threading.RLock()  # judges, cache, scorers and relay are made once, in any thread
        self._registry: ScorerRegistry | None = None

    def scorer(self, name: str, model: str | None = None) -> Scorer:
        return self.scorer_class(name)(self.judge(model), reason=self.settings.reason)  # type: ignore[arg-type]

    def scorer_class(self, name: str) -> type[Scorer]:
        """The registry is filled on first use, so that a run that never scores imports no scorer."""
        __tracebackhide__ = True
        with self._judges_lock:
            if self._registry is None:
                from pytest_llmfaith.scorers import ScorerRegistry, builtin

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
            from pytest_llmfaith.judge.backend import JudgeConfig
            from pytest_llmfaith.judge.client import Judge
            # each field but the model is set by the option of its name (--llm-judge-<field>)
            config = JudgeConfig(model=model, **{field: getattr(self.settings, f"judge_{field}")
                                                 for field in JudgeConfig.model_fields
                                                 if field != "model" and hasattr(self.settings, f"judge_{field}")})
            self._judges[model] = Judge(config, stores=self._stores(), backend=self._backend(config),
                                        progress=self.progress)
        return self._judges[model]

    def _stores(self) -> Stores:
        """The run's recordings and cache, shared by its judges, and its single flight."""
        from pytest_llmfaith.judge.stores import Stores

        s = self.settings
        if self._recorder is None:
            from pytest_llmfaith.recordings.recorder import Recorder
            from pytest_llmfaith.scorers.labels import LINES

            self._recorder = Recorder(s.recordings, s.cache if s.cache_dir is not None else "off",
                                      thresholds=LINES,
                                      exact=s.judge_votes > 1)
        flights = None
        if self.run_dir is not None and s.cache in ("use", "refresh"):  # off: every request is asked
            from pytest_llmfaith.judge.stores import Flights

            flights = Flights(self.run_dir)
        return Stores(self.cache, self._recorder, flights)

    @property
    def cache(self) -> JudgeCache:
        """The run's working cache, opened on first need: its judges' store, and what the run's end
        reports unused entries from."""
        with self._judges_lock:
            if self._cache is None:
                from pytest_llmfaith.judge.cache import JudgeCache

                self._cache = JudgeCache(self.settings.cache_dir, self.settings.cache)
            return self._cache

    @property
    def budget(self) -> Budget | None:
        """The run's budget (counters every process of the run shares), made on first need; None
        when the run sets no limit or has no shared folder (library use)."""
        with self._judges_lock:
            s = self.settings
            if self._budget is None and self.run_dir is not None and (s.max_judge_calls, s.max_cost) != (None, None):
                from pytest_llmfaith.judge.budget import Budget

                self._budget = Budget(self.run_dir, s.max_judge_calls, s.max_cost)
            return self._budget

    def _backend(self, config: JudgeConfig) -> Backend:
        """What the judge sends through: the run's relay, or this process (litellm, or the offline
        judge's server, which already is the run's one warm process), within the run's budget."""
        relay = self.relay.client()  # asked for every model, as the run's relay line says what it found
        backend = backend_for(config, self.settings.idle_timeout, relay)
        if (budget := self.budget) is None:
            return backend
        from pytest_llmfaith.judge.budget import WithinBudget

        return WithinBudget(backend, budget, config.model)

    def prewarm_relay(self) -> None:
        """Start the run's relay early, for a model it serves: the offline judge has its own server."""
        model = self.settings.judge_model
        if model and not is_local(model):
            self.relay.prewarm()

    @property
    def relay(self) -> RunRelay:
        """The run's judge relay, made on first need: a suite that never scores imports nothing of it."""
        with self._judges_lock:
            if self._relay is None:
                from pytest_llmfaith.relay.run_relay import RunRelay

                self._relay = RunRelay(self.settings, *self._relay_args)
            return self._relay

    @property
    def made_relay(self) -> RunRelay | None:
        """The run's relay if anything asked for it yet: the end of a run asks this, making none."""
        return self._relay

    def close(self) -> None:
        for judge in self._judges.values():
            judge.close()
        for store in (self._cache, self._budget):
            if store is not None:
                store.close()
        if self._relay is not None:
            self._relay.close()


def is_local(model: str) -> bool:
    """A model of the offline judge (`local`, `local:PATH`): the one test of a model's name."""
    return model == "local" or model.startswith("local:")


def backend_for(config: JudgeConfig, idle_timeout: float | None = None, relay: RelayClient | None = None) -> Backend:
    """The backend a judge's model names: the offline judge for a local model, else the run's relay
    when it has one, else litellm here. `idle_timeout`: the offline judge's server's
    (--llm-idle-timeout; None: as the environment sets it)."""
    if is_local(config.model):
        from pytest_llmfaith.local.local_transport import OfflineBackend

        return OfflineBackend(config, idle_timeout)
    if relay is not None:
        from pytest_llmfaith.relay.relay_client import RelayBackend

        return RelayBackend(relay, config)
    from pytest_llmfaith.judge.transport import HostedBackend

    return HostedBackend(config)
