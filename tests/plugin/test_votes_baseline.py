"""Votes and the claim-level baseline together: UNSTABLE as a status of a REGRESSED row in every
output, the unstable flag of a format-2 entry (and of a format-1 file), raw scores with votes."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest
from plugin_helpers import rows, run, section

FOUNDED, ROADSTER, JOINED = ("Tesla was founded in 2003.", "The first Tesla car was the Roadster.",
                             "Elon Musk joined Tesla in 2004.")
KEY = "test_a.py::test_answer [faithfulness]"
TEST_FILE = f'''
from pytest_llmfaith import assert_faithful
CTX = [{FOUNDED!r}, {ROADSTER!r}, {JOINED!r}]

def test_answer(llm_judge):
    assert_faithful({FOUNDED + " " + ROADSTER + " " + JOINED!r}, CTX, min_score={{threshold}})
    llm_judge.faithfulness({FOUNDED + " " + JOINED!r}, CTX, label="raw")
'''


def test_an_unstable_regression_is_regressed_and_unstable_in_every_output(pytester, server, monkeypatch) -> None:
    server.facts(supported=[FOUNDED, ROADSTER, JOINED])
    pytester.makepyfile(test_a=TEST_FILE.format(threshold=0.5))
    assert run(pytester, server, "--llm-baseline=b.json", "--llm-baseline-update").ret == 0

    # the Roadster is now clearly unsupported; Musk's year is a close vote: 0.67, but 0.33 had it lost
    server.reset()
    server.facts(supported=[FOUNDED], votes={ROADSTER: ["no"] * 3, JOINED: ["yes", "no", "yes"]})
    summary = pytester.path / "summary.md"
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    result = run(pytester, server, "--llm-judge-votes=3", "--llm-baseline=b.json", "--llm-report=r.json",
                 "--junitxml=j.xml")
    result.assert_outcomes(passed=1)
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    table = {r[0]: r[1:] for r in rows(result)}
    assert table["test_a.py::test_answer"][:6] == ["faithful", "0.67", ">=0.50", "REGRESSED", "UNSTABLE", "2/3"]
    assert table["test_a.py::test_answer [raw]"][:5] == ["faithful", "1.00", "-", "NO_THRESHOLD", "2/3"]
    lines = section(result)
    assert any(x.startswith(f"REGRESSED UNSTABLE {KEY}: ") for x in lines)
    assert any(x.startswith("llmfaith: 2 scores (0 passed, 0 failed, 1 regressed, 1 without threshold, "
                            "1 unstable)") for x in lines)
    assert (f"llmfaith gate FAILED: baseline regression {KEY}: 1.00 -> 0.67 (-0.33, tolerance 0.05) UNSTABLE: "
            "this run's score was decided by a close vote of the judge") in lines
    assert f'    newly unsupported (supported -> contradicted): "{ROADSTER}" — scripted: {ROADSTER}' in lines

    data = json.loads((pytester.path / "r.json").read_text())
    assert data["totals"]["regressed"] == data["totals"]["unstable"] == data["totals"]["no_threshold"] == 1
    assert [(r["outcome"], r["unstable"]) for r in data["results"]] == [("REGRESSED", True), ("NO THRESHOLD", False)]
    props = {p.get("name"): p.get("value") for p in ET.parse(pytester.path / "j.xml").iter("property")}
    assert (props["llmfaith.faithfulness.status"], props["llmfaith.faithfulness.unstable"]) == (
        "REGRESSED UNSTABLE", "True")
    assert props["llmfaith.faithfulness[raw].status"] == "NO THRESHOLD"
    assert props["llmfaith.faithfulness[raw].unstable"] == "False"  # no threshold: nothing to flip
    assert "| `test_a.py::test_answer` | faithfulness | 0.67 | >= 0.50 | 📉 regressed ⚠️ unstable |" in \
        summary.read_text()


@pytest.mark.parametrize("written_by", ["votes run", "format 1"])
def test_a_baseline_entry_decided_by_a_close_vote_says_so_when_it_regresses(pytester, server, written_by) -> None:
    pytester.makepyfile(test_a=TEST_FILE.format(threshold=0.7))
    baseline = pytester.path / "b.json"
    if written_by == "votes run":  # 1.00, but 0.67 had the minority won: below 0.7
        server.facts(supported=[FOUNDED, ROADSTER], votes={JOINED: ["yes", "no", "yes"]})
        assert run(pytester, server, "--llm-judge-votes=3", "--llm-baseline=b.json", "--llm-baseline-update").ret == 0
        entries = json.loads(baseline.read_text())["assertions"]
        assert entries[KEY]["unstable"] is True
        assert "unstable" not in entries["test_a.py::test_answer [raw] [faithfulness]"]  # no threshold to flip
        assert [(c["claim"], c["verdict"]) for c in entries[KEY]["claims"]] == [
            (FOUNDED, "yes"), (ROADSTER, "yes"), (JOINED, "yes")]
    else:  # as the votes feature wrote it before format 2
        baseline.write_text(json.dumps({"version": 1, "scores": {KEY: 1.0}, "unstable": [KEY]}))

    server.reset()
    server.facts(supported=[FOUNDED, ROADSTER])  # without votes, Musk's year is not found: 0.67
    result = run(pytester, server, "--llm-baseline=b.json")
    result.assert_outcomes(failed=1)
    assert rows(result)[0][:5] == ["test_a.py::test_answer", "faithful", "0.67", ">=0.70", "FAIL"]
    assert (f"llmfaith gate FAILED: baseline regression {KEY}: 1.00 -> 0.67 (-0.33, tolerance 0.05) UNSTABLE: "
            "the baseline's score was decided by a close vote of the judge") in section(result)
