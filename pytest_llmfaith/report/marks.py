"""Where a verdict's words sit in the output and the sentence it rests on in the context, for the
review page: found exactly, never guessed.

A verdict carries the output's own words it is about (`Verdict.words`, verbatim) and the context
sentence it rests on (`Verdict.evidence`, verbatim). Both are found by exact search after the
folding the scorer compares with: Unicode NFKC, case, any run of white space as one space, one
form of each quote mark and dash. A quote of several stretches ("Acme … in Oslo") marks each
stretch. Nothing found, or nothing given: nothing is marked, and the page says so.
"""

from __future__ import annotations

from collections.abc import Sequence

from pytest_llmfaith.text.exact import locate

Span = tuple[int, int]  # character offsets of the original text, end excluded


def word_spans(words: Sequence[str], output: str) -> list[Span]:
    """Where the output says each of a verdict's words, in order: each from where the one before
    ended when it is there (a claim's words read in order), else from the output's start; [] when
    any of them is not in the output (nothing is marked at a guess)."""
    spans: list[Span] = []
    for quoted in words:
        if not quoted.strip():
            continue
        found = (locate(quoted, output, spans[-1][1]) if spans else None) or locate(quoted, output)
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
        found = locate(evidence, passage) or []
        if found:
            return p, found[0][0], found[-1][1]
    return None
