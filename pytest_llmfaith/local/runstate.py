"""The files a judge server and its clients share in `<model dir>/run/`: state (written by the
server once ready), lock, leases (the pids using it) and one log per server pid, so a crashed
server's log outlives its successor's start.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

from pydantic import BaseModel

from pytest_llmfaith.local.weights import model_dir
from pytest_llmfaith.processes.children import Leases, pid_log
from pytest_llmfaith.processes.files import prune_logs, read_state, write_json_atomic


class ServerState(BaseModel):
    """What a client needs to find and trust a running server."""

    pid: int
    port: int
    sha256: str
    name: str
    model_path: Path

    @property
    def api_base(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"


class RunFiles(BaseModel):
    """The files of one model's server."""

    state: Path
    lock: Path
    clients: Path
    log: Path
    runtime: str = ""

    @classmethod
    def for_sha(cls, sha256: str, run_dir: Path | None = None, runtime: str = "") -> RunFiles:
        run = run_dir if run_dir is not None else model_dir() / "run"
        stem = f"server-{sha256[:16]}" + (f"-{runtime}" if runtime else "")
        return cls(state=run / f"{stem}.json", lock=run / f"{stem}.lock",
                   clients=run / f"{stem}.clients.json", log=run / f"{stem}.log", runtime=runtime)

    def log_of(self, pid: int) -> Path:
        """The log of the server with this pid (`log` is only the name it starts under)."""
        return pid_log(self.log, pid)

    def prune_logs(self, keep: int = 3) -> None:
        """Delete all but the newest `keep` per-pid logs."""
        prune_logs(self.log, keep)

    def read(self) -> ServerState | None:
        return read_state(self.state, ServerState)

    def write(self, state: ServerState) -> None:
        write_json_atomic(self.state, state.model_dump_json())

    def remove_if_owned(self, pid: int) -> None:
        """Delete the state only if it still names `pid` (a successor may have replaced it)."""
        current = self.read()
        if current is not None and current.pid == pid:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(self.state)

    def live_clients(self) -> list[int]:
        """The leases whose process still runs (a crashed client's lease lapses by itself)."""
        return Leases(self.clients).live()

    def set_clients(self, pids: list[int]) -> None:
        """Replace the leases; call under the lock."""
        Leases(self.clients).set(pids)
