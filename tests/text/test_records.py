"""A passage's records, whatever its layout (text/records.py), and what code reads as written in
them. Both directions: data is read as one record per thing, each field beside its name; prose
that looks like data (commas on every line, a bullet list, JSON inside a sentence) stays sentences."""

from __future__ import annotations

import json

import pytest

from pytest_llmfaith.text.exact import numbers_not_written, other_values, unwritten
from pytest_llmfaith.text.records import data, parts, table_rows

FLIGHT = "flight: SK4705\nprice_eur: 189"
FLIGHTS = [{"flight": "SK4705", "price_eur": 189}, {"flight": "DY1872", "price_eur": 142}]


@pytest.mark.parametrize(("passage", "first"), [
    (json.dumps(FLIGHTS), '{\n  "flight": "SK4705",\n  "price_eur": 189\n}'),
    ("search_flights returned: " + json.dumps({"flights": FLIGHTS}),
     'search_flights returned:\n{\n  "flight": "SK4705",\n  "price_eur": 189\n}'),
    ("tool [v2] returned: " + json.dumps(FLIGHTS),
     'tool [v2] returned:\n{\n  "flight": "SK4705",\n  "price_eur": 189\n}'),
    ("search_flights returned:\n" + json.dumps(FLIGHTS, indent=2),
     'search_flights returned:\n{\n  "flight": "SK4705",\n  "price_eur": 189\n}'),
    ("\n".join(map(json.dumps, FLIGHTS)), '{\n  "flight": "SK4705",\n  "price_eur": 189\n}'),  # JSON Lines
    ("search_flights returned:\n" + "\n".join(map(json.dumps, FLIGHTS)) + "\n",
     'search_flights returned:\n{\n  "flight": "SK4705",\n  "price_eur": 189\n}'),
    ("flight,price_eur\nSK4705,189\nDY1872,142", FLIGHT),
    ('flight,price_eur\n"SK4705",189\n"DY1872",142', FLIGHT),
    ("flight;price_eur\nSK4705;189\nDY1872;142", FLIGHT),
    ("flight\tprice_eur\nSK4705\t189\nDY1872\t142", FLIGHT),
    ("get_prices() returned:\nflight,price_eur\nSK4705,189\nDY1872,142", "get_prices() returned:\n" + FLIGHT),
    ("| flight | price_eur |\n|:---|---:|\n| SK4705 | 189 |\n| DY1872 | 142 |", FLIGHT),
    ("Flights found:\n\n| flight | price_eur |\n|---|---|\n| SK4705 | 189 |\n| DY1872 | 142 |", "Flights found:"),
    ("- flight: SK4705\n  price_eur: 189\n- flight: DY1872\n  price_eur: 142", FLIGHT),
    ("flights:\n  - flight: SK4705\n    price_eur: 189\n  - flight: DY1872\n    price_eur: 142", FLIGHT),
    ("Found 2 flights:\n\nflight: SK4705\nprice_eur: 189\n\nflight: DY1872\nprice_eur: 142", FLIGHT),
    ("flight: SK4705\nprice_eur: 189\nflight: DY1872\nprice_eur: 142", FLIGHT),
])
def test_data_in_any_layout_is_read_as_one_record_per_thing(passage, first):
    found = parts(passage)
    assert found[0] == first, found
    assert any("DY1872" in part and "142" in part and "189" not in part for part in found), found


@pytest.mark.parametrize("passage", [
    "Oslo, Norway\nBergen, Norway",  # commas on every line, no number
    "Acme AS, Storgata 1\n0155 Oslo, Norway",  # an address: no cell is a number alone
    "Acme was founded in 1997. It has 40 staff.",
    'The tool returned {"price": 189} for SK4705.',  # JSON inside a sentence
    '{"price": 189} for SK4705, {"price": 142} for DY1872.',  # objects inside a sentence, not one a line
    '{"price": 189}\nThe cheaper one is DY1872.',  # an object, then prose
    "Prices: 189 | 142 | 99",  # a bar, no table rule
    "Dear Ingrid,\nThanks, Anna",
    "Note: prices rise. Book early.\nTip: book 2 weeks ahead.",  # "key: value" lines, one record
    "User: I need 2 tickets to Oslo\nAgent: Sure, SK4705 costs 189 EUR and leaves at 07:10.\nUser: ok",
    "Departs 07:10\nArrives 11:05\nDeparts 13:45\nArrives 19:20",  # a time is no key
])
def test_prose_that_looks_like_data_stays_sentences(passage):
    assert data(passage) == ()
    assert all("\n" not in part for part in parts(passage)), parts(passage)


