"""How a text is read for the claim checks in any language: sentences, comparison units, numbers, markers.

Each language is compared by what is stable in it (English stemmed words, other alphabets
trigrams, spaceless scripts and Korean bigrams); word lists apply only to their own language,
never English rules elsewhere. Why: docs/languages.md.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from functools import lru_cache

from pytest_llmfaith.text.profiles import (
    ARABIC,
    CHINESE,
    ENGLISH,
    HEBREW,
    JAPANESE,
    KOREAN,
    LISTED,
    Language,
    by_script,
    named,
)
from pytest_llmfaith.text.scripts import main_script, script_counts
from pytest_llmfaith.text.sentences import sentences

_read_once = lru_cache(maxsize=512)
"""For what reads a text: an assertion's checks read its output and claims again and again (hence
immutable results); a run reads thousands of texts (hence a bound)."""

SHORT = 7
"""Longer ASCII text without any listed function word is not read as English: such English hardly occurs."""


FUNCTION_SHARE = 0.1
"""Minimum share of function words: one "on" in fourteen Finnish words does not make it English."""


@lru_cache(maxsize=256)
def language_of(text: str) -> Language:
    """The language whose rules read `text`: by its main script, then (Latin) by function words."""
    scripts = script_counts(text)
    main = main_script(text)
    if main is None:
        return ENGLISH
    if main in ("HAN", "HIRAGANA", "KATAKANA") and scripts["HIRAGANA"] + scripts["KATAKANA"]:
        return JAPANESE  # kanji with kana; kanji alone are Chinese
    if main in ("HAN", "HANGUL", "ARABIC", "HEBREW"):
        return {"HAN": CHINESE, "HANGUL": KOREAN, "ARABIC": ARABIC, "HEBREW": HEBREW}[main]
    return _latin_language(text) if main == "LATIN" else by_script(main)


def _latin_language(text: str) -> Language:
    """By function words; Latin text with too few (Turkish, Finnish...) gets no lists, never English ones."""
    words = Counter(w for w in re.findall(r"[^\W\d_]+", text.casefold()) if len(w) > 1)  # not "i" of "İ"
    hits = {lang.code: sum(n / _sharing(w) for w, n in words.items() if w in lang.stopwords) for lang in LISTED}
    short = sum(words.values()) <= SHORT
    if not any(hits.values()) and short:  # "Nordlicht beschäftigt 40 Mitarbeiter."
        hits = {lang.code: sum(n for w, n in words.items() if set(w) & set(lang.letters)) for lang in LISTED}
    best = max(hits, key=lambda code: (hits[code], code == "en"))
    if hits[best] == 0:  # "Acme employs 40 people.": too short to lack English function words by chance
        return ENGLISH if text.isascii() and short else by_script("LATIN")
    if not short and hits[best] < FUNCTION_SHARE * sum(words.values()):  # Finnish "on" is not English
        return by_script("LATIN")
    return ENGLISH if hits["en"] >= hits[best] else named(best)


@lru_cache(maxsize=4096)
def _sharing(word: str) -> int:
    """How many listed languages have `word` as a function word: "la" counts half for Spanish and French."""
    return sum(word in lang.stopwords for lang in LISTED)


# -- numbers --------------------------------------------------------------------------------
_GROUP_SPACE = "\u00a0\u202f\u2009"  # no-break, narrow no-break and thin spaces group digits anywhere
_DOT_DECIMAL = re.compile(rf"\d{{1,3}}(?:[,{_GROUP_SPACE}]\d{{3}}(?!\d))+(?:\.\d+)?|\d+(?:\.\d+)?")
_COMMA_DECIMAL = re.compile(rf"\d{{1,3}}(?:[. {_GROUP_SPACE}]\d{{3}}(?![\d,.]\d))+(?:,\d+)?|\d+(?:[,.]\d+)?")


@lru_cache(maxsize=1024)
def ascii_digits(text: str) -> str:
    """Full-width (１２３) and other scripts' digits (٣) as ASCII, the Arabic separators as . and ,."""
    text = unicodedata.normalize("NFKC", text).replace("\u066b", ".").replace("\u066c", ",")
    if text.isascii():
        return text
    return "".join(str(unicodedata.decimal(c)) if c.isdecimal() and not c.isascii() else c for c in text)


