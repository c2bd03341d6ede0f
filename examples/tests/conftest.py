"""Shared fixtures of the example suite, and one of the plugin's hooks.

`pytest_llmfaith_scored` runs after every scored assertion (pass or fail). Here it sends each
score somewhere else: one JSON line per score appended to the file named by the environment
variable ACME_SCORES_LOG. Replace the file with your dashboard, metrics store or Slack bot.

    ACME_SCORES_LOG=scores.jsonl pytest
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from acme_rag import answer, retrieve


def pytest_llmfaith_scored(assessment, config):
    log = os.environ.get("ACME_SCORES_LOG")
    if not log:
        return
    result = assessment.result
    record = {
        "test": assessment.test_id,
        "scorer": result.scorer,
        "score": result.score,
        "threshold": assessment.threshold,
        "passed": assessment.passed,
        "judge_calls": len(result.judge_calls),
        "cached": sum(call.cached for call in result.judge_calls),
    }
    with Path(log).open("a", encoding="utf-8") as fh:
        fh.write(json.dumps(record) + "\n")


@pytest.fixture
def ask():
    """Ask the app a question: returns (answer, the passages it was retrieved with)."""

    def _ask(question: str) -> tuple[str, list[str]]:
        return answer(question), retrieve(question)

    return _ask
