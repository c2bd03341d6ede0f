"""Faithfulness: how much of the output is backed by the context? Higher is better."""

from __future__ import annotations

from pytest_llmfaith.results import ScoreResult
from pytest_llmfaith.scorers.base import ClaimsScorer, listing, verdict_schemas
from pytest_llmfaith.scorers.claims import DATA_RULE
from pytest_llmfaith.scorers.labels import Label
from pytest_llmfaith.scorers.questions import NARROW, NARROW_FORMAT
from pytest_llmfaith.wording import plural

_SYSTEM = f"""You check claims against a CONTEXT, like a careful fact-checker.
Each claim is the OUTPUT's own "words", shown in their "sentence": judge what those words say,
read in their sentence (a negation, a qualifier or a hedge of the sentence applies to them).
Use only the CONTEXT. Never use your own knowledge, even when you know a claim is true or false.
Verdicts:
- "yes": the CONTEXT explicitly states it, or it follows directly from what is stated.
- "no": the CONTEXT directly contradicts it.
- "unsure": the CONTEXT does not mention it, or it cannot be verified from the CONTEXT alone.
A speculative claim ("may", "might", "possibly", "could", in any language) is "unsure".
Answer the verdict first, then a one-sentence reason that quotes or points to the CONTEXT.
{DATA_RULE}"""

_NARROW = NARROW.replace("{", "{{").replace("}", "}}")
_ANSWER = '"verdict": "yes" | "no" | "unsure", "reason": "<why>", ' + NARROW_FORMAT

_MANY = f"""{{context}}

Give one verdict for each item below, in the same order, copying each item's "words" into "statement".
An item with "already_checked" is a whole sentence of the OUTPUT, judged beside its claims.
{{claims}}
{_NARROW}

Answer with JSON only:
{{{{"verdicts": [{{{{"statement": "<words>", {_ANSWER}}}}}]}}}}"""

_ONE = f"""{{context}}

Is the item below supported by the CONTEXT above?
{{claims}}
{_NARROW}

Answer with JSON only: {{{{{_ANSWER}}}}}"""

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
    version = "faithfulness-5"
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
