"""Is a claim the output's own? Read both as units (words; letters in scripts without spaces) and
compare the claim with the output text it restates: what it adds next to a number, what it drops
from inside a restated clause, which names it brings. No list detects anything here: the
language's lists only tolerate (function words, particles, endings).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import regex

from pytest_llmfaith.text.language import (
    ascii_digits,
    clauses,
    compared_form,
    gram_size,
    grams,
    language_of,
    number_spans,
    stem,
)
from pytest_llmfaith.text.profiles import Language
from pytest_llmfaith.text.scripts import SPACELESS, main_script, script_of
from pytest_llmfaith.text.sentences import sentences

NEAR = 2
"""Units on each side of a number that must stand beside it in the output too ("40+", "upwards of 40")."""
NEAR_LETTERS = 3
"""The same, in letters, for scripts without spaces (40多名, 40人余り)."""
QUANTIFIERS = {"en": ("some", "any", "all", "each", "both", "only", "just", "very", "such", "so", "no")}
"""Words of a function-word list that are not tolerated beside a number: the list tolerates less."""
RESTATED = 0.5
"""A claim restates a clause when it keeps half of its content or more..."""
RESTATED_BELOW_BEST = 0.34
"""...and not much less than of the clause it keeps best: a near-copy of another clause is not restated."""
_PIECE = regex.compile(r"(?P<word>[\p{L}\p{M}]+(?:['’][\p{L}\p{M}]+)?)|(?P<sym>[\p{S}%‰‱#&@*])")


@dataclass(frozen=True)
class Unit:
    form: str  # as compared: case-folded, its particle or inflection taken off
    number: bool = False
    name: bool = False
    glue: bool = False  # a function word or particle the language lists: tolerated when dropped
    capital: bool = False  # written with a capital: a name, or what a pronoun was resolved to


def _negative(lang: Language) -> regex.Pattern[str] | None:
    return regex.compile("|".join(lang.negations), regex.IGNORECASE) if lang.negations else None


@lru_cache(maxsize=64)
def _glue(lang: Language) -> frozenset[str]:
    """What may be dropped or changed unseen: function words and particles, and the words of the
    comparisons the qualifier check compares by kind ("over" = "more than"), never a negation."""
    negative = _negative(lang)
    compared = {w for phrase in (*lang.comparisons, *lang.after_number) for w in phrase.casefold().split()}
    listed = {*lang.stopwords, *lang.function_chars, *compared}
    return frozenset(w for w in listed if negative is None or not negative.search(w))


def _word_units(word: str, lang: Language, first: bool, foreign: bool) -> list[Unit]:
    """One word's units: itself, or each letter in a script without spaces."""
    if script_of(word[0]) in SPACELESS and not foreign:
        return [Unit(c, glue=c in _glue(lang)) for c in word]
    folded = compared_form(word, lang)
    form = stem(folded, lang) if lang.unit == "word" else folded
    inner_capital = any(c.isupper() for c in word[1:])
    capital = word[:1].isupper() and (not first or inner_capital) and len(word) > 1
    name = foreign or (capital and (not lang.noun_capitals or inner_capital))
    number = folded in lang.number_words or folded in lang.months
    return [Unit(form, number=number, name=name and not number, glue=folded in _glue(lang) and not name,
                 capital=word[:1].isupper())]


def _script_runs(word: str) -> list[str]:
    """"AquaBrewはAndroidに" is four words: a change of script ends a word."""
    runs: list[str] = []
    last = None
    for char in word:
        script = script_of(char) or last
        if runs and script == last:
            runs[-1] += char
        else:
            runs.append(char)
        last = script
    return runs


