"""Turn a judge model string (`local`, `local:/path/to/file.gguf`) into a verified file + hash.

The hash enters every cache key, but hashing 1 GB per run costs seconds: the default model's
sidecar is trusted while size and mtime match; a user's GGUF is hashed once and remembered in our
own folder (we never write next to a file we do not own).
"""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel, ValidationError

from pytest_llmfaith.errors import ConfigError, LocalJudgeUnavailable
from pytest_llmfaith.local.weights import (
    DEFAULT_MODEL_NAME,
    DEFAULT_MODEL_SHA256,
    INSTALL_COMMANDS,
    FileRecord,
    default_model_path,
    model_dir,
    read_record,
    record_for,
    record_matches,
    sha256_file,
)
from pytest_llmfaith.processes.files import file_lock, write_json_atomic

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
