"""Words every report shares: counts with the right plural, and what a built-in scorer's verdict
means for the claim. One place, so the failure message, the regression listing and the summary
read the same way for both scorers (a hallucination verdict "yes" is a claim that is wrong).
Stdlib only: the summary imports it at the end of every run.
"""

from __future__ import annotations

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


def shorten(text: str, limit: int = 160) -> str:
    """Text as a line quotes it: whole, or cut to `limit` characters with an ellipsis."""
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"
