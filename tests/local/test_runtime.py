"""The runtime is compiled once per machine, kept per user, and installed into any venv.

No llama.cpp here: pip really builds a tiny source project whose in-tree build backend takes
a few seconds (as a compile would) and writes a one-module wheel, then really installs it.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pytest_llmfaith.local import local_command, runtime
from pytest_llmfaith.local.runtime import RuntimeInstallError, ensure_wheel, install_target, install_wheel, wheel_folder
from pytest_llmfaith.processes.files import stat_line

BACKEND = '''
import base64, hashlib, os, pathlib, time, zipfile

def _wheel(directory):
    if os.environ.get("CMAKE_ARGS") != "-DFAKE=ON":
        raise SystemExit("CMAKE_ARGS did not reach the build: " + os.environ.get("CMAKE_ARGS", ""))
    time.sleep(float(os.environ.get("FAKE_BUILD_S", "0")))
    if os.environ.get("FAKE_BUILD_FAILS"):
        raise SystemExit("fake compiler error: missing cmake")
    name = "slowpkg-1.0-py3-none-any.whl"
    files = {"slowpkg.py": "ANSWER = 42\\n",
             "slowpkg-1.0.dist-info/METADATA": "Metadata-Version: 2.1\\nName: slowpkg\\nVersion: 1.0\\n",
             "slowpkg-1.0.dist-info/WHEEL":
                 "Wheel-Version: 1.0\\nGenerator: fake\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n"}
    record = []
    for path, text in files.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(text.encode()).digest()).rstrip(b"=").decode()
        record.append(f"{path},sha256={digest},{len(text.encode())}")
    files["slowpkg-1.0.dist-info/RECORD"] = "\\n".join(record + ["slowpkg-1.0.dist-info/RECORD,,"]) + "\\n"
    with zipfile.ZipFile(pathlib.Path(directory) / name, "w") as archive:
        for path, text in files.items():
            archive.writestr(path, text)
    return name

def get_requires_for_build_wheel(config_settings=None):
    return []

def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    return _wheel(wheel_directory)
'''
PYPROJECT = '''[build-system]
requires = []
build-backend = "backend"
backend-path = ["."]

[project]
name = "slowpkg"
version = "1.0"
'''
FLAGS = ("-DFAKE=ON",)


@pytest.fixture
def slow_project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """A source project whose build takes 2.5 s; the user cache is a private folder."""
    project = tmp_path / "slowpkg"
    project.mkdir()
    (project / "backend.py").write_text(BACKEND)
    (project / "pyproject.toml").write_text(PYPROJECT)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("FAKE_BUILD_S", "2.5")
    return str(project)


def test_the_wheel_folder_is_per_user_and_named_after_version_and_flags(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    folder = wheel_folder("0.3.36", FLAGS)
    assert folder.parent == tmp_path / "pytest-llmfaith" / "wheels"
    assert folder.name.startswith("llama-cpp-python-0.3.36-")
    assert wheel_folder("0.3.36", ("-DFAKE=OFF",)) != folder != wheel_folder("0.3.37", FLAGS)
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert wheel_folder().parent == Path.home() / ".cache" / "pytest-llmfaith" / "wheels"


def test_one_compile_says_so_and_how_long_then_every_later_install_reuses_it(
        slow_project: str, capfd: pytest.CaptureFixture[str]) -> None:
    wheel = ensure_wheel(slow_project, FLAGS, heartbeat=0.5)
    said = capfd.readouterr().err
    assert f"compiling {slow_project}" in said.splitlines()[0]
    assert "min on 2 cores" in said and str(wheel_folder(flags=FLAGS)) in said
    assert said.count("still compiling:") >= 3, said  # a heartbeat with the time elapsed
    assert "compiled in" in said
    assert wheel.parent == wheel_folder(flags=FLAGS) and wheel.name == "slowpkg-1.0-py3-none-any.whl"
    assert sorted(p.name for p in wheel.parent.iterdir()) == [wheel.name]  # no log, no partial left
    started = time.monotonic()
    assert ensure_wheel(slow_project, FLAGS, heartbeat=0.5) == wheel
    assert time.monotonic() - started < 1.0
    said = capfd.readouterr().err
    assert "compiling" not in said and f"using the compiled runtime kept in {wheel.parent}" in said


def test_a_failed_compile_quotes_the_build_and_keeps_nothing(slow_project: str, monkeypatch) -> None:
    monkeypatch.setenv("FAKE_BUILD_FAILS", "1")
    monkeypatch.setenv("FAKE_BUILD_S", "0")
    with pytest.raises(RuntimeInstallError, match="fake compiler error: missing cmake") as caught:
        ensure_wheel(slow_project, FLAGS, heartbeat=5)
    assert "Fix: install a C/C++ compiler and CMake" in str(caught.value)
    assert "-m pytest_llmfaith local install" in str(caught.value)
    assert not wheel_folder(flags=FLAGS).exists()
    assert [p.name for p in wheel_folder(flags=FLAGS).parent.iterdir()] == [f".{wheel_folder(flags=FLAGS).name}.lock"]


def test_another_venv_installs_the_kept_wheel_in_seconds(slow_project: str, tmp_path: Path) -> None:
    wheel = ensure_wheel(slow_project, FLAGS, heartbeat=5)
    subprocess.run([sys.executable, "-m", "venv", str(tmp_path / "user-venv")], check=True, timeout=120)
    python = tmp_path / "user-venv" / "bin" / "python"
    started = time.monotonic()
    install_wheel(wheel, python)
    assert time.monotonic() - started < 30
    done = subprocess.run([python, "-c", "import slowpkg; print(slowpkg.ANSWER)"], capture_output=True, text=True)
    assert done.stdout.strip() == "42", done.stderr


def test_the_install_command_reports_a_broken_compile_and_fails(slow_project: str, monkeypatch, capfd) -> None:
    monkeypatch.setenv("FAKE_BUILD_FAILS", "1")
    monkeypatch.setenv("FAKE_BUILD_S", "0")
    monkeypatch.setattr(runtime, "ensure_wheel", lambda **_: ensure_wheel(slow_project, FLAGS, heartbeat=5))
    monkeypatch.setenv("LLMFAITH_LOCAL_VARIANT", "portable")  # forced: no fallback to the prebuilt runtime
    assert local_command.install([]) == 1
    assert "fake compiler error" in capfd.readouterr().err
    fetched: list[str] = []
    monkeypatch.delenv("LLMFAITH_LOCAL_VARIANT")  # auto: the compile's error, then the prebuilt runtime
    monkeypatch.setattr(runtime, "install_target", lambda source, folder: fetched.append(str(source)))
    monkeypatch.setattr("pytest_llmfaith.local.local_command.install_weights", lambda proven: 0)
    assert local_command.install(["--no-check"]) == 0
    said = capfd.readouterr().err
    assert "fake compiler error" in said and "So, for now, xllamacpp's prebuilt runtime from PyPI" in said
    assert fetched == ["xllamacpp==2026.10.11549"]


def test_a_variant_is_installed_alone_into_its_folder_and_replaced_whole(slow_project: str, tmp_path: Path) -> None:
    wheel = ensure_wheel(slow_project, FLAGS, heartbeat=5)
    folder = tmp_path / "variants" / "slowpkg-variant"
    folder.mkdir(parents=True)
    (folder / "stale.py").write_text("")  # from an older install: gone after the new one
    install_target(wheel, folder)
    assert {p.name for p in folder.iterdir()} - {"__pycache__"} == {"slowpkg-1.0.dist-info", "slowpkg.py",
                                                                    runtime.INSTALLED_FROM}
    assert (folder / runtime.INSTALLED_FROM).read_text() == stat_line(wheel)  # a later install keeps it
    done = subprocess.run([sys.executable, "-c", "import slowpkg; print(slowpkg.__file__)"], capture_output=True,
                          text=True, env={**os.environ, "PYTHONPATH": str(folder)})
    assert done.stdout.strip() == str(folder / "slowpkg.py"), done.stderr
    assert [p.name for p in folder.parent.iterdir() if p.name.endswith(".partial")] == []
