"""A server's identity, and what a judge does when it dies: with the fake server process
(tests/local/fake_judge_server.py), so no llama.cpp or weights are needed. How a service is
found, started, leased, watched and replaced is the kit's (tests/processes/)."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from pytest_llmfaith import Judge, JudgeCache, JudgeConfig, JudgeError
from pytest_llmfaith.local.launcher import ensure_server, run_files, shutdown_server
from pytest_llmfaith.local.weights import LocalModel
from pytest_llmfaith.processes.children import child_alive

NO_PROXY = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def health(base: str) -> dict:
    with NO_PROXY.open(base.removesuffix("/v1") + "/health", timeout=5) as response:
        return json.loads(response.read())


def wait_dead(pid: int) -> None:
    deadline = time.monotonic() + 10
    while child_alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not child_alive(pid)


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

    shutdown_server(fake_model, force=True)  # `python -m pytest_llmfaith local stop` from checkout b
    fake_runtime("runtime-a")
    assert ensure_server(fake_model) == base_a
    assert health(base_a)["pid"] == run_files(fake_model).read().pid


class Recorder:
    """A progress sink that remembers the offline judge's loads."""

    def __init__(self) -> None:
        self.loads: list[bool] = []  # True: started loading; False: ready

    @contextlib.contextmanager
    def call(self, step: str, index: int, total: int) -> Iterator[None]:
        yield

    def judge_loading(self, model: str, seconds: float | None) -> None:
        self.loads.append(seconds is None)


def local_judge(model: LocalModel) -> Judge:
    """A judge on the fake server; retries=0, so a restart cannot hide behind a retry."""
    return Judge(JudgeConfig(model=f"local:{model.path}", retries=0), JudgeCache(None, "off"))


def ask(judge: Judge, text: str) -> object:
    messages = [{"role": "system", "content": "judge"}, {"role": "user", "content": text}]
    return judge.ask("claims", messages, None, "v1")[0]


@pytest.mark.skipif(sys.platform == "win32", reason="kills with POSIX signals and reads them in the exit status")
@pytest.mark.parametrize(("sig", "fix", "log"), [
    (signal.SIGKILL, "out-of-memory killer", "serving on 127.0.0.1:{port}"),
    (signal.SIGSEGV, "make clean install", "Fatal Python error: Segmentation fault"),  # faulthandler
])
def test_a_killed_server_is_restarted_once_then_named(
    fake_runtime: Callable[[str], None], fake_model: LocalModel, stop_all: list[str],
    sig: signal.Signals, fix: str, log: str,
) -> None:
    judge, progress = local_judge(fake_model), Recorder()
    judge.progress = progress
    assert ask(judge, "first") == "ok"
    first = run_files(fake_model).read()
    os.kill(first.pid, sig)
    wait_dead(first.pid)
    assert ask(judge, "second") == "ok"  # the next call restarts it
    second = run_files(fake_model).read()
    assert second.pid != first.pid
    assert progress.loads == [True, False, True, False]

    os.kill(second.pid, sig)
    wait_dead(second.pid)
    with pytest.raises(JudgeError) as caught:
        ask(judge, "third")
    message = str(caught.value)
    for server in (first, second):
        assert f"server (pid {server.pid}) was killed by signal {sig.name}" in message
        assert log.format(port=server.port) in message  # the end of each one's log
    assert fix in message and "--llm-judge-api-base" not in message
    assert progress.loads == [True, False, True, False]  # not restarted a second time
    judge.close()


@pytest.mark.skipif(sys.platform == "win32", reason="kills with POSIX signals and reads them in the exit status")
def test_a_crash_during_a_call_is_named_with_the_runtime_fix(
    fake_runtime: Callable[[str], None], fake_model: LocalModel, stop_all: list[str]
) -> None:
    judge = local_judge(fake_model)
    assert ask(judge, "first") == "ok"
    with pytest.raises(JudgeError) as caught:
        ask(judge, "SEGFAULT")  # kills the server, and its replacement on the retry
    message = str(caught.value)
    assert message.count("was killed by signal SIGSEGV") == 2
    assert "at step 'claims'" in message
    assert message.count("Fatal Python error: Segmentation fault") == 2  # faulthandler, in each log
    assert "make clean install" in message and "--llm-judge-api-base" not in message
    assert caught.value.__context__ is None  # pytest shows this message, not litellm's traceback
    with pytest.raises(JudgeError, match="not restarted again"):
        ask(judge, "after")  # fails at once: no third server
    assert run_files(fake_model).read() is None or not child_alive(run_files(fake_model).read().pid)
    judge.close()


def test_the_offline_judge_asks_a_claims_contradiction_question_straight_after_its_support_question(
    fake_runtime: Callable[[str], None], fake_model: LocalModel, stop_all: list[str],
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The two questions share every token but the question's: asked back to back, the second
    reads only the question (the engine keeps the longest matching prefix)."""
    from pytest_llmfaith.scorers import labels

    log = tmp_path / "engine.log"
    monkeypatch.setenv("FAKE_ENGINE_LOG", str(log))
    judge = Judge(JudgeConfig(model=f"local:{fake_model.path}"), JudgeCache(None, "off"))
    from pytest_llmfaith.scorers.claims import Judged

    found, calls, _ = labels.judge_claims(judge, [Judged.whole_sentence(c) for c in ("Acme has 40 staff.",
                                                                                      "Acme is in Oslo.")],
                                          ["Acme has 400 staff. Acme is based in Bergen."], [False, False])
    asked = log.read_text().splitlines()
    assert [line.split(" | ")[1] for line in asked] == ["Acme has 40 staff."] * 2 + ["Acme is in Oslo."] * 2
    assert ["contradict" in line.split(" | ")[0] for line in asked] == [False, True, False, True]
    assert len(calls) == 4
    assert [(round(f.p_supported, 3), round(f.p_contradicted or 0, 3)) for f in found] == [(0.1, 0.1)] * 2
