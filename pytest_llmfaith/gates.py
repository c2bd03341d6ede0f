"""Session-level gates beyond each assertion's threshold: mean scores and a committed baseline."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from statistics import mean

from .errors import ConfigError
from .report import Report
from .results import Assessment
from .settings import Settings

BASELINE_VERSION = 1


def baseline_entries(report: Report) -> dict[str, Assessment]:
    """`test id [scorer]`, with `#2`, `#3` for further assertions of that scorer in the test."""
    seen: Counter[str] = Counter()
    entries: dict[str, Assessment] = {}
    for a in report.gated:
        key = f"{a.test_id} [{a.result.scorer}]"
        seen[key] += 1
        entries[key if seen[key] == 1 else f"{key} #{seen[key]}"] = a
    return entries


def apply(report: Report, settings: Settings) -> None:
    """Fill report.gate_failures / gate_notes; write the baseline when asked to."""
    for scorer, limit, higher in (("faithfulness", settings.min_mean_faithfulness, True),
                                  ("hallucination", settings.max_mean_hallucination, False)):
        scores = [a.result.score for a in report.gated if a.result.scorer == scorer]
        if limit is None or not scores:
            continue
        avg = mean(scores)
        if (avg < limit) if higher else (avg > limit):
            report.gate_failures.append(
                f"mean {scorer} {avg:.3f} is {'below' if higher else 'above'} the gate "
                f"{limit:.2f} over {len(scores)} scores")
    if settings.baseline is None:
        return
    entries = baseline_entries(report)
    current = {key: a.result.score for key, a in entries.items()}
    unstable = sorted(key for key, a in entries.items() if a.unstable)
    if settings.baseline_update:
        settings.baseline.parent.mkdir(parents=True, exist_ok=True)
        data: dict[str, object] = {"version": BASELINE_VERSION, "scores": dict(sorted(current.items()))}
        if unstable:  # scores a close vote decided: a later change there may be the judge, not the app
            data["unstable"] = unstable
        settings.baseline.write_text(json.dumps(data, indent=2) + "\n")
        report.gate_notes.append(f"llmfaith: baseline written to {settings.baseline} ({len(current)} scores)")
        return
    try:
        baseline = _load(settings.baseline)
    except ConfigError as err:
        report.gate_failures.append(str(err))
        return
    _compare(report, current, baseline, settings.baseline_tolerance, set(unstable))


def _load(path: Path) -> dict[str, float]:
    try:
        data = json.loads(path.read_text())
        return {str(k): float(v) for k, v in data["scores"].items()}
    except FileNotFoundError:
        raise ConfigError(f"llmfaith: baseline file {path} does not exist. Fix: create it once with "
                          "--llm-baseline-update, then commit it.") from None
    except (ValueError, KeyError, TypeError, AttributeError) as err:
        raise ConfigError(f"llmfaith: baseline file {path} is not a valid baseline ({err}). "
                          "Fix: regenerate it with --llm-baseline-update.") from None


def _compare(report: Report, current: dict[str, float], baseline: dict[str, float], tolerance: float,
             unstable: set[str]) -> None:
    regressions, new = [], 0
    for key, score in current.items():
        if key not in baseline:
            new += 1
            continue
        was = baseline[key]
        delta = (was - score) if "[faithfulness]" in key else (score - was)
        if delta > tolerance + 1e-9:
            regressions.append(f"{key}: {was:.2f} -> {score:.2f} ({'-' if '[faithfulness]' in key else '+'}"
                               f"{delta:.2f}, tolerance {tolerance:.2f})"
                               + (" UNSTABLE: decided by a close vote of the judge" if key in unstable else ""))
    report.gate_failures += [f"baseline regression {r}" for r in regressions]
    note = f"llmfaith: baseline compared: {len(current) - new} scores, {len(regressions)} regressions"
    report.gate_notes.append(note + (f", {new} not in the baseline (run --llm-baseline-update to add them)" if new else ""))
