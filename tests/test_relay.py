"""The judge relay (relay.py, relay_server.py): one process per run makes every judge call of the run.

Runs are fresh interpreters (pytester.runpytest_subprocess or subprocess) against the loopback judge
of this process, each with a private temporary folder, so its relays are the only ones seen. Every
relay started costs one litellm import (~5 s).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
import time
import urllib.error
from pathlib import Path

import pytest

from pytest_llmfaith import CompletionRequest, JudgeConfig, JudgeError
from pytest_llmfaith.errors import RelayError
from pytest_llmfaith.processes import child_alive, pid_alive, request_json
from pytest_llmfaith.relay import RelayClient, RelayRun, RelayTransport, stop_run
from pytest_llmfaith.transport import LiteLLMTransport

pytest.importorskip("xdist")

FACTS = ["Tesla was founded in 2003.", "The first Tesla car was the Roadster."]
GOOD = " ".join(FACTS)
HEADER = f'''
import os, signal, threading, time
import pytest
from pytest_llmfaith import assert_faithful
CTX = {FACTS!r}
GOOD = {GOOD!r}
'''
SUITE = HEADER + '''
@pytest.mark.parametrize("i", range({n}))
def test_grounded(i):
    assert_faithful(GOOD, CTX)
'''
PLAIN = '''
def test_plain():
    assert 1 + 1 == 2
'''
# Each process notes whether it imported litellm; the controller lists the run's relay folders
# before its relay is stopped (at unconfigure).
HOOKS = '''
import os, sys
from pytest_llmfaith.processes import relay_root

def pytest_sessionfinish(session):
    if not hasattr(session.config, "workerinput"):
        runs = sorted(p.name for p in relay_root().glob("run-*")) if relay_root().is_dir() else []
        with open("relay-runs.txt", "w") as fh:
            fh.write(" ".join(runs))

def pytest_unconfigure(config):
    with open(f"litellm-{os.environ.get('PYTEST_XDIST_WORKER', 'controller')}.txt", "w") as fh:
        fh.write(str("litellm" in sys.modules))
'''
RELAY_LINE = re.compile(r"llmfaith judge relay: pid (\d+) made (\d+) judge requests for (\d+) process\(es\), "
                        r"at most (\d+) at once; litellm imported 1 time\(s\) in the run")


@pytest.fixture
def relay_root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A private temporary folder for this test and the runs it starts: its relays are the only ones."""
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    monkeypatch.setenv("TMPDIR", str(tmp))
    monkeypatch.setattr(tempfile, "tempdir", str(tmp))
    return tmp / f"llmfaith-relay-{os.getuid()}"


def judge_args(server, cache: str = "off") -> list[str]:
    return ["-p", "no:cacheprovider", "--llm-judge-model=openai/test-judge", f"--llm-judge-api-base={server.url}",
            f"--llm-cache={cache}"]


def relay_line(result: pytest.RunResult) -> tuple[int, int, int, int]:
    found = RELAY_LINE.search(result.stdout.str())
    assert found, result.stdout.str()
    pid, requests, processes, limit = (int(g) for g in found.groups())
    return pid, requests, processes, limit


def gone(pid: int, within: float = 5.0) -> bool:
    deadline = time.monotonic() + within
    while child_alive(pid):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def no_runs_left(root: Path) -> bool:
    return not root.is_dir() or list(root.iterdir()) == []


def test_under_xdist_one_relay_makes_every_call_and_no_test_process_imports_litellm(
        pytester: pytest.Pytester, server, relay_root: Path) -> None:
    server.facts(supported=FACTS)
    pytester.makepyfile(test_suite=SUITE.format(n=6))
    pytester.makeconftest(HOOKS)
    result = pytester.runpytest_subprocess("-n", "2", *judge_args(server), timeout=600)
    result.assert_outcomes(passed=6)
    pid, requests, processes, limit = relay_line(result)
    assert requests == len(server.requests) == 12 and processes == 2 and limit == 8
    flags = {p.name: p.read_text() for p in pytester.path.glob("litellm-*.txt")}
    assert flags == {"litellm-controller.txt": "False", "litellm-gw0.txt": "False", "litellm-gw1.txt": "False"}
    assert (pytester.path / "relay-runs.txt").read_text().startswith("run-")
    assert gone(pid) and no_runs_left(relay_root)  # the run's end stops it and removes its folder