def number_pattern(lang: Language) -> re.Pattern[str]:
    return _COMMA_DECIMAL if lang.decimal_comma else _DOT_DECIMAL


@lru_cache(maxsize=4096)
def canonical_number(raw: str, lang: Language = ENGLISH) -> str:
    """One spelling per value in the text's convention: "1,200" (English) and "1.200" (German) are
    "1200", "3,5" (German) is "3.5", "007" is "7"."""
    value = re.sub(f"[{_GROUP_SPACE} ]", "", raw)
    if lang.decimal_comma:
        grouped = re.fullmatch(r"\d{1,3}(?:\.\d{3})+(?:,\d+)?", value)
        value = value.replace(".", "") if grouped else value
        value = value.replace(",", ".")
    else:
        value = value.replace(",", "")
    if "." in value:
        value = value.rstrip("0").rstrip(".")
    return re.sub(r"^0+(?=\d)", "", value)


def number_spans(text: str, lang: Language) -> list[tuple[int, int, str]]:
    """Each number of `text` (ASCII digits) with where it is and its canonical value."""
    return [(m.start(), m.end(), canonical_number(m[0], lang)) for m in number_pattern(lang).finditer(text)]


@_read_once
def numbers(text: str, lang: Language | None = None) -> frozenset[str]:
    """One canonical form per number, amount and date ("1,200" = "1200.0", "fifth" = "5th")."""
    lang = lang or language_of(text)
    digits = ascii_digits(text)
    found = {value for _, _, value in number_spans(digits, lang)}
    if lang.number_words or lang.months:
        words = re.findall(r"[^\W\d_]+", digits.casefold())
        found |= {lang.number_words[w] for w in words if w in lang.number_words}
        found |= {lang.months[w] for w in words if w in lang.months}
    return frozenset(found)


# -- units of comparison --------------------------------------------------------------------
_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?")


def stem(word: str, lang: Language) -> str:
    """The word without one inflection of its language's list ("widgets" -> "widget")."""
    for suffix in lang.suffixes:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word


def grams(text: str, n: int) -> set[str]:
    return {text} if len(text) <= n else {text[i:i + n] for i in range(len(text) - n + 1)}


def _strip_particle(word: str, lang: Language) -> str:
    for particle in lang.particles:
        if word.endswith(particle) and len(word) > len(particle):
            return word[: -len(particle)]
    return word


def gram_size(lang: Language) -> int:
    """The length of the character n-grams an n-gram language is compared by (0: words)."""
    return {"trigram": 3, "bigram": 2}.get(lang.unit, 0)


def compared_form(word: str, lang: Language) -> str:
    """A word as its n-grams are taken from: lower case, without its Korean particle."""
    word = word.casefold()
    return _strip_particle(word, lang) if lang.unit == "bigram" else word


