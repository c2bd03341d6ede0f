"""Per-run state: settings, the judges and their shared cache, and which test is running.

Deliberately light at import time (stdlib + settings only): the judge, scorers and pydantic are
imported on the first assertion, so a suite that never scores never pays for them.
"""

from __future__ import annotations

import contextvars
import threading
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from pytest_llmfaith.errors import ConfigError, redact_data
from pytest_llmfaith.plugin.progress import NO_PROGRESS, JudgeProgress
from pytest_llmfaith.settings import Settings, from_environment

if TYPE_CHECKING:
    from pytest_llmfaith.judge.budget import Budget
    from pytest_llmfaith.judge.cache import JudgeCache
    from pytest_llmfaith.judge.client import Judge
    from pytest_llmfaith.judge.config import JudgeConfig
    from pytest_llmfaith.judge.transport import Transport
    from pytest_llmfaith.recordings.recorder import Recorder
    from pytest_llmfaith.relay.client import RelayClient
    from pytest_llmfaith.report.baseline import Baseline
    from pytest_llmfaith.results import Assessment
    from pytest_llmfaith.scorers import Scorer
    from pytest_llmfaith.scorers.registry import ScorerRegistry

RESULTS_KEY = pytest.StashKey[list[dict[str, Any]]]()
USED_KEY = pytest.StashKey[dict[str, dict[str, Any]]]()  # request key -> the answer a test used
ORDINALS_KEY = pytest.StashKey[Counter[tuple[str, str | None]]]()  # (scorer, label) -> assertions so far
current_item: contextvars.ContextVar[pytest.Item | None] = contextvars.ContextVar("llmfaith_item", default=None)
# set by an async assertion when it is called: concurrent checks finish in any order, their
# `#2`, `#3` (baseline keys) follow the order of the calls
reserved_ordinal: contextvars.ContextVar[int | None] = contextvars.ContextVar("llmfaith_ordinal", default=None)

NO_JUDGE = """llmfaith: no judge model is configured, so this assertion cannot be scored.
Set one (the command line wins over the environment, which wins over pyproject.toml):
  command line:    pytest --llm-judge-model=openai/gpt-4o-mini
  environment:     LLMFAITH_JUDGE_MODEL=openai/gpt-4o-mini
  pyproject.toml:  [tool.pytest.ini_options]
                   llm_judge_model = "openai/gpt-4o-mini"
Model strings are litellm's: openai/gpt-4o-mini, anthropic/claude-3-5-haiku-latest,
ollama/llama3.1, or openai/<name> plus --llm-judge-api-base=http://host:port/v1 for any
OpenAI-compatible server.
Offline, no API key: python -m pytest_llmfaith.local install (in the venv that runs pytest),
then --llm-judge-model=local"""


