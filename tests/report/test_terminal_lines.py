"""The terminal's llmfaith lines from a report built by hand: an output sentence judged whole says so,
a comparison is shown with the precision that decided it, a code rule's verdict is not a vote's
agreement, and the last lines name every file the run wrote."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from pytest_llmfaith.plugin import terminal
from pytest_llmfaith.report.model import Report
from pytest_llmfaith.results import Assessment, ScoreResult, Verdict


class Lines:
    """The TerminalReporter calls render makes, as lines."""

    def __init__(self, xmlpath: str | None = None) -> None:
        self.lines: list[str] = []
        writer = SimpleNamespace(fullwidth=160)
        self.config = SimpleNamespace(get_terminal_writer=lambda: writer, option=SimpleNamespace(xmlpath=xmlpath))

    def section(self, title: str) -> None:
        self.lines.append(f"== {title}")

    def write_line(self, line: str, **_: Any) -> None:
        self.lines.append(line)


def _report(**kw: Any) -> Report:
    verdicts = [Verdict(statement="Kargo ücreti 39,90 TL.", verdict="no", words=["39,90 TL"]),
                Verdict(statement="Hafta sonu da açığız.", verdict="unsure", words=["Hafta sonu da açığız."],
                        sentence=True, samples=["yes", "yes", "no"])]
    result = ScoreResult(scorer="faithfulness", run_id="r", score=0.6951, reason="0.70 — 0 of 2 claims supported",
                         output="Kargo ücreti 39,90 TL. Hafta sonu da açığız.", context=["Kargo 49,90 TL."],
                         verdicts=verdicts, votes=3)
    return Report(assessments=[Assessment(test_id="t.py::test_kargo", result=result, threshold=0.7, passed=False)],
                  **kw)


def test_a_sentence_judged_whole_says_so_and_figures_show_the_precision_that_decided() -> None:
    tr = Lines()
    terminal.render(_report(), tr, verbose=False)  # type: ignore[arg-type]
    row = next(line for line in tr.lines if line.startswith("t.py::test_kargo"))
    assert " 0.695 " in row and ">=0.70" in row and " rule " in row  # not 0.70 >= 0.70, nor agree 1/3
    failure = tr.lines.index("FAIL t.py::test_kargo [faithfulness]: 0.70 — 0 of 2 claims supported")
    assert tr.lines[failure + 1] == "    judged as its sentence: “Hafta sonu da açığız.” (not in the context)"
    assert not any(line.startswith("llmfaith wrote") for line in tr.lines)


def test_the_last_lines_name_every_file_the_run_wrote_one_each() -> None:
    tr = Lines(xmlpath="out/junit.xml")
    terminal.render(_report(written=["the JSON report: out/report.json", "the review page: out/review.html"]),
                    tr, verbose=False)  # type: ignore[arg-type]
    assert tr.lines[-3:] == ["llmfaith wrote the JSON report: out/report.json",
                             "llmfaith wrote the review page: out/review.html",
                             "llmfaith wrote JUnit properties (llmfaith.*) into: out/junit.xml"]
