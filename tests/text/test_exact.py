"""Where the output says a claim's words (text/exact.py `locate`): exact, in any script, never a
word of any language. Both directions: words the output has are found, as the stretches it has
them in; words it does not have (a part of a longer word, a changed word) are not."""

from __future__ import annotations

import json

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

from pytest_llmfaith.text import exact
from pytest_llmfaith.text.exact import MAX_STRETCHES, locate, nearest_sentences, numbers, tokens, unwritten


def found(words: str, text: str) -> list[str] | None:
    spans = locate(words, text)
    return None if spans is None else [text[a:b] for a, b in spans]


@pytest.mark.parametrize(("words", "text", "stretches"), [
    # a judge that leaves words out without marking the gap "…": its words, as the output has them
    ("Your backups can be stored in Virginia", "Your backups can be stored in Frankfurt, Virginia or Singapore.",
     ["Your backups can be stored in", "Virginia"]),
    ("Die Daten liegen in Singapur", "Die Daten liegen in Frankfurt, Virginia oder Singapur.",
     ["Die Daten liegen in", "Singapur"]),
    ("Le forfait coûte 8 € par mois", "Le forfait de base coûte 8 € par mois.", ["Le forfait", "coûte 8 € par mois"]),
    # punctuation the judge dropped between words the output has side by side is no gap
    ("Live chat is open Monday to Friday from 8:00 to 18:00 CET",
     "Live chat is open Monday to Friday, from 8:00 to 18:00 CET.",
     ["Live chat is open Monday to Friday, from 8:00 to 18:00 CET"]),
    # a gap over a negation is found too: the left-out words are the judge's to read (says_more)
    ("L'application prend en charge Android", "L'application ne prend pas en charge Android.",
     ["L'application", "prend", "en charge Android"]),
    ("Acme makes 40,000 bikes", "Acme, founded in 1999, makes about 40,000 bikes a year.",
     ["Acme", "makes", "40,000 bikes"]),
    # as before: a quote found whole, or in the stretches it marks
    ("Acme … in Oslo", "Acme is based in Oslo.", ["Acme", "in Oslo"]),
    ("Wait... what?", "He said: Wait... what?", ["Wait... what?"]),
    ("公司有400名员工", "Zorblat公司有400名员工。", ["公司有400名员工"]),
    ("이 앱은 iOS를 지원합니다", "이 앱은 안드로이드와 iOS를 지원합니다.", ["이 앱은", "iOS를 지원합니다"]),
])
def test_the_output_words_are_found_as_the_stretches_it_has_them_in(words, text, stretches):
    assert found(words, text) == stretches


@pytest.mark.parametrize(("words", "text"), [
    # a stretch starts and ends where a word does: "compatible" is no word of "incompatible"
    ("compatible with Android", "The app is incompatible with Android."),
    ("The app is … compatible with Android", "The app is incompatible with Android."),
    ("Version für Android", "Es gibt keine Androidversion für Android."),
    ("40 people", "Zorblat employs 140 people."),
    # a changed word is not the output's, in any script
    ("Aplikace má verzi pro Android.", "Aplikace nemá verzi pro Android."),
    ("Acme makes 40 bikes", "Acme makes about 40,000 bikes a year."),
    ("Zorblat公司有40名员工", "Zorblat公司有400名员工。"),
    ("이 앱은 안드로이드를 지원합니다", "이 앱은 안드로이드를 지원하지 않습니다."),
    ("Backups are kept for 90 days", "Backups are retained for 90 days."),
    # words the output uses, but scattered past MAX_STRETCHES stretches: no quote of it
    ("a b c d", "a x b x c x d"),
    # an unmarked gap stays inside one sentence: across two, the words are another sentence's
    ("Acme is based in Bergen", "Acme is based in Oslo. Bergen is not its home."),
])
def test_words_the_output_does_not_have_are_not_found(words, text):
    assert found(words, text) is None


@pytest.mark.parametrize(("words", "text", "stretches"), [
    # a tokenized text (SummEval, XSum; Moses splits French "l' hôtel") writes spaces beside
    # punctuation that a judge leaves out: the words are found, as the output writes them
    ("for next month's UEFA Under-17 Championship", "squad for next month 's uefa under-17 championship .",
     ["for next month 's uefa under-17 championship"]),
    ("could miss out on #500k bonuses", "aguero could miss out on # 500k bonuses if city fail .",
     ["could miss out on # 500k bonuses"]),
    ("Jamie, who lives with Dawn, had done the deed", "jamie , who lives with dawn , had done the deed .",
     ["jamie , who lives with dawn , had done the deed"]),
    ("L'hôtel est fermé aujourd'hui", "l' hôtel est fermé aujourd' hui .", ["l' hôtel est fermé aujourd' hui"]),
    ("Europe's top competition", "the group stages of europe 's top competition .", ["europe 's top competition"]),
])
def test_spaces_beside_punctuation_are_read_as_either_side_writes_them(words, text, stretches):
    assert found(words, text) == stretches


@pytest.mark.parametrize(("words", "text"), [
    # between two letters or digits a space always counts: other words, another number
    ("a part of the deal", "It is apart of the deal."),
    ("It is apart of the deal", "It is a part of the deal."),
    ("no thing is free", "Nothing is free."),
    ("The fee is 1000 EUR", "The fee is 1 000 EUR."),
    ("The code is AB 12", "The code is AB12."),
])
def test_spaces_between_letters_or_digits_always_count(words, text):
    assert found(words, text) is None


def test_max_stretches_is_the_limit():
    text = " x ".join("abcdefg")
    assert found(" ".join("abcdefg"[:MAX_STRETCHES]), text) == list("abcdefg"[:MAX_STRETCHES])
    assert found(" ".join("abcdefg"[:MAX_STRETCHES + 1]), text) is None


def test_fewest_stretches_win_over_the_first_match():
    """"Acme" is found where "Acme is based" goes on, not at the first "Acme"."""
    text = "Acme and Bolt merged. Acme is based in Oslo."
    assert found("Acme is based in Oslo", text) == ["Acme is based in Oslo"]
    assert locate("Acme is based in Oslo", text) == [(text.index("Acme is"), len(text) - 1)]


@pytest.mark.parametrize(("words", "context", "asked"), [
    ("Your seat is 12C.", "Seat 14C, booked on 2026-06-12.", ["12c"]),  # not the 12 of the date
    ("Booked for 14 June.", "Seat 14C, booked on 2026-06-12.", ["14", "june"]),  # 14C is no 14
    ("The phone supports 5G.", "The phone supports 4G and has 5 cameras.", ["5g"]),
    ("Boarding at gate 7B.", "Boarding at gate 17B, 7 minutes late.", ["7B"]),  # read as 7 billion: no value
    ("Le siège 3F est libre.", "Le siège 3E est libre, 3 places.", ["3f"]),
])
def test_digits_with_a_capital_glued_on_are_a_code_asked_about_as_written(words, context, asked):
    """Not a number whose value the context may write elsewhere: a wrong seat, gate or standard is
    asked about, and the context's codes lend no number to a wrong day."""
    assert unwritten(words, [context], at_starts=False) == asked


@pytest.mark.parametrize(("words", "context"), [
    ("Your seat is 14C.", "Seat 14C, booked on 2026-06-12."),
    ("The grant is 40K.", "The grant is $40,000."),  # a scale, not a code
    ("애크미는 1997년 설립되었다.", "애크미는 1997년에 설립되었다."),  # a number with its particle
    ("Opens at 10am.", "Opens at 10 am."),
])
def test_a_code_or_number_the_context_writes_is_not_asked_about(words, context):
    assert unwritten(words, [context], at_starts=False) == []


@pytest.mark.parametrize(("words", "context", "asked"), [
    # a clitic an apostrophe joins to a word the context writes: the word is written
    ("Le siège d'Ingrid est le 14C.", "Ingrid Dahl : siège 14C.", []),
    ("Seat 14C is Ingrid’s.", "Ingrid Dahl: seat 14C.", []),
    ("La sede dell'Acme è a Oslo.", "Acme ha sede a Oslo.", []),
    ("Nous allons à l'Opéra Garnier.", "Visite : Opéra Garnier, 10 h.", []),
    # ... never another name: the clitic's word must be written, and a capital is no clitic
    ("Le siège d'Ingmar est le 14C.", "Ingrid Dahl : siège 14C.", ["d'ingmar"]),
    ("Seat 14C is Karin’s.", "Ingrid Dahl: seat 14C.", ["karin's"]),
    ("O'Dahl sits in 14C.", "Ingrid Dahl: seat 14C.", ["o'dahl"]),
])
def test_a_name_with_a_clitic_is_written_where_the_name_is(words, context, asked):
    assert unwritten(words, [context], at_starts=False) == asked


def test_a_code_is_no_number_in_the_text_or_the_context():
    assert [n.shown for n in numbers("Seat 12C, 5G, 4K, 40K, 10am, 2026-06-12")] == \
        ["4K", "40K", "10", "2026", "06", "12"]


FLIGHTS = ('search_flights(origin="OSL") returned:\n{\n  "flights": [\n    {\n      "flight": "SK4705",\n'
           '      "price_eur": 189\n    },\n    {\n      "flight": "DY1872",\n      "price_eur": 142,\n'
           '      "via": "CPH"\n    }\n  ],\n  "currency": "EUR"\n}')


def test_evidence_from_a_json_result_is_a_record_with_its_call_never_a_lone_line_nor_every_record():
    """A lone line ("flight": "DY1872") hides the price beside it; the whole result makes every
    verdict read every record again (offline: 3x the seconds of a verdict on an agent's run)."""
    call = 'search_flights(origin="OSL") returned:'
    dy = f'{call}\n{{\n  "flight": "DY1872",\n  "price_eur": 142,\n  "via": "CPH"\n}}'
    sk = f'{call}\n{{\n  "flight": "SK4705",\n  "price_eur": 189\n}}'
    assert nearest_sentences("DY1872 costs 142 EUR.", [FLIGHTS], 1) == [dy]
    assert nearest_sentences("SK4705 costs 189 EUR, DY1872 142 EUR.", [FLIGHTS], 2) == [sk, dy]
    assert nearest_sentences("The currency is EUR.", [FLIGHTS], 1) == [f'{call}\n"currency": "EUR"']
    bare = '{\n  "flights": [\n    {\n      "flight": "DY1872"\n    }\n  ]\n}'  # no call before it
    assert nearest_sentences("DY1872", [bare], 1) == ['{\n  "flight": "DY1872"\n}']
    unpaired = 'f() returned:\n{\n  "a": [\n    1'
    assert nearest_sentences("a is 1", [unpaired], 1) == [unpaired]  # brackets that do not pair: whole


@pytest.mark.parametrize(("words", "context", "asked"), [
    ("The plan includes 100GB.", "The plan includes 100 GB of storage.", []),
    ("Seat 14C is yours.", "Your seat: 14 C.", []),
    ("The plan includes 200GB.", "The plan includes 100 GB of storage, 200 users.", ["200gb"]),
    ("Seat 2C is yours.", "Your seat: 12 C.", ["2c"]),  # a code is whole: 2C is not in 12 C
])
def test_a_code_the_context_writes_with_a_space_is_written(words, context, asked):
    assert unwritten(words, [context], at_starts=False) == asked


@pytest.mark.parametrize(("words", "context", "asked"), [
    # an identifier in small letters, asked whole where the context never writes it whole
    ("Set timeout_s to 500.", "Set timeout_ms to 500.", ["timeout_s"]),
    ("Set timeout to 500.", "Set timeout_seconds to 500.", []),  # a prose word: the verdict's
    ("Pass --quiet to hide it.", "Pass --verbose (or -v) to see more.", ["--quiet"]),
    ("Pass -q to hide it.", "Pass --verbose (or -v) to see more.", ["-q"]),
    ("Write to help@acme.com.", "Write to support@acme.com.", ["help@acme.com"]),
    ("See https://acme.io/docs.", "See https://acme.com/docs.", ["https://acme.io/docs"]),
    ("See www.acme.io.", "See acme.com.", ["www.acme.io"]),
    ("Edit config.json first.", "Edit config.yaml first.", ["config.json"]),
    ("Call os.path.exists().", "Call os.path.join().", ["os.path.exists()"]),
    ("Call fetch_user().", "Call get_user(id) to fetch a user.", ["fetch_user()"]),
    ("Call fetch().", "Call get(id) to fetch a user.", ["fetch()"]),
    ("GET /v2/users lists them.", "GET /v1/users lists users.", ["/v2/users"]),
    ("Run `acme sync --all`.", "Run acme sync to sync.", ["acme sync --all"]),
    ("Export OPENAI_API_KEY.", "Export OPENAI_API_BASE and the API KEY.", ["OPENAI_API_KEY"]),
    ("Set max_retries: 3 and retry_delay: 2.", "max_retries: 3\nretry_delay_s: 2", ["retry_delay"]),
    ("Die Datei heißt settings.toml.", "Die Datei heißt settings.ini.", ["settings.toml"]),
    ("Установите переменную acme_home.", "Установите переменную acme_root.", ["acme_home"]),
    ("設定はconfig.yamlに書きます。", "設定はsettings.yamlに書きます。", ["config.yaml"]),
    ("The app calls gpt-4o.", "The app calls gpt-4o-mini.", ["gpt-4o"]),  # no prefix of a longer one
    ("The app calls gpt-4o-mini.", "The app calls gpt-4o.", ["gpt-4o-mini"]),
    ("Il servizio usa claude-3-opus.", "Il servizio usa claude-3-haiku.", ["claude-3-opus"]),
    ("Use os.path.", "Use os.path.join.", ["os.path"]),
    ("Copy config.yaml.", "Copy config.yaml.example first.", ["config.yaml"]),
    # written whole, in any of the forms the context gives it
    ("The app calls gpt-4o-mini.", "Models: gpt-4o-mini, gpt-4o.", []),
    ("A 30-day refund is well-known.", "The refund window is 30 days.", []),  # prose: a digit first, no digit
    ("Set timeout_ms to 500.", '{"timeout_ms": 500, "max_retries": 3}', []),
    ("timeout_ms is 500.", "timeout_ms,max_retries\n500,3", []),
    ("Pass --verbose to see more.", "Use -v/--verbose for more output.", []),
    ("See https://acme.com/docs for details.", "Docs: https://acme.com/docs/", []),
    ("See https://acme.com/docs/ for details.", "Docs: https://acme.com/docs", []),
    ("Email support@acme.com or visit acme.com.", "Write to support@acme.com.", []),
    ("Use get_user() to fetch a user.", "Call get_user(id) to fetch a user.", []),
    ("Edit config.yaml in ~/.acme.", "The config lives in ~/.acme/config.yaml.", []),
    ("The `/v1/users` endpoint returns users.", "GET /v1/users returns users.", []),
    ("Run `pip install acme`.", "Install with pip install acme.", []),
    ("Use `retries`.", "Use the retries option.", []),
    ("Export OPENAI_API_KEY first.", "Set the OPENAI_API_KEY variable.", []),
    # no identifiers: abbreviations, hyphens and slashes of prose, markdown's emphasis
    ("E.g. the fare is well-known, i.e. popular.", "The fare is well-known.", []),
    ("Acme ma m.in. biura; p.ej. en Oslo, 24/7 and/or at 3 km/h.", "Acme ma m.in. biura; p.ej. en Oslo, 24/7 "
     "and/or at 3 km/h.", []),
    ("It is _really_ cheap - a -lrb- note.", "It is really cheap - a -lrb- note.", []),
])
def test_an_identifier_the_context_never_writes_whole_is_asked_whole(words, context, asked):
    """A lower-case identifier is no name by its capitals, yet "timeout_s" beside "timeout_ms" is
    plainly not given: its own characters mark it, so code asks, and a correct judge answers."""
    assert unwritten(words, [context], at_starts=False) == asked


@pytest.mark.parametrize(("words", "context", "asked"), [
    ("The CEO is Lars Holm.", "The CEO is Anna Berg; the CFO is Lars Holm.", ["ceo", "lars"]),
    ("Aktie A fiel um 3 %.", "Aktie A stieg um 5 %; Aktie B fiel um 3 %.", ["3"]),
    ("Basic costs 25 EUR a month.", "Basic costs 10 EUR a month; Pro costs 25 EUR a month.", ["25"]),
    ("Anna Berg joined in 2021.", "Anna Berg runs sales; she joined in 2019. Lars Holm joined in 2021.", ["2021"]),
    ("The CFO is Lars Holm.", "The CEO is Anna Berg; the CFO is Lars Holm.", []),
    ("Aktie B fiel um 3 %.", "Aktie A stieg um 5 %; Aktie B fiel um 3 %.", []),
    ("Anna Berg joined in 2019.", "Anna Berg runs sales; she joined in 2019. Lars Holm joined in 2021.", []),
    # a comma is one where each part opens with names of its own, side by side
    ("Aktie A fiel um 3 %.", "Aktie A stieg um 5 %, Aktie B fiel um 3 %.", ["3"]),
    ("The CEO is Lars Holm.", "The CEO is Anna Berg, the CFO is Lars Holm.", ["ceo", "lars"]),
    ("Ingrid Dahl sits in 22A.", "Ingrid Dahl sits in 14C, Karin Berg in 22A.", ["22a"]),
    ("Pedro vive en Sevilla.", "Pedro vive en Madrid, Ana vive en Sevilla.", ["sevilla"]),
    ("Акции Acme упали на 3 %.", "Акции Acme выросли на 5 %, акции Beta упали на 3 %.", ["3"]),
    ("Aktie B fiel um 3 %.", "Aktie A stieg um 5 %, Aktie B fiel um 3 %.", []),
    ("Karin Berg sits in 22A.", "Ingrid Dahl sits in 14C, Karin Berg in 22A.", []),
    ("Ana vive en Sevilla.", "Pedro vive en Madrid, Ana vive en Sevilla.", []),
    # and no cut where a part goes on with one thing's values ("…, includes 2 TB and adds SSO")
    ("The Business plan adds SSO.", "The Starter plan costs 12 EUR. The Business plan costs 25 EUR, includes 2 TB "
     "and adds single sign-on (SSO).", []),
    ("Acme employs 40 people.", "Acme, founded in 1997, employs 40 people. Beta employs 12 people.", []),
])
def test_a_value_a_sentence_gives_another_thing_in_a_clause_of_its_own_is_asked(words, context, asked):
    """Each clause of "The CEO is Anna Berg; the CFO is Lars Holm" (or ", the CFO …") gives its own
    thing its value: the sentence writes Lars Holm, but not with the CEO."""
    assert exact.values_in_other_roles(words, [context]) == asked


@pytest.mark.parametrize(("words", "context", "asked"), [
    ("Acme went public in 1997.", "Acme was founded in 1997 and went public in 2005.", ["1997"]),
    ("Acme ging 1997 an die Börse.", "Acme wurde 1997 gegründet und ging 2005 an die Börse.", ["1997"]),
    ("Il museo chiude alle 9.", "Il museo apre alle 9 e chiude alle 17.", ["9"]),
    ("The battery charges in 10 hours.", "The battery lasts 10 hours and charges in 2 hours.", ["10"]),
    ("Le musée ferme à 9 h.", "Le musée ouvre à 9 h et ferme à 18 h.", ["9"]),
    ("El vuelo llega a las 7.", "El vuelo sale a las 7 y llega a las 11.", ["7"]),  # three words: "a las" is both's
    ("Поезд прибывает в 7.", "Поезд отправляется в 7 и прибывает в 11.", ["7"]),
    ("Pociąg przyjeżdża o 7.", "Pociąg odjeżdża o 7 i przyjeżdża o 11.", ["7"]),
    ("De winkel sluit om 9 uur.", "De winkel opent om 9 uur en sluit om 18 uur.", ["9"]),
    # the words around it are the context's around this very number, or span a clause's mark
    ("Acme went public in 2005.", "Acme was founded in 1997 and went public in 2005.", []),
    ("Il museo apre alle 9.", "Il museo apre alle 9 e chiude alle 17.", []),
    ("Version 2.0, released in 2021, added a dark mode.", "Version 2.0 was released in September 2021. Version "
     "2.0 added a dark mode.", []),
    ("It opened on April 9, 2011 in Oslo.", "It opened on April 9 in Oslo. It closed in 2011.", []),  # a year, a day
    # a month or a day of the week by name, in any language, as a number
    ("The race is in March.", "Check-in opens in March and the race is in May.", ["March"]),
    ("Das Rennen ist im März.", "Der Check-in beginnt im März und das Rennen ist im Mai.", ["März"]),
    ("The cruise departs on Monday.", "The tour departs on Monday and the cruise departs on Friday.", ["Monday"]),
    ("La croisière part le lundi.", "Le tour part le lundi et la croisière part le vendredi.", ["lundi"]),
    ("The race is in May.", "Check-in opens in March and the race is in May.", []),
    ("The cruise departs on Friday.", "The tour departs on Monday and the cruise departs on Friday.", []),
    ("The flight may be delayed.", "The train may be late and the flight will be delayed in May.", []),  # no month
])
def test_a_number_the_context_writes_beside_the_words_only_for_another_number_is_asked(words, context, asked):
    """"Acme went public in 1997": 1997 is written, but where the context writes "went public in",
    it writes 2005. The whole claim need not be the context's words: two or three on one side are.
    So with a month or a day by name: "the race is in" March, where the context's race is in May."""
    assert exact.values_in_other_roles(words, [context]) == asked


