"""Outputs and gates end to end: JSON report, GitHub summary, JUnit XML, baseline, mean gates, xfail."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET

import pytest
from plugin_helpers import HEADER, rows, run, run_suite, section

# -- outputs -------------------------------------------------------------------------------------

def test_json_report_and_github_step_summary(pytester, server, monkeypatch) -> None:
    summary = pytester.path / "step_summary.md"
    summary.write_text("earlier step\n")
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    result = run_suite(pytester, server, "--llm-report=out/llm.json", test_a=HEADER + """
def test_good():
    assert_faithful(GOOD, CTX)

def test_bad():
    assert_not_hallucinated(MIXED, CTX)
""")
    result.assert_outcomes(passed=1, failed=1)
    data = json.loads((pytester.path / "out" / "llm.json").read_text())
    assert data["version"] == 1
    assert data["totals"]["scores"] == 2 and data["totals"]["passed"] == 1 and data["totals"]["failed"] == 1
    assert data["totals"]["judge_calls"] == 4 and data["totals"]["tokens"] > 0
    good, bad = data["results"]
    assert (good["test_id"], good["threshold"], good["passed"]) == ("test_a.py::test_good", 0.7, True)
    assert good["result"]["scorer"] == "faithfulness" and good["result"]["score"] == 1.0
    assert (bad["test_id"], bad["threshold"], bad["passed"]) == ("test_a.py::test_bad", 0.3, False)
    r = bad["result"]
    assert r["scorer"] == "hallucination" and r["score"] == 0.67 and r["context"][0] == "Tesla was founded in 2003."
    assert r["claims"] == ["Tesla was founded in 2003.", "Elon Musk founded Tesla.", "Tesla is based on Mars."]
    assert [v["verdict"] for v in r["verdicts"]] == ["no", "yes", "yes"]
    assert r["verdicts"][1]["reason"] == "scripted: Elon Musk founded Tesla."
    assert r["reason"].startswith("0.67 — 2 of 3 claims not supported")
    call = r["judge_calls"][0]
    assert call["step"] == "claims" and call["cached"] is False and call["prompt_tokens"] > 0
    md = summary.read_text()
    assert md.startswith("earlier step\n### pytest-llmfaith")
    # the llmfaith section's last lines name every file the run wrote, one each
    assert [line for line in result.outlines if line.startswith("llmfaith wrote")] == [
        "llmfaith wrote the JSON report: out/llm.json", "llmfaith wrote the GitHub step summary: step_summary.md"]
    assert "| `test_a.py::test_bad` | hallucination | 0.67 | <= 0.30 | ❌ fail |" in md


def test_junit_xml_carries_the_scores(pytester, server) -> None:
    result = run_suite(pytester, server, "--junitxml=junit.xml", test_a=HEADER + """
def test_good(llm_judge):
    assert_faithful(GOOD, CTX)
    assert_not_hallucinated(HALF, CTX, max_score=0.5, label="half")
    llm_judge.faithfulness(HALF, CTX, label="raw")

def test_bad():
    assert_faithful(MIXED, CTX)
""")
    result.assert_outcomes(passed=1, failed=1)
    assert "llmfaith wrote JUnit properties (llmfaith.*) into: junit.xml" in result.outlines
    cases = {c.get("name"): c for c in ET.parse(pytester.path / "junit.xml").iter("testcase")}
    props = {name: [(p.get("name"), p.get("value")) for p in case.iter("property")] for name, case in cases.items()}
    assert props["test_good"] == [
        ("llmfaith.faithfulness.score", "1.0"), ("llmfaith.faithfulness.threshold", "0.7"),
        ("llmfaith.faithfulness.passed", "True"), ("llmfaith.faithfulness.status", "PASS"),
        ("llmfaith.hallucination[half].score", "0.5"), ("llmfaith.hallucination[half].threshold", "0.5"),
        ("llmfaith.hallucination[half].passed", "True"), ("llmfaith.hallucination[half].status", "PASS"),
        ("llmfaith.faithfulness[raw].score", "0.5"), ("llmfaith.faithfulness[raw].status", "NO THRESHOLD"),
    ]
    assert props["test_bad"] == [("llmfaith.faithfulness.score", "0.33"), ("llmfaith.faithfulness.threshold", "0.7"),
                                 ("llmfaith.faithfulness.passed", "False"), ("llmfaith.faithfulness.status", "FAIL")]


# -- gates -------------------------------------------------------------------------------------

def test_baseline_update_then_regression_fails_the_session(pytester, server) -> None:
    result = run_suite(pytester, server, "--llm-baseline=ci/baseline.json", "--llm-baseline-update",
                       test_a=HEADER + """
