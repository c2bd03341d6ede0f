"""Commands that behave in a pipe: `python -m pytest_llmfaith cache show … | head` ends quietly
once `head` has read enough, as `cat` does, instead of in a BrokenPipeError traceback. Every
entry point (both `python -m` ones and the console script) runs its command through here.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable

SIGPIPE_EXIT = 141  # 128 + SIGPIPE: what a shell reports for a writer whose reader left (`cat big | head`)


def run_command(main: Callable[[list[str]], int], argv: list[str]) -> int:
    """`main(argv)`, its output flushed here, where a reader that left can still be told apart
    from a failure of the command (at interpreter exit it would be an "Exception ignored")."""
    try:
        try:
            return main(argv)
        finally:  # also after argparse's SystemExit (--help)
            sys.stdout.flush()
    except BrokenPipeError:
        # Python flushes stdout once more at exit: point it at nothing so that flush cannot fail too
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return SIGPIPE_EXIT


def install_model() -> int:
    """The `llmfaith-install-model` console script."""
    from pytest_llmfaith.local.weights import main

    return run_command(main, sys.argv[1:])
