"""The offline judge's P(yes) to the specifics question ("does the document give these tokens, in any
form?") on tokens of known answer, and where GIVEN_AT (scorers/questions.py) divides them.

    python benchmarks/specifics_line.py [--cache-dir DIR]

Seven tokens the document gives another way (an airport code, an inflection, a compound, an
abbreviation) and seven it does not (another city, name, count, price), in German, English,
Finnish and Japanese, against the agent run of agent_answers.py or a one-line document; then
numbers written as words in a number's place, eight the document gives and eight it does not, in
eight languages. Prints each P(yes), its line (`given_line`: GIVEN_AT for names and for words
code reads as no count, YES_AT for numbers written with digits and counts in words code reads),
how many it reads right, and the gap. A word code finds written (its value is) is not asked by the
scorers: its row shows no token.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from agent_answers import run_of  # noqa: E402

from pytest_llmfaith import Judge, JudgeCache, JudgeConfig  # noqa: E402
from pytest_llmfaith.agent_runs import judged  # noqa: E402
from pytest_llmfaith.scorers import questions  # noqa: E402
from pytest_llmfaith.text.exact import unwritten  # noqa: E402

AGENT = list(judged(run_of("-")).context)
PROFILE = ["Das Profil wurde anhand von Angaben im Fluggastdatensatz erstellt und enthielt keine Faktoren wie Rasse, "
           "Glaubensbekenntnis, Hautfarbe oder nationale Herkunft."]
PROFILE_SENTENCE = ("Rasse und Glauben waren keine Faktoren, die in der Entwicklung von Passagierprofilen genutzt "
                    "wurden.")
CASES = [  # (document, sentence, tokens, does the document give them?)
    (AGENT, "SK4705 leaves Oslo at 07:10.", ["oslo"], True),
    (AGENT, "Your booking QX7K2P is confirmed for June.", ["june"], True),
    (PROFILE, PROFILE_SENTENCE, ["glauben"], True),
    (PROFILE, PROFILE_SENTENCE, ["entwicklung", "passagierprofilen"], True),
    (["Acme has an office in Helsinki."], "Acmella on toimisto Helsingissä.", ["helsingissä"], True),
    (["International Business Machines reported higher revenue."], "IBM reported higher revenue.", ["ibm"], True),
    (["Die Firma meldete mehr Umsatz im Jahr 2023."], "Das Unternehmen meldete 2023 einen höheren Umsatz.",
     ["unternehmen"], True),
    (["Acme opened an office in Oslo."], "Acme opened an office in Bergen.", ["bergen"], False),
    (AGENT, "The booking QX7K2P is in the name of Ingrid Berg.", ["berg"], False),
    (AGENT, "DY1872 stops in Stockholm on the way.", ["stockholm"], False),
    (["Acme hat 40 Mitarbeiter, darunter 4 Ingenieure."], "Acme hat 41 Mitarbeiter.", ["41"], False),
    (["アクメは東京に事務所を開いた。"], "アクメは大阪に事務所を開いた。", ["大阪"], False),
    (["Troops were sent to Iraq in 2003."], "Troops were sent to Iran in 2003.", ["iran"], False),
    (["The flight costs 290 EUR. Taxes are 31 EUR."], "The flight costs 310 EUR.", ["310"], False),
]
WORDS = [  # a number written as a word where the document writes one with digits: (document, sentence, gives?)
    ("Şirketin 12 çalışanı var.", "Şirketin yirmi çalışanı var.", False),
    ("Gói cơ bản có giá 5 đô la mỗi tháng.", "Gói cơ bản có giá mười đô la mỗi tháng.", False),
    ("Gói cơ bản có giá 5 đô la mỗi tháng.", "Gói cơ bản có giá năm đô la mỗi tháng.", True),
    ("O hotel fica a 200 metros da praia.", "O hotel fica a duzentos metros da praia.", True),
    ("Гарантия действует 2 года.", "Гарантия действует два года.", True),
    ("Гарантия действует 2 года.", "Гарантия действует три года.", False),
    ("Acme has 5 offices.", "Acme has five offices.", True),
    ("Acme has 5 offices.", "Acme has four offices.", False),
    ("Die Führung kostet 20 Euro.", "Die Führung kostet zwanzig Euro.", True),
    ("Die Führung kostet 25 Euro.", "Die Führung kostet zwanzig Euro.", False),
    ("Le musée ouvre à 9 heures.", "Le musée ouvre à neuf heures.", True),
    ("Le musée ouvre à 9 heures.", "Le musée ouvre à dix heures.", False),
    ("El vuelo dura 3 horas.", "El vuelo dura tres horas.", True),
    ("El vuelo dura 3 horas.", "El vuelo dura cuatro horas.", False),
    ("Standard shipping takes 2 to 4 business days.", "Standard shipping takes two to four business days.", True),
    ("Standard shipping takes 2 to 4 business days.", "Standard shipping takes three to five business days.", False),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cache-dir", type=Path, help="a judge cache (default: none, every call real)")
    args = parser.parse_args()
    judge = Judge(JudgeConfig(model="local"), JudgeCache(args.cache_dir, "use" if args.cache_dir else "off"))
    named = CASES
    worded = [([context], sentence, unwritten(sentence, [context], at_starts=False), gives)
              for context, sentence, gives in WORDS]
    for title, cases in (("names and numbers", named), ("numbers written as words", worded)):
        print(title)
        given, not_given, right = [], [], 0
        for context, sentence, tokens, gives in cases:
            (p,), _ = questions.specifics(judge, context, [(sentence, tokens)])
            (given if gives else not_given).append(p)
            right += (p >= questions.given_line(tokens)) == gives
            print(f"{'gives' if gives else 'not  '} P(yes) {p:.2f} line {questions.given_line(tokens):.2f}  "
                  f"{', '.join(tokens)}")
        print(f"given {min(given):.2f}-{max(given):.2f}, not given {min(not_given):.2f}-{max(not_given):.2f}; "
              f"read right by given_line: {right}/{len(cases)}\n")


if __name__ == "__main__":
    main()