def test_stable():
    assert_faithful(GOOD, CTX)

def test_drifts():
    assert_faithful(GOOD, CTX, min_score=0.3)
    assert_not_hallucinated(GOOD, CTX, max_score=0.7)
""")
    assert result.ret == 0
    text = (pytester.path / "ci" / "baseline.json").read_text()
    data = json.loads(text)
    assert text == json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n"  # stable diffs
    assert data["version"] == 2
    assert {key: entry["score"] for key, entry in data["assertions"].items()} == {
        "test_a.py::test_drifts [faithfulness]": 1.0, "test_a.py::test_drifts [hallucination]": 0.0,
        "test_a.py::test_stable [faithfulness]": 1.0}
    assert data["assertions"]["test_a.py::test_drifts [hallucination]"] == {"scorer": "hallucination", "score": 0.0,
        "claims": [{"claim": "Tesla was founded in 2003.", "verdict": "no",
                    "reason": "scripted: Tesla was founded in 2003."},
                   {"claim": "The first Tesla car was the Roadster.", "verdict": "no",
                    "reason": "scripted: The first Tesla car was the Roadster."}]}
    assert any("baseline written to" in line and "(3 scores)" in line for line in section(result))

    same = run(pytester, server, "--llm-baseline=ci/baseline.json")
    assert same.ret == 0
    assert "llmfaith: baseline compared: 3 scores, 0 regressions" in section(same)

    # the model under test got worse: the assertions still pass their own thresholds
    pytester.makepyfile(test_a=HEADER + """
def test_stable():
    assert_faithful(GOOD, CTX)

def test_drifts():
    assert_faithful(MIXED, CTX, min_score=0.3)
    assert_not_hallucinated(HALF, CTX, max_score=0.7)
""")
    worse = run(pytester, server, "--llm-baseline=ci/baseline.json", "-rfE")
    worse.assert_outcomes(passed=2)
    assert worse.ret == pytest.ExitCode.TESTS_FAILED
    lines = section(worse)
    assert [r[:5] for r in rows(worse)] == [["test_a.py::test_stable", "faithful", "1.00", ">=0.70", "PASS"],
                                            ["test_a.py::test_drifts", "faithful", "0.33", ">=0.30", "REGRESSED"],
                                            ["test_a.py::test_drifts", "halluc", "0.50", "<=0.70", "REGRESSED"]]
    at = lines.index("llmfaith gate FAILED: baseline regression test_a.py::test_drifts [faithfulness]: 1.00 -> 0.33 "
                     "(-0.67, tolerance 0.05)")
    assert lines[at + 1:at + 4] == [  # what changed, the claims that hurt first
        '    appeared (contradicted): "Elon Musk founded Tesla." — scripted: Elon Musk founded Tesla.',
        '    appeared (not in the context): "Tesla is based on Mars." — scripted: Tesla is based on Mars.',
        '    disappeared (was supported): "The first Tesla car was the Roadster."']
    assert "llmfaith gate FAILED: baseline regression test_a.py::test_drifts [hallucination]: 0.00 -> 0.50 " \
           "(+0.50, tolerance 0.05)" in lines
    assert not any("test_stable" in line and "gate FAILED" in line for line in lines)
    assert "llmfaith: baseline compared: 3 scores, 2 regressions" in lines
    assert any(x.startswith("llmfaith: 3 scores (1 passed, 0 failed, 2 regressed);") for x in lines)
    # pytest's own closing lines say it too: the short summary, and the last line is not "2 passed"
    tail = worse.outlines[worse.outlines.index(next(x for x in worse.outlines if "short test summary" in x)):]
    assert tail[1].startswith("FAILED llmfaith gate - baseline regression test_a.py::test_drifts [faithfulness]")
    assert tail[2].startswith("FAILED llmfaith gate - baseline regression test_a.py::test_drifts [hallucination]")
    assert re.match(r"^=+ 2 passed, 2 llmfaith gate failed in ", tail[3]), tail[3]

    tolerant = run(pytester, server, "--llm-baseline=ci/baseline.json", "--llm-baseline-tolerance=0.7")
    assert tolerant.ret == 0


def test_missing_baseline_fails_with_the_fix(pytester, server) -> None:
    result = run_suite(pytester, server, "--llm-baseline=nope.json",
                       test_a=HEADER + "def test_good():\n    assert_faithful(GOOD, CTX)\n")
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    assert "does not exist. Fix: create it once with --llm-baseline-update" in result.stdout.str()


def test_mean_gates(pytester, server) -> None:
    ok = run_suite(pytester, server, "--llm-min-mean-faithfulness=0.6", "--llm-max-mean-hallucination=0.3",
                   test_a=HEADER + """
