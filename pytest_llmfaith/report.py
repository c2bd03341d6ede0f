"""The end-of-run report: every assessment of the run, totals, the terminal table, JSON and markdown."""

from __future__ import annotations

import json
import os
import warnings
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from pydantic import BaseModel, Field

from .results import Assessment, JudgeCall, Status
from .scorers.base import shorten
from .selfcheck.check import CheckReport

if TYPE_CHECKING:
    from _pytest.terminal import TerminalReporter

REPORT_VERSION = 1
GATE_NODE_ID = "llmfaith gate"
GATE_STAT = "llmfaith gate failed"  # pytest's last line counts it: "4 passed, 1 llmfaith gate failed"


class ReportWarning(UserWarning):
    """An llmfaith output file could not be written; the run and its other outputs go on."""


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
    baseline_not_run: list[str] = Field(default_factory=list)  # baseline keys no test of this run scored
    unwritten: list[str] = Field(default_factory=list)  # outputs that could not be written, and why
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

    # -- outputs --------------------------------------------------------------------------
    def write_json(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        data = {"version": REPORT_VERSION, "totals": self.totals.model_dump(),
                "gate_failures": self.gate_failures, "judge_errors": self.judge_errors,
                "baseline_not_run": self.baseline_not_run,
                "judge_check": self.judge_check.model_dump(mode="json") if self.judge_check else None,
                "results": [a.model_dump(mode="json") for a in self.assessments]}
        # backslashreplace: a lone surrogate in a text under test becomes a valid JSON escape
        path.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8",
                        errors="backslashreplace")

    def markdown(self) -> str:
        rows = ["| test | scorer | score | threshold | result |", "|---|---|---|---|---|"]
        rows += [f"| `{a.name}` | {a.result.scorer} | {_score(a)} | {_threshold(a, ' ')} | "
                 f"{' '.join(_MARKDOWN_STATUS[s] for s in a.statuses)} |" for a in self.assessments]
        lines = ["### pytest-llmfaith", "", *rows, "", _footer(self.totals), ""]
        lines += [f"- {self.judge_check.summary()}"] if self.judge_check else []
        lines += [f"- ❌ {first}" + "".join(f"\n  - {d.strip()}" for d in details)
                  for first, *details in (g.splitlines() for g in self.gate_failures)]
        lines += [f"- ⚠️ judge error in `{test}`: {error}" for test, error in self.judge_errors.items()]
        lines += [f"- ❌ `{a.key}`: {shorten(a.result.reason, 600)}" for a in self.assessments
                  if a.outcome == Status.FAIL]
        if self.baseline_not_run:
            lines.append(f"- baseline entries not run: {', '.join(f'`{k}`' for k in self.baseline_not_run)}")
        return "\n".join(lines) + "\n"

    def write_outputs(self, json_path: Path | None) -> None:
        """The JSON report and the GitHub step summary. One that cannot be written is a warning:
        raising here would cost the run its failure details, short summary and this table."""
        summary = os.environ.get("GITHUB_STEP_SUMMARY")
        for what, path, write in (("JSON report (--llm-report)", json_path, self.write_json),
                                  ("GitHub step summary (GITHUB_STEP_SUMMARY)",
                                   Path(summary) if summary else None, self._append_markdown)):
            if path is None:
                continue
            try:
                write(path)
            except OSError as err:
                self.unwritten.append(f"llmfaith: could not write the {what} to {path}: {err}. "
                                      "Fix: point it at a writable file path.")
        for problem in self.unwritten:
            try:
                warnings.warn(ReportWarning(problem), stacklevel=2)
            except ReportWarning:  # -W error: still shown, in the llmfaith section
                pass

    def _append_markdown(self, path: Path) -> None:
        with open(path, "a", encoding="utf-8", errors="backslashreplace") as fh:
            fh.write(self.markdown())

    def render(self, tr: TerminalReporter, verbose: bool) -> None:
        """The terminal section: a row per assessment, reasons of failures, totals, gates."""
        tr.section("llmfaith: LLM judge scores")
        columns = _columns(self.assessments, priced=self.totals.cost_usd is not None)
        longest = max((len(a.name) for a in self.assessments), default=0)
        while longest > tr._tw.fullwidth - _width(columns) and any(c.give_up for c in columns):
            columns.remove(min((c for c in columns if c.give_up), key=lambda c: c.give_up))
        test_width = max(min(longest, tr._tw.fullwidth - _width(columns)), 20)
        if self.assessments:
            tr.write_line(f"{'test':<{test_width}}" + "".join(c.format(c.header) for c in columns), bold=True)
        for a in self.assessments:
            tr.write_line(f"{fit_test_id(a.name, test_width):<{test_width}}"
                          + "".join(c.format(c.cell(a)) for c in columns), **_colour(a))
        for a in self.assessments:
            if verbose or a.outcome in (Status.FAIL, Status.XFAIL) or a.unstable:
                tr.write_line(f"{a.status} {a.key}: {shorten(a.result.reason, 600)}", red=a.outcome == Status.FAIL)
        for test, error in self.judge_errors.items():
            tr.write_line(f"ERROR {test}: {shorten(error, 300)}", red=True)
        if self.judge_check is not None:
            tr.write_line(self.judge_check.summary())
        tr.write_line(_footer(self.totals) + (f"; {len(self.judge_errors)} tests hit judge errors"
                                              if self.judge_errors else ""))
        for note in self.gate_notes:
            tr.write_line(note)
        if self.baseline_not_run:
            shown = self.baseline_not_run if verbose else self.baseline_not_run[:10]
            more = len(self.baseline_not_run) - len(shown)
            tr.write_line(f"llmfaith: baseline entries not run ({len(self.baseline_not_run)}): "
                          + ", ".join(shown) + (f", and {more} more (-v lists them)" if more else ""))
        for failure in self.gate_failures:
            first, *details = failure.splitlines()
            tr.write_line(f"llmfaith gate FAILED: {first}", red=True, bold=True)
            for detail in details:
                tr.write_line(detail, red=True)
        for problem in self.unwritten:
            tr.write_line(f"WARNING {problem}", yellow=True)

    def flag_gate_failures(self, tr: TerminalReporter) -> None:
        """Put each gate failure in pytest's own closing lines: the short test summary
        (`FAILED llmfaith gate - ...`) and the last line (`4 passed, 1 llmfaith gate failed`), so a
        run whose tests all passed does not read as green while it exits 1."""
        for failure in self.gate_failures:
            first, *details = failure.splitlines()
            changes = "; ".join(d.strip() for d in details)
            flag = _GateFlag(nodeid=GATE_NODE_ID, location=("llmfaith", None, GATE_NODE_ID), keywords={},
                            outcome="failed", longrepr=first + (f"; {changes}" if changes else ""), when="call")
            tr.stats.setdefault("failed", []).append(flag)
            tr.stats.setdefault(GATE_STAT, []).append(failure)


