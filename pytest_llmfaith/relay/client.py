"""The judge relay, client side: every process of a run sends its judge calls to one warm relay.

So that litellm is imported once, not in every process; the processes speak this module's JSON
over loopback. A relay is shared only by runs whose calls it would make identically (its
environment included: it calls with the credentials it inherited). Lifecycle, files and
credentials: docs/judge-relay.md and docs/relay.md.
"""

from __future__ import annotations

import http.client
import os
import threading
import time
from pathlib import Path

from pydantic import BaseModel

from pytest_llmfaith.errors import RelayError
from pytest_llmfaith.judge.config import JudgeConfig
from pytest_llmfaith.judge.transport import Completion, CompletionRequest, LiteLLMTransport
from pytest_llmfaith.processes.children import child_alive, exit_description, kill, pid_log, relay_root, spawn
from pytest_llmfaith.processes.files import file_lock, prune_logs, tail, write_json_atomic
from pytest_llmfaith.processes.loopback import request_json
from pytest_llmfaith.relay.identity import environment_fingerprint, leased, named, why_no_relay
from pytest_llmfaith.relay.wire import (
    CLIENT_HEADER,
    FIX,
    OWNER_HEADER,
    RUN_HEADER,
    TOKEN_HEADER,
    RelayCall,
    RelayFiles,
    RelayReply,
    RelayRun,
    RelayState,
    RelayStats,
    from_wire,
    to_wire,
)

SERVER_MODULE = "pytest_llmfaith.relay.server"
START_TIMEOUT = 600.0  # litellm's import takes 5 s on an idle core, minutes on a starved one
# Seconds between looks at a starting relay's address file (a stat of a missing file): soon at
# first, then 4 a second at most through litellm's import (minutes on a starved machine).
READY_POLL = (0.02, 1.5, 0.25)  # first, growth, most


class RelayDeath(BaseModel):
    pid: int
    how: str
    log: Path
    log_tail: str

    def describe(self) -> str:
        lines = "\n".join(f"    {line}" for line in self.log_tail.splitlines()[-12:]) or "    (empty)"
        return f"The judge relay (pid {self.pid}) {self.how}. Its log ({self.log}) ends with:\n{lines}"

    def fix(self) -> str:
        if "SIGKILL" in self.how:
            return ("SIGKILL mostly comes from the out-of-memory killer (see `dmesg`) or from someone "
                    "killing it: free memory or run fewer processes")
        if "stopping:" in self.log_tail or self.how == "exited with code 0":
            return ("it was stopped (`python -m pytest_llmfaith relay stop`, `kill`, or its idle timeout, "
                    "LLMFAITH_RELAY_IDLE_TIMEOUT; its log says which, while the run lasts); run the tests again")
        return "if it failed on its own, report it with this log"


def health(state: RelayState) -> RelayStats | None:
    """The relay's own account of itself, or None when nothing (or not our relay) answers there."""
    try:
        stats = RelayStats.model_validate(request_json(state.port, "/health", headers={TOKEN_HEADER: state.token}))
    except (OSError, ValueError, http.client.HTTPException):
        return None
    return stats if stats.pid == state.pid else None


