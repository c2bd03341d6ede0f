"""The report on the terminal: the llmfaith section after a run, and the gate failures in
pytest's own closing lines. Written only through TerminalReporter's public API."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

import pytest

from pytest_llmfaith.report.model import Report, lowest_agreement, score_text, threshold_text
from pytest_llmfaith.report.render import footer, money, shown_path, votes_of
from pytest_llmfaith.results import Assessment, JudgeCall, Status
from pytest_llmfaith.wording import finding, plural, shorten, unstable_summary

GATE_NODE_ID = "llmfaith gate"
GATE_STAT = "llmfaith gate failed"  # pytest's last line counts it: "4 passed, 1 llmfaith gate failed"


def render(report: Report, tr: pytest.TerminalReporter, verbose: bool) -> None:
    """The terminal section: a row per assessment, reasons of failures, totals, gates."""
    tr.section("llmfaith: LLM judge scores")
    # Config.get_terminal_writer() is public; its width is the one pytest's own separators use
    width = tr.config.get_terminal_writer().fullwidth
    columns = _columns(report.assessments, priced=report.totals.cost_usd is not None)
    longest = max((len(a.name) for a in report.assessments), default=0)
    _make_room(columns, width - longest)
    test_width = max(min(longest, width - _width(columns)), 20)
    if report.assessments:
        tr.write_line(f"{'test':<{test_width}}" + "".join(c.format(c.header) for c in columns), bold=True)
    for a in report.assessments:
        for line in _row(a, test_width, columns):
            # a pass that a close vote decided is a warning, not green; a failure or regression stays red
            tr.write_line(line, **(_COLOUR[Status.UNSTABLE] if a.statuses == (Status.PASS, Status.UNSTABLE)
                                   else _COLOUR.get(a.outcome, {})))
    for a in report.assessments:
        if verbose or a.outcome in (Status.FAIL, Status.XFAIL) or a.unstable:
            tr.write_line(f"{a.status} {a.key}: {shorten(a.result.reason, 600)}", red=a.outcome == Status.FAIL)
            for v in a.result.verdicts:  # an output sentence no quoted claim covered, judged whole
                if v.sentence and a.result.is_bad(v):
                    said = shorten(" … ".join(v.words) or v.statement, 160)
                    tr.write_line(f"    judged as its sentence: “{said}” ({finding(a.result.scorer, v.verdict)})",
                                  red=a.outcome == Status.FAIL)
    for note, count in Counter(note for a in report.assessments for note in a.result.notes).items():
        tr.write_line(f"llmfaith note ({plural(count, 'score')}): {note}")  # once a run, not on every reason
    for test, error in report.judge_errors.items():
        tr.write_line(f"ERROR {test}: {error}", red=True)
    if report.judge_check is not None:
        tr.write_line(report.judge_check.summary())
    tr.write_line(footer(report.totals) + (f"; {plural(len(report.judge_errors), 'test')} hit judge errors"
                                           if report.judge_errors else ""))
    if report.totals.unstable:
        tr.write_line(unstable_summary(report.totals.unstable, votes_of(report)), yellow=True)
    for note in report.gate_notes:
        tr.write_line(note)
    if report.baseline_not_run:
        shown = report.baseline_not_run if verbose else report.baseline_not_run[:10]
        more = len(report.baseline_not_run) - len(shown)
        tr.write_line(f"llmfaith: baseline entries not run ({len(report.baseline_not_run)}): "
                      + ", ".join(shown) + (f", and {more} more (-v lists them)" if more else ""))
    for failure in report.gate_failures:
        first, *details = failure.splitlines()
        tr.write_line(f"llmfaith gate FAILED: {first}", red=True, bold=True)
        for detail in details:
            tr.write_line(detail, red=True)
    for problem in report.unwritten:
        tr.write_line(f"WARNING {problem}", yellow=True)
    for written in files_written(report, tr.config):
        tr.write_line(f"llmfaith wrote {written}")


def files_written(report: Report, config: pytest.Config) -> list[str]:
    """Every file this run's report went to, one each: the JSON report, the review page, the
    GitHub step summary, and the JUnit XML that holds the scores as properties (the recordings
    a run changed are named by the recordings' own lines, which follow)."""
    junit = getattr(config.option, "xmlpath", None)
    scored = report.assessments or report.judge_errors
    junit_line = [f"JUnit properties (llmfaith.*) into: {shown_path(junit)}"] if junit and scored else []
    return [*report.written, *junit_line]


def flag_gate_failures(report: Report, tr: pytest.TerminalReporter) -> None:
    """Put each gate failure in pytest's own closing lines: the short test summary
    (`FAILED llmfaith gate - ...`) and the last line (`4 passed, 1 llmfaith gate failed`), so a
    run whose tests all passed does not read as green while it exits 1.

    pytest has no public way to add to them: this puts a report in `TerminalReporter.stats`, which
    is not public API. A pytest whose stats are shaped otherwise gets no such lines; the llmfaith
    section has named each gate failure already and the run still exits 1."""
    for failure in report.gate_failures:
        first, *details = failure.splitlines()
        changes = "; ".join(d.strip() for d in details)
        try:
            flag = _GateFlag(nodeid=GATE_NODE_ID, location=("llmfaith", None, GATE_NODE_ID), keywords={},
                             outcome="failed", longrepr=first + (f"; {changes}" if changes else ""), when="call")
            tr.stats.setdefault("failed", []).append(flag)
            tr.stats.setdefault(GATE_STAT, []).append(failure)
        except (AttributeError, TypeError):
            return


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
        return money(sum(costs) if costs else None)

    columns = [
        _Column("scorer", max([8, *(len(_short(a)) for a in assessments)]), _short, left=True),
        _Column("score", max([5, *(len(score_text(a)) for a in assessments)]), score_text),  # NO CLAIMS is wider
        _Column("thresh", 7, threshold_text),
        _Column("result", max([6, *(len(a.status) for a in assessments)]), lambda a: a.status, left=True),
        # votes: the agreement of the least agreed-on claim; UNSTABLE in the result already warns
        *([_Column("agree", max([5, *(len(lowest_agreement(a) or "-") for a in assessments)]),
                   lambda a: lowest_agreement(a) or "-")]
          if any(a.result.votes > 1 for a in assessments) else []),
        _Column("calls", 5, lambda a: str(len(a.result.judge_calls))),
        _Column("hits", 4, lambda a: str(len(a.result.judge_calls) - len(spent(a))), give_up=3),
        _Column("tokens", 7, give_up=2, cell=lambda a: str(sum(
            (c.prompt_tokens or 0) + (c.completion_tokens or 0) for c in spent(a)))),
    ]
    return columns + ([_Column("cost", 8, cost)] if priced else [])  # only when some call had a known price


def _make_room(columns: list[_Column], room: int) -> None:
    """Drop optional columns (tokens, hits) only when that lets every test id fit on its row; the
    votes' agreement is never dropped (it tells a close call)."""
    if room < _width([c for c in columns if not c.give_up]):
        return
    for column in sorted((c for c in columns if c.give_up), key=lambda c: c.give_up):
        if room >= _width(columns):
            return
        columns.remove(column)


def _width(columns: list[_Column]) -> int:
    return sum(c.width + 1 for c in columns)


_SHORT = {"faithfulness": "faithful", "hallucination": "halluc"}


def _short(a: Assessment) -> str:
    """The scorer cell: the built-ins abbreviated, a registered scorer by its name."""
    return _SHORT.get(a.result.scorer, a.result.scorer)

_COLOUR: dict[Status, dict[str, bool]] = {Status.PASS: {"green": True}, Status.FAIL: {"red": True},
                                          Status.REGRESSED: {"red": True}, Status.XFAIL: {"yellow": True},
                                          Status.UNSTABLE: {"yellow": True}}


def _row(a: Assessment, test_width: int, columns: list[_Column]) -> list[str]:
    """Never cut a test id (ids differing at their end must stay told apart): a long one gets its own line."""
    cells = "".join(c.format(c.cell(a)) for c in columns)
    if len(a.name) <= test_width:
        return [f"{a.name:<{test_width}}{cells}"]
    return [a.name, " " * test_width + cells]
