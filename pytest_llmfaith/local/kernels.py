"""The offline judge's CPU kernel variants: which builds exist (each installed into a folder of its
own), which this CPU can run, which runs here, and the cache key that names it.

AMX is off in every variant (its tile code crashed an Intel Xeon at the first decode). Two wheels
chosen by CPU flags rather than GGML_BACKEND_DL, whose variants include AMX ones picked by score.

A non-portable variant is used only after one tiny generation in a child process proved it on
this CPU (a build for missing instructions dies of SIGILL); crashes and hangs are
stamped per machine and CPU, an error exit is not (it may be the model file's fault). Kernels
change numerics, so the key names a non-portable variant; portable keys are the ones recordings had.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from pytest_llmfaith.errors import ConfigError
from pytest_llmfaith.local.check import ProbeFailed, probe
from pytest_llmfaith.local.weights import (
    DEFAULT_MODEL_SHA256,
    INSTALL_COMMANDS,
    default_model_path,
    resolve_local_model,
)
from pytest_llmfaith.processes.capabilities import cpu_model_and_flags
from pytest_llmfaith.processes.files import file_lock, write_json_atomic

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


# Which variant runs here: proved once per machine and CPU, then chosen.

PREBUILT_NOTE = ("no compiled runtime here: xllamacpp's prebuilt one reads every prompt whole, so it is slower; "
                 "with a C/C++ compiler, `install` compiles a faster one")
PROOF_TIMEOUT = 180.0  # a model load and a few tokens take seconds; a hang is a failure too
_UNSTAMPED: dict[Path, Proof] = {}  # failures not stamped, by stamp path: kept for this process's life


@dataclass(frozen=True)
class Proof:
    """One variant's proof on one machine: passed, or how its child process failed."""

    ok: bool
    how: str = ""


@dataclass(frozen=True)
class Choice:
    """The variant to run, and `note`: why a better one is not (None when nothing to say)."""

    variant: Variant
    note: str | None = None

    def label(self) -> str:
        """How the "loading the offline judge" line names the kernels: 'avx512 kernels', or
        'portable kernels: <why not better>'."""
        name = "xllamacpp's prebuilt kernels" if self.variant.prebuilt else f"{self.variant.name} kernels"
        return name + (f": {self.note}" if self.note else "")


def choose(proof_model: Path | None) -> Choice:
    """The variant this machine runs: the best installed one, portable last, the prebuilt one
    where nothing is compiled (the launcher says how to install one when none is). A compiled
    candidate without a stamp is proven now with `proof_model` (one model load in a child
    process, once per machine); None proves nothing (a replay) and takes an unproven candidate
    as the one a scoring run would use."""
    forced, cpu = forced_variant(), this_cpu()
    candidates = [forced] if forced is not None else [*usable_variants(cpu.flags), PREBUILT]
    notes: list[str] = []
    for variant in candidates:
        if not variant.installed():
            if forced is not None or not (variant.portable or variant.prebuilt):
                notes.append(_not_installed(variant, forced is not None))
            continue
        if variant.prebuilt:
            return Choice(variant, PREBUILT_NOTE if forced is None else None)
        proof = None if variant.portable else read_proof(variant, cpu)
        if proof is None and proof_model is not None and not variant.portable:
            proof = prove(variant, proof_model, cpu)
        if proof is None or proof.ok:
            return Choice(variant, "; ".join(notes) or None)
        notes.append(_failed(variant, proof))
    last = forced if forced is not None and (forced.portable or forced.prebuilt) else PORTABLE
    return Choice(last, "; ".join(notes) or None)


def identity(model: str, *, prove: bool = True) -> str:
    """The offline judge's model as it enters cache keys: `local:<weights sha256>`, with
    `+<variant>` when a variant other than the portable one runs. `prove=False` for a replay:
    it never runs the model, not even for a proof. `model` is `local` or `local:PATH`."""
    if model.strip() == "local":  # known without the weights: replay needs no model
        sha256, path = DEFAULT_MODEL_SHA256, default_model_path()
    else:
        resolved = resolve_local_model(model)
        sha256, path = resolved.sha256, resolved.path
    variant = choose(path if prove and path.is_file() else None).variant
    return f"local:{sha256}" + ("" if variant.portable else f"+{variant.name}")


