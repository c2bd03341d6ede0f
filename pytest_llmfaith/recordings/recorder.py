"""Recordings: the committed, reviewable text form of the judge answers a suite uses.

One JSON file per test module, `<test dir>/<folder>/<module>.json` (like syrupy's `__snapshots__`
or VCR cassettes): two branches that touch different modules touch different files. Entries are
keyed by the request hash, sorted, indented, with what was asked, the answer (claims, verdicts,
reasons, label probabilities) and the tests that use it, so a reviewer reads the judge in the diff.

Workers only read them. The controller writes them once, at the end of the run, from the answers
every test reported (pytest's report channel, as for scores): the bytes depend on neither -n nor
the order tests ran in, and a run that used the same answers writes nothing.
"""

from __future__ import annotations

import json
import os
import re
import threading
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from pydantic import (
    BaseModel,
    Field,
    SerializerFunctionWrapHandler,
    ValidationError,
    model_serializer,
)

from pytest_llmfaith.errors import ConfigError
from pytest_llmfaith.plugin.session import USED_KEY, running_item

RECORDINGS_FORMAT = 1
SHOWN_CONTEXT_CHARS = 400  # what a reviewer needs to see of the context, not all of it
DATA_TAGS = ("input", "output", "claims", "claim", "context")
SELF_CHECK = "(judge self-check)"  # `recorded_by` of the self-check's answers


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


class RecordedAnswer(StoredAnswer):
    tests: list[str] = Field(default_factory=list)  # the tests of the module that use it; [] = unused


class RecordingFile(BaseModel):
    format: int = RECORDINGS_FORMAT
    entries: dict[str, RecordedAnswer] = Field(default_factory=dict)

    def dump(self) -> str:
        """Deterministic text: sorted keys and tests, two-space indent, one trailing newline."""
        data = self.model_dump(mode="json")
        for entry in data["entries"].values():
            entry["tests"] = sorted(set(entry["tests"]))
        return json.dumps(data, sort_keys=True, indent=2, ensure_ascii=False) + "\n"


def recording_path(test_file: Path, folder: str) -> Path:
    return test_file.parent / folder / f"{test_file.stem}.json"


def load(path: Path) -> RecordingFile:
    """A missing file is empty; a broken one is an error naming the file and the fix."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return RecordingFile()
    try:
        return RecordingFile.model_validate_json(text)
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
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    # backslashreplace: a lone surrogate in a text under test becomes a valid JSON escape
    partial.write_text(text, encoding="utf-8", errors="backslashreplace")
    partial.replace(path)
    return True


def _between(text: str, tag: str) -> str | None:
    found = re.findall(rf"<{tag}>\n(.*?)\n</{tag}>", text, re.DOTALL)
    return found[-1] if found else None  # the last: a prompt's worked example comes first


def _short(text: str, limit: int = SHOWN_CONTEXT_CHARS) -> str:
    return text if len(text) <= limit else text[:limit] + f"... [{len(text) - limit} more chars]"


def summarise(messages: list[dict[str, str]]) -> dict[str, Any]:
    """What a reviewer needs to see of a request: the data it was about, not the instructions.
    The fenced sections of the scorers' prompts, or the claim and question of a label prompt."""
    text = messages[-1]["content"] if messages else ""
    asked: dict[str, Any] = {}
    for tag in DATA_TAGS:
        value = _between(text, tag)
        if value is None:
            continue
        if tag == "claims":
            try:
                asked[tag] = json.loads(value)
                continue
            except ValueError:
                pass
        asked[tag] = _short(value) if tag == "context" else value
    if not asked:  # a label prompt: Document / Claim / question
        for name, pattern in (("context", r"Document:\n(.*?)\n\nClaim:"), ("claim", r"\nClaim: (.*?)\n")):
            if found := re.search(pattern, text, re.DOTALL):
                asked[name] = _short(found.group(1)) if name == "context" else found.group(1)
        asked["question"] = text.strip().splitlines()[-1] if text.strip() else ""
    return asked


SHOWN_DIGITS = 2  # of a label's P(yes) in a recording, unless more are needed to stay on its side of a threshold


def reviewable(entry: StoredAnswer, exact: bool = False) -> StoredAnswer:
    """A label answer as a reviewer reads it: P(yes), not the judge's 20 next tokens (the working
    cache keeps them). Rounded to two digits, or to as many as keep it on the same side of every
    threshold a label compares it with, so replay gives the verdicts the recording run gave.
    `exact`: with votes, each drawn vote compares P(yes) with a random number: nothing is rounded."""
    from pytest_llmfaith.judge.client import NextToken
    from pytest_llmfaith.scorers.labels import CONTRADICTED_AT, SUPPORTED_AT, p_yes

    p = p_yes(NextToken.model_validate(entry.answer))
    shown = p if exact else _same_side(p, (SUPPORTED_AT, CONTRADICTED_AT))
    return entry.model_copy(update={"answer": {"p_yes": shown}})


def _same_side(p: float, thresholds: tuple[float, ...]) -> float:
    """p rounded to SHOWN_DIGITS, or to as many digits as keep it on its side of every threshold."""
    for digits in range(SHOWN_DIGITS, 17):
        rounded = round(p, digits)
        if all((rounded >= threshold) == (p >= threshold) for threshold in thresholds):
            return rounded
    return p


class Recorder:
    """A process's view of the recordings: answers from the running test's module file, and a note
    on the running test of every answer it used (the controller writes the files from those)."""

    def __init__(self, folder: str | None, mode: str) -> None:
        self.folder = folder
        self.mode = mode
        self.outside = ""  # who asks outside any test: library use (""), or SELF_CHECK
        self._files: dict[Path, RecordingFile] = {}
        self._lock = threading.Lock()  # the judge's threads (ask_each, async assertions) note answers at once

    def path(self) -> Path | None:
        item = running_item()
        return recording_path(item.path, self.folder) if item is not None and self.folder else None

    def get(self, key: str) -> dict[str, Any] | None:
        if self.mode not in ("use", "replay") or (path := self.path()) is None:
            return None
        if path not in self._files:
            self._files[path] = load(path)
        entry = self._files[path].entries.get(key)
        return None if entry is None else entry.model_dump(mode="json")

    def used(self, key: str, entry: StoredAnswer) -> None:
        item = running_item()
        if item is not None and self.mode != "off":
            noted = entry.model_dump(mode="json")
            with self._lock:  # Stash.setdefault is not atomic
                item.stash.setdefault(USED_KEY, {})[key] = noted

    def recorded_by(self) -> str:
        """Who stores a new answer in the working cache: the running test's file, else `outside`."""
        item = running_item()
        return item.nodeid.split("::")[0] if item is not None else self.outside


def update(path: Path, used: dict[str, tuple[dict[str, Any], set[str]]], passed: set[str],
           reported: set[str] | None, prune: bool, save: bool) -> tuple[list[str], bool]:
    """Update one module's recording from a run; return its unused keys and whether it was written.

    An entry keeps the tests that used it now, and those of its earlier tests that did not pass
    this run (skipped, failed, not selected: they may still need it); `reported` (a full run)
    drops earlier tests that no longer exist. An entry left with no test is unused."""
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
