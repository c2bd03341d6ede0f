"""Hallucination: how much of the output is made up? Lower is better."""

from __future__ import annotations

from typing import Any

from pytest_llmfaith.results import ScoreResult
from pytest_llmfaith.scorers.base import ClaimsScorer, listing, verdict_schemas
from pytest_llmfaith.scorers.claims import DATA_RULE
from pytest_llmfaith.scorers.labels import Label
from pytest_llmfaith.scorers.questions import NARROW, NARROW_FORMAT
from pytest_llmfaith.wording import plural

# The positive three-way question ("supported?"), not "is it a hallucination?": asked directly, a
# small judge inverts the labels (benchmarks/README.md). Not supported means verdict "yes".
_SYSTEM = f"""You check claims against a CONTEXT, like a careful fact-checker.
Each claim is the OUTPUT's own "words", shown in their "sentence": judge what those words say,
read in their sentence (a negation, a qualifier or a hedge of the sentence applies to them).
Use only the CONTEXT. Never use your own knowledge, even when you know a claim is true or false.
"supported":
- "yes": the CONTEXT states the claim or it follows from what is stated. These count as "yes":
  a less precise date (the year where the CONTEXT gives the month or day); a reasonable numeric
  approximation ("about 1,200" where the CONTEXT says 1,234); leaving out a detail of the
  CONTEXT; speculative wording ("may", "might") about a fact that IS in the CONTEXT.
- "no": the CONTEXT contradicts the claim.
- "unsure": the CONTEXT does not mention it; the claim speculates about facts that are not in
  the CONTEXT; or it is subjective or evaluative ("pioneering", "leading", "made history")
  without explicit support in the CONTEXT.
Answer "supported" first, then a one-sentence reason that quotes or points to the CONTEXT.
{DATA_RULE}"""

_NARROW = NARROW.replace("{", "{{").replace("}", "}}")
_ANSWER = '"supported": "yes" | "no" | "unsure", "reason": "<why>", ' + NARROW_FORMAT

_MANY = f"""{{context}}

Say for each item below, in the same order, whether the CONTEXT supports it, copying each
item's "words" into "statement".
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
    version = "hallucination-6"
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
