"""The offline judge on the classes of promise 2 that rounds 30 and 31 ask the second question
about: an identifier in small letters, a count written as a word, a value a sentence gives after a
semicolon, a number moved beside another number's words, a record's value under another field
(round 30); a number written as a bound, code no longer decides (its faithful answers failed
before), a value a clause gives after a comma, a word of prose one sentence gives another thing,
two names in each other's places (round 31); a count of any size in words, a count's unit word,
a value given another thing in a script without case (round 32); a rank written as a word,
a value the context gives another thing in brackets (round 33); a comparison of two records
that their values go the other way of (round 34). Each case has a faithful answer
and an unfaithful one, in several languages;
both scorers judge each, and it prints which pass at 0.7 / 0.3 and the judge calls an assertion.
Run it on two checkouts (PYTHONPATH) for before and after.

    .venv/bin/python benchmarks/asked_classes.py [--cache-dir DIR] [--json OUT] [--only CLASS ...]
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from pytest_llmfaith import Faithfulness, Hallucination, Judge, JudgeCache, JudgeConfig

FLIGHT = json.dumps({"flight": "SK4705", "departs": "07:10", "arrives": "09:05", "price_eur": 189, "seats_left": 4},
                    indent=2)
FLIGHTS = json.dumps([{"flight": "SK4705", "departs": "07:10", "price_eur": 189},
                      {"flight": "DY1872", "departs": "13:45", "price_eur": 142}], indent=2)
HOTEL = "Booking QX7K2P:\nCheck-in: 14:00\nCheck-out: 11:00\nNights: 3"
CASES = [  # (class, context, a faithful answer, an unfaithful one)
    ("identifier", "Set timeout_ms to 500 to stop waiting.", "Set timeout_ms to 500.", "Set timeout_s to 500."),
    ("identifier", "Pass --verbose to see every request.", "Pass --verbose to see each request.",
     "Pass --quiet to see every request."),
    ("identifier", "Les réglages sont dans config.yaml.", "Les réglages se trouvent dans config.yaml.",
     "Les réglages sont dans config.json."),
    ("identifier", "Die App ruft gpt-4o-mini auf.", "Die App nutzt gpt-4o-mini.", "Die App ruft gpt-4o auf."),
    ("count", "The warranty lasts two years.", "The warranty is valid for two years.",
     "The warranty lasts three years."),
    ("count", "Die Garantie gilt zwei Jahre.", "Die Garantie gilt 2 Jahre.", "Die Garantie gilt drei Jahre."),
    ("count", "Гарантия действует два года.", "Гарантия действует 2 года.", "Гарантия действует три года."),
    ("count", "La batterie se recharge en 4 heures.", "La batterie se recharge en quatre heures.",
     "La batterie se recharge en deux heures."),
    ("semicolon", "The CEO is Anna Berg; the CFO is Lars Holm.", "Lars Holm is the CFO.", "The CEO is Lars Holm."),
    ("semicolon", "Aktie A stieg um 5 %; Aktie B fiel um 3 %.", "Aktie B fiel um 3 %.", "Aktie A fiel um 3 %."),
    ("moved", "Acme was founded in 1997 and went public in 2005.", "Acme went public in 2005.",
     "Acme went public in 1997."),
    ("moved", "Il museo apre alle 9 e chiude alle 17.", "Il museo chiude alle 17.", "Il museo chiude alle 9."),
    ("moved", "El vuelo sale a las 7 y llega a las 11.", "El vuelo llega a las 11.", "El vuelo llega a las 7."),
    ("field", FLIGHT, "SK4705 departs at 07:10.", "SK4705 departs at 09:05."),
    ("field", FLIGHT, "SK4705 has 4 seats left.", "SK4705 has 189 seats left."),
    ("field", HOTEL, "Check-out is at 11:00.", "Check-out is at 14:00."),
    ("field", "Speed: 25 km/h. Range: 40 km. Weight: 12 kg.", "The range is 40 km.", "The range is 25 km."),
    ("field", json.dumps({"flight": "SK4705", "origin": "OSL", "destination": "BCN"}), "The destination is BCN.",
     "The destination is OSL."),
    ("bound", "The venue holds more than 450 people.", "The venue holds more than 400 people.",
     "The venue holds more than 600 people."),
    ("bound", "Die Fahrt dauert höchstens 45 Minuten.", "Die Fahrt dauert höchstens 50 Minuten.",
     "Die Fahrt dauert höchstens 30 Minuten."),
    ("bound", "La salle accueille plus de 450 personnes.", "La salle accueille plus de 400 personnes.",
     "La salle accueille plus de 600 personnes."),
    ("bound", "会社には450人以上の従業員がいます。", "会社には400人以上の従業員がいます。",
     "会社には600人以上の従業員がいます。"),
    ("comma", "Aktie A stieg um 5 %, Aktie B fiel um 3 %.", "Aktie B fiel um 3 %.", "Aktie A fiel um 3 %."),
    ("comma", "Ingrid Dahl sits in 14C, Karin Berg in 22A.", "Karin Berg sits in 22A.", "Ingrid Dahl sits in 22A."),
    ("comma", "Pedro vive en Madrid, Ana vive en Sevilla.", "Ana vive en Sevilla.", "Pedro vive en Sevilla."),
    ("prose word", "Anna Berg leads sales. Lars Holm leads marketing.", "Lars Holm leads marketing.",
     "Anna Berg leads marketing."),
    ("prose word", "Acme makes bicycles. Beta makes scooters.", "Beta makes scooters.", "Acme makes scooters."),
    ("prose word", "Pedro trabaja como profesor. Ana trabaja como enfermera.", "Ana trabaja como enfermera.",
     "Pedro trabaja como enfermera."),
    ("prose word", "Ingrid Dahl: vegetarian meal. Karin Berg: kosher meal.", "Karin Berg asked for a kosher meal.",
     "Ingrid Dahl asked for a kosher meal."),
    ("swapped", "The flight goes from Oslo to Barcelona.", "The flight to Barcelona leaves from Oslo.",
     "The flight goes from Barcelona to Oslo."),
    ("swapped", "Acme acquired Beta in 2019.", "Beta was acquired by Acme in 2019.", "Beta acquired Acme in 2019."),
    ("swapped", "Der Zug fährt von Berlin nach München.", "Der Zug fährt von Berlin nach München.",
     "Der Zug fährt von München nach Berlin."),
    ("swapped", "Anna Berg reports to Lars Holm.", "Lars Holm is Anna Berg's manager.",
     "Lars Holm reports to Anna Berg."),
    ("greater count", "The hotel has 48 rooms.", "The hotel has forty-eight rooms.", "The hotel has forty-four rooms."),
    ("greater count", "Der Kurs dauert 22 Tage.", "Der Kurs dauert zweiundzwanzig Tage.",
     "Der Kurs dauert fünfundzwanzig Tage."),
    ("greater count", "El hotel tiene 26 habitaciones.", "El hotel tiene veintiséis habitaciones.",
     "El hotel tiene veintidós habitaciones."),
    ("count's unit", "The warranty lasts two years.", "The warranty lasts 2 years.", "The warranty lasts two months."),
    ("count's unit", "La garantía dura dos años.", "La garantía dura 2 años.", "La garantía dura dos meses."),
    ("caseless", "田中さんは東京に住んでいます。佐藤さんは大阪に住んでいます。", "佐藤さんは大阪に住んでいます。",
     "田中さんは大阪に住んでいます。"),
    ("caseless", "王经理负责销售。李经理负责市场。", "李经理负责市场。", "王经理负责市场。"),
    ("caseless", "김민수는 서울에 산다. 이영희는 부산에 산다.", "이영희는 부산에 산다.", "김민수는 부산에 산다."),
    ("rank", "Anna finished first in the race.", "Anna won the race and finished 1st.",
     "Anna finished third in the race."),
    ("rank", "The office is on the 3rd floor.", "The office is on the third floor.",
     "The office is on the fifth floor."),
    ("rank", "Das Büro ist im 3. Stock.", "Das Büro ist im dritten Stock.", "Das Büro ist im fünften Stock."),
    ("rank", "Anna est arrivée première.", "Anna est arrivée 1re.", "Anna est arrivée troisième."),
    ("rank", "Музей находится на 3 этаже.", "Музей находится на третьем этаже.", "Музей находится на пятом этаже."),
    ("bracket", "Passengers: Ingrid Dahl (seat 14C) and Karin Berg (seat 22A).", "Karin Berg sits in 22A.",
     "Ingrid Dahl sits in 22A."),
    ("bracket", "Team: Anna Berg (CEO), Lars Holm (CFO).", "Lars Holm is the CFO.", "Anna Berg is the CFO."),
    ("bracket", "Acme (founded 1997) bought Beta (founded 2005).", "Beta was founded in 2005.",
     "Acme was founded in 2005."),
    ("bracket", "Sedes: Madrid (120 empleados) y Sevilla (80 empleados).", "Sevilla tiene 80 empleados.",
     "Madrid tiene 80 empleados."),
    ("bracket", "Teilnehmer: Anna (30 Jahre) und Bob (35 Jahre).", "Bob ist 35 Jahre alt.", "Anna ist 35 Jahre alt."),
    ("comparison", FLIGHTS, "DY1872 is cheaper than SK4705.", "SK4705 is cheaper than DY1872."),
    ("comparison", FLIGHTS, "SK4705 ist teurer als DY1872.", "DY1872 ist teurer als SK4705."),
    ("comparison", FLIGHTS, "SK4705 part plus tôt que DY1872.", "DY1872 part plus tôt que SK4705."),
    ("comparison", FLIGHTS, "SK4705はDY1872より高いです。", "DY1872はSK4705より高いです。"),
    ("comparison", "Hotel Nord: 120 EUR a night\nHotel Sol: 95 EUR a night", "Hotel Sol is cheaper than Hotel Nord.",
     "Hotel Nord is cheaper than Hotel Sol."),
    ("comparison", "flyg,pris_sek,stopp\nSK4705,1890,0\nDY1872,1420,1", "SK4705 har färre stopp än DY1872.",
     "DY1872 har färre stopp än SK4705."),
]
LINE = (0.7, 0.3)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cache-dir", type=Path, help="a judge cache to reuse (default: none, cold)")
    parser.add_argument("--json", type=Path, help="write each answer's scores here")
    parser.add_argument("--only", nargs="+", metavar="CLASS", help="judge only the cases of these classes")
    args = parser.parse_args()
    judge = Judge(JudgeConfig(model="local"), JudgeCache(args.cache_dir, "use" if args.cache_dir else "off"))
    rows, calls, started = [], 0, time.perf_counter()
    cases = [case for case in CASES if not args.only or case[0] in args.only]
    for kind, context, *answers in cases:
        for faithful, answer in zip((True, False), answers):
            results = [scorer(judge).run(answer, [context]) for scorer in (Faithfulness, Hallucination)]
            calls += sum(not call.cached for result in results for call in result.judge_calls)
            passed = results[0].score >= LINE[0] and results[1].score <= LINE[1]
            rows.append({"class": kind, "faithful": faithful, "answer": answer, "passed": passed,
                         "scores": [result.score for result in results]})
            print(f"{kind:10} | {'yes' if faithful else 'no ':3} | {results[0].score:.2f} | {results[1].score:.2f} | "
                  f"{'pass' if passed else 'fail'} | {answer}")
    seconds, n = time.perf_counter() - started, 4 * len(cases)
    good = sum(r["passed"] for r in rows if r["faithful"])
    caught = sum(not r["passed"] for r in rows if not r["faithful"])
    print(f"\nat {LINE[0]} / {LINE[1]}: faithful passing {good}/{len(cases)}, unfaithful failing {caught}/{len(cases)}")
    print(f"{n} assertions: {calls} judge calls, {calls / n:.1f} an assertion; {seconds:.0f} s, {seconds / n:.1f} s "
          "an assertion (cold unless --cache-dir held answers)")
    if args.json:
        args.json.write_text(json.dumps({"rows": rows, "calls": calls, "seconds": seconds}, indent=1))


if __name__ == "__main__":
    main()
