"""The review page's option in real runs, without a browser: when it is written and when not, and
a page that cannot be written (tests/report/test_page_browser.py opens the page in chromium)."""

from __future__ import annotations

import json
import re

import pytest
from plugin_helpers import HEADER, run, run_suite, section

TWO_TESTS = HEADER + """
def test_good():
    assert_faithful(GOOD, CTX)

def test_bad():
    assert_faithful(MIXED, CTX)
"""


@pytest.fixture(autouse=True)
def _inner_run_environment(litellm_warmed_up: None, clean_env: None) -> None:
    """litellm warmed up in this process and a clean environment, as in tests/plugin/ (tests/conftest.py)."""


def _data(path) -> dict:
    text = path.read_text(encoding="utf-8")
    return json.loads(re.search(r'id="llmfaith-data">(.*?)</script>', text, re.DOTALL).group(1))


def test_nothing_is_written_without_the_option_and_the_environment_or_ini_turn_it_on(
        pytester, server, monkeypatch) -> None:
    run_suite(pytester, server, "--llm-report=r.json", test_a=TWO_TESTS).assert_outcomes(passed=1, failed=1)
    assert not list(pytester.path.rglob("*.html"))
    monkeypatch.setenv("LLMFAITH_REPORT_HTML", "pages/review.html")
    run(pytester, server).assert_outcomes(passed=1, failed=1)  # written when tests fail, too
    assert [p.relative_to(pytester.path).as_posix() for p in pytester.path.rglob("*.html")] == ["pages/review.html"]
    assert [i["name"] for i in _data(pytester.path / "pages" / "review.html")["items"]] == [
        "test_a.py::test_bad", "test_a.py::test_good"]
    monkeypatch.delenv("LLMFAITH_REPORT_HTML")
    pytester.makeini("[pytest]\nllm_report_html = ini/review.html\nllm_report_history = missing-folder\n")
    run(pytester, server).assert_outcomes(passed=1, failed=1)
    notes = _data(pytester.path / "ini" / "review.html")["notes"]
    assert notes == [f"history folder {pytester.path / 'missing-folder'} does not exist"]


def test_a_page_that_cannot_be_written_is_a_warning_and_the_json_report_is_still_written(pytester, server) -> None:
    (pytester.path / "a-directory").mkdir()
    result = run_suite(pytester, server, "--llm-report-html=a-directory", "--llm-report=r.json", test_a=TWO_TESTS)
    result.assert_outcomes(passed=1, failed=1)
    assert "INTERNALERROR" not in result.stdout.str() + result.stderr.str()
    assert any(line.startswith("WARNING llmfaith: could not write the review page (--llm-report-html) to ")
               for line in section(result))
    assert len(json.loads((pytester.path / "r.json").read_text())["results"]) == 2


def test_secrets_in_outputs_are_redacted_on_the_page(pytester, server, monkeypatch) -> None:
    monkeypatch.setenv("UPSTREAM_PASSWORD", "correct-horse-battery")
    result = run_suite(pytester, server, "--llm-report-html=review.html", test_a=HEADER + """
import os

def test_password():
    assert_faithful(f"The password is {os.environ['UPSTREAM_PASSWORD']}. " + GOOD, CTX, min_score=0.0)
""")
    result.assert_outcomes(passed=1)
    page = pytester.path / "review.html"
    assert "correct-horse-battery" not in page.read_text(encoding="utf-8")
    assert _data(page)["items"][0]["out"].startswith("The password is [secret 1]. Tesla was founded in 2003.")


def test_a_judge_error_is_an_error_item_and_the_page_is_still_written(pytester, server) -> None:
    server.fail("500", times=100)
    result = run_suite(pytester, server, "--llm-judge-retries=0", "--llm-report-html=review.html",
                       test_a=HEADER + "def test_broken():\n    assert_faithful(GOOD, CTX)\n")
    result.assert_outcomes(errors=1)
    (item,) = _data(pytester.path / "review.html")["items"]
    assert (item["name"], item["st"], item["score"]) == ("test_a.py::test_broken", ["ERROR"], None)
    assert item["reason"].startswith("llmfaith: judge openai/test-judge failed")
