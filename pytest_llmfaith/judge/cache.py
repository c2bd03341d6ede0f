"""The judge-answer store: the only module that talks to diskcache. Values are JSON, never pickles.

Reads go through plain SQLite and diskcache opens on the first write only: opening it rewrites
its settings table (a modified `cache.db` in `git status`), and a cached run skips its import.
A broken store warns once, except in `replay`, which promises answers it cannot give.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
import warnings
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pytest_llmfaith.errors import JudgeError

if TYPE_CHECKING:
    from pytest_llmfaith.recordings.recording_format import Entry

CACHE_FORMAT = 1
GITIGNORE = ("# written by pytest-llmfaith when it made this folder: the working judge cache is not committed\n"
             "# (the recordings next to the tests are). To commit it on purpose, delete this file: it is\n"
             "# only written when the folder is made. See docs/cache-and-budget.md.\n*\n")


class CacheWarning(UserWarning):
    """The judge cache could not be used as asked; the run continues without that part of it."""


def canonical_json(data: Any) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def request_key(request: dict[str, Any]) -> str:
    """Everything that decides the answer, nothing else. surrogatepass: a lone surrogate still gets
    a key (unchanged bytes for valid text)."""
    text = canonical_json({"cache_format": CACHE_FORMAT, **request})
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


_MODE_RAW, _MODE_TEXT = 1, 3  # diskcache's value modes (diskcache.core.MODE_RAW, MODE_TEXT)


class _BeingCreated(Exception):
    """A store another xdist worker is creating (no table, or only Settings) is empty, not broken."""


class _Reader:
    """Reads a diskcache directory without diskcache: a read changes no byte of `cache.db`, and
    a read-write connection that only reads removes SQLite's -wal/-shm files when it closes."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        db = directory / "cache.db"
        self.read_only = False
        for flags in ("mode=rw", "mode=ro", "mode=ro&immutable=1"):  # immutable: when even -shm can't be made
            try:
                self._db = sqlite3.connect(f"file:{db}?{flags}", uri=True, check_same_thread=False)
                self._db.execute("SELECT 1 FROM Cache LIMIT 1")
                break
            except sqlite3.OperationalError as err:
                if "no such table" in str(err) and self._tables() <= {"Settings"}:
                    self._db.close()  # diskcache creates Settings first: another process is creating it
                    raise _BeingCreated from None
                self.read_only = True
                if "immutable" in flags:
                    raise

    def _tables(self) -> set[str]:
        return {name for (name,) in self._db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}

    def get(self, key: str) -> str | None:
        row = self._db.execute(
            "SELECT mode, filename, value FROM Cache WHERE key = ? AND raw = 1", (key,)
        ).fetchone()
        return None if row is None else self._text(*row)

    def rows(self) -> Iterator[tuple[str, float, str]]:
        """Every (key, store time, text), sorted by key; entries that hold no text are skipped."""
        for key, stored, mode, filename, value in self._db.execute(
                "SELECT key, store_time, mode, filename, value FROM Cache WHERE raw = 1 ORDER BY key").fetchall():
            if (text := self._text(mode, filename, value)) is not None:
                yield key, stored, text

    def _text(self, mode: int, filename: str | None, value: Any) -> str | None:
        """diskcache's str layout (in the row, or a file from 32 KiB on), read here to spare its import.
        Other modes (bytes, pickles) never hold an answer: a miss."""
        if mode == _MODE_RAW:
            return value if isinstance(value, str) else None
        if mode == _MODE_TEXT and filename:
            return (self.directory / filename).read_text(encoding="utf-8")
        return None

    def close(self) -> None:
        self._db.close()


