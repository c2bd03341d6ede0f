"""One kit for the background services (the judge relay, the offline judge's server): the clients' side.

A service is a detached child process serving HTTP on 127.0.0.1 to the processes that hold a lease
on it; it exits an idle timeout after the last lease. Its files: the state it writes once it serves
(pid, start time, port), a lock (taken to lease, start and retire), the leases, the pid of one being
started, one log per pid.

A dead service, as a process that used it tells it: how it ended (killed, crashed, stopped), the
end of its log (the one reader of a service's log, for a failed start too) and what to do about it.
Only the process that started a service reads its exit status; any other one tells from the log.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Generic, TypeVar

from pydantic import BaseModel

from pytest_llmfaith.processes.children import (
    ENDED,
    UNKNOWN_EXIT,
    child_alive,
    exit_description,
    kill,
    pid_log,
    spawn,
    started_at,
)
from pytest_llmfaith.processes.files import file_lock, prune_logs, read_state, write_json_atomic

STOPPING = "stopping: "  # what a service says in its log when it stops on its own, then why
_CRASH_SIGNALS = ("SIGSEGV", "SIGILL", "SIGBUS", "SIGABRT", "SIGFPE")
_LOG_READ = 30_000  # bytes of a log's end kept when a death is noticed
_TAIL_LINES = 12
_REQUEST_LINE = re.compile(r'^127\.0\.0\.1 - - \[.*\] "')  # http.server's one line per request
KILLED_UNSEEN = ("was killed from outside, by all signs: its log lacks the line a process that exits writes "
                 "(only the process that started it could read its exit status)")


class Death(BaseModel):
    """One dead service, with the end of its log read when the death was noticed (logs are pruned later)."""

    pid: int
    how: str
    log: Path
    log_tail: str

    @classmethod
    def of(cls, pid: int, log: Path) -> Death:
        tail = read_end(log)
        how = exit_description(pid)
        if how == UNKNOWN_EXIT and tail != "(no log)" and ENDED not in tail:
            how = KILLED_UNSEEN
        return cls(pid=pid, how=how, log=log, log_tail=tail)

    def describe(self, name: str) -> str:
        return f"{name} (pid {self.pid}) {self.how}. Its log ({self.log}) ends with:\n{quoted(self.log_tail)}"

    @property
    def killed(self) -> bool:
        """Killed from outside: by SIGKILL (mostly the out-of-memory killer), or so by all signs."""
        return "SIGKILL" in self.how or self.how == KILLED_UNSEEN

    @property
    def crashed(self) -> bool:
        """Crashed: a fatal signal of its own making, or faulthandler's report of one in its log."""
        return any(name in self.how for name in _CRASH_SIGNALS) or "Fatal Python error" in self.log_tail

    @property
    def stopped(self) -> bool:
        """Stopped: it said so in its log (STOPPING), or it exited with code 0."""
        return STOPPING in self.log_tail or self.how == "exited with code 0"

    def fix(self, other: str, crashed: str | None = None, stopped: str | None = None, needs: str = "") -> str:
        """What to do about it: the kit's words for SIGKILL (`needs`: the memory the service needs), the
        service's own for a crash or a stop, where it tells those apart, and for anything else."""
        if crashed is not None and self.crashed:
            return crashed
        if self.killed:
            return (f"SIGKILL mostly comes from the out-of-memory killer ({needs}see `dmesg`) or from someone "
                    "killing it: free memory or run fewer processes")
        return stopped if stopped is not None and self.stopped else other


def quoted(log_end: str) -> str:
    """The end of a log as a message quotes it: the lines worth quoting, indented."""
    return "\n".join(f"    {line}" for line in excerpt(log_end)) or "    (empty)"


def excerpt(log: str) -> list[str]:
    """The lines of a log worth quoting: its last lines without per-request noise; for a crash,
    faulthandler's header and the crashing thread's stack instead of every thread's."""
    lines = [line for line in log.splitlines() if not _REQUEST_LINE.match(line)]
    fatal = next((i for i, line in enumerate(lines) if line.startswith("Fatal Python error")), None)
    if fatal is None:
        return lines[-_TAIL_LINES:]
    current = next((i for i in range(fatal, len(lines)) if lines[i].startswith("Current thread")), None)
    stack = lines[current:current + _TAIL_LINES] if current is not None else []
    return [*lines[max(0, fatal - 3):fatal + 1], *stack]


def read_end(path: Path) -> str:
    """The end of a log, read when a death or a failed start is noticed (logs are pruned later)."""
    try:
        return path.read_bytes()[-_LOG_READ:].decode(errors="replace")
    except OSError:
        return "(no log)"


