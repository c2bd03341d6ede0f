"""The files a judge server and its clients share in `<model dir>/run/` (the kit's, processes/service.py):
state (written by the server once ready), lock, leases (the processes using it), the pid of one being
started, and one log per server pid, so a crashed server's log outlives its successor's start.
"""

from __future__ import annotations

from pathlib import Path

from pytest_llmfaith.local.weights import model_dir
from pytest_llmfaith.processes.service import ServiceFiles, ServiceState


class ServerState(ServiceState):
    """What a client needs to find and trust a running server."""

    sha256: str
    name: str
    model_path: Path

    @property
    def api_base(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"


def server_files(sha256: str, run_dir: Path | None = None, runtime: str = "") -> ServiceFiles[ServerState]:
    """The files of the server of the model with this hash on this runtime (launcher.runtime_identity)."""
    run = run_dir if run_dir is not None else model_dir() / "run"
    stem = f"server-{sha256[:16]}" + (f"-{runtime}" if runtime else "")
    return ServiceFiles(ServerState, state=run / f"{stem}.json", lock=run / f"{stem}.lock",
                        leases=run / f"{stem}.clients.json", starting=run / f"{stem}.pid", log=run / f"{stem}.log")