class JudgeCache:
    """Answers by cache mode. Its folder gets a `.gitignore`: the reviewed, committed form is the recordings."""

    def __init__(self, directory: Path | None, mode: str = "use") -> None:
        self.directory = directory
        self.mode = mode if directory is not None else "off"
        self._reader: _Reader | None = None
        self._writer: Any = None  # diskcache.Cache, opened on the first write
        self._writable = mode in ("use", "refresh")
        self._opened = False
        self._lock = threading.Lock()

    def get(self, key: str) -> dict[str, Any] | None:
        if self.mode not in ("use", "replay"):
            return None
        try:
            raw = self._writer.get(key) if self._writer is not None else \
                (reader.get(key) if (reader := self._open()) is not None else None)
        except (sqlite3.Error, OSError) as err:
            self._broken(f"reading failed: {err}")
            return None
        try:
            return json.loads(raw) if isinstance(raw, str) else None
        except ValueError:
            return None

    def keep(self, key: str, entry: Entry) -> None:
        """A new answer, for the runs after this one (judge/stores.py)."""
        self.set(key, entry.value())

    def set(self, key: str, value: dict[str, Any]) -> None:
        """Store a value as it is (`cache merge` copies other stores' values)."""
        if not self._writable or (writer := self._open_writer()) is None:
            return
        try:
            # ASCII: a lone surrogate is escaped
            writer.set(key, json.dumps(value, sort_keys=True, separators=(",", ":")))
        except (sqlite3.Error, OSError) as err:
            self._writable = False
            self._warn(f"writing failed: {err}", "Answers will not be stored.")

    # -- housekeeping (python -m pytest_llmfaith cache) -----------------------------------
    def entries(self) -> Iterator[tuple[str, float, dict[str, Any]]]:
        """Every stored answer as (key, store time, value), sorted by key; unreadable values skipped."""
        reader = self._open() if self.directory is not None else None
        for key, stored, raw in reader.rows() if reader is not None else ():
            try:
                yield key, stored, json.loads(raw)
            except ValueError:
                continue

    def delete(self, keys: Iterable[str]) -> int:
        writer = self._open_writer()
        return 0 if writer is None else sum(bool(writer.delete(key)) for key in keys)

    def close(self) -> None:
        for store in (self._reader, self._writer):
            if store is not None:
                store.close()
        self._reader, self._writer, self._opened = None, None, False

    # -- opening --------------------------------------------------------------------------
    def _open(self) -> _Reader | None:
        """Open on first use, so a run that never scores writes no files; a directory without a
        cache.db yet is an empty store (replay on a fresh clone creates nothing)."""
        if self._opened:
            return self._reader
        with self._lock:
            if not self._opened:
                self._reader = self._connect()
                self._opened = True
        return self._reader

    def _connect(self) -> _Reader | None:
        assert self.directory is not None  # mode "off" never opens
        if self.directory.is_file():
            self._broken("it is a file")
            return None
        if not (self.directory / "cache.db").exists():
            return None
        try:
            reader = _Reader(self.directory)
        except _BeingCreated:
            return None
        except (sqlite3.Error, OSError) as err:
            self._broken(f"it cannot be opened: {err}")
            return None
        if reader.read_only and self._writable:
            self._writable = False
            warnings.warn(CacheWarning(
                f"llmfaith: the judge cache at {self.directory} is read-only. Stored answers are used; "
                "new ones are not stored. Fix: make it writable, or point --llm-cache-dir somewhere "
                "writable."), stacklevel=3)
        return reader

    def _open_writer(self) -> Any:
        if self._writer is not None or self.mode == "off":
            return self._writer
        self._open()  # a corrupt or read-only store is found (and warned about) once, here
        if not self._writable:
            return None
        import diskcache

        assert self.directory is not None
        with self._lock:
            if self._writer is None:
                try:
                    made = not self.directory.exists()
                    self._writer = diskcache.Cache(str(self.directory), eviction_policy="none")
                    if made:
                        (self.directory / ".gitignore").write_text(GITIGNORE, encoding="utf-8")
                except (sqlite3.Error, OSError) as err:
                    self._broken(f"it cannot be opened: {err}")
        return self._writer

    def _broken(self, problem: str) -> None:
        if self.mode == "replay":
            raise JudgeError(self._message(problem)) from None
        self._warn(problem, "Running uncached.")
        self.mode, self._writable, self._reader, self._opened = "off", False, None, True

    def _warn(self, problem: str, consequence: str) -> None:
        warnings.warn(CacheWarning(f"{self._message(problem)} {consequence}"), stacklevel=3)

    def _message(self, problem: str) -> str:
        """The fix depends on what is there: a file is no cache, and replay's recordings must
        never be thrown away."""
        if self.directory is not None and self.directory.is_file():
            return (f"llmfaith: --llm-cache-dir {self.directory} is a file, not a directory. Fix: "
                    "point --llm-cache-dir at a directory (or move that file away).")
        if self.mode == "replay":
            return (f"llmfaith: the recorded judge cache at {self.directory} is unusable ({problem}); "
                    "replay mode needs a readable cache. Fix: restore the recordings (e.g. `git "
                    f"checkout -- {self.directory}` or your CI cache restore), or re-record them with "
                    "--llm-cache=use and a reachable judge. Do not delete it.")
        return (
            f"llmfaith: the judge cache at {self.directory} is unusable ({problem}). "
            "Fix: delete that directory, or point --llm-cache-dir somewhere writable."
        )
