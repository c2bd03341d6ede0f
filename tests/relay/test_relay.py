"""The judge relay (relay/relay_client.py, relay/relay_server.py): one warm process makes every
judge call of a run, and of the next runs within its idle timeout. How it is found, started, leased, retired and
replaced is the kit's, tested on a service of its own (tests/processes/).

Runs are fresh interpreters (pytester.runpytest_subprocess or subprocess) against the loopback judge
of this process, each with a private temporary folder, so its relays are the only ones seen. Every
relay started costs one litellm import (~5 s). conftest.py sets LLMFAITH_IDLE_TIMEOUT=0 (a
relay ends with its run); the tests of the warm relay set their own.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from judge_server import JudgeServer
from plugin_helpers import gone, rows

from pytest_llmfaith import CompletionRequest, JudgeConfig, JudgeError
from pytest_llmfaith.errors import RelayError
from pytest_llmfaith.judge.transport import LiteLLMTransport
from pytest_llmfaith.processes.capabilities import user_tag
from pytest_llmfaith.processes.children import pid_alive
from pytest_llmfaith.processes.loopback import LoopbackError, request_json
from pytest_llmfaith.processes.service import KILLED_UNSEEN
from pytest_llmfaith.relay.identity import environment_fingerprint
from pytest_llmfaith.relay.relay_client import RelayClient, RelayTransport, detach, health
from pytest_llmfaith.relay.relay_command import stop, summary
from pytest_llmfaith.relay.relay_server import RelayServer
from pytest_llmfaith.relay.wire import RelayCall, RelayRun, RelayStats, relay_files, to_wire

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
# Each process notes whether it imported litellm (named by its config: PYTEST_XDIST_WORKER may come
# from an outer xdist run of these tests).
HOOKS = '''
import sys

def pytest_unconfigure(config):
    name = config.workerinput["workerid"] if hasattr(config, "workerinput") else "controller"
    with open(f"litellm-{name}.txt", "w") as fh:
        fh.write(str("litellm" in sys.modules))
'''
RELAY_LINE = re.compile(r"llmfaith judge relay \(pid (\d+)\): (\d+) judge requests from (\d+) process\(es\), "
                        r"at most (\d+) at once; (started by this run|warm: started by another run)")
STARTED = "started by this run (litellm imported once"
WARM = "warm: started by another run (litellm imported 0 times for this run)"
STOP_HINT = "stop it: python -m pytest_llmfaith relay stop"


# Relay root -> the pids of the relays seen starting there: a relay that idles out removes its
# folder, its log with it, so `relay_root` notes each one while it lives (a relay lives for seconds).
_started: dict[Path, set[int]] = {}


@pytest.fixture
def relay_root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A private temporary folder for this test and the runs it starts: its relays are the only ones."""
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    monkeypatch.setenv("TMPDIR", str(tmp))
    monkeypatch.setattr(tempfile, "tempdir", str(tmp))
    root = tmp / f"llmfaith-relay-{user_tag()}"
    _started[root] = set()
    done = threading.Event()

    def watch() -> None:
        while not done.wait(0.05):
            relays_started(root)

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    yield root
    done.set()
    watcher.join(10)
    del _started[root]


def judge_args(server, cache: str = "off") -> list[str]:
    return ["-p", "no:cacheprovider", "--llm-judge-model=openai/test-judge", f"--llm-judge-api-base={server.url}",
            f"--llm-cache={cache}"]


def relay_line(result: pytest.RunResult) -> tuple[int, int, int, int]:
    found = RELAY_LINE.search(result.stdout.str())
    assert found, result.stdout.str()
    pid, requests, processes, limit = (int(found.group(i)) for i in range(1, 5))
    return pid, requests, processes, limit


def relays_started(root: Path) -> list[int]:
    """The pids of every relay started under `root` (one log each, seen while its folder lived)."""
    seen = _started.setdefault(root, set())
    try:
        seen.update(int(log.name.split(".")[1]) for log in root.glob("warm-*/relay.*.log"))
    except OSError:  # a folder removed while it was listed
        pass
    return sorted(seen)


def no_relay_left(root: Path, within: float = 30.0) -> bool:
    """Every relay started under `root` has exited."""
    return all(gone(pid, within) for pid in relays_started(root))


def stats_of(root: Path) -> RelayStats:
    (folder,) = root.glob("warm-*")
    state = relay_files(folder).read()
    assert state is not None
    stats = health(state)
    assert stats is not None
    return stats


