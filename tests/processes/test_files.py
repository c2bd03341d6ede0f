"""processes/files.py: the lock the services' clients take, what it does when its folder goes,
and the one atomic write."""

from __future__ import annotations

import os
import stat
import threading
import time
from pathlib import Path

import pytest

from pytest_llmfaith.processes.files import atomic_file, file_lock


def test_a_process_waiting_for_the_lock_of_a_folder_removed_meanwhile_locks_the_new_one(tmp_path: Path) -> None:
    """A service that retires removes its folder under its lock; a client that was waiting for that
    lock must not end up holding the removed file's lock while another process locks the new one."""
    lock = tmp_path / "warm-test" / "lock"
    held, release = threading.Event(), threading.Event()

    def waiter() -> None:
        with file_lock(lock):
            held.set()
            release.wait(30)

    with file_lock(lock):
        thread = threading.Thread(target=waiter)
        thread.start()
        time.sleep(0.2)  # the waiter has opened the old file and waits for its lock
        for path in lock.parent.iterdir():
            path.unlink()
        lock.parent.rmdir()
    try:
        assert held.wait(30)
        assert lock.is_file()  # made anew by the waiter
        with pytest.raises(BlockingIOError):  # the waiter holds the lock of the file now at `lock`
            with file_lock(lock, wait=False):
                pass
    finally:
        release.set()
        thread.join(30)


def test_a_file_is_written_whole_or_not_at_all(tmp_path: Path) -> None:
    target = tmp_path / "state.json"
    target.write_text("old")
    with pytest.raises(RuntimeError), atomic_file(target) as fh:
        fh.write("half")
        raise RuntimeError("interrupted")
    assert target.read_text() == "old" and [p.name for p in tmp_path.iterdir()] == ["state.json"]
    with atomic_file(target) as fh:
        fh.write("new")
    assert target.read_text() == "new" and [p.name for p in tmp_path.iterdir()] == ["state.json"]


@pytest.mark.skipif(os.name == "nt", reason="POSIX file modes")
def test_state_files_are_private_and_committed_ones_follow_the_umask(tmp_path: Path) -> None:
    umask = os.umask(0o022)
    os.umask(umask)
    with atomic_file(tmp_path / "state.json") as fh:
        fh.write("{}")
    with atomic_file(tmp_path / "recording.json", private=False) as fh:
        fh.write("{}")
    assert stat.S_IMODE((tmp_path / "state.json").stat().st_mode) == 0o600
    assert stat.S_IMODE((tmp_path / "recording.json").stat().st_mode) == 0o666 & ~umask
