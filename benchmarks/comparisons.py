"""The offline judge's P(yes) on comparisons across records ("The cheapest flight is SK4705 at 189
EUR" beside two flights at 189 and 142 EUR): the travel agent's one unfaithful answer it passes.
Three ways of asking, each printed beside the answer's truth: the support question shown the
records (labels.EVIDENCE), the same with the order of the values said first, and a question about
the sentence alone ("does it say SK4705 has the lowest price?") whose yes code could check against
the records. None parts faithful from unfaithful here (benchmarks/README.md, round 28). Last, the
second question as the scorers ask it where code sees the records' values go against the words
(`exact.needs_a_firm_yes`, told what the document writes: questions.INSTEAD), the figures behind
`questions.ORDER_AT` (round 34); "-" where code asks nothing.

    .venv/bin/python benchmarks/comparisons.py [--cache-dir DIR]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from agent_answers import CALLS

from pytest_llmfaith import Judge, JudgeCache, JudgeConfig
from pytest_llmfaith.judge.question import NextToken, p_yes
from pytest_llmfaith.scorers import labels, questions
from pytest_llmfaith.text import exact

ORDERED = "Document:\n{document}\n\nIn the document, {order}.\n\nSentence: {claim}\n\nDoes the document still say " \
          "what the sentence says? Answer yes or no."
READ = "Sentence: {claim}\n\nDoes the sentence say that {name} has the {extreme} {field} of all the flights? " \
       "Answer yes or no."
PRICE = "DY1872 gives price_eur 142, less than SK4705's 189"
DEPARTS = "SK4705 gives departs 07:10, earlier than DY1872's 13:45"
# (faithful?, the answer, the order said first, what the sentence alone is asked: name, extreme, field)
CASES = [
    (False, "The cheapest flight is SK4705 at 189 EUR.", PRICE, ("SK4705", "lowest", "price")),
    (True, "The cheapest flight is DY1872 at 142 EUR.", PRICE, ("DY1872", "lowest", "price")),
    (True, "SK4705 is the more expensive flight.", PRICE, ("SK4705", "highest", "price")),
    (False, "DY1872 is the more expensive flight.", PRICE, ("DY1872", "highest", "price")),
    (False, "The earliest flight is DY1872.", DEPARTS, ("DY1872", "earliest", "departure time")),
    (True, "The earliest flight is SK4705.", DEPARTS, ("SK4705", "earliest", "departure time")),
    (True, "DY1872 is cheaper than SK4705.", PRICE, ("DY1872", "lowest", "price")),
    (False, "SK4705 is cheaper than DY1872.", PRICE, ("SK4705", "lowest", "price")),
    (True, "The cheapest direct flight is SK4705 at 189 EUR.", PRICE, ("SK4705", "lowest", "price")),
    (True, "SK4705 costs 189 EUR.", PRICE, ("SK4705", "lowest", "price")),
    (True, "DY1872 departs at 13:45 and lands at 19:20.", DEPARTS, ("DY1872", "earliest", "departure time")),
    (False, "Der günstigste Flug ist SK4705 für 189 EUR.", PRICE, ("SK4705", "lowest", "price")),
    (False, "Le vol le moins cher est SK4705 à 189 EUR.", PRICE, ("SK4705", "lowest", "price")),
    (False, "The most expensive flight is DY1872 at 142 EUR.", PRICE, ("DY1872", "highest", "price")),
    (False, "The latest flight departs at 07:10.", DEPARTS, ("SK4705", "latest", "departure time")),
    (False, "SK4705 ist günstiger als DY1872.", PRICE, ("SK4705", "lowest", "price")),
    (False, "DY1872 leaves earlier than SK4705.", DEPARTS, ("DY1872", "earliest", "departure time")),
    (True, "The cheapest nonstop option is SK4705 at 189 EUR.", PRICE, ("SK4705", "lowest", "price")),
    (True, "Of the flights without a stop, the cheapest is SK4705 at 189 EUR.", PRICE, ("SK4705", "lowest", "price")),
    (True, "SK4705 is the cheapest direct flight.", PRICE, ("SK4705", "lowest", "price")),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cache-dir", type=Path, help="a judge cache (default: none, every call real)")
    args = parser.parse_args()
    judge = Judge(JudgeConfig(model="local"), JudgeCache(args.cache_dir, "use" if args.cache_dir else "off"))
    document = "\n".join(json.dumps(flight) for flight in CALLS[0][2]["flights"])  # type: ignore[index]

    def ask(question: str) -> float:
        answer, _ = judge.ask("verdicts", [{"role": "system", "content": questions.DOCUMENT_SYSTEM},
                                           {"role": "user", "content": question}], NextToken, labels.VERSION)
        return p_yes(answer)  # type: ignore[arg-type]

    print("faithful? | support, the records | the order said first | the sentence alone: says the extreme? | "
          "second question (asked) | answer")
    for faithful, claim, order, (name, extreme, field) in CASES:
        support = ask(labels.EVIDENCE.format(evidence=document, sentence=claim, claim=claim))
        ordered = ask(ORDERED.format(document=document, order=order, claim=claim))
        read = ask(READ.format(claim=claim, name=name, extreme=extreme, field=field))
        second = "-"
        if exact.needs_a_firm_yes(claim, [document]):
            (p, ), _ = questions.same_roles(judge, [document], [
                (claim, exact.values_in_other_roles(claim, [document]), exact.values_given_instead(claim, [document]))])
            second = f"{p:.2f}"
        print(f"{'yes' if faithful else 'no '} | {support:.2f} | {ordered:.2f} | {read:.2f} ({extreme}) | {second} | "
              f"{claim}")


if __name__ == "__main__":
    main()
