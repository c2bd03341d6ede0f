"""The judge relay process. Per-run state (transports, throttle) is dropped once the run detaches,
so nothing a run met (a judge down, a 429) reaches the next. It exits with os._exit: collecting
litellm's objects is CPU nobody needs. What it keeps and when it ends: docs/relay.md.
"""

from __future__ import annotations

import argparse
import hmac
import json
import os
import secrets
import threading
import time
import traceback
from pathlib import Path

from pydantic import ValidationError

from pytest_llmfaith.errors import JudgeError, LLMFaithError, RelayError, redact
from pytest_llmfaith.judge.backend import JudgeConfig
from pytest_llmfaith.judge.transport import LiteLLMTransport, Throttle, import_litellm
from pytest_llmfaith.processes.children import leave, started_at
from pytest_llmfaith.processes.service import ServiceFiles
from pytest_llmfaith.processes.serving import ServiceHandler, ServiceServer
from pytest_llmfaith.relay.wire import (
    CLIENT_HEADER,
    FIX,
    OWNER_HEADER,
    RUN_HEADER,
    TOKEN_HEADER,
    RelayCall,
    RelayFailure,
    RelayReply,
    RelayState,
    RelayStats,
    RunStats,
    from_wire,
    relay_files,
    to_wire,
)


class RunState:
    """One run's transports (endpoint, circuit breaker) and throttle; counts live apart, to outlive it."""

    def __init__(self, owner_pid: int, concurrency: int) -> None:
        self.owner_pid = owner_pid  # the run's lease: once it is gone, so is this
        self.since = time.monotonic()
        self.throttle = Throttle(concurrency)
        self.transports: dict[str, LiteLLMTransport] = {}

    def transport(self, config: JudgeConfig) -> LiteLLMTransport:
        """Under the server's lock."""
        key = config.model_dump_json()
        if key not in self.transports:
            self.transports[key] = LiteLLMTransport(config, throttle=self.throttle)
        return self.transports[key]


class RelayServer(ServiceServer[RelayState]):
    """The relay's HTTP server: the attached runs' states and stats (the kit keeps its idle clock)."""

    def __init__(self, files: ServiceFiles[RelayState], *, started_by: str, concurrency: int, idle_timeout: float,
                 import_s: float, environment: str) -> None:
        super().__init__(_Handler, files, idle_timeout=idle_timeout, idle_reason=(
            f"no run attached and no judge call for {idle_timeout:g} s (--llm-idle-timeout, LLMFAITH_IDLE_TIMEOUT)"))
        self.leases = files.leases
        self.started_by = started_by
        self.token = secrets.token_urlsafe(32)
        self.concurrency = concurrency
        self.environment = environment  # identity.environment_fingerprint of what it inherited
        self.import_s = import_s
        self._runs: dict[str, RunState] = {}
        self._lock = threading.Lock()
        self._requests = 0
        self._clients: dict[str, set[str]] = {started_by: set()}  # run id -> its processes
        self._run_requests: dict[str, int] = {}

    def stats(self) -> RelayStats:
        attached = self.leases.live()  # read now: a run that just ended is not attached any more
        with self._lock:
            return RelayStats(pid=os.getpid(), started_by=self.started_by, litellm_import_s=self.import_s,
                              requests=self._requests, attached=attached, runs={
                                  run: RunStats(requests=self._run_requests.get(run, 0), processes=len(clients),
                                                litellm_imports=int(run == self.started_by))
                                  for run, clients in self._clients.items()})

    def complete(self, body: bytes, client: str, run: str, owner_pid: int) -> RelayReply:
        with self.busy():
            with self._lock:
                self._requests += 1
                self._run_requests[run] = self._run_requests.get(run, 0) + 1
                self._clients.setdefault(run, set()).add(client)
                if run not in self._runs:
                    self._runs[run] = RunState(owner_pid, self.concurrency)
                state = self._runs[run]
            return self._complete(body, state)

    def _complete(self, body: bytes, state: RunState) -> RelayReply:
        try:
            call = from_wire(RelayCall, body)
        except ValueError as err:  # ValidationError, or not JSON
            problems = f"{err.error_count()} problem(s)" if isinstance(err, ValidationError) else "not JSON"
            return _failure(JudgeError(f"llmfaith: the judge relay cannot read the call it was sent "
                                       f"({problems}): the relay and the tests run different versions "
                                       "of pytest-llmfaith? Fix: run the tests again."))
        if call.environment != self.environment:
            return _failure(RelayError(
                f"llmfaith: the judge relay (pid {os.getpid()}) did not make the judge call at step "
                f"'{call.request.step}': the process that asked has another environment (API keys, "
                "endpoints, settings litellm reads) than the one the relay calls with, and a relay never "
                f"sends one process's call with another's credentials. Fix: run the tests again; {FIX}."))
        try:
            with self._lock:
                transport = state.transport(call.config)
            return RelayReply(completion=transport.complete(call.request))
        except LLMFaithError as err:
            return _failure(err)
        except Exception as err:  # noqa: BLE001 - the test must get an error, not a dropped connection
            return _failure(JudgeError(redact(
                f"llmfaith: the judge relay failed at step '{call.request.step}': {type(err).__name__}: "
                f"{err}. Fix: report it; --llm-judge-relay=off makes each process call the judge itself.",
                [call.config.api_key_env])))

    def looked(self, attached: list[int], read_at: float) -> None:
        """Drop runs whose lease is gone; `read_at` keeps a run that attached after that read."""
        with self._lock:
            gone = [run for run, state in self._runs.items()
                    if state.owner_pid not in attached and state.since < read_at]
            for run in gone:
                del self._runs[run]
            idle = bool(gone) and not self._runs
        if idle:  # and litellm's HTTP clients (their keys, their connections) with the last one
            import_litellm().in_memory_llm_clients_cache.flush_cache()


