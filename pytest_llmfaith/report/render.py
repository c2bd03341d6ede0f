"""The report as files: the JSON report and the GitHub step summary (markdown), plus the cell
texts the terminal table shares with the markdown one. No pytest here.

The JSON reports are read back too: the review page's sparklines are earlier runs, a folder of
JSON reports (--llm-report) and baseline files, read in file-name order, since CI artefacts and
committed files keep no trustworthy modification time (name them so they sort by date:
2025-06-01.json).
"""

from __future__ import annotations

import json
import os
import warnings
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import ValidationError

from pytest_llmfaith.errors import ConfigError
from pytest_llmfaith.report import baseline
from pytest_llmfaith.report.model import Report, Totals, score_text, threshold_text
from pytest_llmfaith.results import Assessment, Status
from pytest_llmfaith.settings import Settings
from pytest_llmfaith.wording import plural, shorten, unstable_summary

if TYPE_CHECKING:
    from pytest_llmfaith.report.baseline import Baseline


REPORT_VERSION = 1


class ReportWarning(UserWarning):
    """An llmfaith output file could not be written; the run and its other outputs go on."""


def json_text(report: Report) -> str:
    data = {"version": REPORT_VERSION, "totals": report.totals.model_dump(),
            "gate_failures": report.gate_failures, "judge_errors": report.judge_errors,
            "baseline_not_run": report.baseline_not_run,
            "judge_check": report.judge_check.model_dump(mode="json") if report.judge_check else None,
            "results": [a.model_dump(mode="json") for a in report.assessments]}
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def markdown(report: Report) -> str:
    rows = ["| test | scorer | score | threshold | result |", "|---|---|---|---|---|"]
    rows += [f"| `{a.name}` | {a.result.scorer} | {score_text(a)} | {threshold_text(a, ' ')} | "
             f"{' '.join(_MARKDOWN_STATUS[s] for s in a.statuses)} |" for a in report.assessments]
    lines = ["### pytest-llmfaith", "", *rows, "", footer(report.totals), ""]
    lines += [f"- ⚠️ {unstable_summary(report.totals.unstable, votes_of(report))}"] if report.totals.unstable else []
    lines += [f"- {report.judge_check.summary()}"] if report.judge_check else []
    lines += [f"- ❌ {first}" + "".join(f"\n  - {d.strip()}" for d in details)
              for first, *details in (g.splitlines() for g in report.gate_failures)]
    lines += [f"- ⚠️ judge error in `{test}`: {error}" for test, error in report.judge_errors.items()]
    lines += [f"- ❌ `{a.key}`: {shorten(a.result.reason, 600)}" for a in report.assessments
              if a.outcome == Status.FAIL]
    if report.baseline_not_run:
        lines.append(f"- baseline entries not run: {', '.join(f'`{k}`' for k in report.baseline_not_run)}")
    return "\n".join(lines) + "\n"


def write_outputs(report: Report, settings: Settings, baseline: Baseline | None) -> None:
    """The JSON report, the review page (its claims compared against `baseline`: the run's, unless
    it rewrote it) and the GitHub step summary. One that cannot be written is
    a warning (and a line of report.unwritten): raising here would cost the run its failure
    details, short summary and table."""
    summary = os.environ.get("GITHUB_STEP_SUMMARY")
    outputs: tuple[tuple[str, Path | None, Callable[[Report, Path], None]], ...] = (
        ("JSON report (--llm-report)", settings.report, _write_json),
        ("review page (--llm-report-html)", settings.report_html, lambda r, p: _write_page(r, p, settings, baseline)),
        ("GitHub step summary (GITHUB_STEP_SUMMARY)", Path(summary) if summary else None, _append_markdown))
    for what, path, write in outputs:
        if path is None:
            continue
        try:
            write(report, path)
        except OSError as err:
            report.unwritten.append(f"llmfaith: could not write the {what} to {path}: {err}. "
                                    "Fix: point it at a writable file path.")
        else:
            report.written.append(f"the {what.split(' (')[0]}: {shown_path(path)}")
    for problem in report.unwritten:
        try:
            warnings.warn(ReportWarning(problem), stacklevel=2)
        except ReportWarning:  # -W error: still shown, in the llmfaith section
            pass


