"""Per-run state: settings, the judges and their shared cache, and which test is running.

Deliberately light at import time (stdlib + settings only): the judge, scorers and pydantic are
imported on the first assertion, so a suite that never scores never pays for them.
"""

from __future__ import annotations

import contextvars
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from .errors import ConfigError
from .progress import NO_PROGRESS, JudgeProgress
from .settings import Settings, from_environment

if TYPE_CHECKING:
    from .budget import Budget
    from .cache import JudgeCache
    from .judge import Judge
    from .recordings import Recorder
    from .results import Assessment
    from .scorers import Scorer

RESULTS_KEY = pytest.StashKey[list[dict[str, Any]]]()
USED_KEY = pytest.StashKey[dict[str, dict[str, Any]]]()  # request key -> the answer a test used
current_item: contextvars.ContextVar[pytest.Item | None] = contextvars.ContextVar("llmfaith_item", default=None)

NO_JUDGE = """llmfaith: no judge model is configured, so this assertion cannot be scored.
Set one (the command line wins over pyproject.toml, which wins over the environment):
  command line:    pytest --llm-judge-model=openai/gpt-4o-mini
  pyproject.toml:  [tool.pytest.ini_options]
                   llm_judge_model = "openai/gpt-4o-mini"
  environment:     LLMFAITH_JUDGE_MODEL=openai/gpt-4o-mini
Model strings are litellm's: openai/gpt-4o-mini, anthropic/claude-3-5-haiku-latest,
ollama/llama3.1, or openai/<name> plus --llm-judge-api-base=http://host:port/v1 for any
OpenAI-compatible server.
Offline, no API key: pip install "pytest-llmfaith[local]" && llmfaith-install-model,
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
        self.budget_dir: Path | None = None  # the run's shared budget counters (made by the controller)
        self._budget: Budget | None = None

    def scorer(self, name: str, model: str | None = None) -> Scorer:
        from .scorers import SCORERS

        return SCORERS[name](self.judge(model), reason=self.settings.reason)  # type: ignore[arg-type]

    def judge(self, model: str | None = None) -> Judge:
        model = model or self.settings.judge_model
        if not model:
            raise ConfigError(NO_JUDGE)
        if model not in self._judges:
            from .cache import JudgeCache
            from .judge import Judge, JudgeConfig

            s = self.settings
            if self._cache is None:
                from .recordings import Recorder

                self._cache = JudgeCache(s.cache_dir, s.cache, ignored=s.recordings is not None)
                self._recorder = Recorder(s.recordings, s.cache if s.cache_dir is not None else "off")
                if self.budget_dir is not None:
                    from .budget import Budget

                    self._budget = Budget(self.budget_dir, s.max_judge_calls, s.max_cost)
            self._judges[model] = Judge(JudgeConfig(
                model=model, api_base=s.judge_api_base, api_key_env=s.judge_api_key_env,
                timeout=s.judge_timeout, retries=s.judge_retries, verdicts=s.judge_verdicts,  # type: ignore[arg-type]
                max_tokens=s.judge_max_tokens,
            ), self._cache)
            self._judges[model].progress = self.progress
            self._judges[model].recorder = self._recorder
            self._judges[model].budget = self._budget
        return self._judges[model]

    def record(self, assessment: Assessment, item: pytest.Item | None) -> None:
        """Attach to the running test (survives xdist via the report), then tell the hooks."""
        if item is None:
            self.unattached.append(assessment)
        else:
            item.stash.setdefault(RESULTS_KEY, []).append(assessment.model_dump(mode="json"))
            prefix = f"llmfaith.{assessment.result.scorer}"
            item.user_properties.extend([
                (f"{prefix}.score", assessment.result.score),
                (f"{prefix}.threshold", assessment.threshold),
                (f"{prefix}.passed", assessment.passed),
            ])
            if assessment.result.no_claims:
                item.user_properties.append((f"{prefix}.no_claims", True))
        if self.config is not None:
            self.config.hook.pytest_llmfaith_scored(assessment=assessment, config=self.config)

    def close(self) -> None:
        for judge in self._judges.values():
            judge.close()
        for store in (self._cache, self._budget):
            if store is not None:
                store.close()


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
