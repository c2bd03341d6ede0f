"""A dead background service, as a process that used it tells it: how it ended (killed, crashed,
stopped), and the end of its log (the one reader of a service's log, for a failed start too).

Only the process that started a service reads its exit status. Any other one tells from the log:
every process started by the kit writes one last line when it exits on its own (childlog.ENDED), so
a log without it is that of a process killed from outside (SIGKILL: mostly the out-of-memory killer).
"""

from __future__ import annotations

import re
from pathlib import Path

from pydantic import BaseModel

from pytest_llmfaith.processes.children import ENDED, KILLED_UNSEEN, UNKNOWN_EXIT, exit_description

STOPPING = "stopping: "  # what a service says in its log when it stops on its own (serving.py), then why
_CRASH_SIGNALS = ("SIGSEGV", "SIGILL", "SIGBUS", "SIGABRT", "SIGFPE")
_LOG_READ = 30_000
_TAIL_LINES = 12
_REQUEST_LINE = re.compile(r'^127\.0\.0\.1 - - \[.*\] "')  # http.server's one line per request


class Death(BaseModel):
    """One dead service, with the end of its log read when the death was noticed (logs are pruned later)."""

    pid: int
    how: str
    log: Path
    log_tail: str

    @classmethod
    def of(cls, pid: int, log: Path) -> Death:
        tail = read_end(log)
        how = exit_description(pid)
        if how == UNKNOWN_EXIT and tail != "(no log)" and ENDED not in tail:
            how = KILLED_UNSEEN
        return cls(pid=pid, how=how, log=log, log_tail=tail)

    def describe(self, name: str) -> str:
        return f"{name} (pid {self.pid}) {self.how}. Its log ({self.log}) ends with:\n{quoted(self.log_tail)}"

    @property
    def killed(self) -> bool:
        """Killed from outside: by SIGKILL (mostly the out-of-memory killer), or so by all signs."""
        return "SIGKILL" in self.how or self.how == KILLED_UNSEEN

    @property
    def crashed(self) -> bool:
        """Crashed: a fatal signal of its own making, or faulthandler's report of one in its log."""
        return any(name in self.how for name in _CRASH_SIGNALS) or "Fatal Python error" in self.log_tail

    @property
    def stopped(self) -> bool:
        """Stopped: it said so in its log (STOPPING), or it exited with code 0."""
        return STOPPING in self.log_tail or self.how == "exited with code 0"


def told(name: str, deaths: list[Death]) -> str:
    """The deaths a client saw of the service called `name`, one after the other, each with its log's end."""
    return "\n".join(death.describe(name) for death in deaths)


def quoted(log_end: str) -> str:
    """The end of a log as a message quotes it: the lines worth quoting, indented."""
    return "\n".join(f"    {line}" for line in excerpt(log_end)) or "    (empty)"


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


def read_end(path: Path) -> str:
    """The end of a log, read when a death or a failed start is noticed (logs are pruned later)."""
    try:
        return path.read_bytes()[-_LOG_READ:].decode(errors="replace")
    except OSError:
        return "(no log)"
