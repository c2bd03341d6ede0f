"""processes/files.py: the lock the services' clients take, and what it does when its folder goes."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from pytest_llmfaith.processes.files import file_lock


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
