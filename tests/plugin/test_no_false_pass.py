"""No false pass through the plugin (issue 9, items 2 and 4-6; issue 15 part 3), in real pytest runs.

Inner runs use pytester against the loopback judge, as in plugin_helpers.py (whose warm-up and
environment fixtures apply here too).
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest
from plugin_helpers import HEADER, TESLA_FACTS, rows, run, run_suite

from pytest_llmfaith.settings import OPTIONS

REFUSAL = "I could not find that in the documents."
EXAMPLES = Path(__file__).parents[2] / "examples"

NO_CLAIMS_SUITE = HEADER + f"""
REFUSAL = {REFUSAL!r}

def test_refusal_fails_by_default():
    assert_not_hallucinated(REFUSAL, CTX)

def test_refusal_may_pass():
    assert_faithful(REFUSAL, CTX, no_claims="pass")

@pytest.mark.llmfaith(no_claims="pass")
def test_refusal_marker():
    assert_not_hallucinated(REFUSAL, CTX)

@pytest.mark.llmfaith(no_claims="pass")
def test_empty_output_keeps_mastras_outcomes():
    assert_not_hallucinated("", CTX)
    assert_faithful("", CTX)
"""


@pytest.fixture
def refusing(server):
    server.facts(**TESLA_FACTS, claims={REFUSAL: []})
    return server


# -- no claims --------------------------------------------------------------------------------

def test_no_claims_is_a_visible_outcome_decided_by_the_policy(pytester, refusing) -> None:
    pytester.makepyfile(test_a=NO_CLAIMS_SUITE)
    result = run(pytester, refusing, "--llm-report=r.json", "--junitxml=junit.xml")
    result.assert_outcomes(passed=2, failed=2)
    assert [r[:6] for r in rows(result)] == [
        ["test_a.py::test_refusal_fails_by_default", "halluc", "NO", "CLAIMS", "<=0.30", "FAIL"],
        ["test_a.py::test_refusal_may_pass", "faithful", "NO", "CLAIMS", ">=0.70", "PASS"],
        ["test_a.py::test_refusal_marker", "halluc", "NO", "CLAIMS", "<=0.30", "PASS"],
        ["test_a.py::test_empty_output_keeps_mastras_outcomes", "halluc", "NO", "CLAIMS", "<=0.30", "PASS"],
        ["test_a.py::test_empty_output_keeps_mastras_outcomes", "faithful", "NO", "CLAIMS", ">=0.70", "FAIL"],
    ]
    text = result.stdout.str()
    assert "hallucination: the judge found NO CLAIMS in a non-empty output (judge: openai/test-judge), " \
           "and no_claims='fail'." in text
    assert "faithfulness score 0.00 is below min_score 0.70 (judge: none needed)" in text  # the empty output
    # claims, then the facts question with the verdicts
    assert len(refusing.calls("claims")) == 3 and len(refusing.calls("verdicts")) == 3
    data = json.loads((pytester.path / "r.json").read_text())["results"]
    assert [(r["result"]["no_claims"], r["result"]["score"]) for r in data] == [(True, 0.0)] * 5
    assert 'name="llmfaith.hallucination.no_claims" value="True"' in (pytester.path / "junit.xml").read_text()


@pytest.mark.parametrize("source", ["flag", "ini", "env"])
def test_no_claims_default_comes_from_the_settings(pytester, refusing, monkeypatch, source) -> None:
    pytester.makepyfile(test_a=NO_CLAIMS_SUITE)
    args = ["--llm-no-claims=pass"] if source == "flag" else []
    if source == "ini":
        pytester.makeini("[pytest]\nllm_no_claims = pass\n")
    if source == "env":
        monkeypatch.setenv("LLMFAITH_NO_CLAIMS", "PASS")
    result = run(pytester, refusing, *args, "-k", "refusal")
    result.assert_outcomes(passed=3, deselected=1)


def test_no_claims_values_are_checked(pytester, refusing) -> None:
    pytester.makepyfile(test_a=HEADER + """
def test_argument():
    assert_faithful("Hi.", CTX, no_claims="ok")

@pytest.mark.llmfaith(no_claims=True)
def test_marker():
    assert_faithful("Hi.", CTX)
""")
    result = run(pytester, refusing)
    result.assert_outcomes(failed=1, errors=1)
    assert "no_claims must be 'pass' or 'fail', got 'ok'" in result.stdout.str()
    assert "no_claims must be 'pass' or 'fail', got True" in result.stdout.str()
    bad = run(pytester, refusing, "--llm-no-claims=maybe")
    assert bad.ret == pytest.ExitCode.USAGE_ERROR
    assert "--llm-no-claims = 'maybe' must be one of fail, pass" in bad.stderr.str()


# -- thresholds outside the scale ---------------------------------------------------------------

def test_thresholds_outside_the_scale_are_errors_at_the_call(pytester, server) -> None:
    result = run_suite(pytester, server, test_a=HEADER + """
def test_percent_meant():
    assert_not_hallucinated(MIXED, CTX, max_score=10)

def test_above_one():
    assert_not_hallucinated(MIXED, CTX, max_score=2)

def test_percent_minimum():
    assert_faithful(GOOD, CTX, min_score=80)

@pytest.mark.parametrize("value", [float("inf"), float("nan"), -0.1, "0.5"])
def test_not_a_score(value):
    assert_not_hallucinated(MIXED, CTX, max_score=value)

@pytest.mark.llmfaith(max_hallucination=5)
def test_marker():
    assert_not_hallucinated(MIXED, CTX)

