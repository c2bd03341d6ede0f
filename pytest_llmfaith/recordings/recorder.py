"""Recordings: the committed, reviewable text form of the judge answers a suite uses, and a
process's view of them during the run, the judge's first store (the run's end writes them).

One file per test module, so two branches touching different modules touch different files.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from pytest_llmfaith.judge.stores import Entry, StoredAnswer
from pytest_llmfaith.recordings.recording_format import RecordingFile, load, recording_path
from pytest_llmfaith.running import asked_outside, running_test

SELF_CHECK = "(judge self-check)"  # `recorded_by` of the self-check's answers
SHOWN_DIGITS = 2  # of a label's P(yes) in a recording, unless more are needed to stay on its side of a threshold


def reviewable(entry: StoredAnswer, p_yes: float, thresholds: tuple[float, ...], exact: bool = False) -> StoredAnswer:
    """P(yes), not the judge's next tokens, rounded only as far as keeps it on the same side of every
    threshold, so replay gives the recording run's verdicts. `exact` (votes draw against it): unrounded."""
    shown = p_yes if exact else _same_side(p_yes, thresholds)
    return entry.model_copy(update={"answer": {"p_yes": shown}})


def _same_side(p: float, thresholds: tuple[float, ...]) -> float:
    """p rounded to SHOWN_DIGITS, or to as many digits as keep it on its side of every threshold."""
    for digits in range(SHOWN_DIGITS, 17):
        rounded = round(p, digits)
        if all((rounded >= threshold) == (p >= threshold) for threshold in thresholds):
            return rounded
    return p


class Recorder:
    """A process's view of the recordings (the judge's `Recordings` store): answers from the running
    test's module file, and a note on the running test of every answer it used (the controller
    writes the files from those)."""

    def __init__(self, folder: str | None, mode: str, thresholds: tuple[float, ...] = (), exact: bool = False) -> None:
        self.folder = folder
        self.mode = mode
        self.thresholds = thresholds  # a label's P(yes) stays on its side of each (the scorers')
        self.exact = exact  # a label's P(yes) unrounded: votes draw against it
        self._files: dict[Path, RecordingFile] = {}

    def path(self) -> Path | None:
        test = running_test()
        return recording_path(test.path, self.folder) if test is not None and self.folder else None

    def get(self, key: str) -> dict[str, Any] | None:
        if self.mode not in ("use", "replay") or (path := self.path()) is None:
            return None
        if path not in self._files:
            self._files[path] = load(path)
        entry = self._files[path].entries.get(key)
        return None if entry is None else entry.model_dump(mode="json")

    def keep(self, key: str, entry: Entry) -> None:
        """A new answer the asking test used: its module's recording keeps it."""
        self.used(key, lambda: entry)

    def used(self, key: str, entry: Callable[[], Entry]) -> None:
        """Note an answer the asking test used, found anywhere or new. The entry is made only for a
        recording: without recordings the key alone is noted (the cache's unused-entry report reads
        it), so a cached re-run does not redact and serialise every answer it reads for nobody."""
        if self.mode == "off" or (test := running_test()) is None:
            return
        if not self.folder:
            test.note_used(key, {})
            return
        made = entry()
        stored = made.stored if made.p_yes is None else reviewable(made.stored, made.p_yes, self.thresholds, self.exact)
        test.note_used(key, stored.model_dump(mode="json"))

    def recorded_by(self) -> str:
        """Who stores a new answer in the working cache: the running test's file, else who asks outside tests."""
        test = running_test()
        if test is None:
            return asked_outside()
        from pytest_llmfaith.errors import redact  # a path may hold a credential too

        return redact(test.nodeid.split("::")[0])


def never_recorded(value: dict[str, Any]) -> bool:
    """The judge self-check's answers: no test module's recording holds them, so no recording's
    absence makes them unused; they live in the working cache only."""
    return value.get("recorded_by") == SELF_CHECK


def unused_cache_entries(entries: Iterable[tuple[str, float, dict[str, Any]]], used: set[str]) -> dict[str, list[str]]:
    """Working-cache entries the run did not use, by the test file that first stored them."""
    found: dict[str, list[str]] = {}
    for key, _, value in entries:
        if key not in used and not never_recorded(value):
            found.setdefault(value.get("recorded_by") or "(unknown test file)", []).append(key)
    return found
