"""The offline judge's P(yes) on values a context gives only for something else ("SK4705 costs 142
EUR" beside flight records where 142 is DY1872's), to three questions: the second question as it is
asked (`questions.same_roles`, the whole document in view), and the support question shown only the
record of the claim's name, or only the two records. Twelve swaps in nine layouts and eight
languages, and four faithful claims that compare records: the figures behind `Label.written`
(scorers/labels.py) holding such claims to SUPPORTED_FROM rather than asking a narrower question.

    python benchmarks/swap_questions.py [--cache-dir DIR]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from pytest_llmfaith import Judge, JudgeCache, JudgeConfig
from pytest_llmfaith.judge.question import NextToken, p_yes
from pytest_llmfaith.scorers import labels, questions
from pytest_llmfaith.text import exact
from pytest_llmfaith.text.records import parts

FLIGHTS = json.dumps({"flights": [{"flight": "SK4705", "price_eur": 189}, {"flight": "DY1872", "price_eur": 142}]},
                     indent=2)
SEATS = "Ingrid Dahl: seat 14C. Karin Berg: seat 22A."
CASES = [  # (context, claim, faithful?)
    ("Ingrid Dahl: seat 14C. Karin Berg: seat 22B.", "Ingrid Dahl sits in seat 22B.", False),
    ("Ingrid Dahl: plats 14K. Karin Berg: plats 22M.", "Ingrid Dahl sitter på plats 22M.", False),
    ("search_flights returned: " + json.dumps(json.loads(FLIGHTS)["flights"]), "SK4705 costs 142 EUR.", False),
    (json.dumps([{"hotel": "Wawel Kraków", "pokój": "12B"}, {"hotel": "Łódź Plaza", "pokój": "7A"}]),
     "Hotel Łódź Plaza: pokój 12B.", False),
    ("flight,price_eur,stops\nSK4705,189,0\nDY1872,142,1", "SK4705 costs 142 EUR.", False),
    ("Flug;Preis (EUR);Stopps\nLH2024;310;0\nEW8472;95;1", "Der Flug LH2024 kostet 95 Euro.", False),
    ("| Vol | Porte |\n|---|---|\n| AF1234 | B12 |\n| KL5678 | D7 |", "Le vol AF1234 part de la porte D7.", False),
    ("pasajeros:\n  - nombre: Ana García\n    asiento: 14C\n  - nombre: Luis Pérez\n    asiento: 22A",
     "Ana García tiene el asiento 22A.", False),
    ("便\t価格（ユーロ）\nSK4705\t189\nDY1872\t142", "便SK4705は142ユーロです。", False),
    ("Flight: SK4705\nPrice: 189 EUR\n\nFlight: DY1872\nPrice: 142 EUR", "SK4705 costs 142 EUR.", False),
    ("Fly: SK4705\nPris: 1 890 kr\nFly: DY1872\nPris: 1 420 kr", "SK4705 koster 1 420 kr.", False),
    (SEATS, "Ingrid Dahl sits in seat 22A.", False),
    (FLIGHTS, "SK4705 costs more than 142 EUR.", True),
    (FLIGHTS, "SK4705 is 47 EUR dearer than the 142 EUR flight.", True),
    (FLIGHTS, "SK4705 costs 189 EUR; the other flight costs 142 EUR.", True),
    (SEATS, "Ingrid Dahl sits in 14C, not in 22A.", True),
]


def support(judge: Judge, places: list[str], claim: str) -> float:
    """P(yes) to the offline judge's evidence question (labels.EVIDENCE), `places` as the document."""
    question = labels.EVIDENCE.format(evidence="\n".join(places), sentence=claim, claim=claim)
    answer, _ = judge.ask("verdicts", [{"role": "system", "content": questions.DOCUMENT_SYSTEM},
                                       {"role": "user", "content": question}], NextToken, labels.VERSION)
    return p_yes(answer)  # type: ignore[arg-type]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cache-dir", type=Path, help="a judge cache (default: none, every call real)")
    args = parser.parse_args()
    judge = Judge(JudgeConfig(model="local"), JudgeCache(args.cache_dir, "use" if args.cache_dir else "off"))
    print("faithful? | value / the name's | second question (asked) | support, the name's record | "
          "support, both records | claim")
    for context, claim, faithful in CASES:
        found = next(o for o in exact.other_values(claim, [context]) if not o.contradicted)
        places = parts(context)
        own = [s for s in places if exact.fold(found.other) in exact.fold(s) and exact.fold(found.said) not in
               exact.fold(s)]
        both = [s for s in places if s in own or exact.fold(found.said) in exact.fold(s)]
        (role,), _ = questions.same_roles(judge, [context], [(claim, list(found.written),
                                                              exact.values_given_instead(claim, [context]))])
        print(f"{'yes' if faithful else 'no '} | {found.said} / {found.other} | {role:.2f} | "
              f"{support(judge, own, claim):.2f} | {support(judge, both, claim):.2f} | {claim}")


if __name__ == "__main__":
    main()
