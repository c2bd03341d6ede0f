"""Benchmarks of this checkout against another, side by side in one run (issue 33.6).

    git worktree add /tmp/before <commit>
    python benchmarks/checkouts.py --before /tmp/before [--rounds 2] [--only plugin_overhead cached_rerun]

Each round runs every chosen script once from the other checkout, then once from this one
(each checkout's own script, with its own package first on PYTHONPATH, from its own folder), so
a machine that gets busier hurts both alike. Every line a script prints with a figure in it is
kept; lines are paired by their text with the figures masked, and printed as
`before | after` per round. Nothing is timed here: the scripts time themselves.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
SCRIPTS = {
    "plugin_overhead": ["--repeats", "15", "--import-repeats", "10"],
    "cached_rerun": ["--repeats", "7", "--small", "0"],
    "xdist": ["--repeats", "1", "--assertions", "24", "--workers", "4"],  # cold and warm -n 4 against -n 0
}
FIGURE = re.compile(r"[-+]?\d[\d,]*(?:\.\d+)?")


def run(checkout: Path, script: str, args: list[str]) -> list[str]:
    """The lines with figures that `script` of `checkout` printed (it must exit 0)."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(checkout), os.environ.get("PYTHONPATH")])),
           "LLMFAITH_JUDGE_RELAY": "off"}  # a cold run's relay would import litellm beside the runs timed next
    done = subprocess.run([sys.executable, str(checkout / "benchmarks" / f"{script}.py"), *args], cwd=checkout,
                          env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"{script} in {checkout} failed ({done.returncode}):\n"
                         f"{done.stdout[-2000:]}{done.stderr[-2000:]}")
    return [line.rstrip() for line in done.stdout.splitlines() if FIGURE.search(line)]


def figures(line: str) -> str:
    return " ".join(FIGURE.findall(line))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", type=Path, required=True, help="the other checkout (a git worktree)")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--only", nargs="*", choices=sorted(SCRIPTS), default=sorted(SCRIPTS))
    args = parser.parse_args()
    checkouts = {"before": args.before.resolve(), "after": ROOT}
    seen: dict[str, dict[str, dict[str, list[str]]]] = {s: defaultdict(lambda: defaultdict(list)) for s in args.only}
    order: dict[str, list[str]] = {s: [] for s in args.only}
    for round_ in range(1, args.rounds + 1):
        for script in args.only:
            for name, checkout in checkouts.items():
                print(f"round {round_}: {script} ({name}, {checkout})", file=sys.stderr, flush=True)
                for line in run(checkout, script, SCRIPTS[script]):
                    label = FIGURE.sub("#", line).strip()
                    if label not in order[script]:
                        order[script].append(label)
                    seen[script][label][name].append(figures(line))
    for script in args.only:
        print(f"\n## {script}: before ({args.before}) | after ({ROOT}), one column pair per round")
        for label in order[script]:
            pairs = [f"{b} | {a}" for b, a in zip(seen[script][label]["before"], seen[script][label]["after"])]
            print(f"{label[:90]:<90}  " + "   ".join(pairs or ["(one side only)"]))


if __name__ == "__main__":
    main()