class RelayClient:
    """This process's way to the run's relay, its death told apart from a judge failure. A dead
    relay is replaced once; a second death ends the run's judge calls."""

    def __init__(self, run: RelayRun) -> None:
        self.run = run
        self.files = RelayFiles(run.directory)
        self.environment: str | None = None  # the environment this process's relay calls with (`_choose`)
        self.state: RelayState | None = None
        self.deaths: list[RelayDeath] = []
        self._gave_up: str | None = None
        self._lock = threading.Lock()

    def prewarm(self) -> None:
        """Start the relay without waiting, so litellm's import overlaps collection; skipped if another is at it."""
        try:
            with self._lock:
                self._choose()
            self._make_directory()
            with file_lock(self.files.lock, wait=False, dir_mode=0o700):
                self._attach()
                state = self._live()
                if state is not None:
                    self.state = state  # warm: the first call does not look again
                elif self._starting() is None:
                    self._spawn()
        except (OSError, RelayError):  # BlockingIOError: someone holds the lock; else the first call says it
            pass

    def address(self) -> RelayState:
        with self._lock:
            if self.state is None:
                self._choose()
                self.state = self._ensure()
            return self.state

    def _choose(self) -> None:
        """Re-pick the relay by this process's own environment: the controller's name lacks a key
        that a sub-folder's conftest.py sets in the workers only."""
        if self.environment is None:
            self.environment = environment_fingerprint()
            name = named(self.run.concurrency, self.run.idle_timeout, self.environment)
            self.run = self.run.model_copy(update={"directory": self.run.directory.with_name(f"warm-{name}")})
            self.files = RelayFiles(self.run.directory)

    def call(self, call: RelayCall) -> Completion:
        step = call.request.step
        if self._gave_up is not None:
            raise RelayError(self._gave_up)
        state = self.address()
        if not child_alive(state.pid):
            raise self._died(state, step, "before")
        headers = {TOKEN_HEADER: state.token, CLIENT_HEADER: str(os.getpid()), RUN_HEADER: self.run.run_id,
                   OWNER_HEADER: str(self.run.owner_pid), "Content-Type": "application/json"}
        cfg = call.config
        # Generous: the relay enforces the request timeout and retries; this only ends a hung relay.
        timeout = (cfg.request_timeout + 60.0) * (cfg.retries + 1) * 2 + 300.0
        try:
            payload = request_json(state.port, "/complete", "POST", headers, to_wire(call), timeout=timeout)
            reply = from_wire(RelayReply, payload)
        except (OSError, ValueError, http.client.HTTPException) as err:
            if self._gone(state.pid):
                raise self._died(state, step, "during") from None
            raise RelayError(
                f"llmfaith: the judge relay (pid {state.pid}, 127.0.0.1:{state.port}) gave no answer to "
                f"the judge call at step '{step}': {type(err).__name__}: {err}. Fix: look at its log "
                f"({pid_log(self.files.log, state.pid)}); {FIX}.") from None
        if reply.failure is not None:
            raise reply.failure.exception()
        if reply.completion is None:
            raise RelayError(f"llmfaith: the judge relay answered the call at step '{step}' with nothing. "
                             f"Fix: report it; {FIX}.")
        return reply.completion

    # -- finding, starting, losing the relay ------------------------------------------------
    def _make_directory(self) -> None:
        """Checked again once made: `auto` asked before (wiring.py), `on` did not stop for it."""
        relay_root().mkdir(mode=0o700, exist_ok=True)
        why = why_no_relay()
        if why is not None:  # e.g. another user's folder: never trust it
            raise RelayError(f"llmfaith: the judge relay cannot run here: {why}. Fix: --llm-judge-relay=auto "
                             f"turns it off where it cannot run, saying why in one line; {FIX}.")
        self.run.directory.mkdir(mode=0o700, exist_ok=True)

    def _ensure(self) -> RelayState:
        self._make_directory()
        with file_lock(self.files.lock, dir_mode=0o700):
            self._attach()
            state = self._live()
            if state is not None:
                return state
            return self._wait_ready(self._starting() or self._spawn())

    def _attach(self) -> None:
        """Lease the relay for the run (under the lock: a relay retiring takes it to look at the leases)."""
        live = self.files.runs.live()
        if self.run.owner_pid not in live:  # the run's other processes (xdist workers) share its lease
            self.files.runs.set([*live, self.run.owner_pid])

    def _live(self) -> RelayState | None:
        state = self.files.read()
        if state is None or not child_alive(state.pid) or health(state) is None:
            return None
        return state

    def _starting(self) -> int | None:
        """A relay started by a process of the run that has not written its address yet."""
        pid = self.files.starting_pid()
        state = self.files.read()
        if pid is None or (state is not None and state.pid == pid) or not child_alive(pid):
            return None
        return pid

    def _spawn(self) -> int:
        """Start a relay (under the lock) and note its pid, for a run's other processes to wait for it."""
        run = self.run
        proc, _ = spawn(SERVER_MODULE, (
            "--dir", str(run.directory), "--started-by", run.run_id,
            "--concurrency", str(run.concurrency), "--idle-timeout", str(run.idle_timeout),
            "--environment", environment_fingerprint()), self.files.log)  # the relay inherits it now
        write_json_atomic(self.files.starting, str(proc.pid))
        prune_logs(self.files.log)
        return proc.pid

    def _wait_ready(self, pid: int) -> RelayState:
        """Poll for the address file (a stat of a missing file): no file descriptor to inherit, on any OS."""
        log = pid_log(self.files.log, pid)
        deadline = time.monotonic() + START_TIMEOUT
        pause, growth, most = READY_POLL
        while time.monotonic() < deadline:
            state = self.files.read()
            if state is not None and state.pid == pid:
                return state
            if not child_alive(pid):
                raise RelayError(
                    f"llmfaith: the judge relay (pid {pid}) {exit_description(pid)} while starting. Its log "
                    f"({log}) ends with:\n{tail(log)}\nFix: the log says why; {FIX}.")
            time.sleep(pause)
            pause = min(pause * growth, most)
        kill(pid)
        raise RelayError(
            f"llmfaith: the judge relay (pid {pid}) did not start within {START_TIMEOUT:.0f} s (importing "
            f"litellm on a busy machine?). Its log ({log}) ends with:\n{tail(log)}\nFix: {FIX}.")

    def _gone(self, pid: int) -> bool:
        """Whether the relay died: a killed process drops its connections a moment before it is gone."""
        deadline = time.monotonic() + 1.0
        while child_alive(pid):
            if time.monotonic() > deadline:
                return False
            time.sleep(0.02)
        return True

    def _died(self, state: RelayState, step: str, when: str) -> RelayError:
        with self._lock:
            if not any(death.pid == state.pid for death in self.deaths):
                log = pid_log(self.files.log, state.pid)
                self.deaths.append(RelayDeath(pid=state.pid, how=exit_description(state.pid), log=log,
                                              log_tail=tail(log)))
            self.state = None
            deaths = "\n".join(death.describe() for death in self.deaths)
            fix = f"Fix: {self.deaths[-1].fix()}; {FIX}."
            if len(self.deaths) > 1:
                self._gave_up = (f"llmfaith: the judge relay of this run died again after its restart, "
                                 f"{when} the judge call at step '{step}'; the remaining judge calls of "
                                 f"this run fail at once.\n{deaths}\n{fix}")
                return RelayError(self._gave_up)
            return RelayError(
                f"llmfaith: the judge relay died {when} the judge call at step '{step}', so that call has "
                f"no answer (an error, never a pass); the next judge call starts a new relay.\n{deaths}\n{fix}")


