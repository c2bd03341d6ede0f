"""Files shared by the processes of a machine: locks, state written atomically, logs.

Locks are filelock's (fcntl on POSIX, LockFileEx on Windows), imported on first use: a run that
never calls the judge needs none.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from pydantic import BaseModel

StateT = TypeVar("StateT", bound="BaseModel")
REPLACE_TRIES = 100  # 10 ms apart: a reader holds a state file for well under a second


@contextlib.contextmanager
def file_lock(path: Path, wait: bool = True, dir_mode: int = 0o777) -> Iterator[None]:
    """Exclusive cross-process lock; wait=False raises BlockingIOError at once. A lock whose folder the
    holder removed (an idle relay retiring) is retaken on the new file, or a waiter would hold a
    lock nobody else can see."""
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


@contextlib.contextmanager
def atomic_file(path: Path, mode: str = "w", private: bool = True, encoding: str | None = None) -> Iterator[IO[Any]]:
    """The one way we write a file whole or not at all: into a temp file beside it (a name no other
    process or thread uses), renamed over it when the block ends, removed if the block raises, so
    readers never see half a file. `private`: readable by this user only (state files); else as
    the umask says (files users commit)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
    fd = os.open(tmp, flags, 0o600 if private else 0o666)
    try:
        with open(fd, mode, encoding=encoding) as fh:
            yield fh
        _replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def write_json_atomic(path: Path, text: str) -> None:
    """A state file written whole (atomic_file), readable by this user only."""
    with atomic_file(path) as fh:
        fh.write(text)


def _replace(source: Path, target: Path) -> None:
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
