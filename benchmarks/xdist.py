"""pytest-xdist against a slow judge: -n 0, -n 2, -n 4, cache off, cold and warm, with and without the relay.

A generated suite of N assertions (default 24 and 96, in 4 files; each output has 3 claims, all
supported) runs against a loopback judge that takes --latency seconds per answer (default 0.3),
with --llm-cache=off. Each repeat runs every mode twice in a row: cold (every judge relay stopped
first, so the run starts one and it imports litellm) then warm (the next run, which finds the relay
of the cold one still up). Per suite size, mode and cold/warm (interleaved over --repeats) it prints
the median wall time, the share of the run spent before the judge's first request and outside the
judge wait (from the judge server's clock: no request in flight), and the speed-up against -n 0
(cold against cold, warm against warm). The modes:
  -n 0           the default without xdist: the calls go through the judge relay
  -n 0 off       --llm-judge-relay=off: litellm in the test process (the old serial path)
  -n W           the default under xdist: the workers' calls go through the judge relay
  -n W before    --before: --llm-judge-relay=off, every worker imports litellm (the old path)
The runs get a private TMPDIR, so only their own relays are stopped. It also checks that the
controller's merged summary counts every score once. Last, the ceiling: the same suite layout
without the plugin (`-p no:llmfaith`), each test sleeping for its assertion's judge wait (2 calls x
--latency), as -n 0 and -n W: the speed-up xdist itself allows on this machine, whatever a plugin does.

    .venv/bin/python benchmarks/xdist.py [--repeats 2] [--assertions 24 96] [--latency 0.3] [--workers 2 4] [--before]
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from _common import (
    clean_env,
    clear_requests,
    header,
    judge,
    judge_args,
    judge_shares,
    machine,
    median,
    pytest_run,
    stop_relays,
    summary_line,
    write_suite,
)

BASE = ["-q", "-p", "no:cacheprovider"]
FILES = 4


def case(i: int) -> tuple[str, list[str]]:
    sentences = [f"Route {i} departs at {6 + i % 12}:15.", f"Route {i} has {i % 7 + 3} stops.",
                 f"Route {i} is served by bus line {100 + i}."]
    return " ".join(sentences), [" ".join(sentences[:2]), sentences[2], "Tickets are sold on board."]


def suite_files(n: int) -> dict[str, str]:
    files: dict[str, list[str]] = {f"test_routes_{k}.py": ["from pytest_llmfaith import assert_faithful, "
                                                            "assert_not_hallucinated", ""] for k in range(FILES)}
    for i in range(n):
        output, context = case(i)
        check = (f"assert_faithful({output!r}, {context!r}, min_score=0.7)" if i % 2 == 0
                 else f"assert_not_hallucinated({output!r}, {context!r}, max_score=0.3)")
        files[f"test_routes_{i % FILES}.py"] += [f"def test_route_{i}():", f"    {check}", ""]
    return {name: "\n".join(lines) for name, lines in files.items()}


def sleeping_files(n: int, latency: float) -> dict[str, str]:
    """The suite's layout with each assertion replaced by its judge wait (claims + verdicts)."""
    files: dict[str, list[str]] = {f"test_routes_{k}.py": ["import time", ""] for k in range(FILES)}
    for i in range(n):
        files[f"test_routes_{i % FILES}.py"] += [f"def test_route_{i}():", f"    time.sleep({2 * latency!r})", ""]
    return {name: "\n".join(lines) for name, lines in files.items()}


def modes(workers: list[int], before: bool) -> dict[str, list[str]]:
    found = {"-n 0": ["-n", "0"], "-n 0 off": ["-n", "0", "--llm-judge-relay=off"]}
    for w in workers:
        found[f"-n {w}"] = ["-n", str(w)]
        if before:
            found[f"-n {w} before"] = ["-n", str(w), "--llm-judge-relay=off"]
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=2, help="runs of each mode (each -n 0 run of 24 "
                        "assertions waits >= 14.4 s for the judge alone)")
    parser.add_argument("--assertions", type=int, nargs="+", default=[24, 96])
    parser.add_argument("--latency", type=float, default=0.3, help="seconds the judge takes per answer")
    parser.add_argument("--workers", type=int, nargs="+", default=[2, 4])
    parser.add_argument("--before", action="store_true", help="also run each -n W with --llm-judge-relay=off")
    args = parser.parse_args()
    print(f"xdist: {machine()}")
    ok = True
    table: list[tuple[int, str, str, float, float, float, float]] = []
    with tempfile.TemporaryDirectory(prefix="llmfaith-bench-") as tmp, judge(args.latency) as server:
        (Path(tmp) / "tmp").mkdir()
        env = clean_env(TMPDIR=str(Path(tmp) / "tmp"))  # the runs' relays, and only theirs, are in there
        try:
            for n in args.assertions:
                ok &= run_suite(Path(tmp) / f"suite-{n}", n, args, server, env, table)
                ceiling(Path(tmp) / f"sleeping-{n}", n, args, env, table)
        finally:
            stop_relays(env)
        header("result")
        for n, name, temperature, wall, before_first, not_waiting, speedup in table:
            if temperature == "sleep":
                print(f"{n:>4} assertions {name:<14} plugin off, a sleep per test: {wall:6.2f} s, "
                      f"{speedup:.2f}x vs -n 0: what xdist itself allows here")
                continue
            print(f"{n:>4} assertions {name:<14} {temperature}: {wall:6.2f} s, {before_first:4.0%} before the first "
                  f"judge request, {not_waiting:4.0%} ({wall * not_waiting:5.2f} s) outside the judge wait, "
                  f"{speedup:.2f}x vs -n 0 {temperature}")
        print(f"merged summary counts each score once: {'yes' if ok else 'NO'}")
    if not ok:
        sys.exit(1)


