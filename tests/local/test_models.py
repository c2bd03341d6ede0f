"""Resolving `local` / `local:PATH` to a file and its hash, without loading anything."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

from pytest_llmfaith.errors import ConfigError, LocalJudgeUnavailable
from pytest_llmfaith.local import weights
from pytest_llmfaith.local.weights import DEFAULT_MODEL_FILE, resolve_local_model, write_record


def test_missing_default_weights_name_the_fix(model_dir: Path) -> None:
    with pytest.raises(LocalJudgeUnavailable) as caught:
        resolve_local_model("local")
    message = str(caught.value)
    # a command that works from where the user stands: this interpreter, this package
    assert f"{sys.executable} -m pytest_llmfaith local install" in message
    assert "pytest-llmfaith[local]" not in message  # an unpublished package
    assert str(model_dir) in message


def test_default_model_trusts_a_matching_sidecar(model_dir: Path, monkeypatch) -> None:
    path = model_dir / DEFAULT_MODEL_FILE
    model_dir.mkdir()
    path.write_bytes(b"GGUF fake")
    sha = hashlib.sha256(path.read_bytes()).hexdigest()
    monkeypatch.setattr(weights, "DEFAULT_MODEL_SHA256", sha)
    with pytest.raises(LocalJudgeUnavailable, match="unverified or were changed"):
        resolve_local_model("local")  # no sidecar yet
    write_record(path, sha)
    monkeypatch.setattr(weights, "sha256_file", lambda p: pytest.fail("hashed the default model"))
    model = resolve_local_model(" local ")
    assert (model.path, model.sha256) == (path, sha)
    path.write_bytes(b"GGUF fake, but longer")
    with pytest.raises(LocalJudgeUnavailable, match="-m pytest_llmfaith local install"):
        resolve_local_model("local")


def test_user_gguf_is_hashed_once_and_again_when_changed(
    model_dir: Path, tmp_path: Path, monkeypatch
) -> None:
    user_file = tmp_path / "mine" / "tiny-judge.gguf"
    user_file.parent.mkdir()
    user_file.write_bytes(b"GGUF one")
    hashed: list[Path] = []
    real_hash = weights.sha256_file
    monkeypatch.setattr(weights, "sha256_file", lambda p: hashed.append(p) or real_hash(p))

    first = resolve_local_model(f"local:{user_file}")
    assert first.sha256 == hashlib.sha256(b"GGUF one").hexdigest()
    assert first.name == "tiny-judge"
    assert resolve_local_model(f"local:{user_file}") == first
    assert len(hashed) == 1
    assert os.listdir(user_file.parent) == ["tiny-judge.gguf"]  # nothing written beside it
    assert (model_dir / "user-models.json").is_file()

    user_file.write_bytes(b"GGUF two!")
    assert resolve_local_model(f"local:{user_file}").sha256 == hashlib.sha256(b"GGUF two!").hexdigest()
    assert len(hashed) == 2


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("openai/gpt-4o", "not a local judge model"),
        ("local:", "not a local judge model"),
        ("local:/no/such/file.gguf", "not found"),
    ],
)
def test_bad_specs(model_dir: Path, spec: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        resolve_local_model(spec)


def test_non_gguf_file_is_rejected(model_dir: Path, tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("hello")
    with pytest.raises(ConfigError, match="not a GGUF"):
        resolve_local_model(f"local:{tmp_path / 'notes.txt'}")


def test_import_is_light() -> None:
    """Importing the package must not import llama_cpp or litellm (a cached run never needs them)."""
    code = (
        "import sys, pytest_llmfaith.local\n"
        "print(sorted(m for m in ('llama_cpp', 'litellm') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
