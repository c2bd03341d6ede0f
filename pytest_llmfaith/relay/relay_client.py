"""The judge relay, client side: every process of a run sends its judge calls to one warm relay.

So that litellm is imported once, not in every process; the processes speak this module's JSON
over loopback. A relay is shared only by runs whose calls it would make identically (its
environment included: it calls with the credentials it inherited). Lifecycle, files and
credentials: docs/judge-relay.md and docs/relay.md.
"""

from __future__ import annotations

import os
import threading

from pytest_llmfaith.errors import RelayError
from pytest_llmfaith.judge.backend import HOSTED, Completion, CompletionRequest, JudgeConfig
from pytest_llmfaith.judge.transport import HostedBackend, LiteLLMTransport
from pytest_llmfaith.processes.children import relay_root
from pytest_llmfaith.processes.loopback import request_json
from pytest_llmfaith.processes.service import Hold, Service, StartFailed
from pytest_llmfaith.relay.identity import environment_fingerprint, leased, named, why_no_relay
from pytest_llmfaith.relay.wire import (
    CLIENT_HEADER,
    FIX,
    OWNER_HEADER,
    RUN_HEADER,
    TOKEN_HEADER,
    RelayCall,
    RelayReply,
    RelayRun,
    RelayState,
    RelayStats,
    from_wire,
    relay_files,
    to_wire,
)

SERVER_MODULE = "pytest_llmfaith.relay.relay_server"
START_TIMEOUT = 600.0  # litellm's import takes 5 s on an idle core, minutes on a starved one
NAME = "The judge relay"
STOPPED_FIX = ("it was stopped (`python -m pytest_llmfaith relay stop`, `kill`, or its idle timeout, "
               "LLMFAITH_IDLE_TIMEOUT; its log says which, while the run lasts); run the tests again")


def health(state: RelayState) -> RelayStats | None:
    """The relay's own account of itself, or None when nothing (or not our relay) answers there."""
    try:
        stats = RelayStats.model_validate(request_json(state.port, "/health", headers={TOKEN_HEADER: state.token}))
    except (OSError, ValueError):
        return None
    return stats if stats.pid == state.pid else None