@pytest.mark.parametrize(("words", "context", "asked"), [
    ("Dr. Marie Jensen leads the team.", "Dr. Maria Jensen leads the team.", ["marie", "marie jensen"]),
    ("Dr. Lukas Weber leitet das Team.", "Dr. Jonas Weber leitet das Team.", ["lukas", "lukas weber"]),
    ("Dr. Maria Jensen leads the team.", "Dr. Maria Jensen leads the team.", []),
    ("The team is big. Marie leads it.", "Maria leads the team.", []),  # a sentence's first capital: any word
])
def test_a_name_after_a_title_starts_no_sentence(words, context, asked):
    """"Dr." ends no sentence, so "Marie" after it is capitalised as a name is, even where a
    sentence's first capital is not asked about (the offline judge)."""
    assert unwritten(words, [context], at_starts=False) == asked


TABLE_FLIGHT = "| flight | departs | arrives |\n|---|---|---|\n| SK4705 | 07:10 | 09:05 |"
TABLE_HOTEL = "Your booking:\n\n| Check-in | Check-out | Nights |\n|---|---|---|\n| 14:00 | 11:00 | 3 |"
TABLE_FLIGHTS = "| flight | departs | price (EUR) |\n|---|---|---|\n| SK4705 | 07:10 | 189 |\n| DY1872 | 13:45 | 142 |"
ROUTE = json.dumps({"flight": "SK4705", "origin": "OSL", "destination": "BCN", "via": "CPH", "departs": "07:10"})
BOOKED = json.dumps({"ref": "QX7K2P", "passenger": "Ingrid Dahl", "booked_by": "Karin Berg", "status": "confirmed"})


@pytest.mark.parametrize(("words", "context", "asked"), [
    ("SK4705 departs at 09:05.", FLIGHT, ["09:05"]),
    ("SK4705 arrives at 7:10.", FLIGHT, ["7:10"]),
    ("SK4705 has 1 seats left.", FLIGHT, ["1"]),
    ("SK4705 includes 4 bags.", FLIGHT, ["4"]),
    ("Check-out is at 14:00.", HOTEL, ["14:00"]),  # "checkOut" named by "check-out", not "checkIn"
    ("The booking is for 2 nights.", HOTEL, ["2"]),
    ("Shipping costs 45 EUR.", ORDER, ["45"]),
    ("The order has 5 items.", ORDER, ["5"]),
    ("Die Ankunft ist um 07:10.", FLUG, ["07:10"]),
    ("Le départ est à 09:05.", VOL, ["09:05"]),
    ("Check-out is at 14:00.", "Booking QX7K2P:\nCheck-in: 14:00\nCheck-out: 11:00\nNights: 3", ["14:00"]),  # text
    ("You stay 2 nights.", "Nights: 3\nGuests: 2\n\nThe desk opens at 7.", ["2"]),
    ("The range is 25 km.", "Speed: 25 km/h. Range: 40 km. Weight: 12 kg.", ["25"]),  # a spec sheet's sentences
    ("Der Preis beträgt 5 EUR.", "Preis: 20 EUR. Rabatt: 5 EUR.", ["5"]),
    # a code, a name or a word: a value of its kind, the only one the words give a field
    ("The destination is OSL.", ROUTE, ["osl"]),
    ("You fly to OSL.", json.dumps({"from": "OSL", "to": "BCN", "via": "CPH"}), ["osl"]),
    ("The passenger is Karin Berg.", BOOKED, ["karin", "berg"]),
    ("Molde was the home team.", json.dumps({"home_team": "Rosenborg", "away_team": "Molde"}), ["molde"]),
    # each value under the field the words name, or under none they name
    ("SK4705 departs at 07:10 and arrives at 09:05.", FLIGHT, []),
    ("4 seats are left on SK4705, with 1 bag included.", FLIGHT, []),
    ("It departs at 07:10 and lands at 09:05.", FLIGHT, []),  # 09:05 is given to no field the words name
    ("The flight leaves at 07:10.", FLIGHT, []),
    ("Check-in is from 14:00; check-out by 11:00.", HOTEL, []),
    ("3 nights for 2 guests.", HOTEL, []),
    ("Shipping is 5 EUR of the 45 EUR total.", ORDER, []),
    ("Der Abflug ist um 07:10.", FLUG, []),
    ("Check-out is at 11:00.", "Booking QX7K2P:\nCheck-in: 14:00\nCheck-out: 11:00\nNights: 3", []),
    ("The range is 40 km and it weighs 12 kg.", "Speed: 25 km/h. Range: 40 km. Weight: 12 kg.", []),
    ("SK4705 flies from OSL to BCN via CPH.", ROUTE, []),
    ("SK4705 departs from OSL.", ROUTE, []),  # "departs" names a time: OSL is none
    ("The flight SK4705 has its destination in BCN.", ROUTE, []),
    ("Ingrid Dahl is the passenger; Karin Berg booked it.", BOOKED, []),
    ("It stops in CPH on the way to BCN.", json.dumps({"from": "OSL", "to": "BCN", "via": "CPH"}), []),
    ("Guests get 3 nights.", "User: How many nights do I get with 3 guests?\nAgent: Two nights, as your "
     "booking for 3 guests says.", []),  # a transcript: no fields
    # a Markdown table's rows are records too
    ("SK4705 departs at 09:05.", TABLE_FLIGHT, ["09:05"]),
    ("Check-out is at 14:00.", TABLE_HOTEL, ["14:00"]),
    ("SK4705 departs at 07:10 and arrives at 09:05.", TABLE_FLIGHT, []),
    ("Check-out is at 11:00.", TABLE_HOTEL, []),
    ("You stay 3 nights, check-in from 14:00.", TABLE_HOTEL, []),
])
def test_a_value_a_record_gives_under_another_field_than_the_one_named_is_asked(words, context, asked):
    """"SK4705 departs at 09:05" beside {"departs": "07:10", "arrives": "09:05"}: every value is the
    record's, but the words give the arrival's to the departure, which a key's word names."""
    assert exact.values_in_other_roles(words, [context]) == asked


SEATED = "Passengers: Ingrid Dahl (seat 14C) and Karin Berg (seat 22A)."
TEAM = "Team: Anna Berg (CEO), Lars Holm (CFO)."
FOUNDED_BOTH = "Acme (founded 1997) bought Beta (founded 2005)."
FLIGHTS_IN_BRACKETS = "Flights: SK4705 (07:10, 189 EUR) and DY1872 (13:45, 142 EUR)."


@pytest.mark.parametrize(("words", "context", "asked"), [
    # a value the context gives in brackets after another thing than the one the words name
    ("Ingrid Dahl sits in 22A.", SEATED, ["22a"]),
    ("Anna Berg is the CFO.", TEAM, ["cfo"]),
    ("Alice is 35.", "Alice (30) and Bob (35) joined in 2020.", ["35"]),
    ("Acme was founded in 2005.", FOUNDED_BOTH, ["2005"]),
    ("SK4705 leaves at 13:45.", FLIGHTS_IN_BRACKETS, ["13:45"]),
    ("Oslo has 25 staff.", "Oslo (40 staff) is larger than Bergen (25 staff).", ["25"]),
    ("Acme has sold bikes since 2021.", "Acme sells bikes (since 2019) and scooters (since 2021).", ["2021"]),
    ("Anna ist 35 Jahre alt.", "Teilnehmer: Anna (30 Jahre) und Bob (35 Jahre).", ["35"]),
    ("Anne vient de Nice.", "Participants : Anne (Lyon) et Paul (Nice).", ["nice"]),
    ("Madrid tiene 80 empleados.", "Sedes: Madrid (120 empleados) y Sevilla (80 empleados).", ["80"]),
    # each value after the thing the words name, or after one they name too, or no second thing
    ("Karin Berg sits in 22A and Ingrid Dahl in 14C.", SEATED, []),
    ("Ingrid Dahl and Karin Berg sit in 14C and 22A.", SEATED, []),
    ("Seat 22A is Karin Berg's.", SEATED, []),
    ("The CFO is Lars Holm, and Anna Berg is CEO.", TEAM, []),
    ("Anna Berg hired Lars Holm as CFO.", TEAM, []),
    ("Acme bought Beta, which was founded in 2005.", FOUNDED_BOTH, []),
    ("Acme, founded in 1997, bought Beta.", FOUNDED_BOTH, []),
    ("Bob, 35, joined with Alice in 2020.", "Alice (30) and Bob (35) joined in 2020.", []),
    ("DY1872 leaves at 13:45 for 142 EUR.", FLIGHTS_IN_BRACKETS, []),
    ("SK4705 is pricier than DY1872 (142 EUR).", FLIGHTS_IN_BRACKETS, []),
    ("Bergen has 25 staff, Oslo 40.", "Oslo (40 staff) is larger than Bergen (25 staff).", []),
    ("Acme sold bikes before scooters, which came in 2021.", "Acme sells bikes (since 2019) and scooters (since 2021).",
     []),
    ("Beta was founded in 2005.", "Acme bought Beta (founded 2005) in 2019.", []),
    ("Acme was founded in 2005.", "Acme (see below) was founded in 2005.", []),
])
def test_a_value_the_context_gives_another_thing_in_brackets_is_asked(words, context, asked):
    """"Ingrid Dahl (seat 14C) and Karin Berg (seat 22A)" is a record of two fields named by who
    they are: "Ingrid Dahl sits in 22A" gives Karin Berg's seat to Ingrid Dahl."""
    assert exact.values_in_other_roles(words, [context]) == asked


PLANS = "Plan A costs 40 EUR a month, plan B 30 EUR and plan C 50 EUR."
HOTELS = "Hotel Nord: 120 EUR a night\nHotel Sol: 95 EUR a night"
PLANS_PROSE = "The Basic plan costs 10 USD a month, the Pro plan 25 USD and the Team plan 40 USD."
FLIGHTS_CSV = "flight,price_eur,stops,departs\nSK4705,189,0,07:10\nDY1872,142,1,13:45"
FLIGHTS_BAGS = json.dumps([{"flight": "SK4705", "price_eur": 189, "bag_eur": 0},
                           {"flight": "DY1872", "price_eur": 142, "bag_eur": 40}])
FLIGHTS_TIMED = json.dumps([{"flight": "SK4705", "departs": "07:10", "price_eur": 189},
                            {"flight": "DY1872", "departs": "13:45", "price_eur": 142}])


@pytest.mark.parametrize(("words", "context", "asked", "beyond"), [
    # an extreme the context writes a value beyond: under the same key of another record, or with
    # the same unit in the same sentence
    ("The cheapest flight is SK4705 at 189 EUR.", FLIGHTS_JSON, ["189"], ["142"]),
    ("Der günstigste Flug ist SK4705 für 189 EUR.", FLIGHTS_JSON, ["189"], ["142"]),
    ("Le vol le moins cher est SK4705 à 189 EUR.", FLIGHTS_JSON, ["189"], ["142"]),
    ("El vuelo más barato cuesta 189 EUR.", FLIGHTS_JSON, ["189"], ["142"]),
    ("The most expensive flight is DY1872 at 142 EUR.", FLIGHTS_JSON, ["142"], ["189"]),
    ("The cheapest flight is SK4705 at 189 EUR.", TABLE_FLIGHTS, ["189"], ["142"]),
    ("Самый дешёвый рейс стоит 189 EUR.", FLIGHTS_JSON, ["189"], ["142"]),
    ("En ucuz uçuş 189 EUR.", FLIGHTS_JSON, ["189"], ["142"]),
    ("Plan A is the cheapest at 40 EUR.", PLANS, ["40"], ["30"]),
    ("The cheapest plan costs 40 EUR.", PLANS, ["40"], ["30"]),
    ("Plan B is the most expensive at 30 EUR.", PLANS, ["30"], ["40"]),
    ("The earliest flight leaves at 13:45.", FLIGHTS_TIMED, ["13:45"], ["07:10"]),
    ("Der späteste Flug geht um 07:10.", FLIGHTS_TIMED, ["07:10"], ["13:45"]),
    # an extreme without its value, of a thing whose value the context gives another beyond
    ("The cheapest flight is SK4705.", FLIGHTS_JSON, ["SK4705"], ["DY1872: 142"]),
    ("DY1872 is the most expensive flight.", FLIGHTS_JSON, ["DY1872"], ["SK4705: 189"]),
    ("DY1872 is the more expensive flight.", FLIGHTS_JSON, ["DY1872"], ["SK4705: 189"]),  # of two
    ("The cheapest flight is SK4705, which costs 189 EUR.", FLIGHTS_JSON, ["SK4705"], ["DY1872: 142"]),
    ("Der günstigste Flug ist SK4705.", TABLE_FLIGHTS, ["SK4705"], ["DY1872: 142"]),
    ("最便宜的航班是SK4705。", FLIGHTS_JSON, ["SK4705"], ["DY1872: 142"]),
    ("The earliest flight is DY1872.", FLIGHTS_TIMED, ["DY1872"], ["SK4705: 07:10"]),
    ("El vuelo más temprano es DY1872.", FLIGHTS_CSV, [], []),  # "más temprano" is no word of ours
    ("The cheapest hotel is Hotel Nord.", HOTELS, ["Nord"], ["Hotel Sol: 95 EUR a night"]),
    ("The Team plan is the cheapest.", PLANS_PROSE, ["Team"], ["Basic plan costs: 10 USD"]),  # a list in prose
    ("The flight with the lowest price is SK4705.", FLIGHTS_JSON, ["SK4705"], ["DY1872: 142"]),
    # the extreme is the context's: asked for the judge to read a smaller set ("direct")
    ("The cheapest direct flight is SK4705 at 189 EUR.", FLIGHTS_JSON, ["189"], ["142"]),
    ("SK4705 is the cheapest direct flight.", FLIGHTS_JSON, ["SK4705"], ["DY1872: 142"]),
    # the extreme, or no extreme, or another clause's value, or no other thing of the kind
    ("The cheapest flight is DY1872 at 142 EUR.", FLIGHTS_JSON, [], []),
    ("The most expensive flight is SK4705 at 189 EUR.", FLIGHTS_JSON, [], []),
    ("The cheapest flight is DY1872 at 142 EUR.", TABLE_FLIGHTS, [], []),
    ("Plan B is the cheapest at 30 EUR.", PLANS, [], []),
    ("Plan C is the most expensive at 50 EUR.", PLANS, [], []),
    ("The second cheapest flight is SK4705 at 189 EUR.", FLIGHTS_JSON, [], []),
    ("The earliest flight leaves at 07:10.", FLIGHTS_TIMED, [], []),
    ("The cheapest flight is DY1872.", FLIGHTS_JSON, [], []),
    ("SK4705 is the most expensive flight.", FLIGHTS_JSON, [], []),
    ("SK4705 is the more expensive flight.", FLIGHTS_JSON, [], []),
    ("The earliest flight is SK4705.", FLIGHTS_TIMED, [], []),
    ("The cheapest hotel is Hotel Sol.", HOTELS, [], []),
    ("The Basic plan is the cheapest.", PLANS_PROSE, [], []),
    ("SK4705 is the cheapest with two bags.", FLIGHTS_BAGS, [], []),  # a fare and a fee: both ways
    ("The cheapest flight from OSL is DY1872.", FLIGHTS_JSON, [], []),
    ("The shortest flight is SK4705.", FLIGHTS_TIMED, [], []),  # no field the words name
    ("The cheapest flight is not SK4705.", FLIGHTS_JSON, [], []),  # a negation: for the verdict to read
    ("SK4705 is not the cheapest flight at 189 EUR.", FLIGHTS_JSON, [], []),
    ("The cheapest flight DY1872 departs at 13:45.", FLIGHTS_TIMED, [], []),  # a price is no time
    ("The shortest flight DY1872 departs at 13:45.", FLIGHTS_TIMED, [], []),
    ("The earliest flight costs 142 EUR.", FLIGHTS_TIMED, [], []),  # nor a time a price
    ("SK4705 costs 189 EUR.", FLIGHTS_JSON, [], []),
    ("The cheapest flight is DY1872, while SK4705 costs 189 EUR.", FLIGHTS_JSON, [], []),
    ("The cheapest plan costs 40 EUR.", "Plan A costs 40 EUR a month. Plan B includes 30 GB.", [], []),
    ("The highest fee is 60 EUR.", "Changes cost 60 EUR. Airport taxes are 31 EUR.", [], []),  # two sentences
])
def test_an_extreme_the_context_writes_a_value_beyond_is_asked(words, context, asked, beyond):
    """"The cheapest flight is SK4705 at 189 EUR" writes every value as the context does; the
    context gives DY1872 142 EUR under the same key. Asked, with what it gives beyond."""
    assert exact.values_in_other_roles(words, [context]) == asked
    assert exact.values_given_instead(words, [context]) == beyond