# Seconds between looks for a starting service's state file (a stat of a missing file): soon at
# first, then 4 a second at most (the relay imports litellm first: minutes on a starved machine).
READY_POLL = (0.02, 1.5, 0.25)  # first, growth, most


class ServiceState(BaseModel):
    """What a service writes once it serves; each service adds what its clients need."""

    pid: int
    started: float | None  # its start time (children.started_at): with the pid, who it is
    port: int

    def alive(self) -> bool:
        return child_alive(self.pid, self.started)


StateT = TypeVar("StateT", bound=ServiceState)


class _Starting(BaseModel):
    pid: int
    started: float | None


class Leases:
    """The processes using a service, in a JSON file: it stays up while one of them runs, and a
    crashed holder's lease lapses by itself (its process is gone, or its pid is another's now)."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def holders(self) -> dict[int, float | None]:
        """The live leases: pid -> start time."""
        try:
            found = {int(lease["pid"]): lease["started"] for lease in json.loads(self.path.read_text())["leases"]}
        except (OSError, ValueError, KeyError, TypeError):
            return {}
        return {pid: started for pid, started in found.items()
                if (started is None or isinstance(started, float)) and child_alive(pid, started)}

    def live(self) -> list[int]:
        return sorted(self.holders())

    def take(self, pid: int) -> None:
        """Lease it for process `pid`; under the lock of what the leases hold."""
        holders = self.holders()
        if pid not in holders:
            self._write({**holders, pid: started_at(pid)})

    def give_up(self, pid: int | None = None) -> None:
        """End process `pid`'s lease (None: every lease); under the lock."""
        if self.path.exists():
            self._write({held: started for held, started in self.holders().items() if pid not in (None, held)})

    def _write(self, holders: dict[int, float | None]) -> None:
        leases = [{"pid": pid, "started": started} for pid, started in sorted(holders.items())]
        write_json_atomic(self.path, json.dumps({"leases": leases}))


class ServiceFiles(Generic[StateT]):
    """Where a service and its clients meet. `folder`: a folder of the service's own, which it
    removes when it retires (unless a newer one is starting there)."""

    def __init__(self, model: type[StateT], *, state: Path, lock: Path, leases: Path, starting: Path, log: Path,
                 folder: Path | None = None, dir_mode: int = 0o777) -> None:
        self.model = model
        self.state = state
        self.lock = lock
        self.leases = Leases(leases)
        self.starting = starting
        self.log = log  # the name a service starts under: each pid logs to its own (`log_of`)
        self.folder = folder
        self.dir_mode = dir_mode

    def read(self) -> StateT | None:
        return read_state(self.state, self.model)

    def write(self, state: StateT) -> None:
        write_json_atomic(self.state, state.model_dump_json())  # mkstemp: readable by this user only

    def withdraw(self, pid: int) -> None:
        """Delete the state if it still names `pid` (a successor may have written its own)."""
        current = self.read()
        if current is not None and current.pid == pid:
            self.state.unlink(missing_ok=True)

    def log_of(self, pid: int) -> Path:
        return pid_log(self.log, pid)

    def starting_pid(self) -> int | None:
        """The pid of a service started here that still runs (it may have written its state since)."""
        starting = read_state(self.starting, _Starting)
        return starting.pid if starting is not None and child_alive(starting.pid, starting.started) else None

    def locked(self, wait: bool = True) -> AbstractContextManager[None]:
        """The lock; wait=False raises BlockingIOError at once while another process holds it."""
        return file_lock(self.lock, wait, self.dir_mode)

    def release(self, holder: int | None, last: Callable[[StateT], None] | None = None) -> StateT | None:
        """End `holder`'s lease (None: all). If no live lease is left, calls `last` with the state
        under the lock (to stop the service, before another process can lease it) and returns it."""
        with self.locked():
            self.leases.give_up(holder)
            state = self.read()
            if state is None or self.leases.live():
                return None
            if last is not None:
                last(state)
            return state


class StartFailed(Exception):
    """A service that ended while starting (`how`), or did not serve in time (`how` None: it was killed)."""

    def __init__(self, pid: int, how: str | None, log: Path, timeout: float) -> None:
        super().__init__(f"pid {pid} {how or f'did not serve within {timeout:.0f} s'}")
        self.pid = pid
        self.how = how
        self.log = log
        self.timeout = timeout
        self.log_tail = read_end(log)

    def describe(self, name: str, slow: str = "", about: str = "") -> str:
        """What a failed start says, the same for every service: `slow` what may have kept it from
        serving in time, `about` what it was started for."""
        said = f"did not start within {self.timeout:.0f} s{slow}" if self.how is None else f"{self.how} while starting"
        return f"{name} (pid {self.pid}) {said}{about}. Its log ({self.log}) ends with:\n{quoted(self.log_tail)}"


