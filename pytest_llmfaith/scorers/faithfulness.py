"""Faithfulness: how much of the output is backed by the context? Higher is better."""

from __future__ import annotations

from pytest_llmfaith.results import ScoreResult
from pytest_llmfaith.scorers.base import ClaimsScorer, listing, verdict_schemas
from pytest_llmfaith.scorers.claims import DATA_RULE
from pytest_llmfaith.scorers.labels import Label
from pytest_llmfaith.wording import plural

_SYSTEM = f"""You check claims against a CONTEXT, using only the CONTEXT, never your own knowledge. Judge
each item's "words" as read in their "sentence" (its negations, qualifiers and hedges apply).
"yes": the CONTEXT states it or it follows directly; "no": the CONTEXT contradicts it; "unsure": not
mentioned or not verifiable; speculation ("may", "might", in any language) is "unsure". Verdict first,
then a one-sentence reason pointing to the CONTEXT.
{DATA_RULE}"""

_MANY = """{context}

One verdict per item, in order; copy each item's "words" into "statement".{kinds}
{claims}
{narrow}JSON only: {{"verdicts": [{{"statement": "<words>", "verdict": "yes" | "no" | "unsure", "reason": "<why>"{fields}}}]}}"""  # noqa: E501

_ONE = """{context}

Is the item below supported by the CONTEXT above?{kinds}
{claims}
{narrow}JSON only: {{"verdict": "yes" | "no" | "unsure", "reason": "<why>"{fields}}}"""

_REASON = """A faithfulness score of {score} (scale 0 to {scale}; higher means more of the output is
supported by the context) was computed from these verdicts, one per claim of the output:
{verdicts}

{context}
{input}
{output}

Explain the score in one or two sentences for a developer: name the claims that are not supported
and why. Do not recompute or change the score. Answer with JSON only: {{"reason": "<text>"}}"""


class Faithfulness(ClaimsScorer):
    name = "faithfulness"
    version = "faithfulness-6"
    labels = ("yes", "no", "unsure")
    contradicted_verdict = "no"
    supported_verdict = "yes"
    empty_context_verdict = "unsure"
    verdict_system = _SYSTEM
    verdicts_task = _MANY
    one_verdict_task = _ONE
    reason_task = _REASON
    VerdictSchema, VerdictsSchema = verdict_schemas("Faithfulness", labels)

    @staticmethod
    def label_verdict(label: Label) -> str:
        if label.contradicted:
            return "no"
        return "yes" if label.supported else "unsure"

    def explain(self, result: ScoreResult) -> str:
        score, verdicts = f"{result.score:.2f}", result.verdicts
        if not verdicts:
            return f"{score} — the output makes no factual claims, so none is supported by the context."
        missing = [v for v in verdicts if v.verdict != "yes"]
        head = f"{score} — {len(verdicts) - len(missing)} of {plural(len(verdicts), 'claim')} supported by the context"
        return f"{head}; not supported: {listing(missing)}" if missing else f"{head}."
