"""This process's hold on the offline judge's server, and what to say when it dies.

A dead server (a crash in llama.cpp, the OOM killer) is replaced once; a second death in the run
is an error naming both, since a crash that repeats would only repeat again.
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable
from pathlib import Path

from pydantic import BaseModel

from pytest_llmfaith.errors import LocalJudgeUnavailable, LocalServerDied
from pytest_llmfaith.local.kernels import choose
from pytest_llmfaith.local.launcher import (
    ensure_server_state,
    exit_description,
    run_files,
    server_alive,
)
from pytest_llmfaith.local.models import LocalModel
from pytest_llmfaith.local.runstate import ServerState
from pytest_llmfaith.local.variants import VARIANT_ENV

_TAIL_LINES = 12
_READ_BYTES = 30_000
_REQUEST_LINE = re.compile(r'^127\.0\.0\.1 - - \[.*\] "')  # http.server's one line per request
_CRASH_SIGNALS = ("SIGSEGV", "SIGILL", "SIGBUS", "SIGABRT", "SIGFPE")
CRASH_FIX = ("a crash inside the llama.cpp runtime, most often a build for another CPU's "
             "instructions: rebuild llama-cpp-python portably (`make clean install` in a checkout "
             "of pytest-llmfaith; README, \"The offline judge\"), or, if the loading line named other "
             f"kernels than the portable ones, run those with {VARIANT_ENV}=portable; if it still crashes, "
             "report it with this log")
KILL_FIX = ("SIGKILL mostly comes from the out-of-memory killer (the server needs about 2.4 GB; "
            "see `dmesg`) or from someone killing it: free memory or run fewer processes")
OTHER_FIX = ("it was stopped (e.g. `python -m pytest_llmfaith local stop`) or failed: its log says "
             "which; if it failed on its own, report it with this log")


class ServerDeath(BaseModel):
    """One dead server, with its log read when the death was noticed (logs are pruned later)."""

    pid: int
    how: str
    log: Path
    log_tail: str

    def describe(self) -> str:
        body = "\n".join(f"    {line}" for line in excerpt(self.log_tail)) or "    (empty)"
        return f"The offline judge server (pid {self.pid}) {self.how}. Its log ({self.log}) ends with:\n{body}"

    def fix(self) -> str:
        if any(name in self.how for name in _CRASH_SIGNALS) or "Fatal Python error" in self.log_tail:
            return CRASH_FIX
        return KILL_FIX if "SIGKILL" in self.how else OTHER_FIX


class ServerWatch:
    """The server a judge uses; started on first use, replaced at most once when it dies."""

    def __init__(self, model: LocalModel,
                 announce: Callable[[str, float | None], None] | None = None) -> None:
        self.model = model
        self.announce = announce  # (model and kernels, None) when a load starts; (..., seconds) when ready
        self.state: ServerState | None = None
        self.deaths: list[ServerDeath] = []
        self._lock = threading.Lock()

    def api_base(self) -> str:
        with self._lock:
            if self.state is None:
                self.state = self._ensure()
            return self.state.api_base

    def replace_if_dead(self, step: str) -> str | None:
        """None while the server lives; else the api base of its replacement, the first time.

        Raises LocalServerDied for a second death, or when no replacement starts.
        """
        with self._lock:
            state = self.state
            if state is None or server_alive(state.pid):
                return None
            if not any(death.pid == state.pid for death in self.deaths):
                log = run_files(self.model).log_of(state.pid)
                self.deaths.append(ServerDeath(pid=state.pid, how=exit_description(state.pid),
                                               log=log, log_tail=_read_end(log)))
            if len(self.deaths) > 1:
                raise LocalServerDied(self._message(step, "died again after its restart; it is not restarted again"))
            try:
                self.state = self._ensure()
            except LocalJudgeUnavailable as exc:
                raise LocalServerDied(self._message(step, f"died and could not be restarted: {exc}")) from None
            return self.state.api_base

    def _ensure(self) -> ServerState:
        started = time.monotonic()
        announce = self.announce
        choice = choose(self.model.path)
        label = f"{self.model.name} ({choice.label()})"  # the one line that says which kernels run
        loading = False

        def starting() -> None:
            nonlocal loading
            loading = True
            if announce is not None:
                announce(label, None)

        state = ensure_server_state(self.model, starting=starting, choice=choice)
        if loading and announce is not None:
            announce(label, time.monotonic() - started)
        return state

    def _message(self, step: str, what: str) -> str:
        deaths = "\n".join(death.describe() for death in self.deaths)
        return (f"llmfaith: at step '{step}', the offline judge {what}.\n{deaths}\n"
                f"Fix: {self.deaths[-1].fix()}.")


def excerpt(log: str) -> list[str]:
    """The lines of a log worth quoting: its last lines without per-request noise; for a crash,
    faulthandler's header and the crashing thread's stack instead of every thread's."""
    lines = [line for line in log.splitlines() if not _REQUEST_LINE.match(line)]
    fatal = next((i for i, line in enumerate(lines) if line.startswith("Fatal Python error")), None)
    if fatal is None:
        return lines[-_TAIL_LINES:]
    current = next((i for i in range(fatal, len(lines)) if lines[i].startswith("Current thread")), None)
    stack = lines[current:current + _TAIL_LINES] if current is not None else []
    return [*lines[max(0, fatal - 3):fatal + 1], *stack]


def _read_end(path: Path) -> str:
    try:
        return path.read_bytes()[-_READ_BYTES:].decode(errors="replace")
    except OSError:
        return "(no log)"
