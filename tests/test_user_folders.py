"""No test reads or writes the user's real home or cache (tests/user_folders.py, applied by
tests/conftest.py for the whole session): HOME and the XDG folders are a temporary folder's, what
pytest-llmfaith keeps in the real ones stays as it was, and a test that changed it would fail."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from user_folders import OWN, REAL, Folders, fingerprint, guard_real_folders

from pytest_llmfaith.local.kernels import cache_root
from pytest_llmfaith.local.weights import model_dir


def test_home_and_the_xdg_folders_are_the_sessions_own_not_the_users() -> None:
    moved = Folders.of(os.environ)
    session = Path(os.environ["LLMFAITH_TESTS_SESSION_HOME"])
    for folder, real in zip((moved.home, moved.cache, moved.config, moved.data),
                            (REAL.home, REAL.cache, REAL.config, REAL.data)):
        assert folder.is_relative_to(session) and folder != real and folder.is_dir()
    assert Path.home() == moved.home and Path("~").expanduser() == moved.home
    assert cache_root() == moved.cache / OWN and model_dir() == moved.cache / OWN / "models"
    assert not REAL.home.is_relative_to(session)


def test_a_command_that_writes_the_user_model_store_leaves_the_real_one_untouched(tmp_path) -> None:
    """`local stop local:<file>` records the file's checksum in user-models.json (what
    tests/cli/test_pipes.py once left in the user's real cache)."""
    real_store = REAL.cache / OWN / "models" / "user-models.json"
    before = real_store.read_bytes() if real_store.exists() else None
    (tmp_path / "model.gguf").write_bytes(b"GGUF" + b"\0" * 64)
    with guard_real_folders(REAL):
        done = subprocess.run([sys.executable, "-m", "pytest_llmfaith", "local", "stop", "local:model.gguf"],
                              cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert str(tmp_path / "model.gguf") in (model_dir() / "user-models.json").read_text()  # the session's
    assert (real_store.read_bytes() if real_store.exists() else None) == before


def test_a_test_that_writes_into_the_real_folders_fails(tmp_path) -> None:
    """The guard every test runs under (tests/conftest.py), shown on stand-in folders: never the real ones."""
    stand_in = Folders(tmp_path / "home", tmp_path / "home" / ".cache", tmp_path / "home" / ".config",
                       tmp_path / "home" / ".local" / "share")
    (stand_in.cache / OWN / "models").mkdir(parents=True)
    with guard_real_folders(stand_in):
        (stand_in.cache / "unrelated.txt").write_text("another program's")  # not this plugin's: allowed
    before = fingerprint(stand_in)
    with pytest.raises(pytest.fail.Exception, match="wrote into the user's real folders.*user-models.json"):
        with guard_real_folders(stand_in):
            (stand_in.cache / OWN / "models" / "user-models.json").write_text("{}")
    assert fingerprint(stand_in) != before
    with pytest.raises(pytest.fail.Exception, match=r"\.llmfaith_cache"):
        with guard_real_folders(stand_in):
            (stand_in.home / ".llmfaith_cache").mkdir()


def test_the_offline_judges_installed_runtime_and_weights_are_linked_not_copied() -> None:
    real, session = REAL.cache / OWN, Path(os.environ["XDG_CACHE_HOME"]) / OWN
    for sub in ("variants", "models"):
        for entry in (real / sub).iterdir() if (real / sub).is_dir() else []:
            if entry.name.startswith(".") or entry.name in ("user-models.json", "proofs"):
                continue
            linked = session / sub / entry.name
            assert linked.is_symlink() and linked.resolve() == entry.resolve()
    assert not (session / "models" / "user-models.json").is_symlink()
