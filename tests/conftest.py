"""Shared fixtures: one loopback judge server per test session, re-scripted for every test."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
# The judge relays of the runs these tests start end with their runs (not 120 s later), unless a
# test asks otherwise (test_relay.py tests the warm relay).
os.environ["LLMFAITH_RELAY_IDLE_TIMEOUT"] = "0"

from judge_server import JudgeServer  # noqa: E402

from pytest_llmfaith import Judge, JudgeCache, JudgeConfig  # noqa: E402


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


@pytest.fixture
def make_judge(server: JudgeServer, tmp_path: Path):
    """Build a Judge that talks to the loopback server (cache off unless a mode is given)."""

    def make(cache: str = "off", cache_dir: Path | None = None, **config: object) -> Judge:
        settings = {"model": "openai/test-judge", "api_base": server.url, "backoff_s": 0.01, **config}
        return Judge(JudgeConfig(**settings), JudgeCache(cache_dir or tmp_path / "cache", cache))

    return make
