"""The end-of-run report: every assessment of the run, totals, the terminal table, JSON and markdown."""

from __future__ import annotations

import json
import os
import warnings
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, Field

from .results import Assessment
from .scorers.base import shorten

if TYPE_CHECKING:
    from _pytest.terminal import TerminalReporter

REPORT_VERSION = 1


class ReportWarning(UserWarning):
    """An llmfaith output file could not be written; the run and its other outputs go on."""


class Totals(BaseModel):
    scores: int = 0
    passed: int = 0
    failed: int = 0
    xfailed: int = 0
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
    gate_failures: list[str] = Field(default_factory=list)
    gate_notes: list[str] = Field(default_factory=list)
    unwritten: list[str] = Field(default_factory=list)  # outputs that could not be written, and why

    def add(self, records: list[dict[str, Any]]) -> None:
        self.assessments.extend(Assessment.model_validate(r) for r in records)

    @property
    def gated(self) -> list[Assessment]:
        """What the gates judge: deliberate failures (xfail tests) would only add noise."""
        return [a for a in self.assessments if not a.expected_failure]

    @property
    def totals(self) -> Totals:
        t = Totals(scores=len(self.assessments))
        for a in self.assessments:
            t.passed += a.outcome == "PASS"
            t.failed += a.outcome == "FAIL"
            t.xfailed += a.outcome == "XFAIL"
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
                "results": [a.model_dump(mode="json") for a in self.assessments]}
        # backslashreplace: a lone surrogate in a text under test becomes a valid JSON escape
        path.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8",
                        errors="backslashreplace")

    def markdown(self) -> str:
        rows = ["| test | scorer | score | threshold | result |", "|---|---|---|---|---|"]
        rows += [f"| `{a.test_id}` | {a.result.scorer} | {_score(a)} | {a.comparison} "
                 f"{a.threshold:.2f} | {_MARKDOWN_OUTCOME[a.outcome]} |" for a in self.assessments]
        lines = ["### pytest-llmfaith", "", *rows, "", _footer(self.totals)]
        lines += [f"- ❌ {g}" for g in self.gate_failures]
        lines += [f"- ⚠️ judge error in `{test}`: {error}" for test, error in self.judge_errors.items()]
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
        width = max(tr._tw.fullwidth, 80)
        priced = self.totals.cost_usd is not None  # no cost column when no call had a known price
        score_width = max([5, *(len(_score(a)) for a in self.assessments)])  # NO CLAIMS is wider
        numbers = f"{'scorer':<8} {'score':>{score_width}} {'thresh':>7} {'result':<6} {'calls':>5} {'hits':>4} {'tokens':>7}"
        numbers += f" {'cost':>8}" if priced else ""
        longest = max((len(a.test_id) for a in self.assessments), default=0)
        test_width = max(min(longest, width - len(numbers) - 2), 20)
        if self.assessments:
            tr.write_line(f"{'test':<{test_width}} {numbers}", bold=True)
        for a in self.assessments:
            calls = a.result.judge_calls
            spent = [c for c in calls if not c.cached]
            tokens = sum((c.prompt_tokens or 0) + (c.completion_tokens or 0) for c in spent)
            costs = [c.cost_usd for c in spent if c.cost_usd is not None]
            line = (f"{_fit(a.test_id, test_width):<{test_width}} {_SHORT[a.result.scorer]:<8} "
                    f"{_score(a):>{score_width}} {a.comparison + f'{a.threshold:.2f}':>7} "
                    f"{a.outcome:<6} {len(calls):>5} {len(calls) - len(spent):>4} "
                    f"{tokens:>7}" + (f" {_money(sum(costs) if costs else None):>8}" if priced else ""))
            tr.write_line(line, green=a.passed, red=a.outcome == "FAIL", yellow=a.outcome == "XFAIL")
        for a in self.assessments:
            if verbose or not a.passed:
                tr.write_line(f"{a.outcome} {a.test_id} [{a.result.scorer}]: "
                              f"{shorten(a.result.reason, 600)}", red=a.outcome == "FAIL")
        for test, error in self.judge_errors.items():
            tr.write_line(f"ERROR {test}: {shorten(error, 300)}", red=True)
        tr.write_line(_footer(self.totals) + (f"; {len(self.judge_errors)} tests hit judge errors"
                                              if self.judge_errors else ""))
        for note in self.gate_notes:
            tr.write_line(note)
        for failure in self.gate_failures:
            tr.write_line(f"llmfaith gate FAILED: {failure}", red=True, bold=True)
        for problem in self.unwritten:
            tr.write_line(f"WARNING {problem}", yellow=True)


_SHORT = {"faithfulness": "faithful", "hallucination": "halluc"}
_MARKDOWN_OUTCOME = {"PASS": "✅ pass", "FAIL": "❌ fail", "XFAIL": "➖ xfail (expected)"}


def _score(a: Assessment) -> str:
    """The score, or NO CLAIMS: a 0 that no claim produced must not read like a measured 0."""
    return "NO CLAIMS" if a.result.no_claims else f"{a.result.score:.2f}"


def _fit(text: str, width: int) -> str:
    """Keep the end of a long test id: the test name matters more than the directory."""
    return text if len(text) <= width else "…" + text[-(width - 1):]


def _money(cost: float | None) -> str:
    return "n/a" if cost is None else f"${cost:.4f}"


def _footer(t: Totals) -> str:
    xfailed = f", {t.xfailed} xfailed" if t.xfailed else ""
    saved = f" ({t.tokens_saved:,} saved by the cache)" if t.tokens_saved else ""
    saved_cost = f" ({_money(t.cost_saved_usd)} saved)" if t.cost_saved_usd else ""
    return (f"llmfaith: {t.scores} scores ({t.passed} passed, {t.failed} failed{xfailed}); judge calls "
            f"{t.judge_calls} ({t.cache_hits} cached, {t.judge_calls - t.cache_hits} new); "
            f"tokens {t.tokens:,}{saved}; cost {_money(t.cost_usd)}{saved_cost}; judge time {t.judge_seconds:.1f}s")
