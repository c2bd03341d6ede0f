"""How well the two scorers separate faithful from unfaithful outputs, end to end, on benchmarks/labelled/.

    python benchmarks/scorer_accuracy.py                        # test split, offline judge ("local")
    python benchmarks/scorer_accuracy.py --split dev --limit 10 # 10 items per source, dev split
    python benchmarks/scorer_accuracy.py --model openai/gpt-4o-mini --json runs/gpt4o-mini.json
    python benchmarks/scorer_accuracy.py --model openai/x --api-base http://127.0.0.1:8000/v1
    python benchmarks/scorer_accuracy.py --compare runs/before.json runs/after.json   # no judge

Runs both scorers (claims, then verdicts, then the score) on every item of
benchmarks/labelled/*.jsonl (see benchmarks/labelled/README.md) and on Mastra's own scorer test
cases (labelled/mastra_cases.jsonl), then prints:

- balanced accuracy (faithful vs not) at two fixed thresholds: "strict" (faithfulness >= 1.0,
  hallucination <= 0.0 predict faithful) and "loose" (>= 0.7, <= 0.3); ROC AUC from the raw score
  (faithfulness; 1 - hallucination). Overall, per unit (claim / answer), per language (an item's
  `lang`, English when it has none), per source, per kind.
  A group with one class only shows its plain accuracy, marked "*", and no AUC.
- confusion counts with POSITIVE = UNFAITHFUL (tp = unfaithful item flagged, fn = unfaithful item
  passed, tn = faithful item passed, fp = faithful item flagged);
- refusal / no-claims items apart (not in the figures above): how many came out with zero claims;
- Mastra cases: how many scores are within the test's tolerance, per scorer;
- median seconds per claims call and per verdict call (real calls only), and the total.

A scorer that raises on an item (judge error) is counted and listed, and the item is left out of
that scorer's figures. The judge cache (default benchmarks/.cache/judge, git-ignored) makes re-runs
free; --no-cache makes every call real (for timing).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import defaultdict
from datetime import datetime, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _labelled import (  # noqa: E402
    LABELLED,
    THRESHOLDS,
    balanced_accuracy,
    class_accuracy,
    confusion,
    faithful_score,
    hash_order,
    load_items,
    load_mastra,
    median,
    predicts_faithful,
    roc_auc,
)

from pytest_llmfaith.selfcheck.judge_check import score_item as run_one  # noqa: E402  (shared with the self-check)

HERE = Path(__file__).resolve().parent
SCORERS = ("faithfulness", "hallucination")


# -- running --------------------------------------------------------------------------------
def select(items: list[dict], split: str, sources: set[str] | None, limit: int | None) -> list[dict]:
    chosen = [it for it in items if (split == "all" or it["split"] == split)
              and (sources is None or it["source"].lower() in sources)]
    if limit:
        by_source: dict[str, list[dict]] = defaultdict(list)
        for it in sorted(chosen, key=lambda it: hash_order(it["id"])):
            if len(by_source[it["source"]]) < limit:
                by_source[it["source"]].append(it)
        keep = {it["id"] for group in by_source.values() for it in group}
        chosen = [it for it in chosen if it["id"] in keep]
    return chosen


def run(args: argparse.Namespace) -> dict:
    from pytest_llmfaith import Faithfulness, Hallucination, Judge, JudgeCache, JudgeConfig

    sources = {s.strip().lower() for s in args.sources.split(",")} if args.sources else None
    names = [s.strip() for s in args.scorers.split(",")] if args.scorers else list(SCORERS)
    for name in names:
        if name not in SCORERS:
            sys.exit(f"unknown scorer {name!r}; choose from {', '.join(SCORERS)}")
    items = select(load_items(args.labelled), args.split, sources, args.limit)
    mastra = [c for c in load_mastra(args.labelled) if c["scorer"] in names] \
        if sources is None or "mastra" in sources else []
    if args.limit:
        mastra = [c for name in names for c in [m for m in mastra if m["scorer"] == name][: args.limit]]

    cache = JudgeCache(None, "off") if args.no_cache else JudgeCache(args.cache_dir, "use")
    judge = Judge(JudgeConfig(model=args.model, api_base=args.api_base), cache)
    scorers = {"faithfulness": Faithfulness(judge), "hallucination": Hallucination(judge)}
    print(f"{len(items)} items ({args.split} split) + {len(mastra)} Mastra cases, scorers {', '.join(names)}, "
          f"judge {args.model}, cache {'off' if args.no_cache else args.cache_dir}", flush=True)

    started = time.perf_counter()
    rows = []
    for n, item in enumerate(items, 1):
        row = {k: item[k] for k in ("id", "source", "unit", "kind", "split", "faithful", "no_claims")}
        row["lang"] = item.get("lang", "en")
        for name in names:
            row[name] = run_one(scorers[name], item["output"], item["context"])
        rows.append(row)
        if args.verbose:
            print_item_line(row, names)
        elif n % 25 == 0:
            print(f"  {n}/{len(items)} items, {time.perf_counter() - started:.0f} s", flush=True)
    mastra_rows = []
    for case in mastra:
        got = run_one(scorers[case["scorer"]], case["output"], case["context"])
        mastra_rows.append({k: case[k] for k in ("id", "scorer", "expected", "tolerance")}
                           | {"matcher": case.get("matcher", ""), "result": got})
        if args.verbose:
            score = "ERR" if got["score"] is None else f"{got['score']:.2f}"
            print(f"{case['id']:<28} want {case['expected']:.2f} got {score}", flush=True)
    return {
        "meta": {"model": args.model, "api_base": args.api_base, "split": args.split, "sources": args.sources,
                 "limit": args.limit, "scorers": names,
                 "when": datetime.now(timezone.utc).isoformat(timespec="seconds"),
                 "wall_s": round(time.perf_counter() - started, 1)},
        "items": rows, "mastra": mastra_rows,
    }


def print_item_line(row: dict, names: list[str]) -> None:
    parts = []
    for name in names:
        r = row[name]
        score = "ERR " if r["score"] is None else f"{r['score']:.2f}"
        claims = "-" if r["claims"] is None else r["claims"]
        parts.append(f"{name[:5]} {score} ({claims} cl)")
    head = f"{row['id'][:34]:<34} {row['kind'][:16]:<16} {'F' if row['faithful'] else 'U'}  "
    print(head + "  ".join(parts), flush=True)


# -- figures ----------------------------------------------------------------------------------
def scored(rows: list[dict], name: str) -> list[dict]:
    """Rows this scorer produced a score for, refusals / no-claims items excluded."""
    return [r for r in rows if name in r and not r["no_claims"] and r[name]["score"] is not None]


def group_figures(rows: list[dict], name: str, with_confusion: bool) -> dict[str, str]:
    ok = scored(rows, name)
    labels = [r["faithful"] for r in ok]
    fig = {"n": str(len(ok)), "unfaithful": str(sum(not truth for truth in labels))}
    for thr, *_ in THRESHOLDS:
        preds = [predicts_faithful(name, r[name]["score"], thr) for r in ok]
        ba = balanced_accuracy(labels, preds)
        if ba is not None:
            fig[f"BA {thr}"] = f"{ba:.2f}"
        else:
            acc = class_accuracy(labels, preds)
            fig[f"BA {thr}"] = "-" if acc is None else f"{acc:.2f}*"
        if with_confusion:
            c = confusion(labels, preds)
            fig[f"tp/fn/tn/fp {thr}"] = f"{c['tp']}/{c['fn']}/{c['tn']}/{c['fp']}"
    auc = roc_auc([faithful_score(name, r[name]["score"]) for r in ok], labels)
    fig["AUC"] = "-" if auc is None else f"{auc:.2f}"
    return fig


def figures(result: dict) -> list[tuple[str, str, str, dict[str, str]]]:
    """Every printed figure as (section, group, scorer, {column: value})."""
    rows, names = result["items"], result["meta"]["scorers"]
    out = []
    groups = [("overall", "all", rows, True)]
    for key, section in (("unit", "unit"), ("lang", "language"), ("source", "source"), ("kind", "kind")):
        for value in sorted({r.get(key, "en") for r in rows}):  # runs saved before "lang" are English
            groups.append((section, value, [r for r in rows if r.get(key, "en") == value], section == "unit"))
    for section, value, subset, conf in groups:
        for name in names:
            if scored(subset, name):
                out.append((section, value, name, group_figures(subset, name, conf)))
    for name in names:  # refusals / no-claims items
        nc = [r for r in rows if r["no_claims"] and name in r]
        if nc:
            zero = sum(1 for r in nc if r[name]["claims"] == 0)
            err = sum(1 for r in nc if r[name]["score"] is None)
            scores = [r[name]["score"] for r in nc if r[name]["score"] is not None]
            out.append(("no-claims", "refusal etc.", name, {
                "n": str(len(nc)), "zero claims": f"{zero}/{len(nc)}", "errors": str(err),
                "mean score": "-" if not scores else f"{sum(scores) / len(scores):.2f}"}))
    for name in names:  # Mastra cases
        cases = [m for m in result["mastra"] if m["scorer"] == name]
        if cases:
            within = sum(1 for m in cases if within_tolerance(m))
            err = sum(1 for m in cases if m["result"]["score"] is None)
            out.append(("mastra", "cases", name, {"within tolerance": f"{within}/{len(cases)}", "errors": str(err)}))
    for name in names:  # judge errors
        errs = [r for r in rows if name in r and r[name]["score"] is None]
        out.append(("errors", "judge errors", name, {"items": f"{len(errs)}/{sum(1 for r in rows if name in r)}"}))
    calls = [c for r in rows for name in names if name in r for c in r[name]["calls"]]
    calls += [c for m in result["mastra"] for c in m["result"]["calls"]]
    timing: dict[str, str] = {}
    for step in ("claims", "verdicts"):
        real = [c["latency_s"] for c in calls if c["step"] == step and not c["cached"]]
        med = median(real)
        timing[f"median s/{step} call"] = "-" if med is None else f"{med:.2f}"
        timing[f"real {step} calls"] = str(len(real))
    timing["cached calls"] = str(sum(c["cached"] for c in calls))
    timing["total s"] = f"{result['meta'].get('wall_s', 0):.0f}"
    out.append(("timing", "judge", "both", timing))
    return out


def within_tolerance(case: dict) -> bool:
    score = case["result"]["score"]
    if score is None:
        return False
    diff = abs(score - case["expected"])
    return diff <= 1e-9 if case["tolerance"] == 0 else diff < case["tolerance"] + 1e-9


def print_report(result: dict) -> None:
    meta = result["meta"]
    print(f"\njudge {meta['model']}, split {meta['split']}, {len(result['items'])} items, "
          f"{len(result['mastra'])} Mastra cases, {meta.get('wall_s', 0):.0f} s")
    print("BA = balanced accuracy (faithful vs not); 'strict' = faith >= 1.0 / halluc <= 0.0 predicts faithful, "
          "'loose' = >= 0.7 / <= 0.3;\n* = one class only: plain accuracy; tp/fn/tn/fp with POSITIVE = UNFAITHFUL; "
          "AUC from faithfulness and 1 - hallucination.")
    section = None
    for sec, group, name, fig in figures(result):
        if sec != section:
            section = sec
            print(f"\n[{sec}]")
        cells = "  ".join(f"{k} {v}" for k, v in fig.items())
        print(f"  {group[:24]:<24} {name[:13]:<13} {cells}")
    print_claims_kept(result)
    errs = [(r["id"], n, r[n]["error"]) for r in result["items"] for n in meta["scorers"] if n in r and r[n]["error"]]
    errs += [(m["id"], m["scorer"], m["result"]["error"]) for m in result["mastra"] if m["result"]["error"]]
    for item_id, name, error in errs[:10]:
        print(f"  error: {item_id} ({name}): {error}")
    if len(errs) > 10:
        print(f"  ... and {len(errs) - 10} more errors (see --json)")


def print_claims_kept(result: dict) -> None:
    """Per language: how many of the judge's claims quoted the output's own words (kept, not
    replaced by their sentence), and how many sentences were judged whole."""
    kept: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    for item in result["items"]:
        got = item.get("faithfulness") or {}
        if "answered" not in got:  # a run before the words-in-claims change
            continue
        row = kept[item.get("lang") or "en"]
        row[0] += got["answered"]
        row[1] += got["kept"]
        row[2] += len(got.get("verdicts") or []) - got["kept"]
    if kept:
        print("\n[claims kept]  (the judge's claims whose words are the output's / sentences judged whole)")
        for lang, (answered, found, whole) in sorted(kept.items()):
            share = f"{found / answered:.2f}" if answered else "-"
            print(f"  {lang:<24} answered {answered:>3}  kept {found:>3} ({share})  sentences judged whole {whole}")


def print_compare(before: dict, after: dict, a_name: str, b_name: str) -> None:
    fb = {(s, g, n, k): v for s, g, n, fig in figures(before) for k, v in fig.items()}
    fa = {(s, g, n, k): v for s, g, n, fig in figures(after) for k, v in fig.items()}
    keys = list(dict.fromkeys([*fb, *fa]))
    for label, res, name in (("before", before, a_name), ("after", after, b_name)):
        m = res["meta"]
        print(f"{label}: {name}: judge {m['model']}, split {m['split']}, {len(res['items'])} items, "
              f"{m.get('when', '')}")
    print(f"\n{'section':<10} {'group':<24} {'scorer':<13} {'figure':<22} {'before':>12} {'after':>12}")
    for key in keys:
        s, g, n, k = key
        print(f"{s:<10} {g[:24]:<24} {n[:13]:<13} {k:<22} {fb.get(key, ''):>12} {fa.get(key, ''):>12}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--split", choices=("dev", "test", "all"), default="test")
    parser.add_argument("--model", default="local", help="judge model (default: the offline judge, 'local')")
    parser.add_argument("--api-base")
    parser.add_argument("--cache-dir", type=Path, default=HERE / ".cache" / "judge",
                        help="judge cache directory (default benchmarks/.cache/judge; re-runs are free)")
    parser.add_argument("--no-cache", action="store_true", help="every judge call real (timing runs)")
    parser.add_argument("--limit", type=int, help="at most N items per source (a fixed, mixed sample)")
    parser.add_argument("--sources", help="comma-separated source names (e.g. WiCE,BEGIN,llmfaith-rag,mastra)")
    parser.add_argument("--scorers", help="comma-separated: faithfulness,hallucination (default both)")
    parser.add_argument("--labelled", type=Path, default=LABELLED, help=argparse.SUPPRESS)
    parser.add_argument("--json", type=Path, help="write the per-item scores (and the run's settings) here")
    parser.add_argument("--compare", nargs=2, type=Path, metavar=("BEFORE.json", "AFTER.json"),
                        help="print two earlier --json runs side by side; calls no judge")
    parser.add_argument("--verbose", "-v", action="store_true", help="one line per item")
    args = parser.parse_args()

    if args.compare:
        a, b = (json.loads(p.read_text()) for p in args.compare)
        print_compare(a, b, str(args.compare[0]), str(args.compare[1]))
        return
    result = run(args)
    print_report(result)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(result, indent=1) + "\n")
        print(f"\nper-item scores written to {args.json}")


if __name__ == "__main__":
    main()
