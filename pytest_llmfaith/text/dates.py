"""Dates and times of day as a text writes them. Which words name a month, or what "pm" does to an
hour, is a fact of a language: code uses it only to ask the judge more, never less. A month's name
in a date is asked about whatever its case ("le 12 juillet"), and a time counts as written only as
the context writes it, digits and half of the day alike ("7:20 pm" beside 07:20 or 19:20 is asked):
whether two forms say one date or time is the judge's question."""

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
MONTHS = {name: month for month, row in enumerate(_MONTH_NAMES) for name in row.split()}
"""A month's name in the languages above, as a date writes it, and which month (0 is January). A
name missing costs a question."""
_WEEKDAY_NAMES = (
    # One row per day, Monday first, in the languages above and Italian without accents, as
    # sentences write them: "le mardi", "les mardis", "dienstags", "we wtorek", "во вторник", "по
    # вторникам", "tiistaina". A word that is also another word ("segunda", "domingo", "pazar",
    # "minggu") costs a question, never an outcome.
    "monday mondays montag montags lundi lundis lunes lunedì lunedi segunda maandag maandags måndag måndagar "
    "mandag poniedziałek poniedziałki pondělí понедельник понедельника понедельникам понеділок понеділка "
    "pazartesi maanantai maanantaina senin",
    "tuesday tuesdays dienstag dienstags mardi mardis martes martedì martedi terça terca dinsdag dinsdags tisdag "
    "tisdagar tirsdag wtorek wtorki úterý вторник вторника вторникам вівторок вівторка salı tiistai tiistaina "
    "selasa",
    "wednesday wednesdays mittwoch mittwochs mercredi mercredis miércoles miercoles mercoledì mercoledi quarta "
    "woensdag woensdags onsdag onsdagar środa środę środy středa středu среда среду средам середа середу "
    "çarşamba keskiviikko keskiviikkona rabu",
    "thursday thursdays donnerstag donnerstags jeudi jeudis jueves giovedì giovedi quinta donderdag donderdags "
    "torsdag torsdagar czwartek czwartki čtvrtek четверг четверга четвергам четвер perşembe torstai torstaina "
    "kamis",
    "friday fridays freitag freitags vendredi vendredis viernes venerdì venerdi sexta vrijdag vrijdags fredag "
    "fredagar piątek piątki pátek пятница пятницу пятницам пʼятниця пʼятницю п'ятниця п'ятницю cuma perjantai "
    "perjantaina jumat",
    "saturday saturdays samstag samstags sonnabend samedi samedis sábado sábados sabado sabados sabato zaterdag "
    "zaterdags lördag lördagar lørdag sobota sobotę soboty sobotu суббота субботу субботам субота суботу "
    "cumartesi lauantai lauantaina sabtu",
    "sunday sundays sonntag sonntags dimanche dimanches domingo domingos domenica zondag zondags söndag söndagar "
    "søndag niedziela niedzielę niedziele neděle neděli воскресенье воскресенья воскресеньям неділя неділю "
    "pazar sunnuntai sunnuntaina minggu",
)
WEEKDAYS = {name: day for day, row in enumerate(_WEEKDAY_NAMES) for name in row.split()}
"""A day of the week's name, and which day (0 is Monday): asked about whatever its case where the
context writes that day in no form ("le musée est fermé le mardi" beside "le lundi"), as a
month's name in a date is; "les lundis" beside "le lundi" asks nothing more than before."""


_MONTH = r"(?P<month>\p{L}+)\.?"  # a name of MONTHS: looked up, no alternation of 210 names to compile
_DAY = r"[0-3]?\d(?:st|nd|rd|th|er|e|º|\.)?"
_YEAR = r"\d{4}"
_OF = r"(?:\s+(?:de|del|of)\b)?"
_NAMED_DATES = tuple(regex.compile(rf"(?<![\p{{L}}\p{{N}}]){pattern}(?![\p{{L}}\p{{N}}])", regex.IGNORECASE)
                     for pattern in (rf"{_DAY}{_OF}\s+{_MONTH}", rf"{_MONTH}\s+{_DAY}", rf"{_MONTH}{_OF},?\s+{_YEAR}"))


@lru_cache(maxsize=256)
def month_names(text: str) -> tuple[Span, ...]:
    """Where the text names a month in a date: beside a day ("12 June", "June 12th", "12. Juni",
    "12 de junio") or a year ("June 2026"). ASCII digits: others are the caller's to map."""
    return tuple(sorted({match.span("month") for pattern in _NAMED_DATES
                         for match in pattern.finditer(text, overlapped=True)
                         if match["month"].casefold() in MONTHS}))


_CLOCK = regex.compile(
    r"(?:(?<=\dT)|(?<![\p{L}\p{N}:.,]))(?P<hour>[0-2]?\d)(?::(?P<minute>[0-5]\d)|h(?P<h_minute>[0-5]\d))"
    r"(?::[0-5]\d)?(?:\s?(?P<half>[ap])(?:\.\s?m\.|\s?m\b))?(?![\p{L}\p{N}]|:\d)"
    r"|(?<![\p{L}\p{N}:.,])(?P<hour_only>1[0-2]|0?[1-9])\s?(?P<half_only>[ap])(?:\.\s?m\.|\s?m\b)",
    regex.IGNORECASE)
Time = tuple[int, int, str]
"""Hour and minute as written, and the half of the day written after them ("a", "p" or "")."""


@lru_cache(maxsize=256)
def times(text: str) -> tuple[tuple[Span, Time], ...]:
    """Every time of day the text writes with a colon (07:10, 7:10 am, T07:10:00), as "13h45", or as
    an hour with am or pm ("7 pm"). ASCII digits."""
    return tuple((match.span(), (int(match["hour"] or match["hour_only"]),
                                 int(match["minute"] or match["h_minute"] or 0),
                                 (match["half"] or match["half_only"] or "").casefold()))
                 for match in _CLOCK.finditer(text))
