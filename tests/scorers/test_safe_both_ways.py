"""The two promises of docs/scoring.md ("Safe both ways"), over real HTTP through litellm, in 23
languages and scripts (issue 52):
1. with a judge that answers every question correctly, no faithful answer fails;
2. with exactly one wrong judge answer, no unfaithful answer passes.
Each class is a family of cases; the judge server answers from its script (tests/judge_server.py).
The last two tests run them all again as a user does: assert_faithful and assert_not_hallucinated
in a real pytest run, at 1.0 / 0.0."""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable

import pytest
from cases import (
    BOUNDS,
    FLIGHT,
    FLIGHTS_JSON,
    FLIGHTS_VIA,
    FLUG,
    GUESTS_TH,
    HOTEL,
    ORDER,
    ORDERS_ZH,
    PASSENGERS_JA,
    VOL,
)
from plugin_helpers import run

from pytest_llmfaith import Faithfulness, Hallucination
from pytest_llmfaith.text.exact import fold, numbers, unwritten, values_in_other_roles
from pytest_llmfaith.text.sentences import sentences

# (language, the context's sentence, a faithful output in another number form, the same with a wrong year)
FOUNDED = [
    ("en", "Acme was founded in 1997.", "Acme was founded in 1997.", "Acme was founded in 1999."),
    ("de", "Acme wurde 1997 gegründet.", "Acme wurde 1997 gegründet.", "Acme wurde 1999 gegründet."),
    ("fr", "Acme a été fondée en 1997.", "Acme a été fondée en 1997.", "Acme a été fondée en 1999."),
    ("es", "Acme fue fundada en 1997.", "Acme fue fundada en 1997.", "Acme fue fundada en 1999."),
    ("it", "Acme è stata fondata nel 1997.", "Acme è stata fondata nel 1997.", "Acme è stata fondata nel 1999."),
    ("pt", "A Acme foi fundada em 1997.", "A Acme foi fundada em 1997.", "A Acme foi fundada em 1999."),
    ("nl", "Acme werd opgericht in 1997.", "Acme werd opgericht in 1997.", "Acme werd opgericht in 1999."),
    ("pl", "Acme została założona w 1997 roku.", "Acme została założona w 1997 roku.",
     "Acme została założona w 1999 roku."),
    ("tr", "Acme 1997 yılında kuruldu.", "Acme 1997 yılında kuruldu.", "Acme 1999 yılında kuruldu."),
    ("ru", "Компания Acme была основана в 1997 году.", "Компания Acme была основана в 1997 году.",
     "Компания Acme была основана в 1999 году."),
    ("uk", "Компанію Acme засновано у 1997 році.", "Компанію Acme засновано у 1997 році.",
     "Компанію Acme засновано у 1999 році."),
    ("ar", "تأسست شركة أكمي عام 1997.", "تأسست شركة أكمي عام ١٩٩٧.", "تأسست شركة أكمي عام ١٩٩٩."),
    ("fa", "شرکت اکمی در سال 1997 تأسیس شد.", "شرکت اکمی در سال ۱۹۹۷ تأسیس شد.", "شرکت اکمی در سال ۱۹۹۹ تأسیس شد."),
    ("he", "חברת אקמי נוסדה בשנת 1997.", "חברת אקמי נוסדה בשנת 1997.", "חברת אקמי נוסדה בשנת 1999."),
    ("hi", "एक्मे की स्थापना 1997 में हुई थी।", "एक्मे की स्थापना १९९७ में हुई थी।", "एक्मे की स्थापना १९९९ में हुई थी।"),
    ("zh", "Acme公司成立于1997年。", "Acme公司成立于１９９７年。", "Acme公司成立于1999年。"),
    ("ja", "アクメは1997年に設立されました。", "アクメは1997年に設立されました。", "アクメは1999年に設立されました。"),
    ("ko", "애크미는 1997년에 설립되었다.", "애크미는 1997년에 설립되었다.", "애크미는 1999년에 설립되었다."),
    ("vi", "Acme được thành lập năm 1997.", "Acme được thành lập năm 1997.", "Acme được thành lập năm 1999."),
    ("th", "Acme ก่อตั้งขึ้นในปี 1997", "Acme ก่อตั้งขึ้นในปี 1997", "Acme ก่อตั้งขึ้นในปี 1999"),
    ("id", "Acme didirikan pada tahun 1997.", "Acme didirikan pada tahun 1997.", "Acme didirikan pada tahun 1999."),
    ("fi", "Acme perustettiin vuonna 1997.", "Acme perustettiin vuonna 1997.", "Acme perustettiin vuonna 1999."),
    ("el", "Η Acme ιδρύθηκε το 1997.", "Η Acme ιδρύθηκε το 1997.", "Η Acme ιδρύθηκε το 1999."),
]

# a faithful answer whose numbers or words a rule reading the language used to get wrong
FAITHFUL = [
    ("amount after a bracket", "You can ask for the airport taxes of 31 EUR back.",
     "Airport taxes (31 EUR on this route) are refunded on request."),
    ("a pronoun, not a name", "I could not find a booking ZZ9999.", "There is no booking ZZ9999."),
    ("a word after the number is no unit", "Acme has 40 people in Oslo and 400 in Bergen.",
     "Acme employs 40 people in Oslo and 400 in Bergen."),
    ("a scale suffix", "The grant is $40k.", "The grant is $40,000."),
    ("a thousands NBSP", "L'usine emploie 1\u00a0000 salariés.", "L'usine emploie 1000 salariés."),
    ("a narrow NBSP", "Le prix est de 2\u202f500 euros.", "Le prix est de 2 500 euros."),
    ("a decimal comma", "Der Tank fasst 3,5 Liter.", "Der Tank fasst 3,5 Liter."),
    ("an approximation", "The company employs about 1,200 people.", "The company employs 1,234 people."),
    ("a sentence-initial It", "It opens at 9 am.", "The museum opens at 9 am."),
    ("a unit after the context's number", "The museum closes at 17.", "The museum closes at 5 pm."),
    ("a year cut short", "Acme was founded in '97.", "Acme was founded in 1997."),
    ("a decade cut short", "Acme grew fast in the ’90s.", "Acme grew fast in the 1990s."),
    ("a value the context writes in a list", "Revenue was 12 million in 2023.",
     "Revenue was 10 million in 2022 and 12 million in 2023."),
    ("Japanese particles", "東京には40人の社員がいる。", "東京の社員は40人です。"),
    ("a Korean verb ending", "서울 사무소는 월요일에 문을 닫습니다.", "서울 사무소는 월요일 휴무입니다."),
]


@pytest.mark.parametrize(("language", "context", "output", "_"), FOUNDED, ids=[c[0] for c in FOUNDED])
def test_a_correct_judge_passes_a_faithful_answer_in_any_script(server, make_judge, language, context, output, _):
    server.facts(supported=[output])
    assert Faithfulness(make_judge()).run(output, [context]).score == 1.0
    assert Hallucination(make_judge()).run(output, [context]).score == 0.0


@pytest.mark.parametrize(("case", "output", "context"), FAITHFUL, ids=[c[0] for c in FAITHFUL])
def test_a_correct_judge_passes_a_faithful_answer_whatever_its_numbers_and_names(server, make_judge, case, output,
                                                                                context):
    server.facts(supported=[output])
    result = Faithfulness(make_judge()).run(output, [context])
    assert result.score == 1.0, result.verdicts
    assert Hallucination(make_judge()).run(output, [context]).score == 0.0


@pytest.mark.parametrize(("language", "context", "_", "wrong"), FOUNDED, ids=[c[0] for c in FOUNDED])
def test_a_wrong_year_fails_though_the_judge_calls_it_supported(server, make_judge, language, context, _, wrong):
    """One wrong answer (the verdict): code decides a number written in the same role, exactly."""
    server.facts(supported=[wrong])
    result = Faithfulness(make_judge()).run(wrong, [context])
    assert result.score == 0.0 and result.verdicts[0].reason.startswith("contradicted by the context's numbers")
    assert Hallucination(make_judge()).run(wrong, [context]).score == 1.0


UNWRITTEN = [
    ("Acme opened an office in Bergen.", "Acme opened an office in Oslo.", "bergen"),
    ("Acme a ouvert un bureau à Lyon.", "Acme a ouvert un bureau à Paris.", "lyon"),
    ("Acme hat 41 Mitarbeiter.", "Acme hat 40 Mitarbeiter, darunter 4 Ingenieure.", "41"),
    ("アクメは大阪に事務所を開いた。", "アクメは東京に事務所を開いた。", "大阪"),
    ("The flight costs 310 EUR.", "The flight costs 290 EUR. Taxes are 31 EUR.", "310"),
]


@pytest.mark.parametrize(("output", "context", "token"), UNWRITTEN)
def test_a_name_or_number_the_context_never_writes_needs_a_second_yes(server, make_judge, output, context, token):
    """One wrong answer (the verdict says supported): the specifics question, asked because the
    context never writes the token, says no."""
    server.facts(supported=[output], unnamed=[token])
    assert Faithfulness(make_judge()).run(output, [context]).score == 0.0
    assert Hallucination(make_judge()).run(output, [context]).score == 1.0




# (language, the context, a wrong output whose name is its first word, that name): a capital at a
# sentence's start is every word's in these scripts, so code cannot tell a name there
AT_A_START = [
    ("en", "Dahl booked the flight.", "Berg booked the flight.", "berg"),
    ("en, a second sentence", "Flight to Oslo. Ingrid is the passenger.", "Flight to Oslo. Karin is the passenger.",
     "karin"),
    ("de", "Oslo hat 700.000 Einwohner.", "Bergen hat 700.000 Einwohner.", "bergen"),
    ("fr", "Paris est la capitale.", "Lyon est la capitale.", "lyon"),
    ("es", "El museo de Sevilla abre a las 9.", "Granada tiene un museo que abre a las 9.", "granada"),
    ("it", "Roma è la sede della società.", "Milano è la sede della società.", "milano"),
    ("pt", "Lisboa é a sede da empresa.", "Porto é a sede da empresa.", "porto"),
    ("pl", "Warszawa jest siedzibą firmy.", "Kraków jest siedzibą firmy.", "kraków"),
    ("ru", "Москва — столица страны.", "Казань — столица страны.", "казань"),
    ("el", "Η έδρα είναι στην Αθήνα.", "Πάτρα είναι η έδρα.", "πάτρα"),
    ("tr", "Şirketin merkezi Ankara'dadır.", "İzmir şirketin merkezidir.", "i̇zmir"),
]
STARTS_FAITHFUL = [  # (the context, a faithful output whose first word the context never writes)
    ("The museum opens at 9 every day.", "We open at 9 every day."),
    ("Guided tours run on Saturdays only.", "Unfortunately, tours only run on Saturdays."),
    ("Das Museum öffnet um 9 Uhr.", "Wir öffnen um 9 Uhr."),
    ("Le musée ouvre à 9 h.", "Nous ouvrons à 9 h."),
    ("The flight departs at 13:45.", "It departs at 13:45."),
]


@pytest.mark.parametrize(("language", "context", "output", "token"), AT_A_START, ids=[c[0] for c in AT_A_START])
def test_a_name_at_a_sentences_start_needs_a_second_yes(server, make_judge, language, context, output, token):
    """One wrong answer (the verdict says supported): a hosted judge is asked about the first word
    too, in the verdicts' own request, and its no fails the answer."""
    server.facts(supported=[output], unnamed=[token])
    assert Faithfulness(make_judge()).run(output, [context]).score == 0.0
    assert Hallucination(make_judge()).run(output, [context]).score == 1.0
    assert len(server.requests) == 4  # claims and verdicts, for each scorer


@pytest.mark.parametrize(("context", "output"), STARTS_FAITHFUL)
def test_a_correct_judge_passes_a_first_word_that_is_no_name(server, make_judge, context, output):
    server.facts(supported=[output])
    assert Faithfulness(make_judge()).run(output, [context]).score == 1.0
    sent = server.calls("verdicts")[0]["body"]["messages"][-1]["content"]
    items = json.loads(re.findall(r"<claims>\n(.*?)\n</claims>", sent, re.DOTALL)[-1])
    assert items[0]["not_in_context"] == [fold(output.split()[0].strip(","))]


def test_the_offline_judge_is_not_asked_about_a_word_capitalised_only_at_a_start(fake, make_fake_judge):
    """Its answers there overlap: "We" 0.22 and "It" 0.33, names 0.09-0.42 (benchmarks/README.md)."""
    output = "We open at 9 every day."
    fake.facts(supported=[output])
    result = Faithfulness(make_fake_judge(verdicts="label")).run(output, ["The museum opens at 9 every day."])
    assert result.score == 1.0
    assert not any("never writes" in r["body"]["messages"][-1]["content"] for r in fake.requests)

# (language, the context, a faithful output that writes the day another way or as the context does,
# the output with another day, that day): written in small letters, no capital shows it
WEEKDAYS = [
    ("fr", "Le musée est fermé le lundi.", "Le musée est fermé les lundis.", "Le musée est fermé le mardi.", "mardi"),
    ("es", "El museo cierra los lunes.", "El museo cierra los lunes.", "El museo cierra los martes.", "martes"),
    ("it", "Il museo è chiuso il lunedì.", "Il museo è chiuso di lunedì.", "Il museo è chiuso il martedì.",
     "martedì"),
    ("pt", "O museu fecha à segunda.", "O museu fecha à segunda.", "O museu fecha à terça.", "terça"),
    ("nl", "Het museum is op maandag gesloten.", "Het museum is 's maandags gesloten.",
     "Het museum is op dinsdag gesloten.", "dinsdag"),
    ("sv", "Museet är stängt på måndagar.", "Museet är stängt varje måndag.", "Museet är stängt på tisdagar.",
     "tisdagar"),
    ("pl", "Muzeum jest zamknięte w poniedziałek.", "Muzeum jest zamknięte w poniedziałki.",
     "Muzeum jest zamknięte we wtorek.", "wtorek"),
    ("cs", "Muzeum je zavřené v pondělí.", "Muzeum je zavřené v pondělí.", "Muzeum je zavřené v úterý.", "úterý"),
    ("ru", "Музей закрыт по понедельникам.", "Музей закрыт в понедельник.", "Музей закрыт по вторникам.",
     "вторникам"),
    ("uk", "Музей зачинено в понеділок.", "Музей зачинено в понеділок.", "Музей зачинено у вівторок.", "вівторок"),
    ("tr", "Müze pazartesi günleri kapalı.", "Müze pazartesi günleri kapalı.", "Müze salı günleri kapalı.", "salı"),
    ("fi", "Museo on suljettu maanantaina.", "Museo on suljettu maanantaisin.", "Museo on suljettu tiistaina.",
     "tiistaina"),
    ("id", "Museum tutup setiap hari senin.", "Museum tutup tiap hari senin.", "Museum tutup setiap hari selasa.",
     "selasa"),
    ("de", "Das Museum ist montags geschlossen.", "Das Museum ist am Montag geschlossen.",
     "Das Museum ist dienstags geschlossen.", "dienstags"),
    ("en, small letters", "the museum is closed on mondays.", "the museum is closed every monday.",
     "the museum is closed on tuesdays.", "tuesdays"),
]


@pytest.mark.parametrize("verdicts", ["all", "label"])
@pytest.mark.parametrize(("language", "context", "output", "_", "__"), WEEKDAYS, ids=[c[0] for c in WEEKDAYS])
def test_a_correct_judge_passes_a_day_of_the_week_written_another_way(fake, make_fake_judge, verdicts, language,
                                                                       context, output, _, __):
    fake.facts(supported=[output])
    assert Faithfulness(make_fake_judge(verdicts=verdicts)).run(output, [context]).score == 1.0


@pytest.mark.parametrize("verdicts", ["all", "label"])
@pytest.mark.parametrize(("language", "context", "_", "wrong", "day"), WEEKDAYS, ids=[c[0] for c in WEEKDAYS])
def test_another_day_of_the_week_needs_a_second_yes(fake, make_fake_judge, verdicts, language, context, _, wrong, day):
    """One wrong answer (the verdict says supported): the day the context never writes is asked
    about, whatever its case, and the no fails the answer."""
    fake.facts(supported=[wrong], unnamed=[day])
    result = Faithfulness(make_fake_judge(verdicts=verdicts)).run(wrong, [context])
    assert result.score == 0.0, [v.reason for v in result.verdicts]


