"""The kit for background services (processes/service.py, serving.py), on a tiny real service it
starts (tests/processes/tiny_service.py): its state, leases that a reused pid never keeps, find or
start under the lock (two processes at once), the wait until it serves, the idle exit, a death
noted and replaced once. The relay and the offline judge's server are built on it; their own
tests keep only what is theirs (tests/relay/, tests/local/)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from plugin_helpers import gone
from tiny_service import TinyServer, TinyState, tiny, tiny_files

from pytest_llmfaith.processes.capabilities import boot_ticks, has_proc
from pytest_llmfaith.processes.children import UNKNOWN_EXIT, child_alive, kill, started_at
from pytest_llmfaith.processes.loopback import request_json
from pytest_llmfaith.processes.service import KILLED_UNSEEN, Hold, Leases, ServiceFiles, StartFailed

HERE = Path(__file__).parent
POSIX_SIGNALS = pytest.mark.skipif(sys.platform == "win32", reason="kills with POSIX signals and reads them")
# A process that takes the service (find or start) for itself, says what it got, then holds it.
CLIENT = '''
import json, os, sys, time
from pathlib import Path
import tiny_service

service, args = tiny_service.tiny(Path(sys.argv[1]), *sys.argv[2:])
state = service.find_or_start(os.getpid(), lambda: args)
print(json.dumps({"pid": state.pid, "leases": service.files.leases.live()}), flush=True)
time.sleep(float(os.environ.get("HOLD", "0")))
'''


def logged_pids(directory: Path) -> list[int]:
    """Every tiny service started in `directory` (one log each)."""
    return sorted(int(log.name.split(".")[1]) for log in directory.glob("tiny.*.log"))


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A folder for the services of one test; every one started there is killed at its end."""
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(HERE), os.environ.get("PYTHONPATH")])))
    directory = tmp_path / "svc"
    directory.mkdir()
    yield directory
    for pid in logged_pids(directory):
        kill(pid)


