"""One kit for the background services, their own side: an HTTP server on 127.0.0.1 that writes its
state once it serves, and exits once no live lease is held and nothing was asked for its idle timeout."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Generic

from pytest_llmfaith.processes.service import STOPPING, ServiceFiles, StateT

WATCH_INTERVAL = 0.25  # between looks at the leases: an idle timeout of 0 ends it within this


class ServiceServer(ThreadingHTTPServer, Generic[StateT]):
    """The server of one service: its idle clock, its stop, its exit. `files` None: a server of a
    test, with no leases to look at and nothing to withdraw."""

    daemon_threads = True

    def __init__(self, handler: type[BaseHTTPRequestHandler], files: ServiceFiles[StateT] | None, *,
                 idle_timeout: float, idle_reason: str, port: int = 0) -> None:
        super().__init__(("127.0.0.1", port), handler)
        self.files = files
        self.idle_timeout = idle_timeout
        self.idle_reason = idle_reason  # said in its log when it idles out
        self.reason = ""  # why it stopped
        self._clock = threading.Lock()
        self._busy = 0
        self._last_activity = time.monotonic()
        self._stopping = threading.Event()
        self._watcher: threading.Thread | None = None

    @property
    def port(self) -> int:
        return int(self.server_address[1])

    @contextlib.contextmanager
    def busy(self) -> Iterator[None]:
        """Around a request: the idle clock stands still meanwhile, and starts again after it."""
        with self._clock:
            self._busy += 1
            self._last_activity = time.monotonic()
        try:
            yield
        finally:
            with self._clock:
                self._busy -= 1
                self._last_activity = time.monotonic()

    def looked(self, attached: list[int], read_at: float) -> None:
        """Called at each look at the leases (`attached`: the live holders' pids, read at `read_at`)."""

    def stop(self, reason: str) -> None:
        """Stop serving, from any thread but the one running serve_forever."""
        if not self._stopping.is_set():
            self.reason = reason
            print(f"{STOPPING}{reason}", flush=True)
            self._stopping.set()
            threading.Thread(target=self.shutdown, daemon=True).start()

    def serve_forever(self, poll_interval: float = 0.5) -> None:
        if self._watcher is None:
            self._watcher = threading.Thread(target=self._watch, name="idle-watch", daemon=True)
            self._watcher.start()
        super().serve_forever(poll_interval)

    def serve(self, state: StateT, serving: str) -> None:
        """Write the state (what tells the clients it serves), say `serving` in the log, serve until
        stopped (idle, asked to, SIGTERM), then withdraw the state."""
        assert self.files is not None
        signal.signal(signal.SIGTERM, lambda *_: self.stop("SIGTERM"))
        self.files.write(state)
        print(serving, flush=True)
        try:
            self.serve_forever()
        finally:
            self.server_close()
            folder = self.files.folder
            if folder is None or folder.is_dir():  # else it retired with its folder: nothing to withdraw
                with self.files.locked():
                    self.files.withdraw(os.getpid())
            print("stopped", flush=True)

    def _watch(self) -> None:
        """The idle clock runs while no live lease is held (a crashed holder's lapses) and no
        request is in flight."""
        while not self._stopping.wait(WATCH_INTERVAL):
            read_at = time.monotonic()
            attached = self.files.leases.live() if self.files is not None else []
            self.looked(attached, read_at)
            with self._clock:
                held = bool(attached or self._busy)
                if held:
                    self._last_activity = time.monotonic()
                idle = time.monotonic() - self._last_activity
            if not held and idle >= self.idle_timeout and self._retire():  # held: even at a timeout of 0
                self.stop(self.idle_reason)

    def _retire(self) -> bool:
        """Withdraw the state (or remove the service's own folder) under the lock, unless a client
        leased it meanwhile: a client finding it at that moment either is seen here or finds it
        gone and starts another."""
        files = self.files
        if files is None or (files.folder is not None and not files.folder.is_dir()):
            return True  # nothing to withdraw (its temporary folder cleaned up)
        try:
            with files.locked(wait=False):
                if files.leases.live() or self._busy:  # leased, or asked, since the last look
                    return False
                newer = files.starting_pid()
                if files.folder is not None and newer in (None, os.getpid()):
                    shutil.rmtree(files.folder, ignore_errors=True)  # its state, leases and logs
                else:  # a newer one is starting in its folder: keep that one's files
                    files.withdraw(os.getpid())
                return True
        except BlockingIOError:  # a client is at it: look again later
            return False


class ServiceHandler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # else delayed ACKs add ~40 ms to every answer on loopback

    def send_json(self, status: int, data: bytes) -> None:
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):  # the client gave up
            self.wfile.write(data)
