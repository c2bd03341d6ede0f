"""The pytest run's session: it holds the run's judges (a JudgeRun) and records this process's
assertions, attached to the running test (the `running_test` context the run sets).

Deliberately light at import time (stdlib + settings only): the judge, scorers and pydantic are
imported on the first assertion, so a suite that never scores never pays for them.
"""

from __future__ import annotations

import contextvars
import threading
from collections import Counter
from types import ModuleType
from typing import TYPE_CHECKING, Any

import pytest

from pytest_llmfaith.errors import ConfigError, redact_data
from pytest_llmfaith.judge.progress import NO_PROGRESS, JudgeProgress
from pytest_llmfaith.running import running_test
from pytest_llmfaith.settings import Settings, from_environment
from pytest_llmfaith.wiring import JudgeRun

if TYPE_CHECKING:
    from pytest_llmfaith.report.baseline import Baseline
    from pytest_llmfaith.results import Assessment

RESULTS_KEY = pytest.StashKey[list[dict[str, Any]]]()
ORDINALS_KEY = pytest.StashKey[Counter[tuple[str, str | None]]]()  # (scorer, label) -> assertions so far
# set by an async assertion when it is called: concurrent checks finish in any order, their
# `#2`, `#3` (baseline keys) follow the order of the calls
reserved_ordinal: contextvars.ContextVar[int | None] = contextvars.ContextVar("llmfaith_ordinal", default=None)


class LLMFaithSession:
    """The run's judges (`judges`), and the records of this process's assertions."""

    def __init__(self, settings: Settings, config: pytest.Config | None = None,
                 progress: JudgeProgress = NO_PROGRESS) -> None:
        register = None if config is None else \
            lambda register: config.hook.pytest_llmfaith_register_scorers(register=register, config=config)
        worker = getattr(config, "workerinput", None)  # an xdist worker is handed the controller's relay
        self.judges = JudgeRun(settings, progress, register_scorers=register,
                               relay_run=worker.get("llmfaith_relay") if worker is not None else None,
                               owns_relay=config is not None and worker is None and settings.judge_relay != "off")
        self.settings = settings
        self.config = config
        self.unattached: list[Assessment] = []  # scored outside any test (library use)
        self._ordinals: Counter[tuple[str, str | None]] = Counter()  # outside any test
        self._lock = threading.Lock()  # assertions may run in threads of one test
        self._baseline: Baseline | ConfigError | None = None
        self._baseline_loaded = False

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
        record, properties = redact_data((assessment.model_dump(mode="json"), junit_properties(assessment)),
                                         [self.settings.judge_api_key_env])
        redacted = type(assessment).model_validate(record)
        with self._lock:  # Stash.setdefault is not atomic: two checks finishing at once would lose one
            if item is None:
                self.unattached.append(redacted)
            else:
                item.stash.setdefault(RESULTS_KEY, []).append(record)
                item.user_properties.extend(properties)
        if self.config is not None:
            self.config.hook.pytest_llmfaith_scored(assessment=assessment, config=self.config)
        return redacted

    def baseline(self) -> Baseline | None:
        """The baseline to compare with, or None: none set, being rewritten, or unreadable (the
        end-of-run gate reports why)."""
        loaded = None if self.settings.baseline_update else self.baseline_file()
        return None if isinstance(loaded, ConfigError) else loaded

    def baseline_file(self) -> Baseline | ConfigError | None:
        """The baseline file as this process read it, once (the assertions compare with it, the gates
        and the review page are handed it): None when none is set, why when it cannot be read."""
        if not self._baseline_loaded:
            self._baseline_loaded = True
            if self.settings.baseline is not None:
                from pytest_llmfaith.report.baseline import load

                try:
                    self._baseline = load(self.settings.baseline)
                except ConfigError as err:
                    self._baseline = err
        return self._baseline

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
    test = running_test()
    return test.item if test is not None else None


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


PACKAGE = __name__.partition(".")[0]


def from_this_package(value: object) -> bool:
    """A name a test module took from pytest_llmfaith: the package (however it is called there), one
    of its modules, or anything they define. By the top-level name, not `__package__`, which is
    this module's own folder."""
    name = value.__name__ if isinstance(value, ModuleType) else getattr(value, "__module__", None)
    return isinstance(name, str) and name.partition(".")[0] == PACKAGE
