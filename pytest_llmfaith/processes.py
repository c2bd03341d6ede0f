"""The background processes this package starts (the offline judge's server, the judge relay).

Both are children started detached (own session, output to a log named by pid), found again by
their pid and a loopback HTTP port, and told apart from a dead one the same way: a child that
exited stays a zombie, which looks alive to `os.kill(pid, 0)`, until it is reaped. Both are
shared by the processes that hold a lease on them (`Leases`), and exit by themselves an idle
timeout after the last leaseholder is gone. Stdlib only.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    import urllib.request

    from pydantic import BaseModel

StateT = TypeVar("StateT", bound="BaseModel")

LOG_TAIL = 3000
# The processes this process started, to reap them and read how they ended.
_children: dict[int, subprocess.Popen[bytes]] = {}
PACKAGE_ROOT = str(Path(__file__).resolve().parents[1])


def relay_root() -> Path:
    """Where the judge relays of this user keep their folders (see relay.py)."""
    return Path(tempfile.gettempdir()) / f"llmfaith-relay-{os.getuid()}"


@contextlib.contextmanager
def file_lock(path: Path, wait: bool = True, dir_mode: int = 0o777) -> Iterator[None]:
    """Exclusive advisory lock (fcntl, POSIX only) so concurrent installers/workers queue.
    With wait=False, raises BlockingIOError at once when another process holds it.

    The lock is the file at `path` when it is taken: one whose folder was removed by the holder
    (an idle relay removes its own, under its lock) is dropped and the new file at `path` locked,
    so that a waiter never holds a lock nobody else can see."""
    import fcntl

    while True:
        path.parent.mkdir(mode=dir_mode, parents=True, exist_ok=True)
        try:
            fh = open(path, "a+")
        except FileNotFoundError:  # the folder went between mkdir and open
            continue
        with fh:
            fcntl.flock(fh, fcntl.LOCK_EX if wait else fcntl.LOCK_EX | fcntl.LOCK_NB)
            try:
                if _same_file(fh.fileno(), path):
                    yield
                    return
            finally:
                fcntl.flock(fh, fcntl.LOCK_UN)


def _same_file(fd: int, path: Path) -> bool:
    try:
        found = path.stat()
    except FileNotFoundError:
        return False
    held = os.fstat(fd)
    return (held.st_dev, held.st_ino) == (found.st_dev, found.st_ino)


def unlocked(path: Path) -> threading.Event:
    """An event set, without polling, once no process holds an exclusive lock on `path` (a
    starting process holds one until it is ready; a dead one holds none)."""
    import fcntl

    done = threading.Event()
    try:
        fh = open(path)
    except OSError:
        done.set()
        return done

    def take() -> None:
        with fh:
            fcntl.flock(fh, fcntl.LOCK_SH)
            fcntl.flock(fh, fcntl.LOCK_UN)
        done.set()

    threading.Thread(target=take, name="llmfaith-unlocked", daemon=True).start()
    return done


def write_json_atomic(path: Path, text: str) -> None:
    """Write via a temp file (mode 0600, as mkstemp makes it) + os.replace so readers never see half a file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w") as fh:
            fh.write(text)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


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


def spawn(command: Sequence[str], log: Path, pass_fds: Sequence[int] = ()) -> tuple[subprocess.Popen[bytes], Path]:
    """Start `command` detached, its output in `<log stem>.<pid>.log` (returned with the process):
    one log per process, so a dead one's log outlives its successor. `pass_fds` are inherited."""
    log.parent.mkdir(parents=True, exist_ok=True)
    # The child must import this same package even when it is on sys.path only via pytest.
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [PACKAGE_ROOT, env.get("PYTHONPATH")]))
    with open(log, "wb") as out:
        proc = subprocess.Popen(list(command), stdin=subprocess.DEVNULL, stdout=out, stderr=out,
                                env=env, start_new_session=True, pass_fds=tuple(pass_fds))
    _children[proc.pid] = proc
    log_path = pid_log(log, proc.pid)
    log.replace(log_path)
    return proc, log_path


def pid_log(log: Path, pid: int) -> Path:
    """The log of process `pid` started with `log` as its log name."""
    return log.with_name(f"{log.stem}.{pid}.log")


def python_module(module: str, *args: str) -> list[str]:
    """The command running `module` with this interpreter; -X faulthandler leaves a crashing
    native library's Python stack in the log."""
    return [sys.executable, "-X", "faulthandler", "-m", module, *args]


def pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return not _zombie(pid)


def _zombie(pid: int) -> bool:
    """A dead child whose parent (another worker) has not reaped it yet still answers kill(0)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rpartition(")")[2].split()[:1] == ["Z"]


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
