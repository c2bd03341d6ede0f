"""Launcher checks that need neither the runtime nor the weights."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from pytest_llmfaith.errors import LocalJudgeUnavailable
from pytest_llmfaith.local.launcher import ensure_server, shutdown_server
from pytest_llmfaith.local.weights import LocalModel


def test_missing_runtime_is_detected_before_spawning(model_dir: Path, monkeypatch, tmp_path) -> None:
    real_find_spec = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "llama_cpp" else real_find_spec(name, *a))
    model = LocalModel(path=tmp_path / "m.gguf", sha256="1" * 64, name="m")
    with pytest.raises(LocalJudgeUnavailable) as caught:
        ensure_server(model)
    assert f"{sys.executable} -m pytest_llmfaith local install" in str(caught.value)  # works where it is read
    assert not (model_dir / "run").exists()


def test_shutdown_without_a_server_is_a_no_op(model_dir: Path, tmp_path: Path) -> None:
    shutdown_server(LocalModel(path=tmp_path / "m.gguf", sha256="2" * 64, name="m"))
    assert not (model_dir / "run").exists()


def test_module_cli(model_dir: Path, capsys) -> None:
    from pytest_llmfaith.__main__ import main

    assert main(["local"]) == 2
    assert "usage: python -m pytest_llmfaith local install | prove | stop" in capsys.readouterr().err
    assert main(["local", "stop"]) == 0  # nothing installed, nothing running: says so, no traceback
    assert "nothing to stop" in capsys.readouterr().err
    assert main(["local", "check"]) == 2  # `check` is the labelled self-check's, one meaning only
