"""Issue 11: a regression explained claim by claim, labels, raw scores counted, and every output
(table, JSON, JUnit, step summary, pytest-html) saying REGRESSED. Inner pytest runs against the
loopback judge, as in plugin_helpers.py."""

from __future__ import annotations

import importlib
import json
import xml.etree.ElementTree as ET

import pytest
from plugin_helpers import HEADER, rows, run, run_suite, section

ROADSTER = "The first Tesla car was the Roadster."

ONE_ANSWER = HEADER + """
def test_answer():
    assert_faithful(GOOD, CTX, min_score=0.3)
"""


def test_a_verdict_that_flips_is_named_with_its_reason_in_every_output(pytester, server, monkeypatch) -> None:
    assert run_suite(pytester, server, "--llm-baseline=b.json", "--llm-baseline-update", test_a=ONE_ANSWER).ret == 0

    # same output, but the judge no longer finds the Roadster in the context (the app's context changed)
    server.reset()
    server.facts(supported=["Tesla was founded in 2003."])
    summary = pytester.path / "summary.md"
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    result = run(pytester, server, "--llm-baseline=b.json", "--llm-report=r.json", "--junitxml=j.xml")
    result.assert_outcomes(passed=1)
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    change = f'newly unsupported (supported -> not in the context): "{ROADSTER}" — scripted: {ROADSTER}'
    lines = section(result)
    assert rows(result)[0][:5] == ["test_a.py::test_answer", "faithful", "0.50", ">=0.30", "REGRESSED"]
    at = lines.index("llmfaith gate FAILED: baseline regression test_a.py::test_answer [faithfulness]: "
                     "1.00 -> 0.50 (-0.50, tolerance 0.05)")
    assert lines[at + 1] == "    " + change

    data = json.loads((pytester.path / "r.json").read_text())
    entry = data["results"][0]
    assert (entry["key"], entry["outcome"], entry["passed"]) == ("test_a.py::test_answer [faithfulness]",
                                                                 "REGRESSED", True)
    assert entry["regression"]["changes"] == [{"change": "newly unsupported", "claim": ROADSTER, "was": "yes",
                                               "now": "unsure", "reason": f"scripted: {ROADSTER}"}]
    assert data["totals"]["regressed"] == 1 and data["totals"]["passed"] == 0

    props = {p.get("name"): p.get("value") for p in ET.parse(pytester.path / "j.xml").iter("property")}
    assert props["llmfaith.faithfulness.status"] == "REGRESSED"

    md = summary.read_text()
    assert "| `test_a.py::test_answer` | faithfulness | 0.50 | >= 0.30 | 📉 regressed |" in md
    assert ("- ❌ baseline regression test_a.py::test_answer [faithfulness]: 1.00 -> 0.50 (-0.50, tolerance 0.05)\n"
            f"  - {change}\n") in md


def test_step_summary_carries_the_failure_reasons(pytester, server, monkeypatch) -> None:
    summary = pytester.path / "summary.md"
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    bad = HEADER + "def test_bad():\n    assert_faithful(HALF, CTX, label='musk')\n"
    run_suite(pytester, server, test_a=bad).assert_outcomes(failed=1)
    md = summary.read_text()
    assert "| `test_a.py::test_bad [musk]` | faithfulness | 0.50 | >= 0.70 | ❌ fail |" in md
    assert ('- ❌ `test_a.py::test_bad [musk] [faithfulness]`: 0.50 — 1 of 2 claims supported by the context; '
            'not supported: "Elon Musk founded Tesla." (scripted: Elon Musk founded Tesla.)') in md


def test_labels_name_assertions_so_reordering_them_is_no_regression(pytester, server) -> None:
    two = HEADER + """
def test_two_answers():
    assert_faithful({first}, CTX, min_score=0.3, label={first_label!r})
    assert_faithful({second}, CTX, min_score=0.3, label={second_label!r})
"""
    result = run_suite(pytester, server, "--llm-baseline=b.json", "--llm-baseline-update",
                       test_a=two.format(first="GOOD", first_label="founding", second="HALF", second_label="musk"))
    assert [r[:3] for r in rows(result)] == [["test_a.py::test_two_answers [founding]", "faithful", "1.00"],
                                             ["test_a.py::test_two_answers [musk]", "faithful", "0.50"]]
    assert sorted(json.loads((pytester.path / "b.json").read_text())["assertions"]) == [
        "test_a.py::test_two_answers [founding] [faithfulness]", "test_a.py::test_two_answers [musk] [faithfulness]"]

    pytester.makepyfile(test_a=two.format(first="HALF", first_label="musk", second="GOOD", second_label="founding"))
    result = run(pytester, server, "--llm-baseline=b.json", "--llm-report=r.json")
    assert result.ret == 0, result.stdout.str()
    assert "llmfaith: baseline compared: 2 scores, 0 regressions" in section(result)
    keys = [a["key"] for a in json.loads((pytester.path / "r.json").read_text())["results"]]
    assert keys == ["test_a.py::test_two_answers [musk] [faithfulness]",
                    "test_a.py::test_two_answers [founding] [faithfulness]"]


@pytest.mark.parametrize("label", ["", "two\nlines", 3])
def test_a_bad_label_fails_the_call_with_the_fix(pytester, server, label) -> None:
    pytester.makepyfile(test_a=HEADER + f"def test_a():\n    assert_faithful(GOOD, CTX, label={label!r})\n")
    result = run(pytester, server)
    result.assert_outcomes(failed=1)
    assert f"ValueError: llmfaith: label must be a non-empty one-line string, got {label!r}" in result.stdout.str()
    assert server.calls() == []