@pytest.mark.parametrize(("words", "context", "asked", "given"), [
    # a comparison of two records' values that go the other way: price, time of day, a field named
    ("SK4705 is cheaper than DY1872.", FLIGHTS_JSON, ["cheaper"], ["SK4705: 189, DY1872: 142"]),
    ("SK4705 costs less than DY1872.", FLIGHTS_TIMED, ["costs less"], ["SK4705: 189, DY1872: 142"]),
    ("DY1872 ist teurer als SK4705.", FLIGHTS_JSON, ["teurer"], ["DY1872: 142, SK4705: 189"]),
    ("SK4705 est moins cher que DY1872.", TABLE_FLIGHTS, ["moins cher"], ["SK4705: 189, DY1872: 142"]),
    ("DY1872 är dyrare än SK4705.", FLIGHTS_CSV, ["dyrare"], ["DY1872: 142, SK4705: 189"]),
    ("SK4705 jest tańszy niż DY1872.", FLIGHTS_JSON, ["tańszy"], ["SK4705: 189, DY1872: 142"]),
    ("SK4705 DY1872'den daha ucuz.", FLIGHTS_JSON, ["daha ucuz"], ["SK4705: 189, DY1872: 142"]),
    ("SK4705 дешевле, чем DY1872.", FLIGHTS_JSON, ["дешевле"], ["SK4705: 189, DY1872: 142"]),  # one clause
    ("SK4705はDY1872より安いです。", FLIGHTS_JSON, ["より安い"], ["SK4705: 189, DY1872: 142"]),
    ("SK4705比DY1872便宜。", FLIGHTS_JSON, ["比DY1872便宜"], ["SK4705: 189, DY1872: 142"]),
    ("DY1872 leaves earlier than SK4705.", FLIGHTS_TIMED, ["earlier"], ["DY1872: 13:45, SK4705: 07:10"]),
    ("SK4705 vertrekt later dan DY1872.", FLIGHTS_CSV, ["later"], ["SK4705: 07:10, DY1872: 13:45"]),
    ("SK4705 has more stops than DY1872.", FLIGHTS_JSON, ["more"], ["SK4705: 0, DY1872: 1"]),
    ("Hotel Nord is cheaper than Hotel Sol.", HOTELS, ["cheaper"],
     ["Hotel Nord: 120 EUR a night, Hotel Sol: 95 EUR a night"]),
    # a list in prose: a thing and its value, two or more with one unit word
    ("The Pro plan is cheaper than the Basic plan.", PLANS_PROSE, ["cheaper"],
     ["the Pro plan: 25 USD, Basic plan costs: 10 USD"]),
    ("Das Büro in Bergen hat mehr Mitarbeiter als das Büro in Oslo.",
     "Das Büro in Oslo hat 40 Mitarbeiter, das Büro in Bergen 25 Mitarbeiter.", ["mehr"],
     ["das Büro in Bergen: 25 Mitarbeiter, Das Büro in Oslo hat: 40 Mitarbeiter"]),
    # one capital letter after a word names a thing; a time of day each; a dash for the verb; "before"
    ("Plan A is cheaper than plan B.", PLANS, ["cheaper"], ["Plan A costs: 40 EUR, plan B: 30 EUR"]),
    ("Plan C is the cheapest.", PLANS, ["C"], ["Plan A costs: 40 EUR"]),
    ("El Plan A es más barato que el Plan B.", "El Plan A cuesta 25 USD y el Plan B 10 USD.", ["más barato"],
     ["Plan A cuesta: 25 USD, el Plan B: 10 USD"]),
    ("Тариф A дешевле, чем тариф B.", "Тариф A стоит 25 USD, тариф B — 10 USD.", ["дешевле"],
     ["Тариф A стоит: 25 USD, тариф B: 10 USD"]),
    ("SK4705 leaves later than DY1872.", "SK4705 leaves at 07:10 and DY1872 at 13:45.", ["later"],
     ["SK4705 leaves at: 07:10, DY1872 at: 13:45"]),
    ("Gate B opens before gate A.", "Gate A opens at 06:00 and gate B at 06:30.", ["before"],
     ["gate B at: 06:30, Gate A opens at: 06:00"]),
    ("El vuelo VY1234 sale antes del vuelo IB3170.", "El vuelo IB3170 sale a las 07:10 y el vuelo VY1234 a las 13:45.",
     ["antes del"], ["el vuelo VY1234 a las: 13:45, vuelo IB3170 sale a las: 07:10"]),
    ("Le vol AF1234 part après le vol AF5678.", "Le vol AF1234 part à 7h10 et le vol AF5678 à 13h45.", ["après"],
     ["Le vol AF1234 part à: 7h10, le vol AF5678 à: 13h45"]),
    ("Il treno R2 parte prima del treno R1.", "Il treno R1 parte alle 8:15, il treno R2 alle 9:40.", ["prima del"],
     ["il treno R2 alle: 9:40, R1 parte alle: 8:15"]),
    ("DY1872 går før SK4705.", "Flyet SK4705 går 07:10 og DY1872 går 13:45.", ["før"],
     ["DY1872 går: 13:45, Flyet SK4705 går: 07:10"]),
    ("Middag serveras tidigare än frukost.", "Frukost serveras 07:00 och middag 18:30.", ["tidigare"],
     ["middag: 18:30, Frukost serveras: 07:00"]),
    ("SK4705 lands before it departs.", "Flight SK4705 departs at 07:10 and lands at 11:05.", ["before"],
     ["lands at: 11:05, Flight SK4705 departs at: 07:10"]),
    # the order the context gives, or no two things of one key, or values both ways
    ("DY1872 is cheaper than SK4705.", FLIGHTS_JSON, [], []),
    ("SK4705 is more expensive than DY1872.", FLIGHTS_JSON, [], []),
    ("DY1872比SK4705便宜。", FLIGHTS_JSON, [], []),
    ("SK4705 leaves earlier than DY1872.", FLIGHTS_TIMED, [], []),
    ("SK4705 has fewer stops than DY1872.", FLIGHTS_JSON, [], []),
    ("Hotel Sol is cheaper than Hotel Nord.", HOTELS, [], []),
    ("SK4705 is direct and DY1872 is cheaper.", FLIGHTS_JSON, [], []),  # nothing compared with after the words
    ("DY1872 дешевле, чем SK4705.", FLIGHTS_JSON, [], []),
    ("SK4705 est direct, que DY1872 soit moins cher ou non.", FLIGHTS_JSON, [], []),
    ("SK4705 is cheaper with two bags than DY1872.", FLIGHTS_BAGS, [], []),  # a fare and a fee: both ways
    ("SK4705 is cheaper than DY1872.", PLANS, [], []),  # names the context does not write
    ("SK4705 has more legroom than DY1872.", FLIGHTS_JSON, [], []),  # no field the words name
    ("The Basic plan is cheaper than the Pro plan.", PLANS_PROSE, [], []),
    ("The Oslo office has more staff than the Bergen office.",
     "The Oslo office has 40 staff and the Bergen office 25 staff.", [], []),
    ("Plan B is cheaper than plan A.", PLANS, [], []),
    ("A is a cheaper plan than C.", PLANS, [], []),  # a capital letter that starts a clause may be a word
    ("Plan B is cheaper than a plan with more calls.", PLANS, [], []),  # a small "a" is no name
    ("El Plan B es más barato que el Plan A.", "El Plan A cuesta 25 USD y el Plan B 10 USD.", [], []),
    ("Тариф B дешевле, чем тариф A.", "Тариф A стоит 25 USD, тариф B — 10 USD.", [], []),
    ("DY1872 leaves later than SK4705.", "SK4705 leaves at 07:10 and DY1872 at 13:45.", [], []),
    ("Gate A opens before gate B.", "Gate A opens at 06:00 and gate B at 06:30.", [], []),
    ("El vuelo VY1234 sale después del vuelo IB3170.",
     "El vuelo IB3170 sale a las 07:10 y el vuelo VY1234 a las 13:45.", [], []),
    ("SK4705 går før DY1872.", "Flyet SK4705 går 07:10 og DY1872 går 13:45.", [], []),
    ("Check in two hours before SK4705 leaves.", "SK4705 leaves at 07:10 and DY1872 at 13:45.", [], []),
    ("Boarding starts after check-in opens.", "Check-in opens at 05:10 and boarding at 06:40.", [], []),
    ("SK4705 departs before it lands.", "Flight SK4705 departs at 07:10 and lands at 11:05.", [], []),
    ("The Pro plan is cheaper than the Basic plan.", "The Basic plan costs 10 USD. The Pro plan costs 25 USD.", [],
     []),  # two sentences: no list
    ("SK4705 is not cheaper than DY1872.", FLIGHTS_JSON, [], []),  # a negation: for the verdict to read
    ("DY1872 is not cheaper than SK4705.", FLIGHTS_JSON, [], []),
    ("SK4705はDY1872より安くない。", FLIGHTS_JSON, [], []),
])
def test_a_comparison_the_records_go_the_other_way_of_is_asked(words, context, asked, given):
    """"SK4705 is cheaper than DY1872" writes every name as the context does; the context gives
    them 189 and 142 EUR under one key. Asked, with the values it gives."""
    assert exact.values_in_other_roles(words, [context]) == asked
    assert exact.values_given_instead(words, [context]) == given


@pytest.mark.parametrize(("words", "context", "asked", "given"), [
    # a value a list in prose gives another thing than the one the words name
    ("Beta employs 40 people.", "Acme employs 40 people and Beta 25.", ["40"], ["Beta: 25"]),
    ("The Bergen office has 40 staff.", "The Oslo office has 40 staff and the Bergen office 25 staff.", ["40"],
     ["the Bergen office: 25 staff"]),
    ("DY1872 leaves at 07:10.", "SK4705 leaves at 07:10 and DY1872 at 13:45.", ["07:10"], ["DY1872 at: 13:45"]),
    ("Die Firma Beta hat 40 Mitarbeiter.", "Die Firma Acme hat 40 Mitarbeiter, die Firma Beta 25.", ["40"],
     ["die Firma Beta: 25"]),
    ("L'hôtel Sol coûte 120 euros.", "L'hôtel Nord coûte 120 euros et l'hôtel Sol 95 euros.", ["120"],
     ["l'hôtel Sol: 95 euros"]),
    ("Bergen has 700,000 inhabitants.", "Oslo has 700,000 inhabitants and Bergen 290,000.", ["700,000"],
     ["Bergen: 290,000"]),
    ("Karin Berg booked seat 14C.", "Ingrid Dahl booked seat 14C and Karin Berg seat 22A.", ["14C"],
     ["Karin Berg seat: 22A"]),
    ("Flight DY1872 boards at gate B12.", "Flight SK4705 boards at gate B12 and flight DY1872 at gate C4.", ["B12"],
     ["flight DY1872 at gate: C4"]),
    ("Lars joined in 2019.", "Anna joined in 2019 and Lars in 2021.", ["2019"], ["Lars in: 2021"]),
    ("Beta was founded in 1997.", "Acme was founded in 1997 and Beta in 2005.", ["1997"], ["Beta in: 2005"]),
    ("Beta grew 12%.", "Acme grew 12% and Beta 5%.", ["12"], ["Beta: 5"]),
    ("Lars ist 34 Jahre alt.", "Anna ist 34 Jahre alt und Lars 41.", ["34"], ["Lars: 41"]),
    # the value it gives the thing, both things, a sum, or no name: nothing asked
    ("Beta grew 5%.", "Acme grew 12% and Beta 5%.", [], []),
    ("Beta employs 25 people.", "Acme employs 40 people and Beta 25.", [], []),
    ("Acme and Beta employ 65 people together.", "Acme employs 40 people and Beta 25.", [], []),
    ("Together, Ingrid and Karin paid 215 EUR.", "Ingrid paid 120 EUR and Karin 95 EUR.", [], []),
    ("Oslo has more than twice Bergen's 290,000 inhabitants.", "Oslo has 700,000 inhabitants and Bergen 290,000.",
     [], []),
    ("Acme went public in 2005.", "Acme was founded in 1997 and went public in 2005.", [], []),
    ("El vuelo llega a las 11.", "El vuelo sale a las 7 y llega a las 11.", [], []),
    ("SK4705 and DY1872 leave at 07:10 and 13:45.", "SK4705 leaves at 07:10 and DY1872 at 13:45.", [], []),
    # the other end or bound beside the value the context gives one
    ("The last train leaves at 05:50.", "The first train leaves at 05:50.", ["last"], ["first"]),
    ("The last train leaves at 05:50.", "The first train leaves at 05:50 and the last at 23:40.", ["last"], ["first"]),
    ("Der letzte Zug fährt um 5:50 Uhr.", "Der erste Zug fährt um 5:50 Uhr.", ["letzte"], ["erste"]),
    ("El primer tren sale a las 23:40.", "El último tren sale a las 23:40.", ["primer"], ["último"]),
    ("De laatste trein vertrekt om 5.50 uur.", "De eerste trein vertrekt om 5.50 uur.", ["laatste"], ["eerste"]),
    ("In the last year revenue grew 12%.", "In the first year revenue grew 12%.", ["last"], ["first"]),
    ("The lowest temperature was 31 °C.", "The highest temperature was 31 °C.", ["lowest"], ["highest"]),
    ("The most expensive room costs 90 EUR.", "The cheapest room costs 90 EUR.", ["most expensive"], ["cheapest"]),
    ("Die maximale Bestellung beträgt 20 EUR.", "Die Mindestbestellung beträgt 20 EUR.", ["maximale"],
     ["Mindestbestellung"]),
    ("終電は5時50分です。", "始発は5時50分です。", ["終電"], ["始発"]),
    ("Shipping is free on orders under 50 EUR.", "Shipping is free on orders over 50 EUR.", ["under"], ["over"]),
    ("Kinder über 12 Jahren reisen gratis.", "Kinder unter 12 Jahren reisen gratis.", ["über"], ["unter"]),
    ("会社には400人以下の従業員がいます。", "会社には400人以上の従業員がいます。", ["以下"], ["以上"]),
    ("직원은 400명 이하이다.", "직원은 400명 이상이다.", ["이하"], ["이상"]),
    ("막차는 5시 50분에 출발합니다.", "첫차는 5시 50분에 출발합니다.", ["막차"], ["첫"]),
    ("B 요금제는 25달러입니다.", "A 요금제는 25달러, B 요금제는 10달러입니다.", ["25"], []),
    ("Le vol AF5678 coûte 189 €.", "Le vol AF1234 coûte 189 € et le vol AF5678 142 €.", ["189"],
     ["le vol AF5678: 142"]),
    # a value before a bracket that names its thing
    ("A child's ticket costs €12.50.", "Ticket: €12.50 (adults), €6.25 (children).", ["12.50"], ["€6.25"]),
    ("Kinder zahlen 12 €.", "Eintritt: 12 € (Erwachsene), 6 € (Kinder).", ["12"], ["6"]),
    # the same end, none in the context, another value, or a negation: nothing asked
    ("Children under 12 travel free.", "Children under 12 travel free; over 12 pay 10 EUR.", [], []),
    ("The venue holds at least 400 people.", "The venue holds more than 400 people.", [], []),
    ("The tour lasts 3 hours.", "The tour costs under 50 EUR and lasts 3 hours.", [], []),
    ("A child's ticket costs €6.25.", "Ticket: €12.50 (adults), €6.25 (children).", [], []),
    ("The first train leaves at 05:50.", "The first train leaves at 05:50.", [], []),
    ("The last train leaves at 05:50.", "The train leaves at 05:50.", [], []),
    ("The last train leaves at 23:40.", "The first train leaves at 05:50 and the last at 23:40.", ["23"], []),
    ("The last train does not leave at 05:50.", "The first train leaves at 05:50.", [], []),
    ("Last year revenue was 12 million.", "Last year revenue was 12 million.", [], []),
])
def test_a_value_of_a_list_or_an_end_the_context_gives_otherwise_is_asked(words, context, asked, given):
    """"Beta employs 40 people" beside "Acme employs 40 people and Beta 25" writes every name and
    value as the context does, as "The last train leaves at 05:50" beside "The first train leaves at
    05:50" does. Asked, with what the context gives."""
    assert exact.values_in_other_roles(words, [context]) == asked
    assert exact.values_given_instead(words, [context]) == given


@pytest.mark.parametrize(("words", "context", "asked"), [
    # a count the context writes in no form
    ("Acme has five offices.", "Acme has four offices.", ["five"]),
    ("Take two tablets three times a day.", "Take two tablets twice a day.", ["three"]),
    ("The warranty lasts three years.", "The warranty lasts two years.", ["three"]),
    ("Acme hat fünf Büros.", "Acme hat vier Büros.", ["fünf"]),
    ("La batterie se recharge en deux heures.", "La batterie se recharge en 4 heures.", ["deux"]),
    ("El curso dura seis semanas.", "El curso dura 8 semanas.", ["seis"]),
    ("Il corso dura sette giorni.", "Il corso dura 10 giorni.", ["sette"]),
    ("O curso dura oito dias.", "O curso dura 10 dias.", ["oito"]),
    ("De cursus duurt drie dagen.", "De cursus duurt 4 dagen.", ["drie"]),
    ("Kursen varar fyra dagar.", "Kursen varar 3 dagar.", ["fyra"]),
    ("Kurs trwa pięć dni.", "Kurs trwa 3 dni.", ["pięć"]),
    ("Kurz trvá šest dní.", "Kurz trvá 3 dny.", ["šest"]),
    ("Курс длится пять дней.", "Курс длится 3 дня.", ["пять"]),
    ("Курс триває п'ять днів.", "Курс триває 3 дні.", ["п'ять"]),
    ("Kurs üç gün sürüyor.", "Kurs iki gün sürüyor.", ["üç"]),
    ("Kurssi kestää kolme päivää.", "Kurssi kestää 2 päivää.", ["kolme"]),
    ("Kursus berlangsung tiga hari.", "Kursus berlangsung 2 hari.", ["tiga"]),
    ("Five of them", "They are 15.", ["five"]),  # 15 is no 5
    # written: as digits, as a word of any language here, or part of a greater number
    ("Acme has five offices.", "Acme's 5 offices are in 2 countries.", []),
    ("Acme has five offices.", "Acme hat fünf Büros.", []),
    ("Acme a cinq bureaux.", "Acme has five offices.", []),
    ("Acme has twenty-two offices.", "Acme has 22 offices.", []),
    ("Acme tiene treinta y dos tiendas.", "Acme tiene 32 tiendas.", []),
    ("Şirketin on iki çalışanı var.", "Şirketin 12 çalışanı var.", []),
    ("Acme has two hundred staff.", "Acme has 200 staff.", []),
    ("Acme punya dua belas toko.", "Acme punya 12 toko.", []),
    ("Acme a quatre-vingts salariés.", "Acme a 80 salariés.", []),
    # a count of any size, in words of one or more words, beside another value; and beside its own
    ("Acme has twenty-five offices.", "Acme has 22 offices.", ["twenty-five"]),
    ("The warranty lasts twenty years.", "The warranty lasts two years.", ["twenty"]),
    ("Der Kurs dauert zweiundzwanzig Tage.", "Der Kurs dauert 24 Tage.", ["zweiundzwanzig"]),
    ("La garantie dure quinze ans.", "La garantie dure cinq ans.", ["quinze"]),
    ("El curso dura veinticinco días.", "El curso dura 20 días.", ["veinticinco"]),
    ("Il corso dura ventotto giorni.", "Il corso dura 18 giorni.", ["ventotto"]),
    ("O curso dura vinte e dois dias.", "O curso dura 12 dias.", ["vinte e dois"]),
    ("De cursus duurt eenentwintig dagen.", "De cursus duurt 12 dagen.", ["eenentwintig"]),
    ("Kursen varar tjugotvå dagar.", "Kursen varar 12 dagar.", ["tjugotvå"]),
    ("Kurs trwa dwadzieścia pięć dni.", "Kurs trwa 20 dni.", ["dwadzieścia pięć"]),
    ("Курс длится тридцать дней.", "Курс длится 13 дней.", ["тридцать"]),
    ("Kurs yirmi iki gün sürüyor.", "Kurs 12 gün sürüyor.", ["yirmi iki"]),
    ("Kurssi kestää kolmetoista päivää.", "Kurssi kestää 3 päivää.", ["kolmetoista"]),
    ("Kursus berlangsung dua puluh hari.", "Kursus berlangsung 2 hari.", ["dua puluh"]),
    ("Acme was founded in nineteen ninety-seven.", "Acme was founded in 1999.", ["nineteen ninety-seven"]),
    ("Acme has 25 offices.", "Acme has twenty-two offices.", ["25"]),
    ("Acme has fifteen offices.", "Acme has 15 offices.", []),
    ("Der Kurs dauert zweiundzwanzig Tage.", "Der Kurs dauert 22 Tage.", []),
    ("Acme has 22 offices.", "Acme has twenty-two offices.", []),
    ("Курс длится тридцать дней.", "Курс длится 30 дней.", []),
    ("Acme was founded in nineteen ninety-nine.", "Acme was founded in 1999.", []),
    ("El curso dura veinticinco días.", "The course lasts twenty-five days.", []),
    ("Acme has two million users.", "Acme has 2 million users.", []),
    ("Kurssi kestää kolmetoista päivää.", "Kurssi kestää 13 päivää.", []),
    # a count in words, the value written, with a unit word the context writes after it nowhere
    ("The warranty lasts two months.", "The warranty lasts two years.", ["two months"]),
    ("The warranty lasts two months.", "The warranty lasts 2 years.", ["two months"]),
    ("The warranty lasts 2 months.", "The warranty lasts two years.", ["2 months"]),
    ("Die Garantie gilt zwei Monate.", "Die Garantie gilt zwei Jahre.", ["zwei monate", "monate"]),
    ("Le contrat dure trois mois.", "Le contrat dure trois ans.", ["trois mois"]),
    ("Take it twice a day.", "Take it 3 times a day.", ["twice"]),
    ("Take it twice daily.", "Take it twice a day.", []),  # a word of two letters is no unit
    ("Two of the rooms are free.", "2 rooms are free.", []),
    ("The warranty lasts two years.", "The warranty lasts 2 years.", []),
    ("Acme has five offices.", "Acme hat 5 Büros, fünf Büros.", ["five offices"]),  # as "5 offices" is
    # "the two" of what the context says "both" of; not two of anything else
    ("Puedes cancelar cualquiera de los dos cuando quieras.", "Ambos planes se pueden cancelar.", []),
    ("You can cancel either of the two at any time.", "Both plans can be cancelled at any time.", []),
    ("You can cancel either of the two at any time.", "The plans can be cancelled at any time.", ["two"]),
    ("Beide Tarife kosten zwei Euro.", "Beide Tarife kosten 3 Euro.", ["zwei"]),
    # Chinese and Japanese numerals: read as digits are where the context writes their value
    ("会社には二十二人の社員がいます。", "会社には22人の社員がいます。", []),
    ("会社には22人の社員がいます。", "会社には二十二人の社員がいます。", []),
    ("公司有三百名员工。", "公司有300名员工。", []),
    ("会社は一九九七年に設立された。", "会社は1997年に設立された。", []),
    ("会議は三回あります。", "会議は3回あります。", []),
    ("会社には二十五人の社員がいます。", "会社には22人の社員がいます。", ["二十五"]),
    ("会社には25人の社員がいます。", "会社には二十二人の社員がいます。", ["25"]),
    ("公司有四百名员工。", "公司有300名员工。", ["四百"]),
    ("会社は一九九九年に設立された。", "会社は1997年に設立された。", ["一九九九"]),
    # a dozen, and Danish tens
    ("The box holds a dozen eggs.", "The box holds 12 eggs.", []),
    ("The box holds a dozen eggs.", "The box holds 10 eggs.", ["dozen"]),
    ("Hotellet har toogtyve værelser.", "Hotellet har 22 værelser.", []),
    ("Hotellet har femogtyve værelser.", "Hotellet har 22 værelser.", ["femogtyve"]),
])
def test_a_count_written_as_a_word_the_context_writes_in_no_form_is_asked(words, context, asked):
    assert unwritten(words, [context], at_starts=False) == asked


