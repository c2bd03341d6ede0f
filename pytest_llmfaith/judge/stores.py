"""Where the judge finds an answer before asking, and keeps the answers it uses: the record a store
keeps (`StoredAnswer`, `Entry`), the protocol each store implements, and the stores in the order the
judge walks them: the committed recordings (reviewed; implemented above the judge), the working
cache, and the run's single flight.

Single flight (`Flights`): within a run, one judge request is asked once, however many workers miss
it at once: the others wait for that answer. Without it, each kept its own answer and the recordings
only one: replay then passed tests that had failed. An OS lock file per key (freed when its process dies).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from pydantic import BaseModel, Field, SerializerFunctionWrapHandler, model_serializer

from pytest_llmfaith.processes.files import atomic_file

if TYPE_CHECKING:
    from pytest_llmfaith.judge.cache import JudgeCache


def run_folder(run_dir: Path, name: str) -> Path:
    """A folder of the run's shared state (single flight's, the budget's), made by the first process
    of the run that needs it: the run's folder itself is private to the user (0o700)."""
    run_dir.mkdir(mode=0o700, exist_ok=True)
    folder = run_dir / name
    folder.mkdir(exist_ok=True)
    return folder


class StoredAnswer(BaseModel):
    """One judge answer with what was asked: the value of the working cache and of a recording."""

    step: str = ""
    model: str = ""
    prompt_version: str = ""
    sample: int = 0  # which vote of --llm-judge-votes it answers, from 0 (the plain request)
    asked: dict[str, Any] = Field(default_factory=dict)  # a readable summary of the request
    answer: Any = None
    usage: dict[str, int] = Field(default_factory=dict)
    cost_usd: float | None = None

    @model_serializer(mode="wrap")
    def _plain_request_unmarked(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        """Sample 0 is left out: runs without votes write the bytes they wrote before votes."""
        data: dict[str, Any] = handler(self)
        if not self.sample:
            data.pop("sample", None)
        return data


@dataclass(frozen=True)
class Entry:
    """An answer as the judge's stores keep it: the working cache and single flight keep its value,
    a recording the answer alone (a label's as its P(yes), `p_yes`)."""

    stored: StoredAnswer
    recorded_by: str = ""  # who stored it: the asking test's file (the unused-entry report names it)
    p_yes: float | None = None

    def value(self) -> dict[str, Any]:
        return {**self.stored.model_dump(mode="json"), "recorded_by": self.recorded_by}


class Store(Protocol):
    def get(self, key: str) -> dict[str, Any] | None:
        """The value kept for the key, or None. The judge validates it: it may be of an older schema."""
        ...

    def keep(self, key: str, entry: Entry) -> None:
        """Keep an answer the judge used."""
        ...


class Recordings(Store, Protocol):
    """The committed recordings (implemented above the judge): the running test's module file."""

    def path(self) -> Path | None:
        """The recording that answers for the running test, if any."""
        ...

    def used(self, key: str, entry: Callable[[], Entry]) -> None:
        """The running test used this answer, found anywhere or new (the entry made only for a recording)."""
        ...

    def recorded_by(self) -> str:
        """Who stores a new answer: the running test's file, or who asks outside tests."""
        ...


class Flights:
    """A store read only while its key is held."""

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


class Stores:
    """The judge's stores in the order it walks them. The recordings keep every answer a test
    uses, found or new (the run's recordings are written from those); the others new ones only."""

    def __init__(self, cache: JudgeCache, recordings: Recordings | None = None, flights: Flights | None = None) -> None:
        self.cache = cache
        self.recordings = recordings
        self.flights = flights  # None: every miss is asked (no run to share answers with, or --llm-cache=off)
        self._read: tuple[Store, ...] = tuple(s for s in (recordings, cache) if s is not None)
        # single flight before the cache: the processes waiting on the key read it there
        self._kept: tuple[Store, ...] = tuple(s for s in (recordings, flights, cache) if s is not None)

    @property
    def replay(self) -> bool:
        """Stored answers only: a miss is an error, never a request."""
        return self.cache.mode == "replay"

    def get(self, key: str) -> dict[str, Any] | None:
        """The first store holding the key answers, even with a value that no longer validates."""
        for store in self._read:
            if (found := store.get(key)) is not None:
                return found
        return None

    @contextmanager
    def alone(self, key: str) -> Iterator[dict[str, Any] | None]:
        """Hold a missed key while it is asked; gives what another process of the run got for it meanwhile."""
        if self.flights is None:
            yield None
            return
        with self.flights.alone(key):
            yield self.flights.get(key)

    def used(self, key: str, entry: Callable[[], Entry]) -> None:
        """A stored answer served: noted for the asking test's recording (the entry made only for one)."""
        if self.recordings is not None:
            self.recordings.used(key, entry)

    def keep(self, key: str, entry: Entry) -> None:
        """A new answer, kept everywhere."""
        for store in self._kept:
            store.keep(key, entry)

    def recorded_by(self) -> str:
        """Who stores a new answer: the asking test's file, or who asks outside tests ("" without recordings)."""
        return self.recordings.recorded_by() if self.recordings is not None else ""
