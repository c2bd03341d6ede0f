"""The run's shared state: one private folder every process of the run (xdist workers) reaches,
for the budget's counters and the single flight's locks and answers."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from pytest_llmfaith.errors import JudgeError
from pytest_llmfaith.judge.keyvalue import FILENAME, KeyValueFile


def run_folder(run_dir: Path, name: str) -> Path:
    """A folder of the run's shared state (the run's JudgeRun.run_dir), made by the first process of the
    run that needs it: the run's folder itself is private to the user (0o700)."""
    run_dir.mkdir(mode=0o700, exist_ok=True)
    folder = run_dir / name
    folder.mkdir(exist_ok=True)
    return folder


class SharedCounters:
    """Integer counters shared by the processes of a run (xdist workers), in our key-value file:
    its writes and transactions are atomic across processes. Used for the run's judge budget."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self._store: KeyValueFile | None = None
        self.problem: str | None = None  # why the counters cannot be read, once they could not
        self._lock = threading.Lock()

    def get(self, name: str) -> int:
        with self._readable():
            return int(self._open().get(name) or 0)

    def find(self, name: str) -> int | None:
        """The counter, or None when it was never set."""
        with self._readable():
            value = self._open().get(name)
        return None if value is None else int(value)

    def add(self, name: str, delta: int = 1) -> int:
        with self._readable():
            return self._open().add(name, delta)

    def set(self, name: str, value: int) -> None:
        with self._readable():
            self._open().set(name, value)

    @contextmanager
    def transaction(self) -> Iterator[SharedCounters]:
        """Reads and writes inside are one step for every process of the run (SQLite's BEGIN
        IMMEDIATE): what is checked stays true until what depends on it is written."""
        with self._readable(), self._open().transaction():
            yield self

    @contextmanager
    def _readable(self) -> Iterator[None]:
        """A damaged SQLite file (something else wrote there, a failing disk) is a JudgeError naming
        it, so the call it counts is an ERROR, never a pass, nor a bare sqlite3 traceback."""
        try:
            yield
        except sqlite3.DatabaseError as err:
            run_dir = self.directory.parent
            self.problem = f"the run's shared counters {self.directory / FILENAME} cannot be read ({err})"
            raise JudgeError(
                f"llmfaith: {self.problem}, so this judge call cannot be counted against the run's budget "
                "and is not made. Fix: run the tests again: each run has its own folder, removed at its end "
                f"(delete {run_dir} if a crashed run left it); if it happens again, something else writes "
                "there or the disk is failing.") from None

    def close(self) -> None:
        if self._store is not None:
            self._store.close()
            self._store = None

    def _open(self) -> KeyValueFile:
        with self._lock:
            if self._store is None:
                self._store = KeyValueFile.writing(run_folder(self.directory.parent, self.directory.name) / FILENAME)
        return self._store
