"""Votes as users see them: the option, UNSTABLE in the summary, the JSON report, JUnit and the baseline."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest
from plugin_helpers import rows, run, section

CLOSE_CLAIM = "Elon Musk joined Tesla in 2004."
TEST_FILE = f'''
from pytest_llmfaith import assert_faithful
CTX = ["Tesla was founded in 2003.", "Elon Musk joined Tesla in 2004."]

def test_close():  # 1.00 by the majority; 0.50 had the minority won
    assert_faithful("Tesla was founded in 2003. {CLOSE_CLAIM}", CTX)

def test_clear():
    assert_faithful("Tesla was founded in 2003.", CTX)

def test_close_fail():  # 0.50 by the majority; 1.00 had the minority won
    assert_faithful("Tesla was founded in 2003. Tesla makes boats.", CTX)
'''


@pytest.fixture
def close_vote(server, pytester):
    server.facts(supported=["Tesla was founded in 2003."],
                 votes={CLOSE_CLAIM: ["yes", "no", "yes"], "Tesla makes boats.": ["unsure", "yes", "unsure"]})
    pytester.makepyfile(test_a=TEST_FILE)
    return server


def test_a_close_vote_is_decided_by_the_majority_and_shown_as_unstable(close_vote, pytester) -> None:
    result = run(pytester, close_vote, "--llm-judge-votes=3", "--llm-report=r.json", "--junitxml=j.xml",
                 "--llm-baseline=b.json", "--llm-baseline-update")
    result.assert_outcomes(passed=2, failed=1)
    table = {r[0]: r[1:] for r in rows(result)}
    assert table["test_a.py::test_close"][:6] == ["faithful", "1.00", ">=0.70", "PASS", "UNSTABLE", "2/3"]
    assert table["test_a.py::test_clear"][:5] == ["faithful", "1.00", ">=0.70", "PASS", "3/3"]
    assert table["test_a.py::test_close_fail"][:6] == ["faithful", "0.50", ">=0.70", "FAIL", "UNSTABLE", "2/3"]
    lines = section(result)
    assert any(line.startswith("PASS UNSTABLE test_a.py::test_close [faithfulness]") for line in lines)
    assert any(line.startswith("llmfaith: 3 scores (2 passed, 1 failed, 2 unstable)") for line in lines)
    assert "UNSTABLE: the minority votes would give 0.50..1.00, which flips the outcome" in result.stdout.str()
    assert "(2/3) 'Tesla makes boats.'" in result.stdout.str()

    report = json.loads((pytester.path / "r.json").read_text())
    assert report["totals"]["unstable"] == 2
    close = next(r for r in report["results"] if r["test_id"] == "test_a.py::test_close")
    assert close["unstable"] is True and close["result"]["votes"] == 3
    assert [(v["samples"], v["agreement"]) for v in close["result"]["verdicts"]] == [
        (["yes", "yes", "yes"], "3/3"), (["yes", "no", "yes"], "2/3")]

    cases = {c.get("name"): c for c in ET.parse(pytester.path / "j.xml").iter("testcase")}
    props = {p.get("name"): p.get("value") for p in cases["test_close"].iter("property")}
    assert (props["llmfaith.faithfulness.votes"], props["llmfaith.faithfulness.agreement"],
            props["llmfaith.faithfulness.unstable"]) == ("3", "2/3", "True")

    entries = json.loads((pytester.path / "b.json").read_text())["assertions"]
    assert {key for key, entry in entries.items() if entry.get("unstable")} == {
        "test_a.py::test_close [faithfulness]", "test_a.py::test_close_fail [faithfulness]"}


def test_without_votes_nothing_changes(close_vote, pytester) -> None:
    result = run(pytester, close_vote, "--junitxml=j.xml")
    table = {r[0]: r[1:] for r in rows(result)}
    assert table["test_a.py::test_close"][:5] == ["faithful", "1.00", ">=0.70", "PASS", "2"]  # calls; no agree column
    assert "unstable" not in result.stdout.str().lower()
    props = [p.get("name") for p in ET.parse(pytester.path / "j.xml").iter("property")]
    assert not any(name.endswith((".votes", ".agreement", ".unstable")) for name in props)


@pytest.mark.parametrize("where", ["ini", "env"])
def test_votes_come_from_ini_and_env_too(close_vote, pytester, monkeypatch, where) -> None:
    if where == "ini":
        pytester.makeini("[pytest]\nllm_judge_votes = 3\nllm_judge_votes_temperature = 0.4\n")
    else:
        monkeypatch.setenv("LLMFAITH_JUDGE_VOTES", "3")
        monkeypatch.setenv("LLMFAITH_JUDGE_VOTES_TEMPERATURE", "0.4")
    result = run(pytester, close_vote, "-k", "test_close and not fail")
    assert {r[0]: r[1:] for r in rows(result)}["test_a.py::test_close"][3:6] == ["PASS", "UNSTABLE", "2/3"]
    assert sorted(c["body"]["temperature"] for c in close_vote.calls("verdicts")) == [0.0, 0.4, 0.4]


@pytest.mark.parametrize("value, expected", [
    ("--llm-judge-votes=2", "--llm-judge-votes = '2' must be odd (1, 3, 5, ...)"),
    ("--llm-judge-votes=0", "--llm-judge-votes = '0' must be >= 1"),
    ("--llm-judge-votes-temperature=0", "--llm-judge-votes-temperature = '0' must be > 0"),
])
def test_bad_votes_are_usage_errors(pytester, value, expected) -> None:
    pytester.makepyfile(test_a="def test_never_runs():\n    raise SystemExit('collected')\n")
    result = pytester.runpytest(value)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert expected in result.stderr.str()


def test_the_agreement_column_fits_at_120_columns(close_vote, pytester, monkeypatch) -> None:
    """Issue 34.5: at 120 columns the agreement was the first column given up to fit a test id."""
    monkeypatch.setenv("COLUMNS", "120")
    long_name = "test_the_refund_answer_quotes_the_policy_in_full"
    pytester.makepyfile(test_bot=TEST_FILE.replace("def test_close(", f"def {long_name}("))
    lines = section(run(pytester, close_vote, "--llm-judge-votes=3", "test_bot.py"))
    header = next(line for line in lines if line.startswith("test "))
    assert "agree" in header and len(header) <= 120, header
    row = next(line for line in lines if line.startswith(f"test_bot.py::{long_name} "))
    assert len(row) <= 120 and "2/3" in row.split(), row  # on the test id's own line, a column less
