"""The recordings' file format: one JSON file per test module, its entries, read and written.

Deterministic bytes (sorted keys and tests, two-space indent) and written only when they change,
so a run that used the same answers leaves the files alone.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field, SerializerFunctionWrapHandler, ValidationError, model_serializer

from pytest_llmfaith.errors import ConfigError
from pytest_llmfaith.processes.files import atomic_file

RECORDINGS_FORMAT = 1


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
    recorded_by: str = ""  # who stored it: the asking test's file (plugin/housekeeping.py reports by it)
    p_yes: float | None = None

    def value(self) -> dict[str, Any]:
        return {**self.stored.model_dump(mode="json"), "recorded_by": self.recorded_by}


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
