"""The offline judge's speed, this checkout side by side with another one, on the example suite.

    git worktree add /tmp/before <commit>          # the code to compare with
    python benchmarks/offline_speed.py --before /tmp/before [--before /tmp/other] [--repeats 1]

For each checkout ("before", then "after" = this one) and each repeat: stop that checkout's
judge server, then run the example suite cold (`examples/`, judge cache off, no baseline) with
`--llm-judge-model=local`, and read the JSON report. Each checkout gets a model folder of its
own (links to the installed weights), so the two never share a server, and runs with the same
Python (this one) and llama.cpp build. Prints, per checkout: wall time of the suite, judge calls,
median seconds per claims call and per verdict call, prompt tokens read, and the ratio.
Measure on a quiet machine: two cores shared with anything else make every figure slower.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


def model_folder(scratch: Path, name: str) -> Path:
    """A private model folder whose weights are links to the installed ones (same file, own server)."""
    from pytest_llmfaith.local.weights import default_model_path, sidecar_path

    weights = default_model_path()
    folder = scratch / f"models-{name}"
    folder.mkdir(parents=True, exist_ok=True)
    for source in (weights, sidecar_path(weights)):
        target = folder / source.name
        if not target.exists():
            target.symlink_to(source) if source == weights else target.write_bytes(source.read_bytes())
    return folder


def run_suite(checkout: Path, models: Path, report: Path) -> float:
    env = {k: v for k, v in os.environ.items() if not k.startswith("LLMFAITH_")}
    env.update(LLMFAITH_MODEL_DIR=str(models), PYTHONPATH=str(checkout), NO_COLOR="1",
               LLMFAITH_LOCAL_IDLE_TIMEOUT="5")
    stop = [sys.executable, "-m", "pytest_llmfaith.local", "stop"]
    subprocess.run(stop, env=env, cwd=checkout, capture_output=True, check=False)
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--llm-cache=off",
         "--llm-judge-model=local", "-o", "llm_baseline=", f"--llm-report={report}"],
        cwd=checkout / "examples", env=env, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - started
    subprocess.run(stop, env=env, cwd=checkout, capture_output=True, check=False)
    if not report.exists():
        raise SystemExit(f"{checkout}: the example suite wrote no report:\n{done.stdout[-3000:]}{done.stderr[-2000:]}")
    return wall


def figures(report: Path, wall: float) -> dict[str, float]:
    data = json.loads(report.read_text())
    calls = [c for r in data["results"] for c in r["result"]["judge_calls"] if not c["cached"]]
    by_step = {step: [c["latency_s"] for c in calls if c["step"] == step] for step in ("claims", "verdicts")}
    return {
        "wall_s": wall,
        "judge_calls": len(calls),
        "claims_calls": len(by_step["claims"]),
        "verdict_calls": len(by_step["verdicts"]),
        "median_claims_s": statistics.median(by_step["claims"]) if by_step["claims"] else 0.0,
        "median_verdict_s": statistics.median(by_step["verdicts"]) if by_step["verdicts"] else 0.0,
        "judge_s": sum(c["latency_s"] for c in calls),
        "prompt_tokens": sum(c.get("prompt_tokens") or 0 for c in calls),
        "scores": len(data["results"]),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, action="append", required=True,
                        help="a checkout of the code to compare with (repeat for several)")
    parser.add_argument("--repeats", type=int, default=1)
    args = parser.parse_args()
    sides = {checkout_name(path.resolve()): path.resolve() for path in args.before} | {"after": ROOT}
    results: dict[str, list[dict[str, float]]] = {name: [] for name in sides}
    with tempfile.TemporaryDirectory(prefix="llmfaith-speed-") as scratch:
        for repeat in range(args.repeats):
            for name, checkout in sides.items():
                report = Path(scratch) / f"{name}-{repeat}.json"
                wall = run_suite(checkout, model_folder(Path(scratch), name), report)
                results[name].append(figures(report, wall))
                print(f"{name} run {repeat + 1}: {wall:.1f} s", file=sys.stderr, flush=True)
    rows = [("example suite, cold (s)", "wall_s", "{:.1f}"), ("judge calls", "judge_calls", "{:.0f}"),
            ("  claims calls", "claims_calls", "{:.0f}"), ("  verdict calls", "verdict_calls", "{:.0f}"),
            ("median s per claims call", "median_claims_s", "{:.2f}"),
            ("median s per verdict call", "median_verdict_s", "{:.2f}"),
            ("judge seconds in all", "judge_s", "{:.1f}"), ("prompt tokens sent", "prompt_tokens", "{:.0f}"),
            ("scores", "scores", "{:.0f}")]
    befores = [name for name in sides if name != "after"]
    print(f"\n{'median of ' + str(args.repeats):<28} " + " ".join(f"{n:>10} {'/after':>8}" for n in befores)
          + f" {'after':>10}")
    for label, key, fmt in rows:
        after = statistics.median(r[key] for r in results["after"])
        cells = []
        for name in befores:
            before = statistics.median(r[key] for r in results[name])
            cells.append(f"{fmt.format(before):>10} {(f'{before / after:.2f}x' if after else '-'):>8}")
        print(f"{label:<28} " + " ".join(cells) + f" {fmt.format(after):>10}")


def checkout_name(path: Path) -> str:
    """The checkout's short commit, so the columns say which code they measured."""
    done = subprocess.run(["git", "-C", str(path), "rev-parse", "--short", "HEAD"], capture_output=True,
                          text=True, check=False)
    return done.stdout.strip() or path.name


if __name__ == "__main__":
    main()
