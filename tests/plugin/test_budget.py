"""The run's judge budget under -n 4: it holds for every request that leaves a process, re-asks
included, because each request is admitted (and its price reserved) before it is sent; and the
summary says what was sent. A real xdist run against the loopback judge through litellm."""

from __future__ import annotations

import re

import pytest
from plugin_helpers import ALL_ARRIVE, judge_args, run_together

pytest.importorskip("xdist")

TOGETHER = ALL_ARRIVE + """
import pytest
from pytest_llmfaith import assert_faithful


@pytest.mark.parametrize("i", range({tests}))
def test_car(i):
    all_arrive(i)
    assert_faithful(f"Tesla made car number {{i}}.", ["Tesla makes cars."], min_score=0.0)
"""


def spent(result: pytest.RunResult) -> str:
    found = re.search(r"^llmfaith budget: spent (.*)$", result.stdout.str(), re.MULTILINE)
    assert found, result.stdout.str()
    return found.group(1)


def test_re_asks_count_against_the_call_budget(pytester, server, monkeypatch) -> None:
    server.fail("malformed", step="claims", times=1000)  # every answer needs a re-ask (and never gets one)
    pytester.makepyfile(test_cars=TOGETHER.format(tests=8))
    result = run_together(pytester, monkeypatch, *judge_args(server), "--llm-judge-relay=on", "--llm-max-judge-calls=5")
    result.assert_outcomes(errors=8)
    assert len(server.requests) == 5
    assert spent(result) == "5 of 5 new judge calls"


def test_four_workers_overshoot_the_cost_budget_by_one_request_at_most(pytester, server, monkeypatch) -> None:
    """$0.15 a request, a limit of $0.20: the first request learns the price alone, the second
    still fits, the rest are refused, whichever worker asks; what is spent is what was sent."""
    server.script.prompt_tokens = 1_000_000  # gpt-4o-mini reads input at $0.15 per million tokens
    server.script.latency = 0.5
    pytester.makepyfile(test_cars=TOGETHER.format(tests=4))
    result = run_together(pytester, monkeypatch, "--llm-judge-model=openai/gpt-4o-mini", "--llm-judge-relay=on",
                          f"--llm-judge-api-base={server.url}", "--llm-cache=off", "--llm-max-cost=0.2")
    sent = len(server.requests)
    assert sent == 2, result.stdout.str()
    dollars = re.fullmatch(r"\$(\d\.\d{4}) of \$0\.2 \(calls of unknown price not counted\)", spent(result))
    assert dollars and float(dollars.group(1)) == pytest.approx(0.15 * sent, abs=0.001)
    assert "USD spent" in result.stdout.str() and "judge budget of this run is spent" in result.stdout.str()


CORRUPTED = """
from pytest_llmfaith import assert_faithful
from pytest_llmfaith.plugin.session import active_session

def test_1_judged():
    assert_faithful("Tesla makes cars.", ["Tesla makes cars."])

def test_2_budget_file_corrupted_then_judged():
    files = sorted((active_session().judges.run_dir / "budget").glob("cache.db*"))  # and its -wal and -shm
    assert [f.name for f in files] == ["cache.db", "cache.db-shm", "cache.db-wal"]
    for file in files:
        with open(file, "r+b") as fh:  # in place, as a disk or another writer would damage it
            fh.write(b"this is not a database" * 1000)
    assert_faithful("Tesla makes trucks.", ["Tesla makes trucks."])

def test_3_judged_after():
    assert_faithful("Tesla makes batteries.", ["Tesla makes batteries."])
"""


def test_a_budget_file_corrupted_mid_run_is_an_error_naming_it_and_the_fix(pytester, server) -> None:
    """Never a pass, and never a raw sqlite3 error: the file, and what to do."""
    server.facts(supported=["Tesla makes cars.", "Tesla makes trucks.", "Tesla makes batteries."])
    pytester.makepyfile(test_corrupt=CORRUPTED)
    result = pytester.runpytest(*judge_args(server), "--llm-max-judge-calls=10", "-p", "no:randomly")
    result.assert_outcomes(passed=1, errors=2)
    text = result.stdout.str()
    assert "sqlite3.DatabaseError" not in text and "Traceback" not in text
    found = re.search(r"ERROR test_corrupt\.py::test_2_budget_file_corrupted_then_judged: (.*)$", text, re.MULTILINE)
    assert found, text
    assert re.match(r"llmfaith: the run's shared counters \S+/llmfaith-run-\w+/budget/cache\.db cannot be read "
                    r"\(file is not a database\), so this judge call cannot be counted", found.group(1))
    assert "Fix: run the tests again: each run has its own folder" in text
    assert re.search(r"^llmfaith budget: not known: the run's shared counters \S+/budget/cache\.db cannot be read "
                     r"\(file is not a database\)$", text, re.MULTILINE)
    assert len(server.requests) == 2  # test_1's two calls; none uncounted
