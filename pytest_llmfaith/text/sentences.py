"""Sentences and list items. A period ends a sentence unless it ends an abbreviation: a dotted one
("U.S.", "e.g.", "z.B."), an initial ("J. Smith"), a day before its month ("am 12. Juni"), one
followed by a lower-case word ("approx. five") in a text that starts its sentences with a capital
(a lower-cased text does not: "the cat sat. the dog ran." is two), or a title before a name
or a number (listed per script, to tolerate: "Dr. Tanaka", "kl. 17.30")."""

from __future__ import annotations

from functools import lru_cache

import regex

from pytest_llmfaith.text.dates import MONTHS

_SPLIT = regex.compile(r"(?<=[.!?؟…])[\"”’')\]»]*\s+|(?<=[。！？])[\"”’'）」』)\]]*\s*")
_BULLET = regex.compile(r"^(?:[-*•・]|\d+[.)])\s+")
_DOTTED = regex.compile(r"(?:^|[\s(])(?:\p{L}{1,2}\.){2,}$|(?:^|[\s(])\p{Lu}\.$")
_TITLES = frozenset("""dr mr mrs ms prof sr jr st mt no nr vs ca approx etc fig vol dept inc ltd co corp
hr fr frau herr mme mlle sra srta dra ing mio mrd tsd kl tel tlf p pp s art ch bzw""".split())
"""Words that end in a period before a name, a scale's unit ("2,5 Mrd. Euro") or a number ("kl. 17.30",
"ca. 5 Uhr", "S. 12", "Tel. 555 1234")."""
_LAST_WORD = regex.compile(r"(\p{L}+)\.$")
_DAY_OF_MONTH = regex.compile(r"(?:^|\s)[0-3]?\d\.$")
_FIRST_WORD = regex.compile(r"\p{L}+")
_MARKUP = regex.compile(r"(?:`{3,}|~{3,})[\w+#.-]*|\|?(?:\s*:?-+:?\s*\|)+(?:\s*:?-+:?)?|(?:[-*_]\s*){3,}")
"""A Markdown line that only marks up: a code fence with its language, a table's rule, a horizontal rule."""


@lru_cache(maxsize=512)  # every check reads the output's sentences
def sentences(text: str) -> tuple[str, ...]:
    """Sentences and list items, without their bullets: ". ! ?" before a space, "。！？" anywhere.
    A line that only marks up (`_MARKUP`) is none: "```json" states nothing to judge."""
    found: list[str] = []
    first = regex.search(r"\p{L}", text)
    capitalised = first is not None and not first[0].islower()
    for line in text.splitlines():
        if _MARKUP.fullmatch(line.strip()):
            continue
        pieces = [p.strip() for p in _SPLIT.split(_BULLET.sub("", line.strip())) if p.strip()]
        for piece in pieces:
            if found and found[-1] != "\n" and _continues(found[-1], piece, capitalised):
                found[-1] = f"{found[-1]} {piece}"
            else:
                found.append(piece)
        found.append("\n")  # a line break always ends a sentence
    return tuple(s for s in found if s != "\n")


def after_title(before: str) -> bool:
    """Whether the text ends with a title and its period, and spaces ("Dr. ", "kl. "): what follows
    starts no sentence, so its capital is its own ("Dr. Marie Jensen")."""
    last = _LAST_WORD.search(before.rstrip())
    return last is not None and last[1].casefold() in _TITLES


def _continues(before: str, after: str, capitalised: bool) -> bool:
    """Whether the period ending `before` ends an abbreviation rather than the sentence."""
    if not before.endswith("."):
        return False
    if _DOTTED.search(before) or (capitalised and after[:1].islower()):
        return True
    if _DAY_OF_MONTH.search(before) and (month := _FIRST_WORD.match(after)) and month[0].casefold() in MONTHS:
        return True  # a day written as an ordinal: "am 12. Juni", "den 3. Mai"
    return after_title(before) and (after[:1].isupper() or after[:1].isdigit())
