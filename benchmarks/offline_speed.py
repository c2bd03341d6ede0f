"""The offline judge's speed: this checkout against another on the example suite, or the kernel
variants this CPU runs against each other.

    git worktree add /tmp/before <commit>          # the code to compare with
    python benchmarks/offline_speed.py --before /tmp/before [--before /tmp/other] [--repeats 1] [--workers 4]
        [--variant portable]
    python benchmarks/offline_speed.py --variants [--repeats 3]

`--variants`: for each kernel variant this CPU can run and that is installed (a non-portable one
after its proof, local/kernels.py), a child process with that variant's llama_cpp first on its
path loads the model and reads a fixed set of judge-like prompts from an empty KV cache, then
generates GENERATED tokens greedily after each; prints prompt and generation tokens/s (medians)
side by side, and each variant against the portable one.

For each suite, checkout ("before", then "after" = this one) and repeat: stop that checkout's
judge server, then run the suite cold (judge cache off, no baseline) with `--llm-judge-model=local`,
and read the JSON report. The suites: each checkout's example suite (`examples/`, contexts of one
or two sentences) and this checkout's shared-context suite (`benchmarks/shared_context/`, four
passages shared by six short answers). Each checkout gets a model folder of its
own (links to the installed weights), so the two never share a server, and runs with the same
Python (this one) and llama.cpp build; `--workers N` runs it under `pytest -n N` (each worker of
a checkout that reached the offline judge through litellm imported it). Prints, per checkout: wall
time of the suite, the CPU seconds of pytest and its workers, judge calls and seconds, the mean
per call (the figure to hold to a second), a context's first call apart from its later ones, and per
step the calls, mean and median seconds, and tokens read and generated; and the ratio.
Measure on a quiet machine: two cores shared with anything else make every figure slower.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
GENERATED = 32
CONTEXT = ("Nordlicht Analytics was founded in 2011 in Hamburg and employs 400 people. Its main product, "
           "Polaris, forecasts energy demand for utilities; version 2.0 was released in September 2021. The "
           "company reported revenue of 38 million euros in 2023 and opened an office in Madrid in 2024. "
           "Customers are billed monthly; data is kept for 14 days and then deleted. ")
PROMPTS = tuple(f"Document:\n{CONTEXT * repeat}\nClaim: {claim}\nIs the claim supported by the document? "
                "Answer yes or no." for repeat, claim in [
                    (1, "Nordlicht employs 400 people."), (2, "Polaris 2.0 came out in 2020."),
                    (4, "The company keeps data for two weeks.")])


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


SUITES = {"example suite": "examples", "shared-context suite": "benchmarks/shared_context",
          "agent suite": "benchmarks/agent_suite"}
"""Where each suite is: the example suite of each checkout (it grew with the code), the
shared-context suite (four passages shared by six short answers, as RAG apps have) and the agent
suite (a travel agent's run of four tool calls, eight final answers) of this one."""
STEPS = ("claims", "facts", "names", "verdicts", "reason")


def suite_folder(suite: str, checkout: Path) -> Path:
    return (checkout if suite == "example suite" else ROOT) / SUITES[suite]


def run_suite(checkout: Path, folder: Path, models: Path, report: Path, workers: int = 0,
              variant: str | None = None) -> tuple[float, float]:
    """The suite's wall time and the CPU seconds of pytest and its xdist workers (not the server's)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("LLMFAITH_")}
    env.update(LLMFAITH_MODEL_DIR=str(models), PYTHONPATH=str(checkout), NO_COLOR="1",
               LLMFAITH_LOCAL_IDLE_TIMEOUT="5", **({"LLMFAITH_LOCAL_VARIANT": variant} if variant else {}))
    stop = [sys.executable, "-m", "pytest_llmfaith", "local", "stop"]
    subprocess.run(stop, env=env, cwd=checkout, capture_output=True, check=False)
    started, cpu = time.perf_counter(), resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--llm-cache=off",
         "--llm-judge-model=local", "-o", "llm_baseline=", f"--llm-report={report}",
         *(["-n", str(workers)] if workers else [])],
        cwd=folder, env=env, capture_output=True, text=True, check=False)
    wall, used = time.perf_counter() - started, resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu_s = used.ru_utime - cpu.ru_utime + used.ru_stime - cpu.ru_stime  # the server was started detached
    subprocess.run(stop, env=env, cwd=checkout, capture_output=True, check=False)
    if not report.exists():
        raise SystemExit(f"{checkout}: {folder} wrote no report:\n{done.stdout[-3000:]}{done.stderr[-2000:]}")
    return wall, cpu_s


def figures(report: Path, wall: float, cpu_s: float) -> dict[str, float]:
    """The suite's figures, per step too; a context's first call apart from its later ones (it
    reads the whole context, the later ones find it cached)."""
    data = json.loads(report.read_text())
    calls, first, later, seen = [], [], [], set()
    for result in data["results"]:
        context = tuple(result["result"]["context"])
        for call in result["result"]["judge_calls"]:
            if call["cached"]:
                continue
            calls.append(call)
            if call["step"] != "claims":  # every other step reads the context
                (later if context in seen else first).append(call["latency_s"])
                seen.add(context)
    judge_s = sum(c["latency_s"] for c in calls)
    row: dict[str, float] = {
        "wall_s": wall, "cpu_s": cpu_s, "scores": len(data["results"]), "judge_calls": len(calls),
        "judge_s": judge_s, "mean_s": judge_s / len(calls) if calls else 0.0,
        "calls_per_score": len(calls) / len(data["results"]), "s_per_score": judge_s / len(data["results"]),
        "first_n": len(first), "first_mean_s": statistics.fmean(first) if first else 0.0,
        "later_mean_s": statistics.fmean(later) if later else 0.0,
    }
    for step in STEPS:
        mine = [c for c in calls if c["step"] == step]
        seconds = [c["latency_s"] for c in mine]
        row.update({
            f"{step}_calls": len(mine),
            f"{step}_mean_s": statistics.fmean(seconds) if seconds else 0.0,
            f"{step}_median_s": statistics.median(seconds) if seconds else 0.0,
            f"{step}_read": statistics.fmean(c.get("prompt_tokens") or 0 for c in mine) if mine else 0.0,
            f"{step}_written": statistics.fmean(c.get("completion_tokens") or 0 for c in mine) if mine else 0.0,
        })
    return row


ROWS = [("suite, cold (s)", "wall_s", "{:.1f}"), ("CPU s, pytest and workers", "cpu_s", "{:.1f}"),
        ("scores", "scores", "{:.0f}"), ("judge calls", "judge_calls", "{:.0f}"),
        ("judge calls per assertion", "calls_per_score", "{:.1f}"),
        ("judge seconds per assertion", "s_per_score", "{:.1f}"),
        ("judge seconds in all", "judge_s", "{:.1f}"), ("mean s per judge call", "mean_s", "{:.2f}"),
        ("first call of a context, mean s", "first_mean_s", "{:.2f}"),
        ("  (contexts)", "first_n", "{:.0f}"), ("later context calls, mean s", "later_mean_s", "{:.2f}")] + [
    row for step in STEPS for row in (
        (f"{step}: calls", f"{step}_calls", "{:.0f}"), ("  mean s", f"{step}_mean_s", "{:.2f}"),
        ("  median s", f"{step}_median_s", "{:.2f}"), ("  tokens read, mean", f"{step}_read", "{:.0f}"),
        ("  tokens generated, mean", f"{step}_written", "{:.1f}"))]


def measure_here(model: Path, repeats: int) -> dict[str, float]:
    """In the child: the median prompt and generation tokens/s of this process's llama_cpp."""
    from llama_cpp import Llama

    threads = os.cpu_count() or 2
    llm = Llama(model_path=str(model), n_ctx=4096, n_threads=threads, n_threads_batch=threads, verbose=False)
    reading, writing = [], []
    for round_ in range(repeats + 1):  # the first round warms up and is not counted
        for prompt in PROMPTS:
            tokens = llm.tokenize(prompt.encode())
            llm.reset()  # type: ignore[no-untyped-call]  # llama_cpp leaves it unannotated
            started = time.perf_counter()
            tokens_out = llm.generate(tokens, temp=0.0)
            next(tokens_out)
            read = time.perf_counter()
            for _ in range(GENERATED - 1):
                next(tokens_out)
            written = time.perf_counter()
            if round_:
                reading.append(len(tokens) / (read - started))
                writing.append((GENERATED - 1) / (written - read))
    return {"prompt_tps": statistics.median(reading), "generation_tps": statistics.median(writing),
            "prompt_tokens": float(sum(len(llm.tokenize(p.encode())) for p in PROMPTS))}


def measure_variants(repeats: int) -> None:
    """Each usable, installed (and, if not portable, proven) variant in a child process of its own."""
    from pytest_llmfaith.local.kernels import prove, this_cpu, usable_variants
    from pytest_llmfaith.local.weights import default_model_path
    from pytest_llmfaith.processes.children import PACKAGE_ROOT

    model, cpu = default_model_path(), this_cpu()
    results: dict[str, dict[str, float]] = {}
    for variant in usable_variants(cpu.flags):
        if not variant.installed():
            print(f"{variant.name}: not installed ({variant.folder()}); skipped", file=sys.stderr)
            continue
        if not variant.portable and not (proof := prove(variant, model)).ok:
            print(f"{variant.name}: failed its proof on this CPU ({proof.how}); skipped", file=sys.stderr)
            continue
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(variant.folder()), PACKAGE_ROOT,
                                                                         os.environ.get("PYTHONPATH")]))}
        done = subprocess.run([sys.executable, __file__, "--measure", str(model), "--repeats", str(repeats)],
                              env=env, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise SystemExit(f"{variant.name}: the measurement failed:\n{done.stderr[-2000:]}")
        results[variant.name] = json.loads(done.stdout.strip().splitlines()[-1])
        print(f"{variant.name}: measured", file=sys.stderr, flush=True)
    if not results:
        raise SystemExit("no kernel variant could be measured: install the offline judge first")
    print(f"\nCPU: {cpu.model}, {os.cpu_count()} threads; {len(PROMPTS)} prompts "
          f"({results[next(iter(results))]['prompt_tokens']:.0f} tokens) x {repeats}, {GENERATED} tokens "
          "generated after each; medians")
    names = list(results)
    print(f"{'tokens/s':<20} " + " ".join(f"{name:>10}" for name in names) + "".join(
        f" {name + '/portable':>18}" for name in names if name != "portable"))
    for label, key in (("prompt reading", "prompt_tps"), ("generation", "generation_tps")):
        base = results.get("portable", {}).get(key)
        ratios = "".join(f" {(results[n][key] / base if base else 0):>17.2f}x" for n in names if n != "portable")
        print(f"{label:<20} " + " ".join(f"{results[n][key]:>10.1f}" for n in names) + ratios)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, action="append",
                        help="a checkout of the code to compare with (repeat for several)")
    parser.add_argument("--variants", action="store_true",
                        help="compare the kernel variants this CPU runs instead (prompt and generation tokens/s)")
    parser.add_argument("--measure", type=Path, help=argparse.SUPPRESS)  # the child of --variants
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--suite", choices=SUITES, action="append", help="only these suites (default: all)")
    parser.add_argument("--workers", type=int, default=0, help="run the example suite with pytest -n WORKERS")
    parser.add_argument("--variant", help="the kernels both sides run (e.g. portable: the AVX2 figure); "
                                          "default: what each side chooses")
    args = parser.parse_args()
    if args.measure is not None:
        print(json.dumps(measure_here(args.measure, args.repeats)))
        return
    if args.variants:
        measure_variants(args.repeats)
        return
    if not args.before:
        parser.error("give --before CHECKOUT (the code to compare with) or --variants")
    sides = {checkout_name(path.resolve()): path.resolve() for path in args.before} | {"after": ROOT}
    suites = args.suite or list(SUITES)
    results: dict[tuple[str, str], list[dict[str, float]]] = {}
    with tempfile.TemporaryDirectory(prefix="llmfaith-speed-") as scratch:
        for repeat in range(args.repeats):
            for suite in suites:
                for name, checkout in sides.items():
                    report = Path(scratch) / f"{name}-{len(results)}-{repeat}.json"
                    folder = suite_folder(suite, checkout)
                    wall, cpu_s = run_suite(checkout, folder, model_folder(Path(scratch), name), report, args.workers,
                                            args.variant)
                    results.setdefault((suite, name), []).append(figures(report, wall, cpu_s))
                    print(f"{suite}, {name} run {repeat + 1}: {wall:.1f} s", file=sys.stderr, flush=True)
    befores = [name for name in sides if name != "after"]
    for suite in suites:
        print(f"\n{suite} ({SUITES[suite]}), median of {args.repeats}")
        print(f"{'':<34} " + " ".join(f"{n:>10} {'/after':>8}" for n in befores) + f" {'after':>10}")
        for label, key, fmt in ROWS:
            after = statistics.median(r[key] for r in results[(suite, "after")])
            cells = []
            for name in befores:
                before = statistics.median(r[key] for r in results[(suite, name)])
                cells.append(f"{fmt.format(before):>10} {(f'{before / after:.2f}x' if after else '-'):>8}")
            print(f"{label:<34} " + " ".join(cells) + f" {fmt.format(after):>10}")


def checkout_name(path: Path) -> str:
    """The checkout's short commit, so the columns say which code they measured."""
    done = subprocess.run(["git", "-C", str(path), "rev-parse", "--short", "HEAD"], capture_output=True,
                          text=True, check=False)
    return done.stdout.strip() or path.name


if __name__ == "__main__":
    main()
