"""Find or start the one shared judge server for a model: `ensure_server`, `shutdown_server`.

Why one loopback server per machine and model, not a model inside each process: under
pytest-xdist every worker is a process; each loading the 1.1 GB model would cost ~2 GB of RAM
and a load apiece, and N workers generating at once on 2 cores only slow each other down. A
single server owns the model, generates one answer at a time (keeping llama.cpp's prompt
prefix cache warm), and every worker reaches it as an OpenAI-compatible endpoint, so the
judge code path is the same as for a hosted model.

Coordination is a file lock on `<model dir>/run/server-<sha>.lock`: the first client under
the lock finds no live server (pid alive and GET /health answering with the same model hash),
starts one detached (new session, output to a log file), and waits for the server to write
its port into the state file. The others wait on the lock and then reuse it. Every caller
takes a lease (its pid): the server stays up while a leaseholder lives, so a process may keep
the api base it got for its whole life, and `shutdown_server` only stops the server when no
other live process still holds a lease (the first xdist worker to finish must not stop it
under the others). After the last leaseholder exits or releases, the server stops by itself
after an idle timeout (LLMFAITH_LOCAL_IDLE_TIMEOUT, default 120 s), so a crashed run leaves
nothing behind for long.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from pytest_llmfaith.errors import LocalJudgeUnavailable
from pytest_llmfaith.local.models import LocalModel
from pytest_llmfaith.local.runstate import RunFiles, ServerState, pid_alive
from pytest_llmfaith.local.weights import INSTALL_COMMANDS, file_lock

DEFAULT_IDLE_TIMEOUT = 120.0
START_TIMEOUT = 180.0
_LOG_TAIL = 3000
# The servers this process started: a child that exited stays a zombie (and looks alive to
# os.kill(pid, 0)) until it is reaped, which Popen.poll() does.
_children: dict[int, subprocess.Popen[bytes]] = {}
# Loopback only: never let an http_proxy setting route the health check elsewhere.
_opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def ensure_server(model: LocalModel) -> str:
    """Return the api base (`http://127.0.0.1:PORT/v1`) of a live server for `model`."""
    if importlib.util.find_spec("llama_cpp") is None:
        raise LocalJudgeUnavailable(
            "the offline judge's runtime (llama-cpp-python) is not installed. Install it and "
            f"the weights with:\n    {INSTALL_COMMANDS}"
        )
    files = RunFiles.for_sha(model.sha256)
    with file_lock(files.lock):
        state = files.read()
        if state is None or not _is_live(state, model.sha256):
            if files.state.exists():
                files.state.unlink()
            state = _start(model, files)
        files.set_clients([*files.live_clients(), os.getpid()])
        return state.api_base


def shutdown_server(model: LocalModel, *, force: bool = False) -> None:
    """Release this process's lease; stop the server if no other live process holds one.

    `force=True` stops it regardless (e.g. `python -m pytest_llmfaith.local stop`). Returns
    once the server process is gone; a no-op when none is running.
    """
    files = RunFiles.for_sha(model.sha256)
    if not files.state.exists() and not files.clients.exists():
        return
    with file_lock(files.lock):
        others = [] if force else [pid for pid in files.live_clients() if pid != os.getpid()]
        if files.clients.exists():
            files.set_clients(others)
        state = files.read()
        if others or state is None:
            return
        try:
            _request(state.port, "/shutdown", method="POST")
        except (OSError, ValueError):
            return
    deadline = time.monotonic() + 15
    while _pid_alive(state.pid) and time.monotonic() < deadline:
        time.sleep(0.05)


def _start(model: LocalModel, files: RunFiles) -> ServerState:
    files.log.parent.mkdir(parents=True, exist_ok=True)
    idle = os.environ.get("LLMFAITH_LOCAL_IDLE_TIMEOUT", str(DEFAULT_IDLE_TIMEOUT))
    command = [
        sys.executable, "-m", "pytest_llmfaith.local.server",
        "--model", str(model.path), "--sha256", model.sha256, "--name", model.name,
        "--run-dir", str(files.state.parent), "--idle-timeout", idle,
    ]
    # The server must import this same package even when it is on sys.path only via pytest.
    package_root = str(Path(__file__).resolve().parents[2])
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [package_root, env.get("PYTHONPATH")]))
    with open(files.log, "wb") as log:
        proc = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=log, stderr=log,
                                env=env, start_new_session=True)
    _children[proc.pid] = proc
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise LocalJudgeUnavailable(
                f"the offline judge server exited with code {proc.returncode} while starting "
                f"(model {model.path}). Its log ({files.log}) ends with:\n{_tail(files.log)}"
            )
        state = files.read()
        if state is not None and state.pid == proc.pid and _is_live(state, model.sha256):
            return state
        time.sleep(0.1)
    proc.kill()
    proc.wait()
    raise LocalJudgeUnavailable(
        f"the offline judge server did not become ready within {START_TIMEOUT:.0f}s "
        f"(model {model.path}). Its log ({files.log}) ends with:\n{_tail(files.log)}"
    )


def _is_live(state: ServerState, sha256: str) -> bool:
    if not _pid_alive(state.pid):
        return False
    try:
        health = _request(state.port, "/health")
    except (OSError, ValueError):
        return False
    return health.get("sha256") == sha256 and health.get("pid") == state.pid


def _pid_alive(pid: int) -> bool:
    child = _children.get(pid)
    return child.poll() is None if child is not None else pid_alive(pid)


def _request(port: int, path: str, method: str = "GET") -> dict[str, object]:
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", method=method,
                                     data=b"" if method == "POST" else None)
    with _opener.open(request, timeout=5) as response:
        payload = json.loads(response.read())
    if not isinstance(payload, dict):
        raise ValueError("unexpected answer")
    return payload


def _tail(path: Path) -> str:
    try:
        return path.read_bytes()[-_LOG_TAIL:].decode(errors="replace").strip() or "(empty)"
    except OSError:
        return "(no log)"
