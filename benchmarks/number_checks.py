"""Seconds code spends reading one run's numbers, names and roles against a large context, with no
judge: `other_values`, `unwritten` and `numbers_not_written` for each claim, as the scorers ask them
(a cached re-run pays this too, so it grows with the context, not with the judge).

    .venv/bin/python benchmarks/number_checks.py [--products 400] [--claims 40] [--layout sentences]

The context: 40 passages of 10 products each (a price, a weight, a shipping time), written as
sentences, or as data (`--layout json|csv|table`: one JSON line, a CSV export, a Markdown table,
read as records by text/records.py); the claims: prices and weights of some products, half of
them wrong. Compare two checkouts with
`PYTHONPATH=<worktree> .venv/bin/python benchmarks/number_checks.py`.
"""

from __future__ import annotations

import argparse
import json
import random
import time

from pytest_llmfaith.text import exact
from pytest_llmfaith.text.sentences import sentences

LAYOUTS = {
    "sentences": lambda rows: " ".join(f"{name} costs {eur} EUR and weighs {kg} kg. It ships from Oslo in {days} "
                                       "days." for name, eur, kg, days in rows),
    "json": lambda rows: json.dumps([{"product": name, "price_eur": eur, "weight_kg": kg, "ships_in_days": days}
                                     for name, eur, kg, days in rows]),
    "csv": lambda rows: "\n".join(["product,price_eur,weight_kg,ships_in_days"]
                                  + [f"{name},{eur},{kg},{days}" for name, eur, kg, days in rows]),
    "table": lambda rows: "\n".join(["| product | price (EUR) | weight (kg) | ships in (days) |", "|---|---|---|---|"]
                                    + [f"| {name} | {eur} | {kg} | {days} |" for name, eur, kg, days in rows]),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--products", type=int, default=400)
    parser.add_argument("--claims", type=int, default=40)
    parser.add_argument("--layout", choices=["sentences", "json", "csv", "table"], default="sentences")
    args = parser.parse_args()
    rng = random.Random(1)
    names = [f"Product{chr(65 + i % 26)}{i}" for i in range(args.products)]
    rows = [(name, rng.randint(10, 999), rng.randint(1, 50), rng.randint(1, 9)) for name in names]
    context = [LAYOUTS[args.layout](rows[k:k + 10]) for k in range(0, args.products, 10)]
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
    print(f"{args.layout}: {len(context)} passages, {sum(len(sentences(p)) for p in context)} sentences, "
          f"{len(claims)} claims: "
          f"{seconds:.2f} s, {1000 * seconds / len(claims):.1f} ms a claim")


if __name__ == "__main__":
    main()
