"""The user's real home and XDG folders, kept out of the test session.

tests/conftest.py points HOME, XDG_CACHE_HOME, XDG_CONFIG_HOME and XDG_DATA_HOME at one temporary
folder for the whole session, before any test (or any run a test starts) reads them; xdist workers
inherit the controller's. The offline judge's installed runtime (variants/) and weights (models/)
are linked into that folder's cache read-only in intent, so the real-model tests find them; its
kernel proofs are copied, and nothing else of the real cache is visible (user-models.json, the
wheels, the install's locks). A test that writes into the real folders anyway fails: every test
compares what pytest-llmfaith keeps there before and after it (guard_real_folders).
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

_MOVED = "LLMFAITH_TESTS_SESSION_HOME"  # set once moved: an xdist worker keeps its controller's folders
_REAL = "LLMFAITH_TESTS_REAL_"  # + HOME, XDG_CACHE_HOME...: the user's own, for the workers
NAMES = ("HOME", "XDG_CACHE_HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME")
OWN = "pytest-llmfaith"  # the folder this plugin keeps in the cache (and would keep in config or data)


@dataclass(frozen=True)
class Folders:
    home: Path
    cache: Path
    config: Path
    data: Path

    @classmethod
    def of(cls, env: Mapping[str, str]) -> Folders:
        """The folders a program given this environment uses, with the XDG defaults."""
        home = Path(env.get("HOME") or Path.home())
        return cls(home, Path(env.get("XDG_CACHE_HOME") or home / ".cache"),
                   Path(env.get("XDG_CONFIG_HOME") or home / ".config"),
                   Path(env.get("XDG_DATA_HOME") or home / ".local" / "share"))


def _real_environ() -> dict[str, str]:
    if os.environ.get(_MOVED):
        return {name: os.environ[_REAL + name] for name in NAMES if os.environ.get(_REAL + name)}
    return {name: os.environ[name] for name in NAMES if os.environ.get(name)}


REAL = Folders.of(_real_environ())


def move_user_folders() -> Folders:
    """Point HOME and the XDG folders at the session's temporary folder (made here, removed at
    exit, unless this is an xdist worker of a session that made it)."""
    if os.environ.get(_MOVED):
        return Folders.of(os.environ)
    root = Path(tempfile.mkdtemp(prefix="llmfaith-tests-home-"))
    atexit.register(shutil.rmtree, root, ignore_errors=True)  # links are removed, never followed
    for name in NAMES:
        if os.environ.get(name):
            os.environ[_REAL + name] = os.environ[name]
    moved = Folders(root / "home", root / "home" / ".cache", root / "home" / ".config",
                    root / "home" / ".local" / "share")
    for name, folder in zip(NAMES, (moved.home, moved.cache, moved.config, moved.data)):
        folder.mkdir(parents=True, exist_ok=True)
        os.environ[name] = str(folder)
    os.environ[_MOVED] = str(root)
    link_offline_judge(REAL.cache / OWN, moved.cache / OWN)
    return moved


def link_offline_judge(real: Path, session: Path) -> None:
    """The installed runtimes and weights of the real cache, linked; the kernel proofs copied (a
    run may write new ones); the rest (user-models.json, wheels, locks, partial downloads) left out."""
    for sub in ("variants", "models"):
        if not (real / sub).is_dir():
            continue
        (session / sub).mkdir(parents=True, exist_ok=True)
        for entry in (real / sub).iterdir():
            if entry.name.startswith(".") or entry.name == "user-models.json":
                continue
            if entry.name == "proofs":
                shutil.copytree(entry, session / sub / entry.name, symlinks=True)
            else:
                (session / sub / entry.name).symlink_to(entry, target_is_directory=entry.is_dir())


Fingerprint = dict[str, tuple[int, int]]


def fingerprint(folders: Folders) -> Fingerprint:
    """What pytest-llmfaith keeps in the folders, cheaply: every entry of its own folders two levels
    down (a file's mtime and size, a folder's presence; the install's dot-files aside) and anything
    named for it in the home."""
    found: Fingerprint = {}

    def add(path: Path) -> None:
        try:
            info = path.lstat()
        except OSError:
            return
        is_file = path.is_file() and not path.is_symlink()
        found[str(path)] = (info.st_mtime_ns, info.st_size) if is_file else (0, 0)  # a folder: there or not

    for top in (folders.cache / OWN, folders.config / OWN, folders.data / OWN):
        if not top.is_dir():
            continue
        add(top)
        for entry in _entries(top):
            add(entry)
            if entry.is_dir() and not entry.is_symlink():
                for inner in _entries(entry):
                    add(inner)
    for entry in _entries(folders.home, dots=True):
        if "llmfaith" in entry.name:
            add(entry)
    return found


def _entries(folder: Path, dots: bool = False) -> list[Path]:
    """A folder's entries; without `dots`, none of the install's own (locks, partial downloads)."""
    try:
        return [e for e in folder.iterdir() if dots or not e.name.startswith(".")]
    except OSError:
        return []


@contextmanager
def guard_real_folders(folders: Folders) -> Iterator[None]:
    """Fail the test in the block if it changed what pytest-llmfaith keeps in the user's folders."""
    before = fingerprint(folders)
    yield
    after = fingerprint(folders)
    if after != before:
        changed = sorted(k for k in before.keys() | after.keys() if before.get(k) != after.get(k))
        pytest.fail("this test wrote into the user's real folders (tests must use the session's temporary "
                    f"HOME and XDG folders): {', '.join(changed)}", pytrace=False)
