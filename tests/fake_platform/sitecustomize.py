"""Make this interpreter look like Windows (or macOS) to pytest_llmfaith, for the platform tests.

Put this folder on PYTHONPATH and set LLMFAITH_FAKE_PLATFORM=windows (or macos): every process of
a run then has it (pytest, its xdist workers, the judge relay), as `site` imports it at start.
The fake is applied when pytest_llmfaith is first imported, so that what ran before (pytest's and
execnet's start) saw this machine as it is; from then on, for everyone:

- windows: no os.getuid (nor the other uid/gid/session calls), `import fcntl`/`pwd`/`grp`/
  `termios`/`resource` fail, no signal.SIGKILL (nor the other POSIX-only signals), Popen rejects
  `pass_fds` and `start_new_session` and takes Windows' `creationflags` (CREATE_NEW_PROCESS_GROUP
  detaches the child, as on Windows), `kill` and `terminate` end a process as TerminateProcess
  does, os.name == "nt" and sys.platform == "win32";
- macos: sys.platform == "darwin", and no /proc.

What stays this machine's: the file system (pathlib keeps making POSIX paths, pytest's Windows
long-path prefix is not added, the console is not Windows' console), and the modules
whose platform backends are theirs (filelock, psutil, asyncio, ssl: imported first, so they keep
their Linux code; their Windows code is theirs to test). LLMFAITH_FAKE_NO_FCNTL=1 also makes
fcntl unimportable, as on a POSIX-like platform without it (filelock keeps the one it imported).
"""

from __future__ import annotations

import builtins
import importlib.abc
import io
import os
import sys
import types

PLATFORM = os.environ.get("LLMFAITH_FAKE_PLATFORM", "")
UNIMPORTABLE = ("fcntl", "pwd", "grp", "termios", "resource")
NO_OS_CALLS = ("getuid", "geteuid", "getgid", "getegid", "getgroups", "setsid", "setpgid", "getpgid",
               "killpg", "fork", "forkpty")
NO_SIGNALS = ("SIGKILL", "SIGHUP", "SIGQUIT", "SIGUSR1", "SIGUSR2", "SIGALRM", "SIGCHLD", "SIGPIPE",
              "SIGSTOP", "SIGCONT")
# Windows' values (subprocess and signal define them there only).
CREATION_FLAGS = {"CREATE_NEW_PROCESS_GROUP": 0x200, "CREATE_NO_WINDOW": 0x08000000, "DETACHED_PROCESS": 0x8}


def _preimport() -> None:
    """Modules that choose a platform backend when imported: imported now, with this machine's."""
    import asyncio  # noqa: F401
    import concurrent.futures  # noqa: F401
    import http.server  # noqa: F401
    import mimetypes  # noqa: F401
    import multiprocessing  # noqa: F401
    import platform
    import selectors  # noqa: F401
    import shutil  # noqa: F401
    import socket  # noqa: F401
    import ssl  # noqa: F401
    import subprocess  # noqa: F401
    import sysconfig
    import tempfile
    import urllib.request  # noqa: F401
    import uuid  # noqa: F401

    import filelock  # noqa: F401
    import psutil  # noqa: F401

    tempfile.gettempdir()  # chosen now, by this machine's rules
    platform.uname()
    sysconfig.get_config_vars()


