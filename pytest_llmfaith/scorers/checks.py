"""Checks on what the judge returns, so that a misbehaving judge can never turn into a pass.

Claims not taken from the output are dropped and uncovered sentences become claims; the other
checks raise ValueError, whose text the judge's bounded re-ask loop sends back to the judge.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any, NamedTuple

from pytest_llmfaith.scorers.coverage import UnitIndex, uncovered, without_repeats
from pytest_llmfaith.scorers.facts import is_non_fact, states_facts
from pytest_llmfaith.text.align import changes
from pytest_llmfaith.text.language import (
    canonical_number,
    carried,
    clauses,
    is_fragment,
    language_of,
    markers,
    names,
    numbers,
    qualified_numbers,
    units,
)
from pytest_llmfaith.text.names import states_anchors
from pytest_llmfaith.text.profiles import ENGLISH, Language
from pytest_llmfaith.text.scripts import same_writing
from pytest_llmfaith.text.sentences import sentences

__all__ = ["canonical_number", "clauses", "is_fragment", "numbers", "qualified_numbers", "sentences"]

def normalise(text: str) -> str:
    """Case, spacing, quotes and end punctuation do not make two statements different."""
    return " ".join(re.findall(r"\w+(?:[.,:]\w+)*", text.lower()))


def distinct(claims: Sequence[str]) -> list[str]:
    """The claims without blanks and without repeats (a repeated claim would count twice)."""
    seen: set[str] = set()
    kept = []
    for claim in (c.strip() for c in claims):
        key = normalise(claim)
        if key and key not in seen:
            seen.add(key)
            kept.append(claim)
    return kept


_PRONOUNS = re.compile(r"\b(he|him|his|himself|she|her|hers|herself)\b", re.IGNORECASE)


def pronouns(text: str, lang: Language = ENGLISH) -> set[str]:
    """A swapped pronoun ("her" for "his") shares every content word, so it is checked apart.
    English only (German "sie" is both "she" and "they")."""
    return {p.lower() for p in _PRONOUNS.findall(text)} if lang is ENGLISH else set()


class _Clause(NamedTuple):
    units: frozenset[str]
    markers: frozenset[str]
    sentence_markers: frozenset[str]


class _Signs(NamedTuple):
    lang: Language
    words: frozenset[str]
    numbers: frozenset[str]
    qualified: frozenset[tuple[str, str]]
    pronouns: frozenset[str]
    clauses: tuple[_Clause, ...]
    clause_index: UnitIndex


@lru_cache(maxsize=32)
def _signs(output: str) -> _Signs:
    """What claims are checked against, read once per output, not once per claim."""
    lang = language_of(output)
    found = []
    for sentence in sentences(output):
        said = markers(sentence, lang)
        found += [_Clause(units(c, lang), markers(c, lang), said) for c in clauses(sentence, lang)]
    return _Signs(lang, units(output, lang), numbers(output, lang),
                  qualified_numbers(output, lang), frozenset(pronouns(output, lang)), tuple(found),
                  UnitIndex([c.units for c in found]))


def _restated_clause(claim_units: frozenset[str], claim_markers: frozenset[str], said: _Signs) -> _Clause | None:
    """The output's clause a claim restates: the one sharing most of its units (on a tie, one
    whose negation and comparisons the claim keeps)."""
    found = [said.clauses[i] for i in sorted(said.clause_index.candidates(claim_units))]
    best = max(found, default=None, key=lambda c: (len(c.units & claim_units), c.markers <= claim_markers))
    return best if best is not None and best.units & claim_units else None


def _changed_markers(claim: str, said: _Signs) -> list[str]:
    """The negations and comparisons a claim adds to, or removes from, the clause it restates:
    "does not employ 40 people" or "employs 40 people or more" for "employs 40 people"."""
    claim_units, claim_markers = units(claim, said.lang), markers(claim, said.lang)
    source = _restated_clause(claim_units, claim_markers, said)
    if source is None:
        return []
    added = claim_markers - source.sentence_markers
    removed = source.markers - claim_markers
    return [f"adds “{m}”" for m in sorted(added)] + [f"leaves out “{m}”" for m in sorted(removed)]


def check_claim(claim: str, output: str) -> None:
    """Raise unless the claim's numbers, qualifiers, negations, pronouns and most of its words are the output's."""
    said = _signs(output)
    lang = said.lang
    if not same_writing(claim, output):
        raise ValueError(f"the claim {claim!r} is not taken from the OUTPUT: the OUTPUT is written in "
                         f"{lang.name}; list its claims in its own language and words")
    missing = sorted(numbers(claim, lang) - said.numbers)
    if missing:
        raise ValueError(f"the claim {claim!r} is not taken from the OUTPUT: it has {', '.join(missing)}, "
                         "which the OUTPUT does not say; list only claims the OUTPUT makes, with its own "
                         "numbers and dates")
    regendered = sorted(pronouns(claim, lang) - said.pronouns)
    if regendered:
        raise ValueError(f"the claim {claim!r} is not taken from the OUTPUT: it says {', '.join(regendered)}, "
                         "which the OUTPUT never does; keep the OUTPUT's own he, she, his and her")
    requalified = sorted(f"{q} {n}".strip() for q, n in qualified_numbers(claim, lang) - said.qualified)
    if requalified:
        raise ValueError(f"the claim {claim!r} is not taken from the OUTPUT: it says {', '.join(requalified)}, "
                         "which the OUTPUT qualifies otherwise; keep the OUTPUT's own \"exactly\", \"about\", "
                         "\"over\" and \"up to\"")
    changed = _changed_markers(claim, said) or changes(claim, output)
    if changed:
        raise ValueError(f"the claim {claim!r} is not taken from the OUTPUT: it {' and '.join(changed)}, "
                         "which changes what the OUTPUT says; keep the OUTPUT's own words next to its numbers, its "
                         "negations and its comparisons")
    words = units(claim, lang)
    if words and len(words & said.words) / len(words) < lang.min_shared:
        raise ValueError(f"the claim {claim!r} is not taken from the OUTPUT; list only claims the "
                         "OUTPUT makes, in its own words, never facts from elsewhere")


class ClaimsCheck:
    """An empty list for a factual output is re-asked once (cached ones too: a judge that failed
    once is not trusted forever). A claim not from the output is dropped, not re-asked, so the
    answer stays cacheable; its sentence is judged in the output's words."""

    def __init__(self, output: str, reask_empty: bool = True) -> None:
        self.output = output
        self.language = language_of(output)
        self.reask_empty = reask_empty and states_facts(output)

    def __call__(self, answer: Any) -> None:
        if not distinct(answer.claims) and self.reask_empty:
            self.reask_empty = False
            raise ValueError('the OUTPUT states facts but "claims" is empty; list each factual claim '
                             "it makes (an empty list only if it makes none)")

    def from_output(self, claim: str) -> bool:
        try:
            check_claim(claim, self.output)
        except ValueError:
            return False
        return not is_fragment(claim, self.language) and not is_non_fact(claim, self.language)

    def claims(self, answered: Sequence[str]) -> list[str]:
        """The judge's claims that are the output's, each fact once, then every uncovered sentence.
        Where no refusal patterns are listed (any language but English), the judge's own answer of
        no claims counts for an output that gives no number and no name: a refusal or a greeting."""
        if not distinct(answered) and self.language is not ENGLISH and not states_anchors(self.output):
            return []
        kept = without_repeats([c for c in distinct(answered) if self.from_output(c)], self.output)
        return kept + uncovered(self.output, kept)


