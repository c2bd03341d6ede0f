"""Which script a letter is written in, by Unicode's Script property (the `regex` module), after
NFKC, so "ª" is Latin and "𝐀" is "A"; and which script a text is mainly written in."""

from __future__ import annotations

import unicodedata
from collections import Counter
from functools import lru_cache

import regex

# Unicode's scripts of living languages; a letter of another script falls back to its name's first word.
_SCRIPTS = ("Latin", "Cyrillic", "Greek", "Armenian", "Georgian", "Hebrew", "Arabic", "Syriac", "Thaana",
            "Devanagari", "Bengali", "Gurmukhi", "Gujarati", "Oriya", "Tamil", "Telugu", "Kannada", "Malayalam",
            "Sinhala", "Thai", "Lao", "Tibetan", "Myanmar", "Khmer", "Mongolian", "Ethiopic", "Cherokee",
            "Hangul", "Hiragana", "Katakana", "Han", "Bopomofo", "Yi", "Tifinagh", "Javanese", "Balinese")
_BY_SCRIPT = regex.compile("|".join(f"(?P<{name}>\\p{{Script={name}}})" for name in _SCRIPTS))
SPACELESS = frozenset({"HAN", "HIRAGANA", "KATAKANA", "THAI", "LAO", "KHMER", "MYANMAR", "TIBETAN"})
"""Scripts written without spaces between words: compared letter by letter."""
_SYLLABIC = SPACELESS | {"HANGUL"}
"""A letter of these carries about as much as three Latin ones (a syllable, a word)."""


@lru_cache(maxsize=8192)
def script_of(char: str) -> str | None:
    """The script of a letter in upper case ("LATIN", "HAN", "HIRAGANA"...), None for a non-letter."""
    folded = unicodedata.normalize("NFKC", char)[:1]
    if not folded.isalpha():
        return None
    match = _BY_SCRIPT.match(folded)
    if match is not None and match.lastgroup:
        return str(match.lastgroup).upper()
    name = unicodedata.name(folded, "").split(" ")
    return name[0].split("-")[0] or None


def script_counts(text: str) -> Counter[str]:
    """Letters per script, a syllable or ideograph weighing three Latin letters."""
    counts: Counter[str] = Counter()
    for char in text:
        script = script_of(char)
        if script:
            counts[script] += 3 if script in _SYLLABIC else 1
    return counts


@lru_cache(maxsize=1024)
def main_script(text: str) -> str | None:
    """The script most of `text` is written in. Latin words inside another script's sentence are
    names ("AquaBrew Mini" in Japanese), so Latin wins only over less than its own weight."""
    counts = script_counts(text)
    if not counts:
        return None
    top = counts.most_common(1)[0][0]
    if top == "LATIN":
        others = [(n, s) for s, n in counts.items() if s != "LATIN"]
        if others and max(others)[0] * 2 >= counts["LATIN"]:
            return max(others)[1]
    return top


def same_writing(a: str, b: str) -> bool:
    """Whether two texts are written in one script (kanji and kana are one writing)."""
    def family(text: str) -> str | None:
        script = main_script(text)
        return "HAN" if script in ("HIRAGANA", "KATAKANA") else script
    first, second = family(a), family(b)
    return first is None or second is None or first == second