def shown_path(path: Path | str) -> str:
    """A path as a line names it: relative to the working folder when inside it, else absolute."""
    full = Path(path).absolute()
    try:
        return str(full.relative_to(Path.cwd()))
    except ValueError:
        return str(full)


def _write_json(report: Report, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    # backslashreplace: a lone surrogate in a text under test becomes a valid JSON escape
    path.write_text(json_text(report), encoding="utf-8", errors="backslashreplace")


def _write_page(report: Report, path: Path, settings: Settings, baseline: Baseline | None) -> None:
    """The review page, with the earlier runs of --llm-report-history (never this run's own files)."""
    from datetime import datetime

    from pytest_llmfaith.report import page

    past = None
    if settings.report_history is not None:
        past = load_history(settings.report_history, {p.resolve() for p in (settings.report, path) if p})
    generated = datetime.now().astimezone().strftime("%Y-%m-%d %H:%M %Z")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(page.html(report, baseline, past, generated), encoding="utf-8")


def _append_markdown(report: Report, path: Path) -> None:
    with open(path, "a", encoding="utf-8", errors="backslashreplace") as fh:
        fh.write(markdown(report))


_MARKDOWN_STATUS = {Status.PASS: "✅ pass", Status.FAIL: "❌ fail", Status.XFAIL: "➖ xfail (expected)",
                    Status.REGRESSED: "📉 regressed", Status.NO_THRESHOLD: "· no threshold",
                    Status.UNSTABLE: "⚠️ unstable"}


def votes_of(report: Report) -> int:
    """The votes per claim of the run's UNSTABLE scores (one setting per run)."""
    return max((a.result.votes for a in report.assessments if a.unstable), default=1)


def money(cost: float | None) -> str:
    return "n/a" if cost is None else f"${cost:.4f}"


def footer(t: Totals) -> str:
    extra = "".join(f", {n} {what}" for n, what in ((t.xfailed, "xfailed"), (t.regressed, "regressed"),
                                                     (t.no_threshold, "without threshold"),
                                                     (t.unstable, "unstable")) if n)
    saved = f" ({t.tokens_saved:,} saved by the cache)" if t.tokens_saved else ""
    saved_cost = f" ({money(t.cost_saved_usd)} saved)" if t.cost_saved_usd else ""
    return (f"llmfaith: {plural(t.scores, 'score')} ({t.passed} passed, {t.failed} failed{extra}); judge calls "
            f"{t.judge_calls} ({t.cache_hits} cached, {t.judge_calls - t.cache_hits} new); "
            f"tokens {t.tokens:,}{saved}; cost {money(t.cost_usd)}{saved_cost}; judge time {t.judge_seconds:.1f}s")


@dataclass
class History:
    runs: list[str] = field(default_factory=list)  # file stems, oldest first
    scores: dict[str, list[float | None]] = field(default_factory=dict)  # key -> a score per run (None: not run)
    problems: list[str] = field(default_factory=list)  # files that could not be read, and why


def load_history(folder: Path, skip: Collection[Path] = ()) -> History:
    """Every readable *.json of the folder; a file that is neither a report nor a baseline is a
    problem the page lists, never an error of the run. `skip`: this run's own outputs."""
    history = History()
    if not folder.is_dir():
        history.problems.append(f"history folder {folder} does not exist")
        return history
    for path in sorted(p for p in folder.glob("*.json") if p.resolve() not in skip):
        try:
            scores = _scores(path)
        except (OSError, ValueError, KeyError, TypeError, ValidationError, ConfigError) as err:
            history.problems.append(f"{path.name}: not a JSON report or baseline ({str(err).splitlines()[0]})")
            continue
        for key, score in scores.items():
            history.scores.setdefault(key, [None] * len(history.runs)).append(score)
        history.runs.append(path.stem)
        for column in history.scores.values():
            column.extend([None] * (len(history.runs) - len(column)))
    return history


def _scores(path: Path) -> dict[str, float]:
    data = json.loads(path.read_text(encoding="utf-8"))
    if isinstance(data, dict) and isinstance(data.get("results"), list):
        return {str(r.get("key") or Assessment.model_validate(r).key): float(r["result"]["score"])
                for r in data["results"]}
    if isinstance(data, dict) and ("assertions" in data or "scores" in data):
        return {key: e.score for key, e in baseline.load(path).assertions.items()}
    raise ValueError("neither 'results' nor 'assertions'")
