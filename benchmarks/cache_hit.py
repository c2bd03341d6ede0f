"""The cached hot path: what a judge-cache hit costs in-process.

One real scorer run of each scorer against the loopback judge fills a JudgeCache (a SQLite
directory in a temporary directory); then, with the judge untouched, it times thousands of
  - `Judge.ask` cache hits (each recorded step: claims, verdicts), and their parts: building the
    request and its SHA-256 key, the SQLite read, validating the stored answer;
  - whole fully-cached scores: `Hallucination(judge).run(...)`, `Faithfulness(judge).run(...)`,
    with verdicts=all (one verdict call) and verdicts=one (a call per claim, via a thread pool);
  - opening the cache store (paid once per process, on the first lookup).
Every call is timed on its own (perf_counter_ns); it prints the median and p95 in microseconds.
Issue 3 asks for well under 1 ms per hit.

    .venv/bin/python benchmarks/cache_hit.py [--iterations 3000] [--claims 5]
"""

from __future__ import annotations

import argparse
import functools
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from _common import MODEL, header, judge, machine

from pytest_llmfaith import Faithfulness, Hallucination, Judge, JudgeCache, JudgeConfig


def per_call_us(fn: Callable[[], Any], iterations: int, warmup: int = 50) -> list[float]:
    for _ in range(warmup):
        fn()
    clock = time.perf_counter_ns
    samples = []
    for _ in range(iterations):
        start = clock()
        fn()
        samples.append((clock() - start) / 1000)
    return samples


