"""The offline judge's runtime, compiled once per machine by `python -m pytest_llmfaith local install`.

One build, the best kernel variant this CPU runs; the portable one as well only where that one
fails its proof. pip's wheel cache keys a wheel without CMAKE_ARGS, so each build is kept in a
per-user folder named after version and flags, and installed into a per-user folder every venv
runs; later venvs install the kept wheel in seconds. The compile is minutes of pip silence, hence
the heartbeat lines.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import time
from collections.abc import Sequence
from pathlib import Path

from pytest_llmfaith.errors import LLMFaithError
from pytest_llmfaith.local.kernels import (
    LLAMA_VERSION,
    PORTABLE,
    PORTABLE_FLAGS,
    PREBUILT,
    VARIANTS,
    Variant,
    cache_root,
    flags_id,
    forced_variant,
    forget_proofs,
    this_cpu,
    usable_variants,
)
from pytest_llmfaith.local.weights import INSTALL_COMMANDS, say
from pytest_llmfaith.processes.files import file_lock, stat_line

HEARTBEAT_S = 30.0
INSTALLED_FROM = ".installed-from"  # in a variant's folder: the kept wheel it was installed from
COMPILE_TIME = "3 to 6 min on 2 cores, less on more"  # measured: 3:00 and 3:17 on a 2-core EPYC, 6.5 on a Xeon


class RuntimeInstallError(LLMFaithError):
    """The runtime could not be compiled or installed; the message says why and what to do."""


class CompileFailed(RuntimeInstallError):
    """The compile itself failed (not pip's install of a kept wheel)."""


def wheel_folder(version: str = LLAMA_VERSION, flags: Sequence[str] = PORTABLE_FLAGS) -> Path:
    """This user's folder for the wheel of `version` built with `flags` (never pip's cache)."""
    return cache_root() / "wheels" / f"llama-cpp-python-{version}-{flags_id(flags)}"


def cached_wheel(folder: Path) -> Path | None:
    """The wheel kept in `folder`, if a compile finished there."""
    wheels = sorted(folder.glob("*.whl"))
    return wheels[0] if wheels else None


def ensure_wheel(requirement: str = f"llama-cpp-python=={LLAMA_VERSION}",
                 flags: Sequence[str] = PORTABLE_FLAGS, folder: Path | None = None,
                 heartbeat: float = HEARTBEAT_S, kernels: str = PORTABLE.name) -> Path:
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
            compile_wheel(requirement, flags, partial, heartbeat, keep=folder, kernels=kernels)
            (partial / "build.log").unlink()
            partial.rename(folder)
        finally:
            shutil.rmtree(partial, ignore_errors=True)
    wheel = cached_wheel(folder)
    if wheel is None:
        raise RuntimeInstallError(f"pip reported success but left no wheel in {folder}. "
                                  f"Fix: run {INSTALL_COMMANDS} again")
    return wheel


def compile_wheel(requirement: str, flags: Sequence[str], dest: Path, heartbeat: float, keep: Path,
                  kernels: str = PORTABLE.name) -> None:
    """Build `requirement` from source with `flags` (the `kernels` variant's) into `dest` (to be
    kept as `keep`), saying every `heartbeat` seconds that it still runs; its output goes to
    dest/build.log, quoted if it fails."""
    dest.mkdir(parents=True)
    log = dest / "build.log"
    env = {**os.environ, "CMAKE_ARGS": " ".join(flags), "CMAKE_BUILD_PARALLEL_LEVEL": str(os.cpu_count() or 1)}
    command = [sys.executable, "-m", "pip", "wheel", "--no-cache-dir", "--no-deps",
               "--no-binary", "llama-cpp-python", "-w", str(dest), requirement]
    say(f"compiling {requirement} for the offline judge ({kernels} kernels; {COMPILE_TIME}). "
         f"Once per machine: the wheel is kept in {keep}")
    started = time.monotonic()
    with log.open("w") as out:
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, env=env)
        while True:
            try:
                code = process.wait(timeout=heartbeat)
                break
            except subprocess.TimeoutExpired:
                say(f"  still compiling: {elapsed(time.monotonic() - started)} so far")
    if code != 0:
        tail = log.read_text(errors="replace").strip()[-2000:]
        raise CompileFailed(
            f"compiling {requirement} failed (pip exited with code {code}):\n{tail}\n"
            "Fix: install a C/C++ compiler and CMake (e.g. apt-get install build-essential cmake), "
            f"then run {INSTALL_COMMANDS} again")
    say(f"compiled in {elapsed(time.monotonic() - started)}")


def install_wheel(wheel: Path, python: Path | None = None) -> None:
    """Install the kept `wheel` into the venv of `python` (this interpreter by default),
    replacing any other build of the same version, then its dependencies."""
    for extra in (["--force-reinstall", "--no-deps"], []):
        _pip_install(str(python or sys.executable), [*extra, str(wheel)], str(wheel))
    say(f"runtime installed from {wheel.name}")


