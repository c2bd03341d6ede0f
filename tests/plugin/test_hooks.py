"""Marker, llm_judge fixture and the plugin's own hooks end to end; scores from fixtures, threads, nested runs."""

from __future__ import annotations

import json

import pytest
from plugin_helpers import HEADER, rows, run_suite, section

# -- marker, fixture, hooks --------------------------------------------------------------------

def test_marker_sets_model_and_thresholds_per_test_and_module(pytester, server) -> None:
    result = run_suite(pytester, server, test_mod=HEADER + """
pytestmark = pytest.mark.llmfaith(min_faithfulness=0.3, max_hallucination=0.7)

def test_module_thresholds():
    assert_faithful(MIXED, CTX)
    assert_not_hallucinated(MIXED, CTX)

@pytest.mark.llmfaith(min_faithfulness=0.9, model="openai/other-judge")
def test_own_threshold_and_model():
    assert_faithful(HALF, CTX)

@pytest.mark.llmfaith(model="openai/third-judge")
def test_model_only_keeps_the_module_thresholds():
    assert_not_hallucinated(MIXED, CTX)

def test_explicit_threshold_wins():
    assert_faithful(MIXED, CTX, min_score=0.34)
""", test_plain=HEADER + """
def test_defaults():
    assert_faithful(HALF, CTX)

@pytest.mark.llmfaith(min_score=0.1)
def test_unknown_marker_argument_is_an_error():
    assert_faithful(HALF, CTX)
""")
    result.assert_outcomes(passed=2, failed=3, errors=1)
    got = {(r[0], r[1]): r[3:5] for r in rows(result)}
    assert got == {
        ("test_mod.py::test_module_thresholds", "faithful"): [">=0.30", "PASS"],
        ("test_mod.py::test_module_thresholds", "halluc"): ["<=0.70", "PASS"],
        ("test_mod.py::test_own_threshold_and_model", "faithful"): [">=0.90", "FAIL"],
        ("test_mod.py::test_model_only_keeps_the_module_thresholds", "halluc"): ["<=0.70", "PASS"],
        ("test_mod.py::test_explicit_threshold_wins", "faithful"): [">=0.34", "FAIL"],
        ("test_plain.py::test_defaults", "faithful"): [">=0.70", "FAIL"],
    }
    models = [c["body"]["model"] for c in server.calls()]
    # claims and verdicts, each request the model its test asked for
    assert models.count("other-judge") == 2 and models.count("third-judge") == 2
    assert models.count("test-judge") == 8
    text = result.stdout.str()
    assert "(judge: openai/other-judge)" in text
    assert "the llmfaith marker takes keyword arguments model, min_faithfulness, max_hallucination, " \
           "no_claims; got unknown min_score" in text


def test_fixture_offers_assertions_and_raw_scorers(pytester, server) -> None:
    result = run_suite(pytester, server, "--llm-report=r.json", test_a=HEADER + """
def test_raw_scores(llm_judge):
    f = llm_judge.faithfulness(MIXED, CTX)
    h = llm_judge.hallucination(MIXED, CTX)
    assert (f.scorer, f.score, h.scorer, h.score) == ("faithfulness", 0.33, "hallucination", 0.67)
    assert [v.verdict for v in f.verdicts] == ["yes", "no", "unsure"]
    assert f.claims[1] == "Elon Musk founded Tesla."

def test_fixture_assertions(llm_judge):
    result = llm_judge.assert_faithful(GOOD, CTX)
    assert result.score == 1.0
    llm_judge.assert_not_hallucinated(MIXED, CTX, max_score=0.5)
""")
    result.assert_outcomes(passed=1, failed=1)
    assert "hallucination score 0.67 is above max_score 0.50" in result.stdout.str()
    # raw scores are recorded too: a row without threshold, and their judge calls in the totals
    assert [r[:5] for r in rows(result)] == [
        ["test_a.py::test_raw_scores", "faithful", "0.33", "-", "NO_THRESHOLD"],
        ["test_a.py::test_raw_scores", "halluc", "0.67", "-", "NO_THRESHOLD"],
        ["test_a.py::test_fixture_assertions", "faithful", "1.00", ">=0.70", "PASS"],
        ["test_a.py::test_fixture_assertions", "halluc", "0.67", "<=0.50", "FAIL"]]
    # claims and verdicts of each of four scores
    assert len(server.calls()) == 8
    assert section(result)[-1].startswith("llmfaith: 4 scores (1 passed, 1 failed, 2 without threshold); "
                                          "judge calls 8 (0 cached, 8 new)")
    raw = json.loads((pytester.path / "r.json").read_text())["results"][0]
    assert (raw["threshold"], raw["passed"], raw["outcome"]) == (None, None, "NO THRESHOLD")


