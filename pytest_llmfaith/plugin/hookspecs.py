"""The plugin's own hooks. Implement them in a conftest.py or a plugin to extend pytest-llmfaith.

Example (conftest.py)::

    def pytest_llmfaith_scored(assessment, config):
        my_dashboard.send(assessment.model_dump(mode="json"))
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pluggy

if TYPE_CHECKING:
    import pytest

    from pytest_llmfaith.report.model import Report
    from pytest_llmfaith.results import Assessment
    from pytest_llmfaith.scorers import Scorer

hookspec = pluggy.HookspecMarker("pytest")


@hookspec
def pytest_llmfaith_scored(assessment: Assessment, config: pytest.Config) -> None:
    """Called after every scored assertion, pass or fail, before a failing one raises.

    Runs in the process that ran the test (a worker under pytest-xdist). `assessment` holds the
    test id, the label, the key (as in the baseline), the threshold (None for a raw score from the
    llm_judge fixture), whether it passed, the outcome (a Status), whether a close vote decided it
    (`unstable`, with --llm-judge-votes), the baseline regression if any, and the full ScoreResult
    (claims, verdicts with their votes, reason, judge calls with tokens, cost and cache hits).
    """


@hookspec
def pytest_llmfaith_report(report: Report, config: pytest.Config) -> None:
    """Called once at the end of the session (on the controller under xdist) with every result
    and the gate outcomes, after the JSON report and baseline are written."""


@hookspec
def pytest_llmfaith_register_scorers(register: Callable[[type[Scorer]], None], config: pytest.Config) -> None:
    """Register scorers of your own: `register(MyScorer)` for each subclass of
    `pytest_llmfaith.Scorer`. The plugin registers its built-in two here too.

    Called once per process, when the first score is asked for (so a run that never scores imports
    no scorer). A name registered twice by different classes, or not lower_snake_case, is an error.
    Use the scorer with `llm_judge.assert_score("my_scorer", output, context, threshold=...)` or
    `llm_judge.score("my_scorer", output, context)`.
    """