def _failure(err: LLMFaithError) -> RelayReply:
    return RelayReply(failure=RelayFailure(error=type(err).__name__, message=str(err),
                                           kind=getattr(err, "kind", "")))


def _pid(header: str | None) -> int:
    """The run's owner pid; a call without one keeps no state beyond the next look at the leases."""
    try:
        return int(header or "")
    except ValueError:
        return -1


class _Handler(ServiceHandler):
    server: RelayServer

    def log_message(self, *args: object) -> None:  # the log is for starts, stops and failures
        pass

    def do_GET(self) -> None:  # noqa: N802 - http.server's naming
        if self._allowed():
            if self.path == "/health":
                self.send_json(200, self.server.stats().model_dump_json().encode())
            else:
                self.send_json(404, b'{"error": "no such endpoint"}')

    def do_POST(self) -> None:  # noqa: N802
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        if not self._allowed():
            return
        client = self.headers.get(CLIENT_HEADER, "?")
        if self.path == "/complete":
            run, owner = self.headers.get(RUN_HEADER, "?"), _pid(self.headers.get(OWNER_HEADER))
            reply = self.server.complete(body, client, run, owner)
            self.send_json(200, to_wire(reply))
        elif self.path == "/shutdown":
            self.send_json(200, b'{"status": "stopping"}')
            self.server.stop(f"shutdown asked by pid {client} (`relay stop`)")
        else:
            self.send_json(404, b'{"error": "no such endpoint"}')

    def _allowed(self) -> bool:
        """Only the runs' processes, which read the token from the relay's private folder."""
        if hmac.compare_digest(self.headers.get(TOKEN_HEADER, ""), self.server.token):
            return True
        self.send_json(403, json.dumps({"error": "this judge relay serves its user's pytest runs only"}).encode())
        return False


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m pytest_llmfaith.relay.relay_server")
    parser.add_argument("--dir", type=Path, required=True)
    parser.add_argument("--started-by", required=True, help="the id of the run that starts it")
    # No defaults here: the run's settings give both (settings.py holds the defaults)
    parser.add_argument("--concurrency", type=int, required=True)
    parser.add_argument("--idle-timeout", type=float, required=True)
    parser.add_argument("--environment", required=True, help="the fingerprint of the environment it inherits")
    args = parser.parse_args(argv)

    files = relay_files(args.dir)
    started = time.monotonic()
    import_litellm()
    import_s = time.monotonic() - started
    print(f"litellm imported in {import_s:.1f} s", flush=True)
    server = RelayServer(files, started_by=args.started_by, concurrency=args.concurrency,
                         idle_timeout=args.idle_timeout, import_s=import_s, environment=args.environment)
    state = RelayState(pid=os.getpid(), started=started_at(os.getpid()), port=server.port, token=server.token,
                       concurrency=args.concurrency, idle_timeout=args.idle_timeout)
    try:
        server.serve(state, f"serving the runs attached to {args.dir.name} on 127.0.0.1:{server.port}, at most "
                            f"{args.concurrency} judge requests at once, {args.idle_timeout:g} s idle timeout")
    except BaseException:
        traceback.print_exc()  # before leaving: os._exit would skip it, and the log would not say why
        leave(1)
    leave(0)


if __name__ == "__main__":
    main()
