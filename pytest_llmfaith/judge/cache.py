"""The judge-answer store, in our key-value file (judge/keyvalue.py). Values are JSON, never pickles.

A broken store warns once, except in `replay`, which promises answers it cannot give.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import warnings
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pytest_llmfaith.errors import JudgeError
from pytest_llmfaith.judge.keyvalue import FILENAME, BeingCreated, KeyValueFile
from pytest_llmfaith.settings import CACHE_MODES

if TYPE_CHECKING:
    from pytest_llmfaith.judge.stores import Entry

GITIGNORE = ("# written by pytest-llmfaith when it made this folder: the working judge cache is not committed\n"
             "# (the recordings next to the tests are). To commit it on purpose, delete this file: it is\n"
             "# only written when the folder is made. See docs/cache-and-budget.md.\n*\n")


class CacheWarning(UserWarning):
    """The judge cache could not be used as asked; the run continues without that part of it."""


class JudgeCache:
    """Answers by cache mode. Its folder gets a `.gitignore`: the reviewed, committed form is the recordings."""

    def __init__(self, directory: str | os.PathLike[str] | None, mode: str = "use") -> None:
        if mode not in CACHE_MODES:
            raise ValueError(f"unknown cache mode {mode!r}: use one of {', '.join(CACHE_MODES)}")
        self.directory = Path(directory) if directory is not None else None
        self.mode = mode if directory is not None else "off"
        self._reader: KeyValueFile | None = None
        self._writer: KeyValueFile | None = None  # opened on the first write
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
        store = self._writer or (self._open() if self.directory is not None else None)
        for key, stored, raw in store.rows() if store is not None else ():
            try:
                yield key, stored, json.loads(raw)
            except (TypeError, ValueError):
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
    def _open(self) -> KeyValueFile | None:
        """Open on first use, so a run that never scores writes no files; a directory without a
        cache.db yet is an empty store (replay on a fresh clone creates nothing)."""
        if self._opened:
            return self._reader
        with self._lock:
            if not self._opened:
                self._reader = self._connect()
                self._opened = True
        return self._reader

    def _connect(self) -> KeyValueFile | None:
        assert self.directory is not None  # mode "off" never opens
        if self.directory.is_file():
            self._broken("it is a file")
            return None
        if not (self.directory / FILENAME).exists():
            return None
        try:
            reader = KeyValueFile.reading(self.directory / FILENAME)
        except BeingCreated:
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

    def _open_writer(self) -> KeyValueFile | None:
        if self._writer is not None or self.mode == "off":
            return self._writer
        self._open()  # a corrupt or read-only store is found (and warned about) once, here
        if not self._writable:
            return None
        assert self.directory is not None
        with self._lock:
            if self._writer is None:
                try:
                    made = not self.directory.exists()
                    self.directory.mkdir(parents=True, exist_ok=True)
                    self._writer = KeyValueFile.writing(self.directory / FILENAME)
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