@pytest.mark.parametrize(("words", "context", "asked"), [
    # a rank the context writes in no form: asked, whatever the language
    ("Anna finished third.", "Anna finished first.", ["third"]),
    ("Sales rose in the fourth quarter.", "Sales rose in the second quarter.", ["fourth"]),
    ("Acme turned twenty-two.", "Acme celebrated its 21st birthday.", ["twenty-two"]),
    ("Acme celebrated its twenty-second birthday.", "Acme celebrated its 21st birthday.", ["twenty-second"]),
    ("Anna wurde dritte.", "Anna wurde Erste.", ["dritte"]),
    ("Das Büro ist im fünften Stock.", "Das Büro ist im 3. Stock.", ["fünften"]),
    ("Anna est arrivée troisième.", "Anna est arrivée première.", ["troisième"]),
    ("Anna llegó tercera.", "Anna llegó primera.", ["tercera"]),
    ("Anna è arrivata terza.", "Anna è arrivata prima.", ["terza"]),
    ("Anna werd derde.", "Anna werd eerste.", ["derde"]),
    ("Anna kom på tredje plats.", "Anna kom först.", ["tredje"]),
    ("Анна заняла третье место.", "Анна заняла первое место.", ["третье"]),
    ("Anna zajęła trzecie miejsce.", "Anna zajęła pierwsze miejsce.", ["trzecie"]),
    ("Anna skončila třetí.", "Anna skončila první.", ["třetí"]),
    ("Anna üçüncü oldu.", "Anna birinci oldu.", ["üçüncü"]),
    ("Anna tuli kolmanneksi.", "Anna tuli ensimmäiseksi.", ["kolmanneksi"]),
    ("Anna menjadi juara ketiga.", "Anna menjadi juara pertama.", ["ketiga"]),
    # a word that is an ordinal and a common word: asked where the context writes another rank
    ("Bob finished second.", "Anna finished first, Bob third.", ["second"]),
    ("Bob wurde Zweiter.", "Anna wurde Erste, Bob Dritter.", ["zweiter"]),
    ("Bob kom på andra plats.", "Anna kom på första plats, Bob på tredje.", ["andra"]),
    ("Bob finished second.", "Anna won the race.", []),
    ("Secondo il rapporto, le vendite sono salite.", "Le vendite sono salite, dice il rapporto.", []),
    ("De andra kom senare.", "Resten kom senare.", []),
    # its value written, as a rank or a count, in digits or words of any language here
    ("The office is on the third floor.", "The office is on the 3rd floor.", []),
    ("Anna finished first.", "Anna finished 1st.", []),
    ("Anna finished 1st.", "Anna finished first.", []),
    ("Anna finished third.", "Three runners took part; Anna was last.", []),
    ("Acme celebrated its twenty-first birthday.", "Acme celebrated its 21st birthday.", []),
    ("Музей находится на третьем этаже.", "Музей находится на 3 этаже.", []),
    ("Anna zajęła trzecie miejsce.", "Anna zajęła 3. miejsce.", []),
    ("La réunion est le troisième jour.", "La réunion est le 3e jour.", []),
    ("Anna finished third.", "Anna wurde Dritte.", []),
    # no rank: a fraction, a unit, a fixed word, a list's opener
    ("A third of the staff work remotely.", "Half of the staff work remotely.", []),
    ("The API answers in under a second.", "The API answers in 200 ms, the first byte in 50 ms.", []),
    ("Cookies are shared with third-party partners.", "Cookies are shared with partners.", []),
    ("First, order. Second, pay. Third, wait.", "We ship in 3 days.", []),
])
def test_a_rank_written_as_a_word_the_context_writes_in_no_form_is_asked(words, context, asked):
    assert unwritten(words, [context], at_starts=False) == asked


PASSENGERS = "Passengers: Ingrid Dahl (seat 14C) and Karin Berg (seat 22A)."


@pytest.mark.parametrize(("words", "context", "asked"), [
    # a name made of two of the context's names: every word written, never together
    ("The booking is in the name of Ingrid Berg.", PASSENGERS, ["ingrid berg"]),
    ("Karin Dahl sits in 22A.", PASSENGERS, ["karin dahl"]),
    ("Ingrid Dahl-Berg sits in 14C.", PASSENGERS, ["ingrid dahl berg"]),
    ("You stay at the Hotel Bristol Oslo.", "Rooms: Hotel Bristol, 2 nights; Grand Hotel Oslo, 1 night.",
     ["hotel bristol oslo"]),
    ("Jean-Pierre Martin signe le contrat.", "Jean-Pierre Dubois et Paul Martin signent.", ["jean pierre martin"]),
    ("Ana Pérez tiene el asiento 14C.", "Ana García: asiento 14C. Luis Pérez: asiento 22A.", ["ana pérez"]),
    ("Анна Петрова летит в Осло.", "Анна Иванова и Мария Петрова летят в Осло.", ["анна петрова"]),
    ("Бронь на имя Марии Ивановой.", "Пассажиры: Анна Иванова и Мария Петрова.", ["марии", "ивановой",
                                                                                   "марии ивановой"]),
    ("Ingrid Bergs Platz ist 14C.", "Ingrid Dahl: Platz 14C. Karin Berg: Platz 22A.", ["bergs", "ingrid bergs"]),
    ("Der AquaPur fasst 3,5 Liter Wasser.", "Der AquaPur fasst 3,5 Liter.", ["wasser"]),  # no name's words
    ("Marie Curie forschte in Paris.", "Die Forscherin arbeitete in Paris.", ["curie"]),
    # names the context writes together, or a word of no name of its own: nothing asked
    ("Ingrid Dahl sits in 14C.", PASSENGERS, []),
    ("Karin Berg and Ingrid Dahl travel together.", PASSENGERS, []),
    ("Ingrid and Karin Berg travel together.", PASSENGERS, []),
    ("Hi Ms Dahl, your seat is 14C.", PASSENGERS, ["ms", "ms dahl"]),  # a word of no name: and with its name
    ("You stay at the Grand Hotel Oslo.", "Rooms: Hotel Bristol, 2 nights; Grand Hotel Oslo, 1 night.", []),
    ("The Dahl booking is confirmed.", "The Dahl family booked it. The booking is confirmed.", []),
    # more than six words with capitals: a heading in title case, no name
    ("The Ingrid Berg And Karin Dahl Travel Guide", PASSENGERS, ["travel", "guide"]),
])
def test_a_name_made_of_two_names_of_the_context_is_asked_about(words, context, asked):
    assert unwritten(words, [context], at_starts=False) == asked


@pytest.mark.parametrize(("words", "context", "asked", "left_out"), [
    ("Berg booked the flight.", "Dahl booked the flight.", ["berg"], []),
    ("Flight to Oslo. Karin is the passenger.", "Ingrid is the passenger on the flight to Oslo.", ["karin"], []),
    ("Ingrid … Karin booked it", "Ingrid booked it.", ["karin"], []),  # a stretch's start, after a gap
    ("«Lyon est la capitale.»", "Paris est la capitale.", ["lyon"], []),
    ("We open at 9.", "The museum opens at 9.", ["we"], []),  # a correct judge says it does not matter
    ("The museum opens at 9.", "the museum opens at 9", [], []),  # written, in any case
    ("Anna Berg booked it.", "Anna Dahl booked it.", ["berg", "anna berg"], ["berg", "anna berg"]),  # not at a start
])
def test_a_capital_that_starts_a_sentence_is_asked_about_unless_left_out(words, context, asked, left_out):
    """Writing systems with case capitalise a sentence's first word whatever it is: code cannot tell
    a name there, so it is asked about (a hosted judge), or left out (`at_starts=False`: the offline
    judge, and what `Label.written` counts)."""
    assert unwritten(words, [context]) == asked
    assert unwritten(words, [context], at_starts=False) == left_out


# A context that lists values gives one thing several with fewer words: code never decides there.
LISTS = [
    ("The company had 55 employees in 2024.", "The company had 40 employees in 2020 and 55 in 2024."),
    ("Revenue was 12 million in 2023.", "Revenue was 10 million in 2022 and 12 million in 2023."),
    ("Tickets cost 10 EUR", "Tickets cost 20 EUR for adults and 10 EUR for children."),
    ("Der Umsatz lag 2023 bei 12 Millionen.", "Der Umsatz lag 2022 bei 10 Millionen und 2023 bei 12 Millionen."),
    ("Gate opens 45 minutes before departure", "Gate opens 30 minutes before departure for domestic flights and "
                                               "45 minutes before departure for international ones."),
    ("Der Zug fährt um 8 Uhr", "Der Zug fährt um 7 Uhr und um 8 Uhr."),
    ("La empresa tenía 300 empleados en 2021.", "La empresa tenía 250 empleados en 2019 y 300 en 2021."),
    ("Компания продала 500 машин в 2023 году.", "Компания продала 450 машин в 2022 году и 500 в 2023 году."),
    # another number beside the same words differs too: maybe another fact ("fifty-five" is words)
    ("The company had 55 employees in 2024.", "The company had 40 employees in 2020 and fifty-five in 2024."),
]


@pytest.mark.parametrize(("words", "context"), LISTS)
def test_a_number_the_context_gives_in_a_list_is_never_contradicted_by_code(words, context):
    assert exact.contradicted_number(words, [context]) is None


@pytest.mark.parametrize(("words", "context", "said", "other"), [
    ("Acme was founded in 1999 in Oslo.", "Acme was founded in 1997 in Oslo.", "1999", "1997"),
    ("Acme was founded in 1999.", "Acme was founded in 1997. It moved to Bergen in 2005.", "1999", "1997"),
    ("The code is 4471.", "The code is 4417.", "4471", "4417"),
    ("Le loyer est de 1\u202f250 euros.", "Le loyer est de 1 200 euros.", "1\u202f250", "1 200"),
    ("Der Umsatz lag 2023 bei 15 Millionen.", "Der Umsatz lag 2023 bei 12 Millionen.", "15 Millionen", "12 Millionen"),
])
def test_a_number_no_place_of_the_context_gives_and_one_place_gives_otherwise_is_contradicted(words, context,
                                                                                              said, other):
    assert exact.contradicted_number(words, [context]) == (said, other)
    assert exact.values_in_other_roles(words, [context]) == []


@pytest.mark.parametrize(("words", "context", "asked"), [
    ("Acme employs 400 people in Oslo.", "Acme employs 40 people in Oslo and 400 in Bergen.", ["400"]),
    ("The company had 40 employees in 2024.", "The company had 40 employees in 2020 and 55 in 2024.", ["40", "2024"]),
    ("The company had 55 employees in 2024.", "The company had 40 employees in 2020 and 55 in 2024.", ["55", "2024"]),
    ("Le billet coûte 10 euros pour les adultes.",
     "Le billet coûte 20 euros pour les adultes et 10 euros pour les enfants.", ["10"]),
    ("Acme was founded in 1999.", "Acme was founded in 1997 and had 1999 bikes by 2005.", ["1999"]),
])
def test_a_number_the_context_writes_for_something_else_is_asked_never_decided(words, context, asked):
    """Written, but beside these words the context writes another: whether it gives it for this
    is the judge's second answer (same_role), in both directions."""
    assert exact.contradicted_number(words, [context]) is None
    assert exact.values_in_other_roles(words, [context]) == asked


@pytest.mark.parametrize(("words", "context"), [
    ("Acme employs 40 people in Oslo.", "Acme employs 40 people in Oslo and 400 in Bergen."),
    ("Acme has 40 people.", "Acme has 40 people in Oslo."),
    ("It costs 3,50 EUR.", "It costs 3.50 EUR."),
    ("Acme employs about 1,200 people.", "Acme employs about 1,234 people."),
])
def test_a_number_the_context_gives_beside_the_same_words_asks_nothing(words, context):
    assert exact.values_in_other_roles(words, [context]) == []
    assert exact.contradicted_number(words, [context]) is None


@pytest.mark.parametrize(("words", "context", "decided"), [
    ("The museum closes at 17.", "The museum closes at 5 pm.", None),
    ("The museum closes at 18.", "The museum closes at 5.", ("18", "5")),
    ("The museum closes at 17.", "The museum closes at 5.", None),  # 5 pm on a 12-hour clock: the judge's
    ("Acme was founded in 98.", "Acme was founded in 1998.", None),  # a year by its last two digits
    ("Acme was founded in 97.", "Acme was founded in 1998.", ("97", "1998")),
    ("Acme was founded in 1999.", "Acme was founded in 1997 in Oslo.", None),
    ("Acme was founded in 1999.", "In 1997 Acme was founded.", None),
    ("The battery lasts 10.", "The battery lasts 600 minutes.", None),
    ("The battery lasts 12.", "The battery lasts 6.", ("12", "6")),
    ("2 adults travel free", "Only 1 adults travel free", None),
    ("2 adults travel free", "1 adults travel free", ("2", "1")),
    # a word after the number, and more after it in the context: a unit and what qualifies it
    ("The 2 rooms cost 300 EUR.", "The 2 rooms cost 150 EUR each.", None),
    ("Temperatures reach 30 degrees.", "Temperatures reach 86 degrees Fahrenheit.", None),
    ("The course costs 300 EUR.", "The course costs 50 EUR a month for 6 months.", None),
    ("Acme employs 400 people.", "Acme employs 40 people in Oslo.", None),
    ("The 2 rooms cost 300 EUR.", "The 2 rooms cost 150 EUR.", ("300", "150")),
    ("Acme employs 4000 people in Oslo.", "Acme employs 40 people in Oslo and 400 in Bergen.", ("4000", "40")),
    # a fraction written onto the digits: 2½ is no 2
    ("It takes 2.5 hours by train.", "It takes 2½ hours by train.", None),
    ("It takes 3 hours by train.", "It takes 2¾ hours by train.", None),
    # a day and month written with and without zeros: the same runs of digits, whatever their decimals
    ("Der Abflug ist am 12.6. um 7 Uhr.", "Der Abflug ist am 12.06. um 7 Uhr.", None),
    ("Odlet je 1.7. v 7 hodin.", "Odlet je 01.07. v 7 hodin.", None),
    ("Вылет 5.3. в 7 часов.", "Вылет 05.03. в 7 часов.", None),
    ("Der Abflug ist am 12.7. um 7 Uhr.", "Der Abflug ist am 12.06. um 7 Uhr.", ("12.7", "12.06")),
])
def test_a_number_at_the_edge_of_the_words_is_decided_only_where_the_context_ends_there_too(words, context, decided):
    """A word beside the context's number that the words do not write ("5 pm") may be a unit: the
    judge reads it. Where the context's words end there too ("closes at 5."), code decides."""
    assert exact.contradicted_number(words, [context]) == decided


@pytest.mark.parametrize(("words", "context", "decided"), [
    # a tie rounded either way: what Python writes (f"{3.25:.1f}" is "3.2", round(188.5) is 188)
    ("The baby weighs 3.2 kg.", "The baby weighs 3.25 kg.", None),
    ("The baby weighs 3.3 kg.", "The baby weighs 3.25 kg.", None),
    ("Der Zins beträgt 4,5 %.", "Der Zins beträgt 4,55 %.", None),
    ("The room costs 188 EUR.", "The room costs 188.50 EUR.", None),
    ("Le trajet dure 2 heures.", "Le trajet dure 2,5 heures.", None),
    # more than a tie off, or cut short: another value
    ("The baby weighs 3.1 kg.", "The baby weighs 3.25 kg.", ("3.1", "3.25")),
    ("Der Zins beträgt 4,4 %.", "Der Zins beträgt 4,55 %.", ("4,4", "4,55")),
    ("The room costs 188 EUR.", "The room costs 188.99 EUR.", ("188", "188.99")),
    ("Acme employs 40 people.", "Acme employs 45 people.", ("40", "45")),  # a tie of tens: half up
    ("O cartão custa R$ 3.000,00.", "O cartão custa R$ 3.500,00.", ("3.000,00", "3.500,00")),
    ("Acme employs 40 people.", "Acme employs 46 people.", ("40", "46")),
    ("Acme was founded in 1999.", "Acme was founded in 2000.", ("1999", "2000")),
    # one time of day on two clocks, its hours and minutes written with a mark; midnight as 0 and 24
    ("The museum closes at 5.30.", "The museum closes at 17.30.", None),
    ("Museet stenger kl. 17.30.", "Museet stenger kl. 5.30.", None),
    ("The train leaves at 24:00.", "The train leaves at 00:00.", None),
    ("Der Zug fährt um 0.15 Uhr.", "Der Zug fährt um 24.15 Uhr.", None),
    ("The museum closes at 6.30.", "The museum closes at 17.30.", ("6.30", "17.30")),
    ("The museum closes at 5.45.", "The museum closes at 17.30.", ("5.45", "17.30")),
    ("The train leaves at 23:00.", "The train leaves at 00:00.", ("23", "00")),
    # a bound or an approximation by a sign, on either side: no other value, whatever the digits
    ("Latency: <50 ms.", "Latency: 42 ms.", None),
    ("Latency: <50 ms.", "Latency: <42 ms.", None),
    ("The team has 30+ people.", "The team has 45 people.", None),
    ("Der Flug kostet ~185 EUR.", "Der Flug kostet 189 EUR.", None),
    ("Le vol coûte ≥ 150 EUR.", "Le vol coûte 189 EUR.", None),
    ("Latency: 50 ms.", "Latency: 42 ms.", ("50", "42")),
])
def test_a_rounding_or_another_clock_is_the_judges_and_any_other_value_is_decided(words, context, decided):
    """Code decides only a value that cannot be the context's written another way."""
    assert exact.contradicted_number(words, [context]) == decided


@pytest.mark.parametrize(("language", "context", "weaker", "stronger", "_"), BOUNDS, ids=[c[0] for c in BOUNDS])
def test_a_number_written_as_a_bound_is_never_decided_nor_compared_as_an_amount(language, context, weaker, stronger,
                                                                               _):
    """"More than 400" is true where the context says "more than 450", and "more than 600" may be:
    neither is another value code can see, nor an amount a correct judge calls the same."""
    for words in (weaker, stronger):
        assert exact.contradicted_number(words, [context]) is None
        assert exact.numbers_beside_the_same_words(words, [context]) == []


