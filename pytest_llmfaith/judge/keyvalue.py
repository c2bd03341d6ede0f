"""Our SQLite key-value file, the one format of the judge cache and of the run's counters.

One table of ours (key, store time, value), so no other library's private layout is read. Opened
to read, it writes nothing, and a read-only folder still serves: the promises and the measurement
that chose it over diskcache (which rewrites its settings on every open) are in
docs/cache-and-recordings.md.
"""

from __future__ import annotations

import random
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

FILENAME = "cache.db"
TABLE = "entries"
TIMEOUT = 60.0  # seconds a write waits for another process's to end (xdist workers share the file)
BUSY = {5, 6}  # SQLITE_BUSY, SQLITE_LOCKED
T = TypeVar("T")


class BeingCreated(Exception):
    """A file with no table yet: another process (an xdist worker) is creating it, so it is empty, not broken."""


class OtherTables(sqlite3.DatabaseError):
    """A file with tables but not ours: someone else's database, reported and never written into."""

    def __init__(self) -> None:
        super().__init__(f"no such table: {TABLE}")


class KeyValueFile:
    """Keys to JSON-able scalars (text, integers), shared by the processes of a machine: every write
    is a transaction (SQLite's BEGIN IMMEDIATE), and `transaction()` makes several one."""

    def __init__(self, db: sqlite3.Connection, read_only: bool = False) -> None:
        self._db = db
        self.read_only = read_only
        self._lock = threading.RLock()  # one connection for the process's threads: a transaction is theirs alone
        self._depth = 0

    @classmethod
    def reading(cls, path: Path) -> KeyValueFile:
        """An existing file, opened so that reading changes no byte: read-write when it may (its last
        connection then removes SQLite's -wal/-shm files), else read-only, else immutable (a
        read-only folder, where even -shm cannot be made)."""
        for flags in ("mode=rw", "mode=ro", "mode=ro&immutable=1"):
            db = sqlite3.connect(f"file:{path}?{flags}", uri=True, timeout=TIMEOUT, check_same_thread=False,
                                 isolation_level=None)
            try:
                tables = _patiently(partial(_tables, db))
                if TABLE not in tables:
                    raise OtherTables() if tables else BeingCreated()
                _patiently(partial(db.execute, f"SELECT 1 FROM {TABLE} LIMIT 1"))
                return cls(db, read_only=flags != "mode=rw")
            except sqlite3.OperationalError as err:
                db.close()
                if "immutable" in flags or _busy(err):  # busy past the timeout is no reason to stop writing
                    raise
            except BaseException:
                db.close()
                raise
        raise AssertionError("unreachable")  # the last flags re-raise

    @classmethod
    def writing(cls, path: Path) -> KeyValueFile:
        """The file, made if missing, in write-ahead-log mode: readers never wait for a writer."""
        db = sqlite3.connect(path, timeout=TIMEOUT, check_same_thread=False, isolation_level=None)
        try:
            if _patiently(lambda: db.execute("PRAGMA journal_mode").fetchone()[0]) != "wal":
                _patiently(lambda: db.execute("PRAGMA journal_mode = WAL").fetchall())
            db.execute("PRAGMA synchronous = NORMAL")  # durable at checkpoints, never corrupt
            _patiently(lambda: db.execute(
                f"CREATE TABLE IF NOT EXISTS {TABLE} (key TEXT PRIMARY KEY, stored REAL NOT NULL, value)"))
        except BaseException:
            db.close()
            raise
        return cls(db)

    def get(self, key: str) -> Any:
        with self._lock:
            row = self._db.execute(f"SELECT value FROM {TABLE} WHERE key = ?", (key,)).fetchone()
        return None if row is None else row[0]

    def rows(self) -> list[tuple[str, float, Any]]:
        """Every (key, store time, value), sorted by key."""
        with self._lock:
            return self._db.execute(f"SELECT key, stored, value FROM {TABLE} ORDER BY key").fetchall()

    def set(self, key: str, value: Any) -> None:
        self.set_many([(key, value)])

    def set_many(self, items: Iterable[tuple[str, Any]]) -> None:
        with self.transaction():
            now = time.time()
            self._db.executemany(f"INSERT OR REPLACE INTO {TABLE} VALUES (?, ?, ?)",
                                 ((key, now, value) for key, value in items))

    def add(self, key: str, delta: int) -> int:
        """The integer at key (0 when missing) plus delta, stored and returned."""
        with self.transaction():
            value = int(self.get(key) or 0) + delta
            self.set(key, value)
        return value

    def delete(self, key: str) -> bool:
        with self.transaction():
            return self._db.execute(f"DELETE FROM {TABLE} WHERE key = ?", (key,)).rowcount > 0

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """Reads and writes inside are one step for every process and thread: what is checked stays
        true until what depends on it is written. Nested ones join the outermost."""
        with self._lock:
            if self._depth:
                self._depth += 1
                try:
                    yield
                finally:
                    self._depth -= 1
                return
            self._db.execute("BEGIN IMMEDIATE")
            self._depth = 1
            try:
                yield
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            else:
                self._db.execute("COMMIT")
            finally:
                self._depth = 0

    def close(self) -> None:
        with self._lock:
            self._db.close()


def _tables(db: sqlite3.Connection) -> set[str]:
    return {name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


def _busy(err: sqlite3.OperationalError) -> bool:
    code = getattr(err, "sqlite_errorcode", None)  # Python 3.11+
    return code & 0xFF in BUSY if code is not None else "locked" in str(err) or "busy" in str(err)


def _patiently(step: Callable[[], T]) -> T:
    """Where waiting could deadlock (a journal-mode change, a read that turns into a write), SQLite
    answers "database is locked" at once instead of waiting: processes creating the file together
    (xdist workers on a fresh cache) would then run uncached. Wait here instead, up to TIMEOUT."""
    deadline = time.monotonic() + TIMEOUT
    while True:
        try:
            return step()
        except sqlite3.OperationalError as err:
            if not _busy(err) or time.monotonic() > deadline:
                raise
            time.sleep(random.uniform(0.005, 0.05))
