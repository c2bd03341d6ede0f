"""Progress of slow judge work, shown the pytest way: at most one line per slow test.

Live on a terminal; in a log the lines wait for the end of the run, so that pytest's line of
dots stays one line. Fast and cached tests, `-q` and xdist workers print nothing.
"""

from __future__ import annotations

import contextlib
import shutil
import threading
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import pluggy

from pytest_llmfaith.judge.progress import NO_PROGRESS, JudgeProgress
from pytest_llmfaith.wording import plural

if TYPE_CHECKING:
    import pytest

hookimpl = pluggy.HookimplMarker("pytest")

SLOW_AFTER_S = 2.0
TICK_S = 0.5
_UNKNOWN = object()


def _current_file(tr: Any) -> object:
    """The file whose results pytest's current line holds, None after a line of ours. pytest keeps
    it in `TerminalReporter.currentfspath`, which is not public API: a pytest without it gives
    _UNKNOWN, and our lines are then written whole, none drawn live or rewritten in place."""
    return getattr(tr, "currentfspath", _UNKNOWN)


def install(config: pytest.Config) -> JudgeProgress:
    """The run's progress sink: a terminal one registered as a plugin, unless the run shows
    none (-q, an xdist worker, whose output nobody sees)."""
    if config.get_verbosity() < 0 or hasattr(config, "workerinput"):
        return NO_PROGRESS
    progress = TerminalProgress(config)
    config.pluginmanager.register(progress, "llmfaith-progress")
    return progress


class TerminalProgress:
    """Writes through pytest's terminal reporter, from the test's thread or a ticker thread."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self._lock = threading.RLock()
        self._test: str | None = None
        self._calls = 0
        self._done_s = 0.0  # time this test waited on the judge, up to `_since`
        self._step = ""
        self._in_flight = 0  # calls (concurrent ones for a hosted judge)
        self._since: float | None = None  # since when a call is in flight
        self._loading: tuple[str, float] | None = None
        self._live = False  # our line is the terminal's current line and may be rewritten
        self._open = False  # we wrote the current line and did not end it
        self._ticker: threading.Thread | None = None
        self._closed = threading.Event()
        self._deferred: list[str] = []  # in a log: the lines the end of the run prints

    # -- what the judge reports (any thread) ---------------------------------------------
    @contextlib.contextmanager
    def call(self, step: str, index: int, total: int) -> Iterator[None]:
        with self._lock:
            # 'claims', or 'verdict 2 of 4' for one of several calls of a step
            self._step = step if total <= 1 else f"{step.removesuffix('s')} {index} of {total}"
            self._in_flight += 1
            if self._since is None:
                self._since = time.monotonic()
            self._start_ticker()
        try:
            yield
        finally:
            with self._lock:
                self._calls += 1
                self._in_flight -= 1
                if self._in_flight == 0 and self._since is not None:
                    self._done_s += time.monotonic() - self._since
                    self._since = None

    def judge_loading(self, model: str, seconds: float | None) -> None:
        with self._lock:
            if seconds is None:
                self._loading = (model, time.monotonic())
                self._start_ticker()
                return
            self._loading = None
            self._report(f"llmfaith: loading the offline judge model {model} ... ready in {seconds:.1f} s")

    # -- pytest hooks --------------------------------------------------------------------
    def pytest_runtest_logstart(self, nodeid: str) -> None:
        with self._lock:
            self._test, self._calls, self._done_s = nodeid, 0, 0.0

    @hookimpl(tryfirst=True)
    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        """Before pytest writes the phase's result: the test's one line, if it was slow; then
        the file's name again, so that the test's dot does not land on our line."""
        with self._lock:
            if self._calls and self._done_s >= SLOW_AFTER_S:
                self._report(f"llmfaith: {report.nodeid}: {plural(self._calls, 'judge call')}, {self._done_s:.1f} s")
            if self._open and self.tr is not None and _current_file(self.tr) is None \
                    and self.config.get_verbosity() <= 0:
                self.tr.write_fspath_result(report.nodeid, "")
            self._live = self._open = False
            self._calls, self._done_s = 0, 0.0

    def pytest_runtest_logfinish(self) -> None:
        with self._lock:
            self._test = None

    @hookimpl(trylast=True)
    def pytest_terminal_summary(self) -> None:
        """In a log: the slow tests and the model load, after the results, one line each."""
        for line in self._deferred:
            self.tr.write_line(line)

    def pytest_unconfigure(self) -> None:
        self._closed.set()

    # -- drawing -------------------------------------------------------------------------
    @property
    def tr(self) -> Any:
        """pytest's TerminalReporter (registered after our pytest_configure ran)."""
        return self.config.pluginmanager.get_plugin("terminalreporter")

    def _status(self) -> str | None:
        now = time.monotonic()
        if self._loading is not None:
            model, since = self._loading
            return f"llmfaith: loading the offline judge model {model} ... {now - since:.1f} s"
        waited = self._done_s + (now - self._since if self._since is not None else 0.0)
        if self._test is None or self._since is None or waited < SLOW_AFTER_S:
            return None
        return f"llmfaith: {self._test}: {self._step}, {waited:.1f} s"

    def _report(self, line: str) -> None:
        """A line that is final: shown now on a terminal, at the end of the run in a log."""
        if self.tr is not None and bool(self.tr.isatty):
            self._show(line)
            self._live = False
        else:
            self._deferred.append(line)

    def _show(self, line: str) -> None:
        """Write `line` on a line of its own, or in place of our live line; leave it open so
        pytest's next result starts a new line (and no empty line is left between)."""
        tr = self.tr
        if tr is None:
            return
        current = _current_file(tr)
        capture = self.config.pluginmanager.get_plugin("capturemanager")
        # During a test, the terminal's file descriptor is captured: write past it, as live logging does.
        with capture.global_and_fixture_disabled() if capture is not None else contextlib.nullcontext():
            if current is _UNKNOWN:
                tr.write_line(line)
            elif self._live and self._open and current is None:
                tr.rewrite(line[: shutil.get_terminal_size().columns - 1], erase=True)
            else:
                if self._open and current is None:
                    tr.write("\n")
                else:
                    tr.ensure_newline()
                tr.write(line)
            tr.flush()
        if current is not _UNKNOWN:
            tr.currentfspath = None
            self._open = True

    def _start_ticker(self) -> None:
        if self._ticker is None and self.tr is not None and bool(self.tr.isatty) \
                and _current_file(self.tr) is not _UNKNOWN:
            self._ticker = threading.Thread(target=self._tick, name="llmfaith-progress", daemon=True)
            self._ticker.start()

    def _tick(self) -> None:
        while not self._closed.wait(TICK_S):
            with self._lock:
                status = self._status()
                if status is not None:
                    self._show(status[: shutil.get_terminal_size().columns - 1])
                    self._live = True
