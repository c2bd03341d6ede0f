"""The files a judge server and its clients share in `<model dir>/run/`, one set per model hash.

- state: written by the server (atomically, without the lock, since the spawning client holds
  it while waiting) once it is ready; removed by the server on the way out.
- lock: clients take it to decide whether to reuse or spawn, and to change the leases.
- clients: the pids of the processes using the server (leases). The server does not idle out
  while one of them is alive, so a process may keep its api base for its whole life; and one
  process releasing the server (e.g. the first pytest-xdist worker to finish) does not stop it
  under the others.
- log: the server's output, read back when it fails to start.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

from pydantic import BaseModel, ValidationError

from pytest_llmfaith.local.weights import model_dir, write_json_atomic


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


class Leases(BaseModel):
    pids: list[int] = []


def pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


class RunFiles(BaseModel):
    """The files of one model's server."""

    state: Path
    lock: Path
    clients: Path
    log: Path

    @classmethod
    def for_sha(cls, sha256: str, run_dir: Path | None = None) -> RunFiles:
        run = run_dir if run_dir is not None else model_dir() / "run"
        stem = f"server-{sha256[:16]}"
        return cls(state=run / f"{stem}.json", lock=run / f"{stem}.lock",
                   clients=run / f"{stem}.clients.json", log=run / f"{stem}.log")

    def read(self) -> ServerState | None:
        try:
            return ServerState.model_validate_json(self.state.read_text())
        except (OSError, ValidationError):
            return None

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
        try:
            pids = Leases.model_validate_json(self.clients.read_text()).pids
        except (OSError, ValidationError):
            return []
        return [pid for pid in pids if pid_alive(pid)]

    def set_clients(self, pids: list[int]) -> None:
        """Replace the leases; call under the lock."""
        write_json_atomic(self.clients, Leases(pids=sorted(set(pids))).model_dump_json())
