"""`python -m pytest_llmfaith local install|prove|stop [MODEL]` (MODEL defaults to `local`).

`install`: the runtime (once per machine), the weights, the proof; `prove`: one answer in a child
process (a build for other CPU features crashes) and the kernels runs use; `stop`: the shared
server exits now, whoever still uses it.
"""

from __future__ import annotations

import sys
from pathlib import Path

from pytest_llmfaith.errors import ConfigError
from pytest_llmfaith.local.check import main as check_main
from pytest_llmfaith.local.install import main as install_main
from pytest_llmfaith.local.kernels import choose
from pytest_llmfaith.local.launcher import server_alive, shutdown_server
from pytest_llmfaith.local.models import resolve_local_model

USAGE = "usage: python -m pytest_llmfaith local install | prove | stop [local|local:/path/model.gguf]"


def main(argv: list[str]) -> int:
    command, rest = (argv[0], argv[1:]) if argv else ("", [])
    if command == "install":
        return install_main(rest)
    if command == "prove" and len(rest) <= 1:
        try:
            return _check(resolve_local_model(rest[0] if rest else "local").path)
        except ConfigError as exc:
            print(f"cannot prove: {exc}", file=sys.stderr)
            return 1
    if command == "stop" and len(rest) <= 1:
        return _stop(rest[0] if rest else "local")
    print(USAGE, file=sys.stderr)
    return 2


def _check(model: Path) -> int:
    """Choose the kernels a run uses (proving them if new), then answer one question with them."""
    choice = choose(model)
    code = check_main(model, choice.variant)
    if code == 0:
        print(f"the offline judge runs here on: {choice.label()}", file=sys.stderr)
    return code


def _stop(name: str) -> int:
    """Stop the shared judge server of a model, and say what was stopped, or that nothing ran."""
    try:
        model = resolve_local_model(name)
    except ConfigError as exc:
        print(f"nothing to stop: {exc}", file=sys.stderr)
        return 0
    stopped = shutdown_server(model, force=True)
    if stopped is None:
        print(f"nothing to stop: no offline judge server of {model.name} is running")
    else:
        still = " (still shutting down)" if server_alive(stopped.pid) else ""
        print(f"stopped the offline judge server of {model.name} (pid {stopped.pid}, {stopped.api_base}){still}")
    return 0
