"""Async twins of the assertions: several judged checks of one test at once (asyncio.gather), over
real HTTP, in an anyio test (anyio's pytest plugin comes with anyio)."""

from __future__ import annotations

import re

from plugin_helpers import HEADER, rows, run, run_suite

ASYNC_HEADER = HEADER + """
import asyncio
from pytest_llmfaith import assert_faithful_async, assert_not_hallucinated_async
"""


def test_checks_gathered_in_one_test_overlap_at_the_judge(pytester, server) -> None:
    server.script.latency = 0.3  # each answer takes a while: sequential checks could not interleave
    result = run_suite(pytester, server, test_a=ASYNC_HEADER + """
@pytest.mark.anyio
async def test_gathered(llm_judge):
    good, half = await asyncio.gather(
        assert_faithful_async(GOOD, CTX, min_score=0.9),
        llm_judge.assert_not_hallucinated_async(HALF, CTX, max_score=0.5, label="half"),
    )
    assert (good.score, half.score) == (1.0, 0.5)
""")
    result.assert_outcomes(passed=1)
    # each check asks for claims, then verdicts: both claims requests came before either verdicts one
    # (the half one's made-up sentence is then asked whether it states a fact)
    assert [c["step"] for c in server.calls()] == ["claims", "claims", "verdicts", "verdicts"]
    assert sorted(r[:5] for r in rows(result)) == [
        ["test_a.py::test_gathered[asyncio]", "faithful", "1.00", ">=0.90", "PASS"],  # anyio's backend param
        ["test_a.py::test_gathered[asyncio] [half]", "halluc", "0.50", "<=0.50", "PASS"]]


def test_concurrent_checks_are_numbered_in_call_order_and_failures_reach_the_summary(pytester, server) -> None:
    server.fail("delay", step="claims", seconds=0.5)  # the first claims request to arrive is slow
    result = run_suite(pytester, server, test_a=ASYNC_HEADER + """
@pytest.mark.anyio
async def test_numbered(llm_judge):
    await asyncio.gather(llm_judge.assert_faithful_async(GOOD, CTX, min_score=0.9),
                         llm_judge.assert_faithful_async(HALF, CTX, min_score=0.9))
""")
    result.assert_outcomes(failed=1)
    text = result.stdout.str()
    assert "faithfulness score 0.50 is below min_score 0.90" in text
    # the traceback goes from the test's await to the message: no asyncio or thread pool frames
    assert "threads.py" not in text and "concurrent/futures" not in text
    assert re.search(r"^>\s+await asyncio.gather\(", text, re.MULTILINE)
    # #1 is the first call, #2 the second, whichever the judge answered first: baseline keys stay put
    assert sorted(r[:5] for r in rows(result)) == [
        ["test_a.py::test_numbered[asyncio]", "faithful", "1.00", ">=0.90", "PASS"],
        ["test_a.py::test_numbered[asyncio] #2", "faithful", "0.50", ">=0.90", "FAIL"]]


def test_async_check_argument_errors_raise_at_the_await(pytester, server) -> None:
    pytester.makepyfile(test_a=ASYNC_HEADER + """
@pytest.mark.anyio
async def test_bad_label():
    with pytest.raises(ValueError, match="label must be a non-empty one-line string"):
        await assert_faithful_async(GOOD, CTX, label="two\\nlines")
""")
    run(pytester, server).assert_outcomes(passed=1)
    assert server.calls() == []
