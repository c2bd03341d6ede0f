"""`python -m pytest_llmfaith.processes.childlog LOG MODULE ARGS...`: output to `<LOG stem>.<pid>.log`.

The child names its log because Windows cannot rename a file a running process holds open.
Opened before the module is imported, so an import error or native crash lands in it. A process
that exits on its own, however it does, says so last (`ENDED`): a log without that line is the
log of a process killed from outside, which only its parent could otherwise tell.
"""

from __future__ import annotations

import os
import runpy
import sys
from pathlib import Path
from typing import NoReturn

from pytest_llmfaith.processes.children import ENDED, pid_log


def redirect_output(log: Path) -> None:
    """Point this process's stdout and stderr (the descriptors, for native code too) at its log."""
    log.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(pid_log(log, os.getpid()), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    for stream in (sys.stdout, sys.stderr):
        if stream is not None:
            stream.flush()
    os.dup2(fd, 1)
    os.dup2(fd, 2)
    os.close(fd)


def leave(code: int) -> NoReturn:
    """os._exit (no collection of a heavy import's objects at exit), said in the log as any exit is."""
    print(ENDED, flush=True)
    sys.stderr.flush()
    os._exit(code)


def main(argv: list[str]) -> None:
    if len(argv) < 2:
        raise SystemExit("usage: python -m pytest_llmfaith.processes.childlog LOG MODULE [ARGS...]")
    log, module, args = Path(argv[0]), argv[1], argv[2:]
    redirect_output(log)
    sys.argv = [module, *args]
    try:
        runpy.run_module(module, run_name="__main__", alter_sys=True)
    finally:  # an exception's traceback follows
        print(ENDED, flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
