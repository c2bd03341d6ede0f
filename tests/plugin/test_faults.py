"""Judge faults as users see them in a real pytest run (pytester, in-process): no key in any output,
judge errors as JUnit errors, outputs that cannot be written, replay misses, the token limit."""

from __future__ import annotations

import json
import sys
import types
import xml.etree.ElementTree as ET

import pytest
from plugin_helpers import HEADER, rows, run, run_suite, section

SECRET = "sk-test-CRED-0123456789abcdef"

ONE_TEST = HEADER + """
def test_scored():
    result = assert_faithful(GOOD, CTX, min_score=0.0)
"""

TWO_TESTS = HEADER + """
def test_good():
    assert_faithful(GOOD, CTX)

def test_bad():
    assert_faithful(MIXED, CTX)
"""


@pytest.fixture(scope="module", autouse=True)
def _fault_paths_warmed_up(litellm_warmed_up, judge_server) -> None:
    """litellm's error paths for these faults are imported here, not inside an inner run."""
    from pytest_llmfaith import Faithfulness, Judge, JudgeCache, JudgeConfig, JudgeError

    judge = Judge(JudgeConfig(model="openai/test-judge", api_base=judge_server.url, retries=0),
                  JudgeCache(None, "off"))
    for fault in ("401", "error_200", "no_choices", "length"):
        judge_server.reset()
        judge_server.fail(fault, times=3)
        with pytest.raises(JudgeError):
            Faithfulness(judge).run("Tesla was founded in 2003.", ["Tesla was founded in 2003."])
    judge_server.reset()


def outputs(pytester: pytest.Pytester, result: pytest.RunResult, *files: str) -> str:
    return "\n".join([result.stdout.str(), result.stderr.str(),
                      *((pytester.path / f).read_text() for f in files)])


def test_configured_key_variable_never_reaches_any_output(pytester, server, monkeypatch) -> None:
    """A key variable not named *KEY/*TOKEN/*SECRET, and a 401 that echoes the key."""
    monkeypatch.setenv("JUDGE_CREDENTIAL", SECRET)
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(pytester.path / "summary.md"))
    server.fail("401", times=99)
    pytester.makepyfile(test_a=ONE_TEST)
    result = run(pytester, server, "--llm-judge-api-key-env=JUDGE_CREDENTIAL", "--junitxml=junit.xml",
                 "--llm-report=report.json", "-rA")
    result.assert_outcomes(errors=1)
    assert server.calls()[0]["headers"]["authorization"] == f"Bearer {SECRET}"
    errors = json.loads((pytester.path / "report.json").read_text())["judge_errors"]
    assert "Incorrect API key provided: [secret 1]" in errors["test_a.py::test_scored"]
    for name in ("junit.xml", "report.json", "summary.md"):
        assert SECRET not in (pytester.path / name).read_text(), name
    assert SECRET not in result.stdout.str() + result.stderr.str()


def test_showlocals_never_shows_a_frame_holding_the_key(pytester, server, monkeypatch) -> None:
    monkeypatch.setenv("LLMFAITH_TEST_KEY", SECRET)
    server.fail("500", times=99, message="upstream exploded")
    pytester.makepyfile(test_a=ONE_TEST)
    result = run(pytester, server, "--llm-judge-api-key-env=LLMFAITH_TEST_KEY", "--llm-judge-retries=0",
                 "-l", "--junitxml=junit.xml")
    result.assert_outcomes(errors=1)
    shown = outputs(pytester, result, "junit.xml")
    assert "upstream exploded" in shown and "test_a.py:" in shown
    assert SECRET not in shown and "api_key" not in shown and "kwargs" not in shown
    assert "pytest_llmfaith" + "/judge/" not in shown  # no plugin frame, with or without locals


def test_judge_error_is_a_junit_error_not_a_failure(pytester, server) -> None:
    server.fail("500", times=99, message="upstream exploded")
    result = run_suite(pytester, server, "--llm-judge-retries=0", "--junitxml=junit.xml", test_a=ONE_TEST + """
def test_plain_failure():
    assert 1 == 2
""")
    result.assert_outcomes(failed=1, errors=1)
    tree = ET.parse(pytester.path / "junit.xml")
    suite = tree.getroot().find("testsuite")
    assert (suite.get("errors"), suite.get("failures")) == ("1", "1")
    cases = {c.get("name"): c for c in tree.iter("testcase")}
    error = cases["test_scored"].find("error")
    assert cases["test_scored"].find("failure") is None and error is not None
    assert error.get("message").startswith("llmfaith: judge openai/test-judge failed at step 'claims'")
    assert "upstream exploded" in error.text
    assert cases["test_plain_failure"].find("failure") is not None


