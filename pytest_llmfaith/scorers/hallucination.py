"""Hallucination: how much of the output is made up? Lower is better."""

from __future__ import annotations

from typing import Any

from ..results import ScoreResult
from .base import Scorer, listing, verdict_schemas
from .prompts import DATA_RULE

# The judge is asked the positive question, "is the claim backed by the context?", and a claim
# that is not backed is a hallucination (verdict "yes"). Asked directly "is it a hallucination?",
# small models invert the labels: on the labelled set a 1.5B judge got 38/55 claims right that
# way and 51/55 this way (benchmarks/README.md).
_SYSTEM = f"""You decide whether each claim is backed by a CONTEXT.
Use only the CONTEXT. Never use your own knowledge, even when you know a claim is true or false.
"backed": "yes" when the CONTEXT supports the claim. These still count as backed:
- a less precise date (the year where the CONTEXT gives the month or day);
- a reasonable numeric approximation ("about 1,200" where the CONTEXT says 1,234);
- leaving out a detail of the CONTEXT;
- speculative wording ("may", "might") about facts that ARE in the CONTEXT.
"backed": "no" when the claim contradicts the CONTEXT, is not in it, speculates about facts
that are not in it, or is subjective or evaluative ("pioneering", "leading", "made history")
without explicit support in the CONTEXT.
Write a one-sentence reason that quotes or points to the CONTEXT first, then the answer.
{DATA_RULE}"""

_MANY = """{context}

For each claim below, in the same order, say whether the CONTEXT backs it, copying each claim
into "statement".
{claims}

Answer with JSON only:
{{"verdicts": [{{"statement": "<claim>", "reason": "<why>", "backed": "yes" | "no"}}]}}"""

_ONE = """{context}

Is the claim below backed by the CONTEXT above?
{claims}

Answer with JSON only: {{"statement": "<the claim>", "reason": "<why>", "backed": "yes" | "no"}}"""

_REASON = """A hallucination score of {score} (scale 0 to {scale}; higher means more of the output
is made up) was computed from these verdicts, one per claim of the output ("yes" = hallucinated):
{verdicts}

{context}
{input}
{output}

Explain the score in one or two sentences for a developer: name the hallucinated claims and why.
Do not recompute or change the score. Answer with JSON only: {{"reason": "<text>"}}"""


class Hallucination(Scorer):
    name = "hallucination"
    version = "hallucination-3"
    labels = ("yes", "no")
    empty_context_verdict = "yes"
    verdict_system = _SYSTEM
    verdicts_task = _MANY
    one_verdict_task = _ONE
    reason_task = _REASON
    VerdictSchema, VerdictsSchema = verdict_schemas("Hallucination", labels, field="backed")

    @staticmethod
    def verdict_of(answer: Any) -> str:
        return "no" if answer.backed == "yes" else "yes"

    def explain(self, result: ScoreResult) -> str:
        score, verdicts = f"{result.score:.2f}", result.verdicts
        if not verdicts:
            return f"{score} — the output makes no factual claims, so nothing in it is made up."
        made_up = [v for v in verdicts if v.verdict == "yes"]
        head = f"{score} — {len(made_up)} of {len(verdicts)} claims not supported by the context"
        return f"{head}: {listing(made_up)}" if made_up else f"{head}; every claim is backed by it."
