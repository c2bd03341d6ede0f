"""Dates and times of day as a text writes them, by what they say: "12 June 2026", "12. Juni 2026",
"12 июня 2026 г." and 2026-06-12 are one date, 7:20 pm and 19:20 one time. A month's name is a fact
of its language that code can know for certain, as a digit's value is; which dates and times are
the same is then exact, and no judge is asked about them."""

from __future__ import annotations

from functools import lru_cache

import regex

Span = tuple[int, int]

_MONTH_NAMES = (
    # One row per month: English, German, French, Spanish, Italian, Portuguese, Dutch, Swedish,
    # Norwegian and Danish, Polish, Czech, Russian, Ukrainian, Turkish, Finnish, Indonesian; the
    # forms a date writes (Polish "czerwca", Russian "июня") and the usual abbreviations.
    "january jan januar jänner janvier enero gennaio janeiro januari stycznia styczeń ledna leden января январь "
    "січня січень ocak tammikuuta",
    "february feb februar février fevrier febrero febbraio fevereiro februari lutego luty února únor февраля "
    "февраль лютого лютий şubat helmikuuta",
    "march mar märz mär mars marzo março maart marts marca marzec března březen марта март березня березень "
    "mart maaliskuuta maret",
    "april apr avril abril aprile kwietnia kwiecień dubna duben апреля апрель квітня квітень nisan huhtikuuta",
    "may mai mayo maggio maio mei maj maja května květen мая май травня травень mayıs toukokuuta",
    "june jun juni juin junio giugno junho czerwca czerwiec června červen июня июнь червня червень haziran "
    "kesäkuuta",
    "july jul juli juillet julio luglio julho lipca lipiec července červenec июля июль липня липень temmuz "
    "heinäkuuta",
    "august aug august août aout agosto augustus augusti sierpnia sierpień srpna srpen августа август серпня "
    "серпень ağustos elokuuta agustus",
    "september sep sept septembre septiembre setiembre settembre setembro września wrzesień září сентября "
    "сентябрь вересня вересень eylül syyskuuta",
    "october oct oktober okt octobre octubre ottobre outubro października październik října říjen октября "
    "октябрь жовтня жовтень ekim lokakuuta",
    "november nov novembre noviembre novembro listopada listopad listopadu ноября ноябрь листопада листопад "
    "kasım marraskuuta",
    "december dec dezember dez décembre decembre diciembre dicembre dezembro grudnia grudzień prosince "
    "prosinec декабря декабрь грудня грудень aralık joulukuuta desember",
)
MONTHS = {name: number for number, row in enumerate(_MONTH_NAMES, 1) for name in row.split()}
"""A month's name in the languages above, as a date writes it: the month it is, certain."""
_MONTH = r"(?P<month>\p{L}+)\.?"  # a name of MONTHS: looked up, no alternation of 210 names to compile
_DAY = r"(?P<day>[0-3]?\d)(?:st|nd|rd|th|er|e|º|\.)?"
_YEAR = r"(?P<year>\d{4})"
_OF = r"(?:\s+(?:de|del|of)\b)?"
_NAMED_DATES = tuple(regex.compile(rf"(?<![\p{{L}}\p{{N}}]){pattern}(?![\p{{L}}\p{{N}}])", regex.IGNORECASE)
                     for pattern in (
    rf"{_DAY}{_OF}\s+{_MONTH}(?:,?{_OF}\s+{_YEAR}(?:\s*(?:г|р)\.?)?)?",
    rf"{_MONTH}\s+{_DAY}(?:,?\s+{_YEAR})?",
    rf"{_MONTH}{_OF},?\s+{_YEAR}"))
_YEAR_FIRST = regex.compile(r"(?<![\p{L}\p{N}.\-/])(?P<year>\d{4})([-/.])(?P<month>\d{1,2})\2(?P<day>\d{1,2})(?!\d)")
_YEAR_LAST = regex.compile(r"(?<![\p{L}\p{N}.\-/])(?P<a>\d{1,2})([-/.])(?P<b>\d{1,2})\2(?P<year>\d{4})(?!\d)")
Date = tuple[int | None, int, int | None]
"""Year, month, day: what a date says; year or day None where it does not write them."""


def _date(year: str | None, month: int, day: str | None) -> Date | None:
    number = int(day) if day else None
    if not 1 <= month <= 12 or (number is not None and not 1 <= number <= 31):
        return None
    return (int(year) if year else None, month, number)


@lru_cache(maxsize=256)
def dates(text: str) -> tuple[tuple[Span, Date], ...]:
    """Every date the text writes for certain: a month by name, or digits with the year first, or
    last after the day and month (with dots the day first; with slashes or dashes only where one
    order is impossible: 06/12/2026 is no date here). ASCII digits: others are the caller's to map."""
    found: list[tuple[Span, Date]] = []
    for pattern in _NAMED_DATES:
        for match in pattern.finditer(text, overlapped=True):
            month = MONTHS.get(match["month"].casefold())
            if month and (date := _date(match["year"], month, match.groupdict().get("day"))):
                found.append((match.span(), date))
    for match in _YEAR_FIRST.finditer(text):
        if date := _date(match["year"], int(match["month"]), match["day"]):
            found.append((match.span(), date))
    for match in _YEAR_LAST.finditer(text):
        orders = ((match["a"], match["b"]), (match["b"], match["a"]))[:1 if match[2] == "." else 2]
        readings = [date for day, month in orders if (date := _date(match["year"], int(month), day))]
        if len(set(readings)) == 1:
            found.append((match.span(), readings[0]))
    spans = {span for span, _ in found}
    return tuple((span, date) for span, date in found  # "June 2026" of "14 June 2026" says no date alone
                 if not any(a <= span[0] and span[1] <= b and (a, b) != span for a, b in spans))


def says_no_more(said: Date, written: Date) -> bool:
    """The written date says all the said one does: "12 June" of 2026-06-12, "June 2026" too."""
    return said[1] == written[1] and all(a is None or a == b for a, b in ((said[0], written[0]), (said[2], written[2])))


_CLOCK = regex.compile(
    r"(?:(?<=\dT)|(?<![\p{L}\p{N}:.,]))(?P<hour>[0-2]?\d)(?::(?P<minute>[0-5]\d)|h(?P<h_minute>[0-5]\d))(?::[0-5]\d)?"
    r"(?:\s?(?P<half>[ap])(?:\.\s?m\.|\s?m\b))?(?![\p{L}\p{N}]|:\d)|(?<![\p{L}\p{N}:.,])(?P<hour_only>1[0-2]|0?[1-9])"
    r"\s?(?P<half_only>[ap])(?:\.\s?m\.|\s?m\b)", regex.IGNORECASE)
Time = tuple[int, int]
"""Hour (0-23) and minute."""


@lru_cache(maxsize=256)
def times(text: str) -> tuple[tuple[Span, Time], ...]:
    """Every time of day the text writes with a colon (07:10, 7:10 am, T07:10:00), as "13h45", or as
    an hour with am or pm ("7 pm"), on a 24-hour clock. ASCII digits."""
    found = []
    for match in _CLOCK.finditer(text):
        hour = int(match["hour"] or match["hour_only"])
        half = match["half"] or match["half_only"]
        if half and not 1 <= hour <= 12:
            continue
        if half:
            hour = hour % 12 + (12 if half.casefold() == "p" else 0)
        if hour <= 23:
            found.append((match.span(), (hour, int(match["minute"] or match["h_minute"] or 0))))
    return tuple(found)
