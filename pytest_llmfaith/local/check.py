"""Prove the offline judge's runtime works on this CPU: load the model, answer one label, write
a few tokens (prompt reading and generation run different kernels). In a child process: a build
for other CPU features dies of a signal that would take the caller with it.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

from pytest_llmfaith.errors import LLMFaithError
from pytest_llmfaith.local.weights import INSTALL_COMMANDS
from pytest_llmfaith.processes.children import PACKAGE_ROOT

if TYPE_CHECKING:
    from pytest_llmfaith.local.kernels import Variant  # kernels.py runs this module's probe

_PROBE = """
import importlib, json, sys, time
from pathlib import Path
from pytest_llmfaith.local.server import engine_for
runtime = importlib.import_module(sys.argv[2])
system = (str(runtime.get_system_info()) if sys.argv[2] == "xllamacpp"
          else runtime.llama_print_system_info().decode(errors="replace"))
started = time.monotonic()
engine = engine_for(sys.argv[2])(Path(sys.argv[1]), 512, 2)
loaded = time.monotonic() - started
answer = engine({"messages": [{"role": "user", "content": "Is water wet? Answer yes or no."}], "max_tokens": 1,
                 "logprobs": True, "top_logprobs": 2})
written = engine({"messages": [{"role": "user", "content": "Say hello."}], "max_tokens": 4, "temperature": 0})
print(json.dumps({"system": system, "runtime": runtime.__file__, "load_s": loaded,
                  "answer": answer["choices"][0]["message"]["content"],
                  "written": written["choices"][0]["message"]["content"]}))
"""


class RuntimeBroken(LLMFaithError):
    """The runtime cannot answer on this machine; the message says why and how to fix it."""


class ProbeFailed(RuntimeBroken):
    """The probe's child process crashed, failed or hung: `how` says which, `tail` its output,
    `exit_code` the code it exited with (None: killed by a signal, or hung)."""

    def __init__(self, how: str, tail: str, exit_code: int | None = None) -> None:
        super().__init__(f"{how}: {tail}")
        self.how = how
        self.tail = tail
        self.exit_code = exit_code


def probe(model: Path, timeout: float, first_on_path: Path | None = None,
          module: str = "llama_cpp") -> dict[str, object]:
    """Load `model`, read one label and generate a few tokens in a child process with the runtime
    `module` (`first_on_path` first on its PYTHONPATH: a variant's folder); return what it
    reported, with `total_s`."""
    env = None
    if first_on_path is not None:
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(
            filter(None, [str(first_on_path), PACKAGE_ROOT, os.environ.get("PYTHONPATH")]))}
    started = time.monotonic()
    try:
        done = subprocess.run([sys.executable, "-c", _PROBE, str(model), module], capture_output=True,
                              text=True, timeout=timeout, env=env)
    except subprocess.TimeoutExpired:
        raise ProbeFailed(f"did not answer one question within {timeout:.0f} s", "(no answer)") from None
    tail = (done.stderr or done.stdout).strip()[-1500:] or "(no output)"
    if done.returncode < 0:
        raise ProbeFailed(f"was killed by {signal.Signals(-done.returncode).name}", tail)
    if done.returncode > 0:
        raise ProbeFailed(f"exited with code {done.returncode}", tail, exit_code=done.returncode)
    report: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    report["total_s"] = time.monotonic() - started
    return report


def check_runtime(model: Path, variant: Variant, timeout: float = 300.0) -> dict[str, object]:
    """Prove the build in `variant`'s folder on this CPU; see `probe`."""
    try:
        return probe(model, timeout, first_on_path=variant.folder(), module=variant.module)
    except ProbeFailed as exc:
        raise RuntimeBroken(
            f"the offline judge's runtime ({variant.requirement}, {variant.name} kernels in {variant.folder()}) "
            f"{exc.how} while answering one test question on this CPU:\n{exc.tail}\nA runtime compiled for "
            f"other CPU features crashes like this (docs/offline-judge.md). Fix: install the kernels this "
            f"CPU runs (compiled once per machine, then kept):\n    {INSTALL_COMMANDS}"
        ) from None


def main(model: Path, variant: Variant) -> int:
    print(f"checking the offline judge's runtime ({variant.name} kernels) with {model.name} ...",
          file=sys.stderr, flush=True)
    try:
        report = check_runtime(model, variant)
    except RuntimeBroken as exc:
        print(f"llmfaith: {exc}", file=sys.stderr)
        return 1
    kernels = " ".join(part.strip() for part in str(report["system"]).split("|") if "= 1" in part)  # AVX2 = 1 | ...
    print(f"runtime works: model loaded in {report['load_s']:.1f} s, answered {report['answer']!r} "
          f"({report['total_s']:.1f} s in all); CPU kernels: {kernels}", file=sys.stderr)
    return 0
