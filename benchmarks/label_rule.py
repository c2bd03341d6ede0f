"""Which rule decides a claim from its two label answers, measured on benchmarks/labelled/ (issue 35.3).

    python benchmarks/label_rule.py                 # offline judge; answers cached in benchmarks/.cache/judge
    python benchmarks/label_rule.py --model openai/x --api-base http://127.0.0.1:8000/v1

Asks both label questions (supported? contradicted?) of every claim: the claim items as they are,
and each sentence of every answer item as a claim (an answer passes when all its sentences are
supported: the pipeline without its claims step, whose answers are the expensive part). Then it
compares the rules on the same answers: the rule before (supported from P(supported) 0.70, else
contradicted from P(contradicted) 0.50: the contradiction wins a tie of two high answers) and the
rule now (scorers/labels.py: two high answers are "unsure", resolved by their margin, chosen on
the dev part). Prints balanced accuracy per part, source and language, and the pass rate of the
faithful paraphrases, before and after, side by side.
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _labelled import balanced_accuracy, hash_order, load_items  # noqa: E402

from pytest_llmfaith import Judge, JudgeCache, JudgeConfig  # noqa: E402
from pytest_llmfaith.judge.question import NextToken, p_yes  # noqa: E402
from pytest_llmfaith.scorers import labels  # noqa: E402
from pytest_llmfaith.text.sentences import sentences  # noqa: E402

HERE = Path(__file__).resolve().parent
Rule = Callable[[float, float], bool]


def before(p_supported: float, p_contradicted: float) -> bool:
    """Supported at 0.70; below, a contradiction at 0.50 decides (the order of the checks)."""
    return p_supported >= 0.7


def now(p_supported: float, p_contradicted: float) -> bool:
    """scorers/labels.py's Label.supported on the same two numbers."""
    return labels.Label(p_supported, p_contradicted, "").supported


def band(supported_from: float, margin: float) -> Rule:
    """A variant of the rule now: supported from `supported_from` unless P(contradicted) stands
    `margin` or more above P(supported) (both at 2 digits)."""
    def rule(p_supported: float, p_contradicted: float) -> bool:
        return p_supported >= labels.SUPPORTED_AT or (
            p_supported >= supported_from and round(p_contradicted, 2) - round(p_supported, 2) < margin - 1e-9)
    return rule


VARIANTS = {f"from {f:.2f}, margin {m:.2f}": band(f, m) for f in (0.60, 0.65) for m in (0.06, 0.05, 0.02, 0.01)}
"""--variants: the neighbours of the rule now (0.60, 0.05), on the same answers."""


def ask(judge: Judge, claim: str, context: list[str]) -> tuple[float, float]:
    found = []
    for task in (labels.SUPPORT, labels.CONTRADICT):
        answer, _ = judge.ask("verdicts", labels.messages(task, context, claim), NextToken, labels.VERSION)
        found.append(p_yes(answer))  # type: ignore[arg-type]
    return found[0], found[1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--model", default="local")
    parser.add_argument("--api-base")
    parser.add_argument("--cache-dir", default=str(HERE / ".cache" / "judge"))
    parser.add_argument("--limit", type=int, default=0, help="items per source and part (0: all)")
    parser.add_argument("--max-context", type=int, default=0,
                        help="only items whose context has at most this many characters (0: any)")
    parser.add_argument("--variants", action="store_true", help="also the rule's neighbours (VARIANTS)")
    args = parser.parse_args()
    judge = Judge(JudgeConfig(model=args.model, api_base=args.api_base), JudgeCache(Path(args.cache_dir), "use"))
    rows = []  # (item, [(p_supported, p_contradicted) per claim])
    taken: dict[tuple[str, str], int] = defaultdict(int)
    for item in sorted(load_items(), key=lambda it: hash_order(it["id"])):
        long = args.max_context and sum(map(len, item["context"])) > args.max_context
        if item["no_claims"] or long or (args.limit and taken[item["source"], item["split"]] >= args.limit):
            continue
        taken[item["source"], item["split"]] += 1
        claims = [item["output"]] if item["unit"] == "claim" else sentences(item["output"])
        rows.append((item, [ask(judge, claim, item["context"]) for claim in claims]))
        print(f"\r{len(rows)} items", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    groups: dict[str, list[tuple[dict, list[tuple[float, float]]]]] = defaultdict(list)
    for item, found in rows:
        for key in ("all", f"{item['unit']} {item['split']}", f"source {item['source']}",
                    f"lang {item.get('lang', 'en')}"):
            groups[key].append((item, found))
    print(f"{'group':<32} {'n':>4} {'before':>7} {'now':>7}   balanced accuracy; an answer passes when every "
          "sentence is supported")
    for key in sorted(groups, key=lambda k: (k != "all", k)):
        picked = groups[key]
        truth = [item["faithful"] for item, _ in picked]
        figures = [balanced_accuracy(truth, [all(rule(s, c) for s, c in found) for _, found in picked])
                   for rule in (before, now)]
        shown = ["   n/a" if f is None else f"{f:7.3f}" for f in figures]
        print(f"{key:<32} {len(picked):>4} {shown[0]} {shown[1]}")
    paraphrases = [found for item, found in rows if item["kind"] == "paraphrase" and item["faithful"]]
    rules = {"before": before, "now": now, **(VARIANTS if args.variants else {})}
    if args.variants:
        parts = sorted(k for k in groups if k == "all" or k.startswith(("claim ", "answer ")))
        print(f"\n{'rule':<26}" + "".join(f"{k:>12}" for k in parts))
        for name, rule in rules.items():
            figures = [balanced_accuracy([item["faithful"] for item, _ in groups[k]],
                                         [all(rule(s, c) for s, c in found) for _, found in groups[k]]) for k in parts]
            print(f"{name:<26}" + "".join("         n/a" if f is None else f"{f:12.3f}" for f in figures))
    for name, rule in rules.items():
        passed = sum(all(rule(s, c) for s, c in found) for found in paraphrases)
        print(f"faithful paraphrases passing, {name}: {passed} of {len(paraphrases)}")
    both_high = sum(0.5 <= s < 0.7 and c >= 0.5 for _, found in rows for s, c in found)
    print(f"claims whose two answers are both high (P(supported) 0.50-0.70, P(contradicted) >= 0.50): {both_high}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
