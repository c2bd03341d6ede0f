"""`python -m pytest_llmfaith relay [status|stop]`, and the relay line of a run's summary."""

from __future__ import annotations

import contextlib
import functools
import os
import shutil
import sys
import time
from collections.abc import Iterable
from pathlib import Path

from pytest_llmfaith.processes.children import child_alive, kill, relay_root
from pytest_llmfaith.processes.loopback import request_json
from pytest_llmfaith.relay.identity import leased
from pytest_llmfaith.relay.relay_client import health
from pytest_llmfaith.relay.wire import CLIENT_HEADER, TOKEN_HEADER, RelayRun, RelayState, relay_files

STOP_COMMAND = "python -m pytest_llmfaith relay stop"


def summary(run: RelayRun, deaths: Iterable[tuple[int, str, bool]] = ()) -> str | None:
    """One line per relay that served the run (several if its processes had different environments),
    and one for its relays that died mid-run: `deaths` (pid, how, saw it die) from each of its processes."""
    served = [found for found in map(functools.partial(_summary, run), leased(run.directory, run.owner_pid)) if found]
    lines = [line for _, line in served]
    deaths = list(deaths)
    seen = {pid for pid, _, saw in deaths if saw}
    died: dict[int, str] = {}
    for pid, how, saw in deaths:  # the exit status, read by the process that started it, beats a guess
        if pid in seen and (pid not in died or not saw):
            died[pid] = how
    if died:
        lines.append(_deaths(died, replaced=any(pid not in died for pid, _ in served)))
    return "\n".join(lines) or None


def _deaths(died: dict[int, str], replaced: bool) -> str:
    """Said once in the summary: each death is otherwise only in the error of the call that found it."""
    if len(died) == 1:
        ((pid, how),) = died.items()
        then = "and was replaced once" if replaced else "and no judge call came after it to start another"
        return (f"llmfaith judge relay (pid {pid}) died mid-run ({how}) {then}: the judge call that found it "
                "dead is an ERROR, whose message has its log and the fix")
    listed = ", then ".join(f"pid {pid} ({how})" for pid, how in died.items())
    then = "the last was replaced" if replaced else "the run's remaining judge calls failed at once"
    return (f"llmfaith judge relay died {len(died)} times mid-run: {listed}; {then}; the judge calls that found "
            "them dead are ERRORs, whose messages have their logs and the fix")


def _summary(run: RelayRun, directory: Path) -> tuple[int, str] | None:
    state = relay_files(directory).read()
    stats = health(state) if state is not None else None
    mine = stats.runs.get(run.run_id) if stats is not None else None
    if state is None or stats is None or mine is None:
        return None
    if mine.litellm_imports:
        how = f"started by this run (litellm imported once, {stats.litellm_import_s:.1f} s)"
    else:
        how = "warm: started by another run (litellm imported 0 times for this run)"
    stays = ("it ends with the run (LLMFAITH_IDLE_TIMEOUT=0)" if state.idle_timeout == 0 else
             f"it stays up {state.idle_timeout:g} s after the last run for the next one "
             f"(LLMFAITH_IDLE_TIMEOUT; 0 ends it with the run)")
    return stats.pid, (f"llmfaith judge relay (pid {stats.pid}): {mine.requests} judge requests from "
                       f"{mine.processes} process(es), at most {state.concurrency} at once; {how}; {stays}; "
                       f"stop it: {STOP_COMMAND}")


def stop(directory: Path) -> RelayState | None:
    """End a relay (asked nicely, then killed); remove its folder unless a live run is attached."""
    files = relay_files(directory)
    state = files.read()
    running: dict[int, float | None] = {pid: None for pid in [files.starting_pid()] if pid is not None}
    if state is not None and state.alive():  # never a process that took a dead relay's pid
        running[state.pid] = state.started
        with contextlib.suppress(OSError, ValueError):
            request_json(state.port, "/shutdown", "POST", {TOKEN_HEADER: state.token, CLIENT_HEADER: str(os.getpid())})
    deadline = time.monotonic() + 5.0
    for pid, started in running.items():
        while child_alive(pid, started) and time.monotonic() < deadline:
            time.sleep(0.01)
        if child_alive(pid, started):  # still starting (no address yet), or hung
            kill(pid)
    if not files.leases.live():
        shutil.rmtree(directory, ignore_errors=True)
    return state


def main(argv: list[str]) -> int:
    """`python -m pytest_llmfaith relay [status|stop]`: this user's judge relays."""
    command = argv[0] if argv else "status"
    if command not in ("status", "stop") or len(argv) > 1:
        print("usage: python -m pytest_llmfaith relay [status|stop]", file=sys.stderr)
        return 2
    folders = sorted(relay_root().glob("warm-*")) if relay_root().is_dir() else []
    if not folders:
        print("no judge relay is running")
    for directory in folders:
        files = relay_files(directory)
        if command == "stop":
            state = stop(directory)
            print(f"stopped the judge relay {directory.name}" + (f" (pid {state.pid})" if state else ""))
            continue
        state = files.read()
        stats = health(state) if state is not None else None
        if stats is None or state is None:
            print(f"{directory.name}: no relay running; `relay stop` removes the folder")
            continue
        attached = ", ".join(map(str, stats.attached)) or "none"
        print(f"pid {stats.pid}  127.0.0.1:{state.port}  {directory.name}  runs attached (pids): {attached}  "
              f"{stats.requests} requests from {len(stats.runs)} run(s)  idle timeout {state.idle_timeout:g} s  "
              f"log {files.log_of(stats.pid)}")
    return 0
