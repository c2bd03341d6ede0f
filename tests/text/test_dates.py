"""Dates and times of day: code uses what a month's name or "pm" means only to ask the judge more,
never less (issue 52): a month by name in a date is asked about whatever its case, and a time is
written only as the context writes it."""

from __future__ import annotations

import pytest

from pytest_llmfaith.text.dates import MONTHS, month_names, times
from pytest_llmfaith.text.exact import numbers_not_written, unwritten
from pytest_llmfaith.text.sentences import sentences

JUNE_12 = ["12 June 2026", "June 12, 2026", "June 12th 2026", "12th of June 2026", "12. Juni 2026", "le 12 juin 2026",
           "12 de junio de 2026", "12 giugno 2026", "12 de junho de 2026", "12 juni 2026", "12 czerwca 2026",
           "12 června 2026", "12 июня 2026 г.", "12 червня 2026 р.", "12 Haziran 2026", "12. kesäkuuta 2026",
           "12 JUNE 2026", "in June 2026"]


@pytest.mark.parametrize("text", JUNE_12)
def test_a_month_by_name_in_a_date_is_found_in_any_of_16_languages(text):
    (start, end), = month_names(text)
    assert text[start:end].casefold() in MONTHS


@pytest.mark.parametrize("text", JUNE_12)
def test_a_month_by_name_the_context_writes_in_digits_is_asked_whatever_its_case(text):
    """Whether 2026-06-12 says June is the judge's question: one more question, never one less."""
    (start, end), = month_names(text)
    assert unwritten(f"It leaves on {text}.", ["It leaves on 2026-06-12."]) == [text[start:end].casefold()]


@pytest.mark.parametrize("text", ["2026-06-12", "the 3 may go", "v1.2.2026", "June", "juin"])
def test_what_is_no_month_in_a_date_costs_at_most_a_question(text):
    assert month_names(text) in ((), ((6, 9),))  # "the 3 may go": asked, never decided


def test_a_month_the_context_writes_by_name_is_written():
    assert unwritten("Il part le 12 juin 2026.", ["Départ : 12 juin 2026."], at_starts=False) == []


@pytest.mark.parametrize(("text", "time"), [
    ("19:20", (19, 20, "")), ("7:20 pm", (7, 20, "p")), ("7:20 p.m.", (7, 20, "p")), ("7:20PM", (7, 20, "p")),
    ("07:10", (7, 10, "")), ("12:30 am", (12, 30, "a")), ("7 p.m.", (7, 0, "p")), ("13h45", (13, 45, "")),
    ("10:05:33", (10, 5, "")), ("2026-06-12T07:10:00", (7, 10, "")),
])
def test_a_time_of_day_is_read_as_written(text, time):
    assert [found for _, found in times(text)] == [time]


@pytest.mark.parametrize("text", ["a 3:1 ratio", "13h", "v1.2:30", "pm 7", "13 pm"])
def test_what_is_no_time_of_day_is_none(text):
    assert times(text) == ()


@pytest.mark.parametrize(("words", "context", "asked"), [
    ("It lands at 7:20 pm.", '{"arrives": "07:20"}', ["7:20 pm"]),  # 7 and 20 are written
    ("It lands at 7:20 pm.", '{"arrives": "19:20"}', ["7:20 pm"]),  # another form: the judge's question
    ("It lands at 19:20.", "It lands at 7:20 pm.", ["19:20"]),
    ("It lands at 7:20.", "Arrival 07:20.", []),  # the same digits
    ("Le musée ferme à 17h30.", "Le musée ferme à 17:30.", []),
])
def test_a_time_is_written_only_as_the_context_writes_it(words, context, asked):
    assert unwritten(words, [context], at_starts=False) == asked
    assert numbers_not_written(words, [context]) == asked


@pytest.mark.parametrize(("text", "count"), [
    ("Der Abflug ist am 12. Juni 2026.", 1),
    ("Lähtö on 12. Kesäkuuta 2026. Tervetuloa!", 2),
    ("Er kam 2012. Juni war heiß.", 2),  # a year, not a day: the sentence ends
    ("Ich habe 3. Das ist alles.", 2),
    ("Der Umsatz lag bei 2,5 Mrd. Euro.", 1),
])
def test_a_day_before_its_month_or_a_scale_before_its_unit_ends_no_sentence(text, count):
    assert len(sentences(text)) == count


@pytest.mark.parametrize(("words", "context", "asked"), [
    ("Le musée est fermé le mardi.", "Le musée est fermé le lundi.", ["mardi"]),
    ("Музей закрыт по вторникам.", "Музей закрыт по понедельникам.", ["вторникам"]),
    ("Das Museum ist dienstags geschlossen.", "Das Museum ist montags geschlossen.", ["dienstags"]),
    ("Le musée est fermé le lundi.", "Fermé le lundi.", []),  # written
    ("Le musée est fermé le lundi.", "Fermé le Lundi.", []),  # written, in another case
    ("Le musée est fermé les lundis.", "Fermé le lundi.", []),  # the same day in another form
    ("the museum is closed every monday.", "Closed on mondays.", []),
    ("Le musée est fermé les mardis.", "Fermé le lundi.", ["mardis"]),
])
def test_a_day_of_the_week_the_context_never_writes_is_asked_whatever_its_case(words, context, asked):
    assert unwritten(words, [context]) == unwritten(words, [context], at_starts=False) == asked
