"""Shared by the plugin's end-to-end tests: inner pytest runs (pytester, in-process) against the
loopback judge, and how to read their llmfaith section.

The judge server lives in the outer process and is scripted before each inner run; the inner run
reaches it through --llm-judge-api-base. The environment those runs need (`clean_env`,
`litellm_warmed_up`, tests/conftest.py) applies to every test of tests/plugin/ and tests/cli/ through
their conftest.py. Runs that need a fresh interpreter and the environment as given (xdist workers,
"litellm is never imported", other platforms) are in tests/subprocess_runs/.
"""

from __future__ import annotations

import re
import tempfile
import time

import pytest

from pytest_llmfaith.processes.children import child_alive

TESLA_FACTS = {
    "supported": ["Tesla was founded in 2003.", "The first Tesla car was the Roadster.",
                  "Elon Musk joined Tesla in 2004."],
    "contradicted": ["Elon Musk founded Tesla."],
}
# claims are sentences; supported -> yes/no, contradicted -> no/yes, anything else "not mentioned"
GOOD = "Tesla was founded in 2003. The first Tesla car was the Roadster."  # faith 1.00, hall 0.00
MIXED = "Tesla was founded in 2003. Elon Musk founded Tesla. Tesla is based on Mars."  # faith 0.33, hall 0.67
HALF = "Tesla was founded in 2003. Elon Musk founded Tesla."  # faith 0.50, hall 0.50

HEADER = f'''
import pytest
from pytest_llmfaith import assert_faithful, assert_not_hallucinated
CTX = ["Tesla was founded in 2003.", "Elon Musk joined Tesla in 2004.", "The first Tesla car was the Roadster."]
GOOD = {GOOD!r}
MIXED = {MIXED!r}
HALF = {HALF!r}
'''
# Two inner tests: GOOD passes, HALF passes at its limit (recorded and replayed by several modules).
SUITE = HEADER + """
def test_good():
    assert_faithful(GOOD, CTX)

def test_half():
    assert_not_hallucinated(HALF, CTX, max_score=0.5)
"""

# Inner tests that call all_arrive(i) first start their judge work at the same moment, one per
# xdist worker (BARRIER_DIR: an empty folder per run; WARM_LITELLM: import litellm before).
ALL_ARRIVE = """
import os
import time
from pathlib import Path


def all_arrive(i, workers=4):
    if os.environ.get("WARM_LITELLM"):
        from pytest_llmfaith.judge.transport import import_litellm

        import_litellm()
    barrier = Path(os.environ["BARRIER_DIR"])
    (barrier / str(i)).touch()
    deadline = time.monotonic() + 120
    while len(list(barrier.iterdir())) < workers and time.monotonic() < deadline:
        time.sleep(0.02)
"""


def run_together(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, *args: str,
                 workers: int = 4) -> pytest.RunResult:
    """An xdist run (a subprocess, -n workers) of tests that meet at all_arrive: a new barrier per run."""
    barrier = tempfile.mkdtemp(prefix="barrier-", dir=pytester.path)
    monkeypatch.setenv("BARRIER_DIR", barrier)
    return pytester.runpytest_subprocess("-n", str(workers), "-p", "no:cacheprovider", "-p", "no:randomly",
                                         *args, timeout=300)


def gone(pid: int, within: float = 30.0) -> bool:
    """Whether process `pid` ends within `within` seconds (generous: the machine may be busy)."""
    deadline = time.monotonic() + within
    while child_alive(pid):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def judge_args(server, cache: str = "off") -> list[str]:
    return ["--llm-judge-model=openai/test-judge", f"--llm-judge-api-base={server.url}", f"--llm-cache={cache}"]


def run(pytester: pytest.Pytester, server, *args: str, cache: str = "off") -> pytest.RunResult:
    return pytester.runpytest(*judge_args(server, cache), *args)


def run_suite(pytester: pytest.Pytester, server, *args: str, cache: str = "off", **files: str) -> pytest.RunResult:
    """The usual inner run: the judge scripted with TESLA_FACTS, the test files written (as
    pytester.makepyfile: name=source), then `run` with `args`."""
    server.facts(**TESLA_FACTS)
    pytester.makepyfile(**files)
    return run(pytester, server, *args, cache=cache)


def section(result: pytest.RunResult) -> list[str]:
    """The lines of the llmfaith terminal section (up to the next pytest section)."""
    lines = result.outlines
    starts = [i for i, line in enumerate(lines) if "llmfaith: LLM judge scores" in line]
    assert len(starts) == 1, result.stdout.str()
    out = []
    for line in lines[starts[0] + 1:]:
        if line.startswith("=") and line.endswith("="):
            break
        if line.strip() and not line.startswith("llmfaith wrote "):  # the files a run wrote: asserted apart
            out.append(line)
    return out


ROW = re.compile(r"^(\S+::\S+(?: \[[^\]]*\])?(?: #\d+)?) +((?:faith|halluc).*)$")


def rows(result: pytest.RunResult) -> list[list[str]]:
    """The table rows of the llmfaith section: the test (id, label, #n), then the cells split on
    whitespace ("NO THRESHOLD" stays one cell)."""
    matches = [ROW.match(line) for line in section(result)]
    return [[m.group(1), *m.group(2).replace("NO THRESHOLD", "NO_THRESHOLD").split()] for m in matches if m]
