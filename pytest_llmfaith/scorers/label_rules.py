"""Spec rules a small judge gets wrong and code gets right, for the label verdicts: an amount the
context gives as another number is a contradiction, speculation is never explicit support, and an
evaluation the context does not make is unsupported."""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from pytest_llmfaith.scorers.context_terms import context_language
from pytest_llmfaith.text.language import ascii_digits, language_of, number_spans, qualified_numbers, stem
from pytest_llmfaith.text.profiles import ENGLISH, Language

# English only: evaluative words
_EVALUATIVE = re.compile(
    r"\b(?:the most \w+|best|worst|greatest|(?:leads?|leading|leader) (?:in )?(?:the )?(?:market|industry|field|world)|"
    r"innovative|revolutionary|pioneering|"
    r"pioneers?|history|historic|world-class|renowned|famous|remarkable|outstanding|unprecedented|"
    r"iconic|dominant|dominates?|breakthrough|excellent|amazing|incredible)\b", re.I)
_CURRENCIES = "$€£¥₩"
_NOT_UNITS = frozenset("""a an the and or of to in on at by for with from as is are was were be has have had
which that this it its than then after before per each every since until""".split())


@lru_cache(maxsize=64)
def amounts(text: str, lang: Language | None = None) -> frozenset[tuple[str, str]]:
    """Numbers with what they count ("400 people", "$8", "3,5 Liter", "40명"), in the text's convention.
    Cached: the context is read for every claim."""
    lang = lang or language_of(text)
    digits = ascii_digits(text)
    found = set()
    for start, end, number in number_spans(digits, lang):
        before = digits[max(start - 2, 0):start].strip()[-1:]
        what = before if before and before in _CURRENCIES else _counted_unit(digits[end:], lang)
        if what:
            found.add((number, what))
    return frozenset(found)


def _counted_unit(after: str, lang: Language) -> str:
    """The word after a number; in Chinese, Japanese and Korean the counter written straight after it."""
    match = re.match(r"\s?(%|[^\W\d_]+)", after)
    if match is None:
        return ""
    word = match[1].casefold()
    if lang is ENGLISH:  # as the labelled set was measured: ASCII words, not stemmed
        return word if re.fullmatch(r"%|[a-z]{2,}", word) and word not in _NOT_UNITS else ""
    if lang.unit == "bigram":
        return word[0]
    return "" if word in lang.stopwords else stem(word, lang)


def conflicting_amount(claim: str, context: Sequence[str]) -> str | None:
    """An amount the context gives only as another number of the same thing ("40" for "400 people"):
    a small judge reads the two as the same. Approximate claims are exempt (the spec allows them)."""
    lang = context_language(context)
    said = amounts(" ".join(context), lang)
    approximate = {n for q, n in qualified_numbers(claim, lang) if q in ("about", "over", "under")}
    for number, what in amounts(claim, lang):
        others = sorted(n for n, w in said if w == what and n != number)
        if others and (number, what) not in said and number not in approximate:
            return f"“{_show(number, what)}” where the context says " + ", ".join(f"“{_show(n, what)}”" for n in others)
    return None


def _show(number: str, what: str) -> str:
    if what in _CURRENCIES:
        return f"{what}{number}"
    return f"{number}{what}" if what in ("%", "st", "nd", "rd", "th") or not what.isascii() else f"{number} {what}"


def speculative(claim: str, lang: Language | None = None) -> bool:
    """Read in the context's language: a short claim says too little of its own."""
    lang = lang or language_of(claim)
    return bool(lang.hedges) and re.search("|".join(lang.hedges), claim, re.IGNORECASE) is not None


def unsupported_evaluation(claim: str, context: Sequence[str]) -> str | None:
    """An evaluative phrase of the claim that the context never uses, if any (English text only)."""
    if context_language(context) is not ENGLISH:
        return None
    said = " ".join(context).lower()
    for match in _EVALUATIVE.finditer(claim):
        phrase = match.group(0).lower()
        if re.search(r"\b" + re.escape(phrase.removeprefix("the most ").rstrip("s")), said) is None:
            return match.group(0)
    return None
