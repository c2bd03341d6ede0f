"""Session-level gates beyond each assertion's threshold: mean scores and a committed baseline.

statistics and the baseline file are imported by the gate that needs them: every run that
scores applies the gates, most with neither set.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pytest_llmfaith.errors import ConfigError
from pytest_llmfaith.report.model import Report
from pytest_llmfaith.results import Assessment
from pytest_llmfaith.settings import Settings
from pytest_llmfaith.wording import plural

if TYPE_CHECKING:
    from pytest_llmfaith.report.baseline import Baseline


def apply(report: Report, settings: Settings, baseline: Baseline | ConfigError | None) -> None:
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

        from pytest_llmfaith.report.figures import decisive, digits

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