def install_target(source: Path | str, folder: Path) -> None:
    """Install a kept wheel (or a requirement from the index) alone, its dependencies being the
    venv's, into `folder`, replacing what was there, and note what it came from; a failed
    install leaves the old folder."""
    partial = folder.with_name(f".{folder.name}.{os.getpid()}.partial")
    shutil.rmtree(partial, ignore_errors=True)
    try:
        _pip_install(sys.executable, ["--no-deps", "--target", str(partial), str(source)], f"{source} into {folder}")
        (partial / INSTALLED_FROM).write_text(_origin(source))
        with file_lock(folder.with_name(f".{folder.name}.lock")):
            shutil.rmtree(folder, ignore_errors=True)
            partial.rename(folder)
    finally:
        shutil.rmtree(partial, ignore_errors=True)
    say(f"{source.name if isinstance(source, Path) else source} installed into {folder}")


def _pip_install(python: str, args: Sequence[str], what: str) -> None:
    """`pip install` with `python`: a failure raises with pip's last words and the fix."""
    done = subprocess.run([python, "-m", "pip", "install", "--quiet", "--no-cache-dir", *args],
                          capture_output=True, text=True)
    if done.returncode != 0:
        output = (done.stderr or done.stdout).strip()[-1500:]
        raise RuntimeInstallError(f"pip could not install {what}:\n{output}\n"
                                  f"Fix: the error above, then run {INSTALL_COMMANDS} again")


def _origin(source: Path | str) -> str:
    return stat_line(source) if isinstance(source, Path) else source


def build_tools_missing() -> str | None:
    """Why llama.cpp cannot be compiled here, else None: a C and a C++ compiler (MSVC on
    Windows). CMake need not be there: the build takes it from PyPI when it is missing. Only a
    shortcut past a compile bound to fail: a compiler it does not find (named otherwise, CC and
    CXX unset) costs speed, never a verdict, and a failed compile falls back the same way."""
    if sys.platform == "win32":
        vswhere = Path(os.environ.get("ProgramFiles(x86)", r"C:\Program Files (x86)"),
                       "Microsoft Visual Studio", "Installer", "vswhere.exe")
        return None if shutil.which("cl") or vswhere.is_file() else "no MSVC (Visual Studio's C++ build tools)"
    compilers = (("C", "CC", ("cc", "gcc", "clang")), ("C++", "CXX", ("c++", "g++", "clang++")))
    lacking = [kind for kind, env, names in compilers
               if not any(shutil.which(name) for name in (os.environ.get(env, ""), _built_with(env), *names) if name)]
    return f"no {' or '.join(lacking)} compiler on PATH" if lacking else None


def _built_with(env: str) -> str:
    """The compiler this Python was built with, as sysconfig names it ("gcc -pthread": "gcc")."""
    return (str(sysconfig.get_config_var(env) or "").split() or [""])[0]


def variant_to_build() -> Variant:
    """The one variant `install` sets up: the one LLMFAITH_LOCAL_VARIANT forces, else the best
    this CPU runs (with one line why, when that is the portable one), else, where it cannot be
    compiled and was not before, the prebuilt one."""
    forced = forced_variant()
    if forced is not None:
        return forced
    cpu = this_cpu()
    best = usable_variants(cpu.flags)[0]
    missing = None if cached_wheel(wheel_folder(flags=best.flags)) else build_tools_missing()
    if missing is not None:
        say(f"{missing}, so the offline judge takes xllamacpp's prebuilt runtime from PyPI, no compile "
            f"(slower: it reads every prompt whole). Fix, for the compiled one: install a C/C++ compiler "
            f"(e.g. apt-get install build-essential), or name yours in CC and CXX, then run {INSTALL_COMMANDS} again")
        return PREBUILT
    if best.portable:
        lacks = "; ".join(f"{v.name} needs {', '.join(v.missing(cpu.flags))}"
                          for v in VARIANTS if not v.portable)
        say(f"no faster kernels for this CPU ({cpu.model}), so the portable ones: {lacks or 'none known'}")
    return best


def install_runtime(variant: Variant) -> None:
    """`variant`'s build (compiled once per machine, or the prebuilt one from the index) in its
    folder, where every venv's judge runs it; a folder that already holds that build is kept, and
    so is its proof. The venv gets a compiled wheel too, for llama-cpp-python's dependencies and types."""
    source: Path | str = variant.requirement if variant.prebuilt else ensure_wheel(
        flags=variant.flags, kernels=f"{variant.name} ({variant.kernels})")
    folder = variant.folder()
    if variant.installed() and (folder / INSTALLED_FROM).is_file() and \
            (folder / INSTALLED_FROM).read_text() == _origin(source):
        say(f"the {variant.name} runtime is installed in {folder}")
    else:
        install_target(source, folder)
        forget_proofs(variant)
    if isinstance(source, Path):
        install_wheel(source)


def elapsed(seconds: float) -> str:
    """A duration as the install's lines say it: "3 min 05 s", "4.2 s"."""
    minutes, rest = divmod(int(seconds), 60)
    return f"{minutes} min {rest:02d} s" if minutes else f"{seconds:.1f} s"
