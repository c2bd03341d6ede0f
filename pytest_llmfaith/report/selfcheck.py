"""What a judge self-check found: the data the JSON report and the summary carry.

Apart from selfcheck/judge_check.py (which runs the check) so that the end-of-run report can
name its type without importing the check and its item format: a run without a check never
loads them.
"""

from __future__ import annotations

from collections import Counter

from pydantic import BaseModel, Field


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
