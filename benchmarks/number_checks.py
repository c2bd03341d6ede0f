"""Seconds code spends reading one run's numbers, names and roles against a large context, with no
judge: `other_values`, `unwritten` and `numbers_not_written` for each claim, as the scorers ask them
(a cached re-run pays this too, so it grows with the context, not with the judge).

    .venv/bin/python benchmarks/number_checks.py [--products 400] [--claims 40]

The context: 40 passages of product sentences (a price, a weight, a shipping time each); the
claims: prices and weights of some products, half of them wrong. Compare two checkouts with
`PYTHONPATH=<worktree> .venv/bin/python benchmarks/number_checks.py`.
"""

from __future__ import annotations

import argparse
import random
import time

from pytest_llmfaith.text import exact
from pytest_llmfaith.text.sentences import sentences


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--products", type=int, default=400)
    parser.add_argument("--claims", type=int, default=40)
    args = parser.parse_args()
    rng = random.Random(1)
    names = [f"Product{chr(65 + i % 26)}{i}" for i in range(args.products)]
    context = [" ".join(f"{name} costs {rng.randint(10, 999)} EUR and weighs {rng.randint(1, 50)} kg. It ships "
                        f"from Oslo in {rng.randint(1, 9)} days." for name in names[k:k + 10])
               for k in range(0, args.products, 10)]
    step = max(1, 2 * args.products // args.claims)
    priced = range(0, args.products, step)
    weighed = range(step // 2, args.products, step)
    claims = ([f"{names[i]} costs {rng.randint(10, 999)} EUR" for i in priced]
              + [f"{names[i]} weighs {rng.randint(1, 50)} kg and ships in 3 days" for i in weighed])
    started = time.perf_counter()
    for claim in claims:
        exact.other_values(claim, context)
        exact.unwritten(claim, context)
        exact.numbers_not_written(claim, context)
    seconds = time.perf_counter() - started
    print(f"{len(context)} passages, {sum(len(sentences(p)) for p in context)} sentences, {len(claims)} claims: "
          f"{seconds:.2f} s, {1000 * seconds / len(claims):.1f} ms a claim")


if __name__ == "__main__":
    main()