@pytest.mark.parametrize(("words", "context", "decided"), [
    # an estimate by a word, before or after the number, in any script
    ("The company has around 40 employees.", "The company has around 45 employees.", None),
    ("Das Unternehmen hat etwa 40 Mitarbeiter.", "Das Unternehmen hat etwa 45 Mitarbeiter.", None),
    ("Le trajet dure environ 40 minutes.", "Le trajet dure environ 45 minutes.", None),
    ("El viaje dura unos 40 minutos.", "El viaje dura unos 45 minutos.", None),
    ("Компания насчитывает около 40 сотрудников.", "Компания насчитывает около 45 сотрудников.", None),
    ("Het traject duurt zo'n 40 minuten.", "Het traject duurt zo'n 45 minuten.", None),
    ("The museum is 40 minutes away at most.", "The museum is 45 minutes away at most.", None),
    ("公司大约有40名员工。", "公司大约有45名员工。", None),
    ("公司有40多名员工。", "公司有45多名员工。", None),
    ("会社の従業員は約40人です。", "会社の従業員は約45人です。", None),
    ("회사 직원은 약 40명입니다.", "회사 직원은 약 45명입니다.", None),
    # a bound word beside another number, or farther off, bounds nothing here: decided
    ("Prices rose from 40 to 52 EUR.", "Prices rose from 40 to 45 EUR.", ("52", "45")),
    ("Over the years, Acme has hired 40 people.", "Over the years, Acme has hired 45 people.", ("40", "45")),
    ("Die Halle fasst 400 Personen.", "Die Halle fasst 450 Personen.", ("400", "450")),
    ("会社には400人の従業員がいます。", "会社には450人の従業員がいます。", ("400", "450")),
    ("회사에는 400명의 직원이 있습니다.", "회사에는 450명의 직원이 있습니다.", ("400", "450")),
])
def test_an_estimate_in_words_is_the_judges_and_an_exact_number_beside_it_is_decided(words, context, decided):
    assert exact.contradicted_number(words, [context]) == decided


@pytest.mark.parametrize(("words", "sentence", "context", "decided"), [
    # a word of the sentence outside the words makes the number a total: the judge reads it
    ("the ticket costs 48 EUR", "For a family of four, the ticket costs 48 EUR.", "The ticket costs 12 EUR.", None),
    ("The room costs 360 EUR", "The room costs 360 EUR for three nights.", "The room costs 120 EUR.", None),
    ("Three … tickets cost 21 EUR", "Three child tickets cost 21 EUR.", "Child tickets cost 7 EUR.", None),
    ("номер стоит 360 евро", "За три ночи номер стоит 360 евро.", "Номер стоит 120 евро.", None),
    ("was founded in 1999", "Sure, Acme was founded in 1999.", "Acme was founded in 1997.", None),
    # the sentence pins it as the words do: decided
    ("Acme was founded in 1999", "Acme was founded in 1999.", "Acme was founded in 1997.", ("1999", "1997")),
    ("was founded in 1999", "Acme was founded in 1999.", "Acme was founded in 1997.", ("1999", "1997")),
    ("Acme … founded in 1999", "Acme was founded in 1999.", "Acme was founded in 1997.", ("1999", "1997")),
    ("Der Umsatz lag 2023 bei 15 Millionen", "Der Umsatz lag 2023 bei 15 Millionen.",
     "Der Umsatz lag 2023 bei 12 Millionen.", ("15 Millionen", "12 Millionen")),
    # pinned in the sentence, not in the words: the words decide nothing either way
    ("Acme was founded in 1999", "Acme was founded in 1999 and employs 40 people.",
     "Acme was founded in 1997 and employs 40 people.", None),
])
def test_a_number_is_decided_only_where_its_whole_sentence_pins_it_too(words, sentence, context, decided):
    """The judge reads a claim's words in their sentence; code, which cannot read what the rest of
    the sentence says, decides only where the sentence is the context's words around the number too."""
    assert exact.contradicted_number(words, [context], sentence) == decided


@pytest.mark.parametrize(("text", "shown"), [
    ("Acme was founded in 1997 [1].", ["1997"]),
    ("See [1, 3], [^2], [4-6] and 【7】.", []),
    ("Acme was founded in 1999 [1", ["1999"]),  # a stretch's edge trims the "]"
    ("The fee [10 EUR] applies.", ["10"]),
    ("Room [12C] costs 40 EUR", ["40"]),  # a code in brackets is a code
    ("1️⃣ SK4705 costs 189 EUR 2️⃣ DY1872 costs 142 EUR", ["189", "142"]),
])
def test_a_reference_marker_names_a_source_and_is_no_number(text, shown):
    assert [n.shown for n in numbers(text)] == shown


@pytest.mark.parametrize(("words", "context"), [
    ("Acme was founded in '97.", "Acme was founded in 1997."),
    ("Acme was founded in ’97.", "Acme was founded in 1997."),
    ("Sales peaked in the '90s.", "Sales peaked in the 1990s."),
])
def test_a_year_cut_short_is_never_decided_by_code(words, context):
    assert exact.contradicted_number(words, [context]) is None
    assert [n.scaled for n in numbers(words)] == [True]


@pytest.mark.parametrize(("text", "shown", "scale"), [
    ("Revenue was $1.5 million.", "1.5 million", "million"),
    ("Der Umsatz lag bei 2,5 Mrd. Euro.", "2,5 Mrd.", "mrd"),
    ("Il a coûté 3 millions d'euros.", "3 millions", "millions"),
    ("人口は3万人です。", "3万", "万"),
    ("인구는 3만 명이다.", "3만", "만"),
    ("It has 2 billion users.", "2 billion", "billion"),
    ("매출은 5조 원이다.", "5조", "조"),
    ("売上は3兆円だった。", "3兆", "兆"),
    ("Dân số là 1,2 triệu người.", "1,2 triệu", "triệu"),
    ("The team has 5 members.", "5", ""),
])
def test_a_scale_word_is_read_with_its_number(text, shown, scale):
    found = numbers(text)
    assert [(n.shown, n.scale) for n in found] == [(shown, scale)]
    assert found[0].scaled is bool(scale)


@pytest.mark.parametrize(("words", "context", "asked"), [
    ("Revenue was 1.5 million euros.", "Revenue was 1.5 million euros.", []),
    ("Revenue was 1.5 million euros.", "Revenue was 1,500,000 euros.", ["1.5 million"]),  # the judge's question
    ("Revenue was 1.5 million euros.", "Revenue was 1.5 billion euros.", ["1.5 million"]),  # its digits are written
    ("Acme has 3 thousand staff.", "Acme has 3 million staff.", ["3 thousand"]),
    ("Der Umsatz lag bei 2,5 Mrd. Euro.", "Der Umsatz lag bei 2,5 Mio. Euro.", ["2,5 Mrd."]),
    ("It has 40k users.", "It has 40,000 users.", []),  # a suffix on the digits, as before: certain enough
    ("매출은 5조 원이다.", "매출은 5억 원이다.", ["5조"]),  # trillions beside hundreds of millions
    ("公司收入为3兆元。", "公司收入为3亿元。", ["3兆"]),
    ("Dân số là 1,2 tỷ người.", "Dân số là 1,2 triệu người.", ["1,2 tỷ"]),
    ("Revenue was 1.5 euros.", "Revenue was 1.5 million euros.", ["1.5"]),  # the scale left out
])
def test_a_number_with_a_scale_word_is_written_only_with_that_word(words, context, asked):
    assert unwritten(words, [context], at_starts=False) == asked


def test_the_same_scale_on_both_sides_compares_the_digits_exactly():
    """3,5 millones is not 5,3 millones: the scale is not certain, but it is the same."""
    assert exact.contradicted_number("La empresa factura 3,5 millones.", ["La empresa factura 5,3 millones."]) == (
        "3,5 millones", "5,3 millones")
    assert exact.contradicted_number("Revenue was 1.5 million.", ["Revenue was 1.5 billion."]) is None


@pytest.mark.parametrize(("words", "context", "asked"), [
    ("Python 3.1 is required.", "Python 3.10 is required.", ["3.1"]),  # a version: 3.1 is not 3.10
    ("Requires version 2.10 or later.", "Requires version 2.1 or later.", ["2.10"]),
    ("The tank holds 1,500 litres.", "The tank holds 1.5 litres.", ["1,500"]),  # 1500, or 1.500 in de
    ("Der Tank fasst 1.500 Liter.", "Der Tank fasst 1,5 Liter.", ["1.500"]),
    ("The ticket costs 3.50 EUR.", "The ticket costs 3.5 EUR.", ["3.50"]),  # the judge's question: yes
    ("The flight costs 142 EUR.", '{"price": 142.0, "currency": "EUR"}', []),  # 142.0 is 142
    ("The flight costs 142.00 EUR.", '{"price": 142, "currency": "EUR"}', []),
    ("The tank holds 1,5 litres.", "The tank holds 1.5 litres.", []),  # a decimal comma, the same places
    ("Acme has 1.500 staff.", "Acme has 1,500 staff.", []),  # grouping in either locale
    ("Der Preis ist 1.234,50 EUR.", "Der Preis ist 1234,50 EUR.", []),
])
def test_a_number_is_written_only_with_the_decimal_places_it_is_written_with(words, context, asked):
    """By value, 3.1 is 3.10; as written, it may be another version, or another locale's 1,500: a
    second answer decides, never code alone."""
    assert unwritten(words, [context], at_starts=False) == asked


@pytest.mark.parametrize(("words", "context", "asked"), [
    ("It is 40 miles away.", "It is 40 km away.", ["40 miles"]),
    ("It weighs 40 kilograms.", "It is 40 kilometres long.", ["40 kilograms"]),
    ("Le trajet dure 3 heures.", "Le trajet dure 3 jours.", ["3 heures"]),
    ("Поездка длится 3 часа.", "Поездка длится 3 дня.", ["3 часа"]),
    ("Bilet kosztuje 20 euro.", "Bilet kosztuje 20 zł.", ["20 euro"]),
    ("입장료는 5,000달러입니다.", "입장료는 5,000원입니다.", ["5,000달러입니다"]),  # written onto the number
    ("It is 40km away.", "It is 40 miles away.", ["40km"]),
    ("Acme employs 40 people.", "Acme has 40 employees.", ["40 people"]),  # the judge's question: yes
    # not asked: the same word, with an ending, or one the context writes, or no word beside its number
    ("It is 40 kms away.", "It is 40 km away.", []),
    ("Es dauert 3 min.", "Es dauert 3 minuten.", []),
    ("직원 120명의 회사", "직원 120명이 일하는 회사", []),  # a particle written onto the counter
    ("The hotel has 40 rooms.", "We have 40 rooms.", []),
    ("It takes 3 days.", "It takes 3 hours; a 3-day pass costs 5 days of wages.", []),
    ("The flight costs 142 euros.", '{"price": 142, "currency": "EUR"}', []),  # no word after it there
    ("It is 40 m long.", "It is 40 m long.", []),
    ("Inquiries began into the 1970s and 80s.", "A ring in the 1970s and 80s. An aide in his 80s.", []),  # one letter
])
def test_a_number_is_asked_about_with_a_unit_word_the_context_never_writes_beside_it(words, context, asked):
    """A number whose value is written, moved to another unit ("40 miles" beside "40 km"): one wrong
    verdict would pass it, so the judge is asked too. Whether the word is a unit is its question."""
    assert unwritten(words, [context], at_starts=False) == asked


@pytest.mark.parametrize(("words", "context", "asked"), [
    ("The hotel is 200 metres from the station.", "The hotel is 200 metres from the beach.", ["station"]),
    ("Wi-Fi is free in the rooms.", "Wi-Fi is free in the lobby.", ["rooms"]),
    ("The museum is open until 18:00 on weekends.", "The museum is open until 18:00 on weekdays.", ["weekends"]),
    ("Revenue halved in 2024.", "Revenue doubled in 2024.", ["halved"]),
    ("Müze pazartesi günleri açıktır.", "Müze pazartesi günleri kapalıdır.", ["açıktır"]),
    ("Pass --quiet to see every request.", "Pass --verbose to see every request.", ["quiet"]),
    # a word the context writes elsewhere, a part of a clause, two words changed, a negation, small words
    ("The hotel is 200 metres from the station.", "The hotel is 200 metres from the beach. The station is near.", []),
    ("Each employee has a yearly training budget of 1,500 euros.", "Each employee has a personal training budget "
     "of 1,500 euros per year.", []),
    ("The hotel is 200 metres from the old station.", "The hotel is 200 metres from the sandy beach.", []),
    ("The hotel is not far from the station.", "The hotel is not far from the beach.", []),
    ("The room has a view.", "The room has a bath.", []),
])
def test_one_word_the_context_writes_nowhere_in_the_place_of_its_own_is_asked(words, context, asked):
    """"The hotel is 200 metres from the station" beside "… from the beach" writes every name and
    number the context does: one wrong verdict passed it. The word is asked about, told the
    context's; never where the context writes it, nor where more than the one word differs."""
    assert exact.values_in_other_roles(words, [context]) == asked


@pytest.mark.parametrize(("words", "context", "asked"), [
    ("The room costs 150 EUR per week.", "The room costs 150 EUR per night.", ["week"]),
    ("Das Zimmer kostet 150 EUR pro Woche.", "Das Zimmer kostet 150 EUR pro Nacht.", ["woche"]),
    ("La chambre coûte 150 EUR par semaine.", "La chambre coûte 150 EUR par nuit.", ["semaine"]),
    ("The tour costs 40 EUR per person.", "The tour costs 40 EUR.", ["person"]),
    ("The car costs $40/day.", "The car costs $40 per week.", ["day"]),
    ("The API allows 600 requests per hour.", "The API allows 600 requests per minute.", ["hour"]),
    # the same period in other words the context writes, or no number before it
    ("The room costs 150 EUR a night.", "The room costs 150 EUR per night.", []),
    ("Guests get a room with a view.", "Guests get a suite with a view.", []),
    ("It costs 40 EUR a month.", "It costs 40 EUR every month.", []),
])
def test_what_an_amount_is_counted_per_is_asked_about_where_the_context_never_writes_it(words, context, asked):
    """"150 EUR per week" beside "150 EUR per night" writes every number: one wrong verdict would
    pass it. The period is asked about as a name is, where the context never writes it."""
    assert unwritten(words, [context], at_starts=False) == asked


@pytest.mark.parametrize(("text", "expected"), [
    ("SK4705 ✈️ leaves", ["sk4705", "leaves"]),  # U+FE0F alone: no token
    ("trip ❤️!", ["trip"]),
    ("sunny ☀︎ day", ["sunny", "day"]),  # U+FE0E
    ("एक्मे की स्थापना", ["एक्मे", "की", "स्थापना"]),  # marks inside a word stay in it
    ("café naïve", ["café", "naïve"]),
    ("Acme Cloud™ and Flex℠", ["acme", "cloud", "and", "flex"]),  # trade mark signs: no letters
])
def test_a_token_starts_with_a_letter_or_digit_and_a_sign_is_none(text, expected):
    assert tokens(text) == expected


@pytest.mark.parametrize(("text", "shown", "value"), [
    ("The fee is .5%.", ".5", "0.5"),
    ("Der Preis ist ,50 €.", ",50", "0.50"),
    ("He batted .310 in 2023.", ".310", "0.310"),
    ("It fell to -.5 °C.", "-.5", "-0.5"),
])
def test_a_number_may_start_with_its_decimal_mark(text, shown, value):
    """".5%" was no number and its "5" no token: nothing was asked of it beside a context's 5%."""
    assert (numbers(text)[0].shown, set(numbers(text)[0].forms)) == (shown, {value})


@pytest.mark.parametrize("text", ["Version 3.12", "See 1.5 and 2.", "Items 1,2,3", "Wait...5 minutes"])
def test_a_mark_between_digits_or_after_another_mark_starts_no_number(text):
    assert not any(n.shown.startswith((".", ",")) for n in numbers(text))


@pytest.mark.parametrize(("words", "context", "asked"), [
    ("Acme has four offices.", "Acme has 5 offices.", ["four"]),
    ("Die Führung kostet zwanzig Euro.", "Die Führung kostet 25 Euro.", ["zwanzig"]),
    ("Le musée ouvre à neuf heures.", "Le musée ouvre à 9 heures.", ["neuf"]),
    ("Acme has four offices.", "Acme has four offices.", []),
    ("The museum shuts at 17.", "The museum closes at 17.", []),  # a verb beside a number, not in its place
    ("Acme has many.", "Acme has 5.", []),  # one word around it: too little to place it
    ("Acme has four.", "Acme has 5.", ["four"]),  # though a count is asked wherever 4 is written in no form
])
def test_a_word_in_a_numbers_place_is_asked_about_whatever_its_case(words, context, asked):
    assert unwritten(words, [context]) == asked




@pytest.mark.parametrize(("words", "context", "asked"), [
    ("SK4705 costs 142 EUR.", FLIGHTS_JSON, ["142"]),
    ("DY1872 has 0 stops.", FLIGHTS_JSON, ["0"]),
    ("The SK4705 flight costs 142 EUR.", "SK4705 leaves at 07:10 and costs 189 EUR. DY1872 leaves at 13:45 and costs "
     "142 EUR.", ["142"]),
    ("Ingrid Dahl sits in seat 22A.", "Ingrid Dahl: seat 14C. Karin Berg: seat 22A.", ["22a"]),
    ("Рейс SK4705 стоит 142 евро.", "Рейс SK4705 стоит 189 евро. Рейс DY1872 стоит 142 евро.", ["142"]),
    ("SK4705 costs 189 EUR.", FLIGHTS_JSON, []),
    ("DY1872 has 1 stop.", FLIGHTS_JSON, []),
    ("The cheapest flight is DY1872 at 142 EUR.", FLIGHTS_JSON, []),
    ("Ingrid Dahl sits in seat 14C.", "Ingrid Dahl: seat 14C. Karin Berg: seat 22A.", []),
    ("Acme employs 40 people.", "Acme was founded in 1997. It employs 40 people.", []),  # a pronoun names it
    ("Revenue was 4 million euros in 2023.", "In 2022 revenue was 4 million euros. In 2023 revenue was 5 million "
     "euros.", ["4 million", "2023"]),
    ("The battery of model M3 is rated 9 units, and its screen is rated 10 units.",  # two facts, each with its own
     "The battery of model M3 is rated 9 units. The screen of model M3 is rated 10 units.", []),
    # a word that starts the words, or stands by an apostrophe, where the context writes it with a capital
    ("Ingrid sits in seat 22A.", "Ingrid Dahl: seat 14C. Karin Berg: seat 22A.", ["22a"]),
    ("Karin sits in seat 22A.", "Ingrid Dahl: seat 14C. Karin Berg: seat 22A.", []),
    ("Seat 22A is Ingrid’s.", "Ingrid Dahl: seat 14C. Karin Berg: seat 22A.", ["22a"]),
    ("Le siège d'Ingrid est le 22A.", "Ingrid Dahl : siège 14C. Karin Berg : siège 22A.", ["22a"]),
    ("Le siège de Karin est le 22A.", "Ingrid Dahl : siège 14C. Karin Berg : siège 22A.", []),
    # ... that never settles a value, as a name does: "The" is written with 142, SK4705 with 189
    ("The SK4705 flight costs 142 EUR.", "SK4705 costs 189 EUR. The DY1872 flight costs 142 EUR.", ["142"]),
    ("The DY1872 flight costs 142 EUR.", "SK4705 costs 189 EUR. The DY1872 flight costs 142 EUR.", []),
    # ... nor is a lower-case one ("basic" is written, never with a capital)
    ("Basic allows 20 users.", "The basic plan allows 5 users. The pro plan allows 20 users.", []),
])
def test_a_value_written_only_apart_from_the_words_names_is_asked_never_decided(words, context, asked):
    """Written in one record, while the record of the words' name writes another beside the same
    word: whether the context gives it for what the words say is the judge's second answer."""
    assert exact.values_in_other_roles(words, [context]) == asked
    assert exact.contradicted_number(words, [context]) is None


BOOKINGS_JSON = ('get_bookings() returned:\n{\n  "bookings": [\n    {\n      "ref": "QX7K2P",\n      "passenger": '
                 '"Ingrid Dahl",\n      "city": "Bergen"\n    },\n    {\n      "ref": "LM3N8R",\n      "passenger": '
                 '"Karin Berg",\n      "city": "Tromsø"\n    }\n  ]\n}')
FOUNDERS = "Acme was founded by John Smith in 1990. Beta was founded by Mary Jones in 1995."


