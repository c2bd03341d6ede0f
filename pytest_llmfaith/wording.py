"""Words every report shares: counts with the right plural, and what a built-in scorer's verdict
means for the claim. One place, so the failure message, the regression listing and the summary
read the same way for both scorers (a hallucination verdict "yes" is a claim that is wrong).
Stdlib only: the summary imports it at the end of every run.
"""

from __future__ import annotations

import unicodedata

# what a verdict says about the claim, by scorer; a ✗ is a claim that makes the score worse
FINDINGS: dict[str, dict[str, str]] = {
    "faithfulness": {"yes": "supported", "no": "contradicted", "unsure": "not in the context"},
    "hallucination": {"no": "supported", "yes": "not supported"},
}


def plural(count: int, word: str) -> str:
    """`1 entry`, `2 entries`, `0 tests`: the count and its noun, which agree."""
    if count == 1:
        return f"{count} {word}"
    consonant_y = word.endswith("y") and word[-2:-1] not in ("a", "e", "i", "o", "u")
    return f"{count} {word[:-1] + 'ies' if consonant_y else word + 's'}"


def finding(scorer: str, verdict: str) -> str:
    """What the verdict says about the claim ("contradicted"), or the raw verdict of a scorer
    whose labels this plugin cannot read (a registered one)."""
    return FINDINGS.get(scorer, {}).get(verdict, verdict)


def claim_mark(scorer: str, verdict: str, bad: bool) -> str:
    """`✗ contradicted`, `✓ supported`: the mark and the words agree, whichever the direction."""
    return f"{'✗' if bad else '✓'} {finding(scorer, verdict)}"


def unstable_advice(votes: int) -> str:
    """What to do about an UNSTABLE score, which the summary and the failure message both say."""
    return (f"Fix: raise --llm-judge-votes (now {votes}) so that a close call settles, use a stronger judge "
            "(--llm-judge-model), or move the threshold away from the score if the close call is fine; "
            "docs/reading-results.md has more.")


def unstable_summary(count: int, votes: int) -> str:
    """The summary's line on UNSTABLE scores: what it means, then what to do."""
    return (f"llmfaith: {plural(count, 'score')} UNSTABLE: the judge's votes on a claim split, and the "
            f"minority would flip pass/fail; the majority decided. {unstable_advice(votes)}")


def width(text: str) -> int:
    """Columns a terminal gives `text`: two for a wide letter (田, 한), none for a combining mark."""
    return sum(0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in "WF" else 1
               for c in text)


_QUOTES = {"“": "”", "«": "»", "„": "“", "「": "」"}
QUOTE_ROOM = 24  # the fewest columns a quote keeps when a line is cut: never one word of it


def shorten(text: str, limit: int = 160) -> str:
    """Text as a line quotes it: whole, or cut to `limit` columns with an ellipsis, at the last
    space, punctuation or change of script before the limit ("田中さくら…", not "田中さく…"),
    unless that would drop more than half of what fits. A quote (“…”) in it is cut first, to the
    width the rest leaves it, and closed, so the words after it stay; when the rest leaves it
    less than QUOTE_ROOM columns, the line is cut before the quote instead of inside it."""
    if width(text) <= limit:
        return text
    start = max((text.rfind(mark) for mark in _QUOTES), default=-1)
    end = text.find(_QUOTES[text[start]], start + 1) if start >= 0 else -1
    if start >= 0 and end > start:
        body = text[start + 1:end]
        room = limit - (width(text) - width(body))
        if room >= min(QUOTE_ROOM, width(body)):
            return text[:start + 1] + _cut(body, room) + text[end:]
        if width(text[:start].rstrip()) < limit and start * 2 >= limit:  # before the quote, not one word of it
            return text[:start].rstrip() + "…"
    return _cut(text, limit)


def _cut(text: str, limit: int) -> str:
    if width(text) <= limit:
        return text
    used = end = 0
    while used + width(text[end]) <= limit - 1:  # the text is wider than `limit`: this stops
        used += width(text[end])
        end += 1
    cut = end
    while cut > 0 and not _boundary(text[cut - 1], text[cut]):
        cut -= 1
    kept = text[: cut if cut * 2 >= end else end].rstrip()
    return kept + "…"


def _boundary(before: str, after: str) -> bool:
    """A place a quote may end: before a space or punctuation, or where the script changes."""
    if after.isspace() or unicodedata.category(after).startswith("P"):
        return True
    scripts = {"digit" if c.isdigit() else unicodedata.name(c, "?").split(" ")[0] for c in (before, after)}
    return before.isalnum() and after.isalnum() and len(scripts) == 2


def error_line(message: str) -> str:
    """An error on one line: its first line, shortened, and its last one whole, so a message that
    ends with the command to run ("... with:\n    python -m pytest_llmfaith local install") ends with it."""
    first, *rest = message.strip().splitlines() or [""]
    last = rest[-1].strip() if rest else ""
    return shorten(first, 300) + (f" {last}" if last else "")