class RelayClient:
    """This process's way to the run's relay, its death told apart from a judge failure. A dead
    relay is replaced once; a second death ends the run's judge calls."""

    def __init__(self, run: RelayRun) -> None:
        self.run = run
        self.files = relay_files(run.directory)
        self.environment: str | None = None  # the environment this process's relay calls with (`_choose`)
        self.hold = Hold(self._ensure, lambda pid: self.files.log_of(pid))
        self._lock = threading.Lock()

    def prewarm(self) -> None:
        """Start the relay without waiting, so litellm's import overlaps collection; skipped if another is at it."""
        try:
            with self._lock:
                self._choose()
            self._make_directory()
            state = self._service().prewarm(self.run.owner_pid, self._arguments)
            if state is not None and self.hold.state is None:
                self.hold.state = state  # warm: the first call does not look again
        except (OSError, RelayError):  # BlockingIOError: someone holds the lock; else the first call says it
            pass

    def address(self) -> RelayState:
        with self._lock:
            self._choose()
        return self.hold.current()

    def _choose(self) -> None:
        """Re-pick the relay by this process's own environment: the controller's name lacks a key
        that a sub-folder's conftest.py sets in the workers only."""
        if self.environment is None:
            self.environment = environment_fingerprint()
            name = named(self.run.concurrency, self.run.idle_timeout, self.environment)
            self.run = self.run.model_copy(update={"directory": self.run.directory.with_name(f"warm-{name}")})
            self.files = relay_files(self.run.directory)

    def call(self, call: RelayCall) -> Completion:
        step = call.request.step
        if self.hold.gave_up is not None:
            raise RelayError(self.hold.gave_up)
        state = self.address()
        if self.hold.lost(state) is not None:
            raise self._died(step, "before")
        headers = {TOKEN_HEADER: state.token, CLIENT_HEADER: str(os.getpid()), RUN_HEADER: self.run.run_id,
                   OWNER_HEADER: str(self.run.owner_pid), "Content-Type": "application/json"}
        cfg = call.config
        # Generous: the relay enforces the request timeout and retries; this only ends a hung relay.
        timeout = (HOSTED.request_timeout(cfg) + 60.0) * (cfg.retries + 1) * 2 + 300.0
        try:
            payload = request_json(state.port, "/complete", "POST", headers, to_wire(call), timeout=timeout)
            reply = from_wire(RelayReply, payload)
        except (OSError, ValueError) as err:
            if self.hold.lost(state, within=1.0) is not None:
                raise self._died(step, "during") from None
            raise RelayError(
                f"llmfaith: the judge relay (pid {state.pid}, 127.0.0.1:{state.port}) gave no answer to "
                f"the judge call at step '{step}': {type(err).__name__}: {err}. Fix: look at its log "
                f"({self.files.log_of(state.pid)}); {FIX}.") from None
        if reply.failure is not None:
            raise reply.failure.exception()
        if reply.completion is None:
            raise RelayError(f"llmfaith: the judge relay answered the call at step '{step}' with nothing. "
                             f"Fix: report it; {FIX}.")
        return reply.completion

    # -- finding, starting, losing the relay ------------------------------------------------
    def _service(self) -> Service[RelayState]:
        return Service(self.files, SERVER_MODULE, healthy=lambda state: health(state) is not None,
                       start_timeout=START_TIMEOUT)

    def _arguments(self) -> list[str]:
        run = self.run
        return ["--dir", str(run.directory), "--started-by", run.run_id, "--concurrency", str(run.concurrency),
                "--idle-timeout", str(run.idle_timeout),
                "--environment", environment_fingerprint()]  # the relay inherits it now

    def _make_directory(self) -> None:
        """Checked again once made: `auto` asked before (wiring.py), `on` did not stop for it."""
        relay_root().mkdir(mode=0o700, exist_ok=True)
        why = why_no_relay()
        if why is not None:  # e.g. another user's folder: never trust it
            raise RelayError(f"llmfaith: the judge relay cannot run here: {why}. Fix: --llm-judge-relay=auto "
                             f"turns it off where it cannot run, saying why in one line; {FIX}.")
        self.run.directory.mkdir(mode=0o700, exist_ok=True)

    def _ensure(self) -> RelayState:
        """The run leases the relay for all its processes (xdist workers): the lease of its first one."""
        self._make_directory()
        try:
            return self._service().find_or_start(self.run.owner_pid, self._arguments)
        except StartFailed as failed:
            told = failed.describe("the judge relay", slow=" (importing litellm on a busy machine?)")
            raise RelayError(f"llmfaith: {told}\nFix: {'' if failed.how is None else 'the log says why; '}{FIX}.") \
                from None

    def _died(self, step: str, when: str) -> RelayError:
        fix = self.hold.deaths[-1].fix("if it failed on its own, report it with this log", stopped=STOPPED_FIX)
        told = f"{self.hold.told(NAME, fix)}; {FIX}."
        if self.hold.replaced:
            self.hold.gave_up = (f"llmfaith: the judge relay of this run died again after its restart, "
                                 f"{when} the judge call at step '{step}'; the remaining judge calls of "
                                 f"this run fail at once.\n{told}")
            return RelayError(self.hold.gave_up)
        return RelayError(
            f"llmfaith: the judge relay died {when} the judge call at step '{step}', so that call has "
            f"no answer (an error, never a pass); the next judge call starts a new relay.\n{told}")


class RelayBackend(HostedBackend):
    """A hosted model through the run's relay: one process holds litellm for all of a run's workers."""

    def __init__(self, client: RelayClient, config: JudgeConfig) -> None:
        super().__init__(config)
        self.client = client

    def transport(self, announce: object) -> RelayTransport:
        return RelayTransport(self.client, self.config)


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
        if environment == self.client.environment:
            return self.client.call(RelayCall(config=self.config, request=request, environment=environment))
        with self._lock:
            self._here = self._here or LiteLLMTransport(self.config)
        return self._here.complete(request)

    def close(self) -> None:
        """Nothing to release: the run's first process detaches the run at its end (`detach`)."""


def detach(run: RelayRun) -> None:
    """Give up the run's lease; the relay then idles out (at once with LLMFAITH_IDLE_TIMEOUT=0)."""
    for directory in leased(run.directory, run.owner_pid):  # held: no relay retired and removed it meanwhile
        relay_files(directory).release(run.owner_pid)
