"""Run every benchmark in sequence and print their figures (one process per script).

    .venv/bin/python benchmarks/run_all.py [--quick] [--with-offline] [--only NAME ...]

--quick passes fewer repeats to each script (a smoke run, ~2-3 minutes in all; the figures are
rougher). --with-offline also runs offline_judge.py (the embedded offline judge: needs the
model installed, and takes much longer), if that script exists.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent

SCRIPTS: dict[str, list[str]] = {  # name -> the extra arguments of a --quick run
    "plugin_overhead": ["--repeats", "5", "--import-repeats", "5"],
    "cache_hit": ["--iterations", "500"],
    "cached_rerun": ["--repeats", "3", "--small", "0"],
    "cold_run": ["--repeats", "1", "--assertions", "6"],
    "xdist": ["--repeats", "1", "--assertions", "24"],
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats: a smoke run")
    parser.add_argument("--with-offline", action="store_true", help="also run offline_judge.py if present")
    parser.add_argument("--only", nargs="+", choices=[*SCRIPTS, "offline_judge"], help="run only these")
    args = parser.parse_args()

    plan = [(name, SCRIPTS[name] if args.quick else []) for name in SCRIPTS]
    offline = HERE / "offline_judge.py"
    if args.with_offline:
        if offline.exists():
            plan.append(("offline_judge", []))
        else:
            print("run_all: --with-offline given but benchmarks/offline_judge.py does not exist; skipped")
    if args.only:
        plan = [(name, extra) for name, extra in plan if name in args.only]

    outcomes: list[tuple[str, int, float]] = []
    for name, extra in plan:
        cmd = [sys.executable, str(HERE / f"{name}.py"), *extra]
        print(f"\n{'#' * 100}\n# {' '.join([Path(cmd[0]).name, *cmd[1:]])}\n{'#' * 100}", flush=True)
        started = time.perf_counter()
        rc = subprocess.run(cmd, cwd=HERE.parent).returncode  # output streams straight through
        outcomes.append((name, rc, time.perf_counter() - started))

    print(f"\n{'#' * 100}\nrun_all: {'quick' if args.quick else 'full'} run")
    for name, rc, seconds in outcomes:
        print(f"  {name:<16} {'ok' if rc == 0 else f'FAILED (exit {rc})':<16} {seconds:6.1f} s")
    sys.exit(0 if all(rc == 0 for _, rc, _ in outcomes) else 1)


if __name__ == "__main__":
    main()