def test_a_markdown_tables_rows_are_records_within_prose():
    passage = "Flights found:\n\n| flight | price_eur |\n|---|---|\n| SK4705 | 189 |\n| DY1872 | 142 |\n\nBook soon."
    assert table_rows(passage) == (FLIGHT, "flight: DY1872\nprice_eur: 142")
    assert parts(passage) == ("Flights found:", FLIGHT, "flight: DY1872\nprice_eur: 142", "Book soon.")
    assert table_rows("Prices: 189 | 142 | 99") == table_rows("Acme has 40 staff.") == ()


def test_a_field_that_holds_prose_is_read_as_its_sentences():
    """A retrieved document's text is evidence sentence by sentence, not the whole document at once."""
    found = parts(json.dumps([{"title": "Refunds", "text": "Light fares are non-refundable. Changes cost 60 EUR."}]))
    assert any(part.endswith("Changes cost 60 EUR.\"") for part in found), found
    assert not any("non-refundable" in part and "60 EUR" in part for part in found), found


@pytest.mark.parametrize(("words", "context", "expected"), [
    # a CSV row's cells are written, each alone: "SK4705,189,0" writes SK4705 and 189
    ("SK4705 costs 189 EUR.", "flight,price_eur,stops\nSK4705,189,0", []),
    ("SK4750 costs 198 EUR.", "flight,price_eur,stops\nSK4705,189,0", ["198", "sk4750"]),
    # ... and never a number made of two cells: 142,1 is not 142.1
    ("DY1872 costs 142.1 EUR.", "flight,price_eur,stops\nDY1872,142,1", ["142.1"]),
    # a decimal comma inside a semicolon's cell is the locale's
    ("Bread costs 1,5 EUR.", "item;price (EUR)\nbread;1,5\nmilk;0,99", []),
    ("Bread costs 15 EUR.", "item;price (EUR)\nbread;1,5\nmilk;0,99", ["15"]),
    # JSON's escapes are the letters they stand for; a number as JSON writes it
    ("The train to Zürich costs 189.50 CHF.", json.dumps({"to": "Zürich", "price_chf": 189.50}), ["189.50"]),
    ("The train to Zürich costs 189.5 CHF.", json.dumps({"to": "Zürich", "price_chf": 189.50}), []),
    ("The train to Zürich costs 189.50 CHF.", '{"to": "Z\\u00fcrich", "price_chf": 189.50}', []),
    ("The train to Bern costs 189.50 CHF.", '{"to": "Z\\u00fcrich", "price_chf": 189.50}', ["bern"]),
    ("The train to Łódź costs 12000 PLN.", json.dumps({"to": "Łódź", "price_pln": 12000}), []),
])
def test_what_data_writes_is_written(words, context, expected):
    assert [t for t in unwritten(words, [context], at_starts=False) if t not in ("eur", "chf", "pln")] == expected


@pytest.mark.parametrize(("words", "context", "value"), [
    ("Ingrid Dahl sits in seat 22B.", "Ingrid Dahl: seat 14C. Karin Berg: seat 22B.", "22b"),
    ("Ola Lie has room 12M.", "Anna Berg: room 12M. Ola Lie: room 3K.", "12m"),
])
def test_a_seat_whose_letter_is_also_a_scale_is_a_code_given_apart(words, context, value):
    """22B is 22 billion or a seat: as a seat, it is another passenger's."""
    assert [o.said for o in other_values(words, [context])] == [value]
    mine = words.replace(value.upper(), "14C" if value == "22b" else "3K")
    assert other_values(mine, [context]) == ()


def test_numbers_are_compared_as_written_in_data_too():
    assert numbers_not_written("It costs 142 EUR.", ["flight,price_eur\nDY1872,142"]) == []


@pytest.mark.parametrize("passage", ["[" * 100_000 + "]" * 100_000, "returned: " + '{"a": ' * 3000 + "1" + "}" * 3000])
def test_json_nested_deeper_than_python_reads_is_read_as_text(passage):
    """No RecursionError out of a context: read as it is written, its numbers and names too."""
    assert parts(passage)
    assert other_values("SK4705 costs 142 EUR.", [passage]) == ()
    assert unwritten("SK4705 costs 142 EUR.", [passage], at_starts=False) == ["142", "sk4705", "eur"]
