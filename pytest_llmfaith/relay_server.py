"""The judge relay process: `python -m pytest_llmfaith.relay_server --run-dir DIR --owner-pid PID ...`.

Started by relay.RelayClient (see relay.py for why). It imports litellm once, then serves the run's
processes on 127.0.0.1 (a random port, written with a fresh token to `relay.json`): POST /complete
runs one `RelayCall` through a `LiteLLMTransport` (one per judge config) under one `Throttle` for
the run, so the concurrency limit and 429 back-off hold across all xdist workers. It stops on
POST /shutdown (the run's end), SIGTERM, when the run's process is gone, or after an idle timeout;
then it leaves at once (os._exit): collecting litellm's objects at exit is CPU the run never needs.
"""

from __future__ import annotations

import argparse
import hmac
import json
import os
import secrets
import shutil
import signal
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from pydantic import ValidationError

from .errors import JudgeError, LLMFaithError, redact
from .processes import pid_alive
from .relay import CLIENT_HEADER, TOKEN_HEADER, RelayCall, RelayFailure, RelayFiles, RelayReply, RelayState, RelayStats
from .transport import LiteLLMTransport, Throttle, import_litellm

WATCH_INTERVAL = 0.25


class RelayServer(ThreadingHTTPServer):
    """The relay's HTTP server: transports by judge config, the run's throttle, stats, the idle clock."""

    daemon_threads = True

    def __init__(self, *, owner_pid: int, concurrency: int, idle_timeout: float, import_s: float) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.owner_pid = owner_pid
        self.token = secrets.token_urlsafe(32)
        self.throttle = Throttle(concurrency)
        self.idle_timeout = idle_timeout
        self.import_s = import_s
        self.reason = ""
        self._transports: dict[str, LiteLLMTransport] = {}
        self._lock = threading.Lock()
        self._requests = 0
        self._busy = 0
        self._clients: set[str] = set()
        self._last_activity = time.monotonic()
        self._stopping = threading.Event()
        threading.Thread(target=self._watch, name="relay-watch", daemon=True).start()

    @property
    def port(self) -> int:
        return int(self.server_address[1])

    def stats(self) -> RelayStats:
        with self._lock:
            return RelayStats(pid=os.getpid(), owner_pid=self.owner_pid, requests=self._requests,
                              clients=len(self._clients), litellm_imports=1, litellm_import_s=self.import_s)

    def complete(self, body: bytes, client: str) -> RelayReply:
        with self._lock:
            self._requests += 1
            self._busy += 1
            self._clients.add(client)
        try:
            return self._complete(body)
        finally:
            with self._lock:
                self._busy -= 1
                self._last_activity = time.monotonic()

    def _complete(self, body: bytes) -> RelayReply:
        try:
            call = RelayCall.model_validate_json(body)
        except ValidationError as err:
            return _failure(JudgeError(f"llmfaith: the judge relay cannot read the call it was sent "
                                       f"({err.error_count()} problem(s)): the relay and the tests run "
                                       "different versions of pytest-llmfaith? Fix: run the tests again."))
        try:
            return RelayReply(completion=self._transport(call).complete(call.request))
        except LLMFaithError as err:
            return _failure(err)
        except Exception as err:  # noqa: BLE001 - the test must get an error, not a dropped connection
            return _failure(JudgeError(redact(
                f"llmfaith: the judge relay failed at step '{call.request.step}': {type(err).__name__}: "
                f"{err}. Fix: report it; --llm-judge-relay=off makes each process call the judge itself.",
                [call.config.api_key_env])))

    def _transport(self, call: RelayCall) -> LiteLLMTransport:
        key = call.config.model_dump_json()
        with self._lock:
            if key not in self._transports:
                self._transports[key] = LiteLLMTransport(call.config, throttle=self.throttle)
            return self._transports[key]

    def stop(self, reason: str) -> None:
        """Stop serving, from any thread but the one running serve_forever."""
        if not self._stopping.is_set():
            self.reason = reason
            print(f"stopping: {reason}", flush=True)
            self._stopping.set()
            threading.Thread(target=self.shutdown, daemon=True).start()

    def _watch(self) -> None:
        while not self._stopping.wait(WATCH_INTERVAL):
            if not pid_alive(self.owner_pid):
                self.stop(f"the run's process (pid {self.owner_pid}) is gone")
            with self._lock:
                idle = 0.0 if self._busy else time.monotonic() - self._last_activity
            if idle >= self.idle_timeout:
                self.stop(f"no judge call for {self.idle_timeout:g} s (LLMFAITH_RELAY_IDLE_TIMEOUT)")


def _failure(err: LLMFaithError) -> RelayReply:
    return RelayReply(failure=RelayFailure(error=type(err).__name__, message=str(err),
                                           kind=getattr(err, "kind", "")))


class _Handler(BaseHTTPRequestHandler):
    server: RelayServer
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # else delayed ACKs add ~40 ms to every answer on loopback

    def log_message(self, *args: object) -> None:  # the log is for starts, stops and failures
        pass

    def do_GET(self) -> None:  # noqa: N802 - http.server's naming
        if self._allowed():
            if self.path == "/health":
                self._send(200, self.server.stats().model_dump_json().encode())
            else:
                self._send(404, b'{"error": "no such endpoint"}')

    def do_POST(self) -> None:  # noqa: N802
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        if not self._allowed():
            return
        client = self.headers.get(CLIENT_HEADER, "?")
        if self.path == "/complete":
            self._send(200, self.server.complete(body, client).model_dump_json().encode())
        elif self.path == "/shutdown":
            self._send(200, b'{"status": "stopping"}')
            self.server.stop(f"shutdown asked by pid {client} (the end of the run, or `relay stop`)")
        else:
            self._send(404, b'{"error": "no such endpoint"}')

    def _allowed(self) -> bool:
        """Only the run's processes, which read the token from the run's private folder."""
        if hmac.compare_digest(self.headers.get(TOKEN_HEADER, ""), self.server.token):
            return True
        self._send(403, json.dumps({"error": "this judge relay serves one pytest run only"}).encode())
        return False

    def _send(self, status: int, data: bytes) -> None:
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        try:
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):  # the client gave up
            pass


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m pytest_llmfaith.relay_server")
    parser.add_argument("--run-dir", type=Path, required=True)
    parser.add_argument("--owner-pid", type=int, required=True)
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--idle-timeout", type=float, default=300.0)
    args = parser.parse_args(argv)

    files = RelayFiles(args.run_dir)
    started = time.monotonic()
    import_litellm()
    import_s = time.monotonic() - started
    print(f"litellm imported in {import_s:.1f} s", flush=True)
    server = RelayServer(owner_pid=args.owner_pid, concurrency=args.concurrency,
                         idle_timeout=args.idle_timeout, import_s=import_s)
    signal.signal(signal.SIGTERM, lambda *_: server.stop("SIGTERM"))
    files.write(RelayState(pid=os.getpid(), port=server.port, token=server.token, owner_pid=args.owner_pid,
                           concurrency=args.concurrency))
    print(f"serving the run of pid {args.owner_pid} on 127.0.0.1:{server.port}, at most "
          f"{args.concurrency} judge requests at once", flush=True)
    try:
        server.serve_forever()
    finally:
        server.server_close()
        files.remove_if_owned(os.getpid())
        if not pid_alive(args.owner_pid):  # nobody is left to remove the run's folder
            shutil.rmtree(args.run_dir, ignore_errors=True)
        print("stopped", flush=True)
        sys.stdout.flush()
        os._exit(0)


if __name__ == "__main__":
    main()
