"""`python -m pytest_llmfaith <command> ...`: the plugin's command line, outside pytest.

Each command lives in its own module and is imported only when asked for, so `--help` and one
command never pay for the others (or for litellm). Every command behaves in a pipe: `python -m
pytest_llmfaith cache show … | head` ends quietly once `head` has read enough, as `cat` does,
instead of in a BrokenPipeError traceback (`run_command`).
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Callable

SIGPIPE_EXIT = 141  # 128 + SIGPIPE: what a shell reports for a writer whose reader left (`cat big | head`)

COMMANDS = {
    # name: (module with a `main(argv) -> int`, one line of help)
    "cache": ("pytest_llmfaith.cli.cache_command", "stats, show, prune and merge the judge cache and the recordings"),
    "check": ("pytest_llmfaith.selfcheck.judge_check", "score the judge on a labelled set (--min-accuracy to gate)"),
    "local": ("pytest_llmfaith.local.local_command", "install | prove | stop: the offline judge on this machine"),
    "relay": ("pytest_llmfaith.relay.relay_command", "status | stop: the judge relays of the test runs going on"),
}


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in COMMANDS:
        lines = [f"  {name:<8} {help}" for name, (_, help) in sorted(COMMANDS.items())]
        print("usage: python -m pytest_llmfaith <command> [options]\n\ncommands:\n" + "\n".join(lines),
              file=sys.stderr)
        return 0 if argv[:1] in (["-h"], ["--help"]) else 2
    module, _ = COMMANDS[argv[0]]
    return int(importlib.import_module(module).main(argv[1:]))


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


if __name__ == "__main__":
    sys.exit(run_command(main, sys.argv[1:]))
