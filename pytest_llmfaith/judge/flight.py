"""Single flight: within a run, one judge request is asked once, however many xdist workers and
threads ask it at the same moment, and every test that asks it gets that one answer.

Without it, four workers that missed the cache for one key at once each asked the judge, each test
kept its own answer and the recordings only one of them: replay then passed tests that had failed.
The askers share a folder of the run (session.run_dir): a lock file per request key, held while
the request is in flight (an operating-system lock, released when its process dies), and the
answer once it came. It holds where answers are stored (`use`, and `refresh`, whose run asks each
request once); under `--llm-cache=off` every request is asked.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from pytest_llmfaith.judge.cache import run_folder


class Flights:
    def __init__(self, run_dir: Path) -> None:
        self.run_dir = run_dir

    @contextmanager
    def alone(self, key: str) -> Iterator[None]:
        """Hold the key: whoever else asks it waits, then finds the answer with `answer`."""
        from filelock import FileLock

        with FileLock(self._folder() / f"{key}.lock"):
            yield

    def answer(self, key: str) -> dict[str, Any] | None:
        """The answer this run already got for the key, if any (read while holding it)."""
        try:
            value = json.loads((self._folder() / f"{key}.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        return value if isinstance(value, dict) else None

    def keep(self, key: str, value: dict[str, Any]) -> None:
        """Written whole or not at all (a rename): a reader never sees half an answer."""
        path = self._folder() / f"{key}.json"
        partial = path.with_name(f".{key}.{os.getpid()}.tmp")
        partial.write_text(json.dumps(value), encoding="utf-8")  # ASCII: a lone surrogate is escaped
        partial.replace(path)

    def _folder(self) -> Path:
        return run_folder(self.run_dir, "flights")
