"""The background processes this package starts (the offline judge's server, the judge relay).

Detached, leased by the runs using them, gone an idle timeout after the last lease. filelock and
psutil keep one code path for POSIX and Windows; both are imported on first use, since a run that
never calls the judge needs neither.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import tempfile
from collections.abc import Sequence
from pathlib import Path

from pytest_llmfaith.processes.capabilities import detached, python_executable, user_tag
from pytest_llmfaith.processes.files import write_json_atomic

# The processes this process started, to reap them and read how they ended.
_children: dict[int, subprocess.Popen[bytes]] = {}
UNKNOWN_EXIT = "exited (its exit status went to the process that started it; see its log)"
PACKAGE_ROOT = str(Path(__file__).resolve().parents[2])


def relay_root() -> Path:
    """Where the judge relays of this user keep their folders (see relay.py)."""
    return Path(tempfile.gettempdir()) / f"llmfaith-relay-{user_tag()}"


class Leases:
    """The pids of the processes using a shared background process, in a JSON file: it stays up
    while one of them lives, and a crashed holder's lease lapses by itself (its pid is gone)."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def live(self) -> list[int]:
        try:
            pids = json.loads(self.path.read_text())["pids"]
        except (OSError, ValueError, KeyError, TypeError):
            return []
        return [pid for pid in pids if isinstance(pid, int) and pid_alive(pid)]

    def set(self, pids: list[int]) -> None:
        """Replace the leases; call under the lock of what they hold."""
        write_json_atomic(self.path, json.dumps({"pids": sorted(set(pids))}))


def spawn(module: str, args: Sequence[str], log: Path) -> tuple[subprocess.Popen[bytes], Path]:
    """Start `python -m module args` detached, one log per pid, so a dead one's log outlives its
    successor; -X faulthandler leaves a crashing native library's Python stack there."""
    log.parent.mkdir(parents=True, exist_ok=True)
    # The child must import this same package even when it is on sys.path only via pytest.
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [PACKAGE_ROOT, env.get("PYTHONPATH")]))
    command = [python_executable(env), "-X", "faulthandler", "-m", "pytest_llmfaith.processes.childlog",
               str(log), module, *args]
    proc = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, env=env, **detached())
    _children[proc.pid] = proc
    return proc, pid_log(log, proc.pid)


def pid_log(log: Path, pid: int) -> Path:
    """The log of process `pid` started with `log` as its log name."""
    return log.with_name(f"{log.stem}.{pid}.log")


def pid_alive(pid: int) -> bool:
    """psutil: os.kill(pid, 0) ends the process on Windows; an unreaped zombie counts as dead."""
    import psutil

    try:
        return bool(psutil.Process(pid).status() != psutil.STATUS_ZOMBIE)
    except psutil.NoSuchProcess:  # ZombieProcess too (macOS)
        return False
    except psutil.AccessDenied:  # another user's: alive
        return True


def kill(pid: int) -> None:
    """End process `pid` at once (SIGKILL on POSIX, TerminateProcess on Windows); gone already is fine."""
    child = _children.get(pid)
    if child is not None:
        child.kill()
        return
    import psutil

    with contextlib.suppress(psutil.NoSuchProcess):
        psutil.Process(pid).kill()


def child_alive(pid: int) -> bool:
    """Whether process `pid` still runs (reaping it if this process started it)."""
    child = _children.get(pid)
    return child.poll() is None if child is not None else pid_alive(pid)


def exit_description(pid: int) -> str:
    """How process `pid` ended, as known here: the exit code or signal if this process started it."""
    child = _children.get(pid)
    code = child.poll() if child is not None else None
    if code is None:
        return UNKNOWN_EXIT
    if code < 0:
        try:
            return f"was killed by signal {signal.Signals(-code).name}"
        except ValueError:
            return f"was killed by signal {-code}"
    return f"exited with code {code}"