def run_suite(suite: Path, n: int, args: argparse.Namespace, server: Any, env: dict[str, str],
              table: list[tuple[int, str, str, float, float, float, float]]) -> bool:
    """Every mode over the repeats, cold then warm; prints the suite's table, adds its rows to `table`."""
    write_suite(suite, suite_files(n))
    facts: list[str] = []
    for i in range(n):
        facts += re.split(r"(?<=\.)\s+", case(i)[0])
    server.facts(supported=facts)
    header(f"{n} assertions, judge latency {args.latency:g} s, --llm-cache=off")
    variants = modes(args.workers, args.before)
    runs: dict[tuple[str, str], list[tuple[float, float, float]]] = {
        (name, temperature): [] for name in variants for temperature in ("cold", "warm")}
    ok = True
    for _ in range(args.repeats):
        for name, extra in variants.items():
            stop_relays(env)
            for temperature in ("cold", "warm"):
                clear_requests(server)
                started = time.monotonic()
                wall, proc = pytest_run(suite, [*BASE, *extra, *judge_args(server.url, "off")], env=env)
                if f"{n} passed" not in proc.stdout:
                    raise SystemExit(f"{name} {temperature}: {summary_line(proc)}")
                ok &= f"llmfaith: {n} scores" in proc.stdout
                runs[name, temperature].append((wall, *judge_shares(server, args.latency, started, wall)))
    print(f"{'mode':<14} {'run':<5} {'wall s':>8} {'before 1st request':>19} {'outside judge wait':>19} "
          f"{'speed-up vs -n 0':>17}")
    for temperature in ("cold", "warm"):
        serial = median([run[0] for run in runs["-n 0", temperature]])
        for name in variants:
            wall, before_first, not_waiting = (median([run[k] for run in runs[name, temperature]]) for k in range(3))
            table.append((n, name, temperature, wall, before_first, not_waiting, serial / wall))
            print(f"{name:<14} {temperature:<5} {wall:>8.2f} {before_first:>18.0%} {not_waiting:>18.0%} "
                  f"{serial / wall:>16.2f}x")
    return ok


def ceiling(suite: Path, n: int, args: argparse.Namespace, env: dict[str, str],
            table: list[tuple[int, str, str, float, float, float, float]]) -> None:
    """xdist alone: the plugin off, a sleep in place of each assertion's judge wait."""
    write_suite(suite, sleeping_files(n, args.latency))
    names = ["-n 0", *(f"-n {w}" for w in args.workers)]
    walls: dict[str, list[float]] = {name: [] for name in names}
    for _ in range(args.repeats):
        for name in names:
            wall, proc = pytest_run(suite, [*BASE, "-p", "no:llmfaith", *name.split()], env=env)
            if f"{n} passed" not in proc.stdout:
                raise SystemExit(f"sleeping {name}: {summary_line(proc)}")
            walls[name].append(wall)
    serial = median(walls["-n 0"])
    print(f"ceiling, plugin off, {2 * args.latency:g} s sleep per test:")
    for name in names:
        wall = median(walls[name])
        wait = n * 2 * args.latency / (int(name.split()[1]) or 1)
        table.append((n, f"{name} ceiling", "sleep", wall, 0.0, 1 - wait / wall, serial / wall))
        print(f"{name + ' ceiling':<14} {'sleep':<5} {wall:>8.2f} {'':>18} {1 - wait / wall:>18.0%} "
              f"{serial / wall:>16.2f}x")


if __name__ == "__main__":
    main()