def relay_command(root: Path, command: str) -> str:
    env = {**os.environ, "TMPDIR": str(root.parent)}
    done = subprocess.run([sys.executable, "-m", "pytest_llmfaith", "relay", command], env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_under_xdist_one_relay_makes_every_call_and_no_test_process_imports_litellm(
        pytester: pytest.Pytester, server, relay_root: Path) -> None:
    server.facts(supported=FACTS)
    pytester.makepyfile(test_suite=SUITE.format(n=6))
    pytester.makeconftest(HOOKS)
    result = pytester.runpytest_subprocess("-n", "2", *judge_args(server), timeout=1500)
    result.assert_outcomes(passed=6)
    pid, requests, processes, limit = relay_line(result)
    assert requests == len(server.requests) == 12 and processes == 2 and limit == 8
    flags = {p.name: p.read_text() for p in pytester.path.glob("litellm-*.txt")}
    assert flags == {"litellm-controller.txt": "False", "litellm-gw0.txt": "False", "litellm-gw1.txt": "False"}
    assert relays_started(relay_root) == [pid]
    text = result.stdout.str()
    assert STARTED in text and "it ends with the run (LLMFAITH_IDLE_TIMEOUT=0)" in text and STOP_HINT in text
    assert gone(pid)  # LLMFAITH_IDLE_TIMEOUT=0: it ends with the run


def test_a_run_that_never_calls_the_judge_starts_no_relay(pytester: pytest.Pytester, server, relay_root: Path) -> None:
    server.facts(supported=FACTS)
    pytester.makepyfile(test_suite=SUITE.format(n=2))
    pytester.makeconftest(HOOKS)
    pytester.runpytest_subprocess("-n", "2", *judge_args(server, "use"), timeout=1500).assert_outcomes(passed=2)
    recorded, started = len(server.requests), relays_started(relay_root)
    assert len(started) == 1 and no_relay_left(relay_root)
    pytester.makepyfile(test_plain=PLAIN)
    for args in (["-n", "2"], ["-n", "0"]):
        cached = pytester.runpytest_subprocess(*args, *judge_args(server, "use"), timeout=1500)  # all cached
        cached.assert_outcomes(passed=3)
        assert len(server.requests) == recorded and "judge relay" not in cached.stdout.str()
    plain = pytester.runpytest_subprocess("-n", "2", "-k", "plain", *judge_args(server, "off"), timeout=1500)
    plain.assert_outcomes(passed=1)
    assert relays_started(relay_root) == started
    assert {p.read_text() for p in pytester.path.glob("litellm-*.txt")} == {"False"}


CONTROLLER_MODULES = '''
import sys

def pytest_unconfigure(config):
    if not hasattr(config, "workerinput"):
        with open("controller-modules.txt", "w") as fh:
            fh.write(" ".join(m for m in ("pydantic", "pytest_llmfaith.relay.relay_client") if m in sys.modules))
'''


def test_under_xdist_a_run_that_never_calls_the_judge_names_its_relay_without_pydantic(
        pytester: pytest.Pytester, server, relay_root: Path) -> None:
    """The controller names the run's relay for every worker before they start; a suite that
    never calls the judge must not pay pydantic's import (~0.2 s) for that, nor touch a folder."""
    pytester.makepyfile(test_plain=PLAIN)
    pytester.makeconftest(CONTROLLER_MODULES)
    result = pytester.runpytest_subprocess("-n", "2", *judge_args(server), timeout=1500)
    result.assert_outcomes(passed=1)
    assert (pytester.path / "controller-modules.txt").read_text() == ""
    assert not relay_root.exists() and "judge relay" not in result.stdout.str()


def test_the_next_run_reuses_the_warm_relay_and_imports_nothing(
        pytester: pytest.Pytester, server, relay_root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    server.facts(supported=FACTS)
    monkeypatch.setenv("LLMFAITH_IDLE_TIMEOUT", "600")  # longer than any run here
    pytester.makepyfile(test_suite=SUITE.format(n=2))
    pytester.makeconftest(HOOKS)
    try:
        first = pytester.runpytest_subprocess(*judge_args(server), timeout=1500)  # serial: the relay too
        first.assert_outcomes(passed=2)
        pid = relay_line(first)[0]
        assert STARTED in first.stdout.str() and "it stays up 600 s after the last run" in first.stdout.str()
        assert pid_alive(pid) and stats_of(relay_root).attached == []  # detached, still up
        second = pytester.runpytest_subprocess(*judge_args(server), timeout=1500)
        second.assert_outcomes(passed=2)
        assert relay_line(second)[:2] == (pid, 4) and WARM in second.stdout.str() and STOP_HINT in second.stdout.str()
        assert (pytester.path / "litellm-controller.txt").read_text() == "False"  # the test process never imports it
        stats = stats_of(relay_root)
        assert stats.pid == pid and len(stats.runs) == 2 and relays_started(relay_root) == [pid]
        assert sorted(run.litellm_imports for run in stats.runs.values()) == [0, 1]
        assert sorted(run.requests for run in stats.runs.values()) == [4, 4] and len(server.requests) == 8
    finally:
        relay_command(relay_root, "stop")
    assert gone(pid) and not list(relay_root.glob("warm-*"))


def test_a_run_with_another_api_key_gets_another_relay_and_no_key_is_written(
        pytester: pytest.Pytester, server, relay_root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    server.facts(supported=FACTS)
    monkeypatch.setenv("LLMFAITH_IDLE_TIMEOUT", "600")  # longer than any run here
    pytester.makepyfile(test_suite=SUITE.format(n=1))
    keys = ["sk-first-DO-NOT-SHOW-0123456789", "sk-second-DO-NOT-SHOW-9876543210"]
    pids, outputs = [], []
    try:
        for key in keys:
            monkeypatch.setenv("JUDGE_SECRET_KEY", key)
            result = pytester.runpytest_subprocess(*judge_args(server), "--llm-judge-api-key-env=JUDGE_SECRET_KEY",
                                                   timeout=1500)
            result.assert_outcomes(passed=1)
            pids.append(relay_line(result)[0])
            outputs.append(result.stdout.str() + result.stderr.str())
            assert STARTED in outputs[-1]
        assert pids[0] != pids[1] and all(pid_alive(pid) for pid in pids) and len(list(relay_root.glob("warm-*"))) == 2
        sent = [r["headers"]["authorization"] for r in server.requests]
        assert sent == [f"Bearer {keys[0]}"] * 2 + [f"Bearer {keys[1]}"] * 2  # never the stale key
        written = b"".join(path.read_bytes() for path in relay_root.rglob("*") if path.is_file())
        assert written and not any(key.encode() in written or key in output for key in keys for output in outputs)
    finally:
        relay_command(relay_root, "stop")
    assert all(gone(pid) for pid in pids)


DIED = HEADER + '''
from pytest_llmfaith.plugin.session import active_session

def test_a_first_call_starts_the_relay():
    assert_faithful(GOOD, CTX)

def test_b_relay_killed_during_a_call():
    threading.Timer(0.3, os.kill, [active_session().judges.relay.client().address().pid, signal.SIGKILL]).start()
    assert_faithful(GOOD, CTX)  # the judge takes 0.8 s: the call is in flight

def test_c_the_next_call_starts_a_new_relay():
    assert_faithful(GOOD, CTX)
'''
DEATH_LINE = (r"^llmfaith judge relay \(pid (\d+)\) died mid-run \({how}\) and was replaced once: the judge "
              r"call that found it dead is an ERROR, whose message has its log and the fix$")
KILLED_HOW = r"was killed by signal SIGKILL"
# Under xdist the relay is started by whichever worker prewarms first. xdist may end a worker that
# got no tests (--dist loadfile) before the kill: then no process can read the relay's exit status,
# and the worker that saw it die tells it from its log, which ends with no word of why.
UNKNOWN_HOW = re.escape(KILLED_UNSEEN)


@pytest.mark.skipif(sys.platform == "win32", reason="kills with SIGKILL and reads it in the exit status: POSIX's")
@pytest.mark.parametrize("workers", [0, 2])
def test_the_summary_says_in_one_line_that_the_relay_died_and_was_replaced(
        pytester: pytest.Pytester, server, relay_root: Path, workers: int) -> None:
    """Serial, or in an xdist worker (the one that ran the module: --dist loadfile), whose relay
    client alone saw it die."""
    server.facts(supported=FACTS)
    server.script.latency = 0.8
    pytester.makepyfile(test_died=DIED)
    xdist = ["-n", str(workers), "--dist", "loadfile"] if workers else []
    result = pytester.runpytest_subprocess(*xdist, "--llm-judge-relay=on", *judge_args(server), timeout=1500)
    result.assert_outcomes(passed=2, errors=1)
    text = result.stdout.str()
    how = KILLED_HOW if not workers else f"{KILLED_HOW}|{UNKNOWN_HOW}"
    died = re.findall(DEATH_LINE.format(how=f"(?:{how})"), text, re.MULTILINE)
    assert len(died) == 1, text
    serving, _, _, _ = relay_line(result)
    assert serving != int(died[0]) and relays_started(relay_root) == sorted([serving, int(died[0])])
    assert no_relay_left(relay_root)


def test_the_death_is_told_as_the_process_that_started_the_relay_saw_it_end(tmp_path: Path) -> None:
    """Under xdist the relay's starter may be a worker that ran no test, and the worker that saw it
    die cannot read its exit status: the summary takes how it ended from the starter, and says
    nothing of a process that ended with no one seeing it die mid-run."""
    run = RelayRun(directory=tmp_path / "warm-x", run_id="r", owner_pid=os.getpid(), concurrency=8, idle_timeout=0)
    unknown = "exited (its exit status went to the process that started it; see its log)"
    deaths = [(10, unknown, True), (10, "was killed by signal SIGKILL", False), (11, "exited with code 0", False)]
    line = summary(run, deaths)
    assert line is not None
    assert line.startswith("llmfaith judge relay (pid 10) died mid-run (was killed by signal SIGKILL)")
    assert "11" not in line
    assert summary(run, deaths[1:]) is None


KILLED = HEADER + '''
from pytest_llmfaith.processes.children import child_alive
from pytest_llmfaith.plugin.session import active_session

def relay():
    return active_session().judges.relay.client().address()

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


@pytest.mark.skipif(sys.platform == "win32", reason="kills with SIGKILL and reads it in the exit status: POSIX's")
def test_a_killed_relay_fails_its_call_with_the_cause_is_restarted_once_then_ends_the_runs_calls(
        pytester: pytest.Pytester, server, relay_root: Path) -> None:
    server.facts(supported=FACTS)
    server.script.latency = 0.8
    pytester.makepyfile(test_killed=KILLED)
    result = pytester.runpytest_subprocess("--llm-judge-relay=on", *judge_args(server), timeout=1500)
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
    assert len(relays_started(relay_root)) == 2 and no_relay_left(relay_root)
    died = [re.fullmatch(r"llmfaith judge relay died 2 times mid-run: pid (\d+) \(was killed by signal SIGKILL\), "
                         r"then pid (\d+) \(was killed by signal SIGKILL\); the run's remaining judge calls failed "
                         r"at once; the judge calls that found them dead are ERRORs, whose messages have their logs "
                         r"and the fix", line) for line in result.outlines if "mid-run" in line]
    assert len(died) == 1 and died[0], text  # one line for both
    assert sorted(map(int, died[0].groups())) == relays_started(relay_root)


TWO_RUNS = HEADER + '''
def test_one():
    assert_faithful(GOOD, CTX)
    time.sleep(1.0)  # the other run is going on meanwhile

def test_two():
    assert_faithful(GOOD, CTX)
'''


def test_two_runs_at_once_share_one_relay_each_counted_apart(
        tmp_path: Path, server, relay_root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    server.facts(supported=FACTS)
    monkeypatch.setenv("LLMFAITH_IDLE_TIMEOUT", "600")  # however late the second run attaches
    runs = []
    for name, extra in (("a", ["-n", "2"]), ("b", [])):  # a serial run uses the relay too
        folder = tmp_path / name
        folder.mkdir()
        (folder / "pytest.ini").write_text("[pytest]\n")
        (folder / "test_two.py").write_text(TWO_RUNS)
        runs.append(subprocess.Popen([sys.executable, "-m", "pytest", *extra, *judge_args(server)], cwd=folder,
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True))
    try:
        outputs = [proc.communicate(timeout=900)[0] for proc in runs]
        found = [RELAY_LINE.search(output) for output in outputs]
        for output, line in zip(outputs, found):
            assert "2 passed" in output and line, output
            assert int(line.group(2)) == 4  # its own run's calls only
        assert found[0].group(1) == found[1].group(1) and len(relays_started(relay_root)) == 1  # one relay
        assert sorted(line.group(5) for line in found) == ["started by this run", "warm: started by another run"]
        assert stats_of(relay_root).requests == 8
    finally:
        relay_command(relay_root, "stop")
    assert no_relay_left(relay_root)


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
    result = pytester.runpytest_subprocess("-n", "2", *judge_args(server), timeout=1500)
    result.assert_outcomes(passed=16)
    times = sorted(r["t"] for r in server.requests)
    limited = next(r["t"] for r in server.requests if r["step"] == "verdicts")  # the 429
    held = [t - limited for t in times if limited + 0.3 < t < limited + 0.95]
    assert held == [], f"requests sent while the judge's Retry-After was running: {held}"
    # 16 x 2 (claims, verdicts with the narrow questions), and the retried one
    assert len(times) == 33 and times[-1] > limited + 1.0


def test_one_concurrency_limit_holds_for_all_workers(pytester: pytest.Pytester, server, relay_root) -> None:
    server.facts(supported=FACTS)
    server.script.latency = 0.2
    pytester.makepyfile(test_suite=SUITE.format(n=4))
    result = pytester.runpytest_subprocess("-n", "2", "--llm-judge-concurrency=1", *judge_args(server), timeout=1500)
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
    run = RelayRun(directory=relay_root / "warm-test", run_id="test-run", owner_pid=os.getpid(), concurrency=2,
                   idle_timeout=60)
    client = RelayClient(run)
    try:
        transport = RelayTransport(client, config)
        assert transport.complete(request).text == LiteLLMTransport(config).complete(request).text
        assert server.requests[0]["headers"]["authorization"] == f"Bearer {secret}"
        state = client.address()
        with pytest.raises(LoopbackError) as denied:
            request_json(state.port, "/health")  # no token: another local process
        assert denied.value.status == 403
        messages = []
        for way in (transport, LiteLLMTransport(config)):
            server.fail("401")  # echoes the key it was sent
            with pytest.raises(JudgeError) as failed:
                way.complete(request)
            messages.append((type(failed.value), failed.value.kind, str(failed.value)))
        assert messages[0] == messages[1] and secret not in messages[0][2] and "AuthenticationError" in messages[0][2]
        sent = len(server.requests)
        with pytest.raises(RelayError, match="the process that asked has another environment") as refused:
            client.call(RelayCall(config=config, request=request, environment=environment_fingerprint(
                {**os.environ, "JUDGE_SECRET_KEY": "sk-another-run-0123456789"})))  # another run's key
        assert len(server.requests) == sent and "Fix: run the tests again" in str(refused.value)  # never sent

        status = relay_command(relay_root, "status")
        assert (f"pid {state.pid}  127.0.0.1:{state.port}  {client.run.directory.name}  runs attached (pids): "
                f"{os.getpid()}  3 requests from 1 run(s)  idle timeout 60 s") in status, status
        stopped = relay_command(relay_root, "stop")
        assert f"stopped the judge relay {client.run.directory.name} (pid {state.pid})" in stopped
        assert gone(state.pid)
        with pytest.raises(RelayError, match="it was stopped") as failed_stop:
            transport.complete(request)
        assert "the next judge call starts a new relay" in str(failed_stop.value)
    finally:
        detach(run)
        stop(client.run.directory)
    assert not client.run.directory.exists()  # no run attached any more: `stop` removes the folder too


def test_a_relay_folder_open_to_others_is_refused(relay_root: Path) -> None:
    relay_root.mkdir()
    relay_root.chmod(0o755)
    client = RelayClient(RelayRun(directory=relay_root / "warm-x", run_id="x", owner_pid=os.getpid(), concurrency=1,
                                  idle_timeout=0))
    client.prewarm()  # in the background: silent, the first call says it
    with pytest.raises(RelayError, match=r"open to others \(mode 755\).*fix: `chmod 700` it if it is yours, else point "
                                         r"TMPDIR at a folder of your own\).*Fix: --llm-judge-relay=auto turns it off"):
        client.address()
    assert list(relay_root.iterdir()) == []


def test_under_auto_a_relay_folder_open_to_others_turns_the_relay_off_in_one_line(
        pytester: pytest.Pytester, server, relay_root: Path) -> None:
    """Any reason the relay cannot run safely: `auto` judges in the test processes instead (the
    platform tests show the same for a Windows folder outside the profile); `on` refuses."""
    relay_root.mkdir()
    relay_root.chmod(0o755)
    server.facts(supported=FACTS)
    pytester.makepyfile(test_suite=SUITE.format(n=3))
    result = pytester.runpytest_subprocess("-n", "2", "--llm-judge-relay=auto", *judge_args(server), timeout=1500)
    result.assert_outcomes(passed=3)
    assert [line for line in result.outlines if "judge relay" in line] == [
        f"llmfaith judge relay off: its folder {relay_root} belongs to another user or is open to others (mode 755), "
        "so what it holds would not be private (fix: `chmod 700` it if it is yours, else point TMPDIR at a folder "
        "of your own); each process that calls the judge imports litellm itself (~5 s each) and keeps its own "
        "concurrency limit"]
    assert list(relay_root.iterdir()) == [] and len(server.requests) == 6


# -- nothing but the litellm import outlives a run (#25.7) ---------------------------------------

EIGHT = SUITE.format(n=8)


def test_a_warm_relay_forgets_the_judge_that_was_down_in_the_last_run(
        pytester: pytest.Pytester, relay_root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The circuit breaker (3 calls that could not connect: the rest of the run fails at once)
    belongs to the run that tripped it: the next run finds the relay warm and the judge back."""
    monkeypatch.setenv("LLMFAITH_IDLE_TIMEOUT", "600")  # longer than any run here
    down = JudgeServer()
    port = down.httpd.server_address[1]
    down.httpd.server_close()  # nothing listens there: every connection is refused
    args = ["-p", "no:cacheprovider", "--llm-judge-model=openai/test-judge", "--llm-judge-retries=0",
            f"--llm-judge-api-base=http://127.0.0.1:{port}/v1", "--llm-cache=off"]
    pytester.makepyfile(test_suite=EIGHT)
    try:
        first = pytester.runpytest_subprocess(*args, timeout=1500)
        first.assert_outcomes(errors=8)
        assert "could not be reached 3 times" in first.stdout.str()
        pid = relay_line(first)[0]
        with JudgeServer(port) as back:  # the judge is back, on the same address
            back.facts(supported=FACTS)
            second = pytester.runpytest_subprocess(*args, timeout=1500)
            second.assert_outcomes(passed=8)
            assert relay_line(second)[:2] == (pid, 16) and WARM in second.stdout.str()  # the same relay
            assert len(back.requests) == 16
    finally:
        relay_command(relay_root, "stop")
    assert gone(pid)


def test_a_warm_relay_holds_back_no_run_for_the_rate_limit_of_a_run_that_ended(
        tmp_path: Path, server, relay_root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A 429's Retry-After holds back the requests of the run that got it (all its workers), not
    the next run: here the run that got it was killed while it waited."""
    monkeypatch.setenv("LLMFAITH_IDLE_TIMEOUT", "600")  # longer than any run here
    server.facts(supported=FACTS)
    server.fail("429", step="claims", seconds=60.0)  # the longest back-off the transport accepts
    (tmp_path / "pytest.ini").write_text("[pytest]\n")
    (tmp_path / "test_suite.py").write_text(SUITE.format(n=1))
    command = [sys.executable, "-m", "pytest", *judge_args(server)]
    limited = subprocess.Popen(command, cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 600
        while not server.requests:  # the 429 is on its way back: the run waits out its Retry-After
            assert time.monotonic() < deadline and limited.poll() is None
            time.sleep(0.05)
        time.sleep(1.0)
    finally:
        limited.kill()  # the run ends; its relay stays up
        limited.wait()
    try:
        (relay_pid,) = relays_started(relay_root)
        sent_429 = server.requests[0]["t"]
        done = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=900)
        assert "1 passed" in done.stdout, done.stdout
        assert RELAY_LINE.search(done.stdout) and WARM in done.stdout  # the same relay, warm
        waited = server.requests[1]["t"] - sent_429  # the next run's first request
        assert waited < 40.0, f"the next run waited for the last run's Retry-After: {waited:.1f} s"
    finally:
        relay_command(relay_root, "stop")
    assert gone(relay_pid)


# -- any Python str crosses the relay as it is (#25.9) -------------------------------------------

SURROGATE = HEADER + '''
OUTPUT = {output!r}

def test_scored():
    assert_faithful(OUTPUT, CTX, min_score=0.5)
'''
LONE = "\ud800"  # a lone surrogate: what a broken decoding upstream leaves in a str


@pytest.mark.parametrize("where", ["output", "answer"])
def test_a_lone_surrogate_is_scored_alike_with_and_without_the_relay(
        pytester: pytest.Pytester, server, relay_root: Path, where: str) -> None:
    """In the app's output (the request) or in the judge's answer (the reply): the relay carries
    it as the test process has it, and the one transport makes it sendable, as without the relay."""
    sent = f"The first Tesla car was the Roadster{chr(0xFFFD)}."  # U+FFFD: how it reaches the judge
    if where == "output":
        output = f"{FACTS[0]} The first Tesla car was the Roadster{LONE}."
        server.facts(supported=[*FACTS, sent])
    else:
        output = GOOD
        broken = f"The first Tesla car was the Roadster{LONE}."
        server.facts(supported=[*FACTS, sent], claims={GOOD: [FACTS[0], broken]})
    pytester.makepyfile(test_surrogate=SURROGATE.format(output=output))
    results = {way: pytester.runpytest_subprocess(f"--llm-judge-relay={way}", *judge_args(server), timeout=1500)
               for way in ("off", "on")}
    results["off"].assert_outcomes(passed=1)
    results["on"].assert_outcomes(passed=1)
    assert rows(results["on"]) == rows(results["off"])
    assert RELAY_LINE.search(results["on"].stdout.str()) and not RELAY_LINE.search(results["off"].stdout.str())
    sent_texts = [m["content"] for r in server.requests for m in r["body"]["messages"]]
    assert sent_texts and not any(LONE in text for text in sent_texts)  # both sent U+FFFD in its place


# -- a relay sends the credentials of the process that asked, never another's (#25.10) -------------

# Each project's key and endpoint are set in the test processes only, after the run named its
# relay: litellm itself reads both (OPENAI_API_KEY, OPENAI_API_BASE), as it reads any provider's.
CREDENTIALS = "os.environ['OPENAI_API_KEY'] = {key!r}\nos.environ['OPENAI_API_BASE'] = {base!r}\n"
KEYED = HEADER + '''
{fixture}
@pytest.mark.parametrize("i", range(2))
def test_grounded(i):
    assert_faithful({output!r}, CTX)
'''
IN_A_FIXTURE = '''
@pytest.fixture(autouse=True)
def credentials(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", {key!r})
    monkeypatch.setenv("OPENAI_API_BASE", {base!r})
'''


def keyed_project(folder: Path, where: str, key: str, judge: JudgeServer, output: str) -> None:
    """A project whose judge key and endpoint are set at import (its conftest.py), in a fixture,
    or in a sub-folder's conftest.py (which, under xdist, only the workers import)."""
    folder.mkdir()
    (folder / "pytest.ini").write_text("[pytest]\n")
    tests = folder / "sub" if where == "subfolder" else folder
    tests.mkdir(exist_ok=True)
    credentials = CREDENTIALS.format(key=key, base=judge.url)
    if where in ("import", "subfolder"):
        (tests / "conftest.py").write_text(f"import os\n{credentials}")
    fixture = IN_A_FIXTURE.format(key=key, base=judge.url) if where == "fixture" else ""
    (tests / "test_keyed.py").write_text(KEYED.format(fixture=fixture, output=output))


@pytest.mark.parametrize("where", ["import", "fixture", "subfolder"])
def test_each_run_s_judge_gets_that_run_s_key_from_a_warm_relay_serial_or_not_at_once_or_not(
        tmp_path: Path, server, relay_root: Path, monkeypatch: pytest.MonkeyPatch, where: str) -> None:
    monkeypatch.setenv("LLMFAITH_IDLE_TIMEOUT", "600")  # every relay stays warm for the next run
    for name in ("OPENAI_API_KEY", "OPENAI_API_BASE", "OPENAI_BASE_URL"):
        monkeypatch.delenv(name, raising=False)  # the runs start alike: the same relay's name
    keys = {"a": "sk-project-a-DO-NOT-SHOW-0123456789", "b": "sk-project-b-DO-NOT-SHOW-9876543210"}
    outputs = {"a": FACTS[0], "b": FACTS[1]}
    args = ["-p", "no:cacheprovider", "--llm-judge-model=openai/test-judge", "--llm-cache=off",
            "--llm-judge-retries=0"]
    with JudgeServer() as other:
        judges = {"a": server, "b": other}
        for name, judge in judges.items():
            judge.facts(supported=FACTS)
            keyed_project(tmp_path / name, where, keys[name], judge, outputs[name])

        def start(name: str, workers: str) -> subprocess.Popen[str]:
            return subprocess.Popen([sys.executable, "-m", "pytest", "-n", workers, *args], cwd=tmp_path / name,
                                    stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)

        texts = []
        try:
            for batch in ([("a", "2")], [("b", "0")], [("a", "0"), ("b", "2")]):  # one after the other, then at once
                runs = [start(name, workers) for name, workers in batch]
                texts += [run.communicate(timeout=900)[0] for run in runs]
                assert all("2 passed" in text for text in texts), texts[-1]
        finally:
            relay_command(relay_root, "stop")
        for name, judge in judges.items():
            sent = [(r["headers"]["authorization"], outputs[name] in str(r["body"])) for r in judge.requests]
            assert sent == [(f"Bearer {keys[name]}", True)] * 8, (name, sent)  # 2 runs x 2 tests x 2 calls
    assert not any(key in text for key in keys.values() for text in texts)
    assert no_relay_left(relay_root)


# A run whose environment holds key A and judge A, and an autouse fixture that sets key B and judge B
# for every other test: the odd ones, or the even ones (each process's first test, then).
SHIPPED = [f"Order {i} shipped on Monday." for i in range(8)]  # one fact a test: its requests tell it apart
MIXED = f'''
import pytest
from pytest_llmfaith import assert_faithful

@pytest.fixture(autouse=True)
def other_key(request, monkeypatch):
    if request.node.callspec.params["i"] % 2 == {{fixture_tests}}:
        monkeypatch.setenv("OPENAI_API_KEY", {{key_b!r}})
        monkeypatch.setenv("OPENAI_API_BASE", {{base_b!r}})

@pytest.mark.parametrize("i", range(8))
def test_keyed(i):
    fact = {SHIPPED!r}[i]
    assert_faithful(fact, [fact])
'''


@pytest.mark.parametrize("fixture_tests", [1, 0], ids=["odd tests", "even tests"])
def test_a_key_a_fixture_sets_mid_run_reaches_only_that_test_s_requests_serial_or_not_cold_or_warm(
        pytester: pytest.Pytester, server, relay_root: Path, monkeypatch: pytest.MonkeyPatch,
        fixture_tests: int) -> None:
    """Issue 53: with -n 2 and a warm relay, a request went out with the other test's key. Each test's
    requests reach its own judge with its own key, whatever process or relay makes them: those the
    fixture set, or the run's. The cache folder exists (empty), so no relay is started early: each
    process picks its relay at its first judge call, inside a test (with the fixture's key first, or not)."""
    monkeypatch.setenv("LLMFAITH_IDLE_TIMEOUT", "600")  # warm for the next run
    keys = ("sk-run-key-A-DO-NOT-SHOW-0123456789", "sk-fixture-key-B-DO-NOT-SHOW-9876543210")
    monkeypatch.setenv("OPENAI_API_KEY", keys[0])
    monkeypatch.setenv("OPENAI_API_BASE", server.url)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    with JudgeServer() as other:
        judges = (server, other)
        for judge in judges:
            judge.facts(supported=SHIPPED)
        pytester.makepyfile(test_mixed=MIXED.format(key_b=keys[1], base_b=other.url, fixture_tests=fixture_tests))
        args = ["-p", "no:cacheprovider", "--llm-judge-model=openai/test-judge", "--llm-cache=use",
                "--llm-cache-dir=cache", "--llm-judge-retries=0"]
        try:
            for workers in ("2", "2", "0"):  # cold, then warm twice
                for judge in judges:
                    judge.requests.clear()
                shutil.rmtree(pytester.path / "cache", ignore_errors=True)
                (pytester.path / "cache").mkdir()
                result = pytester.runpytest_subprocess("-n", workers, *args, timeout=900)
                result.assert_outcomes(passed=8)
                for n, judge in enumerate(judges):  # 4 tests x 2 calls each, every one with the key of its test
                    sent = sorted((i, r["headers"]["authorization"]) for r in judge.requests
                                  for i, fact in enumerate(SHIPPED) if fact in str(r["body"]))
                    tests = [i for i in range(8) if (i % 2 == fixture_tests) == bool(n)]
                    assert sent == [(i, f"Bearer {keys[n]}") for i in tests for _ in range(2)], (workers, sent)
                assert not any(key in result.stdout.str() for key in keys)
        finally:
            relay_command(relay_root, "stop")
    assert no_relay_left(relay_root)


def test_a_relay_drops_a_run_s_state_and_litellm_s_clients_once_its_lease_is_gone(tmp_path: Path, server) -> None:
    """In the relay's own process: a run's transports and throttle live while it holds a lease,
    and litellm's cached HTTP clients (with the key they were made with) go with the last run."""
    import litellm

    server.facts(supported=FACTS)
    files = relay_files(tmp_path / "warm-test")
    files.lock.parent.mkdir()
    relay = RelayServer(files, started_by="run-a", concurrency=2, idle_timeout=3600.0, import_s=0.0,
                        environment=environment_fingerprint())
    config = JudgeConfig(model="openai/test-judge", api_base=server.url, retries=0)
    request = CompletionRequest(step="claims", temperature=0.0, messages=[
        {"role": "system", "content": "judge"},
        {"role": "user", "content": f"Split the OUTPUT into atomic claims.\n<output>\n{GOOD}\n</output>"}])
    call = to_wire(RelayCall(config=config, request=request, environment=environment_fingerprint()))
    try:
        files.leases.take(os.getpid())
        assert relay.complete(call, "1", "run-a", os.getpid()).completion is not None
        first = relay._runs["run-a"]
        relay.looked(files.leases.live(), time.monotonic())  # still attached: kept
        assert relay._runs == {"run-a": first} and len(first.transports) == 1
        assert litellm.in_memory_llm_clients_cache.cache_dict
        assert relay.complete(call, "1", "run-b", os.getpid()).completion is not None
        files.leases.give_up()
        relay.looked(files.leases.live(), time.monotonic())  # detached: nothing kept
        assert relay._runs == {} and not litellm.in_memory_llm_clients_cache.cache_dict
        assert relay.stats().runs["run-a"].requests == 1  # the counts stay, for `relay status`
    finally:
        relay.server_close()