class LLMFaithSession:
    """Owns the judges (one per model) and the records of this process's assertions."""

    def __init__(self, settings: Settings, config: pytest.Config | None = None,
                 progress: JudgeProgress = NO_PROGRESS) -> None:
        self.settings = settings
        self.config = config
        self.progress = progress
        self.unattached: list[Assessment] = []  # scored outside any test (library use)
        self.running_item: pytest.Item | None = None  # for assertions made in threads of a test
        self._judges: dict[str, Judge] = {}
        self._cache: JudgeCache | None = None
        self._recorder: Recorder | None = None
        # The run's shared state (budget counters, single-flight locks and answers): a temporary
        # folder the controller names for its xdist workers, made by the first process that needs it.
        self.run_dir: Path | None = None
        self._budget: Budget | None = None
        # The run's judge relay (relay.RelayRun as JSON): given to xdist workers by the controller;
        # in the run's first process, made on first need when `owns_relay` (see relay_run_info).
        self.relay_run: dict[str, Any] | None = None
        self.owns_relay = False
        self.relay_off: str | None = None  # why this platform runs no relay (capabilities), once asked
        self._relay: RelayClient | None = None
        self._ordinals: Counter[tuple[str, str | None]] = Counter()  # outside any test
        self._lock = threading.Lock()  # assertions may run in threads of one test
        self._judges_lock = threading.Lock()  # judges, cache and scorers are made once, in any thread
        self._registry: ScorerRegistry | None = None
        self._baseline: Baseline | None = None
        self._baseline_loaded = False

    def scorer(self, name: str, model: str | None = None) -> Scorer:
        return self.scorer_class(name)(self.judge(model), reason=self.settings.reason)  # type: ignore[arg-type]

    def scorer_class(self, name: str) -> type[Scorer]:
        """The scorer registered as `name`. The registry is filled on first use (the
        pytest_llmfaith_register_scorers hook; outside pytest, the built-in scorers), so that a run
        that never scores imports no scorer."""
        __tracebackhide__ = True
        with self._judges_lock:
            if self._registry is None:
                from pytest_llmfaith.scorers.registry import ScorerRegistry, builtin

                registry = ScorerRegistry()
                if self.config is not None:
                    self.config.hook.pytest_llmfaith_register_scorers(register=registry.register, config=self.config)
                else:
                    builtin(registry.register)
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
            from pytest_llmfaith.judge.cache import JudgeCache
            from pytest_llmfaith.judge.client import Judge
            from pytest_llmfaith.judge.config import JudgeConfig

            s = self.settings
            if self._cache is None:
                from pytest_llmfaith.recordings.recorder import Recorder

                self._cache = JudgeCache(s.cache_dir, s.cache)
                self._recorder = Recorder(s.recordings, s.cache if s.cache_dir is not None else "off")
                if self.run_dir is not None and self.budgeted:
                    from pytest_llmfaith.judge.budget import Budget

                    self._budget = Budget(self.run_dir, s.max_judge_calls, s.max_cost)
            config = JudgeConfig(
                model=model, api_base=s.judge_api_base, api_key_env=s.judge_api_key_env,
                timeout=s.judge_timeout, retries=s.judge_retries, verdicts=s.judge_verdicts,
                max_tokens=s.judge_max_tokens, votes=s.judge_votes, votes_temperature=s.judge_votes_temperature,
                concurrency=s.judge_concurrency,
            )
            self._judges[model] = Judge(config, self._cache)
            self._judges[model].connect = self._relay_connect(config)
            self._judges[model].progress = self.progress
            self._judges[model].recorder = self._recorder
            self._judges[model].budget = self._budget
            if self.run_dir is not None and s.cache in ("use", "refresh"):  # off: every request is asked
                from pytest_llmfaith.judge.flight import Flights

                self._judges[model].flights = Flights(self.run_dir)
        return self._judges[model]

    @property
    def budgeted(self) -> bool:
        """The run limits its judge requests (--llm-max-judge-calls, --llm-max-cost)."""
        return self.settings.max_judge_calls is not None or self.settings.max_cost is not None

    def relay_run_info(self) -> dict[str, Any] | None:
        """The run's relay, made on first need (its identity costs a metadata look-up and hashing
        the environment, which a serial suite that never calls the judge must not pay; under xdist
        the controller names it for every worker, with the standard library only)."""
        if self.relay_run is None and self.owns_relay:
            from pytest_llmfaith.processes.capabilities import background_processes_missing

            self.relay_off = background_processes_missing()
            if self.relay_off is not None:
                self.owns_relay = False
                return None
            from pytest_llmfaith.relay.identity import new_relay_run

            self.relay_run = new_relay_run(self.settings)
        return self.relay_run

    def relay_attached(self) -> bool:
        """Whether a process of this run leased the run's relay: it needed a judge call."""
        if self.relay_run is None:
            return False
        from pytest_llmfaith.relay.identity import attached

        return attached(self.relay_run)

    def relay(self) -> RelayClient | None:
        """This process's client of the run's judge relay; None when the run has none."""
        run = self.relay_run_info() if self._relay is None else None
        if run is not None:
            from pytest_llmfaith.relay.client import RelayClient, RelayRun

            self._relay = RelayClient(RelayRun.model_validate(run))
        return self._relay

    def _relay_connect(self, config: JudgeConfig) -> Callable[[], Transport] | None:
        """How a judge reaches the run's relay; None (litellm in this process) without a relay, and
        for the offline judge, whose shared server already is the run's one process with the model."""
        relay = self.relay()
        if relay is None or config.is_local:
            return None
        from pytest_llmfaith.relay.client import RelayTransport

        return lambda: RelayTransport(relay, config)

    def prewarm_relay(self) -> None:
        """Start the relay in the background (a test that will run uses the judge) when its calls
        will reach the judge (cache off or refresh, or no cache yet): litellm's import then overlaps
        the start of the tests. A cached or replayed run starts nothing."""
        s = self.settings
        calls = s.cache in ("off", "refresh") or (s.cache == "use" and s.recordings is None
                                                   and not s.cache_dir.exists())
        relay = self.relay() if calls and s.judge_model and not s.judge_model.startswith("local") else None
        if relay is not None:
            relay.prewarm()

    @contextmanager
    def asking_outside_tests(self, owner: str) -> Iterator[None]:
        """Judge calls made meanwhile belong to no test (not even an enclosing pytester run's): the
        answers `owner` (the judge self-check) stores are marked as its own, so that no test
        module's recording or unused-entry report claims them."""
        self.judge()  # the recorder comes with the first judge
        assert self._recorder is not None
        previous, self._recorder.outside = self._recorder.outside, owner
        token = current_item.set(None)
        try:
            yield
        finally:
            current_item.reset(token)
            self._recorder.outside = previous

    def next_ordinal(self, item: pytest.Item | None, scorer: str, label: str | None) -> int:
        """1 for a test's first assessment of this scorer and label, then 2, 3..."""
        with self._lock:
            ordinals = self._ordinals if item is None else item.stash.setdefault(ORDINALS_KEY, Counter())
            ordinals[scorer, label] += 1
            return ordinals[scorer, label]

    def record(self, assessment: Assessment, item: pytest.Item | None) -> Assessment:
        """Name it within its test, compare it with the baseline, attach it to the running test
        (survives xdist via the report), then tell the hooks. Returns it as it leaves the process
        (reports, JUnit, failure messages): redacted, before any text of it is shortened."""
        reserved = reserved_ordinal.get()
        assessment.ordinal = reserved or self.next_ordinal(item, assessment.result.scorer, assessment.label)
        baseline = self.baseline()
        if baseline is not None and assessment.key in baseline.assertions:
            from pytest_llmfaith.report.baseline import compare

            assessment.regression = compare(baseline.assertions[assessment.key], assessment,
                                            self.settings.baseline_tolerance)
        names = [self.settings.judge_api_key_env]
        record = redact_data(assessment.model_dump(mode="json"), names)
        redacted = type(assessment).model_validate(record)
        with self._lock:  # Stash.setdefault is not atomic: two checks finishing at once would lose one
            if item is None:
                self.unattached.append(redacted)
            else:
                item.stash.setdefault(RESULTS_KEY, []).append(record)
                item.user_properties.extend(redact_data(junit_properties(assessment), names))
        if self.config is not None:
            self.config.hook.pytest_llmfaith_scored(assessment=assessment, config=self.config)
        return redacted

    def baseline(self) -> Baseline | None:
        """The baseline to compare with (read once), or None: none set, being rewritten, or unreadable
        (the end-of-run gate reports why)."""
        if not self._baseline_loaded:
            self._baseline_loaded = True
            if self.settings.baseline is not None and not self.settings.baseline_update:
                from pytest_llmfaith.report.baseline import load

                try:
                    self._baseline = load(self.settings.baseline)
                except ConfigError:
                    self._baseline = None
        return self._baseline

    def close(self) -> None:
        for judge in self._judges.values():
            judge.close()
        for store in (self._cache, self._budget):
            if store is not None:
                store.close()
        if self.owns_relay and self.relay_attached():
            from pytest_llmfaith.relay.client import RelayRun, detach

            detach(RelayRun.model_validate(self.relay_run))