PLANS_PROSE = "The Basic plan costs 10 USD a month, the Pro plan 25 USD and the Team plan 40 USD."
FARES = json.dumps([{"flight": "SK4705", "direct": True}, {"flight": "DY1872", "direct": False}])
FLIGHT_TIMES = json.dumps([{"flight": "SK4705", "departs": "07:10"}, {"flight": "DY1872", "departs": "13:45"}])
# more of each class, of our own: (the context, a faithful output) whose numbers, names and
# pronouns a rule reading the language would get wrong
OWN_FAITHFUL = [
    ("Airport tax [31 EUR] is refunded.", "The airport tax is 31 EUR."),
    ("Fee (€31, incl. VAT).", "The fee is 31 €."),
    ("Price: CHF 1'200.", "The price is CHF 1200."),
    ("Preis: 1200 EUR.", "Der Preis beträgt 1.200 Euro."),
    ("The population is 3,200,000.", "The population is 3.2M."),
    ("Revenue: €2,000,000,000.", "Revenue hit €2bn."),
    ("The budget is ₹5,00,000.", "The budget is ₹500,000."),
    ("L'usine emploie 1000 salariés.", "L'usine emploie 1\u2009000 salariés."),
    ("The rate is 3,5 %.", "The rate is 3.5%."),
    ("ก่อตั้งขึ้นในปี 1997", "ก่อตั้งขึ้นในปี ๑๙๙๗"),
    ("প্রতিষ্ঠিত ১৯৯৭ সালে।", "প্রতিষ্ঠিত 1997 সালে।"),
    ("معدل الفائدة 3.5%.", "معدل الفائدة ٣٫٥٪."),
    ("No booking ZZ9999 exists.", "We could not find booking ZZ9999."),
    ("Buchung ZZ9999: nicht gefunden.", "Ich konnte die Buchung ZZ9999 nicht finden."),
    ("Le musée ouvre à 9 h.", "Elle ouvre à 9 h."),
    ("Die Führung kostet 20 Euro.", "Sie kostet 20 Euro."),
    ("The course lasts 6 weeks.", "The course lasts 42 days."),
    ("It is 20 °C today.", "It is 68 °F today."),
    ("Der Kurs dauert 6 Wochen.", "Der Kurs dauert 42 Tage."),
    ("El vuelo dura 90 minutos.", "El vuelo dura 1,5 horas."),
    ("The tour lasts 2 to 3 hours.", "The tour takes 2–3 hours."),
    ("Temperature tonight: -5 °C.", "It will be −5 °C tonight."),
    ("The flight is DY1872.", "You are on flight DY 1872."),
    ("Pedido nº 4471 enviado.", "Tu pedido n.º 4471 fue enviado."),
    ("门票价格为50元。", "门票价格为¥50。"),  # a currency sign the context writes as a word: asked, and given
    ("입장료는 5,000원입니다.", "입장료는 ₩5,000입니다."),
    ("The rate is 0.05.", "The rate is 5%."),
    ("The museum closes at 17.", "The museum closes at 5."),
    ("He was born in 1990.", "He was born in 90."),
    ("Season 2023/2024 was the best.", "Season 2023/24 was the best."),
    ("معدل الفائدة 3.5%.", "معدل الفائدة ٣٫٥٪."),
    # decimal places and units written another way: asked where they differ, and given
    ("The ticket costs 3.5 EUR.", "The ticket costs 3.50 EUR."),
    ('{"price": 142.0, "currency": "EUR"}', "The flight costs 142 EUR."),
    ("The tank holds 1.5 litres.", "The tank holds 1,5 litres."),
    ("Acme has 40 employees.", "Acme employs 40 people."),
    ("Le trajet dure 180 minutes.", "Le trajet dure 180 min."),
    ("Поездка длится 3 дня.", "Поездка длится 3 суток."),
    ("직원 120명이 일한다.", "직원은 120명의 규모다."),
    ("The shop is 2 km from the station.", "The shop is 2,000 m from the station."),
    ("Dân số là 1.200.000 người.", "Dân số là 1,2 triệu người."),
    ("매출은 5억 원이다.", "매출은 500,000,000원이다."),
    ("Revenue grew from 1.5 million to 2 million euros.", "Revenue grew from 1.5 to 2 million euros."),
    ("The 2 rooms cost 150 EUR each.", "The 2 rooms cost 300 EUR."),  # the judge adds, code decides nothing
    ("The course costs 50 EUR a month for 6 months.", "The course costs 300 EUR."),
    ("It takes 2½ hours by train.", "It takes 2.5 hours by train."),
    ("Der Abflug ist am 12.06. um 7 Uhr.", "Der Abflug ist am 12.6. um 7 Uhr."),  # a date without its zeros
    ("Odlet je 01.07. v 7 hodin.", "Odlet je 1.7. v 7 hodin."),
    ("Вылет 05.03. в 7 часов.", "Вылет 5.3. в 7 часов."),
    # a decimal mark that starts the number, and a number written as a word in a number's place
    ("The fee is 0.5%.", "The fee is .5%."),
    ("Der Preis ist 0,50 €.", "Der Preis ist ,50 €."),
    ("Acme has 5 offices.", "Acme has five offices."),
    ("Die Führung kostet 20 Euro.", "Die Führung kostet zwanzig Euro."),
    ("Le musée ouvre à 9 heures.", "Le musée ouvre à neuf heures."),
    ("El vuelo dura 3 horas.", "El vuelo dura tres horas."),
    # a tie rounded either way, as Python writes it; one time of day on another clock
    ("The baby weighs 3.25 kg.", "The baby weighs 3.2 kg."),
    ("Der Zins beträgt 4,55 %.", "Der Zins beträgt 4,5 %."),
    ("The room costs 188.50 EUR.", "The room costs 188 EUR."),
    ("Museet stenger kl. 17.30.", "Museet stenger kl. 5.30."),
    ("Le train part à 00:00.", "Le train part à 24:00."),
    ("The population is 1,000,000.", "The population is 1e6."),  # scientific notation
    ("Le prix est de 1 890,50 €.", "Le prix est de 1890,50 €."),  # thousands by a space, then decimals
    ("Prisen er 1890.50 kr.", "Prisen er 1\u00a0890,50 kr."),
    ("Latency: 42 ms.", "Latency: <50 ms."),  # a bound or an approximation by a sign
    ("The team has 45 people.", "The team has 30+ people."),
    ("Der Flug kostet 189 EUR.", "Der Flug kostet ~190 EUR."),
    ("El vuelo cuesta 189 EUR.", "El vuelo cuesta ≥ 150 EUR."),
    # names the context writes together, or a name with a title of its own: a correct judge's yes
    ("Passengers: Ingrid Dahl (14C) and Karin Berg (22A).", "Karin Berg and Ingrid Dahl fly together."),
    ("Passengers: Ingrid Dahl (14C) and Karin Berg (22A).", "Ms Ingrid Dahl sits in 14C."),
    ("Boris Johnson became Prime Minister in 2019.", "Prime Minister Boris Johnson took office in 2019."),
    ("Пассажиры: Анна Иванова и Мария Петрова.", "Бронь на имя Марии Петровой."),
    ("Ingrid Dahl: Platz 14C. Karin Berg: Platz 22A.", "Ingrid Dahls Platz ist 14C."),
    # each name with its own values, or a pronoun between a name and its value: a correct judge's yes
    ("Ingrid Dahl: window seat, flight to Bergen. Karin Berg: aisle seat, flight to Tromsø.",
     "Karin Berg flies to Tromsø, Ingrid Dahl to Bergen."),
    ("John Smith works in Bergen. He later lived in Oslo.", "Smith later lived in Oslo."),
    ("La sede de Madrid la dirige Lucía Ortega. La sede de Sevilla la dirige Pablo Ruiz.",
     "Lucía Ortega dirige la sede de Madrid."),
    ("Projekt Alfa vede Jana Nováková. Projekt Beta vede Petr Dvořák.", "Petr Dvořák vede projekt Beta."),
    # an identifier or a count, in a form the context gives it
    ('{"timeout_ms": 500, "max_retries": 3}', "Set timeout_ms to 500."),
    ("Use -v/--verbose for more output.", "Pass --verbose for more output."),
    ("Docs: https://acme.com/docs/", "The docs are at https://acme.com/docs."),
    ("Call get_user(id) to fetch a user.", "Use `get_user()` to fetch a user."),
    ("Models: gpt-4o-mini for drafts, gpt-4o for reviews.", "Drafts use gpt-4o-mini."),
    ("La garantie est de 2 ans.", "La garantie est de deux ans."),
    ("Acme hat fünf Büros.", "Acme has five offices."),
    ("Acme tiene 32 tiendas.", "Acme tiene treinta y dos tiendas."),
    ("Şirketin 12 çalışanı var.", "Şirketin on iki çalışanı var."),
    # a count of any size in words, code reads its value: the context's, in digits or in words
    ("The hotel has 48 rooms.", "The hotel has forty-eight rooms."),
    ("The hotel has forty-eight rooms.", "The hotel has 48 rooms."),
    ("Das Hotel hat 35 Zimmer.", "Das Hotel hat fünfunddreißig Zimmer."),
    ("El hotel tiene 26 habitaciones.", "El hotel tiene veintiséis habitaciones."),
    ("L'hôtel compte 75 chambres.", "L'hôtel compte soixante-quinze chambres."),
    ("L'albergo ha 21 camere.", "L'albergo ha ventuno camere."),
    ("O hotel tem 33 quartos.", "O hotel tem trinta e três quartos."),
    ("Het hotel heeft 64 kamers.", "Het hotel heeft vierenzestig kamers."),
    ("Hotellet har 27 rum.", "Hotellet har tjugosju rum."),
    ("W hotelu jest 45 pokoi.", "W hotelu jest czterdzieści pięć pokoi."),
    ("В отеле 120 номеров.", "В отеле сто двадцать номеров."),
    ("Otelde 16 oda var.", "Otelde on altı oda var."),
    ("Hotellissa on 18 huonetta.", "Hotellissa on kahdeksantoista huonetta."),
    ("Hotel itu punya 25 kamar.", "Hotel itu punya dua puluh lima kamar."),
    ("Acme was founded in 1999.", "Acme was founded in nineteen ninety-nine."),
    ("The warranty lasts 2 years.", "The warranty lasts two years."),
    ("Take it 2 times a day.", "Take it twice a day."),
    # Chinese and Japanese numerals, the context's value in digits, or the other way
    ("会社には22人の社員がいます。", "会社には二十二人の社員がいます。"),
    ("公司有三百名员工。", "公司有300名员工。"),
    ("会社は1997年に設立された。", "会社は一九九七年に設立された。"),
    # a rank in words, its value the context's in another form
    ("The office is on the 3rd floor.", "The office is on the third floor."),
    ("Anna finished 1st.", "Anna finished first."),
    ("Anna finished first.", "Anna finished 1st."),
    ("Das Büro ist im 3. Stock.", "Das Büro ist im dritten Stock."),
    ("La réunion a lieu le 2e jour.", "La réunion a lieu le deuxième jour."),
    ("El museo está en la planta 2.", "El museo está en la segunda planta."),
    ("Музей находится на 3 этаже.", "Музей находится на третьем этаже."),
    ("Anna zajęła 3. miejsce.", "Anna zajęła trzecie miejsce."),
    ("Acme celebrated its 21st birthday.", "Acme celebrated its twenty-first birthday."),
    ("A third of the 30 staff work remotely.", "A third of the staff work remotely."),
    ("The API answers in 200 ms.", "The API answers in under a second."),
    # a value in brackets after the thing the words name, or after each of the two they name
    ("Passengers: Ingrid Dahl (seat 14C) and Karin Berg (seat 22A).", "Karin Berg sits in 22A and Ingrid Dahl in 14C."),
    ("Team: Anna Berg (CEO), Lars Holm (CFO).", "Anna Berg hired Lars Holm as CFO."),
    ("Alice (30) and Bob (35) joined in 2020.", "Bob, 35, joined with Alice in 2020."),
    ("Sedes: Madrid (120 empleados) y Sevilla (80 empleados).", "Sevilla tiene 80 empleados."),
    ("Kontor: Oslo (40 ansatte) og Bergen (25 ansatte).", "Bergen har 25 ansatte, Oslo 40."),
    # an extreme that is the context's, or one of a smaller set it gives (asked: a correct judge's yes)
    (FLIGHTS_JSON, "The cheapest flight is DY1872 at 142 EUR."),
    (FLIGHTS_JSON, "The most expensive flight is SK4705 at 189 EUR."),
    (FLIGHTS_JSON, "The cheapest direct flight is SK4705 at 189 EUR."),
    (FLIGHT_TIMES, "The earliest flight, SK4705, leaves at 07:10."),
    ("Plan A costs 40 EUR a month, plan B 30 EUR and plan C 50 EUR.", "Plan B is the cheapest at 30 EUR."),
    ("Tarif A kostet 40 EUR im Monat, Tarif B 30 EUR.", "Tarif A ist der teuerste, mit 40 EUR."),
    (FLIGHTS_JSON, "The cheapest flight is DY1872."),
    (FLIGHTS_JSON, "SK4705 is the cheapest direct flight."),
    (FLIGHT_TIMES, "The earliest flight is SK4705."),
    ("Hotel Nord: 120 EUR a night\nHotel Sol: 95 EUR a night", "Hotel Sol is the cheapest hotel."),
    # a comparison in the order the context's records give, or of values both ways, or of a value they do not give
    (FLIGHTS_JSON, "DY1872 is cheaper than SK4705."),
    (FLIGHTS_JSON, "SK4705 ist teurer als DY1872, aber direkt."),
    (FLIGHT_TIMES, "SK4705 leaves earlier than DY1872."),
    (FLIGHTS_JSON, "SK4705 has fewer stops than DY1872."),
    (FLIGHTS_JSON, "DY1872比SK4705便宜。"),
    (FLIGHTS_JSON, "DY1872 дешевле, чем SK4705."),
    (PLANS_PROSE, "The Basic plan is cheaper than the Pro plan."),
    (PLANS_PROSE, "The Basic plan is the cheapest."),
    ("Das Büro in Oslo hat 40 Mitarbeiter, das Büro in Bergen 25 Mitarbeiter.",
     "Das Büro in Oslo hat mehr Mitarbeiter als das Büro in Bergen."),
    ("Acme has 40 staff and Beta 25 staff.", "Beta has more offices than Acme."),
    ("Hotel Nord: 120 EUR a night\nHotel Sol: 95 EUR a night", "Hotel Sol is cheaper than Hotel Nord."),
    (FLIGHTS_JSON, "SK4705 is direct and DY1872 is cheaper."),
    (json.dumps([{"flight": "SK4705", "price_eur": 189, "bag_eur": 0}, {"flight": "DY1872", "price_eur": 142,
                                                                       "bag_eur": 40}]),
     "With two bags SK4705 is cheaper than DY1872."),
    # a script without case: a sentence of the context, or one that changes more than a value
    ("田中さんは東京に住んでいます。佐藤さんは大阪に住んでいます。", "佐藤さんは大阪に住んでいます。"),
    ("王伟住在上海。李娜住在北京。", "王伟在上海生活。"),
    ("김민수는 서울에 산다. 이영희는 부산에 산다.", "이영희는 부산에서 산다."),
    ("محمد يعيش في القاهرة. علي يعيش في دبي.", "علي يعيش في دبي."),
    ("La garantía dura 2 años.", "La garantía dura dos años."),
    ("The CEO is Anna Berg; the CFO is Lars Holm.", "Lars Holm is the CFO."),
    ("Aktie A stieg um 5 %; Aktie B fiel um 3 %.", "Aktie B fiel um 3 %."),
    ("Aktie A stieg um 5 %, Aktie B fiel um 3 %.", "Aktie B fiel um 3 %."),
    ("Ingrid Dahl sits in 14C, Karin Berg in 22A.", "Karin Berg sits in 22A."),
    ("Pedro vive en Madrid, Ana vive en Sevilla.", "Ana vive en Sevilla."),
    ("SK4705 departs at 07:10, DY1872 at 09:05.", "DY1872 departs at 09:05."),
    ("Acme hat 40 Mitarbeiter, Beta hat 400.", "Beta hat 400 Mitarbeiter."),
    ("Anna Berg leads sales. Lars Holm leads marketing.", "Lars Holm leads marketing."),
    ("Acme makes bicycles. Beta makes scooters.", "Beta makes scooters."),
    ("Pedro trabaja como profesor. Ana trabaja como enfermera.", "Ana trabaja como enfermera."),
    ("Анна работает врачом. Иван работает учителем.", "Иван работает учителем."),
    ("Acme acquired Beta in 2019.", "Beta was acquired by Acme in 2019."),
    ("Acme employs 55 people. Beta employs 55 people.", "Acme and Beta both employ 55 people."),
    ("Ingrid Dahl and Karin Berg fly from Oslo to Bergen.", "Karin Berg and Ingrid Dahl fly from Oslo to Bergen."),
    ("Anna Berg runs sales; she joined in 2019. Lars Holm joined in 2021.", "Anna Berg joined in 2019."),
    ("Acme was founded in 1997 and went public in 2005.", "Acme went public in 2005."),
    ("El vuelo sale a las 7 y llega a las 11.", "El vuelo sale a las 7."),
    (FLIGHT, "SK4705 departs at 07:10 and arrives at 09:05."),
    (FLIGHT, "It departs at 07:10 and lands at 09:05."),
    (HOTEL, "Check-in is from 14:00; check-out by 11:00."),
    ('{"vuelo": "IB3170", "salida": "08:15", "llegada": "10:40"}', "La salida es a las 08:15."),
    ('{"vol": "AF1234", "origine": "CDG", "destination": "NCE"}', "Le vol AF1234 part de CDG pour NCE."),
    # orders and values of a list in prose as it gives them: one-letter names, times of day, codes
    ("Plan A costs 25 USD a month and Plan B costs 10 USD.", "Plan B is cheaper than Plan A."),
    ("El Plan A cuesta 25 USD y el Plan B 10 USD.", "El Plan B es el más barato."),
    ("Gate A opens at 06:00 and gate B at 06:30.", "Gate A opens before gate B."),
    ("SK4705 leaves at 07:10 and DY1872 at 13:45.", "DY1872 leaves later than SK4705, at 13:45."),
    ("Il treno R1 parte alle 8:15, il treno R2 alle 9:40.", "Il treno R1 parte prima del treno R2."),
    ("Frukost serveras 07:00 och middag 18:30.", "Middag serveras senare än frukost."),
    ("Acme employs 40 people and Beta 25.", "Beta employs 25 people."),
    ("Acme employs 40 people and Beta 25.", "Together Acme and Beta employ 65 people."),
    ("Ingrid Dahl booked seat 14C and Karin Berg seat 22A.", "Karin Berg booked seat 22A."),
    ("Herr Weber wohnt in Zimmer 12B, Frau Jensen in Zimmer 14A.", "Frau Jensen wohnt in Zimmer 14A."),
    ("L'hôtel Nord coûte 120 euros et l'hôtel Sol 95 euros.", "L'hôtel Sol coûte 95 euros."),
    ("Oslo has 700,000 inhabitants and Bergen 290,000.", "Bergen has 290,000 inhabitants."),
    ("Acme grew 12% and Beta 5%.", "Beta grew 5%."),
    ("Acme was founded in 1997 and went public in 2005.", "Acme went public in 2005, eight years after 1997."),
    # the first, the last, the least and the most where the context says the same
    ("The first train leaves at 05:50 and the last at 23:40.", "The last train leaves at 23:40."),
    ("Der erste Zug fährt um 5:50 Uhr.", "Der erste Zug fährt um 5:50 Uhr ab."),
    ("The minimum order is 20 EUR.", "You must order at least 20 EUR: that is the minimum."),
    ("The first train leaves at 05:50.", "The train leaves at 05:50."),
    ("Children under 12 travel free; over 12 pay 10 EUR.", "Children under 12 travel free."),
    ("Ticket: €12.50 (adults), €6.25 (children).", "A child's ticket costs €6.25."),
    ("Le vol AF1234 coûte 189 € et le vol AF5678 142 €.", "Le vol AF5678 coûte 142 €."),
    # a negation where the context writes one, or none where it writes none, beside other negations
    ("Light fares are non-refundable, but taxes are refunded.", "Taxes are refunded."),
    ("Pets are allowed but not in the restaurant.", "Pets are allowed."),
    ("Breakfast is not included, but parking is included.", "Parking is included."),
    ("SK4705 is direct. DY1872 is not direct.", "SK4705 is direct."),
    ("Le vol AF1234 n'est pas direct, le vol AF5678 est direct.", "Le vol AF5678 est direct."),
    ("Das Frühstück ist nicht im Preis inbegriffen.", "Das Frühstück ist nicht im Preis inbegriffen."),
    ("房价不包括早餐。", "房价不包括早餐。"),
    ("Le musée est fermé le mardi.", "Le musée n’ouvre pas le mardi."),
    (FARES, "SK4705 is a direct flight."),
    (FARES, "DY1872 is not a direct flight."),
    ("| Plan | SSO |\n|---|---|\n| Basic | ❌ |\n| Pro | ✅ |", "The Pro plan includes SSO."),
    # words of the other sense beside them, or a negation that says the same
    ("The shop is open on weekdays and closed on Sundays.", "The shop is closed on Sundays."),
    ("Sales rose in Europe but fell in Asia.", "Sales fell in Asia."),
    ("Booking QX7K2P is confirmed; booking LM3N8R is cancelled.", "Booking QX7K2P is confirmed."),
    ("The museum is not open on Mondays.", "The museum is closed on Mondays."),
    ("Le musée n'est pas ouvert le lundi.", "Le musée est fermé le lundi."),
    # round 37: a converse, a part past a contrasting word, a hedge kept, a state the records give
    ("Flight SK4705 leaves before DY1872.", "DY1872 leaves after SK4705."),
    ("SK4705 is cheaper than DY1872.", "DY1872 is more expensive than SK4705."),
    ("The fare is non-refundable but changeable.", "The fare is changeable."),
    ("Der Tarif ist mit Frühstück, aber ohne Parkplatz.", "Der Tarif ist ohne Parkplatz."),
    ("Le parking est gratuit le dimanche et payant en semaine.", "Le parking est payant en semaine."),
    ("The train was late on Monday and on time on Tuesday.", "The train was on time on Tuesday."),
    ("The flight will probably be delayed.", "The flight may be delayed."),
    ("The flight is delayed.", "The flight might be delayed."),
    ("Guests can check in from 15:00.", "Guests check in from 15:00."),
    ("You may cancel up to 24 hours before departure.", "You can cancel up to 24 hours before departure."),
    ("All rooms have a balcony.", "Some rooms have a balcony."),
    ("조식이 포함되어 있습니다.", "조식이 포함되어 있습니다."),
    ("주차는 평일에 유료이고 주말에 무료입니다.", "주차는 주말에 무료입니다."),
    ("The museum opens on 3 May 2027.", "The museum opens in May 2027."),
    (json.dumps({"booking": "QX7K2P", "status": "cancelled"}), "Booking QX7K2P is not confirmed."),
    (json.dumps([{"booking": "QX7K2P", "status": "cancelled"}, {"booking": "LM3N8R", "status": "confirmed"}]),
     "Booking LM3N8R is confirmed."),
    # parts past "but", negations in words of their own, conditions, bounds, months and days, all or some
    ("Das Deluxe-Zimmer ist groß, aber nicht erstattungsfähig.", "Das Deluxe-Zimmer ist groß."),
    ("Das Deluxe-Zimmer ist groß, aber nicht erstattungsfähig.", "Das Deluxe-Zimmer ist nicht erstattungsfähig."),
    ("Flight DY1872 leaves from Oslo but does not serve meals.", "Flight DY1872 leaves from Oslo."),
    ("The museum is closed on Monday and open on Tuesday.", "The museum is open on Tuesday."),
    ("The shop no longer sells paper tickets.", "Paper tickets are no longer sold at the shop."),
    ("Orders of no more than 40 items ship free.", "Orders of no more than 40 items ship free."),
    ("If you pay by card, a 2% fee applies.", "A 2% fee applies if you pay by card."),
    ("El desayuno es gratis si reserva directamente.", "Si reserva directamente, el desayuno es gratis."),
    ("Express ships the next day if you order before 1 pm and costs 9.90 euros.", "Express costs 9.90 euros."),
    ("Critics claim the bridge is unsafe.", "Critics claim the bridge is unsafe."),
    ("The room sleeps up to 4 guests.", "The room sleeps at most 4 guests."),
    ("Das Zimmer bietet Platz für bis zu 4 Gäste.", "Das Zimmer bietet Platz für maximal 4 Gäste."),
    ("Номер вмещает не более 4 гостей.", "Номер вмещает максимум 4 гостя."),
    ("Anna worked at Acme until 2019.", "Anna left Acme in 2019."),
    ("Check-in opens in March and the race is in May.", "The race is in May."),
    ("The tour departs on Monday and the cruise departs on Friday.", "The cruise departs on Friday."),
    ("The flight may be delayed in May.", "The flight may be delayed in May."),
    ("The company employs about 300 people.", "The company employs roughly 300 people."),
    ("Several plans include SSO.", "Some plans include SSO."),
    ("Every plan includes SSO.", "All plans include SSO."),
    ("Weder Frühstück noch Parken sind inbegriffen.", "Parken ist nicht inbegriffen."),
    ("Das Museum ist noch geöffnet.", "Das Museum ist noch geöffnet."),
    ("The sale starts on 1 May and ends on 3 May.", "The sale ends on 3 May."),
    ("The pool is outdoors.", "The hotel has an outdoor pool."),
    ("Der Check-in ist nach 15 Uhr.", "Der Check-in beginnt nach 15 Uhr."),
    ("Bilet iade edilemez.", "Bilet iade edilemez."),
    ("Ana Gómez dirige el hotel.", "El hotel lo dirige Ana Gómez."),
    ("Het museum is nu open.", "Het museum is nu open."),
    ("The room costs 150 EUR per night.", "The room costs 150 EUR a night."),
    ("The hotel offers free parking.", "The hotel provides free parking."),
    ("Each employee has a personal training budget of 1,500 euros per year.",
     "Each employee has a yearly training budget of 1,500 euros."),
    ("The hotel is 200 metres from the beach. The station is 2 km away.", "The station is 2 km away."),
    ("Revenue rose by 5% in 2024.", "Revenue grew by 5% in 2024."),
    ("The flight goes to 5 cities.", "The flight goes to 5 cities."),
    ("Guests must show an ID at check-in.", "Guests have to show an ID at check-in."),
    ("The company plans to hire 50 people.", "The company plans to hire 50 people."),
    ("Refunds will be issued within 14 days.", "Refunds will be issued within 14 days."),
    ("Children under 12 stay free.", "Kids under 12 stay free."),
]