@lru_cache(maxsize=2048)
def read_units(sentence: str, lang: Language) -> tuple[Unit, ...]:
    """A sentence as units, numbers as their value ("1,200" is 1200)."""
    text = ascii_digits(sentence)
    home = main_script(text)
    found: list[Unit] = []
    at = 0
    for start, end, value in [*number_spans(text, lang), (len(text), len(text), "")]:
        for match in _PIECE.finditer(text, at, start):
            if match["sym"]:
                found.append(Unit(match["sym"]))
                continue
            if at and match.start() == at + 1 and text[at] in "'’":
                continue  # an ending written onto a number: Turkish "40'tan"
            if match.start() and text[match.start() - 1] in "'’":
                found.append(Unit(match["word"].casefold(), glue=True))  # split off by a tokeniser: "aoyama 's"
                continue
            for word in _script_runs(match["word"]):
                foreign = home is not None and home != "LATIN" and script_of(word[0]) == "LATIN"
                found += _word_units(word, lang, first=not found, foreign=foreign)
        if value:
            found.append(Unit(value, number=True))
        at = end
    return tuple(found)


def same(a: str, b: str, lang: Language) -> bool:
    """The same word but for an ending the language may change ("Tagen"/"Tag", 합니다/한다)."""
    if a == b:
        return True
    shared = 0
    for x, y in zip(a, b):
        if x != y:
            break
        shared += 1
    least = 2 if script_of(a[:1]) == "HANGUL" else 3
    return shared >= least and max(len(a), len(b)) - shared <= lang.ending


class Forms:
    """Units by the first two letters of their form, which `same` needs alike: a unit is looked
    for among the few that could be it, not all of them, in their order."""

    def __init__(self, units: Sequence[Unit], lang: Language) -> None:
        self.lang = lang
        self._by_start: dict[str, list[tuple[int, str]]] = {}
        for i, unit in enumerate(units):
            self._by_start.setdefault(unit.form[:2], []).append((i, unit.form))

    def find(self, form: str) -> int | None:
        """Where the first unit that is `form` but for an ending stands, if one does."""
        return next((i for i, other in self._by_start.get(form[:2], ()) if same(form, other, self.lang)), None)

    def __contains__(self, unit: Unit) -> bool:
        return self.find(unit.form) is not None


@dataclass(frozen=True)
class Output:
    """An output read once: its sentences and clauses as units."""

    lang: Language
    sentences: tuple[tuple[Unit, ...], ...]
    clauses: tuple[tuple[Unit, ...], ...]
    words: tuple[Unit, ...]
    grams: frozenset[str]  # the n-grams of its words, in an n-gram language
    forms: Forms  # its words, to look a claim's up

    @classmethod
    @lru_cache(maxsize=32)
    def read(cls, text: str) -> Output:
        lang = language_of(text)
        said = sentences(text)
        read = tuple(read_units(s, lang) for s in said)
        words = tuple(u for s in read for u in s)
        return cls(lang, read, tuple(read_units(c, lang) for s in said for c in clauses(s, lang)), words,
                   grams_of(words, lang), Forms(words, lang))


@lru_cache(maxsize=1024)  # both scorers check the same claims of an output
def changes(claim: str, output: str) -> tuple[str, ...]:
    """What makes `claim` not the output's: units added next to a number, units dropped from inside
    a clause it restates, names the output never gives. Empty: the claim restates the output."""
    said = Output.read(output)
    lang = said.lang
    found: list[str] = []
    for sentence in sentences(claim):
        units = read_units(sentence, lang)
        found += _added_near_numbers(units, said, lang)
        found += [f"names “{u.form}”" for u in units if u.name and u not in said.forms
                  and not spelled_in(u, said.grams, lang)]
        found += _dropped(units, said, lang)
    return tuple(dict.fromkeys(found))


def _added_near_numbers(units: tuple[Unit, ...], said: Output, lang: Language) -> list[str]:
    """A unit beside a number of the claim that the output does not have there: in no sentence
    giving that number, nor in the one before it (where "it" of "founded it in 1999" is named)."""
    found = []
    reach = NEAR if lang.spaced else NEAR_LETTERS
    loose = QUANTIFIERS.get(lang.code, ())
    for i, unit in enumerate(units):
        if not unit.number:
            continue
        where = [u for k, s in enumerate(said.sentences) if any(u.number and u.form == unit.form for u in s)
                 for u in (*said.sentences[max(k - 1, 0)], *s)]
        if not where:
            continue  # a number the output lacks is the numbers check's
        beside = Forms(where, lang)
        for near in (*units[max(i - reach, 0):i], *units[i + 1:i + 1 + reach]):
            tolerated = near.number or (near.glue and near.form not in loose)
            if not tolerated and near not in (said.forms if near.capital else beside) \
                    and not any(shortened(near.form, u.form) for u in where):
                found.append(f"adds “{near.form}” next to {unit.form}")
    return found