class _GateFlag(pytest.TestReport):
    """A FAILED line of pytest's short summary that its last line does not count as a failed test."""

    count_towards_summary = False


@dataclass
class _Column:
    """A column of the terminal table after the test id."""

    header: str
    width: int
    cell: Callable[[Assessment], str]
    left: bool = False
    give_up: int = 0  # > 0: given up, 1 first, when a narrow terminal needs the room for test ids

    def format(self, text: str) -> str:
        return " " + (f"{text:<{self.width}}" if self.left else f"{text:>{self.width}}")


def _columns(assessments: list[Assessment], priced: bool) -> list[_Column]:
    def spent(a: Assessment) -> list[JudgeCall]:
        return [c for c in a.result.judge_calls if not c.cached]

    def cost(a: Assessment) -> str:
        costs = [c.cost_usd for c in spent(a) if c.cost_usd is not None]
        return _money(sum(costs) if costs else None)

    columns = [
        _Column("scorer", 8, lambda a: _SHORT[a.result.scorer], left=True),
        _Column("score", max([5, *(len(_score(a)) for a in assessments)]), _score),  # NO CLAIMS is wider
        _Column("thresh", 7, _threshold),
        _Column("result", max([6, *(len(a.status) for a in assessments)]), lambda a: a.status, left=True),
        # votes: the agreement of the least agreed-on claim; UNSTABLE in the result already warns
        *([_Column("agree", 5, lambda a: a.result.lowest_agreement or "-", give_up=1)]
          if any(a.result.votes > 1 for a in assessments) else []),
        _Column("calls", 5, lambda a: str(len(a.result.judge_calls))),
        _Column("hits", 4, lambda a: str(len(a.result.judge_calls) - len(spent(a))), give_up=3),
        _Column("tokens", 7, give_up=2, cell=lambda a: str(sum(
            (c.prompt_tokens or 0) + (c.completion_tokens or 0) for c in spent(a)))),
    ]
    return columns + ([_Column("cost", 8, cost)] if priced else [])  # only when some call had a known price