# (the context, an unfaithful output, what the second question is asked about): one wrong answer,
# the verdict, and a number, code or scale the context never writes, or one code decides
OWN_UNFAITHFUL = [
    ("The flight is DY1872.", "The flight is DY1827.", "dy1827"),
    ("Gate B12 opens at 06:40.", "Gate B21 opens at 06:40.", "b21"),
    ("ก่อตั้งขึ้นในปี 1997", "ก่อตั้งขึ้นในปี ๑๙๙๙", "๑๙๙๙"),
    ("Revenue was 12.5 million euros.", "Revenue was 12.5 billion euros.", "12.5 billion"),
    ("The tour lasts 2 to 3 hours.", "The tour takes 2-5 hours.", "5"),
    ("Temperature tonight: -5 °C.", "It will be 5 °C tonight.", "5"),
    ("Pedido nº 4471 enviado.", "Tu pedido n.º 4417 fue enviado.", "4417"),
    ("Acme was founded in 1997.", "Acme was founded in the 1980s.", "1980"),
    ("Version 3.12 was released in 2023.", "Version 3.11 came out in 2023.", "3.11"),
    ("Price: CHF 1'200.", "The price is CHF 1'300.", "1'300"),
    ("The rate is 3.25%.", "The rate is 3.5%.", None),
    ("Acme employs 1,234 people.", "Acme employs 1,243 people.", None),
    ("معدل الفائدة 3.5%.", "معدل الفائدة ٣٫٧٪.", None),
    ("Das Paket wiegt 2,5 kg.", "Das Paket wiegt 25 kg.", None),
    ("Le loyer est de 1 250 euros.", "Le loyer est de 1\u202f520 euros.", None),
    ("The ticket costs £5.", "The ticket costs €5.", "€"),  # a unit written as a symbol
    ("The ticket costs 5 EUR.", "The ticket costs $5.", "$"),
    ("The fee is 5 EUR.", "The fee is 5%.", "%"),
    ("입장료는 ₩5,000입니다.", "입장료는 ¥5,000입니다.", "¥"),
    ("门票价格为¥50。", "门票价格为$50。", "$"),
    ("Acme has 17 offices.", "Acme has 5 offices.", "5"),  # 17 may be 5 pm: asked, not decided
    ("The museum closes at 17.", "The museum closes at 6.", None),
    ("The baby weighs 3.25 kg.", "The baby weighs 3.1 kg.", None),  # more than a tie off
    ("The room costs 188.99 EUR.", "The room costs 188 EUR.", None),
    ("Museet stenger kl. 17.30.", "Museet stenger kl. 6.30.", None),
    ("Le train part à 00:00.", "Le train part à 23:00.", None),
    ("Acme employs 45 people.", "Acme employs 40 people.", None),  # a tie of tens: half up, decided
    ("The population is 1,000,000.", "The population is 2e6.", "2e6"),  # scientific notation: asked
    ("Le prix est de 1 890,50 €.", "Le prix est de 1 890,70 €.", None),  # the cents after grouped thousands
    ("Prisen er 1\u00a0890,50 kr.", "Prisen er 1\u00a0890,90 kr.", None),
    ("Latency: 42 ms.", "Latency: <30 ms.", "30"),  # a wrong bound: asked, never decided
    ("The team has 45 people.", "The team has 50+ people.", "50"),
    # a name made of two names of the context: each word written, never together
    ("Passengers: Ingrid Dahl (14C) and Karin Berg (22A).", "The booking is for Ingrid Berg.", "ingrid berg"),
    ("Huéspedes: Ana García (14C) y Luis Pérez (22A).", "La reserva es de Ana Pérez.", "ana pérez"),
    ("Hotels: Hotel Bristol (2 nights), Grand Hotel Oslo (1 night).", "You stay 2 nights at the Grand Hotel Bristol.",
     "grand hotel bristol"),
    ("Пассажиры: Анна Иванова и Мария Петрова.", "Пассажир: Мария Иванова.", "мария иванова"),
    # a name in another case: word by word each is "given", as a whole it is no one's
    ("Пассажиры: Анна Иванова и Мария Петрова.", "Бронь на имя Марии Ивановой.", "марии ивановой"),
    ("Ingrid Dahl: Platz 14C. Karin Berg: Platz 22A.", "Ingrid Bergs Platz ist 14C.", "ingrid bergs"),
    ("He was born in 1990.", "He was born in 91.", None),
    # the value written, with other decimal places (a version, another locale's 1,500) or another unit
    ("Python 3.10 is required.", "Python 3.1 is required.", "3.1"),
    ("Requires version 2.1 or later.", "Requires version 2.10 or later.", "2.10"),
    ("The tank holds 1.5 litres.", "The tank holds 1,500 litres.", "1,500"),
    ("It is 40 km away.", "It is 40 miles away.", "40 miles"),
    ("Deleted files stay in the trash for 30 days.", "Deleted files stay in the trash for 30 hours.", "30 hours"),
    ("Le trajet dure 3 jours.", "Le trajet dure 3 heures.", "3 heures"),
    ("El paquete pesa 5 kilos.", "El paquete pesa 5 libras.", "5 libras"),
    ("Поездка длится 3 дня.", "Поездка длится 3 часа.", "3 часа"),
    ("입장료는 5,000원입니다.", "입장료는 5,000달러입니다.", "5,000달러입니다"),
    ("Die Fahrt dauert 3 std.", "Die Fahrt dauert 3 tage.", "3 tage"),
    ("매출은 5억 원이다.", "매출은 5조 원이다.", "5조"),  # a scale word: trillions for hundreds of millions
    ("Doanh thu đạt 2,5 triệu đồng.", "Doanh thu đạt 2,5 tỷ đồng.", "2,5 tỷ"),
    ("Revenue was 1.5 million euros.", "Revenue was 1.5 euros.", "1.5"),  # the scale left out
    ("Der Abflug ist am 12.06. um 7 Uhr.", "Der Abflug ist am 12.7. um 7 Uhr.", None),  # another month
    ("Odlet je 01.07. v 7 hodin.", "Odlet je 1.8. v 7 hodin.", None),
    ("The fee is 5%.", "The fee is .5%.", ".5"),  # a decimal mark that starts the number
    ("Der Preis ist 5,00 €.", "Der Preis ist ,50 €.", None),
    ("He batted .300 in 2023.", "He batted .310 in 2023.", None),
    ("Acme has 5 offices.", "Acme has four offices.", "four"),  # a number written as a word in a number's place
    ("Die Führung kostet 25 Euro.", "Die Führung kostet zwanzig Euro.", "zwanzig"),
    ("Le musée ouvre à 9 heures.", "Le musée ouvre à dix heures.", "dix"),
    ("El vuelo dura 3 horas.", "El vuelo dura cuatro horas.", "cuatro"),
    ("Bilet kosztuje 20 zł.", "Bilet kosztuje trzydzieści zł.", "trzydzieści"),
    # a name given to another thing, every word written (the second question asks about a name of it)
    ("Ingrid Dahl: window seat, flight to Bergen. Karin Berg: aisle seat, flight to Tromsø.",
     "Karin Berg flies to Bergen.", "bergen"),
    ("Hôtel Lutetia : quartier Saint-Germain. Hôtel Régina : quartier Louvre.",
     "L'hôtel Régina est dans le quartier Saint-Germain.", "saint"),
    ("Den Kurs Python leitet Frau Weber. Den Kurs Java leitet Herr Schulz.", "Den Kurs Python leitet Herr Schulz.",
     "herr"),
    ("La sede de Madrid la dirige Lucía Ortega. La sede de Sevilla la dirige Pablo Ruiz.",
     "La sede de Madrid la dirige Pablo Ruiz.", "pablo"),
    ("Ο Γιώργος Παππάς μένει στην Αθήνα. Η Μαρία Νικολάου μένει στη Θεσσαλονίκη.",
     "Ο Γιώργος Παππάς μένει στη Θεσσαλονίκη.", "παππάσ"),
    ("Projekt Alfa vede Jana Nováková. Projekt Beta vede Petr Dvořák.", "Projekt Alfa vede Petr Dvořák.", "petr"),
    # an identifier in small letters the context never writes whole: no capital, yet plainly not given
    ("Set timeout_ms to 500 to stop waiting.", "Set timeout_s to 500 to stop waiting.", "timeout_s"),
    ("Pass --verbose to see every request.", "Pass --quiet to see every request.", "--quiet"),
    ("Schreiben Sie an support@acme.de.", "Schreiben Sie an hilfe@acme.de.", "hilfe@acme.de"),
    ("La documentation est sur https://acme.fr/docs.", "La documentation est sur https://acme.com/docs.",
     "https://acme.com/docs"),
    ("Les réglages sont dans config.yaml.", "Les réglages sont dans config.json.", "config.json"),
    ("Usa get_user() para leer un usuario.", "Usa fetch_user() para leer un usuario.", "fetch_user()"),
    ("Запросите /v1/orders, чтобы получить заказы.", "Запросите /v2/orders, чтобы получить заказы.", "/v2/orders"),
    ("設定はconfig.yamlに書きます。", "設定はsettings.yamlに書きます。", "settings.yaml"),
    ("Die App ruft gpt-4o-mini auf.", "Die App ruft gpt-4o auf.", "gpt-4o"),
    ("El agente usa claude-3-haiku.", "El agente usa claude-3-opus.", "claude-3-opus"),
    # a count written as a word that the context writes in no form
    ("The warranty lasts two years.", "The warranty lasts three years.", "three"),
    ("Take two tablets twice a day.", "Take two tablets three times a day.", "three"),
    ("Die Garantie gilt zwei Jahre.", "Die Garantie gilt drei Jahre.", "drei"),
    ("La garantía dura dos años.", "La garantía dura tres años.", "tres"),
    ("La garanzia dura tre anni.", "La garanzia dura cinque anni.", "cinque"),
    ("Гарантия действует два года.", "Гарантия действует три года.", "три"),
    ("Gwarancja obowiązuje dwa lata.", "Gwarancja obowiązuje trzy lata.", "trzy"),
    ("Garanti iki yıl geçerlidir.", "Garanti üç yıl geçerlidir.", "üç"),
    ("Takuu on voimassa kaksi vuotta.", "Takuu on voimassa kolme vuotta.", "kolme"),
    ("Garansi berlaku dua tahun.", "Garansi berlaku tiga tahun.", "tiga"),
    ("La batterie se recharge en 4 heures.", "La batterie se recharge en deux heures.", "deux"),
    # a value a sentence gives another thing in a clause of its own, after a semicolon
    ("The CEO is Anna Berg; the CFO is Lars Holm.", "The CEO is Lars Holm.", "lars"),
    ("Aktie A stieg um 5 %; Aktie B fiel um 3 %.", "Aktie A fiel um 3 %.", "3"),
    # or in a clause of its own after a comma, each clause opening with its own names
    ("Aktie A stieg um 5 %, Aktie B fiel um 3 %.", "Aktie A fiel um 3 %.", "3"),
    ("The CEO is Anna Berg, the CFO is Lars Holm.", "The CEO is Lars Holm.", "lars"),
    ("Ingrid Dahl sits in 14C, Karin Berg in 22A.", "Ingrid Dahl sits in 22A.", "22a"),
    ("Pedro vive en Madrid, Ana vive en Sevilla.", "Pedro vive en Sevilla.", "sevilla"),
    ("Акции Acme выросли на 5 %, акции Beta упали на 3 %.", "Акции Acme упали на 3 %.", "3"),
    ("Il piano Basic costa 10 euro, il piano Pro costa 25 euro.", "Il piano Basic costa 25 euro.", "25"),
    # a word in small letters that one sentence alone writes, for another thing than the words'
    ("Anna Berg leads sales. Lars Holm leads marketing.", "Anna Berg leads marketing.", "marketing"),
    ("Acme makes bicycles. Beta makes scooters.", "Acme makes scooters.", "scooters"),
    ("Oslo is cold in winter. Barcelona is mild in winter.", "Oslo is mild in winter.", "mild"),
    ("SK4705 is a direct flight. DY1872 is a connecting flight.", "SK4705 is a connecting flight.", "connecting"),
    ("Pedro trabaja como profesor. Ana trabaja como enfermera.", "Pedro trabaja como enfermera.", "enfermera"),
    ("Mario lavora come cuoco, Luca lavora come cameriere.", "Mario lavora come cameriere.", "cameriere"),
    ("Jan werkt als leraar. Piet werkt als verpleger.", "Jan werkt als verpleger.", "verpleger"),
    ("Анна работает врачом. Иван работает учителем.", "Анна работает учителем.", "учителем"),
    ("Ingrid Dahl: vegetarian meal. Karin Berg: kosher meal.", "Ingrid Dahl asked for a kosher meal.", "kosher"),
    # a value of two things named as one, one of which the context gives another
    ("Acme employs 40 people. Beta employs 55 people.", "Acme and Beta both employ 55 people.", "55"),
    ("Acme beschäftigt 40 Personen. Beta beschäftigt 55 Personen.", "Acme und Beta beschäftigen beide 55 Personen.",
     "55"),
    ("Ingrid Dahl sits in 14C. Karin Berg sits in 22A.", "Ingrid Dahl and Karin Berg both sit in 22A.", "22a"),
    (FLIGHTS_JSON, "SK4705 and DY1872 both cost 142 EUR.", "142"),
    # two names of the words in each other's places
    ("The flight goes from Oslo to Barcelona.", "The flight goes from Barcelona to Oslo.", "barcelona"),
    ("Acme acquired Beta in 2019.", "Beta acquired Acme in 2019.", "beta"),
    ("Der Zug fährt von Berlin nach München.", "Der Zug fährt von München nach Berlin.", "münchen"),
    ("El tren va de Madrid a Sevilla.", "El tren va de Sevilla a Madrid.", "sevilla"),
    ("Anna Berg reports to Lars Holm.", "Lars Holm reports to Anna Berg.", "lars holm"),
    ("Rosenborg beat Molde 2-1.", "Molde beat Rosenborg 2-1.", "molde"),
    ("Le bureau de Paris compte 40 salariés ; celui de Lyon en compte 400.", "Le bureau de Paris compte 400 salariés.",
     "400"),
    ("La sede de Madrid abre a las 8; la de Sevilla, a las 9.", "La sede de Madrid abre a las 9.", "9"),
    ("Il piano Basic costa 10 euro; il piano Pro costa 25 euro.", "Il piano Basic costa 25 euro.", "25"),
    ("Anna Berg runs sales; she joined in 2019. Lars Holm joined in 2021.", "Anna Berg joined in 2021.", "2021"),
    # a number the context writes, where the words around it stand by another number
    ("Acme was founded in 1997 and went public in 2005.", "Acme went public in 1997.", "1997"),
    ("Acme wurde 1997 gegründet und ging 2005 an die Börse.", "Acme ging 1997 an die Börse.", "1997"),
    ("Il museo apre alle 9 e chiude alle 17.", "Il museo chiude alle 9.", "9"),
    ("El vuelo sale a las 7 y llega a las 11.", "El vuelo llega a las 7.", "7"),
    ("Поезд отправляется в 7 и прибывает в 11.", "Поезд прибывает в 7.", "7"),
    ("The battery lasts 10 hours and charges in 2 hours.", "The battery charges in 10 hours.", "10"),
    # a record's value under another field than the one a word of its key names
    (FLIGHT, "SK4705 departs at 09:05.", "09:05"),
    (HOTEL, "Check-out is at 14:00.", "14:00"),
    (ORDER, "Shipping costs 45 EUR.", "45"),
    (FLUG, "Die Ankunft ist um 07:10.", "07:10"),
    (VOL, "Le départ est à 09:05.", "09:05"),
    ('{"vuelo": "IB3170", "salida": "08:15", "llegada": "10:40"}', "La llegada es a las 08:15.", "08:15"),
    ("Geschwindigkeit: 25 km/h. Reichweite: 40 km.", "Die Reichweite beträgt 25 km.", "25"),
    ('{"vol": "AF1234", "origine": "CDG", "destination": "NCE"}', "La destination est CDG.", "cdg"),
    ('{"ref": "QX7K2P", "passenger": "Ingrid Dahl", "booked_by": "Karin Berg"}', "The passenger is Karin Berg.",
     "karin"),
    # a count of any size in words that the context writes in no form (12, 24 and 31 below are no 21)
    ("The hotel has 48 rooms.", "The hotel has forty-four rooms.", "forty-four"),
    ("The hotel has forty-eight rooms.", "The hotel has 44 rooms.", "44"),
    ("Das Hotel hat 35 Zimmer.", "Das Hotel hat fünfundzwanzig Zimmer.", "fünfundzwanzig"),
    ("El hotel tiene 26 habitaciones.", "El hotel tiene veintidós habitaciones.", "veintidós"),
    ("L'hôtel compte 75 chambres.", "L'hôtel compte soixante-dix chambres.", "soixante-dix"),
    ("L'albergo ha 12 camere.", "L'albergo ha ventuno camere.", "ventuno"),
    ("O hotel tem 33 quartos.", "O hotel tem vinte e três quartos.", "vinte e três"),
    ("Het hotel heeft 64 kamers.", "Het hotel heeft zesenveertig kamers.", "zesenveertig"),
    ("Hotellet har 7 rum.", "Hotellet har tjugosju rum.", "tjugosju"),
    ("W hotelu jest 45 pokoi.", "W hotelu jest pięćdziesiąt pokoi.", "pięćdziesiąt"),
    ("В отеле 120 номеров.", "В отеле сто двадцать пять номеров.", "сто двадцать пять"),
    ("Otelde 16 oda var.", "Otelde on sekiz oda var.", "on sekiz"),
    ("Hotellissa on 8 huonetta.", "Hotellissa on kahdeksantoista huonetta.", "kahdeksantoista"),
    ("Hotel itu punya 24 kamar.", "Hotel itu punya dua puluh satu kamar.", "dua puluh satu"),
    ("The warranty lasts two years.", "The warranty lasts twenty years.", "twenty"),
    ("Acme was founded in 1999.", "Acme was founded in nineteen ninety-one.", "nineteen ninety-one"),
    # in a script without case, what a sentence gives in the place of another sentence's value
    ("田中さんは東京に住んでいます。佐藤さんは大阪に住んでいます。", "田中さんは大阪に住んでいます。", "大阪"),
    ("王经理负责销售。李经理负责市场。", "王经理负责市场。", "市场"),
    ("김민수는 서울에 산다. 이영희는 부산에 산다.", "김민수는 부산에 산다.", "부산에"),
    ("สมชายอยู่เชียงใหม่ สมหญิงอยู่ภูเก็ต", "สมชายอยู่ภูเก็ต", "ภูเก็ต"),
    ("דני גר בתל אביב. רותי גרה בחיפה.", "דני גר בחיפה.", "בחיפה"),
    ("राम दिल्ली में रहता है। श्याम मुंबई में रहता है।", "राम मुंबई में रहता है।", "मुंबई"),
    # its value written, with another unit word after it
    ("The warranty lasts two years.", "The warranty lasts two months.", "two months"),
    ("La garantía dura dos años.", "La garantía dura dos meses.", "dos meses"),
    ("Das Abo kostet 10 Euro für 3 Monate.", "Das Abo kostet 10 Euro für drei Jahre.", "drei jahre"),
    ("Take one tablet three times a day.", "Take one tablet twice a day.", "twice"),
    # a rank in words the context writes in no form
    ("Anna finished first in the race.", "Anna finished third in the race.", "third"),
    ("Lars came first and Bob third.", "Bob came second.", "second"),
    ("Sales rose in the second quarter.", "Sales rose in the fourth quarter.", "fourth"),
    ("Acme celebrated its 21st birthday.", "Acme celebrated its twenty-second birthday.", "twenty-second"),
    ("Das Büro ist im 3. Stock.", "Das Büro ist im fünften Stock.", "fünften"),
    ("Anna est arrivée première.", "Anna est arrivée troisième.", "troisième"),
    ("Anna llegó primera a la meta.", "Anna llegó tercera a la meta.", "tercera"),
    ("L'ufficio è al secondo piano.", "L'ufficio è al quarto piano.", "quarto"),
    ("A Ana chegou em primeiro lugar.", "A Ana chegou em terceiro lugar.", "terceiro"),
    ("Anna werd eerste.", "Anna werd derde.", "derde"),
    ("Anna kom på första plats.", "Anna kom på tredje plats.", "tredje"),
    ("Анна заняла первое место.", "Анна заняла третье место.", "третье"),
    ("Анна посіла перше місце.", "Анна посіла третє місце.", "третє"),
    ("Anna zajęła pierwsze miejsce.", "Anna zajęła trzecie miejsce.", "trzecie"),
    ("Anna skončila první.", "Anna skončila třetí.", "třetí"),
    ("Anna birinci oldu.", "Anna üçüncü oldu.", "üçüncü"),
    ("Anna tuli ensimmäiseksi.", "Anna tuli kolmanneksi.", "kolmanneksi"),
    ("Anna menjadi juara pertama.", "Anna menjadi juara ketiga.", "ketiga"),
    # a value the context gives another thing in brackets
    ("Passengers: Ingrid Dahl (seat 14C) and Karin Berg (seat 22A).", "Ingrid Dahl sits in 22A.", "22a"),
    ("Team: Anna Berg (CEO), Lars Holm (CFO).", "Anna Berg is the CFO.", "cfo"),
    ("Alice (30) and Bob (35) joined in 2020.", "Alice is 35.", "35"),
    ("Acme (founded 1997) bought Beta (founded 2005).", "Acme was founded in 2005.", "2005"),
    ("Teilnehmer: Anna (30 Jahre) und Bob (35 Jahre).", "Anna ist 35 Jahre alt.", "35"),
    ("Participants : Anne (Lyon) et Paul (Nice).", "Anne vient de Nice.", "nice"),
    ("Sedes: Madrid (120 empleados) y Sevilla (80 empleados).", "Madrid tiene 80 empleados.", "80"),
    ("Filiali: Milano (40 dipendenti) e Roma (25 dipendenti).", "Milano ha 25 dipendenti.", "25"),
    ("Vestigingen: Utrecht (40 medewerkers) en Delft (25 medewerkers).", "Utrecht heeft 25 medewerkers.", "25"),
    ("Kontor: Oslo (40 ansatte) og Bergen (25 ansatte).", "Oslo har 25 ansatte.", "25"),
    ("Biura: Kraków (40 osób) i Gdańsk (25 osób).", "Kraków ma 25 osób.", "25"),
    # an extreme the context writes a value beyond
    (FLIGHTS_JSON, "The cheapest flight is SK4705 at 189 EUR.", "189"),
    (FLIGHTS_JSON, "Der günstigste Flug ist SK4705 für 189 EUR.", "189"),
    (FLIGHTS_JSON, "Le vol le moins cher est SK4705 à 189 EUR.", "189"),
    (FLIGHTS_JSON, "El vuelo más barato es SK4705 por 189 EUR.", "189"),
    (FLIGHTS_JSON, "The most expensive flight is DY1872 at 142 EUR.", "142"),
    (FLIGHTS_JSON, "Самый дешёвый рейс стоит 189 EUR.", "189"),
    ("Plan A costs 40 EUR a month, plan B 30 EUR and plan C 50 EUR.", "Plan A is the cheapest at 40 EUR.", "40"),
    (FLIGHT_TIMES, "The earliest flight leaves at 13:45.", "13:45"),
    (FLIGHT_TIMES, "Der späteste Flug geht um 07:10.", "07:10"),
    ("Tarif A kostet 40 EUR im Monat, Tarif B 30 EUR.", "Der günstigste Tarif kostet 40 EUR.", "40"),
    ("Paketti A maksaa 40 EUR, paketti B 30 EUR.", "Halvin paketti maksaa 40 EUR.", "40"),
    # an extreme without its value, of a thing the context gives a value with another's beyond it
    (FLIGHTS_JSON, "The cheapest flight is SK4705.", "SK4705"),
    (FLIGHTS_JSON, "DY1872 is the most expensive flight.", "DY1872"),
    (FLIGHTS_JSON, "Der günstigste Flug ist SK4705.", "SK4705"),
    (FLIGHTS_JSON, "Le vol le plus cher est DY1872.", "DY1872"),
    (FLIGHTS_JSON, "最便宜的航班是SK4705。", "SK4705"),
    (FLIGHT_TIMES, "The earliest flight is DY1872.", "DY1872"),
    ("Hotel Nord: 120 EUR a night\nHotel Sol: 95 EUR a night", "The cheapest hotel is Hotel Nord.", "Nord"),
    # a comparison the context's records go the other way of
    (FLIGHTS_JSON, "SK4705 is cheaper than DY1872.", "cheaper"),
    (FLIGHTS_JSON, "DY1872 ist teurer als SK4705.", "teurer"),
    (FLIGHTS_JSON, "SK4705 est moins cher que DY1872.", "moins cher"),
    (FLIGHTS_JSON, "SK4705 es más barato que DY1872.", "más barato"),
    (FLIGHTS_JSON, "SK4705 jest tańszy niż DY1872.", "tańszy"),
    (FLIGHTS_JSON, "SK4705 дешевле, чем DY1872.", "дешевле"),
    (FLIGHTS_JSON, "SK4705はDY1872より安いです。", "より安い"),
    (FLIGHTS_JSON, "SK4705는 DY1872보다 싸다.", "보다 싸"),
    (FLIGHTS_JSON, "DY1872 has fewer stops than SK4705.", "fewer"),
    (FLIGHT_TIMES, "DY1872 leaves earlier than SK4705.", "earlier"),
    (FLIGHT_TIMES, "SK4705 vertrekt later dan DY1872.", "later"),
    ("Hotel Nord: 120 EUR a night\nHotel Sol: 95 EUR a night", "Hotel Nord is cheaper than Hotel Sol.", "cheaper"),
    ("flight,price_eur\nSK4705,189\nDY1872,142", "DY1872 är dyrare än SK4705.", "dyrare"),
    # the same of a list in prose: things and their values, with one unit word
    (PLANS_PROSE, "The Pro plan is cheaper than the Basic plan.", "cheaper"),
    (PLANS_PROSE, "The Team plan is the cheapest.", "Team"),
    ("Le forfait Essentiel coûte 10 EUR par mois, le forfait Pro 25 EUR.",
     "Le forfait Pro est moins cher que le forfait Essentiel.", "moins cher"),
    ("Das Büro in Oslo hat 40 Mitarbeiter, das Büro in Bergen 25 Mitarbeiter.",
     "Das Büro in Bergen hat mehr Mitarbeiter als das Büro in Oslo.", "mehr"),
    ("Acme has 40 staff and Beta 25 staff.", "Beta has more staff than Acme.", "more"),
    # one-letter names, times of day, a dash for the verb, "before" and "after"
    ("Plan A costs 25 USD a month and Plan B costs 10 USD.", "Plan A is cheaper than Plan B.", "cheaper"),
    ("Plan A costs 25 USD a month and Plan B costs 10 USD.", "Plan A is the cheapest.", "A"),
    ("Тариф A стоит 25 USD, тариф B — 10 USD.", "Тариф A дешевле, чем тариф B.", "дешевле"),
    ("SK4705 leaves at 07:10 and DY1872 at 13:45.", "SK4705 leaves later than DY1872.", "later"),
    ("Gate A opens at 06:00 and gate B at 06:30.", "Gate B opens before gate A.", "before"),
    ("El vuelo IB3170 sale a las 07:10 y el vuelo VY1234 a las 13:45.",
     "El vuelo VY1234 sale antes del vuelo IB3170.", "antes del"),
    ("Le vol AF1234 part à 7h10 et le vol AF5678 à 13h45.", "Le vol AF1234 part après le vol AF5678.", "après"),
    ("Flyet SK4705 går 07:10 og DY1872 går 13:45.", "DY1872 går før SK4705.", "før"),
    # a value a list in prose gives another thing than the one the words name
    ("Acme employs 40 people and Beta 25.", "Beta employs 40 people.", "40"),
    ("The Oslo office has 40 staff and the Bergen office 25 staff.", "The Bergen office has 40 staff.", "40"),
    ("SK4705 leaves at 07:10 and DY1872 at 13:45.", "DY1872 leaves at 07:10.", "07:10"),
    ("Die Firma Acme hat 40 Mitarbeiter, die Firma Beta 25.", "Die Firma Beta hat 40 Mitarbeiter.", "40"),
    ("L'hôtel Nord coûte 120 euros et l'hôtel Sol 95 euros.", "L'hôtel Sol coûte 120 euros.", "120"),
    ("El Plan A cuesta 25 USD y el Plan B 10 USD.", "El Plan B cuesta 25 USD.", "25"),
    ("Ingrid paid 120 EUR and Karin 95 EUR.", "Karin paid 120 EUR.", "120"),
    ("Anna joined in 2019 and Lars in 2021.", "Lars joined in 2019.", "2019"),
    ("Acme grew 12% and Beta 5%.", "Beta grew 12%.", "12"),
    ("Anna ist 34 Jahre alt und Lars 41.", "Lars ist 34 Jahre alt.", "34"),
    ("El hotel Sol tiene 120 habitaciones y el hotel Mar 80.", "El hotel Mar tiene 120 habitaciones.", "120"),
    ("Ingrid Dahl booked seat 14C and Karin Berg seat 22A.", "Karin Berg booked seat 14C.", "14C"),
    ("Flight SK4705 boards at gate B12 and flight DY1872 at gate C4.", "Flight DY1872 boards at gate B12.", "B12"),
    # the other end, or the other bound, beside the value the context gives one
    ("The first train leaves at 05:50.", "The last train leaves at 05:50.", "last"),
    ("Der erste Zug fährt um 5:50 Uhr.", "Der letzte Zug fährt um 5:50 Uhr.", "letzte"),
    ("Le premier train part à 5h50.", "Le dernier train part à 5h50.", "dernier"),
    ("El último tren sale a las 23:40.", "El primer tren sale a las 23:40.", "primer"),
    ("Первый поезд отходит в 5:50.", "Последний поезд отходит в 5:50.", "Последний"),
    ("Första bussen går 05:50.", "Sista bussen går 05:50.", "Sista"),
    ("始発は5時50分に出発します。", "終電は5時50分に出発します。", "終電"),
    ("首班车5:50发车。", "末班车5:50发车。", "末班"),
    ("첫차는 5시 50분에 출발합니다.", "막차는 5시 50분에 출발합니다.", "막차"),
    ("직원은 400명 이상이다.", "직원은 400명 이하이다.", "이하"),
    ("The highest temperature was 31 °C.", "The lowest temperature was 31 °C.", "lowest"),
    ("The warmest day was 31 °C.", "The coldest day was 31 °C.", "coldest"),
    ("The minimum order is 20 EUR.", "The maximum order is 20 EUR.", "maximum"),
    ("Shipping is free on orders over 50 EUR.", "Shipping is free on orders under 50 EUR.", "under"),
    ("Les enfants de moins de 12 ans voyagent gratuitement.", "Les enfants de plus de 12 ans voyagent gratuitement.",
     "plus de"),
    ("Le vol AF1234 coûte 189 € et le vol AF5678 142 €.", "Le vol AF5678 coûte 189 €.", "189"),
    ("Ticket: €12.50 (adults), €6.25 (children).", "A child's ticket costs €12.50.", "12.50"),
    ("Entrada: 12,50 € (adultos), 6,25 € (niños).", "Los niños pagan 12,50 €.", "12,50"),
    ("Die Mindestbestellung beträgt 20 EUR.", "Die maximale Bestellung beträgt 20 EUR.", "maximale"),
    # a Markdown table's value under another column than the one the words name
    ("| flight | departs | arrives |\n|---|---|---|\n| SK4705 | 07:10 | 09:05 |", "SK4705 departs at 09:05.", "09:05"),
    ("| Anreise | Abreise |\n|---|---|\n| 14:00 | 11:00 |", "Die Abreise ist um 14:00.", "14:00"),
    ("| vuelo | precio (EUR) |\n|---|---|\n| IB3170 | 189 |\n| VY1234 | 142 |",
     "El vuelo más barato es IB3170 por 189 EUR.", "189"),
    # a name after a title, which starts no sentence: asked of the offline judge too
    ("Dr. Maria Jensen leads the team.", "Dr. Marie Jensen leads the team.", "marie"),
    ("Dr. Jonas Weber leitet das Team.", "Dr. Lukas Weber leitet das Team.", "lukas"),
    # the context's negation left out, or a negation it does not write: every word is the context's
    ("Breakfast is not included in the rate.", "Breakfast is included in the rate.",
     "Breakfast is included in the rate"),
    ("The ticket is non-refundable.", "The ticket is refundable.", "The ticket is refundable"),
    ("Wi-Fi is unavailable in the rooms.", "Wi-Fi is available in the rooms.", "Wi-Fi is available in the rooms"),
    ("The fare does not include a checked bag.", "The fare includes a checked bag.", "The fare includes a checked bag"),
    ("DY1872 is not a direct flight; it stops in CPH.", "DY1872 is a direct flight.", "DY1872 is a direct flight"),
    ("The ticket is refundable.", "The ticket is not refundable.", "The ticket is not refundable"),
    ("Haustiere sind nicht erlaubt.", "Haustiere sind erlaubt.", "Haustiere sind erlaubt"),
    ("Le petit-déjeuner n'est pas inclus.", "Le petit-déjeuner est inclus.", "Le petit-déjeuner est inclus"),
    ("No se admiten mascotas.", "Se admiten mascotas.", "Se admiten mascotas"),
    ("Bilet nie podlega zwrotowi.", "Bilet podlega zwrotowi.", "Bilet podlega zwrotowi"),
    ("Сніданок не входить у вартість.", "Сніданок входить у вартість.", "Сніданок входить у вартість"),
    ("Kahvaltı fiyata dahil.", "Kahvaltı fiyata dahil değil.", "Kahvaltı fiyata dahil değil"),
    ("Aamiainen sisältyy hintaan.", "Aamiainen ei sisälly hintaan.", "Aamiainen ei sisälly hintaan"),
    ("Το πρωινό δεν περιλαμβάνεται.", "Το πρωινό περιλαμβάνεται.", "Το πρωινό περιλαμβάνεται"),
    ("ארוחת הבוקר אינה כלולה במחיר.", "ארוחת הבוקר כלולה במחיר.", "ארוחת הבוקר כלולה במחיר"),
    ("الإفطار غير مشمول في السعر.", "الإفطار مشمول في السعر.", "الإفطار مشمول في السعر"),
    ("Bữa sáng không bao gồm trong giá.", "Bữa sáng bao gồm trong giá.", "Bữa sáng bao gồm trong giá"),
    ("该航班没有经停。", "该航班有经停。", "该航班有经停"),
    ("ห้องพักไม่มีอาหารเช้า", "ห้องพักมีอาหารเช้า", "ห้องพักมีอาหารเช้า"),
    ("A reggeli nincs benne az árban.", "A reggeli benne van az árban.", "A reggeli benne van az árban"),
    (FARES, "DY1872 is a direct flight.", "DY1872 is a direct flight"),
    (FARES, "SK4705 is not a direct flight.", "SK4705 is not a direct flight"),
    ("| Plan | SSO |\n|---|---|\n| Basic | ❌ |\n| Pro | ✅ |", "The Basic plan includes SSO.",
     "The Basic plan includes SSO"),
    ("Airport taxes (31 EUR on this route) are refunded on request.", "Airport taxes are not refunded on request.",
     "Airport taxes are not refunded on request"),
    # a word of the other sense, every other word the context's
    ("The pool is closed in winter.", "The pool is open in winter.", "The pool is open in winter"),
    ("Dogs are prohibited on the beach.", "Dogs are allowed on the beach.", "Dogs are allowed on the beach"),
    ("Order 4471 was cancelled yesterday.", "Order 4471 was confirmed yesterday.",
     "Order 4471 was confirmed yesterday"),
    ("Acme's revenue fell 12% in 2024.", "Acme's revenue rose 12% in 2024.", "Acme's revenue rose 12% in 2024"),
    ("Die Sauna ist sonntags geschlossen.", "Die Sauna ist sonntags geöffnet.", "Die Sauna ist sonntags geöffnet"),
    ("Les animaux sont interdits.", "Les animaux sont autorisés.", "Les animaux sont autorisés"),
    ("El seguro es opcional.", "El seguro es obligatorio.", "El seguro es obligatorio"),
    ("Palenie jest zabronione w pokojach.", "Palenie jest dozwolone w pokojach.", "Palenie jest dozwolone w pokojach"),
    # more words of the other sense (round 37): with or without, states, a comparison, two words at once
    ("La chambre est louée sans petit-déjeuner.", "La chambre est louée avec petit-déjeuner.",
     "La chambre est louée avec petit-déjeuner"),
    ("De kamer wordt verhuurd zonder ontbijt.", "De kamer wordt verhuurd met ontbijt.",
     "De kamer wordt verhuurd met ontbijt"),
    ("Номер сдаётся без завтрака.", "Номер сдаётся с завтраком.", "Номер сдаётся с завтраком"),
    ("Votre bon est expiré.", "Votre bon est valable.", "Votre bon est valable"),
    ("La sincronización está desactivada.", "La sincronización está activada.", "La sincronización está activada"),
    ("The payment failed.", "The payment succeeded.", "The payment succeeded"),
    ("Die Löwen verloren das Finale.", "Die Löwen gewannen das Finale.", "Die Löwen gewannen das Finale"),
    ("El aparcamiento es de pago.", "El aparcamiento es gratuito.", "El aparcamiento es gratuito"),
    ("Parking jest płatny.", "Parking jest bezpłatny.", "Parking jest bezpłatny"),
    ("Your visa application was denied.", "Your visa application was approved.", "Your visa application was approved"),
    ("Train IC 521 arrived late.", "Train IC 521 arrived early.", "Train IC 521 arrived early"),
    ("The repository is private.", "The repository is public.", "The repository is public"),
    ("The patient was absent on Monday.", "The patient was present on Monday.", "The patient was present on Monday"),
    ("The tank is empty.", "The tank is full.", "The tank is full"),
    ("The hotel is north of the station.", "The hotel is south of the station.", "The hotel is south of the station"),
    ("Le train arrive avant le bus.", "Le train arrive après le bus.", "Le train arrive après le bus"),
    ("Der Umsatz war niedriger als im Vorjahr.", "Der Umsatz war höher als im Vorjahr.",
     "Der Umsatz war höher als im Vorjahr"),
    ("Airport transfer is excluded from the package.", "Airport transfer is included in the package.",
     "Airport transfer is included in the package"),
    ("Pets, unfortunately, are not allowed.", "Pets are allowed.", "Pets are allowed"),
    # a record's state of the other sense, or the one the words negate
    (json.dumps({"booking": "QX7K2P", "status": "cancelled"}), "Your booking QX7K2P is confirmed.",
     "Your booking QX7K2P is confirmed"),
    (json.dumps({"flight": "SK4705", "status": "delayed"}), "Flight SK4705 is not delayed.",
     "Flight SK4705 is not delayed"),
    ("Réservation: QX7K2P\nStatut: annulée", "La réservation QX7K2P est confirmée.",
     "La réservation QX7K2P est confirmée"),
    # words the context writes only more weakly: as what may be so, or of some
    ("The flight may be delayed by fog.", "The flight is delayed by fog.", "The flight is delayed by fog"),
    ("Refunds might be issued within 14 days.", "Refunds will be issued within 14 days.",
     "Refunds will be issued within 14 days"),
    ("Der Flug ist vermutlich verspätet.", "Der Flug ist verspätet.", "Der Flug ist verspätet"),
    ("Il volo potrebbe essere cancellato.", "Il volo è cancellato.", "Il volo è cancellato"),
    ("Flyget är troligen försenat.", "Flyget är försenat.", "Flyget är försenat"),
    ("Uçuş muhtemelen gecikecek.", "Uçuş gecikecek.", "Uçuş gecikecek"),
    ("航班可能延误。", "航班延误。", "航班延误"),
    ("항공편이 아마 지연될 것입니다.", "항공편이 지연될 것입니다.", "항공편이 지연될 것입니다"),
    ("조식이 포함되어 있지 않습니다.", "조식이 포함되어 있습니다.", "조식이 포함되어 있습니다"),
    ("주차는 유료입니다.", "주차는 무료입니다.", "주차는 무료입니다"),
    ("Some rooms have a balcony.", "All rooms have a balcony.", "All rooms have a balcony"),
    ("Einige Zimmer haben einen Balkon.", "Alle Zimmer haben einen Balkon.", "Alle Zimmer haben einen Balkon"),
    ("Algunas habitaciones tienen balcón.", "Todas las habitaciones tienen balcón.",
     "Todas las habitaciones tienen balcón"),
    # the words a part past "but" negates, with the subject only before it
    ("Das Deluxe-Zimmer ist groß, aber nicht erstattungsfähig.", "Das Deluxe-Zimmer ist erstattungsfähig.",
     "Das Deluxe-Zimmer ist erstattungsfähig"),
    ("La habitación Deluxe es grande pero no es reembolsable.", "La habitación Deluxe es reembolsable.",
     "La habitación Deluxe es reembolsable"),
    ("La camera Deluxe è grande ma non è rimborsabile.", "La camera Deluxe è rimborsabile.",
     "La camera Deluxe è rimborsabile"),
    ("Номер Делюкс большой, но не подлежит возврату.", "Номер Делюкс подлежит возврату.",
     "Номер Делюкс подлежит возврату"),
    ("Flight DY1872 leaves from Oslo but does not serve meals.", "Flight DY1872 serves meals.",
     "Flight DY1872 serves meals"),
    # a negation in words of its own: "no longer", "lacks", "failed to", "refused to"
    ("The shop no longer sells paper tickets.", "The shop sells paper tickets.", "The shop sells paper tickets"),
    ("The hotel lacks a swimming pool.", "The hotel has a swimming pool.", "The hotel has a swimming pool"),
    ("The airline refused to refund the ticket.", "The airline refunded the ticket.",
     "The airline refunded the ticket"),
    ("The update failed to fix the login bug.", "The update fixed the login bug.", "The update fixed the login bug"),
    # words the context says only under a condition, or by someone's account
    ("Breakfast is free if you book directly.", "Breakfast is free.", "Breakfast is free"),
    ("Das Frühstück ist kostenlos, wenn Sie direkt buchen.", "Das Frühstück ist kostenlos.",
     "Das Frühstück ist kostenlos"),
    ("Le petit-déjeuner est gratuit si vous réservez directement.", "Le petit-déjeuner est gratuit.",
     "Le petit-déjeuner est gratuit"),
    ("Critics claim the bridge is unsafe.", "The bridge is unsafe.", "The bridge is unsafe"),
    ("Kritiker behaupten, die Brücke sei unsicher.", "Die Brücke ist unsicher.", "Die Brücke ist unsicher"),
    # a bound the other way, in words that also name an extreme or hold a negation
    ("Das Zimmer bietet Platz für bis zu 4 Gäste.", "Das Zimmer bietet Platz für mindestens 4 Gäste.", "mindestens"),
    ("La habitación admite hasta 4 personas.", "La habitación admite al menos 4 personas.", "al menos"),
    ("La camera ospita al massimo 4 persone.", "La camera ospita almeno 4 persone.", "almeno"),
    ("O quarto acomoda pelo menos 4 pessoas.", "O quarto acomoda no máximo 4 pessoas.", "no máximo"),
    ("Номер вмещает не более 4 гостей.", "Номер вмещает не менее 4 гостей.", "не менее"),
    ("Oda en fazla 4 kişiliktir.", "Oda en az 4 kişiliktir.", "en az"),
    ("房间最多可住4人。", "房间至少可住4人。", "至少"),
    ("The room holds no more than 4 guests.", "The room holds no fewer than 4 guests.", "no fewer than"),
    # a time bounded the other way: "until 2019" beside "since 2019"
    ("The offer is valid until 2025.", "The offer is valid since 2025.", "since"),
    ("Anna arbeitete bis 2019 bei Acme.", "Anna arbeitet seit 2019 bei Acme.", "seit"),
    # a month or a day by name, which the context gives something else
    ("Check-in opens in March and the race is in May.", "The race is in March.", "March"),
    ("The tour departs on Monday and the cruise departs on Friday.", "The cruise departs on Monday.", "Monday"),
    ("Der Check-in beginnt im März und das Rennen ist im Mai.", "Das Rennen ist im März.", "März"),
    # a number given exactly, beside one given about so
    ("The company employs about 300 people.", "The company employs exactly 300 people.",
     "The company employs exactly 300 people"),
    ("Die Fahrt dauert etwa 2 Stunden.", "Die Fahrt dauert genau 2 Stunden.", "Die Fahrt dauert genau 2 Stunden"),
    # all or each, beside the context's some or only
    ("Pets are allowed only in Room 12.", "Pets are allowed in every room.", "Pets are allowed in every room"),
    ("Several plans include SSO.", "Every plan includes SSO.", "Every plan includes SSO"),
    ("Some rooms have a balcony.", "Each room has a balcony.", "Each room has a balcony"),
    # more words of the other sense: start and end, indoors and outdoors, temporary and permanent, part-
    # and full-time, import and export, "vor" and "nach"; a negation in Romanian, and by a Turkish suffix
    ("The sale ends on 3 May.", "The sale starts on 3 May.", "The sale starts on 3 May"),
    ("Der Verkauf endet am 3. Mai.", "Der Verkauf beginnt am 3. Mai.", "Der Verkauf beginnt am 3. Mai"),
    ("La vente se termine le 3 mai.", "La vente commence le 3 mai.", "La vente commence le 3 mai"),
    ("La venta termina el 3 de mayo.", "La venta empieza el 3 de mayo.", "La venta empieza el 3 de mayo"),
    ("The pool is outdoors.", "The pool is indoors.", "The pool is indoors"),
    ("The pool is outside the hotel.", "The pool is inside the hotel.", "The pool is inside the hotel"),
    ("The closure is temporary.", "The closure is permanent.", "The closure is permanent"),
    ("The job is part-time.", "The job is full-time.", "The job is full-time"),
    ("The company exports coffee.", "The company imports coffee.", "The company imports coffee"),
    ("Der Check-in ist nach 15 Uhr.", "Der Check-in ist vor 15 Uhr.", "Der Check-in ist vor 15 Uhr"),
    ("Biletul nu este rambursabil.", "Biletul este rambursabil.", "Biletul este rambursabil"),
    ("Bilet iade edilemez.", "Bilet iade edilebilir.", "Bilet iade edilebilir"),
    ("Breakfast is extra.", "Breakfast is included.", "Breakfast is included"),
    ("The fare is paid.", "The fare is free of charge.", "The fare is free of charge"),
    # what an amount is counted per, which the context never writes
    ("The room costs 150 EUR per night.", "The room costs 150 EUR per week.", "week"),
    ("Das Zimmer kostet 150 EUR pro Nacht.", "Das Zimmer kostet 150 EUR pro Woche.", "woche"),
    ("The API allows 600 requests per minute.", "The API allows 600 requests per hour.", "hour"),
    # one word for another, every other word the same, where the context writes the word nowhere
    ("The hotel is 200 metres from the beach.", "The hotel is 200 metres from the station.", "station"),
    ("Wi-Fi is free in the lobby.", "Wi-Fi is free in the rooms.", "rooms"),
    ("The museum is open until 18:00 on weekdays.", "The museum is open until 18:00 on weekends.", "weekends"),
    ("Revenue doubled in 2024.", "Revenue halved in 2024.", "halved"),
    ("Das Hotel liegt 200 Meter vom Strand entfernt.", "Das Hotel liegt 200 Meter vom Bahnhof entfernt.", "Bahnhof"),
    ("Müze pazartesi günleri kapalıdır.", "Müze pazartesi günleri açıktır.", "açıktır"),
    # a change's size for its end, or the other way: "rose by 5%", "rose to 5%"
    ("Revenue rose by 5% in 2024.", "Revenue rose to 5% in 2024.", "to"),
    ("Prices fell to 40 EUR.", "Prices fell by 40 EUR.", "by"),
    ("Der Umsatz stieg um 5 %.", "Der Umsatz stieg auf 5 %.", "auf"),
    ("Le chiffre d'affaires a augmenté de 5 %.", "Le chiffre d'affaires a augmenté à 5 %.", "à"),
    ("Las ventas subieron un 5 %.", "Las ventas subieron al 5 %.", "al"),
    # what is only planned, said as done
    ("The company plans to hire 50 people.", "The company hired 50 people.", "The company hired 50 people"),
    ("The museum intends to reopen in 2027.", "The museum reopened in 2027.", "The museum reopened in 2027"),
    ("La ville prévoit de réduire les émissions de 40 %.", "La ville a réduit les émissions de 40 %.",
     "La ville a réduit les émissions de 40 %"),
    # "can" for "must", and the other way
    ("Guests can pay in cash.", "Guests must pay in cash.", "Guests must pay in cash"),
    ("Guests must show an ID at check-in.", "Guests can show an ID at check-in.", "Guests can show an ID at check-in"),
    ("Gäste können bar bezahlen.", "Gäste müssen bar bezahlen.", "Gäste müssen bar bezahlen"),
    ("Los huéspedes pueden pagar en efectivo.", "Los huéspedes deben pagar en efectivo.",
     "Los huéspedes deben pagar en efectivo"),
]