def test_own_hooks_see_every_score_and_the_report_once(pytester, server) -> None:
    pytester.makeconftest("""
import json

import pytest

SEEN = []

def pytest_llmfaith_scored(assessment, config):
    SEEN.append((assessment.test_id, assessment.result.scorer, assessment.result.score, assessment.passed))

def pytest_llmfaith_report(report, config):
    with open("hooks.json", "a") as fh:
        fh.write(json.dumps({"seen": SEEN, "report": [a.test_id for a in report.assessments],
                             "totals": report.totals.scores}) + "\\n")
""")
    result = run_suite(pytester, server, test_a=HEADER + """
def test_good():
    assert_faithful(GOOD, CTX)

def test_bad():
    assert_faithful(MIXED, CTX)
    assert_not_hallucinated(GOOD, CTX)  # never reached

def test_not_scored():
    pass
""")
    result.assert_outcomes(passed=2, failed=1)
    calls = (pytester.path / "hooks.json").read_text().splitlines()
    assert len(calls) == 1  # the report hook ran once
    data = json.loads(calls[0])
    assert data["seen"] == [["test_a.py::test_good", "faithfulness", 1.0, True],
                            ["test_a.py::test_bad", "faithfulness", 0.33, False]]
    assert data["report"] == ["test_a.py::test_good", "test_a.py::test_bad"] and data["totals"] == 2


def test_scores_in_fixtures_are_attributed_to_their_test(pytester, server) -> None:
    result = run_suite(pytester, server, "--llm-report=r.json", test_a=HEADER + """
@pytest.fixture
def checked_answer():
    assert_faithful(GOOD, CTX)
    yield GOOD
    assert_not_hallucinated(GOOD, CTX)

@pytest.mark.llmfaith(min_faithfulness=0.95)
def test_uses_fixture(checked_answer):
    assert checked_answer
""")
    result.assert_outcomes(passed=1)
    got = [(a["test_id"], a["result"]["scorer"], a["threshold"])
           for a in json.loads((pytester.path / "r.json").read_text())["results"]]
    assert got == [("test_a.py::test_uses_fixture", "faithfulness", 0.95),
                   ("test_a.py::test_uses_fixture", "hallucination", 0.3)]


def test_scores_from_threads_of_a_test_are_attributed_to_it(pytester, server) -> None:
    result = run_suite(pytester, server, test_a=HEADER + """
from concurrent.futures import ThreadPoolExecutor

@pytest.mark.llmfaith(min_faithfulness=0.5)
def test_parallel_cases():
    with ThreadPoolExecutor(2) as pool:
        scores = list(pool.map(lambda out: assert_faithful(out, CTX).score, [GOOD, HALF]))
    assert scores == [1.0, 0.5]
""")
    result.assert_outcomes(passed=1)
    assert sorted(r[1:5] for r in rows(result)) == [  # the threads finish in any order
        ["faithful", "0.50", ">=0.50", "PASS"], ["faithful", "1.00", ">=0.50", "PASS"]]
    assert sorted(r[0] for r in rows(result)) == ["test_a.py::test_parallel_cases",
                                                  "test_a.py::test_parallel_cases #2"]


def test_a_nested_pytester_run_leaves_the_outer_settings_active(pytester, server) -> None:
    """A suite that tests its own pytest plugin with pytester can still score after an inner run."""
    result = run_suite(pytester, server, "-p", "pytester", test_a=HEADER + """
def test_outer(pytester):
    pytester.makepyfile(test_inner="def test_inner():\\n    pass\\n")
    pytester.runpytest("-p", "no:cacheprovider").assert_outcomes(passed=1)
    assert_faithful(GOOD, CTX)  # still the outer run's judge model and api base
""")
    result.assert_outcomes(passed=1)
    assert [r[:5] for r in rows(result)] == [["test_a.py::test_outer", "faithful", "1.00", ">=0.70", "PASS"]]


# -- which runs start the judge relay early ------------------------------------------------------

USES = {
    "from the package": "from pytest_llmfaith import assert_faithful\n\ndef test_it():\n    assert assert_faithful\n",
    "the package": "import pytest_llmfaith\n\ndef test_it():\n    assert pytest_llmfaith.assert_faithful\n",
    "the package renamed": "import pytest_llmfaith as lf\n\ndef test_it():\n    assert lf.assert_faithful\n",
    "a module of it": "from pytest_llmfaith.plugin import assertion\n\ndef test_it():\n    assert assertion\n",
    "the fixture": "def test_it(llm_judge):\n    assert llm_judge\n",
    "the marker": "import pytest\n\n@pytest.mark.llmfaith(min_faithfulness=0.5)\ndef test_it():\n    pass\n",
}


@pytest.mark.parametrize("form", [*USES, "nothing of it"])
def test_a_module_that_uses_the_plugin_in_any_way_starts_the_relay_early(
        pytester, monkeypatch, form: str) -> None:
    """So that litellm's import in the relay overlaps the tests (the relay itself is not started here)."""
    from pytest_llmfaith.relay.run_relay import RunRelay

    prewarmed: list[str] = []
    monkeypatch.setattr(RunRelay, "prewarm", lambda self: prewarmed.append(form))
    pytester.makepyfile(test_mod=USES.get(form, "import json\n\ndef test_it():\n    assert json\n"))
    pytester.runpytest("--llm-judge-relay=on", "--llm-judge-model=openai/test-judge").assert_outcomes(passed=1)
    assert prewarmed == ([] if form == "nothing of it" else [form])