def test_a_run_that_never_calls_the_judge_starts_no_relay(pytester: pytest.Pytester, server, relay_root: Path) -> None:
    server.facts(supported=FACTS)
    pytester.makepyfile(test_suite=SUITE.format(n=2))
    pytester.makeconftest(HOOKS)
    pytester.runpytest_subprocess("-n", "2", *judge_args(server, "use"), timeout=600).assert_outcomes(passed=2)
    recorded = len(server.requests)
    pytester.makepyfile(test_plain=PLAIN)
    cached = pytester.runpytest_subprocess("-n", "2", *judge_args(server, "use"), timeout=600)  # all cached
    cached.assert_outcomes(passed=3)
    assert len(server.requests) == recorded and "judge relay" not in cached.stdout.str()
    assert (pytester.path / "relay-runs.txt").read_text() == ""
    plain = pytester.runpytest_subprocess("-n", "2", "-k", "plain", *judge_args(server, "off"), timeout=600)
    plain.assert_outcomes(passed=1)
    assert (pytester.path / "relay-runs.txt").read_text() == ""
    assert {p.read_text() for p in pytester.path.glob("litellm-*.txt")} == {"False"}


KILLED = HEADER + '''
from pytest_llmfaith.processes import child_alive
from pytest_llmfaith.session import active_session

def relay():
    return active_session().relay().address()

def test_a_first_call_starts_the_relay():
    assert_faithful(GOOD, CTX)

def test_b_relay_killed_during_a_call():
    threading.Timer(0.3, os.kill, [relay().pid, signal.SIGKILL]).start()
    assert_faithful(GOOD, CTX)  # the judge takes 0.8 s: the call is in flight

def test_c_the_next_call_starts_a_new_relay():
    assert_faithful(GOOD, CTX)

def test_d_killed_again_and_its_port_taken():
    import socket
    state = relay()
    os.kill(state.pid, signal.SIGKILL)
    while child_alive(state.pid):
        time.sleep(0.01)
    impostor = socket.socket()
    impostor.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    impostor.bind(("127.0.0.1", state.port))
    impostor.listen()
    impostor.setblocking(False)
    try:
        assert_faithful(GOOD, CTX)
    finally:
        try:
            impostor.accept()
            open("impostor-contacted.txt", "w").close()
        except BlockingIOError:
            pass
        impostor.close()

def test_e_then_every_call_fails_at_once():
    assert_faithful(GOOD, CTX)
'''


def test_a_killed_relay_fails_its_call_with_the_cause_is_restarted_once_then_ends_the_runs_calls(
        pytester: pytest.Pytester, server, relay_root: Path) -> None:
    server.facts(supported=FACTS)
    server.script.latency = 0.8
    pytester.makepyfile(test_killed=KILLED)
    result = pytester.runpytest_subprocess("--llm-judge-relay=on", *judge_args(server), timeout=600)
    result.assert_outcomes(passed=2, errors=3)  # an error, never a pass
    text = result.stdout.str()
    assert "the judge relay died during the judge call at step 'claims', so that call has no answer" in text
    assert "the next judge call starts a new relay" in text
    assert re.search(r"The judge relay \(pid \d+\) was killed by signal SIGKILL", text)
    assert "out-of-memory killer" in text and "--llm-judge-relay=off" in text
    again = "died again after its restart, before the judge call at step 'claims'"
    assert text.count(again) >= 2  # test_d, and test_e at once with the same message
    # a and c: claims and verdicts; b: its claims request, if it got that far; d and e: nothing
    assert len(server.calls("verdicts")) == 2 and len(server.calls("claims")) in (2, 3)
    assert not (pytester.path / "impostor-contacted.txt").exists()  # the dead relay's port is never trusted
    assert no_runs_left(relay_root)


