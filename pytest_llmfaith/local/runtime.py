"""The offline judge's runtime, compiled once per machine: `python -m pytest_llmfaith.local install`.

llama-cpp-python is built from source with portable x86-64 kernels (a native build crashed on
an AMX Xeon at the first decode). pip's own wheel cache keys a built wheel without CMAKE_ARGS,
so it is never used: the wheel is compiled with pip's cache off into a per-user folder named
after the version and the flags' hash, and any later venv on the machine (a second clone's
`make install`, a user's own project) installs it from there in seconds. The compile takes
minutes and pip is silent through it, so a line says so before, and another every
HEARTBEAT_S seconds with the time elapsed.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from pytest_llmfaith.errors import LLMFaithError
from pytest_llmfaith.local.weights import INSTALL_COMMANDS, say
from pytest_llmfaith.processes.files import file_lock

LLAMA_VERSION = "0.3.36"
PORTABLE_FLAGS = (
    "-DGGML_NATIVE=OFF", "-DGGML_AVX=ON", "-DGGML_AVX2=ON", "-DGGML_FMA=ON", "-DGGML_F16C=ON",
    "-DGGML_AVX512=OFF", "-DGGML_AMX_TILE=OFF", "-DGGML_AMX_INT8=OFF", "-DGGML_AMX_BF16=OFF",
    "-DLLAMA_BUILD_TESTS=OFF", "-DLLAMA_BUILD_EXAMPLES=OFF", "-DLLAMA_BUILD_TOOLS=OFF",
)
HEARTBEAT_S = 30.0
COMPILE_TIME = "about 6 min on 2 cores, less on more"  # measured on this project's CI-sized machines


class RuntimeInstallError(LLMFaithError):
    """The runtime could not be compiled or installed; the message says why and what to do."""


def flags_id(flags: Sequence[str] = PORTABLE_FLAGS) -> str:
    """A short hash of the compile flags, so wheels built with other flags never mix."""
    return hashlib.sha256(" ".join(flags).encode()).hexdigest()[:12]


def wheel_folder(version: str = LLAMA_VERSION, flags: Sequence[str] = PORTABLE_FLAGS) -> Path:
    """This user's folder for the wheel of `version` built with `flags` (never pip's cache)."""
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return cache / "pytest-llmfaith" / "wheels" / f"llama-cpp-python-{version}-{flags_id(flags)}"


def cached_wheel(folder: Path) -> Path | None:
    """The wheel kept in `folder`, if a compile finished there."""
    wheels = sorted(folder.glob("*.whl"))
    return wheels[0] if wheels else None


def ensure_wheel(requirement: str = f"llama-cpp-python=={LLAMA_VERSION}",
                 flags: Sequence[str] = PORTABLE_FLAGS, folder: Path | None = None,
                 heartbeat: float = HEARTBEAT_S) -> Path:
    """The kept wheel for `flags`, compiled first if this machine has none. Concurrent installers
    queue on a lock, so the second one reuses the first one's compile."""
    folder = folder if folder is not None else wheel_folder(flags=flags)
    with file_lock(folder.with_name(f".{folder.name}.lock")):
        wheel = cached_wheel(folder)
        if wheel is not None:
            say(f"using the compiled runtime kept in {folder}")
            return wheel
        partial = folder.with_name(f".{folder.name}.{os.getpid()}.partial")
        shutil.rmtree(partial, ignore_errors=True)
        try:
            compile_wheel(requirement, flags, partial, heartbeat, keep=folder)
            (partial / "build.log").unlink()
            partial.rename(folder)
        finally:
            shutil.rmtree(partial, ignore_errors=True)
    wheel = cached_wheel(folder)
    if wheel is None:
        raise RuntimeInstallError(f"pip reported success but left no wheel in {folder}. "
                                  f"Fix: run {INSTALL_COMMANDS} again")
    return wheel


def compile_wheel(requirement: str, flags: Sequence[str], dest: Path, heartbeat: float, keep: Path) -> None:
    """Build `requirement` from source with `flags` into `dest` (to be kept as `keep`), saying
    every `heartbeat` seconds that it still runs; its output goes to dest/build.log, quoted if
    it fails."""
    dest.mkdir(parents=True)
    log = dest / "build.log"
    env = {**os.environ, "CMAKE_ARGS": " ".join(flags), "CMAKE_BUILD_PARALLEL_LEVEL": str(os.cpu_count() or 1)}
    command = [sys.executable, "-m", "pip", "wheel", "--no-cache-dir", "--no-deps",
               "--no-binary", "llama-cpp-python", "-w", str(dest), requirement]
    say(f"compiling {requirement} for the offline judge (portable AVX2 kernels; {COMPILE_TIME}). "
         f"Once per machine: the wheel is kept in {keep}")
    started = time.monotonic()
    with log.open("w") as out:
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, env=env)
        while True:
            try:
                code = process.wait(timeout=heartbeat)
                break
            except subprocess.TimeoutExpired:
                say(f"  still compiling: {_elapsed(time.monotonic() - started)} so far")
    if code != 0:
        tail = log.read_text(errors="replace").strip()[-2000:]
        raise RuntimeInstallError(
            f"compiling {requirement} failed (pip exited with code {code}):\n{tail}\n"
            "Fix: install a C/C++ compiler and CMake (e.g. apt-get install build-essential cmake), "
            f"then run {INSTALL_COMMANDS} again")
    say(f"compiled in {_elapsed(time.monotonic() - started)}")


def install_wheel(wheel: Path, python: Path | None = None) -> None:
    """Install the kept `wheel` into the venv of `python` (this interpreter by default),
    replacing any other build of the same version, then its dependencies."""
    interpreter = str(python or sys.executable)
    for extra in (["--force-reinstall", "--no-deps"], []):
        done = subprocess.run([interpreter, "-m", "pip", "install", "--quiet", "--no-cache-dir", *extra, str(wheel)],
                              capture_output=True, text=True)
        if done.returncode != 0:
            output = (done.stderr or done.stdout).strip()[-1500:]
            raise RuntimeInstallError(f"pip could not install {wheel}:\n{output}\n"
                                      f"Fix: the error above, then run {INSTALL_COMMANDS} again")
    say(f"runtime installed from {wheel.name}")


def main(argv: list[str] | None = None) -> int:
    """`python -m pytest_llmfaith.local install`: runtime (compiled or kept), weights, proof."""
    parser = argparse.ArgumentParser(
        prog="python -m pytest_llmfaith.local install",
        description="Install the offline judge into this Python: its runtime (llama-cpp-python, "
        "compiled once per machine with portable kernels and kept in $XDG_CACHE_HOME/pytest-llmfaith/"
        "wheels, else ~/.cache/pytest-llmfaith/wheels), its weights, and one test answer proving "
        "the runtime works on this CPU. Safe to run again.")
    parser.add_argument("--no-check", action="store_true",
                        help="skip the check that the runtime answers one question on this CPU")
    args = parser.parse_args(argv)
    started = time.monotonic()
    try:
        install_wheel(ensure_wheel())
    except (RuntimeInstallError, OSError) as exc:
        say(f"{INSTALL_COMMANDS}: {exc}")
        return 1
    say(f"runtime ready in {_elapsed(time.monotonic() - started)}")
    from pytest_llmfaith.local.install import weights_command as install_weights

    return install_weights(["--no-check"] if args.no_check else [])


def _elapsed(seconds: float) -> str:
    minutes, rest = divmod(int(seconds), 60)
    return f"{minutes} min {rest:02d} s" if minutes else f"{seconds:.1f} s"