def _statement_differs(statement: str, claim: str, lang: Language) -> bool:
    """"400 people" is another claim than "40 people", however close the words."""
    said = units(statement, lang)
    return (numbers(statement, lang) != numbers(claim, lang) or markers(statement, lang) != markers(claim, lang)
            or not all(carried(n, said, lang) for n in names(claim, lang, first=True)))


def same_statements(claims: Sequence[str]) -> Callable[[Any], None]:
    """Verdicts match claims by position, so each echoed statement must be its own claim (empty is
    allowed: one-claim-per-call answers do not echo it)."""
    keys = [normalise(c) for c in claims]
    lang = language_of(" ".join(claims))
    read = [units(c, lang) for c in claims]

    def closeness(statement: frozenset[str], i: int) -> float:
        return len(statement & read[i]) / max(len(statement | read[i]), 1)

    def check(answer: Any) -> None:
        verdicts = answer.verdicts
        if len(verdicts) != len(claims):
            raise ValueError(f"expected exactly {len(claims)} verdicts (one per claim, in order), got {len(verdicts)}")
        for i, verdict in enumerate(verdicts):
            said = normalise(verdict.statement)
            if not said or said == keys[i]:
                continue
            statement = units(verdict.statement, lang)
            scores = [closeness(statement, j) for j in range(len(claims))]
            if (scores[i] < 0.5 or any(s >= scores[i] for j, s in enumerate(scores) if j != i)
                    or _statement_differs(verdict.statement, claims[i], lang)):
                raise ValueError(f"verdict {i + 1} is about {verdict.statement!r}, but claim {i + 1} is "
                                 f"{claims[i]!r}: give one verdict per claim, in the order given, "
                                 "copying each claim into \"statement\"")

    return check
