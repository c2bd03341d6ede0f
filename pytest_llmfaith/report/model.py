"""The end-of-run report as data: every assessment of the run, totals and gate outcomes.

What it looks like is the renderers' business: render.py (JSON, markdown), page.py (the
review page) and plugin/terminal.py (the terminal section)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from pydantic import BaseModel, Field

from pytest_llmfaith.report.selfcheck import CheckReport
from pytest_llmfaith.results import Assessment, Status


class Totals(BaseModel):
    scores: int = 0
    passed: int = 0
    failed: int = 0
    xfailed: int = 0
    regressed: int = 0
    no_threshold: int = 0  # raw scores from the llm_judge fixture
    unstable: int = 0  # also counted above: decided by a majority of votes that the minority would flip
    judge_calls: int = 0
    cache_hits: int = 0
    tokens: int = 0
    cost_usd: float | None = None
    judge_seconds: float = 0.0
    tokens_saved: int = 0  # what the cached answers cost when they were recorded
    cost_saved_usd: float | None = None


class Report(BaseModel):
    """All assessments of the run, in the order their tests finished, plus the gate outcomes."""

    assessments: list[Assessment] = Field(default_factory=list)
    judge_errors: dict[str, str] = Field(default_factory=dict)  # test id -> error, scored nothing
    gate_failures: list[str] = Field(default_factory=list)  # first line: the gate; further lines: details
    gate_notes: list[str] = Field(default_factory=list)
    gates_checked: list[str] = Field(default_factory=list)  # every gate this run applied, passed or not
    baseline_not_run: list[str] = Field(default_factory=list)  # baseline keys no test of this run scored
    unwritten: list[str] = Field(default_factory=list)  # outputs that could not be written, and why
    written: list[str] = Field(default_factory=list)  # "the JSON report: out/report.json": what was written where
    judge_check: CheckReport | None = None  # --llm-judge-check, run before the tests

    def add(self, records: list[dict[str, Any]]) -> None:
        self.assessments.extend(Assessment.model_validate(r) for r in records)

    def sort_by_test(self) -> None:
        """Rows by test id, each test's assessments in the order they were made: under xdist,
        tests finish in any order."""
        self.assessments.sort(key=lambda a: a.test_id)

    @property
    def gated(self) -> list[Assessment]:
        """What the gates judge: deliberate failures (xfail tests) would only add noise."""
        return [a for a in self.assessments if not a.expected_failure]

    @property
    def totals(self) -> Totals:
        counts = Counter(s for a in self.assessments for s in a.statuses)
        t = Totals(scores=len(self.assessments), passed=counts[Status.PASS], failed=counts[Status.FAIL],
                   xfailed=counts[Status.XFAIL], regressed=counts[Status.REGRESSED],
                   no_threshold=counts[Status.NO_THRESHOLD], unstable=counts[Status.UNSTABLE])
        for a in self.assessments:
            for call in a.result.judge_calls:
                t.judge_calls += 1
                t.cache_hits += call.cached
                if call.cached:
                    t.tokens_saved += (call.prompt_tokens or 0) + (call.completion_tokens or 0)
                    if call.cost_usd is not None:
                        t.cost_saved_usd = (t.cost_saved_usd or 0.0) + call.cost_usd
                else:
                    t.tokens += (call.prompt_tokens or 0) + (call.completion_tokens or 0)
                    t.judge_seconds += call.latency_s
                    if call.cost_usd is not None:
                        t.cost_usd = (t.cost_usd or 0.0) + call.cost_usd
        return t
