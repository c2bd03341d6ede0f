"""pytest-llmfaith: faithfulness and hallucination assertions for LLM output, judged by an LLM.

The public API is re-exported here and resolved lazily: pytest imports this package at
start-up for every run that has the plugin installed, and that must cost nothing.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

_EXPORTS = {
    "assert_faithful": "assertion",
    "assert_not_hallucinated": "assertion",
    "Faithfulness": "scorers",
    "Hallucination": "scorers",
    "Scorer": "scorers",
    "assert_faithful_async": "assertion",
    "assert_not_hallucinated_async": "assertion",
    "Judge": "judge",
    "LLMJudge": "assertion",
    "JudgeConfig": "judge_config",
    "Transport": "transport",
    "CompletionRequest": "transport",
    "Completion": "transport",
    "JudgeCache": "cache",
    "ScoreResult": "results",
    "Verdict": "results",
    "JudgeCall": "results",
    "Assessment": "results",
    "Status": "results",
    "LLMFaithError": "errors",
    "ConfigError": "errors",
    "JudgeError": "errors",
    "CacheMissError": "errors",
    "BudgetExceeded": "errors",
    "LocalJudgeUnavailable": "errors",
}

__all__ = sorted(_EXPORTS)

if TYPE_CHECKING:
    from .assertion import (
        LLMJudge,
        assert_faithful,
        assert_faithful_async,
        assert_not_hallucinated,
        assert_not_hallucinated_async,
    )
    from .cache import JudgeCache
    from .errors import BudgetExceeded, CacheMissError, ConfigError, JudgeError, LLMFaithError, LocalJudgeUnavailable
    from .judge import Judge
    from .judge_config import JudgeConfig
    from .results import Assessment, JudgeCall, ScoreResult, Status, Verdict
    from .scorers import Faithfulness, Hallucination, Scorer
    from .transport import Completion, CompletionRequest, Transport


def __getattr__(name: str) -> Any:
    if name not in _EXPORTS:
        raise AttributeError(f"module 'pytest_llmfaith' has no attribute {name!r}")
    value = getattr(import_module(f".{_EXPORTS[name]}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return __all__