@pytest.mark.parametrize("verdicts", ["all", "label"])
@pytest.mark.parametrize(("context", "output"), OWN_FAITHFUL)
def test_a_correct_judge_passes_more_faithful_answers_of_each_class(fake, make_fake_judge, verdicts, context, output):
    fake.facts(supported=[output])
    result = Faithfulness(make_fake_judge(verdicts=verdicts)).run(output, [context])
    assert result.score == 1.0, [v.reason for v in result.verdicts]


@pytest.mark.parametrize(("context", "output", "token"), OWN_UNFAITHFUL)
def test_one_wrong_verdict_passes_no_more_unfaithful_answers_of_each_class(server, make_judge, context, output, token):
    server.facts(supported=[output], unnamed=[token] if token else [])
    result = Faithfulness(make_judge()).run(output, [context])
    assert result.score == 0.0, [v.reason for v in result.verdicts]
    assert ("decided without asking" in result.verdicts[0].reason) == (token is None)


# (language, a context that writes a date one way, the output writing it another way, the output with
# another date: the same numbers in another month, or another day or year; what the one wrong
# answer's second question is asked about)
DATED = [
    ("en", '{"booking": "QX7K2P", "date": "2026-06-12"}', "Your booking is for 12 June 2026.",
     "Your booking is for 12 July 2026.", "july"),
    ("en-us", "The order ships on 2026-03-04.", "The order ships on March 4th, 2026.",
     "The order ships on May 4th, 2026.", "may"),
    ("de", "Abflug: 12.06.2026, 07:10 Uhr.", "Der Abflug ist am 12. Juni 2026.", "Der Abflug ist am 12. Juli 2026.",
     "juli"),
    ("fr", "Départ le 2026-06-12.", "Le départ a lieu le 12 juin 2026.", "Le départ a lieu le 14 juin 2026.", "14"),
    ("fr, a month in lower case", "Départ le 2026-06-12.", "Le départ a lieu le 12 juin 2026.",
     "Le départ a lieu le 12 juillet 2026.", "juillet"),
    ("es", "Fecha de salida: 2026-06-12.", "La salida es el 12 de junio de 2026.",
     "La salida es el 12 de junio de 2025.", "2025"),
    ("pt", "Data do voo: 2026-08-03.", "O voo é no dia 3 de agosto de 2026.", "O voo é no dia 3 de Setembro de 2026.",
     "setembro"),
    ("nl", "Vertrek op 2026-05-21.", "Het vertrek is op 21 mei 2026.", "Het vertrek is op 22 mei 2026.", "22"),
    ("pl", "Wylot: 2026-06-12.", "Wylot jest 12 czerwca 2026.", "Wylot jest 13 czerwca 2026.", "13"),
    ("ru", "Вылет: 12.06.2026.", "Вылет 12 июня 2026 г.", "Вылет 12 Июля 2026 г.", "июля"),
    ("tr", "Kalkış tarihi: 2026-06-12.", "Kalkış 12 Haziran 2026.", "Kalkış 12 Temmuz 2026.", "temmuz"),
    ("fi", "Lähtö 2026-06-12.", "Lähtö on 12. kesäkuuta 2026.", "Lähtö on 12. Heinäkuuta 2026.", "heinäkuuta"),
    ("iso from words", "The booking is for 12 June 2026.", "Your booking is for 2026-06-12.",
     "Your booking is for 2026-06-14.", "14"),
]