class Service(Generic[StateT]):
    """Finding or starting one service, under its lock. `healthy` asks the process a state names
    whether it is that service (over HTTP): a live pid whose port another process took is not."""

    def __init__(self, files: ServiceFiles[StateT], module: str, healthy: Callable[[StateT], bool],
                 start_timeout: float) -> None:
        self.files = files
        self.module = module
        self.healthy = healthy
        self.start_timeout = start_timeout

    def live(self) -> StateT | None:
        state = self.files.read()
        return state if state is not None and state.alive() and self.healthy(state) else None

    def find_or_start(self, holder: int, args: Callable[[], Sequence[str]],
                      starting: Callable[[], None] | None = None) -> StateT:
        """The live service, leased for process `holder`: found, or one being started waited for, or
        started (`python -m module *args()`, `starting` called first) and waited for."""
        with self.files.locked():
            self.files.leases.take(holder)
            state = self.live()
            if state is not None:
                return state
            pid = self._starting()
            if pid is None:
                if starting is not None:
                    starting()
                pid = self._spawn(args())
            return self.wait_ready(pid)

    def prewarm(self, holder: int, args: Callable[[], Sequence[str]]) -> StateT | None:
        """Lease it and start it without waiting, so that its start overlaps other work; the live one
        if found. Raises BlockingIOError while another process holds the lock (it is at it)."""
        with self.files.locked(wait=False):
            self.files.leases.take(holder)
            state = self.live()
            if state is None and self._starting() is None:
                self._spawn(args())
            return state

    def wait_ready(self, pid: int) -> StateT:
        """Look for the state file the service writes once it serves: no file descriptor to inherit, on any OS."""
        deadline = time.monotonic() + self.start_timeout
        pause, growth, most = READY_POLL
        while time.monotonic() < deadline:
            state = self.files.read()
            if state is not None and state.pid == pid and self.healthy(state):
                return state
            if not child_alive(pid):
                raise StartFailed(pid, exit_description(pid), self.files.log_of(pid), self.start_timeout)
            time.sleep(pause)
            pause = min(pause * growth, most)
        kill(pid)
        while child_alive(pid) and time.monotonic() < deadline + 5:
            time.sleep(0.02)
        raise StartFailed(pid, None, self.files.log_of(pid), self.start_timeout)

    def _starting(self) -> int | None:
        """A service another process started that has not written its state yet."""
        pid = self.files.starting_pid()
        state = self.files.read()
        return None if pid is None or (state is not None and state.pid == pid) else pid

    def _spawn(self, args: Sequence[str]) -> int:
        """Start one (under the lock) and note its pid, for other processes to wait for it."""
        proc, _ = spawn(self.module, args, self.files.log)
        starting = _Starting(pid=proc.pid, started=started_at(proc.pid))
        write_json_atomic(self.files.starting, starting.model_dump_json())
        prune_logs(self.files.log)
        return proc.pid


class Hold(Generic[StateT]):
    """A client's hold on a service: the one it uses (found or started when first needed by `find`)
    and the deaths it saw. A run replaces a dead service once: a crash that repeats would repeat again."""

    def __init__(self, find: Callable[[], StateT], log_of: Callable[[int], Path]) -> None:
        self.find = find
        self.log_of = log_of
        self.state: StateT | None = None
        self.deaths: list[Death] = []
        self.gave_up: str | None = None  # set when its replacement died too: every later call fails with it
        self._lock = threading.Lock()

    def current(self) -> StateT:
        with self._lock:
            if self.state is None:
                self.state = self.find()
            return self.state

    def lost(self, state: StateT, within: float = 0.0) -> Death | None:
        """The death of `state`'s service, noted once, if it is gone (waiting up to `within` s: a killed
        process drops its connections a moment before it is gone); the hold lets go of it, so
        `current` finds or starts another. None while it runs."""
        deadline = time.monotonic() + within
        while state.alive():
            if time.monotonic() >= deadline:
                return None
            time.sleep(0.02)
        with self._lock:
            death = next((death for death in self.deaths if death.pid == state.pid), None)
            if death is None:
                death = Death.of(state.pid, self.log_of(state.pid))
                self.deaths.append(death)
            if self.state is not None and self.state.pid == state.pid:
                self.state = None
            return death

    @property
    def replaced(self) -> bool:
        """Whether its replacement died too: no third one is started."""
        return len(self.deaths) > 1

    def told(self, name: str, fix: str) -> str:
        """The deaths it saw of the service called `name`, each with its log's end, then `fix` (the
        last death's `Death.fix`)."""
        return "\n".join(death.describe(name) for death in self.deaths) + f"\nFix: {fix}"