TWO_RUNS = HEADER + '''
def test_one():
    assert_faithful(GOOD, CTX)
    time.sleep(1.0)  # the other run is going on meanwhile

def test_two():
    assert_faithful(GOOD, CTX)
'''


def test_two_runs_at_once_each_have_their_own_relay(tmp_path: Path, server, relay_root: Path) -> None:
    server.facts(supported=FACTS)
    runs = []
    for name, extra in (("a", ["-n", "2"]), ("b", ["--llm-judge-relay=on"])):
        folder = tmp_path / name
        folder.mkdir()
        (folder / "pytest.ini").write_text("[pytest]\n")
        (folder / "test_two.py").write_text(TWO_RUNS)
        runs.append(subprocess.Popen([sys.executable, "-m", "pytest", *extra, *judge_args(server)], cwd=folder,
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True))
    outputs = [proc.communicate(timeout=600)[0] for proc in runs]
    pids = []
    for output in outputs:
        assert "2 passed" in output, output
        found = RELAY_LINE.search(output)
        assert found, output
        pids.append(int(found.group(1)))
        assert int(found.group(2)) == 4  # its own run's calls only
    assert pids[0] != pids[1]
    assert all(gone(pid) for pid in pids) and no_runs_left(relay_root)


RATE_LIMITED = HEADER + '''
@pytest.mark.parametrize("i", range(16))
def test_grounded(i):
    assert_faithful(GOOD + f" Claim {i}.", CTX, min_score=0.6)
'''


def test_a_429_makes_every_worker_wait_then_the_run_passes(pytester: pytest.Pytester, server, relay_root) -> None:
    server.facts(supported=FACTS)
    server.script.latency = 0.1
    server.fail("429", step="verdicts", seconds=1.0)
    pytester.makepyfile(test_limited=RATE_LIMITED)
    result = pytester.runpytest_subprocess("-n", "2", *judge_args(server), timeout=600)
    result.assert_outcomes(passed=16)
    times = sorted(r["t"] for r in server.requests)
    limited = next(r["t"] for r in server.requests if r["step"] == "verdicts")  # the 429
    held = [t - limited for t in times if limited + 0.3 < t < limited + 0.95]
    assert held == [], f"requests sent while the judge's Retry-After was running: {held}"
    assert len(times) == 33 and times[-1] > limited + 1.0  # 16 x 2, and the retried one


def test_one_concurrency_limit_holds_for_all_workers(pytester: pytest.Pytester, server, relay_root) -> None:
    server.facts(supported=FACTS)
    server.script.latency = 0.2
    pytester.makepyfile(test_suite=SUITE.format(n=4))
    result = pytester.runpytest_subprocess("-n", "2", "--llm-judge-concurrency=1", *judge_args(server), timeout=600)
    result.assert_outcomes(passed=4)
    assert relay_line(result)[3] == 1
    times = sorted(r["t"] for r in server.requests)
    gaps = [round(b - a, 3) for a, b in zip(times, times[1:])]
    assert len(times) == 8 and min(gaps) >= 0.19, gaps  # one request at a time, across both workers


