"""What this OS offers the background processes (relay, offline server): the one place that asks.

POSIX-only guards scattered through the code drift apart. Everything is read at each call, so a
test pretending to be Windows only changes `sys.platform` and friends. Standard library only:
the xdist controller asks in every run.
"""

from __future__ import annotations

import getpass
import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any


def background_processes_missing() -> str | None:
    """Why this platform cannot run them, or None. Without fcntl or LockFileEx, filelock falls back
    to lock files a crashed process never frees, which would hang the next run. psutil and
    filelock are dependencies: not asked for."""
    if sys.platform in ("emscripten", "wasi"):
        return f"{sys.platform} cannot start processes"
    if sys.platform != "win32" and not _importable("fcntl"):
        return "this platform has no fcntl, so no file lock that a crashed process lets go of"
    return None


def _importable(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except ValueError:  # a module set to None in sys.modules: deliberately unimportable
        return False


def user_tag() -> str:
    """This user, for the name of a per-user folder: the uid where there is one (POSIX), else the
    login name (Windows; its temporary folder is per user already)."""
    getuid = getattr(os, "getuid", None)
    if getuid is not None:
        return str(getuid())
    try:
        name = getpass.getuser()
    except (ImportError, KeyError, OSError):  # no USERNAME and no pwd database
        name = "user"
    return re.sub(r"[^A-Za-z0-9_.-]", "_", name)


def private_folder_problem(folder: Path) -> str | None:
    """Why others may read `folder` (it holds a relay's token), with the fix, or None: private, or
    not made yet (whoever makes it makes it 0700; nothing is made here). Windows ACLs are beyond the
    standard library: the user's profile (the default %TEMP%) is taken as private. A folder that
    cannot be looked at is not taken as private either."""
    getuid = getattr(os, "getuid", None)
    try:
        if getuid is None:
            if not folder.resolve().is_relative_to(Path.home().resolve()):
                return (f"is outside your user profile ({Path.home()}), where this platform's permissions cannot "
                        "be checked, so what it holds may not be private (fix: point TEMP and TMP at a folder "
                        "inside your profile)")
            return None
        stat = folder.stat()
    except FileNotFoundError:
        return None
    except (OSError, RuntimeError) as err:  # RuntimeError: no home folder to resolve
        return f"cannot be checked ({err}), so what it holds may not be private (fix: point TMPDIR or TEMP elsewhere)"
    if stat.st_uid != getuid() or stat.st_mode & 0o077:
        return (f"belongs to another user or is open to others (mode {stat.st_mode & 0o777:o}), so what it holds "
                "would not be private (fix: `chmod 700` it if it is yours, else point TMPDIR at a folder of your own)")
    return None


def detached() -> dict[str, Any]:
    """Popen keywords that start a child outside this console's process group, so that Ctrl-C in
    the run does not end a server that other runs share."""
    if sys.platform == "win32":
        return {"creationflags": subprocess.CREATE_NEW_PROCESS_GROUP | subprocess.CREATE_NO_WINDOW}
    return {"start_new_session": True}


def python_executable(env: dict[str, str]) -> str:
    """In a Windows venv `sys.executable` is a redirector whose child has another pid than Popen's:
    run the base interpreter with __PYVENV_LAUNCHER__ instead, as multiprocessing does (bpo-35797)."""
    base = getattr(sys, "_base_executable", sys.executable)
    if sys.platform == "win32" and os.path.normcase(base) != os.path.normcase(sys.executable):
        env["__PYVENV_LAUNCHER__"] = sys.executable
        return str(base)
    return sys.executable


def cpu_model_and_flags(cpuinfo: Path = Path("/proc/cpuinfo")) -> tuple[str, frozenset[str]]:
    """The first processor's model name and feature flags, from Linux's /proc/cpuinfo; ("unknown",
    no flags) where the OS has no such file."""
    try:
        text = cpuinfo.read_text(errors="replace")
    except OSError:
        return "unknown", frozenset()
    fields: dict[str, str] = {}
    for line in text.split("\n\n", 1)[0].splitlines():
        name, _, value = line.partition(":")
        fields.setdefault(name.strip(), value.strip())
    return fields.get("model name", "unknown"), frozenset(fields.get("flags", "").split())


def boot_ticks(pid: int, proc: Path = Path("/proc")) -> float | None:
    """When process `pid` started, in clock ticks since boot: field 22 of /proc/<pid>/stat
    (proc_pid_stat(5)), after the command name, which is in parentheses and may hold spaces or
    parentheses itself. None: no such process, a zombie, or no /proc (`has_proc`)."""
    try:
        fields = (proc / str(pid) / "stat").read_bytes().rpartition(b")")[2].split()
        return None if fields[0] in (b"Z", b"X") else float(int(fields[19]))  # zombie, dead
    except (OSError, IndexError, ValueError):
        return None


def has_proc(proc: Path = Path("/proc")) -> bool:
    """Whether /proc describes processes (Linux): then `boot_ticks` is where a start time is read."""
    return (proc / "self" / "stat").is_file()