def head(word: str, lang: Language) -> str:
    """The first n-1 letters, which a changed ending leaves alone; a Hangul syllable loses its final
    consonant, which conjugation changes (합니다 / 한다)."""
    first = compared_form(word, lang)[: gram_size(lang) - 1]
    return "".join(chr(0xAC00 + (ord(c) - 0xAC00) // 28 * 28) if "\uac00" <= c <= "\ud7a3" else c for c in first)


def word_units(word: str, lang: Language, every_word: bool = False) -> set[str]:
    """The units one word (or, in a spaceless script, one run of letters) is compared by; none for
    a function word unless `every_word`."""
    if word.casefold() in lang.stopwords and not every_word:
        return set()
    if lang.unit == "word":
        return {stem(word.casefold(), lang)}
    return grams(compared_form(word, lang), gram_size(lang))


@_read_once
def words(text: str, lang: Language) -> tuple[str, ...]:
    """The words of `text`; in a spaceless script, the runs of letters between its particles."""
    found = _WORD.findall(ascii_digits(text))
    if lang is not ENGLISH:  # elision: "l'entreprise" is "entreprise" (English keeps "it's" whole)
        found = [part for w in found for part in re.split("['’]", w) if part]
    if lang.spaced or not lang.function_chars:
        return tuple(found)
    return tuple(part for w in found for part in re.split(f"[{re.escape(lang.function_chars)}]+", w) if part)


@_read_once
def units(text: str, lang: Language | None = None, every_word: bool = False) -> frozenset[str]:
    """Comparable units with numbers; `every_word` keeps function words ("Company A" vs "Company B")."""
    lang = lang or language_of(text)
    found: set[str] = set()
    for word in words(text, lang):
        found |= word_units(word, lang, every_word)
    return frozenset(found | numbers(text, lang))


def carried(word: str, have: set[str] | frozenset[str], lang: Language) -> bool:
    """Most units suffice in n-gram languages: a compound spelled out loses the trigrams at its joins."""
    wanted = word_units(word, lang)
    if not wanted:
        return True
    share = len(wanted & have) / len(wanted)
    return share >= (1.0 if lang.unit == "word" else 0.75)


def names(text: str, lang: Language, first: bool = False) -> list[str]:
    """Capitalised words; a sentence's first word only if `first`, as it is capitalised anyway."""
    found = []
    for sentence in sentences(text):
        found += [w for w in words(sentence, lang)[0 if first else 1:]
                  if w[:1].isupper() and w.casefold() not in lang.stopwords]
    return found


# -- negation and comparison markers ----------------------------------------------------------
@lru_cache(maxsize=64)
def _marker_patterns(lang: Language) -> tuple[re.Pattern[str] | None, re.Pattern[str] | None,
                                               re.Pattern[str] | None]:
    def alternatives(phrases: list[str]) -> str:
        return "|".join(re.escape(p) for p in sorted(phrases, key=len, reverse=True))

    negation = re.compile("|".join(lang.negations), re.IGNORECASE) if lang.negations else None
    start = r"(?<!\w)" if lang.spaced else ""  # spaceless scripts write "は約300人"
    before = re.compile(rf"{start}({alternatives(list(lang.comparisons))})\s*[$€£¥₩]?\s*(?=\d)",
                        re.IGNORECASE) if lang.comparisons else None
    after = re.compile(rf"\d[^\W\d]{{0,3}}\s*[%]?\s*(?:[^\W\d]+\s+)?({alternatives(list(lang.after_number))})",
                       re.IGNORECASE) if lang.after_number else None
    return negation, before, after


@_read_once
def markers(text: str, lang: Language | None = None) -> frozenset[str]:
    """Negation and comparisons: "does not employ 40" says otherwise than "employs 40" with the same words."""
    lang = lang or language_of(text)
    negation, before, after = _marker_patterns(lang)
    digits = ascii_digits(text)
    found = {"not"} if negation and negation.search(digits) else set()
    if before:
        found |= {lang.comparisons[m.lower()] for m in before.findall(digits)}
    if after:
        found |= {lang.after_number[m.lower()] for m in after.findall(digits)}
    return frozenset(found)


@_read_once
def qualified_numbers(text: str, lang: Language | None = None) -> frozenset[tuple[str, str]]:
    """(qualifier, number) pairs: "about 1,200" is ("about", "1200"), a bare 2004 is ("", "2004")."""
    lang = lang or language_of(text)
    digits = ascii_digits(text)
    _, before, _ = _marker_patterns(lang)
    qualified = {m.end(): lang.comparisons[m[1].lower()] for m in before.finditer(digits)} if before else {}
    return frozenset((qualified.get(start, ""), value) for start, _, value in number_spans(digits, lang))


_CLAUSE_MARKS = r"[;()，、；：（）،؛]|(?<!\d)[,:]|[,:](?!\d)"  # not inside "1,200", "3,5" or "9:00"


@lru_cache(maxsize=64)
def _clause_pattern(lang: Language) -> re.Pattern[str]:
    words = "|".join(re.escape(w) for w in lang.conjunctions)
    breaks = [_CLAUSE_MARKS, *([rf"\s(?:{words})\s"] if words else []), *lang.clause_breaks]
    return re.compile("|".join(breaks), re.IGNORECASE)


@_read_once
def clauses(sentence: str, lang: Language | None = None) -> tuple[str, ...]:
    """A sentence's clauses: split at commas and the like, and before its language's conjunctions."""
    lang = lang or language_of(sentence)
    return tuple(part for part in _clause_pattern(lang).split(sentence) if part and part.strip())


def is_fragment(claim: str, lang: Language) -> bool:
    """'Hourglass', 'January 23, 2019', '東京': too short to be true or false on its own."""
    if lang.spaced:
        return len(claim.split()) < lang.min_words
    return sum(c.isalnum() for c in claim) < 4