def _windows() -> None:
    import pathlib
    import signal
    import ssl
    import subprocess

    import filelock  # noqa: F401

    real_kill = signal.SIGKILL
    for name in NO_OS_CALLS:
        if hasattr(os, name):
            delattr(os, name)
    for name in NO_SIGNALS:
        if hasattr(signal, name):
            delattr(signal, name)
    signal.SIGBREAK = 21  # type: ignore[attr-defined]
    signal.CTRL_C_EVENT, signal.CTRL_BREAK_EVENT = 0, 1  # type: ignore[attr-defined]
    for name in UNIMPORTABLE:
        sys.modules[name] = None  # type: ignore[assignment]
    for name, value in CREATION_FLAGS.items():
        setattr(subprocess, name, value)
    msvcrt = types.ModuleType("msvcrt", "Windows' C runtime calls that code asks for by platform")
    msvcrt.setmode = lambda fd, mode: mode  # type: ignore[attr-defined]  # POSIX files are binary already
    sys.modules["msvcrt"] = msvcrt
    os.O_BINARY = 0  # type: ignore[attr-defined]

    class WindowsPopen(subprocess.Popen):  # type: ignore[type-arg]
        def __init__(self, *args, pass_fds=(), start_new_session=False, creationflags=0, **kwargs):  # type: ignore[no-untyped-def]
            if pass_fds:
                raise AssertionError("pass_fds not supported on Windows.")
            if start_new_session:
                raise ValueError("start_new_session is POSIX-only: this is (a fake) Windows")
            if creationflags & ~sum(CREATION_FLAGS.values()):
                raise ValueError(f"unknown creationflags {creationflags:#x}")
            super().__init__(*args, start_new_session=bool(creationflags & 0x200), **kwargs)

        def terminate(self) -> None:  # TerminateProcess
            if self.poll() is None:
                os.kill(self.pid, real_kill)

        kill = terminate

    subprocess.Popen = WindowsPopen  # type: ignore[misc]
    if sys.modules.get("psutil") is not None:
        import psutil

        psutil.Process.kill = lambda self: self.send_signal(real_kill)  # TerminateProcess
        psutil.Process.terminate = psutil.Process.kill
    ssl.enum_certificates = lambda store: []  # type: ignore[attr-defined]  # an empty Windows store
    io._WindowsConsoleIO = type("_WindowsConsoleIO", (io.RawIOBase,), {})  # type: ignore[attr-defined]  # no console here
    posix_new = pathlib.Path.__new__
    pathlib.Path.__new__ = lambda cls, *a, **k: posix_new(pathlib.PosixPath if cls is pathlib.Path else cls, *a, **k)  # type: ignore[method-assign]
    if "_pytest.pathlib" in sys.modules:  # its Windows long-path prefix ("\\\\?\\") means nothing here
        sys.modules["_pytest.pathlib"].ensure_extended_length_path = lambda path: path
    sys._base_executable = sys.executable  # type: ignore[attr-defined]  # not a venv: no redirector here
    os.name = "nt"
    sys.platform = "win32"


def _macos() -> None:
    real_open = builtins.open

    def no_proc(file, *args, **kwargs):  # type: ignore[no-untyped-def]
        if str(file).startswith("/proc/") and not _psutil_caller():
            raise FileNotFoundError(2, "No such file or directory (macOS has no /proc)", str(file))
        return real_open(file, *args, **kwargs)

    builtins.open = no_proc
    sys.platform = "darwin"


def _psutil_caller() -> bool:
    """psutil reads /proc for its Linux backend, which stands in for its macOS one here."""
    frame = sys._getframe(2)
    return "psutil" in frame.f_code.co_filename


class _FakeOnFirstImport(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):  # type: ignore[no-untyped-def]
        if name == "pytest_llmfaith" or name.startswith("pytest_llmfaith."):
            sys.meta_path.remove(self)
            _preimport()
            if os.environ.get("LLMFAITH_FAKE_NO_FCNTL"):
                sys.modules["fcntl"] = None  # type: ignore[assignment]
            {"windows": _windows, "macos": _macos}[PLATFORM]()
        return None


class _FakeFirst(list):  # type: ignore[type-arg]
    """sys.meta_path, where the fake stays ahead of a finder put first later: pytest's assertion
    rewriter would otherwise import the package unseen when a sys.path entry holds it (a checkout
    on PYTHONPATH), and the run would test this machine's platform."""

    def insert(self, index, finder):  # type: ignore[no-untyped-def]
        super().insert(index, finder)
        fakes = [f for f in self if isinstance(f, _FakeOnFirstImport)]
        if index == 0 and fakes and finder is not fakes[0]:
            self.remove(fakes[0])
            super().insert(0, fakes[0])


if PLATFORM:
    sys.meta_path = _FakeFirst([_FakeOnFirstImport(), *sys.meta_path])
