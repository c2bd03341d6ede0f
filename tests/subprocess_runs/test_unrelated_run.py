"""A suite without llmfaith assertions must not notice the plugin: it loads the hooks and the
settings, nothing that scores, judges, redacts or stores. What each costs is in
benchmarks/plugin_overhead.py; this keeps the list from growing unseen (a module-level import
added anywhere under the hooks shows here, whatever the machine's speed)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

PACKAGE = Path(__file__).parents[2]
RECORD_MODULES = '''
import json, sys

def pytest_unconfigure(config):
    with open("modules.json", "w") as fh:
        json.dump(sorted(sys.modules), fh)
'''
# Each a third-party import or a part of ours that only a scored assertion needs.
NOT_FOR_UNRELATED_RUNS = ("pydantic", "litellm", "regex", "sqlite3", "filelock", "psutil",
                          "pytest_llmfaith.text", "pytest_llmfaith.scorers", "pytest_llmfaith.judge.client",
                          "pytest_llmfaith.local", "pytest_llmfaith.relay", "pytest_llmfaith.report",
                          # agent runs are read by shape: neither the reader nor any framework (tests/agents/)
                          "pytest_llmfaith.agent_runs", "openai", "anthropic", "langchain_core", "langsmith",
                          "pydantic_ai", "agents")


def test_an_unrelated_suite_imports_nothing_that_scores(pytester: pytest.Pytester, monkeypatch) -> None:
    monkeypatch.setenv("PYTHONPATH", str(PACKAGE))  # this checkout's package, whatever the venv has
    pytester.makeconftest(RECORD_MODULES)
    pytester.makepyfile(test_plain="def test_one():\n    assert 1 + 1 == 2\n")
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--llm-judge-model=openai/gpt-4o-mini")
    result.assert_outcomes(passed=1)
    modules = json.loads((pytester.path / "modules.json").read_text())
    assert "pytest_llmfaith.plugin.hooks" in modules  # the plugin did load
    loaded = [m for m in modules if any(m == n or m.startswith(n + ".") for n in NOT_FOR_UNRELATED_RUNS)]
    assert loaded == []
