"""pytest-xdist against a slow judge: `-n 4` vs `-n 0`, cache off.

A generated suite of N assertions (default 24, in 4 files; each output has 3 claims, all
supported) runs against a loopback judge that takes --latency seconds per answer (default 0.3),
with --llm-cache=off, under `-n 0` and `-n 4` (interleaved). It prints the median wall time of
each, the speed-up, and, from the judge server's clock, how long the judge had at least one
request in flight (the part of the run that parallelises), and checks that the controller's
merged summary counts every score once.

    .venv/bin/python benchmarks/xdist.py [--repeats 2] [--assertions 24] [--latency 0.3] [--workers 4]
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
from pathlib import Path

from _common import (
    busy_seconds,
    clear_requests,
    header,
    judge,
    judge_args,
    machine,
    median,
    pytest_run,
    spread,
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=2, help="runs of each variant (each -n 0 run "
                        "waits >= 14.4 s for the judge alone)")
    parser.add_argument("--assertions", type=int, default=24)
    parser.add_argument("--latency", type=float, default=0.3, help="seconds the judge takes per answer")
    parser.add_argument("--workers", type=int, default=4)
    args = parser.parse_args()
    n = args.assertions
    print(f"xdist: {machine()}")
    ok = True
    with tempfile.TemporaryDirectory(prefix="llmfaith-bench-") as tmp, judge(args.latency) as server:
        root = Path(tmp)
        suite = root / "suite"
        write_suite(suite, suite_files(n))
        facts: list[str] = []
        for i in range(n):
            facts += re.split(r"(?<=\.)\s+", case(i)[0])
        server.facts(supported=facts)
        header(f"{n} assertions, judge latency {args.latency:g} s, --llm-cache=off")
        variants = {"-n 0": ["-n", "0"], f"-n {args.workers}": ["-n", str(args.workers)]}
        walls: dict[str, list[float]] = {k: [] for k in variants}
        busy: dict[str, list[float]] = {k: [] for k in variants}
        calls: dict[str, int] = {}
        footers: dict[str, str] = {}
        for _ in range(args.repeats):
            for name, extra in variants.items():
                clear_requests(server)
                wall, proc = pytest_run(suite, [*BASE, *extra, *judge_args(server.url, "off")])
                if f"{n} passed" not in proc.stdout:
                    raise SystemExit(f"{name}: {summary_line(proc)}")
                walls[name].append(wall)
                busy[name].append(busy_seconds(server, args.latency))
                calls[name] = len(server.requests)
                footers[name] = next((line for line in proc.stdout.splitlines() if line.startswith("llmfaith:")), "")
                ok &= f"llmfaith: {n} scores" in footers[name]
        for name in variants:
            print(f"{name:<6}: wall {spread(walls[name])}; judge busy {median(busy[name]):.2f} s; "
                  f"{calls[name]} judge calls")
            print(f"        {footers[name]}")
        serial, parallel = (median(walls[k]) for k in variants)
        b_serial, b_parallel = (median(busy[k]) for k in variants)
        header("result")
        print(f"speed-up -n {args.workers} vs -n 0: {serial / parallel:.2f}x wall "
              f"({serial:.2f} s -> {parallel:.2f} s); judge-wait part {b_serial / b_parallel:.2f}x "
              f"({b_serial:.2f} s -> {b_parallel:.2f} s)")
        print(f"fixed cost outside the judge wait: -n 0 {serial - b_serial:.2f} s, "
              f"-n {args.workers} {parallel - b_parallel:.2f} s (start-up, each worker's litellm import, scoring)")
        print(f"merged summary counts each of the {n} scores once: {'yes' if ok else 'NO'}")
    if not ok:
        sys.exit(1)


if __name__ == "__main__":
    main()
