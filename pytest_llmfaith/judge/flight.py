"""Single flight: within a run, one judge request is asked once, however many workers ask it at once.

Without it, workers that missed the cache for one key each kept their own answer and the
recordings only one: replay then passed tests that had failed. An OS lock file per key (freed
when its process dies); under `--llm-cache=off` every request is asked. A store of the judge's
(judge/stores.py) that is read only while its key is held.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pytest_llmfaith.judge.run_state import run_folder
from pytest_llmfaith.processes.files import atomic_file

if TYPE_CHECKING:
    from pytest_llmfaith.recordings.recording_format import Entry


class Flights:
    def __init__(self, run_dir: Path) -> None:
        self.run_dir = run_dir

    @contextmanager
    def alone(self, key: str) -> Iterator[None]:
        """Hold the key: whoever else asks it waits, then finds the answer with `get`."""
        from filelock import FileLock

        with FileLock(self._folder() / f"{key}.lock"):
            yield

    def get(self, key: str) -> dict[str, Any] | None:
        """The answer this run already got for the key, if any (read while holding it)."""
        try:
            value = json.loads((self._folder() / f"{key}.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        return value if isinstance(value, dict) else None

    def keep(self, key: str, entry: Entry) -> None:
        """Written whole or not at all (a rename): a reader never sees half an answer."""
        with atomic_file(self._folder() / f"{key}.json", private=False, encoding="utf-8") as fh:
            fh.write(json.dumps(entry.value()))  # ASCII: a lone surrogate is escaped

    def _folder(self) -> Path:
        return run_folder(self.run_dir, "flights")
