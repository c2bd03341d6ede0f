"""Run the configured judge over labelled items and say how far its verdicts can be trusted.

Each item is scored by both scorers exactly as a test would score it (same judge, cache, votes
and thresholds), so the figures describe the judge the tests will use, and a re-run is all
cache hits. An item "passes" when its score passes the run's default threshold; balanced
accuracy weighs the faithful and the unfaithful items equally. Refusal items (no_claims) are
faithful items, right when the judge finds no claims in them.
"""

from __future__ import annotations

from collections import Counter
from importlib.resources import files
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import BaseModel, Field, ValidationError

from ..errors import ConfigError
from ..recordings import SELF_CHECK
from .labelled import balanced_accuracy, class_accuracy, passes, read_jsonl, score_item

if TYPE_CHECKING:
    from ..session import LLMFaithSession

SCORERS = ("faithfulness", "hallucination")
ITEM_FORMAT = ('one JSON object per line: {"output": "...", "context": ["...", ...], "faithful": true, '
               '"kind": "negation", "no_claims": false, "id": "..."} (kind, no_claims and id are optional)')


class CheckItem(BaseModel):
    """A labelled item: the benchmark format's fields the check needs (others are ignored)."""

    output: str
    context: list[str]
    faithful: bool
    kind: str = "item"
    no_claims: bool = False  # a refusal, greeting or question: right when no claims are found
    id: str = ""


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


def load_items(path: Path | None) -> tuple[list[CheckItem], str]:
    """The shipped set (path None) or the user's JSONL file, with a name for it; a bad file is a
    ConfigError naming the line and the format."""
    if path is None:
        text = files(__package__).joinpath("items.jsonl").read_text(encoding="utf-8")
        return [CheckItem.model_validate_json(line) for line in text.splitlines() if line.strip()], "shipped set"
    fix = f"Fix: --llm-judge-check=PATH.jsonl takes {ITEM_FORMAT}."
    try:
        raw = read_jsonl(path)
    except FileNotFoundError:
        raise ConfigError(f"llmfaith: the judge check file {path} does not exist. {fix}") from None
    except (OSError, ValueError) as err:
        raise ConfigError(f"llmfaith: the judge check file {path} is not JSON lines ({err}). {fix}") from None
    items = []
    for n, data in enumerate(raw, 1):
        try:
            item = CheckItem.model_validate(data)
        except ValidationError as err:
            first = err.errors()[0]
            where = ".".join(str(p) for p in first["loc"]) or "item"
            raise ConfigError(f"llmfaith: item {n} of {path}: {where}: {first['msg']}. {fix}") from None
        items.append(item.model_copy(update={"id": item.id or f"line {n}"}))
    if not items:
        raise ConfigError(f"llmfaith: the judge check file {path} has no items. {fix}")
    return items, str(path)


def run_check(session: LLMFaithSession, path: Path | None, min_accuracy: float | None) -> CheckReport:
    """Score every item with both scorers of the session's judge."""
    items, source = load_items(path)
    s = session.settings
    report = CheckReport(model=session.judge().config.model, source=source, items=len(items),
                         min_faithfulness=s.min_faithfulness, max_hallucination=s.max_hallucination,
                         min_accuracy=min_accuracy)
    with session.asking_outside_tests(SELF_CHECK):  # the working cache only, never a recording
        for name in SCORERS:
            scorer = session.scorer(name)
            outcomes = []
            for item in items:
                got = score_item(scorer, item.output, item.context)
                report.judge_calls += len(got["calls"])
                report.cache_hits += sum(c["cached"] for c in got["calls"])
                outcome = ItemOutcome(id=item.id, kind=item.kind, faithful=item.faithful, no_claims=item.no_claims,
                                      score=got["score"], claims=got["claims"], error=got["error"])
                if got["score"] is not None:
                    outcome.right = got["claims"] == 0 if item.no_claims else \
                        passes(name, got["score"], s.min_faithfulness, s.max_hallucination) == item.faithful
                outcomes.append(outcome)
            report.scorers.append(_accuracy(name, outcomes))
    return report


def _accuracy(name: str, outcomes: list[ItemOutcome]) -> ScorerCheck:
    """Balanced accuracy; a refusal counts as a faithful item the judge got right when it found no
    claims in it. Plain accuracy when the items have one class only."""
    scored = [o for o in outcomes if o.right is not None]
    labels = [o.faithful for o in scored]
    preds = [o.faithful == o.right for o in scored]  # what the judge predicted: faithful or not
    value = balanced_accuracy(labels, preds)
    one_class = value is None and bool(scored)
    if one_class:
        value = class_accuracy(labels, preds)
    return ScorerCheck(scorer=name, balanced_accuracy=value, one_class=one_class, items=outcomes)
