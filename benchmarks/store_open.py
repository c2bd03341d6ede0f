"""Why the judge cache is a table of ours on sqlite3 and not diskcache: what opening a warm store
and reading one answer writes, with each.

(a) a warm directory: each store filled with ENTRIES answers and closed, then opened, read (one
    key) and closed OPENS times; every file's size, mtime and SHA-256 compared before and after;
(b) the same directory read-only (a read-only bind mount in a mount namespace, `unshare -m`, as a
    read-only checkout or CI cache; without it, the files made read-only for a user that is not
    root): does the store open and serve the answer?

diskcache is no dependency of the plugin (it left with the copy of its store format): run this
once in a throwaway venv that has it, from the project's root:

    python3 -m venv /tmp/dcvenv && /tmp/dcvenv/bin/pip install diskcache
    /tmp/dcvenv/bin/python benchmarks/store_open.py

Ours is read through `KeyValueFile.reading`, the one way the cache opens a store to read
(standard library only, so the venv needs nothing else). docs/cache-and-recordings.md quotes the
figures.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pytest_llmfaith.judge.keyvalue import FILENAME, KeyValueFile  # noqa: E402

KEY = "answer-0"
Snapshot = dict[str, tuple[int, int, str]]  # file name: (size, mtime in ns, SHA-256)


def fill(kind: str, directory: Path, entries: int) -> None:
    """A store as a run leaves it: ENTRIES JSON answers of ~1 KB, closed."""
    value = json.dumps({"answer": {"claims": ["x" * 100] * 8}})
    if kind == "diskcache":
        import diskcache

        cache = diskcache.Cache(str(directory), eviction_policy="none")
        for i in range(entries):
            cache.set(f"answer-{i}", value)
        cache.close()
    else:
        store = KeyValueFile.writing(directory / FILENAME)
        store.set_many((f"answer-{i}", value) for i in range(entries))
        store.close()


def read_once(kind: str, directory: Path) -> str:
    """Open, read KEY, close: what a cached test does to the store. Returns the answer's length or the error."""
    try:
        if kind == "diskcache":
            import diskcache

            cache = diskcache.Cache(str(directory), eviction_policy="none")
            value = cache.get(KEY)
            cache.close()
        else:
            store = KeyValueFile.reading(directory / FILENAME)
            value = store.get(KEY)
            store.close()
    except Exception as err:  # what the user would see
        return f"fails: {type(err).__name__}: {err}"
    return f"serves the answer ({len(value)} characters)" if isinstance(value, str) else "no answer"


def snapshot(directory: Path) -> Snapshot:
    return {p.name: (p.stat().st_size, p.stat().st_mtime_ns, hashlib.sha256(p.read_bytes()).hexdigest())
            for p in sorted(directory.iterdir()) if p.is_file()}


def changes(before: Snapshot, after: Snapshot) -> list[str]:
    said = []
    for name in sorted(before.keys() | after.keys()):
        old, new = before.get(name), after.get(name)
        if old is None:
            said.append(f"{name} created ({new[0]} bytes)")  # type: ignore[index]
        elif new is None:
            said.append(f"{name} removed")
        elif old != new:
            what = [w for w, changed in (("bytes", old[2] != new[2]), ("mtime", old[1] != new[1])) if changed]
            said.append(f"{name} {' and '.join(what)} changed ({old[0]} -> {new[0]} bytes)")
    return said


def read_only(kind: str, directory: Path) -> str:
    """read_once in a child that sees `directory` read-only."""
    child = [sys.executable, __file__, "--read", kind, str(directory)]
    if os.geteuid() == 0 and shutil.which("unshare"):
        mount = 'mount --bind "$0" "$0" && mount -o remount,ro,bind "$0" && exec "$@"'
        child = ["unshare", "-m", "sh", "-c", mount, str(directory), *child]
        how = "read-only bind mount"
    else:
        for path in (*directory.iterdir(), directory):
            path.chmod(0o555 if path.is_dir() else 0o444)
        how = "read-only files and folder"
    done = subprocess.run(child, capture_output=True, text=True, timeout=120)
    return f"{how}: {(done.stdout.strip() or done.stderr.strip().splitlines()[-1])}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--entries", type=int, default=200)
    parser.add_argument("--opens", type=int, default=3)
    parser.add_argument("--read", nargs=2, metavar=("KIND", "DIR"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.read:
        print(read_once(args.read[0], Path(args.read[1])))
        return
    import diskcache

    print(f"python {sys.version.split()[0]}, sqlite {sqlite3.sqlite_version}, "
          f"diskcache {diskcache.__version__}; {args.entries} answers of ~1 KB, {args.opens} opens")
    for kind in ("diskcache", "ours"):
        with tempfile.TemporaryDirectory() as tmp:
            directory = Path(tmp) / "cache"
            directory.mkdir()
            fill(kind, directory, args.entries)
            written = 0
            for n in range(args.opens):
                before = snapshot(directory)
                served = read_once(kind, directory)
                changed = changes(before, snapshot(directory))
                written += bool(changed)
                print(f"{kind:9} open {n + 1}: {served}; {'; '.join(changed) or 'no file changed'}")
            print(f"{kind:9} opens that changed a file: {written} of {args.opens}")
            print(f"{kind:9} {read_only(kind, directory)}")


if __name__ == "__main__":
    main()