def replay_hint(key_model: str) -> str:
    """For a replay miss: what the variant in a key means, and how to replay another's answers."""
    _, plus, name = key_model.partition("+")
    if not plus:
        return ""
    return (f" The offline judge runs its {name} kernels here, and their answers are kept apart from "
            f"the portable kernels' (other numerics): to replay answers recorded with the portable "
            f"kernels, set {VARIANT_ENV}=portable.")


def prove(variant: Variant, model: Path, cpu: Cpu | None = None) -> Proof:
    """Run the tiny generation with `variant` first on the path and stamp the result; processes
    proving at once queue on a lock, and the later ones read the first one's stamp."""
    cpu = cpu or this_cpu()
    stamp = stamp_path(variant, cpu)
    with file_lock(stamp.with_suffix(".lock")):
        known = read_proof(variant, cpu)
        if known is not None:
            return known
        try:
            report = probe(model, PROOF_TIMEOUT, first_on_path=variant.folder(), module=variant.module)
        except ProbeFailed as exc:
            proof = Proof(ok=False, how=f"its tiny generation {exc.how}")
            if exc.exit_code is not None:  # an error, maybe the model's (a bad file): not stamped
                _UNSTAMPED[stamp] = proof
                return proof
        else:
            loaded = Path(str(report["runtime"])).resolve()
            ok = loaded.is_relative_to(variant.folder().resolve())
            proof = Proof(ok=ok, how="" if ok else f"its child process loaded another {variant.module} ({loaded})")
        write_json_atomic(stamp, json.dumps({"ok": proof.ok, "how": proof.how, "cpu": cpu.model,
                                             "folder": str(variant.folder()), "when": time.time()}))
        return proof


def stamp_path(variant: Variant, cpu: Cpu) -> Path:
    """The file keeping `variant`'s proof on a machine with `cpu`."""
    return cache_root() / "variants" / "proofs" / f"{variant.folder().name}-{cpu.key()}.json"


def read_proof(variant: Variant, cpu: Cpu) -> Proof | None:
    """The proof of `variant` on this machine: stamped, or failed unstamped in this process (so
    every choice of this process agrees); None if it was never proven here."""
    stamp = stamp_path(variant, cpu)
    try:
        data = json.loads(stamp.read_text())
        return Proof(ok=bool(data["ok"]), how=str(data["how"]))
    except (OSError, ValueError, KeyError, TypeError):
        return _UNSTAMPED.get(stamp)


def forget_proofs(variant: Variant) -> None:
    """Drop every machine's stamp of `variant` (its folder was installed again)."""
    _UNSTAMPED.clear()
    for stamp in (cache_root() / "variants" / "proofs").glob(f"{variant.folder().name}-*.json"):
        stamp.unlink(missing_ok=True)


def install_command(variant: Variant) -> str:
    """The command that installs `variant`: the plain install builds the best kernels this CPU
    runs (and the portable ones where those fail), so only a forced choice needs saying."""
    forced = forced_variant()
    return f"{VARIANT_ENV}={variant.name} {INSTALL_COMMANDS}" if forced is variant else INSTALL_COMMANDS


def _not_installed(variant: Variant, forced: bool) -> str:
    if forced:
        return (f"{VARIANT_ENV}={variant.name}, but the {variant.name} kernels are not installed "
                f"({variant.folder()}). Fix: {install_command(variant)}")
    return f"the faster {variant.name} kernels are not installed. Fix: {INSTALL_COMMANDS} (compiles them once)"


def _failed(variant: Variant, proof: Proof) -> str:
    return (f"the {variant.name} kernels failed their proof on this CPU ({proof.how}); "
            f"{VARIANT_ENV}=portable skips them, `{INSTALL_COMMANDS}` proves them again")
