"""The test that is running, as context: the pytest layer sets it around each test (setup, call and
teardown); the recordings and the judge read it (which module's recording answers, who stored an
answer, which answers the test used, whom a replay miss names). Outside pytest no test runs. What
each test module did in a run (`ModuleRun`) is what the run's end writes the recordings from.

A context variable, with the process's running test behind it for the threads a test starts (they
do not inherit the context). While the run asks for itself (`outside_tests`: the judge self-check)
no test is asking, in any thread, not even an enclosing pytester run's.
"""

from __future__ import annotations

import contextvars
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


@dataclass(eq=False)
class RunningTest:
    nodeid: str
    path: Path  # its module: the recording file is found from it
    item: Any = None  # the pytest layer's own (its stash and markers)
    used: dict[str, dict[str, Any]] = field(default_factory=dict)  # request key -> the answer it used
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def note_used(self, key: str, answer: dict[str, Any]) -> None:
        """The test used this stored answer: its module's recording keeps it. From any of its threads."""
        with self._lock:
            self.used[key] = answer

    def take_used(self) -> dict[str, dict[str, Any]]:
        """The answers used since the last take (each phase's report carries its own)."""
        with self._lock:
            used, self.used = self.used, {}
        return used


Used = dict[str, tuple[dict[str, Any], set[str]]]  # request key -> (the answer, the tests that used it)


@dataclass
class ModuleRun:
    """What one test module did in a run: the answers its tests used, which tests passed, which
    reported (its recording is written from this)."""

    module: str  # the test file, relative to the rootdir
    used: Used = field(default_factory=dict)
    passed: set[str] = field(default_factory=set)
    reported: set[str] = field(default_factory=set)


_current: contextvars.ContextVar[RunningTest | None] = contextvars.ContextVar("llmfaith_test", default=None)
_in_process: RunningTest | None = None  # for the threads a test starts
_outside: str | None = None  # who asks while no test may (`outside_tests`)


def running_test() -> RunningTest | None:
    """The test being run, also from threads it started; None outside tests."""
    if _outside is not None:
        return None
    test = _current.get()
    return test if test is not None else _in_process


def asked_outside() -> str:
    """Who asks when no test does: the run itself (`outside_tests`), or library use ("")."""
    return _outside or ""


@contextmanager
def running(test: RunningTest) -> Iterator[RunningTest]:
    """`test` runs meanwhile (a nested pytester run's test, then the enclosing one's again)."""
    global _in_process
    token, previous, _in_process = _current.set(test), _in_process, test
    try:
        yield test
    finally:
        _in_process = previous
        _current.reset(token)


@contextmanager
def outside_tests(owner: str) -> Iterator[None]:
    """The run asks for itself meanwhile: answers stored belong to `owner`, no test module's
    recording or unused-entry report claims them."""
    global _outside
    previous, _outside = _outside, owner
    try:
        yield
    finally:
        _outside = previous