@pytest.mark.parametrize(("words", "context", "asked"), [
    ("Ingrid Dahl is travelling to Tromsø.", BOOKINGS_JSON, ["dahl", "tromsø"]),
    ("Acme was founded by Mary Jones.", FOUNDERS, ["mary", "jones"]),
    ("Marie Curie est née à Paris.", "Marie Curie est née à Varsovie. Pierre Curie est né à Paris.", ["paris"]),
    ("Анна Иванова живёт в Казани.", "Анна Иванова живёт в Москве. Борис Петров живёт в Казани.",
     ["иванова", "казани"]),
    ("Karin Berg reser till Bergen.", "resenärer:\n  - namn: Ingrid Dahl\n    stad: Bergen\n    plats: 14C\n"
     "  - namn: Karin Berg\n    stad: Tromsø\n    plats: 22A", ["berg", "bergen"]),
    ("Ingrid Dahl woont in Tromsø.", "naam,stad,nachten\nIngrid Dahl,Bergen,3\nKarin Berg,Tromsø,2",
     ["dahl", "tromsø"]),
    # a code of the words is asked first, as a number is before a code
    ("Booking QX7K2P is in the name of Karin Berg.", BOOKINGS_JSON, ["qx7k2p"]),
    # a pronoun names the subject where the name is written: asked, and a correct judge says yes
    ("Smith later lived in Oslo.", "John Smith works in Bergen. He later lived in Oslo.", ["oslo"]),
    # given with its own name, or beside the other thing's name in the same words: nothing asked
    ("Ingrid Dahl is travelling to Bergen.", BOOKINGS_JSON, []),
    ("Ingrid Dahl goes to Bergen, Karin Berg to Tromsø.", BOOKINGS_JSON, []),
    ("Ingrid Dahl and Karin Berg are travelling to Bergen and Tromsø.", BOOKINGS_JSON, []),
    ("John Smith founded Acme, and Mary Jones founded Beta.", FOUNDERS, []),
    ("Acme was founded by John Smith.", FOUNDERS, []),
    ("Helios Analytics reimburses hotels in Europe.", "Helios Analytics pays for travel. Hotels are reimbursed in "
     "Europe and elsewhere.", []),  # the other name is the words' own
])
def test_a_name_written_only_apart_from_the_words_names_is_asked_never_decided(words, context, asked):
    """A value swapped between records with every word of it written: a name, as code sees one
    (a capital, not only a sentence's first), whose place in the context holds no name of the
    words, while a place with one writes another name beside the same word."""
    assert exact.values_in_other_roles(words, [context]) == asked
    assert exact.contradicted_number(words, [context]) is None


STATUS_JSON = json.dumps({"bookings": [{"ref": "QX7K2P", "passenger": "Ingrid Dahl", "status": "confirmed",
                                          "meal": "kosher"},
                                         {"ref": "LM3N8R", "passenger": "Karin Berg", "status": "cancelled",
                                          "meal": "vegetarian"}]}, indent=2)




@pytest.mark.parametrize(("words", "asked"), [
    ("SK4705 stops in CPH, unlike DY1872.", ["sk4705"]),
    ("SK4705, unlike DY1872, stops in CPH.", ["sk4705"]),  # CPH's clause names neither
    ("SK4705在CPH经停，与DY1872不同。", ["sk4705"]),
    ("SK4705 is a direct flight, while DY1872 stops in CPH.", []),  # CPH stands with DY1872
    ("Unlike SK4705, DY1872 stops in CPH.", []),
    ("SK4705是直飞航班，而DY1872在CPH经停。", []),
    # one clause: what finds the other record's place stands with the record named last before it
    ("SK4705 stops in CPH and DY1872 is direct.", ["sk4705"]),
    ("SK4705 stops in CPH but DY1872 does not.", ["sk4705"]),
    ("SK4705 hat einen Stopp in CPH und DY1872 fliegt direkt.", ["sk4705"]),
    ("SK4705 fait escale à CPH et DY1872 est direct.", ["sk4705"]),
    ("SK4705는 CPH를 경유하고 DY1872는 직항편입니다.", ["sk4705"]),
    ("SK4705はCPH経由でDY1872は直行便です。", ["sk4705"]),
    ("SK4705经停CPH而DY1872是直飞的。", ["sk4705"]),
    ("SK4705 is direct and DY1872 stops in CPH.", []),
    ("DY1872 stops in CPH but SK4705 does not.", []),
    ("SK4705 fliegt direkt und DY1872 hat einen Stopp in CPH.", []),
    ("SK4705 est direct et DY1872 fait escale à CPH.", []),
    ("SK4705는 직항편이고 DY1872는 CPH를 경유합니다.", []),
    ("SK4705は直行便でDY1872はCPH経由です。", []),
    ("SK4705是直飞的而DY1872经停CPH。", []),
    ("Only DY1872 stops in CPH, not SK4705.", []),
    # a number finds a record's place as a word does, glued to a particle too
    ("SK4705 costs 142 EUR and DY1872 is direct.", ["sk4705"]),
    ("SK4705 kostet 142 EUR und DY1872 ist direkt.", ["sk4705"]),
    ("SK4705는 142유로이고 DY1872는 직항편입니다.", ["sk4705"]),
    ("SK4705 is direct and DY1872 costs 142 EUR.", []),
    ("SK4705는 직항편이고 DY1872는 142유로입니다.", []),
    # named as one, both before it: the words may give it to both
    ("SK4705 and DY1872 both stop in CPH.", ["sk4705"]),
    ("Both SK4705 and DY1872 stop in CPH.", ["sk4705"]),
    ("SK4705 und DY1872 halten beide in CPH.", ["sk4705"]),
    ("SK4705和DY1872都在CPH经停。", ["sk4705"]),
    ("SK4705와 DY1872 모두 CPH를 경유합니다.", ["sk4705"]),
    ("Of SK4705 and DY1872 only DY1872 stops in CPH.", []),
    ("SK4705 is direct while DY1872 stops in CPH.", []),
])
def test_a_sentence_naming_both_records_asks_where_a_clause_without_the_other_finds_it(words, asked):
    """What finds the other record's place ("CPH") in a clause that does not name it, or after the
    words' own record in one that does, may give the value to the words' own record: asked. Beside
    the other's name, it is the other's."""
    assert exact.values_in_other_roles(words, [FLIGHTS_VIA]) == asked


@pytest.mark.parametrize(("words", "context", "asked"), [
    ("Booking QX7K2P has been cancelled.", STATUS_JSON, ["cancelled"]),
    ("Ingrid Dahl's booking has been cancelled.", STATUS_JSON, ["cancelled"]),
    ("Ingrid Dahl asked for a vegetarian meal.", STATUS_JSON, ["vegetarian"]),
    ("Die Buchung QX7K2P ist storniert.", '[{"buchung": "QX7K2P", "status": "bestätigt"}, '
     '{"buchung": "LM3N8R", "status": "storniert"}]', ["storniert"]),
    ("La reserva QX7K2P está cancelada.", "reserva,estado,noches\nQX7K2P,confirmada,3\nLM3N8R,cancelada,2",
     ["cancelada"]),
    ("QX7K2P is cancelled and LM3N8R is confirmed.", STATUS_JSON, ["cancelled", "confirmed"]),  # out of turn
    # given with its own thing, or in its own clause beside the other's
    ("Booking QX7K2P is confirmed.", STATUS_JSON, []),
    ("Karin Berg asked for a vegetarian meal.", STATUS_JSON, []),
    ("QX7K2P is confirmed and LM3N8R is cancelled.", STATUS_JSON, []),
    ("Ingrid Dahl booked a kosher meal, Karin Berg a vegetarian one.", STATUS_JSON, []),
    ("La reserva QX7K2P está confirmada.", "reserva,estado,noches\nQX7K2P,confirmada,3\nLM3N8R,cancelada,2", []),
    # a word in small letters that one sentence of prose alone writes, beside the words another
    # sentence or clause writes with the words' name: compared as a field's value is
    ("Ingrid Dahl asked for a kosher meal.", "Ingrid Dahl: vegetarian meal. Karin Berg: kosher meal.", ["kosher"]),
    ("Anna Berg leads marketing.", "Anna Berg leads sales. Lars Holm leads marketing.", ["marketing"]),
    ("Anna Berg leads marketing.", "Anna Berg leads sales, Lars Holm leads marketing.", ["marketing"]),
    ("Acme makes scooters.", "Acme makes bicycles. Beta makes scooters.", ["scooters"]),
    ("Oslo is mild in winter.", "Oslo is cold in winter. Barcelona is mild in winter.", ["mild"]),
    ("SK4705 is a connecting flight.", "SK4705 is a direct flight. DY1872 is a connecting flight.", ["connecting"]),
    ("Pedro trabaja como enfermera.", "Pedro trabaja como profesor. Ana trabaja como enfermera.", ["enfermera"]),
    ("Jan werkt als verpleger.", "Jan werkt als leraar. Piet werkt als verpleger.", ["verpleger"]),
    ("Анна работает учителем.", "Анна работает врачом. Иван работает учителем.", ["учителем"]),
    ("Le client Dupont a choisi la livraison express.", "Le client Dupont a choisi la livraison standard. Le "
     "client Martin a choisi la livraison express.", ["express"]),
    # given with its own thing; a word several sentences write; a pronoun where the name is: no
    # value, the verdict's alone
    ("Lars Holm leads marketing.", "Anna Berg leads sales. Lars Holm leads marketing.", []),
    ("Ana trabaja como enfermera.", "Pedro trabaja como profesor. Ana trabaja como enfermera.", []),
    ("Acme makes scooters.", "Acme makes bicycles and scooters. Beta makes cars. Beta sells scooters.", []),
    ("Acme makes bicycles.", "Acme was founded in 1997. It makes bicycles. Beta makes scooters.", []),
])
def test_a_records_word_given_to_another_record_is_asked_never_decided(words, context, asked):
    """A field's value in small letters ("cancelled", "vegetarian") is compared across records as
    a name is: no capital shows it, but a record says what it is."""
    assert exact.values_in_other_roles(words, [context]) == asked
    assert exact.contradicted_number(words, [context]) is None


PASSENGERS_SEATS = "Ingrid Dahl: seat 14C. Karin Berg: seat 22A."
WIFI_JA = json.dumps([{"flight": "SK4705", "wifi": "あり"}, {"flight": "DY1872", "wifi": "なし"}], ensure_ascii=False)


@pytest.mark.parametrize(("words", "context", "asked"), [
    ("Ingrid Dahl goes to Tromsø and Karin Berg to Bergen.", BOOKINGS_JSON, ["bergen", "tromsø"]),
    ("Ingrid Dahl und Karin Berg fahren nach Tromsø und Bergen.", BOOKINGS_JSON, ["bergen", "tromsø"]),
    ("Ingrid Dahl part pour Tromsø et Karin Berg pour Bergen.", BOOKINGS_JSON, ["bergen", "tromsø"]),
    ("Unlike Karin Berg, who goes to Bergen, Ingrid Dahl goes to Tromsø.", BOOKINGS_JSON, ["tromsø", "bergen"]),
    ("Ingrid Dahl는 Tromsø로, Karin Berg는 Bergen으로 갑니다.", BOOKINGS_JSON, ["bergen", "tromsø"]),
    ("田中太郎さんは東京、佐藤花子さんは大阪です。", PASSENGERS_JA, ["大阪", "東京"]),
    ("田中太郎さんと佐藤花子さんはそれぞれ東京と大阪に住んでいます。", PASSENGERS_JA, ["大阪", "東京"]),
    ("Ingrid Dahl's booking is cancelled and Karin Berg's is confirmed.", STATUS_JSON, ["cancelled", "confirmed"]),
    # each record's values in the same turn, whatever the words' order
    ("Ingrid Dahl goes to Bergen and Karin Berg to Tromsø.", BOOKINGS_JSON, []),
    ("Ingrid Dahl und Karin Berg fahren nach Bergen und Tromsø.", BOOKINGS_JSON, []),
    ("Unlike Karin Berg, who goes to Tromsø, Ingrid Dahl goes to Bergen.", BOOKINGS_JSON, []),
    ("Bergen is Ingrid Dahl's destination, Tromsø Karin Berg's.", BOOKINGS_JSON, []),
    ("Ingrid Dahl는 Bergen으로, Karin Berg는 Tromsø로 갑니다.", BOOKINGS_JSON, []),
    ("田中太郎さんは大阪、佐藤花子さんは東京です。", PASSENGERS_JA, []),
    ("田中太郎さんと佐藤花子さんはそれぞれ大阪と東京に住んでいます。", PASSENGERS_JA, []),
    ("Ingrid Dahl's booking is confirmed and Karin Berg's is cancelled.", STATUS_JSON, []),
    # two named as one before a name only one of them is given: a name of two words each
    ("Ingrid Dahl and Karin Berg both go to Tromsø.", BOOKINGS_JSON, ["dahl"]),
    ("Ingrid Dahl und Karin Berg fahren beide nach Tromsø.", BOOKINGS_JSON, ["dahl"]),
    ("Of Ingrid Dahl and Karin Berg only Karin Berg goes to Tromsø.", BOOKINGS_JSON, []),
])
def test_two_records_values_given_in_another_order_are_asked_never_decided(words, context, asked):
    """Names or words of two fields, each record's in another order: no kind says which is whose
    (a city and a passenger are both names), but each record's field does."""
    assert exact.values_in_other_roles(words, [context]) == asked


@pytest.mark.parametrize(("words", "context", "asked"), [
    ("Acme and Beta both employ 55 people.", "Acme employs 40 people. Beta employs 55 people.", ["55"]),
    ("Both Acme and Beta employ 55 people.", "Acme employs 40 people. Beta employs 55 people.", ["55"]),
    ("SK4705 and DY1872 both cost 142 EUR.", FLIGHTS_JSON, ["142"]),
    ("Ingrid Dahl and Karin Berg both sit in 22A.", "Ingrid Dahl sits in 14C. Karin Berg sits in 22A.", ["22a"]),
    ("Acme und Beta beschäftigen beide 55 Personen.", "Acme beschäftigt 40 Personen. Beta beschäftigt 55 Personen.",
     ["55"]),
    ("Acme et Beta emploient toutes deux 55 personnes.", "Acme emploie 40 personnes. Beta emploie 55 personnes.",
     ["55"]),
    ("Acme y Beta tienen 55 empleados cada una.", "Acme tiene 40 empleados. Beta tiene 55 empleados.", ["55"]),
    ("Anna Berg and Lars Holm both joined in 2021.", "Anna Berg joined in 2019. Lars Holm joined in 2021.", ["2021"]),
    # each given the value, one named apart again, or values in turn: nothing more asked
    ("Acme and Beta both employ 55 people.", "Acme employs 55 people. Beta employs 55 people.", []),
    ("Anna Berg and Lars Holm both joined in 2021.", "Anna Berg and Lars Holm joined in 2021.", []),
    ("Of Ingrid Dahl and Karin Berg, only Karin Berg sits in 22A.", "Ingrid Dahl sits in 14C. Karin Berg sits in "
     "22A.", []),
    ("SK4705 and DY1872 cost 189 and 142 EUR.", FLIGHTS_JSON, []),
])
def test_a_value_given_to_things_named_as_one_is_asked_where_one_of_them_has_another(words, context, asked):
    """"Acme and Beta both employ 55 people": the context writes 55 with Beta, which settled it
    before, but Acme is named as one with Beta, and its own sentence gives it 40."""
    assert exact.values_in_other_roles(words, [context]) == asked


@pytest.mark.parametrize(("words", "context", "asked"), [
    ("The flight goes from Barcelona to Oslo.", "The flight goes from Oslo to Barcelona.", ["barcelona", "oslo"]),
    ("Flight SK4705 flies from BCN to OSL.", "Flight SK4705 flies from OSL to BCN.", ["bcn", "osl"]),
    ("Beta acquired Acme in 2019.", "Acme acquired Beta in 2019.", ["beta", "acme"]),
    ("Molde beat Rosenborg 2-1.", "Rosenborg beat Molde 2-1.", ["molde", "rosenborg"]),
    ("Der Zug fährt von München nach Berlin.", "Der Zug fährt von Berlin nach München.", ["münchen", "berlin"]),
    ("Le vol part de Nice pour Paris.", "Le vol part de Paris pour Nice.", ["nice", "paris"]),
    ("El tren va de Sevilla a Madrid.", "El tren va de Madrid a Sevilla.", ["sevilla", "madrid"]),
    ("Lars Holm reports to Anna Berg.", "Anna Berg reports to Lars Holm.", ["lars holm", "anna berg"]),
    ("The Bergen office moved to Oslo in 2020.", "The Oslo office moved to Bergen in 2020.", ["bergen", "oslo"]),
    ("Ingrid Dahl booked the trip for Karin Berg.", "Karin Berg booked the trip for Ingrid Dahl.",
     ["ingrid dahl", "karin berg"]),
    # the same order, the same fact the other way round, or two things named as one: nothing asked
    ("The flight goes from Oslo to Barcelona.", "The flight goes from Oslo to Barcelona.", []),
    ("The flight to Barcelona leaves from Oslo.", "The flight goes from Oslo to Barcelona.", []),
    ("Beta was acquired by Acme in 2019.", "Acme acquired Beta in 2019.", []),
    ("Molde lost to Rosenborg 2-1.", "Rosenborg beat Molde 2-1.", []),
    ("Karin Berg and Ingrid Dahl fly to Oslo.", "Ingrid Dahl and Karin Berg fly to Oslo.", []),
    ("Beta und Acme fusionierten 2019.", "Acme und Beta fusionierten 2019.", []),
    ("The team visited Bergen, Oslo and Tromsø.", "The team visited Oslo, Bergen and Tromsø.", []),
])
def test_two_names_in_each_others_places_are_asked_never_decided(words, context, asked):
    """Every name of "The flight goes from Barcelona to Oslo" is written, but the context's sentence
    gives each the other's place: the judge is asked about both."""
    assert exact.values_in_other_roles(words, [context]) == asked


@pytest.mark.parametrize(("words", "context", "asked"), [
    # a record's value in a script without spaces, inside a run of it: found as a name is
    ("田中太郎さんは東京に住んでいます。", PASSENGERS_JA, ["田中太郎", "東京"]),
    ("田中太郎さんの座席は22Aです。", PASSENGERS_JA, ["22a"]),
    ("王伟的订单已取消。", ORDERS_ZH, ["王伟", "已取消"]),
    ("王伟住在北京。", ORDERS_ZH, ["王伟", "北京"]),
    ("สมชายอาศัยอยู่ที่ภูเก็ต", GUESTS_TH, ["สมชาย", "ภูเก็ต"]),
    # each with its own
    ("田中太郎さんは大阪に住んでいます。", PASSENGERS_JA, []),
    ("田中太郎さんの座席は14Cです。", PASSENGERS_JA, []),
    ("王伟的订单已发货。", ORDERS_ZH, []),
    ("李娜的订单已取消，王伟的订单已发货。", ORDERS_ZH, []),
    ("สมชายอาศัยอยู่ที่เชียงใหม่", GUESTS_TH, []),
    # kana alone is a word of any sentence ("あり" of "ありません"), never a value found inside a run
    ("DY1872にはWi-Fiがありません。", WIFI_JA, []),
])
def test_a_records_value_in_a_script_without_spaces_is_found_inside_a_run(words, context, asked):
    """Japanese, Chinese and Thai write a name and the words around it as one run: a record's value
    ("田中太郎", "東京") is found inside it, so a value given to another record is asked about."""
    assert exact.values_in_other_roles(words, [context]) == asked

BOOKINGS_PROSE = "Ingrid Dahl은 Bergen에 삽니다. Karin Berg는 Tromsø에 삽니다."


