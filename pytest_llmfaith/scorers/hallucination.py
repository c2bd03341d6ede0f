"""Hallucination: how much of the output is made up? Lower is better."""

from __future__ import annotations

from typing import Any

from pytest_llmfaith.results import ScoreResult
from pytest_llmfaith.scorers.base import ClaimsScorer, listing, verdict_schemas
from pytest_llmfaith.scorers.claims import DATA_RULE
from pytest_llmfaith.scorers.labels import Label
from pytest_llmfaith.wording import plural

# The positive three-way question ("supported?"), not "is it a hallucination?": asked directly, a
# small judge inverts the labels (benchmarks/README.md). Not supported means verdict "yes".
_SYSTEM = f"""You check claims against a CONTEXT, using only the CONTEXT, never your own knowledge. Judge
each item's "words" as read in their "sentence" (its negations, qualifiers and hedges apply).
"supported": "yes" if the CONTEXT states it or it follows, also for a less precise date, a fair
approximation ("about 1,200" for 1,234), an omitted detail, or "may" about a fact the CONTEXT has; "no"
if the CONTEXT contradicts it; "unsure" if it is not mentioned, speculates about facts not in the
CONTEXT, or is subjective ("pioneering", "leading") without support. "supported" first, then a
one-sentence reason pointing to the CONTEXT.
{DATA_RULE}"""

_MANY = """{context}

For each item, in order, whether the CONTEXT supports it; copy its "words" into "statement".{kinds}
{claims}
{narrow}JSON only: {{"verdicts": [{{"statement": "<words>", "supported": "yes" | "no" | "unsure", "reason": "<why>"{fields}}}]}}"""  # noqa: E501

_ONE = """{context}

Is the item below supported by the CONTEXT above?{kinds}
{claims}
{narrow}JSON only: {{"supported": "yes" | "no" | "unsure", "reason": "<why>"{fields}}}"""

_REASON = """A hallucination score of {score} (scale 0 to {scale}; higher means more of the output
is made up) was computed from these verdicts, one per claim of the output ("yes" = hallucinated):
{verdicts}

{context}
{input}
{output}

Explain the score in one or two sentences for a developer: name the hallucinated claims and why.
Do not recompute or change the score. Answer with JSON only: {{"reason": "<text>"}}"""


class Hallucination(ClaimsScorer):
    name = "hallucination"
    higher_is_better = False
    version = "hallucination-7"
    labels = ("yes", "no", "unsure")  # the judge's "supported" labels; verdicts are yes / no
    contradicted_verdict = "yes"
    supported_verdict = "no"
    empty_context_verdict = "yes"
    verdict_system = _SYSTEM
    verdicts_task = _MANY
    one_verdict_task = _ONE
    reason_task = _REASON
    VerdictSchema, VerdictsSchema = verdict_schemas("Hallucination", labels, field="supported")

    @staticmethod
    def verdict_of(answer: Any) -> str:
        return "no" if answer.supported == "yes" else "yes"

    @staticmethod
    def label_verdict(label: Label) -> str:
        return "no" if label.supported else "yes"

    @staticmethod
    def label_reason(label: Label) -> str:
        return label.made_up_reason

    def explain(self, result: ScoreResult) -> str:
        score, verdicts = f"{result.score:.2f}", result.verdicts
        if not verdicts:
            return f"{score} — the output makes no factual claims, so nothing in it is made up."
        made_up = [v for v in verdicts if v.verdict == "yes"]
        head = f"{score} — {len(made_up)} of {plural(len(verdicts), 'claim')} not supported by the context"
        return f"{head}: {listing(made_up)}" if made_up else f"{head}; every claim is backed by it."
