"""Find or start the one shared judge server for a model: `ensure_server`, `shutdown_server`.

One server per machine, model and runtime (`runtime_identity`), not a model per process: xdist
workers would each load 1.1 GB and slow each other down. Clients coordinate under a file lock
and hold leases, so the first worker to finish never stops the server under the others
(docs/offline-judge.md).
"""

from __future__ import annotations

import hashlib
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

from pytest_llmfaith.errors import LocalJudgeUnavailable
from pytest_llmfaith.local.kernels import Choice, Variant, choose, install_command
from pytest_llmfaith.local.weights import LocalModel, model_dir
from pytest_llmfaith.processes.capabilities import background_processes_missing
from pytest_llmfaith.processes.children import PACKAGE_ROOT
from pytest_llmfaith.processes.files import stat_line
from pytest_llmfaith.processes.loopback import request_json
from pytest_llmfaith.processes.service import Service, ServiceFiles, ServiceState, StartFailed
from pytest_llmfaith.settings import environment_value

START_TIMEOUT = 180.0
SERVER_MODULE = "pytest_llmfaith.local.server"
LIBRARIES = (".so", ".dylib", ".dll", ".pyd")  # the compiled parts of a runtime: what it runs


class ServerState(ServiceState):
    """What a client needs to find and trust a running server."""

    sha256: str
    name: str
    model_path: Path

    @property
    def api_base(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"


def server_files(sha256: str, run_dir: Path | None = None, runtime: str = "") -> ServiceFiles[ServerState]:
    """The files the server of the model with this hash on this runtime (`runtime_identity`) shares
    with its clients, in `<model dir>/run/`."""
    run = run_dir if run_dir is not None else model_dir() / "run"
    stem = f"server-{sha256[:16]}" + (f"-{runtime}" if runtime else "")
    return ServiceFiles(ServerState, state=run / f"{stem}.json", lock=run / f"{stem}.lock",
                        leases=run / f"{stem}.clients.json", starting=run / f"{stem}.pid", log=run / f"{stem}.log")


def ensure_server(model: LocalModel, idle_timeout: float | None = None) -> str:
    """Return the api base (`http://127.0.0.1:PORT/v1`) of a live server for `model`."""
    return ensure_server_state(model, idle_timeout=idle_timeout).api_base


def ensure_server_state(model: LocalModel, starting: Callable[[], None] | None = None,
                        choice: Choice | None = None, idle_timeout: float | None = None) -> ServerState:
    """The live server for `model` and this runtime, leased for this process; started if needed
    (`starting` is called first then, e.g. to tell the user a model is being loaded) on the
    kernels `choice` names (by default the ones `choose` proves with this model). A server it
    starts stays up `idle_timeout` seconds after its last lease (the run's --llm-idle-timeout;
    None, outside a run: as the environment sets it, else the default)."""
    if idle_timeout is None:
        try:
            idle_timeout = float(environment_value("llm_idle_timeout"))
        except ValueError as err:
            raise LocalJudgeUnavailable(str(err)) from None
    variant = (choice or choose(model.path)).variant
    files = run_files(model, variant)
    runtime = runtime_identity(variant) or ""

    def healthy(state: ServerState) -> bool:
        try:
            health = request_json(state.port, "/health")
        except (OSError, ValueError):
            return False
        return (health.get("sha256"), health.get("pid"), health.get("runtime")) == (model.sha256, state.pid, runtime)

    def arguments() -> list[str]:
        return ["--model", str(model.path), "--sha256", model.sha256, "--name", model.name,
                "--run-dir", str(files.state.parent), "--idle-timeout", str(idle_timeout), "--runtime", runtime,
                "--engine", variant.module, "--llama-cpp-path", str(variant.folder())]

    # A crash in llama.cpp leaves "Fatal Python error: Segmentation fault" and the Python stack in
    # the log (spawn's -X faulthandler), which the client quotes.
    try:
        return Service(files, SERVER_MODULE, healthy, START_TIMEOUT).find_or_start(os.getpid(), arguments, starting)
    except StartFailed as failed:
        raise LocalJudgeUnavailable(failed.describe("the offline judge server", about=f" (model {model.path})")) \
            from None


def run_files(model: LocalModel, variant: Variant | None = None) -> ServiceFiles[ServerState]:
    """The run files of `model`'s server for this runtime on `variant` (by default the one chosen
    without a new proof); the runtime must be installed."""
    runtime = runtime_identity(variant)
    if runtime is None:
        chosen = variant or choose(None).variant
        raise LocalJudgeUnavailable(
            f"the offline judge's runtime (llama-cpp-python, {chosen.name} kernels) is not installed "
            f"({chosen.folder()}). Install it and the weights with:\n    {install_command(chosen)}"
        )
    missing = background_processes_missing()
    if missing is not None:
        raise LocalJudgeUnavailable(
            f"the offline judge runs in a shared server process, which cannot run here: {missing}. Fix: "
            "run it on Linux, macOS or Windows, or use a hosted judge (--llm-judge-model)")
    return server_files(model.sha256, runtime=runtime)


def runtime_identity(variant: Variant | None = None) -> str | None:
    """What a server runs on, hashed: this interpreter, the llama_cpp build in the folder of
    `variant` (by default the one chosen without a new proof; paths, sizes and mtimes of its
    files, without importing it) and this package. None when that folder holds no build."""
    variant = variant or choose(None).variant
    if not variant.installed():
        return None
    package = variant.folder() / variant.module
    files = [package / "__init__.py", *sorted(p for p in package.rglob("*") if p.suffix in LIBRARIES)]
    parts = [sys.executable, PACKAGE_ROOT, variant.name, *(stat_line(f) for f in files)]
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()[:12]


def shutdown_server(model: LocalModel, *, force: bool = False) -> ServerState | None:
    """Release this process's lease; stop the server if no other live process holds one.

    `force=True` stops it regardless (e.g. `python -m pytest_llmfaith local stop`). Returns
    once the server process is gone, with the server it stopped (None: none was running, or
    others still use it), so that `stop` can say which.
    """
    runtime = runtime_identity()
    if runtime is None:  # no runtime, so no server of ours
        return None
    files = server_files(model.sha256, runtime=runtime)
    if not files.state.exists() and not files.leases.path.exists():
        return None
    stopped: list[ServerState] = []

    def stop(state: ServerState) -> None:  # under the lock: no other process leases it meanwhile
        try:
            request_json(state.port, "/shutdown", method="POST")
        except (OSError, ValueError):
            return
        stopped.append(state)

    files.release(None if force else os.getpid(), stop)
    if not stopped:
        return None
    deadline = time.monotonic() + 15
    while stopped[0].alive() and time.monotonic() < deadline:
        time.sleep(0.05)
    return stopped[0]
