"""How many long answers are judged claim by claim: the claims step alone, run on the labelled
set's summaries (SummEval, XSumFaith; English, 3-10 sentences), this checkout against another.

    git worktree add /tmp/before <commit>
    python benchmarks/claims_kept.py [--before /tmp/before] [--split test] [--model local]

A claim is kept when its words are the output's (the words-only claims); an answer is judged
claim by claim when some of its claims are kept, and wholly so when no sentence is judged whole
beside them. Each checkout runs in its own process (`--before` puts it first on the path) with a
judge cache of its own, and the figures print side by side.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from _labelled import LABELLED, load_items  # noqa: E402

SOURCES = ("SummEval", "XSumFaith")
FIGURES = (("answers", "answers"), ("answers with claims kept", "with_claims"),
           ("answers with no sentence judged whole", "by_claim"),
           ("claims the judge listed", "answered"), ("claims kept (the output's words)", "kept"),
           ("sentences judged whole beside them", "whole"), ("claims calls", "calls"))


def measure(split: str, model: str, cache: Path) -> dict[str, int]:
    """The claims step on every summary of `split`, with the code first on the path."""
    from pytest_llmfaith import Judge, JudgeCache, JudgeConfig
    from pytest_llmfaith.scorers.claims import read_claims

    judge = Judge(JudgeConfig(model=model), JudgeCache(cache, "use"))
    totals = dict.fromkeys(("answers", "with_claims", "by_claim", "answered", "kept", "whole", "calls"), 0)
    for item in load_items(LABELLED):
        if item["source"] not in SOURCES or item["split"] != split or item["unit"] != "answer":
            continue
        read = read_claims(judge, item["output"])
        items = [*read.judged, *getattr(read, "sentences", [])]  # earlier code kept sentences in `judged`
        whole = sum(1 for s in items if s.whole)
        kept = len(items) - whole
        totals["answers"] += 1
        totals["with_claims"] += kept > 0
        totals["by_claim"] += kept > 0 and whole == 0
        totals["answered"] += len(read.answered)
        totals["kept"] += kept
        totals["whole"] += whole
        totals["calls"] += sum(not c.cached for c in read.calls)
    return totals


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, help="another checkout (a git worktree) to compare with")
    parser.add_argument("--split", choices=("dev", "test", "all"), default="test")
    parser.add_argument("--model", default="local")
    parser.add_argument("--cache-dir", type=Path, help="a folder for the checkouts' judge caches (default: fresh)")
    parser.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:  # one checkout's figures, as JSON
        print(json.dumps(measure(args.split, args.model, args.child)))
        return
    with tempfile.TemporaryDirectory() as scratch:
        caches = args.cache_dir or Path(scratch)
        columns = {}
        for name, checkout in ([("before", args.before)] if args.before else []) + [("after", HERE.parent)]:
            done = subprocess.run([sys.executable, __file__, "--split", args.split, "--model", args.model,
                                   "--child", str(caches / name)], env={**os.environ, "PYTHONPATH": str(checkout)},
                                  capture_output=True, text=True, check=False)
            if done.returncode:
                raise SystemExit(f"{checkout}: {done.stderr[-3000:]}")
            columns[name] = json.loads(done.stdout.strip().splitlines()[-1])
    print(f"claims step on the {args.split} split's summaries ({', '.join(SOURCES)}), judge {args.model}")
    print(f"{'figure':<38}" + "".join(f"{name:>10}" for name in columns))
    for label, key in FIGURES:
        print(f"{label:<38}" + "".join(f"{column[key]:>10}" for column in columns.values()))


if __name__ == "__main__":
    main()