@pytest.mark.parametrize(("words", "context", "asked"), [
    # a Korean particle, a Turkish suffix after an apostrophe, a Tamil or Malayalam case ending glued
    # to a code or a name: the code or name all the same
    ("SK4705는 CPH를 경유합니다.", FLIGHTS_VIA, ["sk4705"]),
    ("SK4705'in CPH'de aktarması var.", FLIGHTS_VIA, ["sk4705"]),
    ("SK4705 விமானம் CPHஇல் நிற்கிறது.", FLIGHTS_VIA, ["sk4705"]),
    ("SK4705 CPHൽ നിർത്തുന്നു.", FLIGHTS_VIA, ["sk4705"]),
    ("SK4705는 142유로입니다.", FLIGHTS_JSON, ["142"]),
    ("Ingrid는 22A 좌석에 앉습니다.", PASSENGERS_SEATS, ["22a"]),
    ("QX7K2P 예약은 cancelled입니다.", STATUS_JSON, ["cancelled"]),
    ("SK4705는 142유로, DY1872는 189유로입니다.", FLIGHTS_JSON, ["142", "189"]),
    ("Ingrid Dahl은 Tromsø에 삽니다.", BOOKINGS_PROSE, ["tromsø"]),  # the context's names glued too
    # a name run on into a place ("Ingrid Dahl Tromsø'ya"): the context's names say where one ends
    ("Ingrid Dahl Tromsø'ya gidiyor.", BOOKINGS_PROSE, ["tromsø"]),
    # each with its own thing
    ("DY1872는 CPH를 경유합니다.", FLIGHTS_VIA, []),
    ("DY1872'nin CPH'de aktarması var.", FLIGHTS_VIA, []),
    ("DY1872 விமானம் CPHஇல் நிற்கிறது.", FLIGHTS_VIA, []),
    ("DY1872는 142유로입니다.", FLIGHTS_JSON, []),
    ("Ingrid는 14C 좌석에 앉습니다.", PASSENGERS_SEATS, []),
    ("QX7K2P 예약은 confirmed입니다.", STATUS_JSON, []),
    ("SK4705는 189유로, DY1872는 142유로입니다.", FLIGHTS_JSON, []),
    ("Karin Berg는 Tromsø에 삽니다.", BOOKINGS_PROSE, []),
    ("Ingrid Dahl Bergen'e gidiyor.", BOOKINGS_PROSE, []),
])
def test_a_name_or_code_with_an_ending_glued_on_is_compared_as_itself(words, context, asked):
    """Agglutinative languages glue a case ending to a foreign code or name ("SK4705는", "CPH'de",
    "CPHஇல்"): the code is the same code, in the answer and in the context."""
    assert exact.values_in_other_roles(words, [context]) == asked


@pytest.mark.parametrize(("words", "context", "asked"), [
    ("DY1872는 CPH를 경유합니다.", FLIGHTS_VIA, ["경유합니다"]),
    ("Ingrid는 14C 좌석에 앉습니다.", PASSENGERS_SEATS, ["좌석에", "앉습니다"]),
    ("DY1872'nin CPH'de aktarması var.", FLIGHTS_VIA, []),
    # another code or name with the same ending is still asked about, as written
    ("SK4706는 CPH를 경유합니다.", FLIGHTS_VIA, ["sk4706는", "경유합니다"]),
    ("SK4705'in BGO'da aktarması var.", FLIGHTS_VIA, ["bgo'da"]),
    ("Ingmar는 14C 좌석에 앉습니다.", PASSENGERS_SEATS, ["ingmar는", "좌석에", "앉습니다"]),
    # an apostrophe that joins two words of a name is no ending: "O'Dahl" is no "Dahl"
    ("O'Dahl은 14C 좌석에 앉습니다.", PASSENGERS_SEATS, ["o'dahl은", "좌석에", "앉습니다"]),
])
def test_a_code_or_name_with_an_ending_glued_on_is_written_where_it_is(words, context, asked):
    assert unwritten(words, [context]) == asked



@pytest.mark.parametrize(("words", "context", "asked"), [
    ("SK4705 costs 142 EUR and DY1872 costs 189 EUR.", FLIGHTS_JSON, ["142", "189"]),
    ("142 EUR for SK4705 and 189 EUR for DY1872.", FLIGHTS_JSON, ["142", "189"]),
    ("SK4705 and DY1872 cost 142 and 189 EUR.", FLIGHTS_JSON, ["142", "189"]),
    ("SK4705 kostet 142 EUR, DY1872 dagegen 189 EUR.", FLIGHTS_JSON, ["142", "189"]),
    ("SK4705は142ユーロ、DY1872は189ユーロです。", FLIGHTS_JSON, ["142", "189"]),
    ("SK4705 has 1 stop and DY1872 has 0 stops.", FLIGHTS_JSON, ["1", "0"]),
    ("Ingrid Dahl has seat 22A and Karin Berg has seat 14C.", PASSENGERS_SEATS, ["22a", "14c"]),
    ("Karin Berg sits in 14C, Ingrid Dahl in 22A.", PASSENGERS_SEATS, ["14c", "22a"]),
    # each value in turn with its own thing, in any order the words take
    ("SK4705 costs 189 EUR and DY1872 costs 142 EUR.", FLIGHTS_JSON, []),
    ("189 EUR for SK4705 and 142 EUR for DY1872.", FLIGHTS_JSON, []),
    ("DY1872 and SK4705 cost 142 and 189 EUR.", FLIGHTS_JSON, []),
    ("At 189 EUR, SK4705 costs more than DY1872 at 142 EUR.", FLIGHTS_JSON, []),
    ("Unlike DY1872, SK4705 is direct and costs 189 EUR; DY1872 costs 142 EUR.", FLIGHTS_JSON, []),
    ("SK4705は189ユーロ、DY1872は142ユーロです。", FLIGHTS_JSON, []),
    ("Seats 14C and 22A are Ingrid Dahl's and Karin Berg's.", PASSENGERS_SEATS, []),
    ("Karin Berg sits in 22A, Ingrid Dahl in 14C.", PASSENGERS_SEATS, []),
])
def test_values_given_out_of_turn_in_one_stretch_are_asked_never_decided(words, context, asked):
    """Two things' values swapped inside one claim: each value is written with a name of the words,
    so neither is given apart, but the names they are written with come in another order."""
    assert exact.values_in_other_roles(words, [context]) == asked
    assert exact.contradicted_number(words, [context]) is None


@pytest.mark.parametrize(("words", "context", "instead"), [
    ("SK4705 costs 142 EUR.", FLIGHTS_JSON, ["189"]),
    ("Ingrid Dahl is travelling to Tromsø.", BOOKINGS_JSON, ["berg", "bergen"]),  # each value apart from the other
    ("Ingrid Dahl sits in seat 22A.", PASSENGERS_SEATS, ["14c"]),
    ("SK4705 costs 142 EUR and DY1872 costs 189 EUR.", FLIGHTS_JSON, []),  # both written: nothing instead
    ("Acme employs 400 people in Oslo.", "Acme employs 40 people in Oslo and 400 in Bergen.", []),  # another role
    ("SK4705 costs 189 EUR.", FLIGHTS_JSON, []),
])
def test_what_the_context_gives_instead_is_said_only_for_a_value_given_apart(words, context, instead):
    assert exact.values_given_instead(words, [context]) == instead


VENUE = "The venue holds more than 450 people."


@pytest.mark.parametrize(("words", "context", "asked"), [
    # a bound the context's makes true, the same words around both: written
    ("The venue holds more than 400 people.", VENUE, []),
    ("In 2022 the venue held more than 400 people.", "In 2022 the venue held more than 450 people.", []),
    ("The trip takes 50 minutes at most.", "The trip takes 45 minutes at most.", []),
    ("The trip takes less than 50 minutes.", "The trip takes less than 45 minutes.", []),
    ("Die Fahrt dauert höchstens 50 Minuten.", "Die Fahrt dauert höchstens 45 Minuten.", []),
    ("Le trajet dure au moins 40 minutes.", "Le trajet dure au moins 45 minutes.", []),
    ("会社には400人以上の従業員がいます。", "会社には450人以上の従業員がいます。", []),
    ("회사에는 400명 이상의 직원이 있습니다.", "회사에는 450명 이상의 직원이 있습니다.", []),
    ("Şirketin 400'den fazla çalışanı var.", "Şirketin 450'den fazla çalışanı var.", []),
    ("Tickets cost less than $50.", "Tickets cost less than $45.", []),
    ("Tickets cost more than €50.", "Tickets cost more than €45.", ["50"]),
    ("Ít hơn 40 người đến.", "Ít hơn 45 người đến.", ["40"]),  # "hơn" alone is more: two ways, none read
    # one it does not: stronger, another thing's, another year's, a negation, an estimate, a place that
    # says otherwise, or words whose bound is open ("up to", "over", "from")
    ("The venue holds more than 600 people.", VENUE, ["600"]),
    ("Die Fahrt dauert höchstens 30 Minuten.", "Die Fahrt dauert höchstens 45 Minuten.", ["30"]),
    ("The hall holds more than 400 people.", VENUE, ["400"]),
    ("In 2023 the venue held more than 400 people.", "In 2022 the venue held more than 450 people.", ["2023", "400"]),
    ("The venue does not hold more than 400 people.", "The venue does not hold more than 450 people.", ["400"]),
    ("The venue holds more than 400 people.", "It is not true that the venue holds more than 450 people.", ["400"]),
    ("The venue holds more than 400 people.", VENUE + " The venue holds more than 300 people.", ["400"]),
    ("The venue holds more than 400 people.", "The venue holds 450 people.", ["400"]),
    ("The company has about 500 employees.", "The company has about 480 employees.", ["500"]),
    ("The battery lasts up to 14 hours.", "The battery lasts up to 12 hours.", ["14"]),
    ("The festival runs over 3 days.", "The festival runs over 5 days.", ["3"]),
    ("Prices start from 40 EUR.", "Prices start from 45 EUR.", ["40"]),
])
def test_a_bound_is_written_where_the_contexts_bound_makes_it_true(words, context, asked):
    assert exact.numbers_not_written(words, [context]) == asked


CASELESS = "田中さんは東京に住んでいます。佐藤さんは大阪に住んでいます。"


@pytest.mark.parametrize(("words", "context", "asked", "instead"), [
    # in a script without case: what a context sentence gives, between the same characters, in
    # the place of what it gives another thing (ja, zh, ko, th, ar, he, hi)
    ("田中さんは大阪に住んでいます。", CASELESS, ["大阪"], ["東京"]),
    ("王伟住在北京。", "王伟住在上海。李娜住在北京。", ["北京"], ["上海"]),
    ("王经理负责市场。", "王经理负责销售。李经理负责市场。", ["市场"], ["销售"]),
    ("김민수는 부산에 산다.", "김민수는 서울에 산다. 이영희는 부산에 산다.", ["부산에"], ["서울에"]),
    ("สมชายอยู่ภูเก็ต", "สมชายอยู่เชียงใหม่ สมหญิงอยู่ภูเก็ต", ["ภูเก็ต", "ชาย"], ["เชียงใหม่", "หญิง"]),  # both ways
    ("محمد يعيش في دبي.", "محمد يعيش في القاهرة. علي يعيش في دبي.", ["دبي"], ["القاهرة"]),
    ("דני גר בחיפה.", "דני גר בתל אביב. רותי גרה בחיפה.", ["בחיפה"], ["בתל אביב"]),
    ("राम मुंबई में रहता है।", "राम दिल्ली में रहता है। श्याम मुंबई में रहता है।", ["मुंबई"], ["दिल्ली"]),
    # its own sentence, fewer or other words, or words the context writes nowhere: nothing
    ("佐藤さんは大阪に住んでいます。", CASELESS, [], []),
    ("田中さんは医者です。", "田中さんは東京に住んでいます。彼は医者です。", [], []),
    ("王伟在上海生活。", "王伟住在上海。李娜住在北京。", [], []),
    ("会社は2019年に設立されました。", "会社は2019年4月に設立されました。本社は東京にあります。", [], []),
    ("이영희는 부산에서 산다.", "김민수는 서울에 산다. 이영희는 부산에 산다.", [], []),
    ("김민수는 서울에 살고 있다.", "김민수는 서울에 산다. 이영희는 부산에 산다.", [], []),
    ("สมหญิงอยู่ภูเก็ต", "สมชายอยู่เชียงใหม่ สมหญิงอยู่ภูเก็ต", [], []),
    ("田中さんは名古屋に住んでいます。", CASELESS, [], []),  # unwritten: the specifics question's
])
def test_a_value_given_another_thing_in_a_script_without_case_is_asked(words, context, asked, instead):
    """Code sees no names there, so "田中さんは大阪に住んでいます" beside the context above was the
    verdict's alone: one wrong answer passed it."""
    assert exact.values_in_other_roles(words, [context]) == asked
    assert exact.values_given_instead(words, [context]) == instead
    assert exact.contradicted_number(words, [context]) is None


@pytest.mark.parametrize(("text", "shown", "value"), [
    ("Le prix est de 1 890,50 €.", "1 890,50", "1890.50"),
    ("Prisen er 1\u00a0890,5 kr.", "1\u00a0890,5", "1890.5"),
    ("Population: 12\u202f345.678", "12\u202f345.678", "12345.678"),
])
def test_thousands_grouped_by_a_space_keep_their_decimals(text, shown, value):
    """"1 890,50" was 1890, its cents left out: beside "1 890,50 €", "1 890,70 €" was written and
    "1890,50 €" another price."""
    assert (numbers(text)[0].shown, set(numbers(text)[0].forms)) == (shown, {value})


@pytest.mark.parametrize(("text", "shown", "value"), [
    ("The population is 1e6.", "1e6", "1000000"),
    ("Es sind 2.5E+06 Zellen.", "2.5E+06", "2500000"),
    ("It takes 1.2e-3 s.", "1.2e-3", "0.0012"),
])
def test_scientific_notation_is_its_value_and_never_decides(text, shown, value):
    """"1e6" was 1 (its exponent dropped): beside the context's 1,000,000, another value decided by code."""
    (found,) = numbers(text)
    assert (found.shown, set(found.forms), found.scaled) == (shown, {value}, True)


PLANS_TICKED = "| Plan | SSO | API access |\n|---|---|---|\n| Basic | ❌ | ✅ |\n| Pro | ✅ | ✅ |"
FARES = json.dumps([{"flight": "SK4705", "direct": True, "refundable": False},
                    {"flight": "DY1872", "direct": False, "refundable": False}])