# (a context writing a time of day one way, the output writing it another way, the output with the
# other half of the day: its numbers all written, so only the time read as written shows it)
TIMED = [
    ("12-hour clock", '{"departs": "13:45", "arrives": "19:20"}', "It departs at 1:45 pm and lands at 7:20 pm.",
     "It departs at 1:45 am and lands at 7:20 pm.", "1:45 am"),
    ("24-hour clock", "Boarding starts at 6:30 p.m.", "Boarding starts at 18:30.", "Boarding starts at 06:30.",
     "06:30"),
    ("fr", "Le musée ferme à 17:30.", "Le musée ferme à 17h30.", "Le musée ferme à 5:30.", "5:30"),
    ("ISO time", '{"departs": "2026-06-12T07:10:00"}', "It departs at 7:10 am.", "It departs at 7:10 PM.",
     "7:10 PM"),
]

# (a context writing an amount with digits or one scale, the output with a scale word, the output
# on another scale: the same digits, so only the number read with its scale word shows it)
SCALED = [
    ("en", "Revenue was $1,500,000 in 2023.", "Revenue was $1.5 million in 2023.", "Revenue was $1.5 billion in 2023.",
     "1.5 billion"),
    ("de", "Der Umsatz betrug 2.500.000.000 Euro.", "Der Umsatz betrug 2,5 Mrd. Euro.",
     "Der Umsatz betrug 2,5 Mio. Euro.", "2,5 Mio."),
    ("fr", "Le projet a coûté 3 000 000 euros.", "Le projet a coûté 3 millions d'euros.",
     "Le projet a coûté 3 milliards d'euros.", "3 milliards"),
    ("es", "La ciudad tiene 40.000 habitantes.", "La ciudad tiene 40 mil habitantes.",
     "La ciudad tiene 40 millones de habitantes.", "40 millones"),
    ("ru", "Население города 2 000 000 человек.", "Население города 2 млн человек.", "Население города 2 тыс человек.",
     "2 тыс"),
    ("ja", "市の人口は30000人です。", "市の人口は3万人です。", "市の人口は3億人です。", "3億"),
    ("en-in", "The budget is 5,000,000 rupees.", "The budget is 50 lakh rupees.", "The budget is 50 crore rupees.",
     "50 crore"),
]
ANOTHER_FORM = DATED + TIMED + SCALED
"""A value written another way: a date, a time of day, an amount with a scale word."""


@pytest.mark.parametrize(("language", "context", "output", "_", "__"), ANOTHER_FORM, ids=[c[0] for c in ANOTHER_FORM])
def test_a_correct_judge_passes_a_value_the_context_writes_in_another_form(server, make_judge, language, context,
                                                                           output, _, __):
    """Code never says two forms are one date, time or amount: where they differ the judge is asked,
    and a correct judge's yes passes the answer."""
    server.facts(supported=[output])
    assert Faithfulness(make_judge()).run(output, [context]).score == 1.0
    assert Hallucination(make_judge()).run(output, [context]).score == 0.0


@pytest.mark.parametrize(("language", "context", "_", "wrong", "token"), ANOTHER_FORM, ids=[c[0] for c in ANOTHER_FORM])
def test_another_value_needs_a_second_yes_though_the_verdict_says_supported(server, make_judge, language, context, _,
                                                                           wrong, token):
    """One wrong answer (the verdict): the month by name, day or year the context never gives is
    asked about, and the no fails the answer."""
    server.facts(supported=[wrong], unnamed=[token])
    assert Faithfulness(make_judge()).run(wrong, [context]).score == 0.0
    assert Hallucination(make_judge()).run(wrong, [context]).score == 1.0


@pytest.mark.parametrize(("language", "context", "weaker", "_", "__"), BOUNDS, ids=[c[0] for c in BOUNDS])
def test_a_correct_judge_passes_a_bound_the_context_makes_true(server, make_judge, fake, make_fake_judge, language,
                                                             context, weaker, _, __):
    """"More than 400 people" beside "more than 450 people": code used to decide 400 another value."""
    server.facts(supported=[weaker])
    assert Faithfulness(make_judge()).run(weaker, [context]).score == 1.0
    assert Hallucination(make_judge()).run(weaker, [context]).score == 0.0
    fake.facts(supported=[weaker])
    assert Faithfulness(make_fake_judge(verdicts="label")).run(weaker, [context]).score == 1.0


MADE_TRUE = [case for case in BOUNDS if case[0] not in ("de, bis zu", "sv")]  # "bis zu 50", "över 400": asked


@pytest.mark.parametrize(("language", "context", "weaker", "_", "__"), MADE_TRUE, ids=[c[0] for c in MADE_TRUE])
def test_a_bound_the_context_makes_true_passes_a_literal_judge(server, make_judge, fake, make_fake_judge, language,
                                                               context, weaker, _, __):
    """Asked whether the context gives "400", a correct judge may say no: it gives "more than 450".
    Code reads the bound made true ("more than 400" where the same words write "more than 450"),
    so that question is not asked, hosted or offline."""
    said = [n.shown for n in numbers(weaker) if n.shown not in context]
    server.facts(supported=[weaker], unnamed=said)
    assert Faithfulness(make_judge()).run(weaker, [context]).score == 1.0
    fake.facts(supported=[weaker], p_fact={f"“{token}”": 0.05 for token in said})
    assert Faithfulness(make_fake_judge(verdicts="label")).run(weaker, [context]).score == 1.0


@pytest.mark.parametrize(("language", "context", "_", "stronger", "token"), BOUNDS, ids=[c[0] for c in BOUNDS])
def test_a_bound_the_context_does_not_give_needs_a_second_yes(server, make_judge, language, context, _, stronger,
                                                              token):
    """"More than 600 people" beside "more than 450 people": no longer decided by code, so asked."""
    server.facts(supported=[stronger], unnamed=[token])
    result = Faithfulness(make_judge()).run(stronger, [context])
    assert result.score == 0.0 and "decided without asking" not in result.verdicts[0].reason


def test_a_month_by_name_beside_a_date_in_digits_is_asked_about(server, make_judge):
    """06/12/2026 is 6 December or 12 June: whether it says December is the judge's question."""
    wrong = "The parcel arrives on 6 December 2026."
    server.facts(supported=[wrong], unnamed=["december"])
    assert Faithfulness(make_judge()).run(wrong, ["Delivery date: 06/12/2026"]).score == 0.0


@pytest.mark.parametrize(("p_given", "score"), [(0.31, 0.0), (0.33, 0.0), (0.34, 1.0), (0.37, 1.0), (0.65, 1.0)])
def test_the_offline_specifics_answer_is_held_to_its_measured_line(fake, make_fake_judge, p_given, score):
    """The offline judge's P(yes) that the context gives “oslo” beside OSL: given from GIVEN_AT
    (0.34), where the 1.5B judge's answers for tokens the context does not give end (0.16-0.31)."""
    from pytest_llmfaith.scorers.questions import GIVEN_AT

    output = "SK4705 leaves Oslo at 07:10."
    fake.facts(supported=[output], p_fact={"“oslo”": p_given})
    assert GIVEN_AT == 0.34
    assert Faithfulness(make_fake_judge(verdicts="label")).run(output, ['{"flight": "SK4705", "origin": "OSL", '
                                                                      '"departs": "07:10"}']).score == score


@pytest.mark.parametrize(("output", "context", "tokens", "line"), [
    ("SK4705 is cheaper than DY1872.", FLIGHTS_JSON, "“cheaper”", 0.65),
    ("The cheapest flight is SK4705 at 189 EUR.", FLIGHTS_JSON, "“189”", 0.65),
    ("The cheapest flight is SK4705.", FLIGHTS_JSON, "“SK4705”", 0.65),
    ("SK4705 costs 142 EUR.", FLIGHTS_JSON, "“142”", 0.5),  # a value given for another thing: no order
    # words the context writes only negated: the judge's answer parts little there too (round 36)
    ("Breakfast is included in the rate.", "Breakfast is not included in the rate.",
     "“Breakfast is included in the rate”", 0.65),
    ("Frukost ingår i priset.", "Frukost ingår inte i priset.", "“Frukost ingår i priset”", 0.65),
])
@pytest.mark.parametrize("p_yes", [0.49, 0.55, 0.6, 0.65])
def test_the_offline_second_answer_on_an_order_or_a_negation_is_held_to_order_at(fake, make_fake_judge, output,
                                                                                 context, tokens, line, p_yes):
    """An extreme or comparison the records' values go against, or words the context writes only
    negated: the 1.5B judge's answer parts little there (benchmarks/comparisons.py, round 36), so
    only a firm yes (ORDER_AT) gives it."""
    from pytest_llmfaith.scorers.questions import ORDER_AT, YES_AT

    fake.facts(supported=[output], p_fact={tokens: p_yes})
    assert (ORDER_AT, YES_AT) == (0.65, 0.5)
    score = Faithfulness(make_fake_judge(verdicts="label")).run(output, [context]).score
    assert score == (1.0 if p_yes >= line else 0.0)


@pytest.mark.parametrize(("p_given", "score"), [(0.45, 0.0), (0.49, 0.0), (0.5, 1.0)])
def test_the_offline_specifics_answer_on_a_number_is_held_to_yes_at(fake, make_fake_judge, p_given, score):
    """A number code could not read as written: the offline judge's yes counts from 0.50, not 0.34."""
    output = "Acme has 41 staff."
    fake.facts(supported=[output], p_fact={"“41”": p_given})
    context = ["Acme's headcount is XLI."]
    assert Faithfulness(make_fake_judge(verdicts="label")).run(output, context).score == score


@pytest.mark.parametrize(("p_given", "score"), [(0.34, 0.0), (0.49, 0.0), (0.5, 1.0)])
def test_the_offline_specifics_answer_on_a_count_in_words_is_held_to_yes_at(fake, make_fake_judge, p_given, score):
    """A count code reads, whose value the context writes nowhere: a firm yes, as for digits
    ("zwanzig" for 25 got 0.49, "yirmi" for 12 0.41: benchmarks/specifics_line.py). Beside "4
    Wochen", "vier" is not asked at all: code reads its value; "IV" it does not."""
    output = "Die Kartusche wechseln Sie alle vier Wochen."
    fake.facts(supported=[output], p_fact={"“vier”": p_given})
    context = ["Die Kartusche sollte man alle IV Wochen wechseln. Sie kostet 20 Euro."]
    assert Faithfulness(make_fake_judge(verdicts="label")).run(output, context).score == score


@pytest.mark.parametrize(("p_given", "score"), [(0.34, 0.0), (0.49, 0.0), (0.5, 1.0)])
def test_the_offline_specifics_answer_on_a_rank_in_words_is_held_to_yes_at(fake, make_fake_judge, p_given, score):
    """A rank whose value the context writes nowhere, as a count's."""
    output = "Anna finished third in the race."
    fake.facts(supported=[output], p_fact={"“third”": p_given})
    context = ["Anna finished first in the race. Bob finished second."]
    assert Faithfulness(make_fake_judge(verdicts="label")).run(output, context).score == score


@pytest.mark.parametrize(("p_given", "score"), [(0.2, 0.0), (0.33, 0.0), (0.34, 1.0), (0.44, 1.0)])
def test_the_offline_specifics_answer_on_a_word_code_reads_as_no_count_is_held_to_the_names_line(
        fake, make_fake_judge, p_given, score):
    """"neuf" is nine, or new: code counts it only beside another count's word, so it is asked as a
    word in a number's place and read as a name's answer is ("neuf" for 9 got 0.42)."""
    output = "Le musée ouvre à neuf heures."
    fake.facts(supported=[output], p_fact={"“neuf”": p_given})
    assert Faithfulness(make_fake_judge(verdicts="label")).run(output, ["Le musée ouvre à 9 heures."]).score == score


NEGATED = [
    ("❌ Pets are allowed in the rooms.", "Pets are allowed in the rooms"),
    ("Haustiere sind ✗ erlaubt.", "Haustiere sind … erlaubt"),
    ("🚫 Les animaux sont admis.", "Les animaux sont admis"),
    ("Zorblat does not employ 40 people.", "Zorblat … employ 40 people"),
    ("Zorblat no emplea a 40 personas.", "Zorblat … emplea a 40 personas"),
    ("Zorblat не нанимает 40 человек.", "Zorblat … нанимает 40 человек"),
    ("The fee ≠ 20 EUR.", "The fee … 20 EUR"),
    ("Zorblat is a firm. It is false that it employs 40 people.", "Zorblat … employs 40 people"),  # across sentences
    ("Der Preis beträgt −5 EUR.", "Der Preis beträgt … 5 EUR"),
]


@pytest.mark.parametrize(("output", "claim"), NEGATED)
def test_words_or_symbols_a_claim_leaves_out_hold_it_to_its_sentence(server, make_judge, output, claim):
    """One wrong answer (the claims step drops the negation, and the verdict on its words says
    supported): the judge says the sentence changes the words, and the sentence is contradicted."""
    server.facts(claims={output: [claim]}, supported=[claim], contradicted=[output], changes=[claim])
    assert Faithfulness(make_judge()).run(output, ["context"]).score == 0.0
    assert Hallucination(make_judge()).run(output, ["context"]).score == 1.0


# (language, a context giving two things two values, an answer giving one thing the other's value and
# its halves as the claims step quotes them, a faithful answer and its halves): each half alone is
# something the context says; only together are they wrong
JOINED = [
    ("en", "Acme employs 40 people in Oslo and 400 in Bergen.", "Acme employs 400 people in Oslo.",
     ["Acme employs 400 people", "Acme … in Oslo"], "Acme employs 400 people in Bergen.",
     ["Acme employs 400 people", "Acme … in Bergen"]),
    ("de", "Acme hat 40 Mitarbeiter in Oslo und 400 in Bergen.", "Acme hat 400 Mitarbeiter in Oslo.",
     ["Acme hat 400 Mitarbeiter", "Acme … in Oslo"], "Acme hat 400 Mitarbeiter in Bergen.",
     ["Acme hat 400 Mitarbeiter", "Acme … in Bergen"]),
    ("ru", "Компания продала 450 машин в 2022 году и 500 в 2023 году.", "Компания продала 450 машин в 2023 году.",
     ["Компания продала 450 машин", "в 2023 году"], "Компания продала 450 машин в 2022 году.",
     ["Компания продала 450 машин", "в 2022 году"]),
    ("fr", "Le billet coûte 20 euros pour les adultes et 10 euros pour les enfants.",
     "Le billet coûte 10 euros pour les adultes.", ["Le billet coûte 10 euros", "pour les adultes"],
     "Le billet coûte 10 euros pour les enfants.", ["Le billet coûte 10 euros", "pour les enfants"]),
    ("es", "El museo abre a las 9 en invierno y a las 10 en verano.", "El museo abre a las 9 en verano.",
     ["El museo abre a las 9", "en verano"], "El museo abre a las 9 en invierno.",
     ["El museo abre a las 9", "en invierno"]),
    ("ja", "社員は東京に40人、大阪に400人いる。", "大阪に40人の社員がいる。", ["大阪に", "40人の社員がいる"],
     "東京に40人の社員がいる。", ["東京に", "40人の社員がいる"]),
]


@pytest.mark.parametrize("scorer", [Faithfulness, Hallucination], ids=["faithfulness", "hallucination"])
@pytest.mark.parametrize("verdicts", ["all", "label"])
@pytest.mark.parametrize(("language", "context", "wrong", "halves", "right", "right_halves"), JOINED,
                         ids=[c[0] for c in JOINED])
def test_halves_each_true_alone_fail_together_whatever_changed_says(fake, make_fake_judge, verdicts, scorer, language,
                                                                   context, wrong, halves, right, right_halves):
    """One wrong answer ("changed?" says no of each half: a place or a year, no negation): the
    sentence, judged because its claims quote it in parts, is not supported, so it counts beside
    them. A correct judge calls the faithful answer's sentence supported: nothing more counts."""
    fake.facts(claims={wrong: halves}, supported=halves, contradicted=[wrong])
    result = scorer(make_fake_judge(verdicts=verdicts)).run(wrong, [context])
    assert result.score == (0.67 if scorer is Faithfulness else 0.33), [(v.statement, v.verdict)
                                                                        for v in result.verdicts]
    assert any("not together" in note for note in result.notes)
    fake.reset()
    fake.facts(claims={right: right_halves}, supported=[*right_halves, right])
    result = scorer(make_fake_judge(verdicts=verdicts)).run(right, [context])
    assert result.score == (1.0 if scorer is Faithfulness else 0.0) and not result.notes, result.verdicts


@pytest.mark.parametrize(("output", "context"), [
    ("The code is 4471.", "The code is 4417."),
    ("Acme employs 4000 people in Oslo.", "Acme employs 40 people in Oslo and 400 in Bergen."),
    ("Le loyer est de 1\u202f250 euros.", "Le loyer est de 1 200 euros."),
    ("La empresa factura 3,5 millones.", "La empresa factura 5,3 millones."),
])
def test_a_number_another_value_in_the_same_role_fails_whatever_the_judge_says(server, make_judge, output, context):
    server.facts(supported=[output])
    result = Faithfulness(make_judge()).run(output, [context])
    assert result.score == 0.0 and "decided without asking" in result.verdicts[0].reason


# (language, the context, a faithful output whose sentence says more than the claim's words, the
# claim the judge quotes from it, the same output with a wrong total): the words alone would be the
# context's words with another number, but the rest of the sentence makes it a total, for the judge
PART_OF_A_SENTENCE = [
    ("en", "The ticket costs 12 EUR.", "For a family of four, the ticket costs 48 EUR.", "the ticket costs 48 EUR",
     "For a family of four, the ticket costs 50 EUR."),
    ("en, after", "The room costs 120 EUR.", "The room costs 360 EUR for three nights.", "The room costs 360 EUR",
     "The room costs 350 EUR for three nights."),
    ("en, a gap", "Child tickets cost 7 EUR.", "Three child tickets cost 21 EUR.", "Three … tickets cost 21 EUR",
     "Three child tickets cost 24 EUR."),
    ("de", "Das Zimmer kostet 120 Euro.", "Das Zimmer kostet 360 Euro für drei Nächte.", "Das Zimmer kostet 360 Euro",
     "Das Zimmer kostet 380 Euro für drei Nächte."),
    ("fr", "La chambre coûte 120 euros.", "Pour trois nuits, la chambre coûte 360 euros.",
     "la chambre coûte 360 euros", "Pour trois nuits, la chambre coûte 340 euros."),
    ("es", "La habitación cuesta 120 euros.", "Por dos noches, la habitación cuesta 240 euros.",
     "la habitación cuesta 240 euros", "Por dos noches, la habitación cuesta 260 euros."),
    ("it", "La camera costa 120 euro.", "Per tre notti, la camera costa 360 euro.", "la camera costa 360 euro",
     "Per tre notti, la camera costa 390 euro."),
    ("pt", "O quarto custa 120 euros.", "Por três noites, o quarto custa 360 euros.", "o quarto custa 360 euros",
     "Por três noites, o quarto custa 330 euros."),
    ("nl", "Een kind betaalt 7 euro.", "Een kind betaalt 21 euro voor drie ritten.", "Een kind betaalt 21 euro",
     "Een kind betaalt 27 euro voor drie ritten."),
    ("ru", "Номер стоит 120 евро.", "За три ночи номер стоит 360 евро.", "номер стоит 360 евро",
     "За три ночи номер стоит 380 евро."),
    ("zh", "门票价格为12元。", "四人的门票价格为48元。", "门票价格为48元", "四人的门票价格为50元。"),
    ("ja", "入場料は 12 ユーロです。", "4人家族の入場料は 48 ユーロです。", "入場料は 48 ユーロです",
     "4人家族の入場料は 50 ユーロです。"),
]