def _width(columns: list[_Column]) -> int:
    return sum(c.width + 1 for c in columns)


_SHORT = {"faithfulness": "faithful", "hallucination": "halluc"}
_MARKDOWN_STATUS = {Status.PASS: "✅ pass", Status.FAIL: "❌ fail", Status.XFAIL: "➖ xfail (expected)",
                    Status.REGRESSED: "📉 regressed", Status.NO_THRESHOLD: "· no threshold",
                    Status.UNSTABLE: "⚠️ unstable"}
_COLOUR: dict[Status, dict[str, bool]] = {Status.PASS: {"green": True}, Status.FAIL: {"red": True},
                                          Status.REGRESSED: {"red": True}, Status.XFAIL: {"yellow": True},
                                          Status.UNSTABLE: {"yellow": True}}


def _colour(a: Assessment) -> dict[str, bool]:
    """A pass that a close vote decided is a warning, not green; a failure or regression stays red."""
    return _COLOUR[Status.UNSTABLE] if a.statuses == (Status.PASS, Status.UNSTABLE) else _COLOUR.get(a.outcome, {})


def _score(a: Assessment) -> str:
    """The score, or NO CLAIMS: a 0 that no claim produced must not read like a measured 0."""
    return "NO CLAIMS" if a.result.no_claims else f"{a.result.score:.2f}"


def _threshold(a: Assessment, space: str = "") -> str:
    return "-" if a.threshold is None else f"{a.comparison}{space}{a.threshold:.2f}"


def fit_test_id(name: str, width: int) -> str:
    """Fit a test id into `width`, giving up first the directories, then the file, then the middle
    of the test name: the test name is what a reader looks for."""
    if len(name) <= width:
        return name
    path, sep, test = name.partition("::")
    if sep:
        *directories, file = path.split("/")
        shorter = ["…/" + "/".join([*directories[i:], file]) for i in range(1, len(directories))] + [file, "…"]
        for candidate in shorter:
            if len(f"{candidate}::{test}") <= width:
                return f"{candidate}::{test}"
        name = "…::" + test
    head = (width - 1) * 2 // 3
    return name[:head] + "…" + name[len(name) - (width - 1 - head):]


def _money(cost: float | None) -> str:
    return "n/a" if cost is None else f"${cost:.4f}"


def _footer(t: Totals) -> str:
    extra = "".join(f", {n} {what}" for n, what in ((t.xfailed, "xfailed"), (t.regressed, "regressed"),
                                                     (t.no_threshold, "without threshold"),
                                                     (t.unstable, "unstable")) if n)
    saved = f" ({t.tokens_saved:,} saved by the cache)" if t.tokens_saved else ""
    saved_cost = f" ({_money(t.cost_saved_usd)} saved)" if t.cost_saved_usd else ""
    return (f"llmfaith: {t.scores} scores ({t.passed} passed, {t.failed} failed{extra}); judge calls "
            f"{t.judge_calls} ({t.cache_hits} cached, {t.judge_calls - t.cache_hits} new); "
            f"tokens {t.tokens:,}{saved}; cost {_money(t.cost_usd)}{saved_cost}; judge time {t.judge_seconds:.1f}s")