@pytest.mark.parametrize(("words", "context", "given"), [
    # the context's negation left out: a word, a prefix, a symbol of a script without spaces
    ("Breakfast is included in the rate.", "Breakfast is not included in the rate.",
     "Breakfast is not included in the rate"),
    ("The ticket is refundable.", "The ticket is non-refundable.", "The ticket is non-refundable"),
    ("Wi-Fi is available in the rooms.", "Wi-Fi is unavailable in the rooms.", "Wi-Fi is unavailable in the rooms"),
    ("The hotel has a pool.", "The hotel has no pool.", "The hotel has no pool"),
    ("The fare includes a checked bag.", "The fare does not include a checked bag.",
     "The fare does not include a checked bag"),
    ("You can change the date online.", "You cannot change the date online.", "You cannot change the date online"),
    ("Parking is included.", "Neither breakfast nor parking is included.",
     "Neither breakfast nor parking is included"),
    ("DY1872 is a direct flight.", "DY1872 is not a direct flight; it stops in CPH.", "DY1872 is not a direct flight"),
    ("Overtime is paid out in money.", "Overtime is paid in time off; it is not paid out in money.",
     "it is not paid out in money"),
    ("Das Frühstück ist im Preis inbegriffen.", "Das Frühstück ist nicht im Preis inbegriffen.",
     "Das Frühstück ist nicht im Preis inbegriffen"),
    ("Frühstück inklusive.", "Kein Frühstück inklusive.", "Kein Frühstück inklusive"),
    ("Le billet est remboursable.", "Le billet n'est pas remboursable.", "Le billet n'est pas remboursable"),
    ("Se admiten mascotas.", "No se admiten mascotas.", "No se admiten mascotas"),
    ("Snídaně je zahrnuta v ceně.", "Snídaně není zahrnuta v ceně.", "Snídaně není zahrnuta v ceně"),
    ("Bilet podlega zwrotowi.", "Bilet nie podlega zwrotowi.", "Bilet nie podlega zwrotowi"),
    ("Завтрак включён в стоимость.", "Завтрак не включён в стоимость.", "Завтрак не включён в стоимость"),
    ("Kahvaltı fiyata dahil.", "Kahvaltı fiyata dahil değil.", "Kahvaltı fiyata dahil değil"),
    ("Aamiainen sisältyy hintaan.", "Aamiainen ei sisälly hintaan.", "Aamiainen ei sisälly hintaan"),
    ("Το πρωινό περιλαμβάνεται.", "Το πρωινό δεν περιλαμβάνεται.", "Το πρωινό δεν περιλαμβάνεται"),
    ("ארוחת הבוקר כלולה במחיר.", "ארוחת הבוקר אינה כלולה במחיר.", "ארוחת הבוקר אינה כלולה במחיר"),
    ("الإفطار مشمول في السعر.", "الإفطار غير مشمول في السعر.", "الإفطار غير مشمول في السعر"),
    ("नाश्ता कीमत में शामिल है।", "नाश्ता कीमत में शामिल नहीं है।", "नाश्ता कीमत में शामिल नहीं है"),
    ("Bữa sáng bao gồm trong giá.", "Bữa sáng không bao gồm trong giá.", "Bữa sáng không bao gồm trong giá"),
    ("房价包括早餐。", "房价不包括早餐。", "房价不包括早餐"),
    ("ペットは同伴できます。", "ペットは同伴できません。", "ペットは同伴できません"),
    ("ห้องพักมีอาหารเช้า", "ห้องพักไม่มีอาหารเช้า", "ห้องพักไม่มีอาหารเช้า"),
    # a negation the context does not write
    ("The ticket is not refundable.", "The ticket is refundable.", "The ticket is refundable"),
    ("Le billet n'est pas remboursable.", "Le billet est remboursable.", "Le billet est remboursable"),
    ("Aamiainen ei sisälly hintaan.", "Aamiainen sisältyy hintaan.", "Aamiainen sisältyy hintaan"),
    ("The booking QX7K2P is unpaid.", "The booking QX7K2P is paid.", "The booking QX7K2P is paid"),
    # a record's field of yes or no, of the record the words name
    ("DY1872 is a direct flight.", FARES, "direct: false"),
    ("SK4705 is not a direct flight.", FARES, "direct: true"),
    ("DY1872 is refundable.", json.dumps({"flight": "DY1872", "refundable": False}), "refundable: false"),
    ("Breakfast is included.", "Breakfast: not included\nParking: free", "Breakfast: not included"),
    ("The Basic plan includes SSO.", PLANS_TICKED, "SSO: ❌"),
    ("The Pro plan does not have SSO.", PLANS_TICKED, "SSO: ✅"),
    # a word of the other sense where the rest is the same words
    ("The museum is open on Mondays.", "The museum is closed on Mondays.", "The museum is closed on Mondays"),
    ("The museum is not closed on Mondays.", "The museum is closed on Mondays.", "The museum is closed on Mondays"),
    ("Smoking is allowed in the rooms.", "Smoking is prohibited in the rooms.", "Smoking is prohibited in the rooms"),
    ("The booking QX7K2P is confirmed.", "The booking QX7K2P is cancelled.", "The booking QX7K2P is cancelled"),
    ("Revenue rose 5% in 2024.", "Revenue fell 5% in 2024.", "Revenue fell 5% in 2024"),
    ("Das Museum ist montags geöffnet.", "Das Museum ist montags geschlossen.", "Das Museum ist montags geschlossen"),
    ("Le musée est ouvert le mardi.", "Le musée est fermé le mardi.", "Le musée est fermé le mardi"),
    ("La tienda está abierta los domingos.", "La tienda está cerrada los domingos.",
     "La tienda está cerrada los domingos"),
    ("Il servizio è obbligatorio.", "Il servizio è facoltativo.", "Il servizio è facoltativo"),
    ("Wniosek został zaakceptowany.", "Wniosek został odrzucony.", "Wniosek został odrzucony"),
    ("Ваш рейс подтверждён.", "Ваш рейс отменён.", "Ваш рейс отменён"),
    # a negation the context leaves in an aside's other side
    ("Airport taxes are not refunded on request.", "Airport taxes (31 EUR on this route) are refunded on request.",
     "Airport taxes are refunded on request"),
    # with or without, in nine languages; the word after it in another case (Polish, Russian)
    ("The Standard room comes with breakfast.", "The Standard room comes without breakfast.",
     "The Standard room comes without breakfast"),
    ("Das Zimmer wird mit Frühstück angeboten.", "Das Zimmer wird ohne Frühstück angeboten.",
     "Das Zimmer wird ohne Frühstück angeboten"),
    ("La chambre est louée avec petit-déjeuner.", "La chambre est louée sans petit-déjeuner.",
     "La chambre est louée sans petit-déjeuner"),
    ("La habitación se alquila con desayuno.", "La habitación se alquila sin desayuno.",
     "La habitación se alquila sin desayuno"),
    ("O quarto é vendido com café da manhã.", "O quarto é vendido sem café da manhã.",
     "O quarto é vendido sem café da manhã"),
    ("Rummet hyrs ut med frukost.", "Rummet hyrs ut utan frukost.", "Rummet hyrs ut utan frukost"),
    ("Pokój jest wynajmowany ze śniadaniem.", "Pokój jest wynajmowany bez śniadania.",
     "Pokój jest wynajmowany bez śniadania"),
    ("Номер сдаётся с завтраком.", "Номер сдаётся без завтрака.", "Номер сдаётся без завтрака"),
    # states of the other sense: valid, enabled, passed, won, free, approved, on time, available
    ("Your passport is valid.", "Your passport is expired.", "Your passport is expired"),
    ("Der Gutschein ist gültig.", "Der Gutschein ist abgelaufen.", "Der Gutschein ist abgelaufen"),
    ("Two-factor login is enabled for this account.", "Two-factor login is disabled for this account.",
     "Two-factor login is disabled for this account"),
    ("Die Zwei-Faktor-Anmeldung ist aktiviert.", "Die Zwei-Faktor-Anmeldung ist deaktiviert.",
     "Die Zwei-Faktor-Anmeldung ist deaktiviert"),
    ("The nightly build passed on Tuesday.", "The nightly build failed on Tuesday.",
     "The nightly build failed on Tuesday"),
    ("Die Zahlung ist erfolgreich.", "Die Zahlung ist fehlgeschlagen.", "Die Zahlung ist fehlgeschlagen"),
    ("The Lions won the final in 2019.", "The Lions lost the final in 2019.", "The Lions lost the final in 2019"),
    ("Les Lions ont gagné la finale.", "Les Lions ont perdu la finale.", "Les Lions ont perdu la finale"),
    ("Parking at the hotel is free.", "Parking at the hotel is paid.", "Parking at the hotel is paid"),
    ("Le parking est gratuit.", "Le parking est payant.", "Le parking est payant"),
    ("Парковка бесплатная.", "Парковка платная.", "Парковка платная"),  # one shared word beside its other sense
    ("Ihr Antrag wurde genehmigt.", "Ihr Antrag wurde abgelehnt.", "Ihr Antrag wurde abgelehnt"),
    ("Flight SK4705 is on time.", "Flight SK4705 is delayed.", "Flight SK4705 is delayed"),
    ("Flight SK4705 departed late.", "Flight SK4705 departed on time.", "Flight SK4705 departed on time"),
    ("The booking server is online.", "The booking server is offline.", "The booking server is offline"),
    ("Flight SK4705 is an international flight.", "Flight SK4705 is a domestic flight.",
     "Flight SK4705 is a domestic flight"),
    ("The test result was positive.", "The test result was negative.", "The test result was negative"),
    # between two things both named: a comparison the other way, "more expensive" for "cheaper"
    ("Flight SK4705 is more expensive than flight DY1872.", "Flight SK4705 is cheaper than flight DY1872.",
     "Flight SK4705 is cheaper than flight DY1872"),
    ("Revenue in 2024 was higher than in 2023.", "Revenue in 2024 was lower than in 2023.",
     "Revenue in 2024 was lower than in 2023"),
    ("The train arrives after the ferry.", "The train arrives before the ferry.", "The train arrives before the ferry"),
    ("El tren llega antes del autobús.", "El tren llega después del autobús.", "El tren llega después del autobús"),
    # a word of the other sense beside another small one: "in" of "included in" beside "excluded from"
    ("Airport transfer is included in the package.", "Airport transfer is excluded from the package.",
     "Airport transfer is excluded from the package"),
    # a negation set off by commas, or past a contrasting word
    ("Frühstück ist inbegriffen.", "Frühstück ist, leider, nicht inbegriffen.",
     "Frühstück ist leider nicht inbegriffen"),
    ("The fare comes with checked baggage.", "The fare includes a seat, but the fare comes without checked baggage.",
     "the fare comes without checked baggage"),
    # a record's state of the other sense, or the state the words negate
    ("Booking QX7K2P is confirmed.", json.dumps({"booking": "QX7K2P", "status": "cancelled"}), "status: cancelled"),
    ("Flight SK4705 is not delayed.", json.dumps({"flight": "SK4705", "status": "delayed"}), "status: delayed"),
    ("Die Buchung ist bestätigt.", json.dumps({"buchung": "QX7K2P", "status": "storniert"}), "status: storniert"),
    ("The shop is open.", "Shop: Nord\nStatus: closed", "Status: closed"),
    ("Flight SK4705 is delayed.", json.dumps({"flight": "SK4705", "status": "on_time"}), "status: on_time"),
    # Korean: a negation that ends the clause, a Hangul syllable a stem, words of the other sense
    ("조식이 포함되어 있습니다.", "조식이 포함되어 있지 않습니다.", "조식이 포함되어 있지 않습니다"),
    ("조식이 포함되어 있지 않습니다.", "조식이 포함되어 있습니다.", "조식이 포함되어 있습니다"),
    ("주차는 무료입니다.", "주차는 유료입니다.", "주차는 유료입니다"),
    ("예약이 확정되었습니다.", "예약이 취소되었습니다.", "예약이 취소되었습니다"),
    # a part past "but" or "aber" with the subject only before it, after a comma too
    ("Das Deluxe-Zimmer ist erstattungsfähig.", "Das Deluxe-Zimmer ist groß, aber nicht erstattungsfähig.",
     "Das Deluxe-Zimmer ist groß aber nicht erstattungsfähig"),
    ("La habitación Deluxe es reembolsable.", "La habitación Deluxe es grande pero no es reembolsable.",
     "La habitación Deluxe es grande pero no es reembolsable"),
    ("Номер Делюкс подлежит возврату.", "Номер Делюкс большой, но не подлежит возврату.",
     "Номер Делюкс большой но не подлежит возврату"),
    ("Flight DY1872 serves meals.", "Flight DY1872 leaves from Oslo but does not serve meals.",
     "Flight DY1872 leaves from Oslo but does not serve meals"),
    # "no longer", "nicht mehr"; a negation in words of its own; a number given about so
    ("The shop sells paper tickets.", "The shop no longer sells paper tickets.",
     "The shop no longer sells paper tickets"),
    ("Das Museum ist geöffnet.", "Das Museum ist nicht mehr geöffnet.", "Das Museum ist nicht mehr geöffnet"),
    ("The hotel has a swimming pool.", "The hotel lacks a swimming pool.", "The hotel lacks a swimming pool"),
    ("The update fixed the login bug.", "The update failed to fix the login bug.",
     "The update failed to fix the login bug"),
    ("The company employs exactly 300 people.", "The company employs about 300 people.",
     "The company employs about 300 people"),
    ("Die Fahrt dauert genau 2 Stunden.", "Die Fahrt dauert etwa 2 Stunden.", "Die Fahrt dauert etwa 2 Stunden"),
    ("Breakfast is included.", "Breakfast is extra.", "Breakfast is extra"),
    ("The fare is free of charge.", "The fare is paid.", "The fare is paid"),
])
def test_words_the_context_writes_only_the_other_way_are_asked(words, context, given):
    """"Breakfast is included" beside "Breakfast is not included" writes every word the context does
    and says the other thing: one wrong verdict passed it. Asked, with the context's words."""
    negated = [value for value in exact.other_values(words, [context]) if value.negated]
    assert [value.other for value in negated] == [given]
    assert not negated[0].contradicted


@pytest.mark.parametrize(("words", "context"), [
    ("Breakfast is not included in the rate.", "Breakfast is not included in the rate."),
    ("Light fares are non-refundable.", "Light fares are non-refundable, but taxes are refunded."),
    ("Taxes are refunded.", "Light fares are non-refundable, but taxes are refunded."),
    ("Pets are allowed.", "Pets are allowed but not in the restaurant."),
    ("Parking is included.", "Breakfast is not included, but parking is included."),
    ("Changes are free.", "Changes are free, but cancellations are not."),
    ("It opens at 9 on other days.", "The museum is not open on Mondays; it opens at 9 on other days."),
    ("SK4705 is direct.", "SK4705 is direct. DY1872 is not direct."),
    ("Le vol AF5678 est direct.", "Le vol AF1234 n'est pas direct, le vol AF5678 est direct."),
    ("SK4705 is a direct flight.", FARES),
    ("DY1872 is not a direct flight.", FARES),
    ("DY1872 is not refundable.", FARES),
    ("The Pro plan includes SSO.", PLANS_TICKED),
    ("The Basic plan has API access.", PLANS_TICKED),
    ("SSO is included in every plan.", PLANS_TICKED),  # both ways: the verdict reads "every"
    # the other way in other words: an antonym is the judge's to read, never a negation left out
    ("Le musée n’ouvre pas le mardi.", "Le musée est fermé le mardi."),
    ("The museum is closed on Mondays.", "The museum is not open on Mondays."),
    ("The museum is not open on Mondays.", "The museum is closed on Mondays."),
    ("Smoking is not allowed.", "Smoking is prohibited."),
    ("The shop is open.", "The shop is open; the café is closed."),
    ("Revenue rose in 2024.", "Revenue rose in 2024 and costs fell."),
    # another subject
    ("Parking is free.", "Parking costs nothing. Wi-Fi is not free."),
    ("The gym is open daily.", "The gym is open daily; the pool is not open in winter."),
    # words of the other sense beside them, a converse, another part's negation, another noun
    ("The hotel is south of the river.", "The hotel is north of the station and south of the river."),
    ("DY1872 leaves after SK4705.", "Flight SK4705 leaves before DY1872."),
    ("DY1872 is dearer than SK4705.", "SK4705 is cheaper than DY1872."),
    ("After that they are removed permanently.", "Deleted files stay in the trash for 30 days before they are "
     "removed permanently."),
    ("The fare is changeable.", "The fare is non-refundable but changeable."),
    ("La habitación se alquila sin cena.", "La habitación se alquila con desayuno y sin cena."),
    ("Der Tarif ist ohne Parkplatz.", "Der Tarif ist mit Frühstück, aber ohne Parkplatz."),
    ("The room comes with a sea view.", "The room comes with a balcony and with a sea view."),
    ("Wi-Fi is paid in the rooms.", "Wi-Fi is free in the lobby and paid in the rooms."),
    ("Парковка платная в будни.", "Парковка бесплатная по выходным и платная в будни."),
    ("The company reported a profit in 2024.", "The company reported a loss in 2023 but a profit in 2024."),
    ("The train was on time on Tuesday.", "The train was late on Monday and on time on Tuesday."),
    ("Tickets for Saturday are available.", "Tickets for the Friday show are sold out; tickets for Saturday are "
     "available."),
    ("Tobacco and alcohol are also not allowed.", "Another area is tobacco and alcohol"),  # "allowed" written nowhere
    ("Das Gerät darf in die Spülmaschine, die Kartusche aber nicht.", "Das Gerät ist spülmaschinenfest, die "
     "Kartusche jedoch nicht."),  # "die Kartusche" of "die Kartusche jedoch nicht" is no clause of its own
    ("Aktie A fiel um 3 %.", "Aktie A stieg um 5 %; Aktie B fiel um 3 %."),  # another number: the number is asked
    # a hedge the words keep, or one they add; "can", and "May" the month, hedge nothing
    ("The flight may be delayed.", "The flight will probably be delayed."),
    ("The flight might be delayed.", "The flight is delayed."),
    ("Produk ini kemungkinan tersedia bulan depan.", "Produk ini mungkin tersedia bulan depan."),
    ("Guests check in from 15:00.", "Guests can check in from 15:00."),
    ("You can cancel up to 24 hours before departure.", "You may cancel up to 24 hours before departure."),
    ("Sie können bis 24 Stunden vorher stornieren.", "Sie dürften bis 24 Stunden vorher stornieren."),
    ("The museum opens in May.", "The museum opens in May."),
    ("Todd Watson is the head coach.", "Jackalopes hire Todd Watson as new Head Coach May 20, 2019."),
    ("Some rooms have a balcony.", "All rooms have a balcony."),
    ("Einige Zimmer haben einen Balkon.", "Alle Zimmer haben einen Balkon."),
    ("The hotel is closed.", "The hotel is closed for some time."),
    # a record's state the words give, a name or code they negate, a state another record has
    ("Booking QX7K2P is cancelled.", json.dumps({"booking": "QX7K2P", "status": "cancelled"})),
    ("Booking QX7K2P is not confirmed.", json.dumps({"booking": "QX7K2P", "status": "cancelled"})),
    ("The cheapest flight is not DY1872.", json.dumps({"flight": "DY1872", "status": "delayed"})),
    ("Ana Costa ficou no quarto Jardim.",
     "Hóspede: Ana Costa\nQuarto: Vista Mar\n\nHóspede: Rui Silva\nQuarto: Jardim"),
    ("Booking QX7K2P is confirmed.", json.dumps({"booking": "QX7K2P", "status": "confirmed", "refund": "cancelled"})),
    # a part of its own, a negation or condition the words keep, one that frames another part
    ("Das Deluxe-Zimmer ist groß.", "Das Deluxe-Zimmer ist groß, aber nicht erstattungsfähig."),
    ("Das Museum ist am Montag geöffnet.", "Das Museum ist am Montag geöffnet und am Dienstag geschlossen."),
    ("Paper tickets are no longer sold at the shop.", "The shop no longer sells paper tickets."),
    ("A 2% fee applies if you pay by card.", "If you pay by card, a 2% fee applies."),
    ("Express costs 9.90 euros.", "Express ships the next day if you order before 1 pm and costs 9.90 euros."),
    ("City are in fourth place.", "City are in fourth place and will be four points ahead if they beat Newcastle."),
    ("Critics claim the bridge is unsafe.", "Critics claim the bridge is unsafe."),
    # a number given about so, and one given without a word of how near
    ("The company employs roughly 300 people.", "The company employs about 300 people."),
    ("The company employs 300 people.", "The company employs about 300 people."),
    ("All plans include SSO.", "Every plan includes SSO."),
])
def test_words_the_context_writes_the_same_way_or_in_other_words_are_not_asked_as_negated(words, context):
    assert not [value for value in exact.other_values(words, [context]) if value.negated]


@pytest.mark.parametrize(("words", "context", "asked"), [
    # the context's other clauses: one writes the words the same way, so nothing is asked
    ("Refunds are available.", "Refunds are not available for Light fares. Refunds are available for Flex fares.",
     False),
    ("Refunds are available for Flex fares.", "Refunds are not available for Light fares. Refunds are available "
     "for Flex fares.", False),
    ("The hotel has a pool.", "The hotel has a pool and no gym.", False),
    ("The hotel has a gym.", "The hotel has a pool and no gym.", True),
    ("The pool is open from May to September.", "The pool is open from May to September, not in winter.", False),
    ("You need a visa for stays under 90 days.", "You don't need a visa for stays under 90 days.", True),
    ("Check-in is possible before 14:00.", "Check-in is not possible before 14:00.", True),
    ("Check-in is possible from 14:00.", "Check-in is not possible before 14:00.", False),
    ("All rooms have a balcony.", "Not all rooms have a balcony.", True),
    ("Smoking is allowed outside.", "Pets are welcome. Smoking is not allowed.", True),
    ("Pets are allowed.", "Pets are welcome. Smoking is not allowed.", False),
    # "not only", "no more than": no negation of what the words say
    ("The fare includes a bag.", "The fare not only includes a bag but also a seat.", False),
    ("Payment is due 30 days after booking.", "Payment is due no later than 30 days after booking.", False),
    ("Der Tarif enthält Gepäck.", "Der Tarif enthält nicht nur Gepäck.", False),
    ("The group has 40 people.", "The group has no more than 40 people.", False),
    # a clause of two facts joined by "and": each part is compared too
    ("Breakfast is included and parking is free.", "Breakfast is not included. Parking is free.", True),
    ("Parking is free and breakfast is included.", "Parking is free. Breakfast is included.", False),
    ("Breakfast and parking are included.", "Breakfast and parking are not included.", True),
    ("Pets and children are not allowed.", "Pets and children are not allowed.", False),
    ("Das Frühstück ist inklusive und das Parken ist kostenlos.", "Das Frühstück ist nicht inklusive.", True),
])
def test_a_negation_is_asked_about_only_where_no_clause_writes_the_words_the_same_way(words, context, asked):
    assert any(value.negated for value in exact.other_values(words, [context])) == asked


@pytest.mark.parametrize(("words", "context", "given"), [
    ("The flight is delayed by fog.", "The flight may be delayed by fog.", "The flight may be delayed by fog"),
    ("Refunds will be issued within 14 days.", "Refunds might be issued within 14 days.",
     "Refunds might be issued within 14 days"),
    ("The new terminal opens in 2027.", "The new terminal is expected to open in 2027.",
     "The new terminal is expected to open in 2027"),
    ("Produk ini pasti tersedia bulan depan.", "Produk ini mungkin tersedia bulan depan.",
     "Produk ini mungkin tersedia bulan depan"),
    ("De update verschijnt in maart.", "De update verschijnt waarschijnlijk in maart.",
     "De update verschijnt waarschijnlijk in maart"),
    ("Der Flug ist verspätet.", "Der Flug ist vermutlich verspätet.", "Der Flug ist vermutlich verspätet"),
    ("Le vol est annulé.", "Le vol est peut-être annulé.", "Le vol est peut-être annulé"),
    ("El vuelo se retrasa.", "El vuelo tal vez se retrasa.", "El vuelo tal vez se retrasa"),
    ("Рейс задержится.", "Рейс, возможно, задержится.", "Рейс возможно задержится"),
    ("航班延误。", "航班可能延误。", "航班可能延误"),
    ("항공편이 지연될 것입니다.", "항공편이 아마 지연될 것입니다.", "항공편이 아마 지연될 것입니다"),
    ("便は遅れます。", "便は遅れるかもしれません。", "便は遅れるかもしれません"),
    # or of some, or at times
    ("All rooms have a balcony.", "Some rooms have a balcony.", "Some rooms have a balcony"),
    ("Rooms have a balcony.", "Some rooms have a balcony.", "Some rooms have a balcony"),
    ("Alle Zimmer haben einen Balkon.", "Einige Zimmer haben einen Balkon.", "Einige Zimmer haben einen Balkon"),
    ("Todas las habitaciones tienen balcón.", "Algunas habitaciones tienen balcón.",
     "Algunas habitaciones tienen balcón"),
    ("Toutes les chambres ont un balcon.", "Certaines chambres ont un balcon.", "Certaines chambres ont un balcon"),
    ("Wszystkie pokoje mają balkon.", "Niektóre pokoje mają balkon.", "Niektóre pokoje mają balkon"),
    ("The train is delayed.", "The train is sometimes delayed.", "The train is sometimes delayed"),
    ("Pets are allowed in every room.", "Pets are allowed only in Room 12.", "Pets are allowed only in Room 12"),
    ("Every plan includes SSO.", "Several plans include SSO.", "Several plans include SSO"),  # in another form
    ("Each room has a balcony.", "Some rooms have a balcony.", "Some rooms have a balcony"),
    # or under a condition, or by someone's account
    ("Breakfast is free.", "Breakfast is free if you book directly.", "Breakfast is free if you book directly"),
    ("Das Frühstück ist kostenlos.", "Das Frühstück ist kostenlos, wenn Sie direkt buchen.",
     "Das Frühstück ist kostenlos wenn Sie direkt buchen"),
    ("El desayuno es gratis.", "El desayuno es gratis si reserva directamente.",
     "El desayuno es gratis si reserva directamente"),
    ("The fee applies.", "Unless you pay by card, the fee applies.", "Unless you pay by card the fee applies"),
    ("The bridge is unsafe.", "Critics claim the bridge is unsafe.", "Critics claim the bridge is unsafe"),
    ("Die Brücke ist unsicher.", "Kritiker behaupten, die Brücke sei unsicher.",
     "Kritiker behaupten die Brücke sei unsicher"),
])
def test_words_the_context_writes_only_more_weakly_are_asked_as_hedged(words, context, given):
    """"The flight may be delayed" is no "The flight is delayed", "Some rooms have a balcony" no "All
    rooms have a balcony": asked, with the context's words, and the reason says the context says it
    more weakly; never the other way round."""
    negated = [value for value in exact.other_values(words, [context]) if value.negated]
    assert [(value.other, value.hedged) for value in negated] == [(given, True)]
