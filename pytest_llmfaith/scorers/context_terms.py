"""Claims restated in the context's terms: durations, approximations and dates as the context
writes them (the spec allows them; a small judge reads them as "not stated"), and the context
read once per run of claims. English only."""

from __future__ import annotations

import re
from collections.abc import Sequence
from decimal import ROUND_HALF_UP, Decimal
from functools import lru_cache
from typing import NamedTuple

from pytest_llmfaith.text.language import canonical_number, language_of, number_spans, units
from pytest_llmfaith.text.profiles import ENGLISH, ENGLISH_CARDINALS, Language
from pytest_llmfaith.text.sentences import sentences


def content_words(text: str, lang: Language | None = None) -> frozenset[str]:
    """Stemmed content words in English, character n-grams elsewhere, read as `lang`."""
    return units(text, lang)


_APPROXIMATE = re.compile(r"\b(?:" + "|".join(q for q, kind in ENGLISH.comparisons.items() if kind == "about")
                          + r")\s+([$€£]?)(?<![\d.,])(\d+(?:,\d{3}(?!\d))*(?:\.\d+)?)", re.IGNORECASE)


def approximates(approximate: str, exact: str) -> bool:
    """The spec's "about 1,200" for 1,234: rounds to the approximation's last digit and is at most
    3 % off (Mastra calls "about $10M" for $10.5M a hallucination)."""
    a, m = Decimal(canonical_number(approximate)), Decimal(canonical_number(exact))
    if a == m:
        return True
    if m == 0 or abs(a - m) > abs(m) * Decimal("0.03"):
        return False
    place = a.normalize().as_tuple().exponent  # 1200 -> 2 (hundreds), 49 -> 0, 1.5 -> -1
    assert isinstance(place, int)  # finite: canonical numbers are digits
    return m.quantize(Decimal(1).scaleb(place), rounding=ROUND_HALF_UP) == a


_DURATION = re.compile(r"\b(\d+(?:\.\d+)?|" + "|".join(ENGLISH_CARDINALS)
                       + r")[\s-]+(minute|hour|day|week|month|year)s?\b", re.IGNORECASE)
_LENGTHS = {"minute": ("time", 1), "hour": ("time", 60), "day": ("time", 1440), "week": ("time", 10080),
            "month": ("months", 1), "year": ("months", 12)}  # a month is no fixed number of days


def _length(match: re.Match[str]) -> tuple[str, Decimal]:
    """A duration as (kind, length in the kind's unit): "two weeks" and "14 days" are equal."""
    count, unit = match[1].lower(), match[2].lower()
    kind, size = _LENGTHS[unit]
    return kind, Decimal(str(ENGLISH_CARDINALS.index(count) + 1) if count in ENGLISH_CARDINALS else count) * size


_MONTH_WORD = rf"(?:{'|'.join(sorted([*ENGLISH.months, 'may'], key=len, reverse=True))})\.?"
_DAY = r"\d{1,2}(?:st|nd|rd|th)?"
_YEAR = r"(?:1[5-9]|20)\d\d"
_DATED_YEAR = re.compile(rf"\b(?:{_DAY}\s+{_MONTH_WORD}|{_MONTH_WORD}(?:\s+{_DAY},?)?)\s+({_YEAR})\b", re.IGNORECASE)
_IN_YEAR = re.compile(rf"\b(in|during)\s+({_YEAR})\b(?![,.]?\d)", re.IGNORECASE)


class _ContextTerms(NamedTuple):
    lengths: dict[tuple[str, Decimal], str]  # durations by length, as first written
    numbers: dict[str, str]  # numbers by value, as first written
    dates: dict[str, list[tuple[str, frozenset[str]]]]  # year -> its dates with a month, and their sentence's words


@lru_cache(maxsize=32)
def sentence_words(context: tuple[str, ...]) -> tuple[tuple[str, frozenset[str]], ...]:
    """Cached: read once per context, not several times per claim (evidence, reason, dated years)."""
    lang = context_language(context)
    return tuple((s, content_words(s, lang)) for item in context for s in sentences(item))


def context_language(context: Sequence[str]) -> Language:
    """The language a context is read in; its claims are compared with it in that language too."""
    return language_of(" ".join(context))


@lru_cache(maxsize=32)
def _context_terms(context: tuple[str, ...]) -> _ContextTerms:
    """What claims are restated in: read once per context, not once per claim."""
    text = " ".join(context)
    lengths: dict[tuple[str, Decimal], str] = {}
    for match in _DURATION.finditer(text):
        lengths.setdefault(_length(match), match[0])
    said: dict[str, str] = {}
    for start, end, value in number_spans(text, ENGLISH):
        said.setdefault(value, text[start:end])
    dates: dict[str, list[tuple[str, frozenset[str]]]] = {}
    for sentence, read in sentence_words(context):
        for match in _DATED_YEAR.finditer(sentence):
            dates.setdefault(match[1], []).append((match[0], read))
    return _ContextTerms(lengths, said, dates)


def in_context_terms(claim: str, context: Sequence[str]) -> tuple[str, list[str]] | None:
    """The claim with durations, approximations and years written as the context writes them (the
    spec allows them; a small judge reads them as "not stated"), or None. Each version says at
    least what the claim says, so its support is the claim's. English only."""
    if context_language(context) is not ENGLISH:
        return None
    terms = _context_terms(tuple(context))
    shown: list[str] = []

    def duration(match: re.Match[str]) -> str:
        same = terms.lengths.get(_length(match))
        if same is None or same.lower() == match[0].lower():
            return match[0]
        shown.append(f"“{match[0]}” = “{same}”")
        return same

    def approximation(match: re.Match[str]) -> str:
        close = [raw for number, raw in terms.numbers.items() if approximates(match[2], number)]
        if not close:
            return match[0]
        wanted = Decimal(canonical_number(match[2]))
        exact = match[1] + min(close, key=lambda raw: abs(Decimal(canonical_number(raw)) - wanted))
        shown.append(f"“{match[0]}” ≈ “{exact}”")
        return exact

    def dated(match: re.Match[str]) -> str:
        found = terms.dates.get(match[2])
        if not found:
            return match[0]
        wanted = content_words(claim)
        date = max(found, key=lambda candidate: len(wanted & candidate[1]))[0]  # the first of the closest
        shown.append(f"“{match[2]}” → “{date}”")
        if re.search(r"\d", date[:-4]):  # a day before the year: "on May 28, 1937", not "in"
            return ("On " if match[1][0].isupper() else "on ") + date
        return f"{match[1]} {date}"

    version = _IN_YEAR.sub(dated, _APPROXIMATE.sub(approximation, _DURATION.sub(duration, claim)))
    return (version, shown) if shown else None
