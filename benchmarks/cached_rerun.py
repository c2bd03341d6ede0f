"""A cached re-run of a suite of llmfaith assertions, against the same suite with constant asserts.

A generated suite of N assertions (default 100; assert_faithful and assert_not_hallucinated
alternating, each on a distinct output and context) runs once cold against the loopback judge
with --llm-cache=use (filling a cache directory), then R times cached. The same suite with each
assertion replaced by a constant (`assert 0.9 >= 0.7`, same imports) runs R times too
(interleaved). Both run in two bytecode set-ups, side by side:

- "bytecode": written to a temporary PYTHONPYCACHEPREFIX (after a warm-up run), as on a machine
  that lets Python cache bytecode;
- "no bytecode": PYTHONDONTWRITEBYTECODE=1 (common in Docker images). pytest rewrites the asserts
  of every module of an installed plugin (a pytest11 entry point marks its whole package), and
  with no bytecode written it cannot keep the result: each run parses and compiles every
  pytest_llmfaith module it imports from source, whether the plugin was installed editable or
  from a wheel (pytest's rewriting hook does not use the wheel's .pyc). Its dependencies
  (pydantic) load from their installed .pyc in both set-ups; the test files of both suites are
  rewritten like the plugin's modules.

It prints the medians, the ratio, and the extra milliseconds per assertion; then the same for a
small suite (default 10) so the fixed per-run cost (imports, opening the store, the summary
table) can be told apart from the cost per assertion. Last, one cached re-run with
--llm-cache=replay after the judge server has been STOPPED: it must pass (offline).

    .venv/bin/python benchmarks/cached_rerun.py [--repeats 9] [--assertions 100] [--small 10]
                                                [--bytecode both|on|off]
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from _common import (
    MODEL,
    PYTHON,
    clean_env,
    header,
    judge,
    judge_args,
    machine,
    median,
    pytest_run,
    spread,
    summary_line,
    use_pycache_prefix,
    write_suite,
)

BASE = ["-q", "-p", "no:cacheprovider"]
PER_FILE = 10


def case(i: int) -> tuple[str, list[str]]:
    sentences = [f"The W{i} widget weighs {i * 7 + 3} grams.", f"The W{i} ships in a box of {i % 9 + 2}.",
                 f"Its warranty lasts {i % 5 + 1} years."]
    return " ".join(sentences), [" ".join(sentences[:2]), sentences[2] + " Support is by email."]


def suite_files(n: int, constant: bool) -> dict[str, str]:
    files: dict[str, str] = {}
    for start in range(0, n, PER_FILE):
        lines = ["from pytest_llmfaith import assert_faithful, assert_not_hallucinated", ""]
        for i in range(start, min(start + PER_FILE, n)):
            output, context = case(i)
            lines.append(f"def test_answer_{i}():")
            if constant:
                lines.append("    assert 0.9 >= 0.7")
            elif i % 2 == 0:
                lines.append(f"    assert_faithful({output!r}, {context!r}, min_score=0.7)")
            else:
                lines.append(f"    assert_not_hallucinated({output!r}, {context!r}, max_score=0.3)")
            lines.append("")
        files[f"test_answers_{start // PER_FILE:02d}.py"] = "\n".join(lines)
    return files


def supported_sentences(n: int) -> list[str]:
    facts: list[str] = []
    for i in range(n):
        output, _ = case(i)
        facts += re.split(r"(?<=\.)\s+", output)
    return facts


def first_use_import_ms(repeats: int = 7) -> list[float]:
    """What the first scored assertion of a run imports (pydantic, the scorers, the report), timed
    in a fresh process that has already imported pytest and the plugin, with bytecode."""
    code = ("import time, pytest, pytest_llmfaith.plugin.hooks; t = time.perf_counter(); "
            "import pytest_llmfaith.plugin.assertion, pytest_llmfaith.scorers, pytest_llmfaith.judge.client, "
            "pytest_llmfaith.judge.cache, pytest_llmfaith.report.model; "
            "print((time.perf_counter() - t) * 1000)")
    subprocess.run([PYTHON, "-c", code], env=clean_env(), capture_output=True, check=True)  # .pyc
    return [float(subprocess.run([PYTHON, "-c", code], env=clean_env(), capture_output=True, text=True,
                                 check=True).stdout) for _ in range(repeats)]


def totals_line(stdout: str) -> str:
    found = [line for line in stdout.splitlines() if line.startswith("llmfaith:")]
    return found[-1] if found else "(no llmfaith footer)"


def bytecode_env(written: bool) -> dict[str, str]:
    """The environment of a run with bytecode written (to the temporary prefix) or not at all."""
    env = clean_env()
    if not written:
        env.pop("PYTHONPYCACHEPREFIX", None)
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


MODES = {"on": ("bytecode", True), "off": ("no bytecode", False)}


def measure(root: Path, url: str, n: int, repeats: int, modes: list[str]) -> dict[str, dict[str, Any]]:
    """Per bytecode mode: medians and minimums of the cached and constant runs (all interleaved)."""
    cached_suite, constant_suite = root / f"llm{n}", root / f"const{n}"
    write_suite(cached_suite, suite_files(n, constant=False))
    write_suite(constant_suite, suite_files(n, constant=True))
    cache_dir = root / f"cache{n}"
    # no relay: the cold run's would import litellm in the background while the re-runs are timed
    args = [*BASE, *judge_args(url, "use", cache_dir), "--llm-judge-relay=off"]
    cold, proc = pytest_run(cached_suite, args, env=bytecode_env(True))
    print(f"cold run, {n} assertions, --llm-cache=use: {cold:.2f} s; {summary_line(proc)} "
          f"(the first cold run also fills the temporary bytecode cache)")
    print(f"  {totals_line(proc.stdout)}")
    envs = {mode: bytecode_env(MODES[mode][1]) for mode in modes}
    runs: dict[str, dict[str, list[float]]] = {mode: {"cached": [], "const": []} for mode in modes}
    pytest_run(constant_suite, BASE, env=envs[modes[0]])  # warm-up (bytecode of the constant suite)
    last = proc
    for _ in range(repeats):
        for mode in modes:
            wall, last = pytest_run(cached_suite, args, env=envs[mode])
            if f"{n} passed" not in last.stdout:
                raise SystemExit(f"cached run: {summary_line(last)}")
            runs[mode]["cached"].append(wall)
            wall, _ = pytest_run(constant_suite, BASE, env=envs[mode])
            runs[mode]["const"].append(wall)
    print(f"  cached re-run: {totals_line(last.stdout)}")
    out: dict[str, dict[str, Any]] = {}
    for mode in modes:
        cached, const = runs[mode]["cached"], runs[mode]["const"]
        m_cached, m_const = median(cached), median(const)
        print(f"[{MODES[mode][0]}] cached re-run ({n} llmfaith assertions): {spread(cached)}")
        print(f"[{MODES[mode][0]}] constant asserts ({n} tests)          : {spread(const)}")
        out[mode] = {"cached": m_cached, "const": m_const, "cached_min": min(cached), "const_min": min(const)}
    for mode in modes:
        r = out[mode]
        extra = r["cached"] - r["const"]
        print(f"[{MODES[mode][0]:<11}] ratio cached/constant: {r['cached'] / r['const']:.2f} "
              f"(minimums {r['cached_min'] / r['const_min']:.2f}); extra {extra * 1000:.0f} ms per run, "
              f"{extra * 1000 / n:.2f} ms per assertion")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=9, help="cached and constant runs of each size")
    parser.add_argument("--assertions", type=int, default=100)
    parser.add_argument("--small", type=int, default=10, help="a second, small suite size (0: skip)")
    parser.add_argument("--bytecode", choices=("both", "on", "off"), default="both",
                        help="bytecode written (on), PYTHONDONTWRITEBYTECODE=1 (off), or both side by side")
    args = parser.parse_args()
    modes = ["on", "off"] if args.bytecode == "both" else [args.bytecode]
    print(f"cached_rerun: {machine()}")
    with tempfile.TemporaryDirectory(prefix="llmfaith-bench-") as tmp:
        root = Path(tmp)
        use_pycache_prefix(root / "pycache")
        with judge() as server:
            server.facts(supported=supported_sentences(max(args.assertions, args.small)))
            header(f"{args.assertions} assertions (judge {MODEL} on {server.url})")
            big = measure(root, server.url, args.assertions, args.repeats, modes)
            calls_after_cold = len(server.requests)
            small = None
            if args.small:
                header(f"{args.small} assertions, to split the fixed cost from the per-assertion cost")
                small = measure(root, server.url, args.small, args.repeats, modes)
            url = server.url

        if small is not None:
            header("fixed vs per-assertion cost of a cached run (two-point fit)")
            for mode in modes:
                for label, a, b in (("medians", "cached", "const"), ("minimums", "cached_min", "const_min")):
                    extra_big = big[mode][a] - big[mode][b]
                    extra_small = small[mode][a] - small[mode][b]
                    slope = (extra_big - extra_small) / (args.assertions - args.small)
                    fixed = extra_small - slope * args.small
                    print(f"[{MODES[mode][0]:<11}] from the {label + ':':<10} per cached assertion "
                          f"{slope * 1000:5.2f} ms; fixed per run {fixed * 1000:4.0f} ms")
            imports = first_use_import_ms()
            print(f"the first assertion's imports alone (pydantic, scorers, report): "
                  f"{spread(imports, 'ms', 1, 1)}")

        header("offline proof: --llm-cache=replay with the judge server stopped")
        suite = root / f"llm{args.assertions}"
        replay_args = [*BASE, *judge_args(url, "replay", root / f"cache{args.assertions}")]
        wall, proc = pytest_run(suite, replay_args, expect_rc=None)
        ok = proc.returncode == 0 and f"{args.assertions} passed" in proc.stdout
        print(f"server stopped (it answered {calls_after_cold} requests in the cold run of this suite); "
              f"replay run: exit {proc.returncode}, {summary_line(proc)}, {wall:.2f} s -> "
              f"{'OK, offline' if ok else 'FAILED'}")
        print(f"  {totals_line(proc.stdout)}")
        if not ok:
            print("\n".join(proc.stdout.splitlines()[-30:]))
            sys.exit(1)


if __name__ == "__main__":
    main()
