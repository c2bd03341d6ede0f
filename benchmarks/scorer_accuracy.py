"""How the two scorers do, end to end (claims + verdicts + score), on the labelled set.

    python benchmarks/scorer_accuracy.py                       # the offline judge ("local")
    python benchmarks/scorer_accuracy.py --model openai/gpt-4o-mini
    python benchmarks/scorer_accuracy.py --model openai/x --api-base http://127.0.0.1:8000/v1

Each item of benchmarks/labelled_set.jsonl has a context, an output and the spec's right
faithfulness and hallucination scores. Prints per item the expected and the judged scores, then:
exact score matches, mean absolute error, how often a default threshold (faithfulness >= 0.7,
hallucination <= 0.3) gives the right pass/fail, claims counts, and median seconds per claims
call and per verdict call. The judge cache is off (every call is real) unless --cache-dir is given.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections import defaultdict
from pathlib import Path

from pytest_llmfaith import Faithfulness, Hallucination, Judge, JudgeCache, JudgeConfig

HERE = Path(__file__).resolve().parent
THRESHOLDS = {"faithfulness": (0.7, True), "hallucination": (0.3, False)}


def passes(scorer: str, score: float) -> bool:
    limit, higher = THRESHOLDS[scorer]
    return score >= limit if higher else score <= limit


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="local")
    parser.add_argument("--api-base")
    parser.add_argument("--cache-dir", type=Path, help="reuse judge answers from this cache directory")
    parser.add_argument("--limit", type=int, help="only the first N items")
    parser.add_argument("--json", type=Path, help="also write the per-item results here")
    args = parser.parse_args()

    items = [json.loads(line) for line in (HERE / "labelled_set.jsonl").read_text().splitlines() if line.strip()]
    items = items[: args.limit] if args.limit else items
    cache = JudgeCache(args.cache_dir, "use") if args.cache_dir else JudgeCache(None, "off")
    judge = Judge(JudgeConfig(model=args.model, api_base=args.api_base), cache)
    scorers = {"faithfulness": Faithfulness(judge), "hallucination": Hallucination(judge)}

    latencies: dict[str, list[float]] = defaultdict(list)
    exact: dict[str, int] = defaultdict(int)
    gate_right: dict[str, int] = defaultdict(int)
    errors: dict[str, list[float]] = defaultdict(list)
    by_kind: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    rows = []
    started = time.perf_counter()
    print(f"{'item':<34} {'kind':<22} {'claims':>6}  {'faith want/got':>14}  {'halluc want/got':>15}")
    for item in items:
        got = {}
        for name, scorer in scorers.items():
            result = scorer.run(item["output"], item["context"])
            got[name] = result.score
            for call in result.judge_calls:
                if not call.cached:
                    latencies[call.step].append(call.latency_s)
            want = item[name]
            exact[name] += abs(result.score - want) < 0.005
            errors[name].append(abs(result.score - want))
            right = passes(name, result.score) == passes(name, want)
            gate_right[name] += right
            by_kind[item["kind"]][0] += right
            by_kind[item["kind"]][1] += 1
        claims = len(result.claims)
        rows.append({"id": item["id"], "kind": item["kind"], "claims": claims, "expected_claims": item["claims_expected"],
                     **{f"{k}_want": item[k] for k in scorers}, **{f"{k}_got": v for k, v in got.items()}})
        print(f"{item['id'][:34]:<34} {item['kind']:<22} {claims:>3}/{item['claims_expected']:<2}  "
              f"{item['faithfulness']:>6.2f}/{got['faithfulness']:<6.2f}  {item['hallucination']:>7.2f}/{got['hallucination']:<6.2f}",
              flush=True)

    n = len(items)
    print(f"\n{n} items, judge {args.model}, {time.perf_counter() - started:.0f} s in all")
    for name in scorers:
        print(f"{name:<14} exact score {exact[name]}/{n}, mean abs error {statistics.mean(errors[name]):.3f}, "
              f"right pass/fail at the default threshold {gate_right[name]}/{n}")
    print("right pass/fail by kind (both scorers): " + ", ".join(
        f"{kind} {right}/{total}" for kind, (right, total) in sorted(by_kind.items())))
    for step, values in sorted(latencies.items()):
        print(f"median seconds per {step} call: {statistics.median(values):.2f} (n={len(values)}, max {max(values):.1f})")
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1) + "\n")


if __name__ == "__main__":
    main()
