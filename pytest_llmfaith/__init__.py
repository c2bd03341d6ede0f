"""pytest-llmfaith: faithfulness and hallucination assertions for LLM output, judged by an LLM.

The public API is re-exported here and resolved lazily: pytest imports this package at
start-up for every run that has the plugin installed, and that must cost nothing.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

_EXPORTS = {
    "assert_faithful": "plugin.assertion",
    "assert_not_hallucinated": "plugin.assertion",
    "Faithfulness": "scorers",
    "Hallucination": "scorers",
    "Scorer": "scorers",
    "assert_faithful_async": "plugin.assertion",
    "assert_not_hallucinated_async": "plugin.assertion",
    "Judge": "library",
    "LLMJudge": "plugin.fixture",
    "JudgeConfig": "judge.backend",
    "Transport": "judge.backend",
    "CompletionRequest": "judge.backend",
    "Completion": "judge.backend",
    "JudgeCache": "judge.cache",
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
    "tool_results": "agent_runs",
    "final_answer": "agent_runs",
    "AgentRunError": "agent_runs",
    "describe_run": "agent_runs",
}

__all__ = sorted(_EXPORTS)

if TYPE_CHECKING:
    from pytest_llmfaith.agent_runs import AgentRunError, describe_run, final_answer, tool_results
    from pytest_llmfaith.errors import (
        BudgetExceeded,
        CacheMissError,
        ConfigError,
        JudgeError,
        LLMFaithError,
        LocalJudgeUnavailable,
    )
    from pytest_llmfaith.judge.backend import Completion, CompletionRequest, JudgeConfig, Transport
    from pytest_llmfaith.judge.cache import JudgeCache
    from pytest_llmfaith.library import Judge
    from pytest_llmfaith.plugin.assertion import (
        assert_faithful,
        assert_faithful_async,
        assert_not_hallucinated,
        assert_not_hallucinated_async,
    )
    from pytest_llmfaith.plugin.fixture import LLMJudge
    from pytest_llmfaith.results import Assessment, JudgeCall, ScoreResult, Status, Verdict
    from pytest_llmfaith.scorers import Faithfulness, Hallucination, Scorer


def __getattr__(name: str) -> Any:
    if name not in _EXPORTS:
        raise AttributeError(f"module 'pytest_llmfaith' has no attribute {name!r}")
    value = getattr(import_module(f".{_EXPORTS[name]}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return __all__