@pytest.mark.parametrize("private", ["missing", "changed"])
def test_a_pytest_without_its_junit_writer_key_keeps_the_failure(pytester, server, monkeypatch, private) -> None:
    """`_pytest.junitxml.xml_key` is pytest's private: gone, or finding a writer of another shape,
    the judge error stays a JUnit <failure>, and the terminal still says ERROR."""
    import _pytest.junitxml

    # A module of pytest's own functions (they keep their globals, so pytest's writer works) without xml_key.
    stub = types.ModuleType("_pytest.junitxml")
    stub.__dict__.update({k: v for k, v in vars(_pytest.junitxml).items() if k != "xml_key"})
    monkeypatch.setitem(sys.modules, "_pytest.junitxml", stub)
    if private == "changed":
        stub.xml_key = pytest.StashKey()
        pytester.makeconftest("""
from _pytest.junitxml import xml_key

def pytest_configure(config):
    config.stash[xml_key] = object()  # a writer of another shape
""")
    server.fail("500", times=99, message="upstream exploded")
    result = run_suite(pytester, server, "--llm-judge-retries=0", "--junitxml=junit.xml", test_a=ONE_TEST)
    result.assert_outcomes(errors=1)
    assert "INTERNALERROR" not in result.stdout.str() + result.stderr.str()
    suite = ET.parse(pytester.path / "junit.xml").getroot().find("testsuite")
    assert (suite.get("errors"), suite.get("failures")) == ("0", "1")
    assert "upstream exploded" in suite.find("testcase").find("failure").text


@pytest.mark.parametrize("where", ["report-is-a-directory", "report-under-read-only-path",
                                   "step-summary-is-a-directory"])
def test_unwritable_outputs_warn_and_keep_the_rest_of_the_output(pytester, server, monkeypatch, where) -> None:
    (pytester.path / "a-directory").mkdir()
    args = {"report-is-a-directory": ["--llm-report=a-directory"],
            "report-under-read-only-path": ["--llm-report=/proc/llmfaith/missing/report.json"],
            "step-summary-is-a-directory": []}[where]
    if where == "step-summary-is-a-directory":
        monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(pytester.path / "a-directory"))
    result = run_suite(pytester, server, *args, test_a=TWO_TESTS)
    result.assert_outcomes(passed=1, failed=1)
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    text = result.stdout.str()
    assert "INTERNALERROR" not in text + result.stderr.str()
    assert "faithfulness score 0.33 is below min_score 0.70" in text  # failure details
    assert "FAILED test_a.py::test_bad" in text  # short summary
    assert len(rows(result)) == 2  # the llmfaith table
    assert "ReportWarning: llmfaith: could not write the" in text  # the warnings summary
    assert any(line.startswith("WARNING llmfaith: could not write the") for line in section(result))


def test_replay_miss_shows_the_cause_and_a_command_for_that_test(pytester, server) -> None:
    pytester.makepyfile(test_a=HEADER + """
@pytest.mark.parametrize("case", ["one"])
def test_recorded_later(case):
    assert_faithful(GOOD, CTX)
""")
    result = run(pytester, server, "--llm-cache-dir=recordings", cache="replay")
    result.assert_outcomes(errors=1)
    text = result.stdout.str()
    assert "replay has no stored judge answer for test test_a.py::test_recorded_later[one]" in text
    assert f"model openai/test-judge, api base {server.url}" in text
    assert "pytest 'test_a.py::test_recorded_later[one]' --llm-cache=use" in text
    failure = text[text.index("ERROR at call of"):text.index("short test summary")]
    assert "def _fetch" not in failure and "pytest_llmfaith" + "/" not in failure
    assert len(failure.splitlines()) < 15 and not server.requests


def test_max_tokens_option_reaches_the_judge(pytester, server) -> None:
    run_suite(pytester, server, "--llm-judge-max-tokens=512", test_a=ONE_TEST).assert_outcomes(passed=1)
    assert {c["body"].get("max_tokens") for c in server.calls()} == {512}
    server.reset()
    server.fail("length", times=99)
    result = run(pytester, server, "--llm-judge-max-tokens=16")
    result.assert_outcomes(errors=1)
    assert "cut off by the token limit (max_tokens=16)" in result.stdout.str()
    assert "--llm-judge-max-tokens=N" in result.stdout.str()


@pytest.mark.parametrize("variable, value, said", [
    ("OPENAI_API_KEY", SECRET + "\n", "ends with a newline"),  # litellm's variable of an openai/ model
    ("JUDGE_CREDENTIAL", f" {SECRET}\r\n", "starts with a space and ends with a newline"),  # --llm-judge-api-key-env
])
def test_a_key_with_whitespace_around_it_is_an_error_that_says_so(pytester, server, monkeypatch, variable, value,
                                                                     said) -> None:
    """A key read from a file keeps its newline; no HTTP header may hold one. Stripping it would send
    a value the redaction of every output does not know (it looks for the variable's value)."""
    monkeypatch.setenv(variable, value)
    args = [f"--llm-judge-api-key-env={variable}"] if variable != "OPENAI_API_KEY" else []
    result = run_suite(pytester, server, *args, "--llm-report=report.json", test_a=ONE_TEST)
    result.assert_outcomes(errors=1)
    error = json.loads((pytester.path / "report.json").read_text())["judge_errors"]["test_a.py::test_scored"]
    assert error == (f"llmfaith: the judge's API key in {variable} {said}: it cannot be sent like that (a key "
                     "read from a file keeps its newline, and no HTTP header may hold one). Fix: set it without, "
                     f"e.g. {variable}=\"$(tr -d '[:space:]' < key.txt)\"; the key is not shown.")
    assert server.requests == [] and "Connection error" not in result.stdout.str()
    assert SECRET not in outputs(pytester, result, "report.json")
