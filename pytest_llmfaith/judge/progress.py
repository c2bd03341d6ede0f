"""What the judge tells about slow work, for whoever shows it (the pytest layer's terminal line).

Each call that is not a cache hit (`call`) and the offline judge's model load (`judge_loading`).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Protocol


class JudgeProgress(Protocol):
    def call(self, step: str, index: int, total: int) -> contextlib.AbstractContextManager[None]:
        """Around one judge call that is not a cache hit (`index` of `total` in its step)."""
        ...

    def judge_loading(self, model: str, seconds: float | None) -> None:
        """The offline judge's model starts loading (`seconds` None), or is ready after `seconds`."""
        ...


class _NoProgress:
    @contextlib.contextmanager
    def call(self, step: str, index: int, total: int) -> Iterator[None]:
        yield

    def judge_loading(self, model: str, seconds: float | None) -> None:
        pass


NO_PROGRESS: JudgeProgress = _NoProgress()
