"""Shared fixtures: one loopback judge server per test session, re-scripted for every test; the
in-process fake judge; and the environment of the plugin's inner pytest runs (applied to
tests/plugin/ and tests/cli/ by their conftest.py)."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
# The judge relays of the runs these tests start end with their runs (not 120 s later), unless a
# test asks otherwise (tests/relay/ tests the warm relay; tests/local/ keeps the offline judge's
# server warm between its runs, as by default).
os.environ["LLMFAITH_IDLE_TIMEOUT"] = "0"
# No test reads or writes the user's real home or cache: HOME and the XDG folders are a temporary
# folder's for the whole session (user_folders.py), and the offline judge's installed runtime and
# weights are linked into it, so the real-model tests still find them.
from user_folders import REAL, guard_real_folders, move_user_folders  # noqa: E402

move_user_folders()
# Under `pytest -n`, this process is an xdist worker: the runs pytester starts are not its workers.
for _name in ("PYTEST_XDIST_WORKER", "PYTEST_XDIST_WORKER_COUNT", "PYTEST_XDIST_TESTRUNUID"):
    os.environ.pop(_name, None)

from cases import TESLA_JUDGED  # noqa: E402
from fake_transport import FakeTransport  # noqa: E402
from judge_server import JudgeServer  # noqa: E402

from pytest_llmfaith import Faithfulness, Judge, JudgeCache, JudgeConfig, JudgeError  # noqa: E402


@pytest.fixture(autouse=True)
def _real_user_folders_untouched() -> Iterator[None]:
    """Fails the test that wrote into the user's real home, cache, config or data folder (what
    pytest-llmfaith keeps there: user_folders.py)."""
    with guard_real_folders(REAL):
        yield


@pytest.fixture(scope="session")
def judge_server() -> Iterator[JudgeServer]:
    with JudgeServer() as server:
        yield server


@pytest.fixture
def server(judge_server: JudgeServer) -> Iterator[JudgeServer]:
    """The loopback judge, with an empty script and no queued faults."""
    judge_server.reset()
    yield judge_server
    judge_server.reset()


def _judge_maker(tmp_path: Path, transport: FakeTransport | None, **base: object):
    def make(cache: str = "off", cache_dir: Path | None = None, **config: object) -> Judge:
        settings = {"model": "openai/test-judge", "backoff_s": 0.01, **base, **config}
        return Judge(JudgeConfig(**settings), JudgeCache(cache_dir or tmp_path / "cache", cache), transport=transport)

    return make


@pytest.fixture
def make_judge(server: JudgeServer, tmp_path: Path):
    """Build a Judge that talks to the loopback server over HTTP, through litellm (cache off unless
    a mode is given)."""
    return _judge_maker(tmp_path, None, api_base=server.url)


@pytest.fixture
def fake() -> FakeTransport:
    """The scripted judge in process (tests/fake_transport.py), with an empty script."""
    return FakeTransport()


@pytest.fixture
def make_fake_judge(fake: FakeTransport, tmp_path: Path):
    """Build a Judge that asks `fake` in process: no socket, no litellm (same arguments as make_judge)."""
    return _judge_maker(tmp_path, fake)


@pytest.fixture
def tesla_fake(fake: FakeTransport) -> FakeTransport:
    """The in-process judge scripted with TESLA_JUDGED (cases.py)."""
    fake.facts(**TESLA_JUDGED)
    return fake


@pytest.fixture
def tesla_server(server: JudgeServer) -> JudgeServer:
    """The HTTP judge scripted with TESLA_JUDGED, for what a request must carry on the wire."""
    server.facts(**TESLA_JUDGED)
    return server


@pytest.fixture(scope="module")
def litellm_warmed_up(judge_server: JudgeServer) -> None:
    """Import litellm and exercise its answer and error paths here, before any inner run does.

    pytester's in-process runs undo what an inner run imported. litellm imports the
    importlib_metadata backport, which deletes the stdlib PathFinder.find_distributions and puts
    its own finder on sys.meta_path: restored, that leaves no pytest11 entry points, so later
    inner runs would not load the plugin. And litellm submodules imported lazily inside one inner
    run (error mapping) would be re-imported by the next with new exception classes.
    """
    judge = Judge(JudgeConfig(model="openai/test-judge", api_base=judge_server.url, retries=0, timeout=0.3),
                  JudgeCache(None, "off"))
    judge_server.reset()
    Faithfulness(judge).run("Tesla was founded in 2003.", ["Tesla was founded in 2003."])
    for fault in ("500", "delay", "malformed"):
        judge_server.fail(fault, times=3, seconds=1)
        with pytest.raises(JudgeError):
            Faithfulness(judge).run("Tesla was founded in 2003.", ["Tesla was founded in 2003."])
        judge_server.reset()


@pytest.fixture
def clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    """The inner runs see only the llmfaith settings their test gives, not the caller's."""
    for name in [*(n for n in os.environ if n.startswith("LLMFAITH_")), "GITHUB_STEP_SUMMARY", "NO_COLOR",
                 "FORCE_COLOR", "PY_COLORS", "PYTEST_ADDOPTS"]:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("COLUMNS", "160")  # full test ids in the table; the 80-column layout has its own test
    # In-process runs reuse the litellm this process imported; a relay per test would cost an import
    # each. The relay's own tests (tests/relay/, tests/subprocess_runs/) leave it on.
    monkeypatch.setenv("LLMFAITH_JUDGE_RELAY", "off")
    monkeypatch.setenv("LLMFAITH_IDLE_TIMEOUT", "0")  # as above
