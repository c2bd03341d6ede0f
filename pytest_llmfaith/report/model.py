"""The end-of-run report as data: every assessment of the run, totals and gate outcomes.

What it looks like is the renderers' business: render.py (JSON, markdown), page.py (the
review page) and plugin/terminal.py (the terminal section).

What a judge self-check found (`CheckReport`) is here too, apart from selfcheck/judge_check.py
(which runs the check), so that the report can name its type without importing the check and its
item format: a run without a check never loads them."""

from __future__ import annotations

from collections import Counter
from typing import Any

from pydantic import BaseModel, Field

from pytest_llmfaith.results import Assessment, Status


# What a judge self-check found: the data the JSON report and the summary carry.
class ItemOutcome(BaseModel):
    id: str
    kind: str
    faithful: bool
    no_claims: bool
    score: float | None = None
    claims: int | None = None
    error: str | None = None
    right: bool | None = None  # None: the judge failed on it


class ScorerCheck(BaseModel):
    scorer: str
    balanced_accuracy: float | None
    one_class: bool = False  # only faithful or only unfaithful items: plain accuracy instead
    items: list[ItemOutcome] = Field(default_factory=list)

    def wrong_kinds(self) -> dict[str, tuple[int, int]]:
        """kind -> (wrong, of), for the kinds with a wrong item."""
        totals = Counter(i.kind for i in self.items if i.right is not None)
        wrong = Counter(i.kind for i in self.items if i.right is False)
        return {kind: (wrong[kind], totals[kind]) for kind in sorted(wrong)}


class CheckReport(BaseModel):
    """The outcome of a self-check: what the JSON report and the summary carry."""

    model: str
    source: str
    items: int
    min_faithfulness: float
    max_hallucination: float
    min_accuracy: float | None = None
    scorers: list[ScorerCheck] = Field(default_factory=list)
    judge_calls: int = 0
    cache_hits: int = 0

    @property
    def errors(self) -> list[str]:
        return [f"{s.scorer} {i.id}: {i.error}" for s in self.scorers for i in s.items if i.error]

    @property
    def problem(self) -> str | None:
        """Why the run must stop, if it must: a judge that failed, or one below the bar."""
        if self.errors:
            return (f"llmfaith: the judge self-check could not score {len(self.errors)} item(s) with "
                    f"{self.model}: {self.errors[0]}. No test was run: a judge that cannot answer is never "
                    "trusted. Fix the judge (see the error), or run without --llm-judge-check.")
        if self.min_accuracy is None:
            return None
        low = [s for s in self.scorers if (s.balanced_accuracy or 0.0) < self.min_accuracy - 1e-9]
        if not low:
            return None
        kinds = sorted({k for s in low for k in s.wrong_kinds()})
        scored = ", ".join(f"{_figure(s)} ({s.scorer})" for s in low)
        return (f"llmfaith: the judge {self.model} scored {scored}"
                f" on the self-check ({self.source}), below --llm-judge-min-accuracy={self.min_accuracy:g}; "
                f"it gets {', '.join(kinds) or 'some items'} wrong. No test was run. Fix: use a stronger judge "
                "(--llm-judge-model), or lower --llm-judge-min-accuracy.")

    def lines(self) -> list[str]:
        """What the terminal shows before the tests."""
        out = [f"llmfaith judge check: {self.model} on {self.items} labelled items ({self.source}); "
               f"an item passes at faithfulness >= {self.min_faithfulness:.2f} / hallucination <= "
               f"{self.max_hallucination:.2f}"]
        for s in self.scorers:
            wrong = ", ".join(f"{k} {w}/{n}" for k, (w, n) in s.wrong_kinds().items()) or "none"
            out.append(f"  {s.scorer:<14} {_figure(s)}  wrong: {wrong}")
        out.append(f"  judge calls {self.judge_calls} ({self.cache_hits} cached)")
        return out

    def summary(self) -> str:
        """One line for the end-of-run summary."""
        return (f"llmfaith judge check ({self.source}, {self.items} items): "
                + ", ".join(f"{s.scorer} {_figure(s)}" for s in self.scorers))


def _figure(s: ScorerCheck) -> str:
    if s.balanced_accuracy is None:
        return "no items"
    return f"{'accuracy (one class only)' if s.one_class else 'balanced accuracy'} {s.balanced_accuracy:.2f}"


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
