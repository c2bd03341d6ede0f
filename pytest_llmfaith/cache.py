"""The judge-answer store: the only module that talks to diskcache.

Values are JSON text (never pickles), keys are SHA-256 hex digests of a canonical JSON of the
request. A broken store never breaks a run in `use`/`refresh`: it warns once and the run goes on
uncached. In `replay` a broken store is an error, because replay promises answers it cannot give.
A read-only store still serves reads (CI runners often mount a restored cache read-only).
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
import warnings
from pathlib import Path
from typing import Any, Protocol

from .errors import JudgeError

CACHE_FORMAT = 1


class CacheWarning(UserWarning):
    """The judge cache could not be used as asked; the run continues without that part of it."""


class _Store(Protocol):
    def get(self, key: str) -> Any: ...


def canonical_json(data: Any) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def request_key(request: dict[str, Any]) -> str:
    """The key of a judge request: everything that decides the answer, and nothing else.
    surrogatepass: a lone surrogate in the text under test still gets a key (same bytes as before
    for every valid text)."""
    text = canonical_json({"cache_format": CACHE_FORMAT, **request})
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


class _ReadOnlyStore:
    """Reads a diskcache directory that cannot be written (diskcache itself refuses to open it)."""

    def __init__(self, directory: Path) -> None:
        import diskcache

        db = directory / "cache.db"
        if not db.is_file():
            raise sqlite3.OperationalError(f"no cache.db in {directory}")
        for flags in ("mode=ro", "mode=ro&immutable=1"):  # immutable: when even -shm can't be made
            try:
                self._db = sqlite3.connect(f"file:{db}?{flags}", uri=True, check_same_thread=False)
                self._db.execute("SELECT 1 FROM Cache LIMIT 1")
                break
            except sqlite3.OperationalError:
                if "immutable" in flags:
                    raise
        self._disk = diskcache.Disk(str(directory))

    def get(self, key: str) -> Any:
        row = self._db.execute(
            "SELECT mode, filename, value FROM Cache WHERE key = ? AND raw = 1", (key,)
        ).fetchone()
        return None if row is None else self._disk.fetch(row[0], row[1], row[2], False)


class JudgeCache:
    """Reads and writes judge answers according to the cache mode (use/refresh/replay/off)."""

    def __init__(self, directory: Path | None, mode: str = "use") -> None:
        self.directory = directory
        self.mode = mode if directory is not None else "off"
        self._store: _Store | None = None
        self._writable = mode in ("use", "refresh")
        self._opened = False
        self._lock = threading.Lock()

    def get(self, key: str) -> dict[str, Any] | None:
        if self.mode not in ("use", "replay") or (store := self._open()) is None:
            return None
        try:
            raw = store.get(key)
        except (sqlite3.Error, OSError) as err:
            self._broken(f"reading failed: {err}")
            return None
        try:
            return json.loads(raw) if isinstance(raw, str) else None
        except ValueError:
            return None

    def set(self, key: str, value: dict[str, Any]) -> None:
        if not self._writable or (store := self._open()) is None:
            return
        try:
            store.set(key, canonical_json(value))  # type: ignore[attr-defined]
        except (sqlite3.Error, OSError) as err:
            self._writable = False
            self._warn(f"writing failed: {err}", "Answers will not be stored.")

    def close(self) -> None:
        close = getattr(self._store, "close", None)
        if close is not None:
            close()
        self._store, self._opened = None, False

    def _open(self) -> _Store | None:
        """Open on first use, so a run that never scores writes no files."""
        if self._opened:
            return self._store
        with self._lock:
            if not self._opened:
                self._store = self._connect()
                self._opened = True
        return self._store

    def _connect(self) -> _Store | None:
        import diskcache

        assert self.directory is not None  # mode "off" never opens
        try:
            return diskcache.Cache(str(self.directory), eviction_policy="none")
        except (sqlite3.Error, OSError) as err:
            first_error = err
        try:
            store = _ReadOnlyStore(self.directory)
        except (sqlite3.Error, OSError):
            self._broken(f"it cannot be opened: {first_error}")
            return None
        if self._writable:
            self._writable = False
            warnings.warn(CacheWarning(
                f"llmfaith: the judge cache at {self.directory} is read-only ({first_error}). Stored "
                "answers are used; new ones are not stored. Fix: make it writable, or point "
                "--llm-cache-dir somewhere writable."), stacklevel=2)
        return store

    def _broken(self, problem: str) -> None:
        if self.mode == "replay":
            raise JudgeError(self._message(problem)) from None
        self._warn(problem, "Running uncached.")
        self.mode, self._writable, self._store, self._opened = "off", False, None, True

    def _warn(self, problem: str, consequence: str) -> None:
        warnings.warn(CacheWarning(f"{self._message(problem)} {consequence}"), stacklevel=2)

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
