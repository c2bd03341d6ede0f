"""The end-of-run report as data: every assessment of the run, totals, the session's gates (mean
scores, a committed baseline) and the figures as every view shows them: with the precision that
decided a comparison, and a vote's agreement only where the votes decided. No pytest here; how
it looks is the renderers' business (JSON, markdown, the review page, the terminal section).

statistics and the baseline file are imported by the gate that needs them: every run that scores
applies the gates, most with neither set. A self-check's outcome (`CheckReport`) is here, apart
from the check, so that a run without a check never loads the check and its item format.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, Field

from pytest_llmfaith.errors import ConfigError
from pytest_llmfaith.results import Assessment, Status, Verdict
from pytest_llmfaith.settings import Settings
from pytest_llmfaith.wording import plural

if TYPE_CHECKING:
    from pytest_llmfaith.report.baseline import Baseline


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


def digits(x: float) -> int:
    """The decimals a figure needs to be shown as it is (0.7 -> 2, 0.755 -> 3), 2 to 6."""
    return next((d for d in range(2, 6) if abs(round(x, d) - x) < 1e-12), 6)


def decisive(value: float, limit: float, least: int = 2) -> str:
    """`value` with the decimals that tell it from `limit` (at least the limit's own): a
    comparison shown never reads false for its rounding ("0.695 < 0.70", not "0.70 < 0.70")."""
    d = max(least, digits(limit))
    while d < 6 and value != limit and f"{value:.{d}f}" == f"{limit:.{d}f}":
        d += 1
    return f"{value:.{d}f}"


def score_text(a: Assessment) -> str:
    """The score, or NO CLAIMS: a 0 that no claim produced must not read like a measured 0."""
    if a.result.no_claims:
        return "NO CLAIMS"
    return f"{a.result.score:.2f}" if a.threshold is None else decisive(a.result.score, a.threshold)


def threshold_text(a: Assessment, space: str = "") -> str:
    return "-" if a.threshold is None else f"{a.comparison}{space}{a.threshold:.{digits(a.threshold)}f}"


def rule_decided(v: Verdict) -> bool | None:
    """With votes, the side most of the judge's votes took (True: "yes") when the verdict is the
    other one: a code rule overruled the judge. None when the verdict is the votes' own."""
    if len(v.samples) < 2:
        return None
    side = sum(s == "yes" for s in v.samples) * 2 > len(v.samples)
    return side if side != (v.verdict == "yes") else None


def lowest_agreement(a: Assessment) -> str | None:
    """The agreement of the least agreed-on claim the votes decided ("2/3"); "rule" when a code
    rule decided every claim that had votes."""
    voted = [v for v in a.result.verdicts if v.agreement]
    by_votes = [v.agreement for v in voted if rule_decided(v) is None and v.agreement]
    if not by_votes:
        return "rule" if voted else None
    return min(by_votes, key=lambda x: int(x.split("/")[0]))


def apply_gates(report: Report, settings: Settings, baseline: Baseline | ConfigError | None) -> None:
    """Fill report.gate_failures / gate_notes; write the baseline when asked to. `baseline`: the
    file as the run read it (why not, when it could not be).

    Each assessment was compared with the baseline where it was made (a worker under xdist), so
    that its status travels with it; here the regressions become gate failures."""
    for scorer, limit, higher in (("faithfulness", settings.min_mean_faithfulness, True),
                                  ("hallucination", settings.max_mean_hallucination, False)):
        scores = [a.result.score for a in report.gated if a.result.scorer == scorer]
        if limit is None or not scores:
            continue
        from statistics import mean

        avg = mean(scores)
        shown = decisive(avg, limit, least=3)
        gate = f"mean {scorer} {'≥' if higher else '≤'} {limit:.{digits(limit)}f}"
        report.gates_checked.append(f"{gate} (mean {shown} over {plural(len(scores), 'score')})")
        if (avg < limit) if higher else (avg > limit):
            report.gate_failures.append(
                f"mean {scorer} {shown} is {'below' if higher else 'above'} the gate "
                f"{limit:.{digits(limit)}f} over {plural(len(scores), 'score')}")
    if settings.baseline is None:
        return
    current = {a.key: a for a in report.gated}
    if settings.baseline_update:
        _update(report, settings, list(current.values()), baseline)
        return
    report.gates_checked.append(f"baseline {settings.baseline.name}")
    if isinstance(baseline, ConfigError):
        report.gate_failures.append(str(baseline))
        return
    assert baseline is not None  # a baseline file is set: the session has read it
    regressed = [a for a in current.values() if a.regression is not None]
    for a in regressed:
        report.gate_failures.append(_regression_failure(a))
    new = [key for key in current if key not in baseline.assertions]
    report.baseline_not_run = sorted(set(baseline.assertions) - set(current))
    note = (f"llmfaith: baseline compared: {plural(len(current) - len(new), 'score')}, "
            f"{plural(len(regressed), 'regression')}")
    report.gate_notes.append(note + (f", {len(new)} not in the baseline (run --llm-baseline-update to add them)"
                                     if new else ""))
    if baseline.migrated:
        report.gate_notes.append(f"llmfaith: {settings.baseline} is in the old scores-only format: a regression "
                                 "cannot name its claims until --llm-baseline-update rewrites it")


def _update(report: Report, settings: Settings, assessments: list[Assessment],
            baseline: Baseline | ConfigError | None) -> None:
    assert settings.baseline is not None
    from pytest_llmfaith.report import baseline as baseline_file

    old = set() if baseline is None or isinstance(baseline, ConfigError) else set(baseline.assertions)
    written = baseline_file.write(settings.baseline, assessments)
    pruned = sorted(old - set(written.assertions))
    scores, entries = plural(len(written.assertions), "score"), plural(len(pruned), "entry")
    report.gate_notes.append(f"llmfaith: baseline written to {settings.baseline} ({scores})"
                             + (f"; pruned {entries} not run: {', '.join(pruned)}" if pruned else ""))


def _regression_failure(a: Assessment) -> str:
    """First line for the short summary; a line per claim that changed, which the sections indent.
    A close vote on either side is named: the change may be the judge's, not the app's."""
    r = a.regression
    assert r is not None
    close = [whose for whose, flag in (("this run's", a.unstable), ("the baseline's", r.was_unstable)) if flag]
    unstable = f" UNSTABLE: {' and '.join(close)} score was decided by a close vote of the judge" if close else ""
    lines = [f"baseline regression {a.key}: {r.headline()}{unstable}"]
    lines += [f"    {change.describe(a.result.scorer)}" for change in r.changes]
    if not r.claims_known:
        lines.append("    (the baseline holds only scores: rewrite it with --llm-baseline-update to compare claims)")
    elif not r.changes:
        lines.append("    (same claims and verdicts as the baseline: the judge scored them differently)")
    return "\n".join(lines)
