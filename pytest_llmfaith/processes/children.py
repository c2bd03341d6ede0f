"""The background processes this package starts (the offline judge's server, the judge relay).

Both are children started detached (outside the run's process group, output to a log named by
pid), found again by their pid and a loopback HTTP port, and told apart from a dead one the same
way: a child that exited stays a zombie until it is reaped, which psutil tells apart. Both are
shared by the processes that hold a lease on them (`Leases`), and exit by themselves an idle
timeout after the last leaseholder is gone. Locks are filelock's and liveness psutil's, so the
same code runs on POSIX and Windows (what differs is asked of `capabilities`); both are imported
on first use, since a run that never calls the judge needs neither.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import signal
import subprocess
import tempfile
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from pytest_llmfaith.processes.capabilities import detached, python_executable, user_tag

if TYPE_CHECKING:
    import urllib.request

    from pydantic import BaseModel

StateT = TypeVar("StateT", bound="BaseModel")

LOG_TAIL = 3000
# The processes this process started, to reap them and read how they ended.
_children: dict[int, subprocess.Popen[bytes]] = {}
PACKAGE_ROOT = str(Path(__file__).resolve().parents[2])


def relay_root() -> Path:
    """Where the judge relays of this user keep their folders (see relay.py)."""
    return Path(tempfile.gettempdir()) / f"llmfaith-relay-{user_tag()}"


@contextlib.contextmanager
def file_lock(path: Path, wait: bool = True, dir_mode: int = 0o777) -> Iterator[None]:
    """Exclusive lock (filelock: fcntl on POSIX, LockFileEx on Windows) so concurrent
    installers/workers queue. With wait=False, raises BlockingIOError at once when another process
    holds it.

    The lock is the file at `path` when it is taken: one whose folder was removed by the holder
    (an idle relay removes its own, under its lock) is let go and the new file at `path` locked,
    so that a waiter never holds a lock nobody else can see."""
    import filelock

    while True:
        path.parent.mkdir(mode=dir_mode, parents=True, exist_ok=True)
        lock = filelock.FileLock(path)
        try:
            lock.acquire(timeout=-1 if wait else 0)
        except filelock.Timeout:
            raise BlockingIOError(f"{path} is locked by another process") from None
        except FileNotFoundError:  # the folder went between mkdir and the lock
            continue
        try:
            if path.exists():
                yield
                return
        finally:
            lock.release()


REPLACE_TRIES = 100  # 10 ms apart: a reader holds a state file for well under a second


def write_json_atomic(path: Path, text: str) -> None:
    """Write via a temp file (mode 0600, as mkstemp makes it) + os.replace so readers never see half a file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w") as fh:
            fh.write(text)
        _replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def _replace(source: str, target: Path) -> None:
    """os.replace, again while it is refused: Windows refuses to replace a file that another
    process has open (a run reading the leases), for as long as it reads it."""
    for _ in range(REPLACE_TRIES - 1):
        try:
            os.replace(source, target)
            return
        except PermissionError:
            time.sleep(0.01)
    os.replace(source, target)


def read_state(path: Path, model: type[StateT]) -> StateT | None:
    """A state file written with write_json_atomic; None if it is missing or not of this shape
    (pydantic's ValidationError is a ValueError)."""
    try:
        return model.model_validate_json(path.read_text())
    except (OSError, ValueError):
        return None


class Leases:
    """The pids of the processes using a shared background process, in a JSON file: it stays up
    while one of them lives, and a crashed holder's lease lapses by itself (its pid is gone)."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def live(self) -> list[int]:
        try:
            pids = json.loads(self.path.read_text())["pids"]
        except (OSError, ValueError, KeyError, TypeError):
            return []
        return [pid for pid in pids if isinstance(pid, int) and pid_alive(pid)]

    def set(self, pids: list[int]) -> None:
        """Replace the leases; call under the lock of what they hold."""
        write_json_atomic(self.path, json.dumps({"pids": sorted(set(pids))}))


def prune_logs(log: Path, keep: int = 3) -> None:
    """Delete all but the newest `keep` per-pid logs of processes started with `log` as their log name."""
    logs = sorted(log.parent.glob(f"{log.stem}.*.log"), key=_mtime, reverse=True)
    for old in logs[keep:]:
        with contextlib.suppress(FileNotFoundError):
            old.unlink()


def stat_line(path: Path) -> str:
    """A file as far as a process that loaded it is concerned: path, size, modification time."""
    try:
        stat = path.stat()
    except OSError:
        return f"{path}:missing"
    return f"{path}:{stat.st_size}:{stat.st_mtime_ns}"


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0


def spawn(module: str, args: Sequence[str], log: Path) -> tuple[subprocess.Popen[bytes], Path]:
    """Start `python -m module args` detached, its output in `<log stem>.<pid>.log` (returned with
    the process): one log per process, so a dead one's log outlives its successor. The child opens
    its log itself (`childlog`); -X faulthandler leaves a crashing native library's Python stack there."""
    log.parent.mkdir(parents=True, exist_ok=True)
    # The child must import this same package even when it is on sys.path only via pytest.
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [PACKAGE_ROOT, env.get("PYTHONPATH")]))
    command = [python_executable(env), "-X", "faulthandler", "-m", "pytest_llmfaith.processes.childlog",
               str(log), module, *args]
    proc = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, env=env, **detached())
    _children[proc.pid] = proc
    return proc, pid_log(log, proc.pid)


def pid_log(log: Path, pid: int) -> Path:
    """The log of process `pid` started with `log` as its log name."""
    return log.with_name(f"{log.stem}.{pid}.log")


def pid_alive(pid: int) -> bool:
    """Whether process `pid` runs. psutil, since os.kill(pid, 0) ends the process on Windows and
    /proc is Linux's; a dead child whose parent (another worker) has not reaped it yet is dead."""
    import psutil

    try:
        return bool(psutil.Process(pid).status() != psutil.STATUS_ZOMBIE)
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


def child_alive(pid: int) -> bool:
    """Whether process `pid` still runs (reaping it if this process started it)."""
    child = _children.get(pid)
    return child.poll() is None if child is not None else pid_alive(pid)


def exit_description(pid: int) -> str:
    """How process `pid` ended, as known here: the exit code or signal if this process started it."""
    child = _children.get(pid)
    code = child.poll() if child is not None else None
    if code is None:
        return "exited (its exit status went to the process that started it; see its log)"
    if code < 0:
        try:
            return f"was killed by signal {signal.Signals(-code).name}"
        except ValueError:
            return f"was killed by signal {-code}"
    return f"exited with code {code}"


def request_json(port: int, path: str, method: str = "GET", headers: dict[str, str] | None = None,
                 body: bytes | None = None, timeout: float = 5) -> dict[str, object]:
    """One JSON request to a process of ours on 127.0.0.1 (never through an http_proxy setting)."""
    import urllib.request

    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", method=method, headers=headers or {},
                                     data=body if body is not None else (b"" if method == "POST" else None))
    with _loopback_opener().open(request, timeout=timeout) as response:
        payload = json.loads(response.read())
    if not isinstance(payload, dict):
        raise ValueError("unexpected answer")
    return payload


@functools.cache
def _loopback_opener() -> urllib.request.OpenerDirector:
    """Made on first use: urllib.request is a dozen modules that a run without a judge call skips."""
    import urllib.request

    return urllib.request.build_opener(urllib.request.ProxyHandler({}))


def tail(path: Path) -> str:
    try:
        return path.read_bytes()[-LOG_TAIL:].decode(errors="replace").strip() or "(empty)"
    except OSError:
        return "(no log)"
