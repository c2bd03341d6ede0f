"""A server's identity, its logs, and what a judge does when it dies: with the fake server
process (tests/local/fake_judge_server.py), so no llama.cpp or weights are needed."""

from __future__ import annotations

import json
import os
import signal
import time
import urllib.request
from collections.abc import Callable, Iterator

import pytest

from pytest_llmfaith.local import LocalModel, ensure_server, shutdown_server
from pytest_llmfaith.local.launcher import run_files, server_alive

NO_PROXY = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def health(base: str) -> dict:
    with NO_PROXY.open(base.removesuffix("/v1") + "/health", timeout=5) as response:
        return json.loads(response.read())


def wait_dead(pid: int) -> None:
    deadline = time.monotonic() + 10
    while server_alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not server_alive(pid)


@pytest.fixture
def stop_all(fake_runtime: Callable[[str], None], fake_model: LocalModel) -> Iterator[list[str]]:
    """The runtimes a test used; their servers are stopped afterwards."""
    used: list[str] = ["runtime-a"]
    yield used
    for runtime in used:
        fake_runtime(runtime)
        shutdown_server(fake_model, force=True)


def test_two_runtimes_get_two_servers_and_stop_ends_only_its_own(
    fake_runtime: Callable[[str], None], fake_model: LocalModel, stop_all: list[str]
) -> None:
    base_a = ensure_server(fake_model)
    fake_runtime("runtime-b")
    stop_all.append("runtime-b")
    base_b = ensure_server(fake_model)
    assert base_b != base_a
    assert health(base_a)["runtime"] == "runtime-a" and health(base_b)["runtime"] == "runtime-b"

    shutdown_server(fake_model, force=True)  # `python -m pytest_llmfaith.local stop` from checkout b
    fake_runtime("runtime-a")
    assert ensure_server(fake_model) == base_a
    assert health(base_a)["pid"] == run_files(fake_model).read().pid


def test_a_dead_servers_log_survives_its_successor(
    fake_runtime: Callable[[str], None], fake_model: LocalModel, stop_all: list[str]
) -> None:
    files = run_files(fake_model)
    ensure_server(fake_model)
    first = files.read()
    os.kill(first.pid, signal.SIGKILL)
    wait_dead(first.pid)
    ensure_server(fake_model)
    second = files.read()
    assert second.pid != first.pid
    assert f"serving on 127.0.0.1:{first.port}" in files.log_of(first.pid).read_text()
    assert f"serving on 127.0.0.1:{second.port}" in files.log_of(second.pid).read_text()