def clients(directory: Path, count: int, *flags: str, hold: float = 0.0) -> list[subprocess.Popen[str]]:
    env = {**os.environ, "HOLD": str(hold)}
    return [subprocess.Popen([sys.executable, "-c", CLIENT, str(directory), *flags], env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(count)]


def said(proc: subprocess.Popen[str]) -> dict[str, object]:
    assert proc.stdout is not None
    line = proc.stdout.readline()
    assert line, proc.stderr.read() if proc.stderr else ""
    return dict(json.loads(line))


# -- state and leases ------------------------------------------------------------------------


def test_the_state_is_read_as_written_and_withdrawn_only_by_the_process_it_names(tmp_path: Path) -> None:
    files = tiny_files(tmp_path)
    state = TinyState(pid=os.getpid(), started=started_at(os.getpid()), port=1234, name="tiny")
    files.write(state)
    assert files.read() == state and oct(files.state.stat().st_mode & 0o777) == "0o600"
    files.withdraw(os.getpid() + 1)  # a successor's: kept
    assert files.read() == state
    files.withdraw(os.getpid())
    assert files.read() is None
    files.state.write_text('{"pid": 1}')  # another shape (another version): no state
    assert files.read() is None


def test_a_lease_holds_while_its_process_runs_and_never_for_a_process_that_took_its_pid(tmp_path: Path) -> None:
    leases = Leases(tmp_path / "leases.json")
    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        leases.take(os.getpid())
        leases.take(sleeper.pid)
        assert leases.live() == sorted([os.getpid(), sleeper.pid])
        sleeper.kill()
        sleeper.wait()
        assert leases.live() == [os.getpid()]  # a dead holder's lease lapses by itself
        mine = started_at(os.getpid())
        assert mine is not None
        # The OS gave this process's pid to a process that held a lease before (its start time differs).
        (tmp_path / "leases.json").write_text(json.dumps({"leases": [{"pid": os.getpid(), "started": mine - 3600}]}))
        assert leases.live() == []
        leases.take(os.getpid())  # this process's own lease, with its own start time
        assert leases.holders() == {os.getpid(): mine}
        leases.give_up(os.getpid())
        assert leases.live() == []
    finally:
        sleeper.kill()


# Another process reads the leases while the wall clock says the machine booted `shift` s later
# than it did when they were taken: NTP moved the clock, or Linux rounded the boot time, which it
# recomputes from the wall clock at each read, to the next second.
MOVED_CLOCK = '''
import json, sys
from pathlib import Path
import psutil
from pytest_llmfaith.processes.children import started_at
from pytest_llmfaith.processes.service import Leases

shift = float(sys.argv[2])
platform = psutil._psplatform
booted = platform.boot_time
platform.boot_time = lambda: booted() + shift
assert psutil.boot_time() == booted() + shift  # the clock it sees has moved
print(json.dumps({"live": Leases(Path(sys.argv[1])).live(), "mine": started_at(int(sys.argv[3]))}))
'''


@pytest.mark.skipif(not Path("/proc/self/stat").is_file(),
                    reason="without /proc, a start time is psutil's, which it corrects per process after a clock step")
@pytest.mark.parametrize("shift", [1.0, -1.0, 0.5, 3600.0])
def test_a_lease_holds_for_a_process_that_reads_the_clock_after_it_moved(tmp_path: Path, shift: float) -> None:
    """The failure it fixes: a relay saw its run's lease lapse mid-call and retired (CI, stop 38)."""
    leases = Leases(tmp_path / "leases.json")
    leases.take(os.getpid())
    read = subprocess.run([sys.executable, "-c", MOVED_CLOCK, str(leases.path), str(shift), str(os.getpid())],
                          capture_output=True, text=True, check=True)
    assert json.loads(read.stdout) == {"live": [os.getpid()], "mine": started_at(os.getpid())}


def test_a_start_is_read_after_a_command_name_with_spaces_and_parentheses(tmp_path: Path) -> None:
    """proc_pid_stat(5): the name is in parentheses and may hold both; a zombie or no /proc is no start."""
    proc = tmp_path / "proc"
    rest = " ".join(str(n) for n in range(4, 22))  # fields 4..21, then 22: the start in ticks
    for pid, name, state in ((7, "a) (b c)", "S"), (8, "plain", "Z")):
        (proc / str(pid)).mkdir(parents=True)
        (proc / str(pid) / "stat").write_text(f"{pid} ({name}) {state} {rest} 123456 99 0\n")
    assert boot_ticks(7, proc) == 123456.0 and boot_ticks(8, proc) is None and boot_ticks(9, proc) is None
    assert not has_proc(proc)


def test_a_state_whose_pid_is_another_process_now_is_no_service(folder: Path) -> None:
    """The service died and the OS gave its pid to another process: never taken for the service,
    whose death is noted at once (nothing is killed), and another is started."""
    service, args = tiny(folder)
    first = service.find_or_start(os.getpid(), lambda: args)
    impostor = first.model_copy(update={"started": (first.started or 0) - 3600})
    service.files.write(impostor)
    assert not impostor.alive() and service.live() is None
    hold = Hold(lambda: service.find_or_start(os.getpid(), lambda: args), service.files.log_of)
    death = hold.lost(impostor)
    assert death is not None and death.pid == first.pid and child_alive(first.pid)
    second = hold.current()
    assert second.pid != first.pid and child_alive(first.pid)


# -- find or start ---------------------------------------------------------------------------


def test_two_processes_at_once_find_or_start_one_service_and_both_lease_it(folder: Path) -> None:
    procs = clients(folder, 2, "--ready-after", "1.0", hold=30)
    try:
        seen = [said(proc) for proc in procs]
        assert seen[0]["pid"] == seen[1]["pid"] and logged_pids(folder) == [seen[0]["pid"]]
        assert sorted(proc.pid for proc in procs) == tiny_files(folder).leases.live()
    finally:
        for proc in procs:
            proc.kill()
            proc.wait()
    assert tiny_files(folder).leases.live() == []  # killed: their leases lapsed


def test_a_prewarmed_service_is_waited_for_not_started_again(folder: Path) -> None:
    service, args = tiny(folder, "--ready-after", "1.0")
    assert service.prewarm(os.getpid(), lambda: args) is None  # started, not waited for
    with service.files.locked(), pytest.raises(BlockingIOError):
        service.prewarm(os.getpid(), lambda: args)  # another process is at it: skipped
    (state,) = [said(proc) for proc in clients(folder, 1)]  # another process finds it starting
    assert logged_pids(folder) == [state["pid"]]
    assert service.find_or_start(os.getpid(), lambda: args).pid == state["pid"]


def test_a_starting_service_is_looked_for_a_few_times_a_second(
        folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Soon at first, then at most 4 times a second, however long it takes (the relay imports
    litellm first: minutes on a starved machine); no file descriptor is handed to it."""
    reads = 0
    read = ServiceFiles.read

    def counted(files: ServiceFiles[TinyState]) -> TinyState | None:
        nonlocal reads
        reads += 1
        return read(files)

    monkeypatch.setattr(ServiceFiles, "read", counted)
    service, args = tiny(folder, "--ready-after", "2.0")
    started = time.monotonic()
    service.find_or_start(os.getpid(), lambda: args)
    waited = time.monotonic() - started
    assert reads <= 15 + 4 * waited, (reads, waited)


def test_a_service_that_does_not_serve_in_time_is_killed_and_said_so(folder: Path) -> None:
    service, args = tiny(folder, "--never-ready", start_timeout=1.5)
    with pytest.raises(StartFailed) as caught:
        service.find_or_start(os.getpid(), lambda: args)
    assert caught.value.how is None and "did not serve within 2 s" in str(caught.value)
    assert not child_alive(caught.value.pid) and "starting" in caught.value.log_tail
    told = caught.value.describe("the tiny service", slow=" (busy?)", about=" (for a test)")
    assert told.startswith(f"the tiny service (pid {caught.value.pid}) did not start within 2 s (busy?) (for a test). "
                           f"Its log ({caught.value.log}) ends with:\n    ")


def test_a_service_that_ends_while_starting_is_said_so_with_its_log(folder: Path) -> None:
    service, args = tiny(folder, "--exit-at-start", "3")
    with pytest.raises(StartFailed) as caught:
        service.find_or_start(os.getpid(), lambda: args)
    assert caught.value.how == "exited with code 3" and "exiting with code 3" in caught.value.log_tail
    assert caught.value.log == service.files.log_of(caught.value.pid)
    told = caught.value.describe("the tiny service", slow=" (busy?)")
    assert told.startswith(f"the tiny service (pid {caught.value.pid}) exited with code 3 while starting. Its log")
    assert "\n    " in told and "exiting with code 3" in told  # the log's last lines, indented


# -- release and idle exit -------------------------------------------------------------------


def test_the_last_release_stops_it_under_the_lock_and_another_holder_keeps_it(folder: Path) -> None:
    service, args = tiny(folder)
    state = service.find_or_start(os.getpid(), lambda: args)
    (other,) = clients(folder, 1, hold=30)
    try:
        said(other)
        stopped: list[TinyState] = []
        assert service.files.release(os.getpid(), stopped.append) is None and stopped == []  # the other holds it
        assert service.files.release(None, lambda s: request_json(s.port, "/shutdown", "POST")) == state
        assert gone(state.pid) and service.files.read() is None  # it withdrew its state on the way out
    finally:
        other.kill()
        other.wait()


@pytest.mark.parametrize("timeout", ["0.5", "0"])
def test_an_idle_service_exits_once_no_lease_is_held_and_nothing_is_asked(folder: Path, timeout: str) -> None:
    """A timeout of 0 (the relay's in these tests: it ends with its run) still waits for a request in flight."""
    service, args = tiny(folder, "--idle-timeout", timeout)
    state = service.find_or_start(os.getpid(), lambda: args)
    time.sleep(1.5)  # longer than the idle timeout: the lease keeps it up
    assert child_alive(state.pid)
    answers: list[object] = []
    worker = threading.Thread(target=lambda: answers.append(request_json(state.port, "/work?seconds=3", "POST")))
    worker.start()
    time.sleep(1.0)  # the request is in flight (a loaded machine may take a while to send it)
    service.files.release(os.getpid())
    time.sleep(1.0)  # it keeps the service up too
    assert child_alive(state.pid)
    worker.join()
    assert answers == [{"done": True}]
    assert gone(state.pid, within=15)
    assert service.files.read() is None
    assert f"stopping: idle for {timeout} s" in service.files.log_of(state.pid).read_text()


def test_a_crashed_holder_s_lease_lapses_and_a_service_in_its_own_folder_takes_the_folder_along(
        folder: Path) -> None:
    own = folder / "own"
    (holder,) = clients(own, 1, "--own-folder", "--idle-timeout", "0.5", hold=60)
    pid = said(holder)["pid"]
    assert isinstance(pid, int)
    time.sleep(1.5)
    assert child_alive(pid)  # held
    holder.kill()  # no release: the run crashed
    holder.wait()
    assert gone(pid, within=15)
    assert not own.exists()  # state, leases and logs


def test_a_retiring_service_keeps_what_a_holder_or_the_lock_or_a_newer_one_needs(tmp_path: Path) -> None:
    """In this process: it retires (removing its own folder) only under the lock, with no live
    lease, and leaves the files of a newer one starting in its folder."""
    files = tiny_files(tmp_path / "own", own_folder=True)
    server = TinyServer(files, idle_timeout=0)
    try:
        files.leases.take(os.getpid())
        assert not server._retire() and files.lock.parent.is_dir()
        files.leases.give_up(os.getpid())
        with files.locked():  # a client is finding it right now
            assert not server._retire() and files.lock.parent.is_dir()
        sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
        try:  # a newer one is starting in its folder
            files.starting.write_text(json.dumps({"pid": sleeper.pid, "started": started_at(sleeper.pid)}))
            files.write(TinyState(pid=os.getpid(), started=started_at(os.getpid()), port=1, name="tiny"))
            assert server._retire() and files.lock.parent.is_dir() and files.read() is None
        finally:
            sleeper.kill()
            sleeper.wait()
        assert server._retire() and not files.lock.parent.exists()  # nothing left behind
    finally:
        server.server_close()


# -- death and replace once ------------------------------------------------------------------


@POSIX_SIGNALS
def test_a_dead_service_is_noted_once_replaced_once_and_its_log_survives_its_successor(folder: Path) -> None:
    service, args = tiny(folder)
    hold = Hold(lambda: service.find_or_start(os.getpid(), lambda: args), service.files.log_of)
    first = hold.current()
    assert hold.lost(first, within=0.1) is None  # alive
    os.kill(first.pid, signal.SIGKILL)
    death = hold.lost(first, within=5.0)  # a killed process drops its connections before it is gone
    assert death is not None and death.how == "was killed by signal SIGKILL"
    assert hold.lost(first) == death and len(hold.deaths) == 1  # noted once
    second = hold.current()  # replaced
    assert second.pid != first.pid and not hold.replaced
    assert f"serving on 127.0.0.1:{first.port}" in service.files.log_of(first.pid).read_text()
    os.kill(second.pid, signal.SIGKILL)
    assert hold.lost(second, within=5.0) is not None and hold.replaced  # no third one for the caller
    described = "\n".join(death.describe("The tiny service") for death in hold.deaths)
    for state in (first, second):
        assert f"The tiny service (pid {state.pid}) was killed by signal SIGKILL" in described
        assert f"    serving on 127.0.0.1:{state.port}" in described  # the end of each one's log


@POSIX_SIGNALS
@pytest.mark.parametrize("end", ["killed", "stopped"])
def test_a_process_that_did_not_start_it_tells_a_kill_from_its_log(folder: Path, end: str) -> None:
    """Only its starter reads its exit status (under xdist, a worker that may have ended). The others
    tell a kill by its log, which ends with no word of why; a service that stopped says so there."""
    (starter,) = clients(folder, 1, hold=60)
    try:
        pid = said(starter)["pid"]
        service, _ = tiny(folder)
        state = service.live()
        assert state is not None and state.pid == pid
        if end == "killed":
            os.kill(state.pid, signal.SIGKILL)
        else:
            request_json(state.port, "/shutdown", "POST")
        death = Hold(lambda: state, service.files.log_of).lost(state, within=10.0)
        assert death is not None
        assert death.how == (KILLED_UNSEEN if end == "killed" else UNKNOWN_EXIT)
    finally:
        starter.kill()
        starter.wait()


def test_a_holder_that_finds_it_gone_and_one_that_finds_it_alive(folder: Path) -> None:
    """Two threads lose the same service: one death, one replacement."""
    service, args = tiny(folder)
    hold = Hold(lambda: service.find_or_start(os.getpid(), lambda: args), service.files.log_of)
    first = hold.current()
    kill(first.pid)
    deaths: list[object] = []
    threads = [threading.Thread(target=lambda: deaths.append(hold.lost(first, within=5.0))) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(hold.deaths) == 1 and deaths == [hold.deaths[0]] * 2
    assert hold.current().pid != first.pid and len(logged_pids(folder)) == 2