def wrong_total(output: str, wrong: str) -> str:
    """The number of the wrong output whose value the faithful output does not write."""
    return next(n.shown for n in numbers(wrong) if not any(n.values & m.values for m in numbers(output)))


@pytest.mark.parametrize(("language", "context", "output", "claim", "_"), PART_OF_A_SENTENCE,
                         ids=[c[0] for c in PART_OF_A_SENTENCE])
def test_a_correct_judge_passes_a_number_the_rest_of_its_sentence_makes_a_total(server, make_judge, language,
                                                                                 context, output, claim, _):
    """Code decides a number only where it is pinned in its whole sentence: the claim's words
    alone are the context's words with another number (12 EUR, 48 EUR), the sentence is not."""
    server.facts(claims={output: [claim]}, supported=[output, claim], changes=[claim])
    result = Faithfulness(make_judge()).run(output, [context])
    assert result.score == 1.0, [v.reason for v in result.verdicts]
    assert Hallucination(make_judge()).run(output, [context]).score == 0.0


@pytest.mark.parametrize(("language", "context", "output", "_", "wrong"), PART_OF_A_SENTENCE,
                         ids=[c[0] for c in PART_OF_A_SENTENCE])
def test_a_wrong_total_fails_though_the_verdict_says_supported(server, make_judge, language, context, output, _,
                                                               wrong):
    """One wrong answer (the verdict): the total the context never writes is asked about, and the
    no fails the answer, as the code's decision did before."""
    server.facts(supported=[wrong], unnamed=[wrong_total(output, wrong)])
    assert Faithfulness(make_judge()).run(wrong, [context]).score == 0.0
    assert Hallucination(make_judge()).run(wrong, [context]).score == 1.0


# (language, a context that lists values with fewer words, a faithful answer, the same with a value
# the context gives for something else beside the same words, that value)
LISTED = [
    ("en", "The company had 40 employees in 2020 and 55 in 2024.", "The company had 55 employees in 2024.",
     "The company had 40 employees in 2024.", "40"),
    ("en", "Acme employs 40 people in Oslo and 400 in Bergen.", "Acme employs 400 people in Bergen.",
     "Acme employs 400 people in Oslo.", "400"),
    ("de", "Der Umsatz lag 2022 bei 10 Millionen Euro und 2023 bei 12 Millionen Euro.",
     "Der Umsatz lag 2023 bei 12 Millionen Euro.", "Der Umsatz lag 2022 bei 12 Millionen Euro.", "12 Millionen"),
    ("fr", "Le billet coûte 20 euros pour les adultes et 10 euros pour les enfants.",
     "Le billet coûte 10 euros pour les enfants.", "Le billet coûte 10 euros pour les adultes.", "10"),
    ("es", "La empresa tenía 250 empleados en 2019 y 300 en 2021.", "La empresa tenía 300 empleados en 2021.",
     "La empresa tenía 250 empleados en 2021.", "250"),
    ("ru", "Компания продала 450 машин в 2022 году и 500 в 2023 году.", "Компания продала 500 машин в 2023 году.",
     "Компания продала 450 машин в 2023 году.", "450"),
    ("it", "Il museo apre alle 9 nei giorni feriali e alle 10 la domenica.", "Il museo apre alle 10 la domenica.",
     "Il museo apre alle 10 nei giorni feriali.", "10"),
]


# the same kind of list, where the value the wrong answer takes stands beside other words: only the
# verdict reads it (docs/scoring.md: what is left to one answer)
LISTED_APART = [
    ("nl", "De trein vertrekt om 7 uur naar Utrecht en om 8 uur naar Gouda.", "De trein vertrekt om 8 uur naar Gouda."),
    ("pt", "O voo custa 120 euros em maio e 180 euros em agosto.", "O voo custa 180 euros em agosto."),
    ("tr", "Şirket 2021 yılında 30 ve 2023 yılında 45 çalışana ulaştı.", "Şirket 2023 yılında 45 çalışana ulaştı."),
    ("pl", "Bilet kosztuje 20 zł dla dorosłych i 10 zł dla dzieci.", "Bilet kosztuje 10 zł dla dzieci."),
    ("sv", "Museet har 12 rum på våning 1 och 30 rum på våning 2.", "Museet har 30 rum på våning 2."),
]


@pytest.mark.parametrize(("language", "context", "output"), [c[:3] for c in LISTED + LISTED_APART],
                         ids=[c[0] for c in LISTED + LISTED_APART])
def test_a_correct_judge_passes_a_value_the_context_gives_in_a_list(server, make_judge, language, context, output):
    """Beside the same words the context writes another value ("40 employees in 2020"), and the
    answer's value with fewer words ("and 55 in 2024"): code decides nothing, the judge reads it."""
    server.facts(supported=[output])
    result = Faithfulness(make_judge()).run(output, [context])
    assert result.score == 1.0, result.verdicts
    assert Hallucination(make_judge()).run(output, [context]).score == 0.0


@pytest.mark.parametrize("verdicts", ["all", "label"])
@pytest.mark.parametrize(("language", "context", "_", "swapped", "value"), LISTED, ids=[c[0] for c in LISTED])
def test_a_value_the_context_gives_for_something_else_fails_though_the_verdict_says_supported(
        fake, make_fake_judge, verdicts, language, context, _, swapped, value):
    """One wrong answer (the verdict): every name and number of the answer is written, so only the
    second question, asked because beside these words the context writes another number, holds it."""
    fake.facts(supported=[swapped], unnamed=[value])
    result = Faithfulness(make_fake_judge(verdicts=verdicts)).run(swapped, [context])
    assert result.score == 0.0 and "for something else" in result.verdicts[0].reason, result.verdicts
    assert Hallucination(make_fake_judge(verdicts=verdicts)).run(swapped, [context]).score == 1.0


STATUS_JSON = json.dumps({"bookings": [{"ref": "QX7K2P", "passenger": "Ingrid Dahl", "status": "confirmed"},
                                         {"ref": "LM3N8R", "passenger": "Karin Berg", "status": "cancelled"}]},
                         indent=2)
BOOKINGS_JSON = ('get_bookings() returned:\n{\n  "bookings": [\n    {\n      "ref": "QX7K2P",\n      "passenger": '
                 '"Ingrid Dahl",\n      "city": "Bergen"\n    },\n    {\n      "ref": "LM3N8R",\n      "passenger": '
                 '"Karin Berg",\n      "city": "Tromsø"\n    }\n  ]\n}')
# (language, a context giving two things their values in records or sentences of one shape, a faithful
# answer, the same with the other thing's value, that value): every name and number of the wrong one
# is written, but the value never with its name, while its name's record writes another beside the same word
GIVEN_APART = [
    ("en, records", FLIGHTS_JSON, "SK4705 costs 189 EUR.", "SK4705 costs 142 EUR.", "142"),
    ("en, a count", FLIGHTS_JSON, "DY1872 has 1 stop.", "DY1872 has 0 stops.", "0"),
    ("en, sentences", "SK4705 leaves at 07:10 and costs 189 EUR. DY1872 leaves at 13:45 and costs 142 EUR.",
     "The DY1872 flight costs 142 EUR.", "The SK4705 flight costs 142 EUR.", "142"),
    ("en, a code", "Ingrid Dahl: seat 14C. Karin Berg: seat 22A.", "Ingrid Dahl sits in seat 14C.",
     "Ingrid Dahl sits in seat 22A.", "22a"),
    ("de", "Flug LH2024 kostet 310 Euro. Flug EW8472 kostet 95 Euro.", "Der Flug EW8472 kostet 95 Euro.",
     "Der Flug LH2024 kostet 95 Euro.", "95"),
    ("fr", "Le vol AF1234 part de la porte B12. Le vol KL5678 part de la porte D7.",
     "Le vol KL5678 part de la porte D7.", "Le vol AF1234 part de la porte D7.", "d7"),
    ("es", "Ana García: asiento 14C. Luis Pérez: asiento 22A.", "Ana García tiene el asiento 14C.",
     "Ana García tiene el asiento 22A.", "22a"),
    ("it", "Il volo AZ610 costa 120 euro. Il volo FR9012 costa 45 euro.", "Il volo FR9012 costa 45 euro.",
     "Il volo AZ610 costa 45 euro.", "45"),
    ("ja", "便SK4705は189ユーロです。便DY1872は142ユーロです。", "便DY1872は142ユーロです。",
     "便SK4705は142ユーロです。", "142"),
    ("zh", "航班SK4705价格为189欧元。航班DY1872价格为142欧元。", "航班DY1872价格为142欧元。",
     "航班SK4705价格为142欧元。", "142"),
    ("ko, a spaced unit", "SK4705편 가격은 189 유로입니다. DY1872편 가격은 142 유로입니다.",
     "DY1872편 가격은 142 유로입니다.", "SK4705편 가격은 142 유로입니다.", "142"),
    # a seat whose letter is also a scale (12B, 3K, 22M are codes as well as numbers)
    ("en, seat 22B", "Ingrid Dahl: seat 14C. Karin Berg: seat 22B.", "Karin Berg sits in seat 22B.",
     "Ingrid Dahl sits in seat 22B.", "22b"),
    ("sv, seats 14K and 22M", "Ingrid Dahl: plats 14K. Karin Berg: plats 22M.", "Ingrid Dahl sitter på plats 14K.",
     "Ingrid Dahl sitter på plats 22M.", "22m"),
    # a name that starts the answer, or stands by an apostrophe: a name or any word, as code sees it
    ("en, a first name first", "Ingrid Dahl: seat 14C. Karin Berg: seat 22A.", "Ingrid sits in seat 14C.",
     "Ingrid sits in seat 22A.", "22a"),
    ("en, a possessive", "Ingrid Dahl: seat 14C. Karin Berg: seat 22A.", "Seat 14C is Ingrid's.",
     "Seat 22A is Ingrid's.", "22a"),
    ("fr, an elided name", "Ingrid Dahl : siège 14C. Karin Berg : siège 22A.", "Le siège d'Ingrid est le 14C.",
     "Le siège d'Ingrid est le 22A.", "22a"),
    ("de, a surname first", "Ingrid Dahl: Platz 14C. Karin Berg: Platz 22A.", "Berg sitzt auf Platz 22A.",
     "Dahl sitzt auf Platz 22A.", "22a"),
    ("es, a plan first", "Plan Básico: 10 usuarios. Plan Pro: 50 usuarios.", "Básico permite 10 usuarios.",
     "Básico permite 50 usuarios.", "50"),
    # records in every layout a context takes (`text/records.py`): JSON on one line, escaped or not
    ("en, JSON on one line", 'search_flights returned: [{"flight": "SK4705", "price_eur": 189}, '
     '{"flight": "DY1872", "price_eur": 142}]', "SK4705 costs 189 EUR.", "SK4705 costs 142 EUR.", "142"),
    ("pl, escaped JSON",
     json.dumps([{"hotel": "Wawel Kraków", "pokój": "12B"}, {"hotel": "Łódź Plaza", "pokój": "7A"}]),
     "Hotel Łódź Plaza: pokój 7A.", "Hotel Łódź Plaza: pokój 12B.", "12b"),
    ("en, a CSV export", "flight,price_eur,stops\nSK4705,189,0\nDY1872,142,1", "DY1872 costs 142 EUR.",
     "SK4705 costs 142 EUR.", "142"),
    ("de, semicolons", "Flug;Preis (EUR);Stopps\nLH2024;310;0\nEW8472;95;1", "Der Flug EW8472 kostet 95 Euro.",
     "Der Flug LH2024 kostet 95 Euro.", "95"),
    ("fr, a Markdown table", "Vols du jour :\n\n| Vol | Porte | Départ |\n|---|---|---|\n| AF1234 | B12 | 08:40 |\n"
     "| KL5678 | D7 | 09:15 |", "Le vol KL5678 part de la porte D7.", "Le vol AF1234 part de la porte D7.", "d7"),
    ("es, YAML", "pasajeros:\n  - nombre: Ana García\n    asiento: 14C\n  - nombre: Luis Pérez\n    asiento: 22A",
     "Ana García tiene el asiento 14C.", "Ana García tiene el asiento 22A.", "22a"),
    ("en, key: value blocks", "Found 2 flights:\n\nFlight: SK4705\nPrice: 189 EUR\n\nFlight: DY1872\nPrice: 142 EUR",
     "DY1872 costs 142 EUR.", "SK4705 costs 142 EUR.", "142"),
    ("nb, key: value lines", "Fly: SK4705\nPris: 1 890 kr\nFly: DY1872\nPris: 1 420 kr", "DY1872 koster 1 420 kr.",
     "SK4705 koster 1 420 kr.", "1 420"),
    ("ja, TSV", "便\t価格（ユーロ）\nSK4705\t189\nDY1872\t142", "便DY1872は142ユーロです。",
     "便SK4705は142ユーロです。", "142"),
    # a name given to another thing, every word of it written: a value swapped between records or
    # sentences of one shape (the entity swaps of fact-checking sets)
    ("en, a city in records", BOOKINGS_JSON, "Ingrid Dahl is travelling to Bergen.",
     "Ingrid Dahl is travelling to Tromsø.", "tromsø"),
    ("en, a founder", "Acme was founded by John Smith in 1990. Beta was founded by Mary Jones in 1995.",
     "Acme was founded by John Smith.", "Acme was founded by Mary Jones.", "jones"),
    ("de, a seat", "Die Firma Acme hat ihren Sitz in Berlin. Die Firma Beta hat ihren Sitz in Hamburg.",
     "Die Firma Acme hat ihren Sitz in Berlin.", "Die Firma Acme hat ihren Sitz in Hamburg.", "hamburg"),
    ("fr, a birthplace", "Marie Curie est née à Varsovie. Pierre Curie est né à Paris.",
     "Marie Curie est née à Varsovie.", "Marie Curie est née à Paris.", "paris"),
    ("es, a hotel", "El hotel Bristol está en Oslo. El hotel Norge está en Bergen.",
     "El hotel Bristol está en Oslo.", "El hotel Bristol está en Bergen.", "bergen"),
    ("ru, a city", "Анна Иванова живёт в Москве. Борис Петров живёт в Казани.",
     "Анна Иванова живёт в Москве.", "Анна Иванова живёт в Казани.", "казани"),
    ("it, a restaurant", "Il ristorante Da Mario si trova a Roma. Il ristorante La Pergola si trova a Milano.",
     "Il ristorante Da Mario si trova a Roma.", "Il ristorante Da Mario si trova a Milano.", "milano"),
    ("en, a plan's feature", "The Pro plan includes SSO and Audit Logs. The Basic plan includes Email Support.",
     "The Pro plan includes SSO.", "The Basic plan includes SSO.", "sso"),
    ("nl, a CSV", "naam,stad,nachten\nIngrid Dahl,Bergen,3\nKarin Berg,Tromsø,2", "Ingrid Dahl woont in Bergen.",
     "Ingrid Dahl woont in Tromsø.", "tromsø"),
    ("pl, a team lead", "Zespołem Alfa kieruje Anna Nowak. Zespołem Beta kieruje Jan Kowalski.",
     "Zespołem Beta kieruje Jan Kowalski.", "Zespołem Alfa kieruje Jan Kowalski.", "jan"),
    ("sv, YAML", "resenärer:\n  - namn: Ingrid Dahl\n    stad: Bergen\n    plats: 14C\n  - namn: Karin Berg\n"
     "    stad: Tromsø\n    plats: 22A", "Karin Berg reser till Tromsø.", "Karin Berg reser till Bergen.", "bergen"),
    ("pt, key: value blocks", "Hóspede: Ana Costa\nQuarto: Vista Mar\nNoites: 3\n\nHóspede: Rui Silva\n"
     "Quarto: Jardim\nNoites: 2", "Ana Costa ficou no quarto Vista Mar.", "Rui Silva ficou no quarto Vista Mar.",
     "mar"),
    ("tr, a carrier", "Sipariş A: kargo firması Aras. Sipariş B: kargo firması Yurtiçi.",
     "Sipariş A kargo firması Aras ile gönderildi.", "Sipariş A kargo firması Yurtiçi ile gönderildi.", "yurtiçi"),
    # two things' values swapped inside one claim, each written with one of the words' names
    ("en, two prices in one sentence", FLIGHTS_JSON, "SK4705 costs 189 EUR and DY1872 costs 142 EUR.",
     "SK4705 costs 142 EUR and DY1872 costs 189 EUR.", "142"),
    ("en, values first", FLIGHTS_JSON, "189 EUR for SK4705 and 142 EUR for DY1872.",
     "142 EUR for SK4705 and 189 EUR for DY1872.", "189"),
    ("fr, respectively", FLIGHTS_JSON, "SK4705 et DY1872 coûtent 189 et 142 EUR.",
     "SK4705 et DY1872 coûtent 142 et 189 EUR.", "142"),
    ("ja, two prices", FLIGHTS_JSON, "SK4705は189ユーロ、DY1872は142ユーロです。",
     "SK4705は142ユーロ、DY1872は189ユーロです。", "142"),
    ("en, two seats", "Ingrid Dahl: seat 14C. Karin Berg: seat 22A.", "Ingrid Dahl has seat 14C and Karin Berg has "
     "seat 22A.", "Ingrid Dahl has seat 22A and Karin Berg has seat 14C.", "22a"),
    ("de, two seats", "Ingrid Dahl: Platz 14C. Karin Berg: Platz 22A.",
     "Karin Berg sitzt auf 22A, Ingrid Dahl auf 14C.", "Karin Berg sitzt auf 14C, Ingrid Dahl auf 22A.", "14c"),
    # two things named in one sentence: a code is asked where a word of its own clause finds the
    # other thing's record and that clause does not name the other thing
    ("en, a stop in the other's clause", FLIGHTS_VIA, "SK4705 is a direct flight, while DY1872 stops in CPH.",
     "SK4705 stops in CPH, unlike DY1872.", "sk4705"),
    ("fr, une escale", FLIGHTS_VIA, "SK4705 est un vol direct, tandis que DY1872 fait escale à CPH.",
     "SK4705 fait escale à CPH, contrairement à DY1872.", "sk4705"),
    ("en, the other's name set apart", FLIGHTS_VIA, "Unlike SK4705, DY1872 stops in CPH.",
     "SK4705, unlike DY1872, stops in CPH.", "sk4705"),
    ("zh, 经停", FLIGHTS_VIA, "SK4705是直飞航班，而DY1872在CPH经停。", "SK4705在CPH经停，与DY1872不同。", "sk4705"),
    ("it, uno scalo", FLIGHTS_VIA, "Il volo SK4705 è diretto, mentre DY1872 fa scalo a CPH.",
     "Il volo SK4705 fa scalo a CPH, a differenza di DY1872.", "sk4705"),
    ("en, one clause", FLIGHTS_VIA, "SK4705 is direct and DY1872 stops in CPH.",
     "SK4705 stops in CPH and DY1872 is direct.", "sk4705"),
    ("de, ein Satzteil", FLIGHTS_VIA, "SK4705 fliegt direkt und DY1872 hat einen Stopp in CPH.",
     "SK4705 hat einen Stopp in CPH und DY1872 fliegt direkt.", "sk4705"),
    ("ko, 하나의 절", FLIGHTS_VIA, "SK4705는 직항편이고 DY1872는 CPH를 경유합니다.",
     "SK4705는 CPH를 경유하고 DY1872는 직항편입니다.", "sk4705"),
    ("ja, 一つの節", FLIGHTS_VIA, "SK4705は直行便でDY1872はCPH経由です。", "SK4705はCPH経由でDY1872は直行便です。",
     "sk4705"),
    ("en, both named as one", FLIGHTS_VIA, "Of SK4705 and DY1872 only DY1872 stops in CPH.",
     "SK4705 and DY1872 both stop in CPH.", "sk4705"),
    ("zh, 两个航班", FLIGHTS_VIA, "SK4705是直飞的，DY1872在CPH经停。", "SK4705和DY1872都在CPH经停。", "sk4705"),
    ("en, a price in one clause", FLIGHTS_JSON, "SK4705 is direct and DY1872 costs 142 EUR.",
     "SK4705 costs 142 EUR and DY1872 is direct.", "sk4705"),
    ("ko, a price glued on", FLIGHTS_JSON, "SK4705는 직항편이고 DY1872는 142유로입니다.",
     "SK4705는 142유로이고 DY1872는 직항편입니다.", "sk4705"),
    ("es, una cláusula", FLIGHTS_VIA, "SK4705 es directo y DY1872 hace escala en CPH.",
     "SK4705 hace escala en CPH y DY1872 es directo.", "sk4705"),
    ("de, a booking's city", BOOKINGS_JSON, "Buchung QX7K2P geht nach Bergen; LM3N8R nach Tromsø.",
     "Buchung QX7K2P geht nach Tromsø, anders als LM3N8R.", "qx7k2p"),
    # a code or name with a case ending glued on (a Korean particle, a Turkish suffix after an
    # apostrophe, a Tamil or Malayalam ending): the same code or name
    ("ko, particles on codes", FLIGHTS_VIA, "DY1872는 CPH를 경유합니다.", "SK4705는 CPH를 경유합니다.", "sk4705"),
    ("tr, suffixes after an apostrophe", FLIGHTS_VIA, "DY1872'nin CPH'de aktarması var.",
     "SK4705'in CPH'de aktarması var.", "sk4705"),
    ("ta, a case ending", FLIGHTS_VIA, "DY1872 விமானம் CPHஇல் நிற்கிறது.", "SK4705 விமானம் CPHஇல் நிற்கிறது.",
     "sk4705"),
    ("ml, a case ending", FLIGHTS_VIA, "DY1872 CPHൽ നിർത്തുന്നു.", "SK4705 CPHൽ നിർത്തുന്നു.", "sk4705"),
    ("ko, a price", FLIGHTS_JSON, "DY1872는 142유로입니다.", "SK4705는 142유로입니다.", "142"),
    ("ko, a seat", "Ingrid Dahl: seat 14C. Karin Berg: seat 22A.", "Ingrid는 14C 좌석에 앉습니다.",
     "Ingrid는 22A 좌석에 앉습니다.", "22a"),
    ("ko, a city", BOOKINGS_JSON, "Ingrid Dahl은 Bergen으로 갑니다.", "Ingrid Dahl은 Tromsø로 갑니다.", "dahl"),
    ("tr, a city", BOOKINGS_JSON, "Ingrid Dahl Bergen'e gidiyor.", "Ingrid Dahl Tromsø'ya gidiyor.", "dahl"),
    ("ko, names in prose", "Ingrid Dahl은 Bergen에 삽니다. Karin Berg는 Tromsø에 삽니다.",
     "Karin Berg는 Tromsø에 삽니다.", "Ingrid Dahl은 Tromsø에 삽니다.", "tromsø"),
    ("ko, a status", STATUS_JSON, "QX7K2P 예약은 confirmed입니다.", "QX7K2P 예약은 cancelled입니다.", "cancelled"),
    ("ko, two prices", FLIGHTS_JSON, "SK4705는 189유로, DY1872는 142유로입니다.",
     "SK4705는 142유로, DY1872는 189유로입니다.", "142"),
    # a record's value in a script without spaces, found inside a run of it
    ("ja, a city in records", PASSENGERS_JA, "田中太郎さんは大阪に住んでいます。", "田中太郎さんは東京に住んでいます。",
     "東京"),
    ("ja, a seat", PASSENGERS_JA, "田中太郎さんの座席は14Cです。", "田中太郎さんの座席は22Aです。", "22a"),
    ("zh, an order's status", ORDERS_ZH, "王伟的订单已发货。", "王伟的订单已取消。", "已取消"),
    ("zh, a city in records", ORDERS_ZH, "王伟住在上海。", "王伟住在北京。", "北京"),
    ("th, a city in records", GUESTS_TH, "สมชายอาศัยอยู่ที่เชียงใหม่", "สมชายอาศัยอยู่ที่ภูเก็ต", "ภูเก็ต"),
    # two records' names or words given in another order in one claim: each record's fields tell whose
    ("en, two cities in one claim", BOOKINGS_JSON, "Ingrid Dahl goes to Bergen and Karin Berg to Tromsø.",
     "Ingrid Dahl goes to Tromsø and Karin Berg to Bergen.", "bergen"),
    ("de, two cities respectively", BOOKINGS_JSON, "Ingrid Dahl und Karin Berg fahren nach Bergen und Tromsø.",
     "Ingrid Dahl und Karin Berg fahren nach Tromsø und Bergen.", "bergen"),
    ("ja, two cities", PASSENGERS_JA, "田中太郎さんは大阪、佐藤花子さんは東京です。",
     "田中太郎さんは東京、佐藤花子さんは大阪です。", "大阪"),
    ("en, two named as one", BOOKINGS_JSON, "Of Ingrid Dahl and Karin Berg only Karin Berg goes to Tromsø.",
     "Ingrid Dahl and Karin Berg both go to Tromsø.", "dahl"),
    ("en, two statuses by name", STATUS_JSON, "Ingrid Dahl's booking is confirmed and Karin Berg's is cancelled.",
     "Ingrid Dahl's booking is cancelled and Karin Berg's is confirmed.", "cancelled"),
    # a record's field value in small letters, given to another record
    ("en, a booking's status", STATUS_JSON, "Booking QX7K2P is confirmed.", "Booking QX7K2P has been cancelled.",
     "cancelled"),
    ("de, ein Status", '[{"buchung": "QX7K2P", "status": "bestätigt"}, {"buchung": "LM3N8R", "status": "storniert"}]',
     "Die Buchung QX7K2P ist bestätigt.", "Die Buchung QX7K2P ist storniert.", "storniert"),
    ("fr, un repas", json.dumps([{"réservation": "QX7K2P", "repas": "végétarien"},
                                 {"réservation": "LM3N8R", "repas": "casher"}], indent=2),
     "La réservation QX7K2P a un repas végétarien.", "La réservation QX7K2P a un repas casher.", "casher"),
    ("es, a CSV", "reserva,estado,noches\nQX7K2P,confirmada,3\nLM3N8R,cancelada,2",
     "La reserva QX7K2P está confirmada.", "La reserva QX7K2P está cancelada.", "cancelada"),
    ("en, two statuses in one claim", STATUS_JSON, "QX7K2P is confirmed and LM3N8R is cancelled.",
     "QX7K2P is cancelled and LM3N8R is confirmed.", "cancelled"),
]