def test_the_relay_serves_its_run_only_and_returns_judge_errors_unchanged(
        server, relay_root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    secret = "sk-relay-DO-NOT-SHOW-0123456789"
    monkeypatch.setenv("JUDGE_SECRET_KEY", secret)  # the relay inherits the environment of the run
    server.facts(supported=FACTS)
    config = JudgeConfig(model="openai/test-judge", api_base=server.url, api_key_env="JUDGE_SECRET_KEY",
                         retries=0)
    request = CompletionRequest(step="claims", temperature=0.0, messages=[
        {"role": "system", "content": "judge"},
        {"role": "user", "content": f"Split the OUTPUT into atomic claims.\n<output>\n{GOOD}\n</output>"}])
    run = RelayRun(directory=relay_root / f"run-{os.getpid()}-test", owner_pid=os.getpid(), concurrency=2)
    client = RelayClient(run)
    try:
        transport = RelayTransport(client, config)
        assert transport.complete(request).text == LiteLLMTransport(config).complete(request).text
        assert server.requests[0]["headers"]["authorization"] == f"Bearer {secret}"
        state = client.address()
        with pytest.raises(urllib.error.HTTPError) as denied:
            request_json(state.port, "/health")  # no token: another local process
        assert denied.value.code == 403
        messages = []
        for way in (transport, LiteLLMTransport(config)):
            server.fail("401")  # echoes the key it was sent
            with pytest.raises(JudgeError) as failed:
                way.complete(request)
            messages.append((type(failed.value), failed.value.kind, str(failed.value)))
        assert messages[0] == messages[1] and secret not in messages[0][2] and "AuthenticationError" in messages[0][2]

        env = {**os.environ, "TMPDIR": str(relay_root.parent)}
        status = subprocess.run([sys.executable, "-m", "pytest_llmfaith", "relay", "status"], env=env,
                                capture_output=True, text=True, timeout=60)
        assert (f"pid {state.pid}  127.0.0.1:{state.port}  run of pid {os.getpid()}  2 requests from 1 "
                "process(es)") in status.stdout, status.stdout
        stop = subprocess.run([sys.executable, "-m", "pytest_llmfaith", "relay", "stop"], env=env,
                              capture_output=True, text=True, timeout=60)
        assert f"stopped the judge relay of run run-{os.getpid()}-test (pid {state.pid})" in stop.stdout
        assert gone(state.pid) and no_runs_left(relay_root)
        with pytest.raises(RelayError, match="it was stopped") as stopped:
            transport.complete(request)
        assert "the next judge call starts a new relay" in str(stopped.value)
    finally:
        stop_run(run.directory)


def test_a_crashed_run_does_not_leave_its_relay_behind(tmp_path: Path, server, relay_root: Path) -> None:
    server.facts(supported=FACTS)
    (tmp_path / "pytest.ini").write_text("[pytest]\n")
    (tmp_path / "test_hang.py").write_text(HEADER + '''
def test_called_then_hangs():
    assert_faithful(GOOD, CTX)
    open("called.txt", "w").close()
    time.sleep(120)
''')
    proc = subprocess.Popen([sys.executable, "-m", "pytest", "--llm-judge-relay=on", *judge_args(server)],
                            cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 600
        while not (tmp_path / "called.txt").exists():
            assert time.monotonic() < deadline and proc.poll() is None
            time.sleep(0.1)
        (state_file,) = relay_root.glob("run-*/relay.json")
        relay_pid = int(re.search(r'"pid":\s*(\d+)', state_file.read_text()).group(1))
        assert pid_alive(relay_pid)
    finally:
        proc.kill()  # the run crashes: no unconfigure, no shutdown request
        proc.wait()
    assert gone(relay_pid, within=3.0)  # it watches the run's process
    deadline = time.monotonic() + 3
    while not no_runs_left(relay_root) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert no_runs_left(relay_root)


def test_a_relay_folder_open_to_others_is_refused(relay_root: Path) -> None:
    relay_root.mkdir()
    relay_root.chmod(0o755)
    client = RelayClient(RelayRun(directory=relay_root / "run-1-x", owner_pid=os.getpid(), concurrency=1))
    client.prewarm()  # in the background: silent, the first call says it
    with pytest.raises(RelayError, match=r"open to others \(mode 755\).*Fix: remove it, or point TMPDIR elsewhere"):
        client.address()
    assert list(relay_root.iterdir()) == []