def test_on_a_scale_of_ten():
    assert_faithful(GOOD, CTX, min_score=8, scale=10)
    assert_not_hallucinated(MIXED, CTX, max_score=12, scale=10)
""")
    result.assert_outcomes(failed=8, errors=1)
    text = result.stdout.str()
    for message in ("max_score=10 is outside 0..1; did you mean 0.10?",
                    "max_score=2 is outside 0..1; did you mean 0.02?",
                    "min_score=80 is outside 0..1; did you mean 0.80?",
                    "max_score=inf must be a finite number between 0 and the scale",
                    "max_score=nan must be a finite number between 0 and the scale",
                    "max_score=-0.1 is outside 0..1; use a score between 0 and 1",
                    "max_score='0.5' must be a finite number",
                    "@pytest.mark.llmfaith(max_hallucination=5) is outside 0..1; did you mean 0.05?",
                    "max_score=12 is outside 0..10; did you mean 1.20?"):
        assert message in text, message
    expected = ["test_a.py::test_on_a_scale_of_ten", "faithful", "10.00", ">=8.00", "PASS"]
    assert [r[:5] for r in rows(result)] == [expected]
    assert len(server.calls()) == 2  # no judge call for a threshold that cannot be used


# -- NaN and infinity in the settings -------------------------------------------------------------

def _numeric(parse) -> bool:
    try:
        return not isinstance(parse("1"), (bool, str))
    except ValueError:
        return False


NUMERIC = [opt for opt in OPTIONS if _numeric(opt.parse)]


def test_every_numeric_setting_is_covered() -> None:
    assert {opt.name for opt in NUMERIC} >= {
        "llm_judge_timeout", "llm_judge_retries", "llm_min_faithfulness", "llm_max_hallucination",
        "llm_min_mean_faithfulness", "llm_max_mean_hallucination", "llm_baseline_tolerance"}


@pytest.mark.parametrize("source, value", [("flag", "nan"), ("ini", "nan"), ("env", "nan"), ("flag", "inf")])
@pytest.mark.parametrize("opt", NUMERIC, ids=lambda o: o.name)
def test_nan_and_infinity_are_usage_errors_at_start_up(pytester, monkeypatch, opt, source, value) -> None:
    pytester.makepyfile(test_a="def test_never_runs():\n    raise SystemExit('collected')\n")
    monkeypatch.delenv(opt.env, raising=False)  # tests/conftest.py sets some; the environment beats the ini file
    args = [f"{opt.flag}={value}"] if source == "flag" else []
    if source == "ini":
        pytester.makeini(f"[pytest]\n{opt.name} = {value}\n")
    if source == "env":
        monkeypatch.setenv(opt.env, value)
    result = pytester.runpytest(*args)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    where = {"flag": opt.flag, "ini": f"ini key {opt.name}", "env": f"environment variable {opt.env}"}[source]
    assert f"{where} = '{value}' must be a" in result.stderr.str()


# -- xfail does not hide a broken judge -------------------------------------------------------------

def test_a_judge_or_configuration_error_in_an_xfail_test_is_an_error(pytester, server) -> None:
    server.fail("500", times=99)
    result = run_suite(pytester, server, "--llm-judge-retries=0", "-rA", test_a=HEADER + """
@pytest.mark.xfail(reason="a wrong answer on purpose")
def test_wrong_answer():
    assert_faithful(MIXED, CTX)

@pytest.mark.xfail(reason="a wrong answer on purpose")
@pytest.mark.llmfaith(model="openai/broken-judge")
def test_broken_judge():
    assert_faithful(MIXED, CTX)

@pytest.mark.xfail(reason="a wrong answer on purpose")
@pytest.mark.llmfaith(max_hallucination=5)
def test_broken_configuration():
    assert_not_hallucinated(MIXED, CTX)

@pytest.fixture
def scored_in_setup():
    assert_faithful(MIXED, CTX, model="openai/broken-judge")

@pytest.mark.xfail(reason="a wrong answer on purpose")
def test_broken_judge_in_a_fixture(scored_in_setup):
    pass
""")
    result.assert_outcomes(errors=4)
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    text = result.stdout.str()
    assert "XFAIL" not in text and "xfailed" not in text
    assert "ERROR test_a.py::test_broken_judge - pytest_llmfaith.errors.JudgeError" in text


def test_a_wrong_answer_in_an_xfail_test_still_xfails(pytester, server) -> None:
    result = run_suite(pytester, server, test_a=HEADER + """
@pytest.mark.xfail(reason="a wrong answer on purpose", raises=AssertionError, strict=True)
def test_wrong_answer():
    assert_faithful(MIXED, CTX)
""")
    result.assert_outcomes(xfailed=1)


def test_the_examples_deliberate_failures_expect_a_wrong_answer_not_a_broken_judge(
        pytester, server, monkeypatch) -> None:
    source = EXAMPLES / "tests" / "test_deliberate_failures.py"
    monkeypatch.syspath_prepend(str(EXAMPLES))
    pytester.makepyfile(test_deliberate_failures=source.read_text())
    pytester.makeini("[pytest]\nmarkers =\n    smoke: a quick slice\n")
    spec = importlib.util.spec_from_file_location("deliberate_failures", source)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    assert module.XFAIL.kwargs["raises"] is AssertionError
    run(pytester, server).assert_outcomes(xfailed=2)  # the scripted judge supports none of the claims
    server.fail("500", times=99)
    run(pytester, server, "--llm-judge-retries=0").assert_outcomes(errors=2)