def junit_properties(assessment: Assessment) -> list[tuple[str, object]]:
    """`llmfaith.<scorer>[<label>].score` and friends, for --junitxml."""
    label = f"[{assessment.label}]" if assessment.label else ""
    prefix = f"llmfaith.{assessment.result.scorer}{label}"
    properties: list[tuple[str, object]] = [(f"{prefix}.score", assessment.result.score)]
    if assessment.threshold is not None:
        properties += [(f"{prefix}.threshold", assessment.threshold), (f"{prefix}.passed", assessment.passed)]
    if assessment.result.no_claims:
        properties.append((f"{prefix}.no_claims", True))
    if assessment.result.votes > 1:
        properties += [(f"{prefix}.votes", assessment.result.votes),
                       (f"{prefix}.agreement", assessment.result.lowest_agreement or ""),
                       (f"{prefix}.unstable", assessment.unstable)]
    properties.append((f"{prefix}.status", assessment.status))
    return properties


_active: LLMFaithSession | None = None


def activate(session: LLMFaithSession | None) -> LLMFaithSession | None:
    """Make `session` the active one; return the previous one (a pytester run nests in another)."""
    global _active
    previous, _active = _active, session
    return previous


def active_session() -> LLMFaithSession:
    """The pytest run's session; outside pytest, one built from LLMFAITH_* environment variables."""
    global _active
    if _active is None:
        try:
            _active = LLMFaithSession(from_environment())
        except ValueError as err:
            raise ConfigError(str(err)) from None
    return _active


def running_item() -> pytest.Item | None:
    """The test being run (setup, call or teardown), also from threads the test started."""
    item = current_item.get()
    if item is None and _active is not None:
        item = _active.running_item
    return item


MARKER_KEYS = ("model", "min_faithfulness", "max_hallucination", "no_claims")


def marker_overrides(item: pytest.Item | None) -> dict[str, Any]:
    """The llmfaith marks of a test, class and module merged, the closest one winning per key."""
    overrides: dict[str, Any] = {}
    for marker in reversed(list(item.iter_markers("llmfaith")) if item is not None else []):
        unknown = sorted(set(marker.kwargs) - set(MARKER_KEYS))
        if marker.args or unknown:
            raise ConfigError(
                f"llmfaith: the llmfaith marker takes keyword arguments {', '.join(MARKER_KEYS)}; got "
                + (f"positional {marker.args!r}" if marker.args else f"unknown {', '.join(unknown)}")
                + '. Fix: e.g. @pytest.mark.llmfaith(model="openai/gpt-4o-mini", min_faithfulness=0.8).')
        overrides.update(marker.kwargs)
    return overrides