class RelayTransport:
    """Hands each request to the relay; waits for it at construction so litellm's import is not judge time.
    A call made in another environment than the relay's (a key a fixture set) is made here instead,
    so it is never sent with another environment's credentials."""

    def __init__(self, client: RelayClient, config: JudgeConfig) -> None:
        self.client = client
        self.config = config
        self._here: LiteLLMTransport | None = None
        self._lock = threading.Lock()
        client.address()

    def complete(self, request: CompletionRequest) -> Completion:
        environment = environment_fingerprint()
        if environment != self.client.environment:
            return self._in_this_process().complete(request)
        return self.client.call(RelayCall(config=self.config, request=request, environment=environment))

    def _in_this_process(self) -> LiteLLMTransport:
        with self._lock:
            if self._here is None:
                self._here = LiteLLMTransport(self.config)
            return self._here

    def close(self) -> None:
        """Nothing to release: the run's first process detaches the run at its end (`detach`)."""


def detach(run: RelayRun) -> None:
    """Give up the run's lease; the relay then idles out (at once with LLMFAITH_RELAY_IDLE_TIMEOUT=0)."""
    for directory in leased(run.directory, run.owner_pid):  # held: no relay retired and removed it meanwhile
        files = RelayFiles(directory)
        with file_lock(files.lock, dir_mode=0o700):
            files.runs.set([pid for pid in files.runs.live() if pid != run.owner_pid])
