"""Every command behaves in a pipe (`python -m pytest_llmfaith cache show … | head`): a reader that
leaves early ends the command quietly, as it ends `cat`, with no BrokenPipeError traceback."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from pytest_llmfaith.__main__ import SIGPIPE_EXIT
from pytest_llmfaith.judge.cache import JudgeCache


def piped_into_a_reader_that_left(cwd: Path, *command: str) -> subprocess.CompletedProcess[bytes]:
    """Run `command` with its output into a pipe whose reader has already gone (`| head -0`)."""
    process = subprocess.Popen(command, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert process.stdout is not None
    process.stdout.close()
    _, stderr = process.communicate(timeout=120)
    return subprocess.CompletedProcess(command, process.returncode, b"", stderr)


@pytest.fixture
def big_cache(tmp_path: Path) -> Path:
    """A working cache whose `cache show` output is larger than a pipe holds."""
    cache = JudgeCache(tmp_path / ".llmfaith_cache", "use")
    for i in range(200):
        cache.set(f"ab{i:04d}", {"answer": {"claims": [f"claim {i} " + "x" * 500]}, "step": "claims"})
    cache.close()
    return tmp_path


@pytest.mark.parametrize("command, code", [
    (("-m", "pytest_llmfaith", "cache", "show", "ab"), SIGPIPE_EXIT),
    (("-m", "pytest_llmfaith", "cache", "stats"), SIGPIPE_EXIT),
    (("-m", "pytest_llmfaith", "local", "stop", "local:model.gguf"), SIGPIPE_EXIT),
])
def test_a_python_m_command_ends_quietly_when_its_reader_leaves(big_cache, command, code, monkeypatch) -> None:
    (big_cache / "model.gguf").write_bytes(b"GGUF" + b"\0" * 64)
    # `local stop local:<file>` records the file's checksum in user-models.json: this test's own, never the
    # user's (the session's HOME and XDG folders are temporary too: tests/user_folders.py)
    monkeypatch.setenv("LLMFAITH_MODEL_DIR", str(big_cache / "models"))
    done = piped_into_a_reader_that_left(big_cache, sys.executable, *command)
    assert b"Traceback" not in done.stderr and b"BrokenPipeError" not in done.stderr, done.stderr.decode()
    assert done.returncode == code


def test_a_reader_that_reads_everything_sees_it_all(big_cache) -> None:
    done = subprocess.run([sys.executable, "-m", "pytest_llmfaith", "cache", "show", "ab"], cwd=big_cache,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout.count("# ab") == 200