def show(label: str, samples: list[float]) -> float:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]
    med = statistics.median(samples)
    print(f"{label:<52} median {med:8.1f} µs   p95 {p95:8.1f} µs   (n={len(samples)})")
    return med


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=3000, help="timed hits per measurement")
    parser.add_argument("--claims", type=int, default=5, help="sentences (claims) in the output")
    args = parser.parse_args()
    print(f"cache_hit: {machine()}")

    claims = [f"Fact number {i} says the widget weighs {i * 7} grams." for i in range(args.claims)]
    output = " ".join(claims)
    context = [f"Passage {i}: " + " ".join(claims[i::3]) for i in range(3)]

    with judge() as server, tempfile.TemporaryDirectory(prefix="llmfaith-bench-") as tmp:
        server.facts(supported=claims)
        cache = JudgeCache(Path(tmp) / "cache", "use")
        judges = {mode: Judge(JudgeConfig(model=MODEL, api_base=server.url, verdicts=mode), cache)
                  for mode in ("all", "one")}

        recorded: list[tuple[str, Any, Any, str, Any]] = []
        for j in judges.values():
            real_ask = j.ask

            def recording(step: str, messages: Any, schema: Any, version: str, check: Any = None,
                          _ask: Callable[..., Any] = real_ask) -> Any:
                recorded.append((step, messages, schema, version, check))
                return _ask(step, messages, schema, version, check)

            j.ask = recording  # type: ignore[method-assign]
            real_each = j.ask_each

            def recording_each(step: str, conversations: Any, schema: Any, version: str,
                               _each: Callable[..., Any] = real_each) -> Any:
                recorded.extend((step, m, schema, version, None) for m in conversations)
                return _each(step, conversations, schema, version)

            j.ask_each = recording_each  # type: ignore[method-assign]

        header("filling the cache: one real run of each scorer and verdict mode (litellm import included)")
        for mode, j in judges.items():
            for scorer in (Hallucination, Faithfulness):
                started = time.perf_counter()
                result = scorer(j).run(output, context)
                spent = time.perf_counter() - started
                new = sum(not c.cached for c in result.judge_calls)
                print(f"{scorer.__name__:<13} verdicts={mode}: score {result.score:.2f}, "
                      f"{len(result.judge_calls)} calls ({new} new), {spent * 1000:.0f} ms")
        for j in judges.values():
            del j.ask, j.ask_each  # back to the real methods
        requests_before = len(server.requests)
        judge_all = judges["all"]

        header(f"Judge.ask cache hits ({args.claims} claims, {len(context)} context passages)")
        hit_medians = []
        seen = set()
        for step, messages, schema, version, check in recorded:
            ident = (step, schema.__name__ if schema else None)
            if ident in seen:
                continue
            seen.add(ident)
            answer, call = judge_all.ask(step, messages, schema, version, check)
            assert call.cached, f"{ident} was not a cache hit"
            hit = functools.partial(judge_all.ask, step, messages, schema, version, check)
            samples = per_call_us(hit, args.iterations)
            hit_medians.append(show(f"ask hit: {step} ({schema.__name__ if schema else 'text'})", samples))

        header("parts of one hit (the verdicts step of the hallucination scorer)")
        step, messages, schema, version, check = next(
            r for r in recorded if r[0] == "verdicts" and r[2].__name__.startswith("Hallucination")
            and "verdicts" in r[2].model_fields)
        key = judge_all.question(step, messages, schema, version).key
        stored = cache.get(key)
        show("schema.model_json_schema() (built once per schema, then cached)",
             per_call_us(schema.model_json_schema, args.iterations))
        show("request dict + canonical JSON + SHA-256 key",
             per_call_us(lambda: judge_all.question(step, messages, schema, version).key, args.iterations))
        show("JudgeCache.get (SQLite read + json.loads)", per_call_us(lambda: cache.get(key), args.iterations))
        show("validate the stored answer (pydantic + count check)",
             per_call_us(lambda: Judge._validate(stored["answer"], schema, check), args.iterations))

        one_verdicts = [r for r in recorded if r[0] == "verdicts" and r[2].__name__ == "HallucinationVerdict"]
        conversations = [r[1] for r in one_verdicts]
        one_schema, one_version = one_verdicts[0][2], one_verdicts[0][3]
        judge_one = judges["one"]
        show(f"{len(conversations)} one-claim verdict hits, plain loop of ask",
             per_call_us(lambda: [judge_one.ask("verdicts", m, one_schema, one_version) for m in conversations],
                         max(args.iterations // 3, 200)))
        show(f"the same {len(conversations)} hits through Judge.ask_each (thread pool)",
             per_call_us(lambda: judge_one.ask_each("verdicts", conversations, one_schema, one_version),
                         max(args.iterations // 3, 200)))

        header("a whole score, every judge call a cache hit")
        score_medians = {}
        for mode, j in judges.items():
            for scorer in (Hallucination, Faithfulness):
                s = scorer(j)
                result = s.run(output, context)
                assert all(c.cached for c in result.judge_calls)
                score_medians[(scorer.__name__, mode)] = show(
                    f"{scorer.__name__}(judge).run(...)  verdicts={mode} ({len(result.judge_calls)} hits)",
                    per_call_us(functools.partial(s.run, output, context), max(args.iterations // 3, 200)))

        header("opening the store (once per process, on the first lookup)")

        def open_and_get() -> None:
            fresh = JudgeCache(Path(tmp) / "cache", "use")
            fresh.get(key)
            fresh.close()

        show("JudgeCache(...) + first get + close", per_call_us(open_and_get, max(args.iterations // 30, 50), warmup=5))

        assert len(server.requests) == requests_before, "a cache hit reached the judge"
        cache.close()
        header("result")
        worst = max(hit_medians)
        print(f"slowest median Judge.ask hit: {worst:.1f} µs = {worst / 1000:.3f} ms "
              f"({'well under' if worst < 500 else 'NOT well under'} 1 ms); "
              f"fully cached Hallucination score (verdicts=all): {score_medians[('Hallucination', 'all')]:.0f} µs; "
              f"judge requests during timing: {len(server.requests) - requests_before}")
        if worst >= 1000:
            sys.exit(1)


if __name__ == "__main__":
    main()
