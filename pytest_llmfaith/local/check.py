"""Prove the offline judge's runtime works on this CPU: load the model, answer one label.

Run in a child process, since a runtime built for other CPU features dies with a signal
(SIGILL, or SIGSEGV in AMX tile set-up on some Xeons) that would take the caller with it.
`python -m pytest_llmfaith.local install` runs it after installing the weights, so a broken build fails the
install with the reason and the fix, not the first test with a connection error.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

from pytest_llmfaith.errors import LLMFaithError
from pytest_llmfaith.local.weights import INSTALL_COMMANDS

_PROBE = """
import json, sys, time
from pathlib import Path
import llama_cpp
from pytest_llmfaith.local.engine import LlamaEngine
started = time.monotonic()
engine = LlamaEngine(Path(sys.argv[1]), 512, 2)
loaded = time.monotonic() - started
answer = engine.label([{"role": "user", "content": "Is water wet? Answer yes or no."}], 2)
print(json.dumps({"system": llama_cpp.llama_print_system_info().decode(errors="replace"),
                  "load_s": loaded, "answer": answer["choices"][0]["message"]["content"]}))
"""


class RuntimeBroken(LLMFaithError):
    """The runtime cannot answer on this machine; the message says why and how to fix it."""


def check_runtime(model: Path, timeout: float = 300.0) -> dict[str, object]:
    """Load `model` and read one label in a child process; return what it reported."""
    started = time.monotonic()
    try:
        done = subprocess.run([sys.executable, "-c", _PROBE, str(model)], capture_output=True,
                              text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise RuntimeBroken(f"the offline judge's runtime did not answer one question within "
                            f"{timeout:.0f} s (model {model}).") from None
    if done.returncode != 0:
        if done.returncode < 0:
            how = f"was killed by {signal.Signals(-done.returncode).name}"
        else:
            how = f"exited with code {done.returncode}"
        tail = (done.stderr or done.stdout).strip()[-1500:] or "(no output)"
        raise RuntimeBroken(
            f"the offline judge's runtime (llama-cpp-python) {how} while answering one test question "
            f"on this CPU:\n{tail}\nA runtime compiled for other CPU features crashes like this "
            f"(docs/offline-judge.md). Fix: install the portable build (compiled once per machine, then "
            f"kept):\n    {INSTALL_COMMANDS}"
        )
    report: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    report["total_s"] = time.monotonic() - started
    return report


def main(model: Path) -> int:
    print(f"checking the offline judge's runtime with {model.name} ...", file=sys.stderr, flush=True)
    try:
        report = check_runtime(model)
    except RuntimeBroken as exc:
        print(f"llmfaith: {exc}", file=sys.stderr)
        return 1
    features = " ".join(part.strip() for part in str(report["system"]).split("|") if "= 1" in part)
    print(f"runtime works: model loaded in {report['load_s']:.1f} s, answered {report['answer']!r} "
          f"({report['total_s']:.1f} s in all); CPU kernels: {features}", file=sys.stderr)
    return 0
