"""Where a verdict's words sit in the output and the sentence it rests on in the context, for the
review page: found exactly, never guessed.

A verdict carries the output's own words it is about (`Verdict.words`, verbatim) and the context
sentence it rests on (`Verdict.evidence`, verbatim). Both are found by exact search after the
folding the scorer compares with: Unicode NFKC, case, any run of white space as one space, one
form of each quote mark and dash. A quote of several stretches ("Acme … in Oslo") marks each
stretch. Nothing found, or nothing given: nothing is marked, and the page says so.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from functools import lru_cache

import regex

Span = tuple[int, int]  # character offsets of the original text, end excluded

_SAME_MARKS = str.maketrans({"’": "'", "‘": "'", "ʼ": "'", "`": "'", "´": "'", "“": '"', "”": '"', "„": '"',
                             "«": '"', "»": '"', "‐": "-", "‑": "-", "–": "-", "—": "-"})
_ELLIPSIS = regex.compile(r"\s*(?:…|\.\.\.)\s*")
_EDGES = " \t\n.,;:!?。、，！？؟\"'()[]「」"  # a stretch may be quoted with or without them


@lru_cache(maxsize=1024)
def folded(text: str) -> tuple[str, tuple[int, ...]]:
    """The text as compared, and for each of its characters the offset in `text` it came from."""
    out: list[str] = []
    where: list[int] = []
    for i, char in enumerate(text):
        for piece in unicodedata.normalize("NFKC", char).casefold().translate(_SAME_MARKS):
            if piece.isspace():
                if not out or out[-1] == " ":
                    continue
                piece = " "
            out.append(piece)
            where.append(i)
    return "".join(out), tuple(where)


def _fold(text: str) -> str:
    return folded(text)[0].strip()


def locate(words: str, text: str, start: int = 0) -> list[Span]:
    """Where `text` says `words` (at or after the character `start`): its span, or one span per
    stretch of a quote with an ellipsis (each after the one before); [] if any part is not there."""
    body, where = folded(text)
    begin = next((k for k, offset in enumerate(where) if offset >= start), len(body))
    wholes = [w for w in (_fold(words), _fold(words.strip(_EDGES))) if w and body.find(w, begin) >= 0]
    parts = wholes[:1] or [_fold(p.strip(_EDGES)) for p in _ELLIPSIS.split(words)]
    spans: list[Span] = []
    for part in parts:
        if not part:
            continue
        at = body.find(part, begin)
        if at < 0:
            return []
        spans.append((where[at], where[at + len(part) - 1] + 1))
        begin = at + len(part)
    return spans


def word_spans(words: Sequence[str], output: str) -> list[Span]:
    """Where the output says each of a verdict's words, in order: each from where the one before
    ended when it is there (a claim's words read in order), else from the output's start; [] when
    any of them is not in the output (nothing is marked at a guess)."""
    spans: list[Span] = []
    for quoted in words:
        if not quoted.strip():
            continue
        found = (locate(quoted, output, spans[-1][1]) if spans else []) or locate(quoted, output)
        if not found:
            return []
        spans += found
    return spans


def evidence_span(evidence: str, context: Sequence[str]) -> tuple[int, int, int] | None:
    """(passage, start, end) of the context sentence a verdict rests on, None when it has none or
    the context does not hold it."""
    if not evidence.strip():
        return None
    for p, passage in enumerate(context):
        found = locate(evidence, passage)
        if found:
            return p, found[0][0], found[-1][1]
    return None
