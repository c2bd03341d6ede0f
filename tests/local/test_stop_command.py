"""`python -m pytest_llmfaith local stop` says what it stopped, or that nothing was running (it
printed nothing either way): with the fake server process, no llama.cpp or weights needed."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from pytest_llmfaith.local.launcher import ensure_server, run_files
from pytest_llmfaith.local.local_command import main as _run
from pytest_llmfaith.local.weights import LocalModel
from pytest_llmfaith.processes.children import child_alive


def test_stop_names_the_server_it_stopped_then_that_none_runs(
    fake_runtime: Callable[[str], None], fake_model: LocalModel, capsys: pytest.CaptureFixture[str]
) -> None:
    ensure_server(fake_model)
    state = run_files(fake_model).read()
    assert state is not None and child_alive(state.pid)

    assert _run(["stop", f"local:{fake_model.path}"]) == 0
    assert capsys.readouterr().out == (f"stopped the offline judge server of {fake_model.name} "
                                       f"(pid {state.pid}, http://127.0.0.1:{state.port}/v1)\n")
    assert not child_alive(state.pid)

    assert _run(["stop", f"local:{fake_model.path}"]) == 0
    assert capsys.readouterr().out == f"nothing to stop: no offline judge server of {fake_model.name} is running\n"


def test_stop_of_a_model_that_does_not_exist_says_why(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    assert _run(["stop", f"local:{tmp_path / 'missing.gguf'}"]) == 0
    err = capsys.readouterr().err
    assert err.startswith("nothing to stop: ") and "missing.gguf" in err