@pytest.mark.parametrize("verdicts", ["all", "label"])
@pytest.mark.parametrize(("language", "context", "output", "_", "__"), GIVEN_APART, ids=[c[0] for c in GIVEN_APART])
def test_a_correct_judge_passes_a_value_given_with_its_name(fake, make_fake_judge, verdicts, language, context,
                                                            output, _, __):
    fake.facts(supported=[output])
    assert Faithfulness(make_fake_judge(verdicts=verdicts)).run(output, [context]).score == 1.0
    assert Hallucination(make_fake_judge(verdicts=verdicts)).run(output, [context]).score == 0.0


@pytest.mark.parametrize("verdicts", ["all", "label"])
@pytest.mark.parametrize(("language", "context", "_", "wrong", "value"), GIVEN_APART, ids=[c[0] for c in GIVEN_APART])
def test_a_value_given_only_apart_from_its_name_fails_though_the_verdict_says_supported(
        fake, make_fake_judge, verdicts, language, context, _, wrong, value):
    """One wrong answer (the verdict): the value is written, but only in another thing's record,
    so the judge is asked whether the context gives it for what the words say, and says no."""
    fake.facts(supported=[wrong], unnamed=[value])
    result = Faithfulness(make_fake_judge(verdicts=verdicts)).run(wrong, [context])
    assert result.score == 0.0 and "for something else" in result.verdicts[0].reason, result.verdicts
    assert Hallucination(make_fake_judge(verdicts=verdicts)).run(wrong, [context]).score == 1.0


COIN_FLIP = {"p_supported": 0.56, "p_contradicted": 0.3, "p_evidence": 0.6}
"""The offline judge's answers to a swap it cannot read (benchmarks/README.md, round 25): support
a coin flip, no contradiction, the evidence alone above its line; and the second question a yes."""


CLEAN = [case for case in GIVEN_APART if not unwritten(case[2], [case[1]], at_starts=False)]
"""The faithful answers whose every name and number the context writes, as code sees them ("Euro"
beside "EUR" and a Japanese particle are not: those are held to SUPPORTED_FROM already)."""


@pytest.mark.parametrize(("language", "context", "output", "_", "__"), CLEAN, ids=[c[0] for c in CLEAN])
def test_a_coin_flip_carries_a_clean_claim(fake, make_fake_judge, language, context, output, _, __):
    """Where code sees no risk, a coin-flip support answer with a second reading that agrees is
    support: a faithful price at P 0.56 does not fail the answer."""
    fake.facts(**{key: {output: p} for key, p in COIN_FLIP.items()})
    assert Faithfulness(make_fake_judge(verdicts="label")).run(output, [context]).score == 1.0


@pytest.mark.parametrize(("language", "context", "_", "wrong", "__"), GIVEN_APART, ids=[c[0] for c in GIVEN_APART])
def test_a_coin_flip_never_carries_a_value_given_apart(fake, make_fake_judge, language, context, _, wrong, __):
    """A value the context writes only for something else is a risk code sees: the same coin-flip
    answers, and a yes to the second question, leave the swap unsupported."""
    fake.facts(**{key: {wrong: p} for key, p in COIN_FLIP.items()})
    result = Faithfulness(make_fake_judge(verdicts="label")).run(wrong, [context])
    assert result.score == 0.0, result.verdicts
    assert Hallucination(make_fake_judge(verdicts="label")).run(wrong, [context]).score == 1.0


@pytest.mark.parametrize("verdicts", ["all", "label"])
@pytest.mark.parametrize(("output", "asked"), [
    ("DY1872 costs 142 EUR, 47 EUR less than SK4705.", False),  # each name in a clause of its own
    ("SK4705 costs more than 142 EUR.", True),  # 142 is DY1872's, which the words do not name
])
def test_a_correct_judge_passes_a_value_compared_across_records(fake, make_fake_judge, verdicts, output, asked):
    """A comparison of two records: a value is asked about where the words do not name the other
    record, or name it only outside the value's clause; a correct judge's yes passes it."""
    fake.facts(supported=[output])
    assert Faithfulness(make_fake_judge(verdicts=verdicts)).run(output, [FLIGHTS_JSON]).score == 1.0
    found = [r for r in fake.requests if "other_role" in str(r["body"])] if verdicts == "all" else _asked(fake, "role")
    assert bool(found) == asked, fake.requests


def test_a_value_for_something_else_is_asked_in_the_verdicts_request_over_http(server, make_judge):
    """The second question travels in the one verdicts request: still two requests."""
    context, swapped = LISTED[1][1], LISTED[1][3]
    server.facts(supported=[swapped], unnamed=["400"])
    result = Faithfulness(make_judge()).run(swapped, [context])
    assert result.score == 0.0 and len(server.requests) == 2
    assert '"other_role": [\n"400"\n]' in server.calls("verdicts")[0]["body"]["messages"][-1]["content"]


def test_words_the_context_writes_only_more_weakly_are_asked_and_the_reason_says_so(server, make_judge):
    output = "The flight is delayed by fog."
    server.facts(supported=[output], unnamed=["The flight is delayed by fog"])
    result = Faithfulness(make_judge()).run(output, ["The flight may be delayed by fog."])
    assert result.score == 0.0 and len(server.requests) == 2
    assert result.verdicts[0].reason.startswith("the context writes these words only more weakly: it writes "
                                                "“The flight may be delayed by fog”")


def test_words_the_context_writes_only_negated_are_asked_with_its_words_over_http(server, make_judge):
    """A hosted judge is told what the context writes in the words' place, as the offline one is:
    "context_writes", in the same one verdicts request."""
    output = "Breakfast is included in the rate."
    server.facts(supported=[output], unnamed=["Breakfast is included in the rate"])
    result = Faithfulness(make_judge()).run(output, ["Breakfast is not included in the rate."])
    assert result.score == 0.0 and len(server.requests) == 2
    assert result.verdicts[0].reason.startswith("the context writes these words only the other way: it writes "
                                                "“Breakfast is not included in the rate”")
    prompt = server.calls("verdicts")[0]["body"]["messages"][-1]["content"]
    assert '"context_writes": [\n"Breakfast is not included in the rate"\n]' in prompt


@pytest.mark.parametrize("output", [
    "Acme was founded in 1997 [1]. It employs 40 people [2].",
    "Acme was founded in 1997.[^1] It employs 40 people.[^2]",
    "Acme was founded in 1997 [1, 2]. It employs 40 people 【3】.",
])
def test_reference_markers_are_no_numbers_to_ask_about(server, make_judge, output):
    """A RAG answer cites its sources: "[1]" names a source, no amount. A judge that reads the
    specifics question literally ("the context never writes 1") is never asked it."""
    claims = ["Acme was founded in 1997", "It employs 40 people"]
    server.facts(claims={output: claims}, supported=claims, unnamed=["1", "2", "3"])
    context = ["Acme was founded in 1997. It employs 40 people."]
    result = Faithfulness(make_judge()).run(output, context)
    assert result.score == 1.0, result.verdicts
    assert not any("not_in_context" in r["body"]["messages"][-1]["content"] for r in server.calls("verdicts"))


def test_a_wrong_year_beside_a_reference_marker_is_still_contradicted(server, make_judge):
    output = "Acme was founded in 1999 [1]."
    server.facts(supported=[output])
    result = Faithfulness(make_judge()).run(output, ["Acme was founded in 1997."])
    assert result.score == 0.0 and "decided without asking" in result.verdicts[0].reason


RESTATED = [  # (the output, one fact's claims, the other claims, the context: it gives only that fact)
    ("The basic plan costs 12 EUR a month. It includes 2 seats. It has no phone support.",
     ["The basic plan costs 12 EUR a month", "basic plan costs 12 EUR", "costs 12 EUR a month"],
     ["It includes 2 seats", "It has no phone support"], "The basic plan costs 12 EUR a month."),
    ("The basic plan costs 12 EUR a month. It includes 2 seats. It has no phone support.",  # sliding windows
     ["The basic plan costs 12 EUR", "plan costs 12 EUR a month", "basic plan costs 12"],
     ["It includes 2 seats", "It has no phone support"], "The basic plan costs 12 EUR a month."),
    ("Der Basistarif kostet 12 Euro im Monat. Er umfasst 2 Plätze. Telefonsupport gibt es nicht.",
     ["Der Basistarif kostet 12 Euro", "kostet 12 Euro im Monat", "Basistarif kostet"],
     ["Er umfasst 2 Plätze", "Telefonsupport gibt es nicht"], "Der Basistarif kostet 12 Euro im Monat."),
    ("基本プランは月額12ユーロです。席は2つです。電話サポートはありません。",
     ["基本プランは月額12ユーロ", "プランは月額12ユーロです", "月額12ユーロ"],
     ["席は2つです", "電話サポートはありません"], "基本プランは月額12ユーロです。"),
    # Korean: whole words, particles kept
    ("기본 요금제 가격은 매달 12유로 정도입니다. 좌석은 2개입니다. 전화 지원은 없습니다.",
     ["기본 요금제 가격은 매달 12유로", "가격은 매달 12유로 정도입니다", "요금제 가격은 매달"],
     ["좌석은 2개입니다", "전화 지원은 없습니다"], "기본 요금제 가격은 매달 12유로 정도입니다."),
    ("基础套餐每月12欧元起。包含2个席位。没有电话支持。", ["基础套餐每月12", "套餐每月12欧元起", "每月12欧元"],
     ["包含2个席位", "没有电话支持"], "基础套餐每月12欧元起。"),
]


@pytest.mark.parametrize(("output", "restated", "others", "context"), RESTATED)
def test_one_fact_quoted_three_times_counts_once(server, make_judge, output, restated, others, context):
    """One wrong answer (the claims step quotes one fact three times, inside or across each other's
    words): it counts once, 1 of 3, not 3 of 5. (The context is that fact's sentence, whole.)"""
    server.facts(claims={output: restated + others}, supported=[*restated, context])
    result = Faithfulness(make_judge()).run(output, [context])
    assert result.score == 0.33 and len(result.verdicts) == 3
    assert any("counted once" in note for note in result.notes)
    assert Hallucination(make_judge()).run(output, [context]).score == 0.67


def test_claims_with_a_gap_that_share_a_subject_count_apart(server, make_judge):
    """Two facts of one sentence, each quoting its subject: they share words but restate nothing,
    so the wrong one is not hidden behind the right one (0.50, not 0.00), and a right pair is 2 of 2."""
    output = "Acme was founded in 1997, employs 40 people."
    claims = ["Acme was founded in 1997", "Acme … employs 40 people"]
    server.facts(claims={output: claims}, supported=claims[:1])
    result = Faithfulness(make_judge()).run(output, ["Acme was founded in 1997. It employs 12 people."])
    assert result.score == 0.5 and len(result.verdicts) == 2 and not result.notes
    server.facts(supported=[*claims[1:], output])  # and their sentence, which they quote whole
    assert Faithfulness(make_judge()).run(output, ["Acme was founded in 1997 and employs 40 people."]).score == 1.0


def test_a_wrong_fact_quoted_twice_across_each_other_counts_once(server, make_judge):
    """Exact both ways: the wrong fact counts once beside two right ones, 2 of 3, not 2 of 4; a
    correct judge's score for the spec's counting of what the output says."""
    output = "The plan costs 12 EUR a month. It includes 2 seats. Support is by phone."
    claims = ["The plan costs 12 EUR", "plan costs 12 EUR a month", "It includes 2 seats", "Support is by phone"]
    server.facts(claims={output: claims}, supported=claims[2:])
    result = Faithfulness(make_judge()).run(output, ["The plan costs 10 EUR a month, with 2 seats and phone support."])
    assert result.score == 0.67 and len(result.verdicts) == 3


def test_an_unquoted_sentence_with_a_number_the_context_never_writes_is_always_judged(server, make_judge):
    """Two answers say "no fact" (the claims step and the facts question), but the sentence writes a
    number the context does not: it is judged (issue 52: an offline P of 0.39 dropped it)."""
    output = "The plan costs 12 EUR. Refunds take 45 days."
    server.facts(claims={output: ["The plan costs 12 EUR"]}, supported=["The plan costs 12 EUR"],
                 not_facts=["Refunds take 45 days."])
    result = Faithfulness(make_judge()).run(output, ["The plan costs 12 EUR. Refunds take 14 days."])
    assert result.score == 0.5 and "Refunds take 45 days." in result.claims


@pytest.mark.parametrize("verdicts", ["all", "label"])
def test_a_sentence_no_claim_quotes_that_writes_a_number_the_context_does_not_is_judged(fake, make_fake_judge,
                                                                                       verdicts):
    """The claims step and the facts question both say "no fact" (two wrong answers), yet the
    sentence writes 45, which the context never does: it is still judged, and fails."""
    output = "The plan costs 12 EUR. Shipping is free within 45 days."
    fake.facts(claims={output: ["The plan costs 12 EUR"]}, supported=["The plan costs 12 EUR"],
               not_facts=["Shipping is free within 45 days."], p_fact={"Shipping is free within 45 days.": 0.05})
    result = Faithfulness(make_fake_judge(verdicts=verdicts)).run(output, ["The plan costs 12 EUR."])
    assert result.score == 0.5 and "Shipping is free within 45 days." in result.claims


# an answer with markup whose numbers are labels: a heading, a step, an option
MARKUP = [
    ("### Step 2\nPick SK4705 at 189 EUR.", ["Pick SK4705 at 189 EUR"], "### Step 2"),
    ("Option 3: SK4705 at 189 EUR.\n\n## Part 4\nIt leaves at 07:10.", ["Option 3: SK4705 at 189 EUR",
                                                                        "It leaves at 07:10"], "## Part 4"),
    ("Étape 2 :\nPrenez le vol SK4705 à 189 EUR.", ["Prenez le vol SK4705 à 189 EUR"], "Étape 2 :"),
    ("ステップ2\nSK4705は189 EURです。", ["SK4705は189 EURです"], "ステップ2"),
]
FLIGHTS = ["Flight SK4705 leaves at 07:10 and costs 189 EUR. You may pick any option."]


@pytest.mark.parametrize("verdicts", ["all", "label"])
@pytest.mark.parametrize(("output", "claims", "heading"), MARKUP)
def test_a_correct_judge_passes_a_heading_whose_number_is_a_label(fake, make_fake_judge, verdicts, output, claims,
                                                                   heading):
    """The claims step quotes nothing of the heading, the facts question says it states no fact,
    and asked about its number, the judge says it is a label: left out, though the context never
    writes the number."""
    fake.facts(claims={output: claims}, supported=claims, not_facts=[heading], labels_only=[heading])
    assert Faithfulness(make_fake_judge(verdicts=verdicts)).run(output, FLIGHTS).score == 1.0
    assert Hallucination(make_fake_judge(verdicts=verdicts)).run(output, FLIGHTS).score == 0.0


# (an answer whose sentences start with a step's or list item's label, the claims quoted from them
# without it, the label's number): the words the claims leave are a label, which the context never
# writes, and a literal judge says it does not give
LABELLED_STEPS = [
    ("Step 1: pick SK4705 at 189 EUR.", ["pick SK4705 at 189 EUR"], "1"),
    ("#1 SK4705 leaves at 07:10. #2 costs 189 EUR.", ["SK4705 leaves at 07:10", "costs 189 EUR"], "2"),
    ("Schritt 3: SK4705 für 189 EUR buchen.", ["SK4705 für 189 EUR buchen"], "3"),
    ("Étape 2 : réservez SK4705 à 189 EUR.", ["réservez SK4705 à 189 EUR"], "2"),
    ("Paso 4: reserve SK4705 por 189 EUR.", ["reserve SK4705 por 189 EUR"], "4"),
    ("Шаг 1: забронируйте SK4705 за 189 EUR.", ["забронируйте SK4705 за 189 EUR"], "1"),
    ("ステップ1：SK4705を189 EURで予約します。", ["SK4705を189 EURで予約します"], "1"),
    ("1단계: SK4705를 189 EUR에 예약하세요.", ["SK4705를 189 EUR에 예약하세요"], "1"),
]


@pytest.mark.parametrize("verdicts", ["all", "label"])
@pytest.mark.parametrize(("output", "claims", "label"), LABELLED_STEPS)
def test_a_correct_judge_passes_a_label_the_claims_leave_of_their_sentence(fake, make_fake_judge, verdicts, output,
                                                                         claims, label):
    """The sentence is judged for what its claims leave; that states no fact, and asked about the
    number the context never writes, the judge says it is a label: left out, as a heading is.
    (Counted whatever was said, a literal no to "does the context give 2?" failed the answer.)"""
    fake.facts(claims={output: claims}, supported=[*claims, *sentences(output)], labels_only=sentences(output),
               unnamed=[label])
    result = Faithfulness(make_fake_judge(verdicts=verdicts)).run(output, FLIGHTS)
    assert result.score == 1.0, [(v.statement, v.verdict, v.reason) for v in result.verdicts]


@pytest.mark.parametrize("verdicts", ["all", "label"])
def test_a_wrong_number_the_claims_leave_of_their_sentence_is_still_judged(fake, make_fake_judge, verdicts):
    """The claims step leaves the wrong price out and the facts question says the rest states no
    fact: two wrong answers, and the numbers question (149 is a price, no label) still counts it."""
    output = "SK4705 leaves at 07:10 and costs 149 EUR."
    fake.facts(claims={output: ["SK4705 leaves at 07:10"]}, supported=["SK4705 leaves at 07:10"],
               contradicted=[output], unnamed=["149"])
    result = Faithfulness(make_fake_judge(verdicts=verdicts)).run(output, FLIGHTS)
    assert result.score == 0.5 and output in result.claims, [(v.statement, v.verdict) for v in result.verdicts]


@pytest.mark.parametrize("verdicts", ["all", "label"])
@pytest.mark.parametrize("output", ["SK4705 leaves at 07:10 ✈️ and costs 189 EUR.", "Have a nice trip ❤️! SK4705 "
                                    "leaves at 07:10.", "SK4705 leaves at 07:10 ☀︎.", "Flight SK4705™ leaves at 07:10.",
                                    "SK4705 Flex℠ costs 189 EUR."])
def test_signs_that_are_no_word_are_not_asked_about(fake, make_fake_judge, verdicts, output):
    """U+FE0F and U+FE0E after an emoji are marks with no letter, and NFKC writes ™ and ℠ as
    letters glued to the word before ("sk4705tm"): each was a token the context never writes, asked
    about, and an answer "not given" (as a literal judge may say of them) failed a faithful answer."""
    fake.facts(supported=[output, *sentences(output)], unnamed=["\ufe0f", "\ufe0e", "sk4705tm", "flexsm"],
               not_facts=["Have a nice trip ❤️!"])
    assert Faithfulness(make_fake_judge(verdicts=verdicts)).run(output, FLIGHTS).score == 1.0


# an answer laid out in Markdown: the lines that only mark up are no sentences, asked nothing
LAID_OUT = [
    ("| Flight | Departs | Price |\n|---|:---:|---:|\n| SK4705 | 07:10 | 189 EUR |",
     ["SK4705 | 07:10 | 189 EUR"], ["| Flight | Departs | Price |"]),
    ('```json\n{"flight": "SK4705", "price_eur": 189}\n```', ['"flight": "SK4705", "price_eur": 189'], []),
    ("Your flight:\n\n---\n\nSK4705 leaves at 07:10.\n\n***\n\n~~~\nSK4705: 189 EUR\n~~~",
     ["SK4705 leaves at 07:10", "SK4705: 189 EUR"], ["Your flight:"]),
]