def shortened(a: str, b: str) -> bool:
    """One word the other's short form, as units beside numbers are written ("ft" for "feet",
    "km" for "kilometres", "hrs" for "hours"): two to four letters, the long one's first among
    them, all of them in its order, but for a plural "s" ("hrs", "mins": an ending, tolerated)."""
    short, long = sorted((a, b), key=len)
    if not 2 <= len(short) <= 4 or len(long) <= len(short) or short[0] != long[0] or not short.isalpha():
        return False
    return _in_order(short, long) or (len(short) > 2 and short.endswith("s") and _in_order(short[:-1], long))


def _in_order(short: str, long: str) -> bool:
    rest = iter(long[1:])
    return all(letter in rest for letter in short[1:])


def _dropped(units: tuple[Unit, ...], said: Output, lang: Language) -> list[str]:
    """Units of a clause the claim restates (it keeps most of the clause's words) that it deletes
    outright: the units it keeps on either side of the gap stand side by side in the claim. "не",
    未 and "không" go that way; a word the claim replaces by another is the other checks' concern,
    and an omitted number is a less precise claim (the spec allows it)."""
    found = []
    claim_grams = grams_of(units, lang)

    kept_forms = Forms(units, lang)

    def place(unit: Unit) -> int | None:  # where the claim keeps an output unit, if it does
        at = kept_forms.find(unit.form)
        if at is not None:
            return at
        return -1 if spelled_in(unit, claim_grams, lang) else None

    placed = [[place(u) for u in clause] for clause in said.clauses]
    shares = [_share(clause, at) for clause, at in zip(said.clauses, placed)]
    best = max(shares, default=0.0)
    for clause, at, share in zip(said.clauses, placed, shares):
        if share < max(RESTATED, best - RESTATED_BELOW_BEST):
            continue
        kept = [i for i, a in enumerate(at) if a is not None and a >= 0]
        for before, after in zip(kept, kept[1:]):
            gap = [u for u in clause[before + 1:after] if not u.glue and not u.number]
            left, right = at[before], at[after]
            assert left is not None and right is not None
            between = units[min(left, right) + 1:max(left, right)]
            if gap and not any(not u.glue for u in between):
                found += [f"leaves out “{u.form}”" for u in gap]
    return found


def grams_of(units: Sequence[Unit], lang: Language) -> frozenset[str]:
    size = gram_size(lang)
    return frozenset(g for u in units for g in grams(u.form, size)) if size else frozenset()


def spelled_in(unit: Unit, found: frozenset[str], lang: Language) -> bool:
    """A compound spelled apart, or two words written as one ("Kundendienstbüro", "Büro für den
    Kundendienst"): most of its n-grams are there, in an n-gram language."""
    size = gram_size(lang)
    own = grams(unit.form, size) if size and len(unit.form) > size else set()
    return bool(own) and len(own & found) >= 0.75 * len(own)


def _share(clause: tuple[Unit, ...], at: list[int | None]) -> float:
    """The share of a clause's content the claim keeps; 0 below two units kept."""
    content = [a is not None for u, a in zip(clause, at) if _content(u)]
    return sum(content) / len(content) if sum(content) >= 2 else 0.0


def _content(unit: Unit) -> bool:
    """What tells a restated clause: numbers, words of two letters or more, letters of a script without spaces."""
    if unit.number or unit.glue or not unit.form[0].isalpha():
        return unit.number
    return len(unit.form) > 1 or script_of(unit.form) in SPACELESS