def test_one():
    assert_faithful(GOOD, CTX)
    assert_not_hallucinated(GOOD, CTX)

def test_two():
    assert_faithful(MIXED, CTX, min_score=0.3)
    assert_not_hallucinated(HALF, CTX, max_score=0.5)
""")
    assert ok.ret == 0 and "gate FAILED" not in ok.stdout.str()
    result = run(pytester, server, "--llm-min-mean-faithfulness=0.7", "--llm-max-mean-hallucination=0.2")
    result.assert_outcomes(passed=2)
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    lines = section(result)
    assert "llmfaith gate FAILED: mean faithfulness 0.665 is below the gate 0.70 over 2 scores" in lines
    assert "llmfaith gate FAILED: mean hallucination 0.250 is above the gate 0.20 over 2 scores" in lines


def test_a_gate_failure_without_pytests_stats_is_still_told_and_fails_the_run(pytester, server) -> None:
    """`TerminalReporter.stats` is not public API: shaped otherwise (here read-only), pytest's closing
    lines do not list the gate, the llmfaith section still does, and the run exits 1."""
    pytester.makeconftest("""
import types
import pytest

@pytest.hookimpl(tryfirst=True)
def pytest_terminal_summary(terminalreporter):
    terminalreporter.stats = types.MappingProxyType(dict(terminalreporter.stats))
""")
    result = run_suite(pytester, server, "--llm-min-mean-faithfulness=0.7",
                       test_a=HEADER + "def test_good():\n    assert_faithful(HALF, CTX, min_score=0.5)\n")
    result.assert_outcomes(passed=1)
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    assert "INTERNALERROR" not in result.stdout.str() + result.stderr.str()
    assert "llmfaith gate FAILED: mean faithfulness 0.500 is below the gate 0.70 over 1 score" in section(result)
    assert "FAILED llmfaith gate" not in result.stdout.str()


def test_deliberate_failures_in_xfail_tests_are_shown_but_not_gated(pytester, server) -> None:
    baseline = pytester.path / "baseline.json"
    run_suite(pytester, server, f"--llm-baseline={baseline}", "--llm-baseline-update", test_a=HEADER + """
def test_good():
    assert_faithful(GOOD, CTX)

@pytest.mark.xfail(reason="demonstrates a failing check", strict=True)
def test_known_bad():
    assert_faithful(MIXED, CTX)
""")
    assert list(json.loads(baseline.read_text())["assertions"]) == ["test_a.py::test_good [faithfulness]"]
    result = run(pytester, server, "--llm-min-mean-faithfulness=0.9", f"--llm-baseline={baseline}")
    result.assert_outcomes(passed=1, xfailed=1)
    assert result.ret == 0, result.stdout.str()
    assert [r[:5] for r in rows(result)] == [["test_a.py::test_good", "faithful", "1.00", ">=0.70", "PASS"],
                                             ["test_a.py::test_known_bad", "faithful", "0.33", ">=0.70", "XFAIL"]]
    assert any("1 scores" not in x and "(1 passed, 0 failed, 1 xfailed)" in x for x in section(result))
