"""Launcher checks that need neither the runtime nor the weights."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from pytest_llmfaith.errors import LocalJudgeUnavailable
from pytest_llmfaith.local.launcher import ensure_server, shutdown_server
from pytest_llmfaith.local.weights import LocalModel


def test_missing_runtime_is_detected_before_spawning(model_dir: Path, monkeypatch, tmp_path) -> None:
    """A machine whose cache holds no build of the chosen kernels (here: an empty cache folder, so
    a build this user installed earlier does not count)."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "empty-cache"))
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


# -- how long the server stays up: the run's --llm-idle-timeout, handed down from the settings ------

def _started_with(monkeypatch, tmp_path: Path, **kwargs: object) -> str:
    """The --idle-timeout the launcher would start the server with (nothing is started)."""
    from types import SimpleNamespace

    from pytest_llmfaith.local import launcher
    from pytest_llmfaith.local.kernels import PORTABLE, Choice

    started: list[list[str]] = []

    class Started:
        def __init__(self, *args: object) -> None:
            pass

        def find_or_start(self, owner: int, arguments, starting=None) -> str:
            started.append(arguments())
            return "state"

    monkeypatch.setattr(launcher, "run_files", lambda model, variant=None: SimpleNamespace(state=tmp_path / "s.json"))
    monkeypatch.setattr(launcher, "runtime_identity", lambda variant=None: "runtime")
    monkeypatch.setattr(launcher, "Service", Started)
    model = LocalModel(path=tmp_path / "m.gguf", sha256="3" * 64, name="m")
    launcher.ensure_server_state(model, choice=Choice(PORTABLE), **kwargs)  # type: ignore[arg-type]
    (arguments,) = started
    return arguments[arguments.index("--idle-timeout") + 1]


def test_the_server_is_started_with_the_idle_timeout_it_is_handed(monkeypatch, tmp_path: Path) -> None:
    monkeypatch.setenv("LLMFAITH_IDLE_TIMEOUT", "9")  # the run's settings, not the environment, decide
    assert float(_started_with(monkeypatch, tmp_path, idle_timeout=7.0)) == 7.0


def test_outside_a_run_the_server_takes_the_environments_idle_timeout_old_name_included(
        monkeypatch, tmp_path: Path) -> None:
    monkeypatch.delenv("LLMFAITH_IDLE_TIMEOUT")
    monkeypatch.delenv("LLMFAITH_RELAY_IDLE_TIMEOUT", raising=False)
    assert float(_started_with(monkeypatch, tmp_path)) == 120.0  # the option's default
    monkeypatch.setenv("LLMFAITH_LOCAL_IDLE_TIMEOUT", "5")  # deprecated, still read
    assert float(_started_with(monkeypatch, tmp_path)) == 5.0
    monkeypatch.setenv("LLMFAITH_IDLE_TIMEOUT", "30")  # the new name wins
    assert float(_started_with(monkeypatch, tmp_path)) == 30.0


def test_a_runs_idle_timeout_reaches_the_offline_judges_launcher(monkeypatch, tmp_path: Path) -> None:
    """Threaded from the settings through the wiring's OfflineBackend and its transport."""
    from pytest_llmfaith.judge.backend import JudgeConfig
    from pytest_llmfaith.local import local_transport
    from pytest_llmfaith.local.kernels import PORTABLE, Choice
    from pytest_llmfaith.local.local_transport import OfflineBackend
    from pytest_llmfaith.settings import Settings
    from pytest_llmfaith.wiring import JudgeRun

    handed: list[float | None] = []
    model = LocalModel(path=tmp_path / "m.gguf", sha256="4" * 64, name="m")
    monkeypatch.setattr(local_transport, "resolve_local_model", lambda name: model)
    monkeypatch.setattr(local_transport, "choose", lambda path: Choice(PORTABLE))
    monkeypatch.setattr(local_transport, "ensure_server_state",
                        lambda model, starting, choice, idle_timeout: handed.append(idle_timeout))
    backend = JudgeRun(Settings(idle_timeout=7.0))._backend(JudgeConfig(model="local"))
    assert isinstance(backend, OfflineBackend)
    backend.transport(None)._find()
    assert handed == [7.0]
