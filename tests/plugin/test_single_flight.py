"""Single flight: within a run, one request is asked once and its answer shared, however many xdist
workers and threads ask it at the same moment, against a judge that answers each request
differently (as a sampling judge does). Otherwise each test keeps its own answer, the recordings
keep one of them, and replay passes tests that failed when they were recorded."""

from __future__ import annotations

import json
import shutil

import pytest
from plugin_helpers import ALL_ARRIVE, HEADER, judge_args, run, run_together

pytest.importorskip("xdist")

CLAIM = "Tesla was founded in 2003."
SAME_REQUEST = ALL_ARRIVE + """
import pytest
from pytest_llmfaith import assert_faithful


@pytest.mark.parametrize("i", range(4))
def test_same_request(i):
    all_arrive(i)
    assert_faithful("Tesla was founded in 2003.", ["Tesla was founded in 2003."], min_score=0.5)
"""


@pytest.mark.parametrize("relay", ["on", "off"])
def test_four_workers_asking_one_key_at_once_share_one_answer(pytester, server, monkeypatch, relay) -> None:
    server.facts(changing={CLAIM: ["yes", "unsure"]})  # supported, then not, then supported...
    server.script.latency = 1.0  # the four requests would overlap at the judge
    pytester.makepyfile(test_same=SAME_REQUEST)
    if relay == "off":
        monkeypatch.setenv("WARM_LITELLM", "1")  # each worker pays litellm's import before the barrier

    def run_n4(cache: str) -> pytest.RunResult:
        return run_together(pytester, monkeypatch, f"--llm-judge-relay={relay}", *judge_args(server, cache),
                            "--llm-recordings=llmfaith_recordings")

    recorded = run_n4("use")
    assert [c["step"] for c in server.calls()] == ["claims", "verdicts"], recorded.stdout.str()
    recorded.assert_outcomes(passed=4)  # the one answer: the judge's first
    entries = json.loads((pytester.path / "llmfaith_recordings" / "test_same.json").read_text())["entries"]
    assert len(entries) == 2
    assert all(e["tests"] == [f"test_same_request[{i}]" for i in range(4)] for e in entries.values())

    shutil.rmtree(pytester.path / ".llmfaith_cache")  # a fresh clone: the recordings alone
    server.requests.clear()
    replayed = run_n4("replay")
    replayed.assert_outcomes(passed=4)  # what was recorded is what replays
    assert server.requests == []


def test_threads_of_one_test_asking_one_key_share_one_answer(pytester, server) -> None:
    """Three gathered checks of one output in one process: one request per step."""
    server.facts(changing={CLAIM: ["yes", "unsure"]})
    server.script.latency = 0.3
    pytester.makepyfile(test_a=HEADER + """
import asyncio
from pytest_llmfaith import assert_faithful_async

@pytest.mark.anyio
async def test_gathered():
    results = await asyncio.gather(*(assert_faithful_async("Tesla was founded in 2003.", CTX, min_score=0.5)
                                     for _ in range(3)))
    assert [r.score for r in results] == [1.0, 1.0, 1.0]
""")
    result = run(pytester, server, "-p", "anyio", "-k", "asyncio", cache="use")
    result.assert_outcomes(passed=1)
    assert [c["step"] for c in server.calls()] == ["claims", "verdicts"]
