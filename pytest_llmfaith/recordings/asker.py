"""Who is asking the judge: what the core needs to know of the test that runs.

The pytest layer hands one in (the running test and its stash); the judge and the recordings
never import pytest. Outside pytest nobody is asking (`NOBODY`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, NamedTuple, Protocol


class AskingTest(NamedTuple):
    nodeid: str
    path: Path  # its module: the recording file is found from it


class Asker(Protocol):
    def asking(self) -> AskingTest | None:
        """The test being run (setup, call or teardown, also from its threads), or None."""
        ...

    def note_used(self, key: str, answer: dict[str, Any]) -> None:
        """The asking test used this stored answer: its module's recording keeps it."""
        ...


class _Nobody:
    def asking(self) -> AskingTest | None:
        return None

    def note_used(self, key: str, answer: dict[str, Any]) -> None:
        pass


NOBODY: Asker = _Nobody()