def test_raw_scores_are_in_the_baseline_and_compared(pytester, server) -> None:
    raw = HEADER + "def test_raw(llm_judge):\n    llm_judge.faithfulness({output}, CTX, label='raw')\n"
    run_suite(pytester, server, "--llm-baseline=b.json", "--llm-baseline-update", test_a=raw.format(output="GOOD"))
    assert list(json.loads((pytester.path / "b.json").read_text())["assertions"]) == [
        "test_a.py::test_raw [raw] [faithfulness]"]
    pytester.makepyfile(test_a=raw.format(output="HALF"))
    result = run(pytester, server, "--llm-baseline=b.json")
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    assert rows(result)[0][:5] == ["test_a.py::test_raw [raw]", "faithful", "0.50", "-", "REGRESSED"]


def test_entries_not_run_are_listed_and_an_update_prunes_them(pytester, server) -> None:
    run_suite(pytester, server, "--llm-baseline=b.json", "--llm-baseline-update",
              test_a=ONE_ANSWER + "\ndef test_removed_later():\n    assert_faithful(GOOD, CTX)\n")
    pytester.makepyfile(test_a=ONE_ANSWER)
    result = run(pytester, server, "--llm-baseline=b.json")
    assert result.ret == 0
    assert "llmfaith: baseline entries not run (1): test_a.py::test_removed_later [faithfulness]" in section(result)

    result = run(pytester, server, "--llm-baseline=b.json", "--llm-baseline-update")
    assert any(x.endswith("(1 score); pruned 1 entry not run: test_a.py::test_removed_later [faithfulness]")
               for x in section(result))
    assert list(json.loads((pytester.path / "b.json").read_text())["assertions"]) == [
        "test_a.py::test_answer [faithfulness]"]


def test_a_format_1_baseline_is_still_compared_then_rewritten(pytester, server) -> None:
    (pytester.path / "b.json").write_text(json.dumps({"version": 1, "scores": {
        "test_a.py::test_answer [faithfulness]": 1.0, "test_a.py::test_other [hallucination] #2": 0.0}}))
    result = run_suite(pytester, server, "--llm-baseline=b.json",
                       test_a=HEADER + "def test_answer():\n    assert_faithful(HALF, CTX, min_score=0.3)\n")
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    lines = section(result)
    assert rows(result)[0][4] == "REGRESSED"
    at = lines.index("llmfaith gate FAILED: baseline regression test_a.py::test_answer [faithfulness]: "
                     "1.00 -> 0.50 (-0.50, tolerance 0.05)")
    assert "the baseline holds only scores" in lines[at + 1]
    assert any("is in the old scores-only format" in x for x in lines)
    assert "llmfaith: baseline entries not run (1): test_a.py::test_other [hallucination] #2" in lines

    run(pytester, server, "--llm-baseline=b.json", "--llm-baseline-update")
    data = json.loads((pytester.path / "b.json").read_text())
    assert data["version"] == 2 and data["assertions"]["test_a.py::test_answer [faithfulness]"]["claims"]


@pytest.mark.parametrize("content, problem", [
    ('{"version": 9, "assertions": {}}', "has format 9, newer than this pytest-llmfaith reads"),
    ('{"version": 2, "assertions": {"k": {"score": "high"}}}', "is not a valid baseline"),
    ('{"version": 1, "scores": {"test_a.py::test_answer": 1.0}}', "names no scorer"),
])
def test_a_baseline_that_cannot_be_read_fails_the_gate_with_the_fix(pytester, server, content, problem) -> None:
    (pytester.path / "b.json").write_text(content)
    result = run_suite(pytester, server, "--llm-baseline=b.json", test_a=ONE_ANSWER)
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    failure = next(x for x in section(result) if x.startswith("llmfaith gate FAILED"))
    assert problem in failure and "Fix:" in failure and rows(result)[0][4] == "PASS"


def test_pytest_html_entries_carry_claims_and_verdicts(pytester, server) -> None:
    pytest.importorskip("pytest_html")  # not a dependency: CI without it skips this
    run_suite(pytester, server, "--html=report.html", "--self-contained-html",
              test_a=HEADER + "def test_answer():\n    assert_faithful(HALF, CTX, min_score=0.3, label='<b>')\n"
              ).assert_outcomes(passed=1)
    html = (pytester.path / "report.html").read_text()
    assert "llmfaith test_a.py::test_answer [&amp;lt;b&amp;gt;] [faithfulness]" in html or \
        "llmfaith test_a.py::test_answer [&lt;b&gt;] [faithfulness]" in html
    assert "Elon Musk founded Tesla." in html and "scripted: Elon Musk founded Tesla." in html


def test_the_baseline_file_is_read_once_a_run(pytester, server, monkeypatch) -> None:
    """The assertions compare with what the session read; the gate and the review page are handed it."""
    baseline = importlib.import_module("pytest_llmfaith.report.baseline")  # as the run imports it (sys.modules)

    run_suite(pytester, server, "--llm-baseline=b.json", "--llm-baseline-update",
              test_a=ONE_ANSWER + "\ndef test_again():\n    assert_faithful(GOOD, CTX)\n")
    reads = []
    real = baseline.load
    monkeypatch.setattr(baseline, "load", lambda path: reads.append(path) or real(path))
    result = run(pytester, server, "--llm-baseline=b.json", "--llm-report-html=page.html")
    assert result.ret == 0 and "baseline compared: 2 scores" in "\n".join(section(result))
    assert (pytester.path / "page.html").exists() and len(reads) == 1
