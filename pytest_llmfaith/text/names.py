"""Names a claim gives (a product, a person, a place) that its context never does. A small judge
calls "AquaBrew Mini" supported by a context about the "AquaBrew Pro"; code does not."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from pytest_llmfaith.text.align import Unit, grams_of, read_units, same, spelled_in
from pytest_llmfaith.text.language import language_of
from pytest_llmfaith.text.profiles import Language
from pytest_llmfaith.text.scripts import script_of
from pytest_llmfaith.text.sentences import sentences

COMPOUND_PART = 5
"""Letters from which a name found inside a longer word of the context counts as given ("Crunch")."""


@lru_cache(maxsize=32)
def _context(context: tuple[str, ...]) -> tuple[tuple[Unit, ...], frozenset[str], frozenset[str | None], Language]:
    text = "\n".join(context)
    lang = language_of(text)
    units = tuple(u for s in sentences(text) for u in read_units(s, lang))
    return units, grams_of(units, lang), frozenset(script_of(c) for c in text if c.isalpha()), lang


def missing_names(claim: str, context: Sequence[str]) -> list[str]:
    """The claim's names that the context never gives, in any form its language allows (an
    ending, a compound). A name in a script the context does not use at all is not judged
    (a transliteration): the rule only relaxes where it cannot read."""
    units, found, scripts, lang = _context(tuple(context))
    names = [u for s in sentences(claim) for u in read_units(s, lang) if u.name]
    return list(dict.fromkeys(u.form for u in names if script_of(u.form[0]) in scripts
                              and not any(_carries(o.form, u.form, lang) for o in units)
                              and not spelled_in(u, found, lang)))


def _carries(word: str, name: str, lang: Language) -> bool:
    """The context's word is the name, inflected, or a compound holding it ("TechCrunch", "Tech Crunch")."""
    return same(word, name, lang) or (len(name) >= COMPOUND_PART and name in word)


def states_anchors(text: str) -> bool:
    """Whether a text gives a number or a name: what a refusal or a greeting, in any language, does not."""
    lang = language_of(text)
    return any(u.number or u.name for s in sentences(text) for u in read_units(s, lang))
