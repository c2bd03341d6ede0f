"""Label verdicts: a claim's verdict is P(yes) of a one-token answer against a calibrated threshold.

Faster and less biased towards "supported" than a generated verdict on a small judge
(benchmarks/README.md). Both scorers ask the same questions, so the second is all cache hits;
reasons are built here from the probabilities, so they can never contradict the verdict.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from pytest_llmfaith.judge.client import Judge
from pytest_llmfaith.judge.question import NextToken, p_yes
from pytest_llmfaith.results import JudgeCall
from pytest_llmfaith.scorers.claims import Judged
from pytest_llmfaith.scorers.questions import (
    CHANGED_AT,
    DOCUMENT_SYSTEM,
    FACT_AT,
    GIVEN_AT,
    ORDER_AT,
    YES_AT,
    context_text,
)
from pytest_llmfaith.text.exact import nearest_sentences

VERSION = "label-4"
SUPPORTED_AT = 0.7
"""Not 0.5: the offline judge says "yes" too easily; chosen on the development part (benchmarks/README.md)."""
CONTRADICTED_AT = 0.5
"""P(yes) to "does the document contradict the claim?" from which an unsupported claim is "no"."""
SUPPORTED_FROM = 0.6
"""Below SUPPORTED_AT, P(supported) from which a claim is still supported unless the contradiction
answer is MARGIN or more above it: the 1.5B judge gives a faithful paraphrase 0.61 and 0.62 to
the two questions. Measured on the labelled set (benchmarks/label_rule.py, benchmarks/README.md)."""
MARGIN = 0.05
"""How far P(contradicted) may stand above P(supported) in that band (both read at 2 digits, as
recordings keep them) for the claim to stay supported."""
BORDERLINE_FROM = 0.5
"""Below SUPPORTED_FROM, P(supported) from which a claim is still supported when a second reading
agrees (the contradiction answer under CONTRADICTED_AT) and code sees no risk (the context writes
every name and number of its words): a faithful price at P 0.53-0.59 is no coin flip that fails
the answer, while a wrong price (a number the context does not write) is held to SUPPORTED_FROM."""
EVIDENCE_AT = 0.5
"""P(yes) to the support question shown only the evidence (`EVIDENCE`) from which a clean claim at
BORDERLINE_FROM or more, that the two questions with the whole document leave unsupported, is
supported, while the contradiction answer is under SUPPORTED_AT: with many passages in view (an
agent's tool results) the 1.5B judge answered both questions 0.58-0.74 for faithful and
unfaithful claims alike; shown only the nearest passages, it gave the faithful ones at
BORDERLINE_FROM or more 0.50-0.75 and the unfaithful ones 0.07-0.47 (benchmarks/README.md, round 18)."""
OUTWEIGHED_EVIDENCE_AT = SUPPORTED_FROM
"""P(yes) on the evidence alone from which words the context writes every name and number of, at
SUPPORTED_FROM or more but outweighed by the contradiction question, are supported: where that
answer is SUPPORTED_AT or more (a dispute, not a coin flip) or the words are a sentence's leftover.
Higher than EVIDENCE_AT, so two answers at the support side's own line overrule one contradiction:
on the travel agent, faithful claims at P(contradicted) 0.71-0.76 read 0.63-0.75 this way; on the
labelled set, a role swap at 0.79 read 0.57 (benchmarks/README.md, round 21)."""
LINES = (SUPPORTED_AT, SUPPORTED_FROM, BORDERLINE_FROM, CONTRADICTED_AT, EVIDENCE_AT, YES_AT, FACT_AT, GIVEN_AT,
         CHANGED_AT, ORDER_AT)
"""Every line a label's P(yes) is held to, the narrow questions' too: a recording rounds P(yes)
only as far as keeps it on its side of each, so replay decides as the live run did."""
EVIDENCE_SENTENCES = 2
"""Two, not three: as accurate and fewer tokens per verdict; none costs single claims (benchmarks/README.md)."""

# Document first (shared by every claim, read once), then the output's words in their sentence and
# the evidence sentences: a small model misses evidence in a long document otherwise. What is
# judged is the output's own words.
SUPPORT = ("Document:\n{context}\n\nSentence: {sentence}\nWords to check: {claim}\n\nThe most relevant "
           "sentences:\n{evidence}\n\nIs what the words to check say, read in their sentence, supported by the "
           "document? Answer yes or no.")
CONTRADICT = ("Document:\n{context}\n\nSentence: {sentence}\nWords to check: {claim}\n\nThe most relevant "
              "sentences:\n{evidence}\n\nDoes the document contradict what the words to check say, read in their "
              "sentence? Answer yes or no.")
EVIDENCE = ("Document:\n{evidence}\n\nSentence: {sentence}\nWords to check: {claim}\n\nIs what the words to check "
            "say, read in their sentence, supported by the document? Answer yes or no.")
"""The support question with only the evidence as the document: a third reading, never the
first (alone it misses claims that need several sentences: benchmarks/HISTORY.md, round 2)."""


@dataclass(frozen=True)
class Label:
    """What the judge said of one claim's words."""

    p_supported: float
    p_contradicted: float | None  # asked only of claims that are not supported
    evidence: str  # the context sentence nearest the words (shown to the judge first)
    written: bool = False  # the context writes every name and number of the words, none in another role
    leftover: bool = False  # a sentence judged for what its claims leave out (`Judged.leftover`)
    p_evidence: float | None = None  # asked only where it can still make the claim supported (`needs_evidence`)

    @property
    def clean(self) -> bool:
        """Code sees no risk: every name and number written, and no leftover that may hide a hedge."""
        return self.written and not self.leftover

    @property
    def supported(self) -> bool:
        return self.p_supported >= self.support_line

    @property
    def support_line(self) -> float:
        """SUPPORTED_AT, or SUPPORTED_FROM once the contradiction answer was asked and does not
        outweigh the support answer (a paraphrase), or BORDERLINE_FROM where that answer is a no and
        the words are clean, or the evidence alone reads as support: what P(supported) is held to,
        votes too."""
        if self._evidence_agrees:
            return BORDERLINE_FROM
        if self.p_contradicted is None or self._outweighed:
            return SUPPORTED_AT
        return BORDERLINE_FROM if self.clean and self.p_contradicted < CONTRADICTED_AT else SUPPORTED_FROM

    @property
    def needs_evidence(self) -> bool:
        """Whether the evidence question can still make the claim supported: the questions with the
        document leave it unsupported, and it can be read again."""
        return self.p_evidence is None and self.evidence_line is not None and not self.supported

    @property
    def evidence_line(self) -> float | None:
        """The line the evidence alone is held to where it may read the words again, else None.
        EVIDENCE_AT for clean words at BORDERLINE_FROM or more with a contradiction answer under
        SUPPORTED_AT; OUTWEIGHED_EVIDENCE_AT for words the context writes every name and number
        of, at SUPPORTED_FROM or more, whatever the contradiction answer: a contradiction at
        SUPPORTED_AT or more is as settled as support is there, so overruling it takes a support
        answer and an evidence answer at the support side's own line (a role swap of the labelled
        set, P(contradicted) 0.79, read 0.57 on the evidence alone and stays contradicted)."""
        if self.p_contradicted is None or not BORDERLINE_FROM <= self.p_supported < SUPPORTED_AT:
            return None
        if self.clean and self.p_contradicted < SUPPORTED_AT:
            return EVIDENCE_AT
        return OUTWEIGHED_EVIDENCE_AT if self.written and self.p_supported >= SUPPORTED_FROM else None

    @property
    def _evidence_agrees(self) -> bool:
        line = self.evidence_line
        return line is not None and self.p_evidence is not None and self.p_evidence >= line

    @property
    def _outweighed(self) -> bool:
        """P(contradicted) MARGIN or more above P(supported), both read at 2 digits: at exactly
        MARGIN the contradiction wins (on the labelled set "more than" and "at least" score alike;
        at the boundary, a claim of Mastra's cases that the context does not make, 0.67 against
        0.72, is held to it)."""
        return round(self.p_contradicted or 0.0, 2) - round(self.p_supported, 2) >= MARGIN - 1e-9

    @property
    def disputed(self) -> bool:
        """Both questions answered yes, and close: they decide nothing by themselves."""
        return (self.p_supported >= CONTRADICTED_AT and (self.p_contradicted or 0.0) >= CONTRADICTED_AT
                and not self._outweighed)

    @property
    def contradicted(self) -> bool:
        return not self.supported and (self.p_contradicted or 0.0) >= CONTRADICTED_AT and self._outweighed

    @property
    def reason(self) -> str:
        """What decided, in the faithfulness direction; quotes only a sentence the verdict rests on."""
        decision, detail = self._decision()
        return f"{decision}: {detail}"

    @property
    def made_up_reason(self) -> str:
        decision, detail = self._decision()
        return f"{'not made up' if self.supported else 'made up'}, {decision}: {detail}"

    def _decision(self) -> tuple[str, str]:
        """Which question decided, and the figures it rests on."""
        if self._evidence_agrees:  # P(supported) is held to BORDERLINE_FROM, which it reaches
            line = self.evidence_line or EVIDENCE_AT
            borderline = line == EVIDENCE_AT
            against = "" if borderline else f" against P(contradicted) {self.p_contradicted or 0.0:.2f}"
            return "supported on a reading of the evidence alone", (
                f"{probability('supported', self.p_supported, BORDERLINE_FROM if borderline else SUPPORTED_FROM)} "
                f"with the whole context{against}, "
                f"{probability('supported', self.p_evidence or 0.0, line)} shown only the passages nearest "
                f"the words, and the context writes every name and number of them{self._quote()}")
        if self.supported and self.p_supported < SUPPORTED_FROM:
            return "supported on a second reading", (
                f"{probability('supported', self.p_supported, BORDERLINE_FROM)}, "
                f"{probability('contradicted', self.p_contradicted or 0.0, CONTRADICTED_AT)}, and the context writes "
                f"every name and number of the words{self._quote()}")
        if self.supported and self.p_supported < SUPPORTED_AT:
            return "supported, not outweighed by the contradiction question", (
                f"{self._p_supported()}, P(contradicted) {self.p_contradicted or 0.0:.2f} less than "
                f"{MARGIN:.2f} above it{self._quote()}")
        if self.supported:
            return "supported", self._p_supported() + self._quote()
        if self.disputed:
            return "unsure, the two answers contradict each other", (
                f"{self._p_supported()}, P(contradicted) {self.p_contradicted or 0.0:.2f} close to it"
                f"{self._evidence_figure()}{self._quote()}")
        if self.contradicted:
            return "contradicted", f"{self._p_contradicted()} ({self._p_supported()}{self._evidence_figure()})" \
                                   f"{self._quote()}"
        figures = self._p_supported() + (f", not contradicted ({self._p_contradicted()})"
                                         if self.p_contradicted is not None else "")
        return "not supported enough", figures + self._evidence_figure() + self._quote()

    def _evidence_figure(self) -> str:
        """The evidence reading, where it was asked and did not make the claim supported."""
        if self.p_evidence is None:
            return ""
        return (f"; shown only the nearest passages, "
                f"{probability('supported', self.p_evidence, self.evidence_line or EVIDENCE_AT)}")

    def _p_supported(self) -> str:
        line = SUPPORTED_AT if self.p_supported >= SUPPORTED_AT else self.support_line
        if line == BORDERLINE_FROM and self.p_supported >= SUPPORTED_FROM:
            line = SUPPORTED_FROM
        return probability("supported", self.p_supported, line)

    def _p_contradicted(self) -> str:
        return probability("contradicted", self.p_contradicted or 0.0, CONTRADICTED_AT)

    def _quote(self) -> str:
        return f": “{self.evidence}”" if self.evidence else ""


def probability(question: str, p: float, threshold: float) -> str:
    """Every reason names a probability and the line it was held to, alike, at the precision that
    decided: never "0.60 < 0.60"."""
    digits = 2
    while digits < 6 and f"{p:.{digits}f}" == f"{threshold:.{digits}f}" and p != threshold:
        digits += 1
    return f"P({question}) {p:.{digits}f} {'≥' if p >= threshold else '<'} {threshold:.2f}"


def messages(task: str, context: Sequence[str], item: Judged) -> list[dict[str, str]]:
    """Instructions, then the context, then the words: consecutive claims share the prefix."""
    evidence = "\n".join(nearest_sentences(item.sentence + " " + item.quote, context, EVIDENCE_SENTENCES))
    return [{"role": "system", "content": DOCUMENT_SYSTEM},
            {"role": "user", "content": task.format(context=context_text(context), sentence=item.sentence,
                                                    claim=item.quote, evidence=evidence)}]


def judge_claims(judge: Judge, items: list[Judged], context: list[str],
                 written: Sequence[bool]) -> tuple[list[Label], list[JudgeCall], str]:
    """Label every claim's words, then ask the contradiction question of the unsupported ones.
    `written`: per item, whether the context writes every name and number of its words, none only
    in another role or for something else (`Label.written`): "SK4705 costs 142 EUR" beside the
    flight records, 142 being DY1872's, is no clean claim: asked as it was before round 27, the
    1.5B judge's second question said yes to 11 of 12 such swaps (benchmarks/swap_questions.py);
    told what the records give instead, to none, but its yes still needs a verdict at 0.60."""
    asked = [messages(SUPPORT, context, item) for item in items]
    if judge.traits.asks_in_turn:
        found = [_one_by_one(judge, question, messages(CONTRADICT, context, item))
                 for question, item in zip(asked, items)]
        supported = [p for p, _, _ in found]
        contradicted = {i: q for i, (_, q, _) in enumerate(found) if q is not None}
        calls = [call for _, _, claim_calls in found for call in claim_calls]
    else:
        answers = judge.ask_each("verdicts", asked, NextToken, VERSION)
        calls = [call for _, call in answers]
        supported = [p_yes(answer) for answer, _ in answers]
        doubtful = [i for i, p in enumerate(supported) if p < SUPPORTED_AT]
        rechecked = judge.ask_each("verdicts", [messages(CONTRADICT, context, items[i]) for i in doubtful],
                                   NextToken, VERSION) if doubtful else []
        calls += [call for _, call in rechecked]
        contradicted = {i: p_yes(answer) for i, (answer, _) in zip(doubtful, rechecked)}
    labels = [Label(p, contradicted.get(i), nearest_passage(item, context), written=ok, leftover=item.leftover)
              for i, (p, item, ok) in enumerate(zip(supported, items, written))]
    rereads = [i for i, label in enumerate(labels) if label.needs_evidence]
    if rereads:  # the document in view made both answers a coin flip: the evidence alone, once more
        evidence = judge.ask_each("verdicts", [messages(EVIDENCE, context, items[i]) for i in rereads],
                                  NextToken, VERSION)
        calls += [call for _, call in evidence]
        for i, (answer, _) in zip(rereads, evidence):
            labels[i] = replace(labels[i], p_evidence=p_yes(answer))
    return labels, calls, "\n\n".join(m[-1]["content"] for m in asked)


def _one_by_one(judge: Judge, support: list[dict[str, str]],
                contradict: list[dict[str, str]]) -> tuple[float, float | None, list[JudgeCall]]:
    """Offline: the contradiction question straight after the support question, so the second prompt
    only reads the new question from the KV cache."""
    answer, call = judge.ask("verdicts", support, NextToken, VERSION)
    p = p_yes(answer)  # type: ignore[arg-type]
    if p >= SUPPORTED_AT:
        return p, None, [call]
    recheck, second = judge.ask("verdicts", contradict, NextToken, VERSION)
    return p, p_yes(recheck), [call, second]  # type: ignore[arg-type]


def nearest_passage(item: Judged, context: Sequence[str]) -> str:
    """The context sentence sharing the most characters with the words (a quarter of those not in
    every sentence): the one the verdict rests on. None otherwise: a sentence sharing only a name
    would read as evidence."""
    found = nearest_sentences(item.quote, context, 1, share=0.25)
    return found[0] if found else ""
