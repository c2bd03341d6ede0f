"""Dates read by what they say: the same date in any form the context writes is written, and a month
by name in any case is a specific of its date (issue 52)."""

from __future__ import annotations

import pytest

from pytest_llmfaith.text.dates import MONTHS, dates
from pytest_llmfaith.text.exact import numbers_not_written, unwritten
from pytest_llmfaith.text.sentences import sentences

JUNE_12 = [
    "12 June 2026", "June 12, 2026", "June 12th 2026", "12th of June 2026", "12. Juni 2026", "le 12 juin 2026",
    "12 de junio de 2026", "12 giugno 2026", "12 de junho de 2026", "12 juni 2026", "12 czerwca 2026",
    "12 června 2026", "12 июня 2026 г.", "12 червня 2026 р.", "12 Haziran 2026", "12. kesäkuuta 2026",
    "2026-06-12", "2026/06/12", "12.06.2026", "12 JUNE 2026", "١٢ June ٢٠٢٦",
]


@pytest.mark.parametrize("text", JUNE_12)
def test_one_date_in_any_form_is_one_date(text):
    assert [date for _, date in dates(text.translate(str.maketrans("١٢٠٦", "1206")))] == [(2026, 6, 12)]


@pytest.mark.parametrize("text", JUNE_12)
def test_a_date_the_context_writes_in_another_form_asks_nothing(text):
    assert unwritten(f"It leaves on {text}.", ['{"date": "2026-06-12"}']) == []
    assert unwritten("It leaves on 2026-06-12.", [f"Departure: {text}."]) == []


@pytest.mark.parametrize(("words", "asked"), [
    ("It leaves on 12 July 2026.", ["july"]),
    ("Il part le 12 juillet 2026.", ["juillet"]),  # lower case: a month by name is asked whatever its case
    ("am 12. Juli 2026", ["juli"]),  # after an ordinal day, no sentence start
    ("It leaves on 14 June 2026.", ["14", "june"]),  # the date is not the context's: its month's name neither
    ("It leaves on 12 June 2025.", ["2025", "june"]),
    ("It leaves in July 2026.", ["july"]),
])
def test_another_date_is_asked_about(words, asked):
    assert unwritten(words, ['{"date": "2026-06-12"}']) == asked


@pytest.mark.parametrize("text", ["06/12/2026", "06-12-2026", "v1.2.2026", "3 may 2 go", "2026-13-01", "32 June 2026"])
def test_what_may_be_another_date_or_none_is_no_date(text):
    assert dates(text) == () or all(date != (2026, 6, 12) and date != (2026, 12, 6) for _, date in dates(text))


def test_a_date_whose_order_is_open_writes_no_month_name():
    """06/12/2026 is 6 December or 12 June: its numbers are written by value, the month's name is asked."""
    assert unwritten("It arrives on 6 December 2026.", ["Delivery: 06/12/2026"]) == ["december"]
    assert numbers_not_written("It arrives on 6 December 2026.", ["Delivery: 06/12/2026"]) == []


def test_a_partial_date_says_no_more_than_the_context():
    assert unwritten("It leaves on 12 June.", ["Departure: 2026-06-12"]) == []
    assert unwritten("It leaves in June 2026.", ["Departure: 2026-06-12"]) == []
    assert unwritten("It leaves on 12 June.", ["Departure: June 2026"]) == ["12"]


def test_no_month_name_means_two_months():
    assert len(MONTHS) > 200
    rows: dict[str, int] = {}
    from pytest_llmfaith.text import dates as module

    for number, row in enumerate(module._MONTH_NAMES, 1):
        for name in row.split():
            assert rows.setdefault(name, number) == number, name


@pytest.mark.parametrize(("text", "count"), [
    ("Der Abflug ist am 12. Juni 2026.", 1),
    ("Lähtö on 12. Kesäkuuta 2026. Tervetuloa!", 2),
    ("Er kam 2012. Juni war heiß.", 2),  # a year, not a day: the sentence ends
    ("Ich habe 3. Das ist alles.", 2),
])
def test_a_day_before_its_month_ends_no_sentence(text, count):
    assert len(sentences(text)) == count


@pytest.mark.parametrize(("text", "time"), [
    ("19:20", (19, 20)), ("7:20 pm", (19, 20)), ("7:20 p.m.", (19, 20)), ("7:20PM", (19, 20)), ("07:10", (7, 10)),
    ("12:30 am", (0, 30)), ("12 pm", (12, 0)), ("7 p.m.", (19, 0)), ("13h45", (13, 45)), ("10:05:33", (10, 5)),
    ("2026-06-12T07:10:00", (7, 10)),
])
def test_a_time_of_day_is_read_on_a_24_hour_clock(text, time):
    from pytest_llmfaith.text.dates import times

    assert [found for _, found in times(text)] == [time]


@pytest.mark.parametrize("text", ["a 3:1 ratio", "25:10", "13h", "v1.2:30", "pm 7", "13 pm"])
def test_what_is_no_certain_time_of_day_is_none(text):
    from pytest_llmfaith.text.dates import times

    assert times(text) == ()


def test_a_time_is_written_as_that_time_not_as_its_numbers():
    context = ['{"departs": "07:20", "arrives": "19:20"}']
    assert unwritten("It lands at 7:20 pm.", context) == []
    assert unwritten("It departs at 7:20 pm.", ['{"departs": "07:20"}']) == ["7:20 pm"]  # 7 and 20 are written
    assert numbers_not_written("It departs at 7:20 pm.", ['{"departs": "07:20"}']) == ["7:20 pm"]
