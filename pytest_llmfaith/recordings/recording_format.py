"""The recordings' files: one JSON file per test module, its entries (the judge's stored answers with
the tests that use them), read, written from what a run's tests used, found under a tree, pruned
and merged.

Deterministic bytes (sorted keys and tests, two-space indent) and written only when they change,
so a run that used the same answers leaves the files alone. Only the controller writes, once at
the end of the run, from what every test reported: the bytes depend on neither -n nor test order.
Format: docs/cache-and-recordings.md.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from pydantic import BaseModel, Field, ValidationError

from pytest_llmfaith.errors import ConfigError
from pytest_llmfaith.judge.stores import StoredAnswer
from pytest_llmfaith.processes.files import atomic_file
from pytest_llmfaith.running import ModuleRun, Used

RECORDINGS_FORMAT = 1


class RecordedAnswer(StoredAnswer):
    tests: list[str] = Field(default_factory=list)  # the tests of the module that use it; [] = unused


class RecordingFile(BaseModel):
    format: int = RECORDINGS_FORMAT
    entries: dict[str, RecordedAnswer] = Field(default_factory=dict)

    def dump(self) -> str:
        """Deterministic text: sorted keys and tests, two-space indent, one trailing newline. A lone
        surrogate (a text under test decoded wrongly upstream) becomes its JSON escape, which `load`
        reads back as it was: UTF-8 has no bytes for it, and the bytes written are these."""
        data = self.model_dump(mode="json")
        for entry in data["entries"].values():
            entry["tests"] = sorted(set(entry["tests"]))
        text = json.dumps(data, sort_keys=True, indent=2, ensure_ascii=False) + "\n"
        return text.encode("utf-8", "backslashreplace").decode("utf-8")


def recording_path(test_file: Path, folder: str) -> Path:
    return test_file.parent / folder / f"{test_file.stem}.json"


def load(path: Path) -> RecordingFile:
    """A missing file is empty; a broken one is an error naming the file and the fix."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return RecordingFile()
    try:
        # the standard library's parser: pydantic's refuses the escape of a lone surrogate
        return RecordingFile.model_validate(json.loads(text))
    except (ValidationError, ValueError) as err:
        raise ConfigError(
            f"llmfaith: the recordings file {path} is not valid ({str(err).splitlines()[0]}). Fix: "
            f"resolve its merge conflict or restore it (git checkout -- {path}); `python -m "
            "pytest_llmfaith cache merge` joins two versions of it.") from None


def write(path: Path, recording: RecordingFile) -> bool:
    """Write only when the bytes change (atomically); an empty recording removes its file."""
    text = recording.dump() if recording.entries else ""
    old = path.read_text(encoding="utf-8") if path.exists() else ""
    if text == old:
        return False
    if not text:
        path.unlink()
        return True
    with atomic_file(path, private=False, encoding="utf-8") as fh:
        fh.write(text)
    return True


SKIPPED_DIRS = {".git", ".venv", "venv", "node_modules", "__pycache__", ".tox", ".nox"}

@dataclass
class Conflict:
    """An entry two merged sources answered differently: the first answer is kept."""

    key: str
    step: str | None
    kept: Path
    dropped: Path


def record_run(rootdir: Path, folder: str, modules: Iterable[ModuleRun], full: bool, prune: bool,
               save: bool) -> tuple[dict[Path, list[str]], list[Path]]:
    """Update each module's recording from the run: its unused keys by file, and the files written.
    `full`: every collected test ran, so tests gone from the module lose their entries."""
    unused: dict[Path, list[str]] = {}
    written: list[Path] = []
    for run in modules:
        path = recording_path(rootdir / run.module, folder)
        if not run.used and not path.exists():
            continue
        stale, changed = update(path, run.used, run.passed, run.reported if full else None, prune, save)
        if stale:
            unused[path] = stale
        if changed:
            written.append(path)
    return unused, written


def update(path: Path, used: Used, passed: set[str], reported: set[str] | None, prune: bool,
           save: bool) -> tuple[list[str], bool]:
    """Return the module's unused keys and whether it was written. Earlier tests that did not pass
    this run keep their entries (they may still need them); a full run (`reported`) drops gone tests."""
    recording = load(path)
    for entry in recording.entries.values():
        kept = set(entry.tests) - passed
        entry.tests = sorted(kept & reported if reported is not None else kept)
    for key, (data, tests) in used.items():
        old = recording.entries.get(key)
        recording.entries[key] = RecordedAnswer.model_validate({**data, "tests": [*tests, *(old.tests if old else ())]})
    stale = sorted(key for key, entry in recording.entries.items() if not entry.tests)
    if prune:
        for key in stale:
            del recording.entries[key]
    return stale, save and write(path, recording)


def find(root: Path, folder: str) -> list[Path]:
    """Every `<folder>/*.json` under root, sorted, without descending into VCS or virtualenv folders."""
    found: list[Path] = []
    for here, dirs, _ in os.walk(root):
        dirs[:] = [d for d in dirs if d not in SKIPPED_DIRS and not (d.startswith(".") and d != folder)]
        if Path(here).name == folder:
            found += Path(here).glob("*.json")
    return sorted(found)


def load_all(root: Path, folder: str) -> dict[Path, RecordingFile]:
    return {path: load(path) for path in find(root, folder)}


def prune(files: dict[Path, RecordingFile], doomed: Callable[[RecordedAnswer], bool]) -> int:
    """Remove the entries `doomed` picks from each file and write the files; how many were removed."""
    removed = 0
    for path, recording in files.items():
        stale = [key for key, entry in recording.entries.items() if doomed(entry)]
        for key in stale:
            del recording.entries[key]
        removed += len(stale)
        write(path, recording)
    return removed


def merge(dest: Path, sources: Iterable[Path], folder: str) -> tuple[int, int, list[Conflict]]:
    """Join the recordings of several trees (CI shards) into dest: the files merged, those written,
    and the entries answered differently (the destination's answer, then the first source's, stays)."""
    merged: dict[Path, RecordingFile] = {}
    conflicts: list[Conflict] = []
    for src in sources:
        for path in find(src, folder):
            target = dest / path.relative_to(src)
            into_file = merged.setdefault(target, load(target))
            for key, entry in load(path).entries.items():
                old = into_file.entries.get(key)
                if old is not None and old.answer != entry.answer:
                    conflicts.append(Conflict(key, old.step, target, path))
                into_file.entries[key] = RecordedAnswer.model_validate(
                    {**(old or entry).model_dump(), "tests": [*entry.tests, *(old.tests if old else ())]})
    written = sum(write(path, recording) for path, recording in merged.items())
    return len(merged), written, conflicts
