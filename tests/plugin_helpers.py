"""Shared by the plugin's end-to-end tests: inner pytest runs (pytester, in-process) against the
loopback judge, and how to read their llmfaith section.

The judge server lives in the outer process and is scripted before each inner run; the inner run
reaches it through --llm-judge-api-base. A test module imports the two autouse fixtures below to
have them apply (`from plugin_helpers import _clean_env, ...  # noqa: F401`). Runs that need a
fresh interpreter (xdist workers, "litellm is never imported") are in test_plugin_subprocess.py.
"""

from __future__ import annotations

import os
import re
import tempfile

import pytest

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


def judge_args(server, cache: str = "off") -> list[str]:
    return ["--llm-judge-model=openai/test-judge", f"--llm-judge-api-base={server.url}", f"--llm-cache={cache}"]


def run(pytester: pytest.Pytester, server, *args: str, cache: str = "off") -> pytest.RunResult:
    return pytester.runpytest(*judge_args(server, cache), *args)


def section(result: pytest.RunResult) -> list[str]:
    """The lines of the llmfaith terminal section (up to the next pytest section)."""
    lines = result.outlines
    starts = [i for i, line in enumerate(lines) if "llmfaith: LLM judge scores" in line]
    assert len(starts) == 1, result.stdout.str()
    out = []
    for line in lines[starts[0] + 1:]:
        if line.startswith("=") and line.endswith("="):
            break
        if line.strip():
            out.append(line)
    return out


ROW = re.compile(r"^(\S+::\S+(?: \[[^\]]*\])?(?: #\d+)?) +((?:faith|halluc).*)$")


def rows(result: pytest.RunResult) -> list[list[str]]:
    """The table rows of the llmfaith section: the test (id, label, #n), then the cells split on
    whitespace ("NO THRESHOLD" stays one cell)."""
    matches = [ROW.match(line) for line in section(result)]
    return [[m.group(1), *m.group(2).replace("NO THRESHOLD", "NO_THRESHOLD").split()] for m in matches if m]


@pytest.fixture(scope="module", autouse=True)
def _litellm_warmed_up_in_the_outer_process(judge_server) -> None:
    """Import litellm and exercise its answer and error paths here, before any inner run does.

    pytester's in-process runs undo what an inner run imported. litellm imports the
    importlib_metadata backport, which deletes the stdlib PathFinder.find_distributions and puts
    its own finder on sys.meta_path: restored, that leaves no pytest11 entry points, so later
    inner runs would not load the plugin. And litellm submodules imported lazily inside one inner
    run (error mapping) would be re-imported by the next with new exception classes.
    """
    from pytest_llmfaith import Faithfulness, Judge, JudgeCache, JudgeConfig, JudgeError

    judge = Judge(JudgeConfig(model="openai/test-judge", api_base=judge_server.url, retries=0, timeout=0.3),
                  JudgeCache(None, "off"))
    judge_server.reset()
    Faithfulness(judge).run("Tesla was founded in 2003.", ["Tesla was founded in 2003."])
    for fault in ("500", "delay", "malformed"):
        judge_server.fail(fault, times=3, seconds=1)
        with pytest.raises(JudgeError):
            Faithfulness(judge).run("Tesla was founded in 2003.", ["Tesla was founded in 2003."])
        judge_server.reset()


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in [*(n for n in os.environ if n.startswith("LLMFAITH_")), "GITHUB_STEP_SUMMARY", "NO_COLOR",
                 "FORCE_COLOR", "PY_COLORS", "PYTEST_ADDOPTS"]:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("COLUMNS", "160")  # full test ids in the table; the 80-column layout has its own test
    # In-process runs reuse the litellm this process imported; a relay per test would cost an import
    # each. The relay's own tests (test_relay.py, and the xdist runs here that ask for it) turn it on.
    monkeypatch.setenv("LLMFAITH_JUDGE_RELAY", "off")
    monkeypatch.setenv("LLMFAITH_RELAY_IDLE_TIMEOUT", "0")  # as in conftest.py