@pytest.mark.parametrize("verdicts", ["all", "label"])
@pytest.mark.parametrize(("output", "claims", "not_facts"), LAID_OUT)
def test_a_correct_judge_passes_an_answer_laid_out_in_markdown(fake, make_fake_judge, verdicts, output, claims,
                                                              not_facts):
    """A code fence, a table's rule and a horizontal rule state nothing: no question about them (a
    judge that answers that one "states a fact" would otherwise judge "|---|" against the context)."""
    fake.facts(claims={output: claims}, supported=claims, not_facts=not_facts)
    result = Faithfulness(make_fake_judge(verdicts=verdicts)).run(output, FLIGHTS)
    assert result.score == 1.0, [(v.statement, v.verdict) for v in result.verdicts]


def test_markdown_lines_that_only_mark_up_are_no_sentences():
    text = "| A | B |\n|---|---|\n| 1 | 2 |\n```python\nx = 1\n```\n---\n* * *\n~~~\n- item\n--\n***Bold***"
    assert sentences(text) == ("| A | B |", "| 1 | 2 |", "x = 1", "item", "--", "***Bold***")


def test_a_judge_that_quotes_an_outputs_code_fences_is_read_over_http(server, make_judge):
    """The verdicts echo the words, fences and all: the answer is JSON, not a fenced block."""
    output = "Run ```pip install acme==2.1``` to get version 2.1."
    server.facts(supported=[output])
    result = Faithfulness(make_judge()).run(output, ["Version 2.1 is installed with pip install acme==2.1."])
    assert result.score == 1.0 and [c.attempts for c in result.judge_calls] == [1, 1]


@pytest.mark.parametrize("verdicts", ["all", "label"])
def test_a_wrong_no_fact_answer_drops_no_number_the_context_never_writes(fake, make_fake_judge, verdicts):
    """One wrong answer (the facts question), the claims step silent on the sentence: the numbers
    question says 45 is stated as a fact, so the sentence is judged and fails the answer."""
    output = "Pick SK4705 at 189 EUR. Refunds take 45 days."
    fake.facts(claims={output: ["Pick SK4705 at 189 EUR"]}, supported=["Pick SK4705 at 189 EUR"],
               not_facts=["Refunds take 45 days."], p_fact={"Refunds take 45 days.": 0.05})
    result = Faithfulness(make_fake_judge(verdicts=verdicts)).run(output, FLIGHTS)
    assert result.score == 0.5 and "Refunds take 45 days." in result.claims


def test_an_assertion_costs_a_hosted_judge_two_requests(server, make_judge):
    """Claims, then one request with every verdict and narrow question; the output sent once."""
    output = "Hello! Acme was founded in 1997 in Oslo. It has 40 staff, none in Bergen. Can I help?"
    server.facts(claims={output: ["Acme was founded in 1997", "Acme … in Oslo", "It has 40 staff"]},
                 supported=["Acme was founded in 1997", "Acme … in Oslo", "It has 40 staff"],
                 not_facts=["Hello!", "Can I help?"])
    result = Faithfulness(make_judge()).run(output, ["Acme was founded in 1997 in Oslo. It has 40 staff."])
    assert [c.step for c in result.judge_calls] == ["claims", "verdicts"] and len(server.requests) == 2


# -- the same cases in real pytest runs: assert_faithful and assert_not_hallucinated at 1.0 / 0.0 --

INNER = """
import json
import pytest
from pytest_llmfaith import assert_faithful, assert_not_hallucinated

CASES = json.loads({cases!r})
each = pytest.mark.parametrize(("output", "context"), CASES, ids=[str(i) for i in range(len(CASES))])

@each
def test_faithful(output, context):
    assert_faithful(output, [context], min_score=1.0)

@each
def test_not_hallucinated(output, context):
    assert_not_hallucinated(output, [context], max_score=0.0)
"""


def _inner_run(pytester: pytest.Pytester, server, cases: list[tuple[str, str]]) -> pytest.RunResult:
    pytester.makepyfile(test_cases=INNER.format(cases=json.dumps(cases, ensure_ascii=False)))
    return run(pytester, server, "-p", "no:randomly")


@pytest.mark.usefixtures("litellm_warmed_up", "clean_env")
def test_in_a_pytest_run_a_correct_judge_passes_every_faithful_answer(pytester, server):
    cases = ([(out, ctx) for _, ctx, out, _ in FOUNDED] + [(out, ctx) for _, out, ctx in FAITHFUL]
             + [(out, ctx) for _, ctx, out, *_ in LISTED + LISTED_APART + ANOTHER_FORM]
             + [(out, ctx) for ctx, out in OWN_FAITHFUL + STARTS_FAITHFUL]
             + [(out, ctx) for _, ctx, out, *_ in WEEKDAYS]
             + [(out, ctx) for _, ctx, out, *_ in PART_OF_A_SENTENCE]
             + [(right, ctx) for _, ctx, _, _, right, _ in JOINED])
    server.facts(supported=[out for out, _ in cases] + [claim for *_, claim, _ in PART_OF_A_SENTENCE]
                 + [half for *_, halves in JOINED for half in halves],
                 claims={**{out: [claim] for _, _, out, claim, _ in PART_OF_A_SENTENCE},
                         **{right: halves for *_, right, halves in JOINED}},
                 changes=[claim for *_, claim, _ in PART_OF_A_SENTENCE])
    _inner_run(pytester, server, cases).assert_outcomes(passed=2 * len(cases))


@pytest.mark.usefixtures("litellm_warmed_up", "clean_env")
def test_in_a_pytest_run_one_wrong_judge_answer_passes_no_unfaithful_answer(pytester, server):
    """Each case has one wrong answer: the verdict says supported (or, for a negation, the claims
    step leaves it out and the verdict on the words says supported; for halves each true alone,
    "changed?" says no)."""
    founded = [(wrong, ctx) for _, ctx, _, wrong in FOUNDED]
    swapped = [(out, ctx) for _, ctx, _, out, _ in LISTED]
    named = [(out, ctx) for out, ctx, _ in UNWRITTEN]
    negated = [(out, "Pets are not allowed. Zorblat employs 12 people. The fee is 25 EUR.") for out, _ in NEGATED]
    dated = [(wrong, ctx) for _, ctx, _, wrong, _ in ANOTHER_FORM]
    own = [(out, ctx) for ctx, out, _ in OWN_UNFAITHFUL]
    totals = [(wrong, ctx) for _, ctx, *_, wrong in PART_OF_A_SENTENCE]
    first_words = [(out, ctx) for _, ctx, out, _ in AT_A_START]
    days = [(wrong, ctx) for _, ctx, _, wrong, _ in WEEKDAYS]
    joined = [(wrong, ctx) for _, ctx, wrong, *_ in JOINED]
    cases = founded + swapped + named + dated + own + totals + first_words + days + negated + joined
    server.facts(supported=[out for out, _ in founded + swapped + named + dated + own + totals + first_words + days]
                 + [claim for _, claim in NEGATED] + [half for _, _, _, halves, *_ in JOINED for half in halves],
                 unnamed=[value for *_, value in LISTED]
                 + [token for *_, token in UNWRITTEN + ANOTHER_FORM + AT_A_START + WEEKDAYS]
                 + [token for *_, token in OWN_UNFAITHFUL if token]
                 + [wrong_total(output, wrong) for _, _, output, _, wrong in PART_OF_A_SENTENCE],
                 claims={**{out: [claim] for out, claim in NEGATED},
                         **{wrong: halves for _, _, wrong, halves, *_ in JOINED}},
                 contradicted=[out for out, _ in NEGATED + joined],
                 changes=[claim for _, claim in NEGATED])
    _inner_run(pytester, server, cases).assert_outcomes(failed=2 * len(cases))


TOOL_RESULTS = ['search_flights(origin="OSL") returned:\n{\n  "flight": "DY1872",\n  "price_eur": 142,\n  "stops": 1,\n'
                '  "via": "CPH"\n}',
                'refund_policy(fare="Light") returned: Light fares are non-refundable. Airport taxes (31 EUR on this '
                'route) are refunded on request.',
                'get_booking(ref="ZZ9999") failed: Error: booking ZZ9999 not found',
                'erstattung(tarif="Light") returned: Light-Tarife werden nicht erstattet. Flughafensteuern (31 EUR) '
                'werden auf Anfrage erstattet.']
READ_AGAIN = ["DY1872 stops in CPH.", "Airport taxes of 31 EUR are refunded on request.",
              "I could not find a booking ZZ9999.", "Die Flughafensteuern von 31 EUR werden auf Anfrage erstattet."]
NOT_READ_AGAIN = ["DY1872 is a direct flight.", "Airport taxes are not refunded on request.",
                  "Your booking ZZ9999 is confirmed.", "Light-Tarife werden erstattet."]
BANDS = {  # P(supported) and P(contradicted) with the whole context, P(supported) on the evidence alone
    "coin flip": (0.58, 0.66, 0.62),  # the borderline: a clean claim read again, held to 0.50
    "dispute": (0.67, 0.74, 0.66),  # both leaning their own way, as the offline judge beside "non-refundable"
}


@pytest.mark.usefixtures("litellm_warmed_up", "clean_env")
@pytest.mark.parametrize("band", BANDS)
@pytest.mark.parametrize("wrong", ["support", "evidence"])
def test_in_a_pytest_run_the_evidence_reading_needs_two_answers(pytester, server, wrong, band):
    """Label verdicts over tool results, as the offline judge gives them: both questions with the
    whole context leaning yes. Read again with only the nearest passages, the faithful answers
    pass; an unfaithful one with one wrong answer (the support answer, beside an evidence answer
    that is right but, in a dispute, over 0.50; or a yes on the evidence alone where the support
    answer is right) still fails."""
    p_supported, p_contradicted, p_evidence = BANDS[band]
    unfaithful = (p_supported, 0.55 if band == "dispute" else 0.3) if wrong == "support" else (0.2, 0.9)
    server.facts(p_supported={**dict.fromkeys(READ_AGAIN, p_supported), **dict.fromkeys(NOT_READ_AGAIN, unfaithful[0])},
                 p_contradicted=dict.fromkeys(READ_AGAIN + NOT_READ_AGAIN, p_contradicted),
                 p_evidence={**dict.fromkeys(READ_AGAIN, p_evidence), **dict.fromkeys(NOT_READ_AGAIN, unfaithful[1])})
    pytester.makepyfile(test_cases=INNER.format(cases=json.dumps(
        [(out, "\n".join(TOOL_RESULTS)) for out in READ_AGAIN + NOT_READ_AGAIN], ensure_ascii=False)))
    result = run(pytester, server, "-p", "no:randomly", "--llm-judge-verdicts=label")
    result.assert_outcomes(passed=2 * len(READ_AGAIN), failed=2 * len(NOT_READ_AGAIN))
    asked = [r["body"]["messages"][-1]["content"] for r in server.calls("verdicts")]
    evidence = [a for a in asked if "The most relevant sentences" not in a]
    # the context writes "nicht erstattet" and "are refunded": code sees those two the other way, and
    # a claim code sees a risk in is asked about it, never read again on the evidence alone
    negated = ["Airport taxes are not refunded on request.", "Light-Tarife werden erstattet."]
    assert [out for out in NOT_READ_AGAIN if values_in_other_roles(out, TOOL_RESULTS)] == negated
    read_again = len(READ_AGAIN) + (len(NOT_READ_AGAIN) - len(negated) if wrong == "support" else 0)
    assert len(evidence) == 2 * read_again  # both scorers, the cache off


def _asked(fake, question: str) -> list[str]:
    from judge_server import label_question

    return [about for r in fake.requests if (found := label_question(r["body"]["messages"]))[0] == question
            for about in [found[1]]]


def test_the_offline_judge_asks_changed_only_where_a_sentence_could_hold_the_claim(fake, make_fake_judge):
    """A claim is held to its sentence only where the sentence is not supported: a sentence judged
    supported, with no narrow question left that could overrule it, needs no "changed?" (one call
    fewer); one judged unsupported does, and holds the claim."""
    output, claim = "Acme, founded in 1997, employs 40 people.", "Acme, founded in 1997"
    fake.facts(claims={output: [claim]}, supported=[claim, output], says_more=[output], changes=[claim])
    context = ["Acme was founded in 1997 and employs 40 people."]
    result = Faithfulness(make_fake_judge(verdicts="label")).run(output, context)
    assert result.score == 1.0 and _asked(fake, "changed") == []
    fake.reset()
    fake.facts(claims={output: [claim]}, supported=[claim], says_more=[output], changes=[claim])
    result = Faithfulness(make_fake_judge(verdicts="label")).run(output, ["Acme was founded in 1997."])
    assert _asked(fake, "changed") == [claim] and result.score == 0.0


def test_a_sentence_two_claims_leave_something_of_is_judged_once_before_any_changed(fake, make_fake_judge):
    """Two supported claims share one sentence: the offline judge judges the sentence once; it is
    supported, so neither claim asks "changed?" (two calls fewer). Contradicted, both ask, and the
    one the rest of the sentence changes is held to it."""
    output = "The cheapest flight is DY1872 at 142 EUR, with one stop in CPH."
    claims = ["The cheapest flight is DY1872 at 142 EUR", "with one stop in CPH"]
    context = ["DY1872 costs 142 EUR and stops once, in CPH; SK4705 costs 189 EUR."]
    fake.facts(claims={output: claims}, supported=[*claims, output], changes=[claims[1]])
    assert Faithfulness(make_fake_judge(verdicts="label")).run(output, context).score == 1.0
    assert _asked(fake, "changed") == [] and _asked(fake, "supported").count(output) == 1
    fake.reset()
    fake.facts(claims={output: claims}, supported=claims, contradicted=[output], changes=[claims[1]])
    result = Faithfulness(make_fake_judge(verdicts="label")).run(output, context)
    assert sorted(_asked(fake, "changed")) == sorted(claims) and result.score == 0.5


# -- anywhere: every answer of the judge, one at a time, the wrong one --------------------------

# (the context, a faithful sentence, a wrong one beside it, the token of it the context does not
# give), of our own, in 11 languages: the claims step may leave the wrong one out
BESIDE = [
    ("Acme was founded in 1997 in Oslo. It employs 40 people.", "Acme was founded in 1997 in Oslo.",
     "Today its staff numbers 45.", "45"),
    ("Das Hotel liegt in Berlin. Frühstück kostet 15 Euro.", "Das Hotel liegt in Berlin.",
     "Frühstück ist für 12 Euro zu haben.", "12"),
    ("Le musée ouvre à 9 h. Il est fermé le lundi.", "Le musée ouvre à 9 h.", "Il est fermé le mardi.", "mardi"),
    ("Поезд отправляется в 7:10. Билет стоит 40 евро.", "Поезд отправляется в 7:10.", "Билет обойдётся в 45 евро.",
     "45"),
    ("公司成立于1997年，总部在上海。", "公司成立于1997年。", "总部在北京。", "北京"),
    ("서울 사무소는 월요일에 문을 닫습니다. 직원은 12명입니다.", "서울 사무소는 월요일에 문을 닫습니다.",
     "부산 사무소도 있습니다.", "부산"),
    ("会議は東京で開かれる。参加者は30人だ。", "参加者は30人だ。", "会議は大阪で開かれる。", "大阪"),
    ("Il treno parte alle 8. Il biglietto costa 20 euro.", "Il treno parte alle 8.", "Il biglietto costa 25 euro.",
     "25"),
    ("Pociąg odjeżdża o 8. Bilet kosztuje 20 zł.", "Bilet kosztuje 20 zł.", "Pociąg odjeżdża o 8 z Gdańska.",
     "gdańska"),
    ("Flight SK4705 leaves at 07:10 from Oslo.", "Flight SK4705 leaves at 07:10.", "It lands in Rome, Italy.", "rome"),
]
# (the context, an unfaithful output whose claims quote a sentence in parts, the correct answers)
IN_PARTS = [
    ("Acme was founded in 1997 and employs 40 people.", "Acme, founded in 1999, employs 40 people.",
     {"claims": {"Acme, founded in 1999, employs 40 people.": ["Acme, founded in 1999", "Acme … employs 40 people"]},
      "supported": ["Acme … employs 40 people"],
      "contradicted": ["Acme, founded in 1999", "Acme, founded in 1999, employs 40 people."], "unnamed": ["1999"],
      "says_more": ["Acme, founded in 1999, employs 40 people."]}),
    ("El vuelo IB3170 sale de Madrid. Llega a Roma a las 14:05.",
     "El vuelo IB3170 sale de Madrid y llega a Milán a las 14:05.",
     {"claims": {"El vuelo IB3170 sale de Madrid y llega a Milán a las 14:05.": [
         "El vuelo IB3170 sale de Madrid", "llega a Milán a las 14:05"]},
      "supported": ["El vuelo IB3170 sale de Madrid"],
      "contradicted": ["llega a Milán a las 14:05", "El vuelo IB3170 sale de Madrid y llega a Milán a las 14:05."],
      "unnamed": ["milán"], "says_more": ["El vuelo IB3170 sale de Madrid y llega a Milán a las 14:05."]}),
    ("Light fares are non-refundable. Changes cost 60 EUR.",
     "Light fares are non-refundable, but changes are free. Changes cost 60 EUR.",
     {"claims": {"Light fares are non-refundable, but changes are free. Changes cost 60 EUR.": [
         "Light fares are non-refundable", "changes are free", "Changes cost 60 EUR"]},
      "supported": ["Light fares are non-refundable", "Changes cost 60 EUR"],
      "contradicted": ["changes are free", "Light fares are non-refundable, but changes are free."],
      "says_more": ["Light fares are non-refundable, but changes are free."]}),
]


def _wrong(output: str, *tokens: str | None) -> dict[str, list[str]]:
    """The correct answers for a one-sentence unfaithful output: contradicted, its tokens not given."""
    return {"contradicted": [output], "unnamed": [t for t in tokens if t]}


ONE_SENTENCE = ([(wrong, ctx, _wrong(wrong)) for _, ctx, _, wrong in FOUNDED]
                + [(out, ctx, _wrong(out, token)) for out, ctx, token in UNWRITTEN]
                + [(wrong, ctx, _wrong(wrong, day)) for _, ctx, _, wrong, day in WEEKDAYS]
                + [(out, ctx, _wrong(out, token)) for ctx, out, token in OWN_UNFAITHFUL]
                + [(wrong, ctx, _wrong(wrong, token)) for _, ctx, _, wrong, token in ANOTHER_FORM]
                + [(wrong, ctx, _wrong(wrong, wrong_total(out, wrong))) for _, ctx, out, _, wrong in PART_OF_A_SENTENCE]
                + [(swapped, ctx, _wrong(swapped, value)) for _, ctx, _, swapped, value in LISTED]
                + [(wrong, ctx, _wrong(wrong, value)) for _, ctx, _, wrong, value in GIVEN_APART]
                + [(stronger, ctx, _wrong(stronger, token)) for _, ctx, _, stronger, token in BOUNDS])


def _halves(output: str, truth: dict[str, list[str]]) -> dict[str, object] | None:
    """The correct answers where the claims step quotes a one-sentence output as two claims, its
    halves: the half with a token the context does not give is contradicted (both, where code
    decides), the other supported, and the sentence says more than either."""
    words = output.split(" ")
    if len(words) < 4:
        return None
    first, second = " ".join(words[:len(words) // 2]), " ".join(words[len(words) // 2:]).rstrip(".。")
    wrong = [half for half in (first, second) if any(t in fold(half) for t in truth["unnamed"])] or [first, second]
    return {**truth, "claims": {output: [first, second]}, "contradicted": [output, *wrong],
            "supported": [half for half in (first, second) if half not in wrong], "says_more": [output]}


SWEPT = (ONE_SENTENCE + [(out, ctx, split) for out, ctx, truth in ONE_SENTENCE if (split := _halves(out, truth))]
         + [(right + ("" if right.endswith("。") else " ") + wrong, ctx,
             {"supported": [right], "contradicted": [wrong], "unnamed": [token]})
            for ctx, right, wrong, token in BESIDE]
         + [(out, ctx, truth) for ctx, out, truth in IN_PARTS])
"""Every unfaithful case of this module whose wrong words code sees a risk in, with the judge's correct
answers. The offline judge is not asked about a word capitalised only at a sentence's start, so
AT_A_START is swept for the hosted judge only (docs/scoring.md: what is left to one answer)."""


def _passes(scorer: type[Faithfulness | Hallucination], judge, output: str, context: str) -> Callable[[], bool]:
    """Whether the scorer, with a judge made afresh (its cache off), passes the output at 1.0 / 0.0."""
    return lambda: scorer(judge()).run(output, [context]).score == (1.0 if scorer is Faithfulness else 0.0)


JUDGES = {"hosted": {}, "offline": {"verdicts": "label"}, "one verdict a request": {"verdicts": "one"},
          "three votes": {"votes": 3}}


@pytest.mark.parametrize("scorer", [Faithfulness, Hallucination], ids=["faithfulness", "hallucination"])
@pytest.mark.parametrize("judged_by", JUDGES)
@pytest.mark.parametrize(("output", "context", "truth"), SWEPT, ids=[f"{i}" for i in range(len(SWEPT))])
def test_no_single_wrong_answer_anywhere_passes_an_unfaithful_answer(fake, make_fake_judge, judged_by, scorer, output,
                                                                     context, truth):
    """Promise 2 swept: each claim the claims step lists (left out), each verdict, each narrow
    answer and each label (turned round), one at a time; none passes the answer at 1.0 / 0.0."""
    fake.facts(**truth)
    judge = functools.partial(make_fake_judge, **JUDGES[judged_by])
    assert fake.wrong_answers_that_pass(_passes(scorer, judge, output, context)) == []


@pytest.mark.parametrize(("language", "context", "output", "token"), AT_A_START, ids=[c[0] for c in AT_A_START])
def test_no_single_wrong_answer_passes_a_wrong_first_word_for_a_hosted_judge(fake, make_fake_judge, language,
                                                                             context, output, token):
    fake.facts(**_wrong(output, token))
    assert fake.wrong_answers_that_pass(_passes(Faithfulness, make_fake_judge, output, context)) == []


@pytest.mark.parametrize(("text", "expected"), [
    ("Museet stenger kl. 17.30.", ("Museet stenger kl. 17.30.",)),
    ("Der Zug fährt um ca. 5 Uhr.", ("Der Zug fährt um ca. 5 Uhr.",)),
    ("The fee is approx. 5 EUR.", ("The fee is approx. 5 EUR.",)),
    ("Siehe S. 12 im Handbuch.", ("Siehe S. 12 im Handbuch.",)),
    ("The bus leaves at 7. 3 seats are left.", ("The bus leaves at 7.", "3 seats are left.")),
    ("Il part vers 17 h. 3 places restent.", ("Il part vers 17 h.", "3 places restent.")),
])
def test_an_abbreviation_before_a_number_ends_no_sentence(text, expected):
    """Split there, "Museet stenger kl." is a fragment a correct judge calls unsupported, and "17.30."
    a number without the words that let code pin it."""
    assert sentences(text) == expected
