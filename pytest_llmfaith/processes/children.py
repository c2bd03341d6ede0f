"""The background processes this package starts (the offline judge's server, the judge relay):
spawned detached, told alive or dead, killed; the services are built on them.

A process is named by its pid and its start time: the OS reuses pids, so a pid alone may name a
newer process. The start time must read the same in every process and at every moment, so it is the
kernel's own record, never one computed from the wall clock (`started_at`). psutil keeps one code path
for POSIX and Windows; it is imported on first use, since a run that never calls the judge needs none
of this.

Each child starts as `python -m pytest_llmfaith.processes.children LOG MODULE ARGS...` (`main`),
which sends its output to `<LOG stem>.<pid>.log`: the child names its log because Windows cannot
rename a file a running process holds open, and opens it before the module is imported, so an
import error or native crash lands in it. A process that exits on its own, however it does, says
so last (`ENDED`): a log without that line is the log of a process killed from outside, which only
its parent could otherwise tell.
"""

from __future__ import annotations

import contextlib
import os
import runpy
import signal
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import NoReturn

from pytest_llmfaith.processes.capabilities import boot_ticks, detached, has_proc, python_executable, user_tag

# The processes this process started, to reap them and read how they ended.
_children: dict[int, subprocess.Popen[bytes]] = {}
_started: dict[int, float | None] = {}  # their start times

UNKNOWN_EXIT = "exited (its exit status went to the process that started it; see its log)"
ENDED = "llmfaith: this process exits on its own"  # the last line of a child's log, when it exits on its own
PACKAGE_ROOT = str(Path(__file__).resolve().parents[2])


def relay_root() -> Path:
    """Where the judge relays of this user keep their folders (see relay/identity.py)."""
    return Path(tempfile.gettempdir()) / f"llmfaith-relay-{user_tag()}"


def spawn(module: str, args: Sequence[str], log: Path) -> tuple[subprocess.Popen[bytes], Path]:
    """Start `python -m module args` detached, one log per pid, so a dead one's log outlives its
    successor; -X faulthandler leaves a crashing native library's Python stack there."""
    log.parent.mkdir(parents=True, exist_ok=True)
    # The child must import this same package even when it is on sys.path only via pytest.
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [PACKAGE_ROOT, env.get("PYTHONPATH")]))
    command = [python_executable(env), "-X", "faulthandler", "-m", "pytest_llmfaith.processes.children",
               str(log), module, *args]
    proc = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, env=env, **detached())
    _children[proc.pid] = proc
    _started[proc.pid] = started_at(proc.pid)
    return proc, pid_log(log, proc.pid)


def pid_log(log: Path, pid: int) -> Path:
    """The log of process `pid` started with `log` as its log name."""
    return log.with_name(f"{log.stem}.{pid}.log")


def started_at(pid: int) -> float | None:
    """When process `pid` started, as every process reads it at any time: where /proc describes
    processes (Linux), the clock ticks from boot to its start. psutil's create_time adds to them a
    boot time that Linux recomputes from the wall clock at each read, so NTP moves it, and two
    processes reading it a moment apart may disagree by a second: a live lease would lapse.
    Elsewhere, psutil's creation time, which the kernel keeps as a date. None: not running (a
    zombie counts as gone), or another user's that this OS does not describe."""
    if has_proc():
        return boot_ticks(pid)
    import psutil

    try:
        process = psutil.Process(pid)
        return None if process.status() == psutil.STATUS_ZOMBIE else float(process.create_time())
    except (psutil.NoSuchProcess, psutil.AccessDenied):  # ZombieProcess too (macOS)
        return None


def pid_alive(pid: int, started: float | None = None) -> bool:
    """Whether process `pid` runs, and is the one that started at `started` when that is given.
    psutil: os.kill(pid, 0) ends the process on Windows; an unreaped zombie counts as dead."""
    if has_proc():
        seen = boot_ticks(pid)
        return seen is not None and _same_start(seen, started)
    import psutil

    try:
        process = psutil.Process(pid)
        if process.status() == psutil.STATUS_ZOMBIE:
            return False
        return _same_start(float(process.create_time()), started)
    except psutil.NoSuchProcess:  # ZombieProcess too (macOS)
        return False
    except psutil.AccessDenied:  # another user's: alive
        return True


def kill(pid: int) -> None:
    """End process `pid` at once (SIGKILL on POSIX, TerminateProcess on Windows); gone already is fine."""
    child = _children.get(pid)
    if child is not None:
        child.kill()
        return
    import psutil

    with contextlib.suppress(psutil.NoSuchProcess):
        psutil.Process(pid).kill()


def child_alive(pid: int, started: float | None = None) -> bool:
    """Whether process `pid` (started at `started`, when given) still runs, reaping it if this
    process started it."""
    child = _children.get(pid)
    if child is None or not _same_start(_started.get(pid), started):  # a reused pid of a child that ended
        return pid_alive(pid, started)
    return child.poll() is None


def ended_children() -> list[tuple[int, str]]:
    """The processes this process started that have ended, and how: only it can read that."""
    return [(pid, exit_description(pid)) for pid, child in _children.items() if child.poll() is not None]


def exit_description(pid: int) -> str:
    """How process `pid` ended, as known here: the exit code or signal if this process started it."""
    child = _children.get(pid)
    code = child.poll() if child is not None else None
    if code is None:
        return UNKNOWN_EXIT
    if code < 0:
        try:
            return f"was killed by signal {signal.Signals(-code).name}"
        except ValueError:
            return f"was killed by signal {-code}"
    return f"exited with code {code}"


def _same_start(seen: float | None, started: float | None) -> bool:
    """Read from the kernel's own record, a process's start reads the same in every process: equal,
    or another process has its pid now (a tolerance would let a pid reused within it pass)."""
    return seen is None or started is None or seen == started


def redirect_output(log: Path) -> None:
    """Point this process's stdout and stderr (the descriptors, for native code too) at its log."""
    log.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(pid_log(log, os.getpid()), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    for stream in (sys.stdout, sys.stderr):
        if stream is not None:
            stream.flush()
    os.dup2(fd, 1)
    os.dup2(fd, 2)
    os.close(fd)


def leave(code: int) -> NoReturn:
    """os._exit (no collection of a heavy import's objects at exit), said in the log as any exit is."""
    print(ENDED, flush=True)
    sys.stderr.flush()
    os._exit(code)


def main(argv: list[str]) -> None:
    if len(argv) < 2:
        raise SystemExit("usage: python -m pytest_llmfaith.processes.children LOG MODULE [ARGS...]")
    log, module, args = Path(argv[0]), argv[1], argv[2:]
    redirect_output(log)
    sys.argv = [module, *args]
    try:
        runpy.run_module(module, run_name="__main__", alter_sys=True)
    finally:  # an exception's traceback follows
        print(ENDED, flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
