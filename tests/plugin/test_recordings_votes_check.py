"""Recordings and the budget together with votes, raw fixture scores and the judge self-check:
every vote sample is recorded and counted, the self-check's answers stay in the working cache."""

from __future__ import annotations

import json
import shutil

import pytest
from plugin_helpers import judge_args, rows
from test_recordings import RECORDING, notes, record
from test_selfcheck import script_a_good_judge

from pytest_llmfaith.cli.cache_command import main as cache_command

CLOSE_CLAIM = "Elon Musk joined Tesla in 2004."
VOTED = f'''
from pytest_llmfaith import assert_faithful
CTX = ["Tesla was founded in 2003.", "Elon Musk joined Tesla in 2004."]

def test_close():
    assert_faithful("Tesla was founded in 2003. {CLOSE_CLAIM}", CTX)

def test_raw(llm_judge):
    llm_judge.hallucination("Tesla was founded in 2003.", CTX)
'''


@pytest.fixture
def close_vote(server, pytester):
    server.facts(supported=["Tesla was founded in 2003."], votes={CLOSE_CLAIM: ["yes", "no", "yes"]})
    pytester.makepyfile(test_a=VOTED)
    return server


def test_every_vote_sample_is_recorded_and_replayed_from_the_recordings_alone(close_vote, pytester) -> None:
    record(pytester, close_vote, "--llm-judge-votes=3").assert_outcomes(passed=2)
    assert len(close_vote.requests) == 8  # per test: claims once, then three verdict samples
    text = (pytester.path / RECORDING).read_text()
    entries = json.loads(text)["entries"].values()
    for test in ("test_close", "test_raw"):  # the raw score (NO THRESHOLD) is recorded like an assertion
        verdicts = [e for e in entries if e["step"] == "verdicts" and e["tests"] == [test]]
        assert sorted(e.get("sample", 0) for e in verdicts) == [0, 1, 2], test
        assert sum("sample" not in e for e in verdicts) == 1  # the plain request keeps its old form

    shutil.rmtree(pytester.path / ".llmfaith_cache")  # a fresh clone: the recordings alone
    close_vote.reset()
    replayed = record(pytester, close_vote, "--llm-judge-votes=3", cache="replay")
    replayed.assert_outcomes(passed=2)
    assert close_vote.requests == [] and (pytester.path / RECORDING).read_text() == text
    table = {r[0]: r[1:] for r in rows(replayed)}
    assert table["test_a.py::test_close"][3:6] == ["PASS", "UNSTABLE", "2/3"]
    assert table["test_a.py::test_raw"][3] == "NO_THRESHOLD"


def test_the_budget_counts_every_vote_sample(close_vote, pytester) -> None:
    result = pytester.runpytest(*judge_args(close_vote), "--llm-judge-votes=3", "--llm-max-judge-calls=3",
                                "-k", "test_close")
    result.assert_outcomes(errors=1, deselected=1)
    assert len(close_vote.requests) == 3  # claims and two samples; the third sample is refused
    assert "judge budget of this run is spent (3 of --llm-max-judge-calls=3" in result.stdout.str()


FACT = "Tesla was founded in 2003."
CHECKED = f'from pytest_llmfaith import assert_faithful\n\ndef test_one():\n    assert_faithful("{FACT}", ["{FACT}"])\n'


def test_the_self_checks_answers_stay_in_the_working_cache_and_are_never_unused(pytester, server) -> None:
    script_a_good_judge(server)
    server.facts(supported=[FACT])
    pytester.makepyfile(test_a=CHECKED)
    record(pytester, server, "--llm-judge-check").assert_outcomes(passed=1)
    asked = len(server.requests)
    entries = json.loads((pytester.path / RECORDING).read_text())["entries"].values()
    assert [e["tests"] for e in entries] == [["test_one"], ["test_one"]]  # no self-check answer

    without_check = record(pytester, server, "--llm-prune-unused")  # a full run that did not use them
    without_check.assert_outcomes(passed=1)
    assert notes(without_check) == []
    assert cache_command(["prune", "--unused", "--cache-dir", str(pytester.path / ".llmfaith_cache"),
                          "--root", str(pytester.path)]) == 0
    record(pytester, server, "--llm-judge-check", cache="replay").assert_outcomes(passed=1)
    assert len(server.requests) == asked


def test_a_budget_that_cuts_the_self_check_short_stops_the_run(pytester, server) -> None:
    script_a_good_judge(server)
    pytester.makepyfile(test_a="def test_runs():\n    open('ran', 'w').close()\n")
    result = pytester.runpytest(*judge_args(server), "--llm-judge-check", "--llm-max-judge-calls=5")
    assert result.ret == pytest.ExitCode.TESTS_FAILED and not (pytester.path / "ran").exists()
    assert len(server.requests) == 5
    out = " ".join(result.stdout.str().split())
    assert "the judge budget of this run is spent (5 of --llm-max-judge-calls=5 new judge calls made)" in out
    assert "The judge self-check could not finish, so no test was run." in out
