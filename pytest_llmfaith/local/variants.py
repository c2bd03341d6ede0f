"""The offline judge's CPU kernel variants: which builds exist, and which this CPU can run.

Each build is installed into a folder of its own, and `local install` compiles only the best one
this CPU runs (the portable one too only where that one fails its proof): one compile per machine.

AMX is off in every variant (its tile code crashed an Intel Xeon at the first decode). Two wheels
chosen by CPU flags rather than GGML_BACKEND_DL, whose variants include AMX ones picked by score.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from pytest_llmfaith.errors import ConfigError
from pytest_llmfaith.processes.capabilities import cpu_model_and_flags

LLAMA_VERSION = "0.3.36"
XLLAMACPP_VERSION = "2026.10.11549"
PREBUILT_MODULE = "xllamacpp"
VARIANT_ENV = "LLMFAITH_LOCAL_VARIANT"
AUTO = "auto"
_NO_AMX = ("-DGGML_AMX_TILE=OFF", "-DGGML_AMX_INT8=OFF", "-DGGML_AMX_BF16=OFF")
_NO_EXTRAS = ("-DLLAMA_BUILD_TESTS=OFF", "-DLLAMA_BUILD_EXAMPLES=OFF", "-DLLAMA_BUILD_TOOLS=OFF")
_AVX2 = ("-DGGML_NATIVE=OFF", "-DGGML_AVX=ON", "-DGGML_AVX2=ON", "-DGGML_FMA=ON", "-DGGML_F16C=ON")
PORTABLE_FLAGS = (*_AVX2, "-DGGML_AVX512=OFF", *_NO_AMX, *_NO_EXTRAS)
# GGML_AVX512 compiles with -mavx512f -mavx512cd -mavx512vl -mavx512dq -mavx512bw (ggml-cpu's CMakeLists).
AVX512_FLAGS = (*_AVX2, "-DGGML_AVX512=ON", "-DGGML_AVX512_VNNI=ON", "-DGGML_AVX512_BF16=ON",
                "-DGGML_AVX512_VBMI=OFF", "-DGGML_AVX_VNNI=OFF", *_NO_AMX, *_NO_EXTRAS)


def flags_id(flags: Sequence[str] = PORTABLE_FLAGS) -> str:
    """A short hash of the compile flags, so builds with other flags never mix."""
    return hashlib.sha256(" ".join(flags).encode()).hexdigest()[:12]


def cache_root() -> Path:
    """This user's pytest-llmfaith cache folder ($XDG_CACHE_HOME, else ~/.cache)."""
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "pytest-llmfaith"


@dataclass(frozen=True)
class Variant:
    """One build of the offline judge's runtime: llama-cpp-python compiled with CMake `flags`, or
    (`module` xllamacpp) the prebuilt one from PyPI; and the CPU flags (as /proc/cpuinfo names
    them) its kernels execute."""

    name: str
    kernels: str
    flags: tuple[str, ...]
    cpu_flags: frozenset[str]
    module: str = "llama_cpp"  # what the server imports: the engine it runs (server.py --engine)

    @property
    def portable(self) -> bool:
        return self.name == PORTABLE.name

    @property
    def prebuilt(self) -> bool:
        return self.module == PREBUILT_MODULE

    @property
    def requirement(self) -> str:
        return f"xllamacpp=={XLLAMACPP_VERSION}" if self.prebuilt else f"llama-cpp-python=={LLAMA_VERSION}"

    def folder(self) -> Path:
        """Where this variant is installed for this user (`pip install --target`), the one copy
        every venv's judge runs: a venv's own llama-cpp-python only serves types and dependencies."""
        name = self.requirement.replace("==", "-") + (f"-{flags_id(self.flags)}" if self.flags else "")
        return cache_root() / "variants" / name

    def installed(self) -> bool:
        return (self.folder() / self.module / "__init__.py").is_file()

    def missing(self, cpu_flags: Iterable[str]) -> list[str]:
        """The CPU flags this variant needs that `cpu_flags` lacks."""
        return sorted(self.cpu_flags - set(cpu_flags))


PORTABLE = Variant("portable", "AVX2/FMA/F16C, no AVX-512, no AMX", PORTABLE_FLAGS,
                   frozenset({"avx", "avx2", "fma", "f16c", "bmi2", "sse4_2"}))
AVX512 = Variant("avx512", "AVX-512 F/CD/BW/DQ/VL + VNNI + BF16, no AMX", AVX512_FLAGS,
                 PORTABLE.cpu_flags | {"avx512f", "avx512cd", "avx512bw", "avx512dq", "avx512vl",
                                       "avx512_vnni", "avx512_bf16"})
VARIANTS = (AVX512, PORTABLE)
"""The compiled ones, best first; portable last: what every other variant falls back to."""
PREBUILT = Variant("xllamacpp", "prebuilt by xllamacpp (AVX2)", (), PORTABLE.cpu_flags, module=PREBUILT_MODULE)
"""Where no compiler is: llama.cpp's own server in a PyPI wheel, slower (it reads every prompt
whole, local/prebuilt_engine.py), so only the runtime of last resort."""


def usable_variants(cpu_flags: Iterable[str]) -> list[Variant]:
    """The variants whose kernels a CPU with `cpu_flags` executes, best first; portable always
    last (the fallback, even where the flags cannot be read, e.g. on macOS)."""
    have = set(cpu_flags)
    return [v for v in VARIANTS if not v.portable and not v.missing(have)] + [PORTABLE]


@dataclass(frozen=True)
class Cpu:
    """This machine's CPU as the proof's stamp names it: model name and feature flags."""

    model: str
    flags: frozenset[str]

    def key(self) -> str:
        return hashlib.sha256(f"{self.model}\0{' '.join(sorted(self.flags))}".encode()).hexdigest()[:16]


def this_cpu(cpuinfo: Path | None = None) -> Cpu:
    """This CPU (capabilities.cpu_model_and_flags); unknown and flagless where the OS does not
    say (macOS, Windows), so only the portable variant is chosen there unless one is forced."""
    model, flags = cpu_model_and_flags(cpuinfo) if cpuinfo is not None else cpu_model_and_flags()
    return Cpu(model, flags)


def forced_variant() -> Variant | None:
    """The variant LLMFAITH_LOCAL_VARIANT forces (None: `auto`, the default, chooses)."""
    raw = os.environ.get(VARIANT_ENV, AUTO).strip().lower() or AUTO
    if raw == AUTO:
        return None
    for variant in (*VARIANTS, PREBUILT):
        if variant.name == raw:
            return variant
    names = ", ".join([AUTO, *(v.name for v in (*VARIANTS, PREBUILT))])
    raise ConfigError(f"{VARIANT_ENV}={raw!r} is not a kernel variant of the offline judge. Fix: set it to one "
                      f"of {names}, or unset it")
