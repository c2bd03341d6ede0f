"""What a scorer is (`Scorer`, what the registry holds), and the pipeline both built-in scorers
share (`ClaimsScorer`): claims -> verdicts -> score -> reason.

A claims scorer supplies only what differs: its verdict labels, which label counts, what an
empty context means, its verdict prompt and the wording of its reason.
"""

from __future__ import annotations

import math
import re
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Annotated, Any, ClassVar, Literal

from pydantic import BaseModel, BeforeValidator, create_model

from pytest_llmfaith.errors import redact_data
from pytest_llmfaith.judge.asking import extract_json
from pytest_llmfaith.judge.client import Judge
from pytest_llmfaith.results import JudgeCall, ScoreResult, Verdict, round2
from pytest_llmfaith.scorers import labels, questions, votes
from pytest_llmfaith.scorers.claims import (
    DATA_RULE,
    Judged,
    ReadClaims,
    claim_block,
    claims_block,
    claims_messages,
    context_block,
    fence,
    read_claims,
)
from pytest_llmfaith.scorers.labels import Label
from pytest_llmfaith.text.exact import (
    contradicted_number,
    fold,
    nearest_sentences,
    needs_a_firm_yes,
    numbers_beside_the_same_words,
    numbers_not_written,
    other_values,
    quoted_sentence,
    unwritten,
    values_given_instead,
    values_in_other_roles,
)
from pytest_llmfaith.wording import plural, shorten

ContextArg = Sequence[str] | Callable[[], Sequence[str]]
ReasonMode = Literal["verdicts", "llm"]


def normalise_verdict(value: Any) -> Any:
    """'Yes.' and ' YES ' are 'yes' (Mastra counts only the exact string 'yes')."""
    return value.strip().lower().rstrip(".!?,;:") if isinstance(value, str) else value


def verdict_schemas(prefix: str, labels: tuple[str, ...],
                    field: str = "verdict") -> tuple[type[BaseModel], type[BaseModel]]:
    """The answer schemas of one scorer: one verdict (its label under `field`, then the narrow
    questions' answers), and a list of them."""
    label = Annotated[Literal[labels], BeforeValidator(normalise_verdict)]  # type: ignore[valid-type]
    # the label before the reason: better and faster with a small judge (benchmarks/README.md)
    fields: dict[str, Any] = {"statement": (str, ""), field: (label, ...), "reason": (str, ""),
                              **{name: (questions.MaybeYesNo, None) for name in questions.JSON_FIELDS}}
    one = create_model(f"{prefix}Verdict", **fields)
    many = create_model(f"{prefix}Verdicts", verdicts=(list[one], ...))
    return one, many


@dataclass
class Answers:
    """What the judge said of each item (the claims, then the sentences judged beside them)."""

    verdicts: list[Verdict]
    fact: dict[int, bool] = field(default_factory=dict)  # a sentence: it states a fact its claims do not
    changed: dict[int, bool] = field(default_factory=dict)  # a claim: the rest of its sentence changes its words
    given: dict[int, bool] = field(default_factory=dict)  # words the context never writes: it gives them
    role: dict[int, bool] = field(default_factory=dict)  # numbers the context writes for another thing: and for this
    valued: dict[int, bool] = field(default_factory=dict)  # a sentence judged beside claims: it states its numbers
    # as facts, not only as labels ("Step 1:"); asked where the facts question says it states none
    judged: set[int] = field(default_factory=set)  # the items with a verdict of the judge's or code's


def _sentence_items(items: Sequence[Judged], claim_count: int, claim: int) -> list[int]:
    """The sentence items holding the sentences of a claim."""
    return [j for j in range(claim_count, len(items)) if set(items[j].at) & set(items[claim].at)]


def _groups(claims: Sequence[Judged], verdicts: list[Verdict], supported: str, output: str) -> list[int]:
    """The claims that count: one of each set that restates one stretch of the output, the set's
    least supported one. A claim whose words lie inside another's restates it (one fact quoted
    three times is one claim); so do two unbroken stretches that share a letter or digit without
    either holding the other ("The basic plan costs 12 EUR", "plan costs 12 EUR a month"), while
    claims with a gap ("Acme … employs 40") share their subject without restating each other."""
    sets: list[list[int]] = []
    for i in sorted(range(len(claims)), key=lambda i: -len(claims[i].covered)):
        home = next((found for found in sets if claims[i].covered <= claims[found[0]].covered), None)
        if home is None:
            sets.append([i])
        else:
            home.append(i)
    while pair := next(((a, b) for a, b in combinations(range(len(sets)), 2)
                        if any(_overlapping(claims[i], claims[j], output) for i in sets[a] for j in sets[b])), None):
        sets[pair[0]] += sets.pop(pair[1])
    return [next((i for i in found if verdicts[i].verdict != supported), found[0]) for found in sets]


def _overlapping(one: Judged, other: Judged, output: str) -> bool:
    return len(one.words) == len(other.words) == 1 and any(output[c].isalnum() for c in one.covered & other.covered)


def check_inputs(output: Any, context: Any, input: Any, scale: Any) -> tuple[str, list[str], str | None, float]:
    """Reject bad arguments at the call, with the fix, instead of deep inside a judge call."""
    if not isinstance(output, str):
        hint = " Decode it first: output.decode('utf-8')." if isinstance(output, bytes) else \
            " Pass the text the model produced (e.g. response.text or message['content'])."
        raise TypeError(f"llmfaith: output must be a str, got {type(output).__name__}.{hint}")
    if callable(context):
        context = context()
    if isinstance(context, str) or not isinstance(context, Sequence):
        raise TypeError(
            f"llmfaith: context must be a list of strings (or a callable returning one), got "
            f"{type(context).__name__}."
            + (" Wrap a single passage in a list: [context]." if isinstance(context, str) else "")
        )
    for i, item in enumerate(context):
        if not isinstance(item, str):
            raise TypeError(f"llmfaith: context[{i}] must be a str, got {type(item).__name__}.")
    if input is not None and not isinstance(input, str):
        raise TypeError(f"llmfaith: input must be a str or None, got {type(input).__name__}.")
    if isinstance(scale, bool) or not isinstance(scale, (int, float)) or not math.isfinite(scale) or scale <= 0:
        raise ValueError(f"llmfaith: scale must be a number > 0, got {scale!r}.")
    return output, list(context), input, float(scale)


class Scorer:
    """Subclass, set `name`, implement `measure`, register via pytest_llmfaith_register_scorers."""

    name: ClassVar[str]
    higher_is_better: ClassVar[bool] = True
    default_threshold: ClassVar[float | None] = None  # None: assertions must pass a threshold

    def __init__(self, judge: Judge, reason: ReasonMode = "verdicts") -> None:
        self.judge = judge
        self.reason_mode = reason

    def run(self, output: str, context: ContextArg, *, input: str | None = None, scale: float = 1) -> ScoreResult:
        """Check and redact the inputs first: an output quoting an upstream error may hold a key, which
        must reach neither the judge nor the cache (and replay must ask what recording asked)."""
        output, context_list, input, scale = check_inputs(output, context, input, scale)
        output, context_list, input = redact_data((output, context_list, input), [self.judge.config.api_key_env])
        result = self.measure(output, context_list, input, scale)
        if (result.scorer, result.higher_is_better) != (self.name, self.higher_is_better):
            raise TypeError(f"llmfaith: scorer {self.name!r} returned a result of {result.scorer!r} "
                            f"(higher_is_better={result.higher_is_better}). Fix: build it with self.result(...).")
        return result

    def measure(self, output: str, context: list[str], input: str | None, scale: float) -> ScoreResult:
        """The score of checked inputs, built with `self.result(...)`."""
        raise NotImplementedError

    def result(self, **fields: Any) -> ScoreResult:
        """A ScoreResult of this scorer: its name, direction and a fresh run id, plus `fields`."""
        return ScoreResult(scorer=self.name, higher_is_better=self.higher_is_better, run_id=str(uuid.uuid4()),
                           **fields)


class ClaimsScorer(Scorer):
    """Base class of the two built-in scorers; `measure` is the whole Mastra pipeline."""

    version: ClassVar[str]
    labels: ClassVar[tuple[str, ...]]
    empty_context_verdict: ClassVar[str]  # also a claim's verdict when it is not in the context
    supported_verdict: ClassVar[str]  # the verdict of a claim the context supports
    contradicted_verdict: ClassVar[str]  # the verdict of a claim the context contradicts
    verdict_system: ClassVar[str]
    verdicts_task: ClassVar[str]
    one_verdict_task: ClassVar[str]
    reason_task: ClassVar[str]
    VerdictSchema: ClassVar[type[BaseModel]]
    VerdictsSchema: ClassVar[type[BaseModel]]

    def measure(self, output: str, context: list[str], input: str | None, scale: float) -> ScoreResult:
        calls: list[JudgeCall] = []
        read = ReadClaims([], [], [], claims_messages(output)[-1]["content"], [], [])
        notes: list[str] = []
        if output.strip():  # no judge call is needed to know "" makes no claims
            read = read_claims(self.judge, output)
            calls += read.calls
            if read.left_out:
                notes.append(f"{len(read.left_out)} of the judge's claims quoted words the output does not have "
                             "(asked again once); their sentences were judged instead")
        answers, analyze_prompt = self._answers(output, read.judged, read.sentences, context, calls)
        items, verdicts = self._decided(output, read.judged, read.sentences, answers, context, notes)
        hits = sum(v.verdict == "yes" for v in verdicts)
        score = round2(hits / len(verdicts) * scale) if verdicts else 0.0
        result = self.result(
            score=score, reason="", output=output,
            context=context, input=input, scale=scale, claims=[item.quote for item in items], verdicts=verdicts,
            preprocess_step_result={"claims": read.answered}, preprocess_prompt=read.prompt,
            analyze_step_result={"verdicts": [v.model_dump() for v in verdicts]},
            analyze_prompt=analyze_prompt, judge_calls=calls, no_claims=not items, votes=self.judge.config.votes,
            notes=notes,
        )
        if self.reason_mode == "llm":
            self._llm_reason(result)
        else:
            result.reason = self.explain(result)
        return result

    # -- steps --------------------------------------------------------------------------
    def _answers(self, output: str, claims: list[Judged], sentences: list[Judged], context: list[str],
                 calls: list[JudgeCall]) -> tuple[Answers, str]:
        """What the judge said of every claim and sentence: its verdict and the narrow questions."""
        items = claims + sentences
        if not items or not context:
            verdicts = [Verdict(statement=i.quote, verdict=self.empty_context_verdict, reason="the context is empty")
                        for i in items]
            return Answers(verdicts), ""
        exact = {i: found for i, item in enumerate(items)
                 if (found := contradicted_number(item.quote, context, item.sentence))}
        asked = [i for i in range(len(items)) if i not in exact]
        if not asked:
            answers, prompt = self._unasked(items), ""
        elif self.judge.verdict_mode == "label":
            answers, prompt = self._labelled(output, items, len(claims), asked, context, calls)
        else:
            answers, prompt = self._asked(items, asked, context, calls)
        answers.judged.update(exact)
        for i, (said, other) in exact.items():
            answers.verdicts[i] = Verdict(statement=items[i].quote, verdict=self.contradicted_verdict,
                                          reason=f"contradicted by the context's numbers, decided without asking: "
                                                 f"“{said}” where the context writes “{other}” with the same words "
                                                 "around it")
        return answers, prompt

    def _unasked(self, items: list[Judged]) -> Answers:
        """Answers before any judge answer: every item not supported, no narrow answer."""
        return Answers([Verdict(statement=i.quote, verdict=self.empty_context_verdict) for i in items])

    def _asked(self, items: list[Judged], asked: list[int], context: list[str],
               calls: list[JudgeCall]) -> tuple[Answers, str]:
        """One request for every verdict and narrow question (per sample with votes; per item in
        --llm-judge-verdicts=one): the output and the context sent once."""
        config = self.judge.config
        data = [_as_asked(items[i], context, self._unwritten(items[i].quote, context)) for i in asked]
        samples: list[list[Any]] = []
        prompt = ""
        for k in range(config.votes):
            if self.judge.verdict_mode == "one":
                conversations = [self._messages(self.one_verdict_task, context, claim_block(d), [d]) for d in data]
                found = self.judge.ask_each("verdicts", conversations, self.VerdictSchema, self.version, sample=k)
                calls.extend(call for _, call in found)
                said, prompt = [a for a, _ in found], "\n\n".join(m[-1]["content"] for m in conversations)
            else:
                messages = self._messages(self.verdicts_task, context, claims_block(data), data)
                answer, call = self.judge.ask("verdicts", messages, self.VerdictsSchema, self.version,
                                              check=same_statements([items[i] for i in asked], data), sample=k)
                calls.append(call)
                said, prompt = list(answer.verdicts), messages[-1]["content"]  # type: ignore[union-attr]
            samples.append(said)
        verdicts = [[self._verdict(a, items[i]) for a, i in zip(said, asked)] for said in samples]
        decided = verdicts[0] if config.votes == 1 else votes.majority(verdicts)
        answers = self._unasked(items)
        answers.judged.update(asked)
        for n, i in enumerate(asked):
            answers.verdicts[i] = self._about(decided[n], items[i], context)
            # the safe side of every sample, and of a question left unanswered: one doubt is enough
            answers.fact[i] = any(s[n].states_fact != "no" for s in samples)
            answers.changed[i] = "sentence" in data[n] and any(s[n].changed != "no" for s in samples)
            if "not_in_context" in data[n]:
                answers.given[i] = all(s[n].specifics == "yes" for s in samples)
            if "other_role" in data[n]:
                answers.role[i] = all(s[n].same_role == "yes" for s in samples)
            if "numbers" in data[n]:
                answers.valued[i] = any(s[n].states_numbers != "no" for s in samples)
        return answers, prompt

    def _labelled(self, output: str, items: list[Judged], claim_count: int, asked: list[int], context: list[str],
                  calls: list[JudgeCall]) -> tuple[Answers, str]:
        """The offline judge: one-token questions, each asked only where its answer can still change
        the outcome (a supported claim's names and what its sentence adds; a sentence's facts)."""
        unwritten_of = {i: t for i in asked if (t := unwritten(items[i].quote, context, at_starts=False))}
        answers = self._unasked(items)
        sentence_items = [i for i in asked if i >= claim_count and items[i].bare]
        unvalued = {i: n for i in sentence_items if (n := numbers_not_written(items[i].quote, context))}
        facts, fact_calls = questions.states_facts(
            self.judge, output, [(items[i].sentence, items[i].checked) for i in sentence_items])
        calls.extend(fact_calls)
        answers.fact.update(zip(sentence_items, facts))
        doubted = [i for i in unvalued if not answers.fact[i]]
        valued, valued_calls = questions.states_numbers(self.judge, [(items[i].sentence, unvalued[i]) for i in doubted])
        calls.extend(valued_calls)
        answers.valued.update(zip(doubted, valued))
        claim_items = [i for i in asked if i < claim_count]
        labelled = claim_items + [i for i in sentence_items if answers.fact.get(i, True) or answers.valued.get(i)]
        prompt = self._label_verdicts(items, labelled, unwritten_of, answers, context, calls)
        supported = [i for i in claim_items if answers.verdicts[i].verdict == self.supported_verdict]
        self._hold_to_sentences(items, claim_count, supported, labelled, unwritten_of, answers, context, calls)
        named = [i for i in [*supported, *(i for i in labelled if i >= claim_count)] if i in unwritten_of
                 and answers.verdicts[i].verdict == self.supported_verdict]
        given, given_calls = questions.specifics(self.judge, context,
                                                 [(items[i].sentence, unwritten_of[i]) for i in named])
        calls.extend(given_calls)
        answers.given.update({i: p >= questions.given_line(unwritten_of[i]) for i, p in zip(named, given)})
        pairs = [(i, pair) for i in named if answers.given[i]
                 for pair in numbers_beside_the_same_words(items[i].quote, context)]
        same, amount_calls = questions.same_amounts(self.judge, [pair for _, pair in pairs])
        calls.extend(amount_calls)
        for (i, _), p in zip(pairs, same):
            answers.given[i] = answers.given[i] and p >= questions.YES_AT
        placed = [(i, numbers) for i in [*supported, *(i for i in labelled if i >= claim_count)]
                  if answers.verdicts[i].verdict == self.supported_verdict and answers.given.get(i) is not False
                  and (numbers := values_in_other_roles(items[i].quote, context))]
        roles, role_calls = questions.same_roles(self.judge, context, [
            (items[i].sentence, n, values_given_instead(items[i].quote, context)) for i, n in placed])
        calls.extend(role_calls)
        answers.role.update({i: p >= questions.role_line(needs_a_firm_yes(items[i].quote, context))
                             for (i, _), p in zip(placed, roles)})
        return answers, prompt

    def _hold_to_sentences(self, items: list[Judged], claim_count: int, supported: list[int], labelled: list[int],
                           unwritten_of: dict[int, list[str]], answers: Answers, context: list[str],
                           calls: list[JudgeCall]) -> None:
        """The offline judge's "changed?" for supported claims that leave something of their
        sentences, and the verdicts of the sentences that then hold them. A claim is held only to a
        sentence that is not supported, so a sentence judged supported, with no narrow question
        left to overrule it, asks nothing more; one that two or more such claims share is judged
        first (one verdict instead of a "changed?" each)."""
        partial = [i for i in supported if items[i].partial]
        sentences_of = {i: set(_sentence_items(items, claim_count, i)) for i in partial}
        shared = sorted(s for s in set().union(*sentences_of.values())
                        if s not in labelled and sum(s in found for found in sentences_of.values()) > 1)
        self._label_verdicts(items, shared, unwritten_of, answers, context, calls)
        judged = {*labelled, *shared}
        settled = {s for s in judged if s >= claim_count and answers.verdicts[s].verdict == self.supported_verdict
                   and s not in unwritten_of and not values_in_other_roles(items[s].quote, context)}
        partial = [i for i in partial if not sentences_of[i] <= settled]
        found, changed_calls = questions.changed(self.judge, [(items[i].sentence, items[i].quote) for i in partial])
        calls.extend(changed_calls)
        answers.changed.update(zip(partial, found))
        holding = {s for i, change in zip(partial, found) if change for s in sentences_of[i]}
        self._label_verdicts(items, sorted(holding - judged), unwritten_of, answers, context, calls)

    def _label_verdicts(self, items: list[Judged], which: list[int], unwritten_of: dict[int, list[str]],
                        answers: Answers, context: list[str], calls: list[JudgeCall]) -> str:
        """Label verdicts of `which`: one sample, or votes drawn from the probabilities."""
        if not which:
            return ""
        config = self.judge.config
        chosen = [items[i] for i in which]
        written = [i not in unwritten_of and not values_in_other_roles(items[i].quote, context) for i in which]
        found, label_calls, prompt = labels.judge_claims(self.judge, chosen, context, written)
        calls.extend(label_calls)
        samples = [[Verdict(statement=i.quote, verdict=self.label_verdict(f), reason=self.label_reason(f),
                            evidence=f.evidence) for i, f in zip(chosen, found)]]
        for k in range(1, config.votes):  # drawn from the probabilities: no further judge call
            drawn = votes.drawn_labels(found, k, config.votes, config.votes_temperature)
            samples.append([Verdict(statement=i.quote, verdict=self.label_verdict(label), reason=reason,
                                    evidence=label.evidence) for i, (label, reason) in zip(chosen, drawn)])
        decided = samples[0] if config.votes == 1 else votes.majority(samples)
        answers.judged.update(which)
        for i, verdict, item in zip(which, decided, chosen):
            answers.verdicts[i] = self._about(verdict, item, context)
        return prompt

    def _decided(self, output: str, claims: list[Judged], sentences: list[Judged], answers: Answers,
                 context: list[str], notes: list[str]) -> tuple[list[Judged], list[Verdict]]:
        """The verdicts the score counts, in the output's order. Each narrow answer only ever makes
        a claim less supported, or a sentence counted: a claim whose names the context does not
        give, or whose numbers it gives only for something else, or whose sentence adds what
        changes it while the sentence is not supported, is not supported; a sentence counts where
        it states a fact no claim does, or writes a number the context does not (whatever the facts
        question said, unless the judge says it states none of its numbers as a fact: a third
        answer), or its claims quote it whole and are each supported while it is
        not (halves each true alone, "Acme employs 400 people" and "… in Oslo" beside "40 in Oslo
        and 400 in Bergen": their verdicts and the sentence's disagree, and no answer decides
        alone which is right). Claims that restate one stretch of the output count once, at the
        least supported verdict (`_groups`)."""
        items = claims + sentences
        verdicts = list(answers.verdicts)
        for i, item in enumerate(items):
            if verdicts[i].verdict == self.supported_verdict and answers.given.get(i) is False:
                verdicts[i] = self._overruled(verdicts[i], "not in the context: it never writes "
                                              + ", ".join(f"“{t}”" for t in self._unwritten(item.quote, context))
                                              + ", and asked whether it gives them in any form, the judge says no")
            if verdicts[i].verdict == self.supported_verdict and answers.role.get(i) is False:
                verdicts[i] = self._overruled(verdicts[i], _given_otherwise(item.quote, context))
        for i in range(len(claims)):  # after the sentences' own verdicts are final
            held = [verdicts[s] for s in _sentence_items(items, len(claims), i)
                    if verdicts[s].verdict != self.supported_verdict]
            if verdicts[i].verdict == self.supported_verdict and answers.changed.get(i) and held:
                verdicts[i] = self._overruled(verdicts[i], "its sentence says more that changes these words, and "
                                              "the sentence is not supported: " + "; ".join(v.reason for v in held))
        kept = _groups(claims, verdicts, self.supported_verdict, output)
        restated = len(claims) - len(kept)
        if restated:
            notes.append(f"{plural(restated, 'claim')} restated words of another claim's and counted once with it")
        counted = [len(claims) + j for j, s in enumerate(sentences) if s.bare and (
            answers.fact.get(len(claims) + j, True) or (numbers_not_written(s.quote, context)
                                                        and answers.valued.get(len(claims) + j, True)))]
        joined = [s for s in range(len(claims), len(items)) if not items[s].bare and s in answers.judged
                  and verdicts[s].verdict != self.supported_verdict
                  and all(verdicts[c].verdict == self.supported_verdict
                          for c in range(len(claims)) if set(items[c].at) & set(items[s].at))]
        if joined:
            notes.append(f"{plural(len(joined), 'sentence')} whose claims were each supported, but not together: "
                         "counted beside them")
        counted += joined
        unquoted = [s for j, s in enumerate(sentences) if not s.checked and len(claims) + j not in counted]
        if unquoted:
            notes.append(f"{plural(len(unquoted), 'sentence')} no claim quotes stated no fact when asked ("
                         + ", ".join(f"“{shorten(s.quote)}”" for s in unquoted) + "): left out")
        order = sorted(kept + counted, key=lambda i: (min(items[i].at, default=0), items[i].whole,
                                                      min(items[i].covered, default=0)))
        for i in counted:
            verdicts[i] = verdicts[i].model_copy(update={"sentence": True})
        return [items[i] for i in order], [verdicts[i] for i in order]

    @staticmethod
    def _about(verdict: Verdict, item: Judged, context: list[str]) -> Verdict:
        """The verdict with the words it is about, and the context sentence it rests on: the one
        its reason quotes, else the one sharing most characters with the words."""
        evidence = verdict.evidence or quoted_sentence(verdict.reason, context) or next(
            iter(nearest_sentences(item.quote, context, 1, share=0.25)), "")
        return verdict.model_copy(update={"words": list(item.words), "sentence": item.whole, "evidence": evidence})

    def _overruled(self, verdict: Verdict, reason: str) -> Verdict:
        """Decided by a narrow question: not supported, and no votes shown (they did not decide)."""
        return verdict.model_copy(update={"verdict": self.empty_context_verdict, "samples": [], "reason": reason})

    def _messages(self, task: str, context: list[str], claims: str,
                  data: Sequence[dict[str, Any]]) -> list[dict[str, str]]:
        """System and context first, claims last: a local judge reuses the shared prefix. The narrow
        questions' text only where an item asks them."""
        return [
            {"role": "system", "content": self.verdict_system},
            {"role": "user", "content": task.format(context=context_block(context), claims=claims,
                                                    **questions.narrow_task(data))},
        ]

    @classmethod
    def _verdict(cls, answer: Any, item: Judged) -> Verdict:
        return Verdict(statement=item.quote, verdict=cls.verdict_of(answer), reason=answer.reason.strip())

    @staticmethod
    def verdict_of(answer: Any) -> str:
        """The spec's verdict label for a judge answer."""
        return str(answer.verdict)

    @staticmethod
    def label_verdict(label: Label) -> str:
        """The spec's verdict label for a claim judged by its label probabilities."""
        raise NotImplementedError

    @staticmethod
    def label_reason(label: Label) -> str:
        """What decided a claim judged by its label probabilities, in this scorer's direction."""
        return label.reason

    def _llm_reason(self, result: ScoreResult) -> None:
        """Mastra's optional third call: prose from the score and verdicts, parsed leniently."""
        verdicts = "\n".join(f"- {v.verdict}: {v.statement} ({v.reason})" for v in result.verdicts) or "(no claims)"
        prompt = self.reason_task.format(
            score=f"{result.score:.2f}", scale=f"{result.scale:g}", verdicts=verdicts,
            context=context_block(result.context), input=fence("input", result.input or ""),
            output=fence("output", result.output),
        )
        messages = [{"role": "system", "content": DATA_RULE}, {"role": "user", "content": prompt}]
        text, call = self.judge.ask("reason", messages, None, self.version)
        result.judge_calls.append(call)
        result.generate_reason_prompt = prompt
        result.reason = parse_reason(str(text))

    def _unwritten(self, words: str, context: list[str]) -> list[str]:
        """The tokens the specifics question asks about. A hosted judge is asked about a token
        capitalised only at a sentence's start too ("Berg booked the flight"), in the verdicts' own
        request; the offline judge is not: its answers there for words that are no name ("We" 0.22,
        "It" 0.33) and for names (0.09-0.42) overlap (benchmarks/README.md, round 22)."""
        return unwritten(words, context, at_starts=self.judge.verdict_mode != "label")

    # -- wording ------------------------------------------------------------------------
    def explain(self, result: ScoreResult) -> str:
        raise NotImplementedError


def _given_otherwise(quote: str, context: list[str]) -> str:
    """Why a claim is not supported once the judge says no to its second question: the context gives
    its values for something else, or writes its words only the other way (`other_values`)."""
    found = [o for o in other_values(quote, context) if o.written]
    shown = "; ".join(f"{'it' if o.negated else 'beside these words it'} writes “{o.other}”, not “{o.said}”"
                      for o in found)
    if all(o.negated for o in found):
        way = "only more weakly" if all(o.hedged for o in found) else "only the other way"
        return f"the context writes these words {way}: {shown}, and asked whether it still says what the words " \
               "say, the judge says no"
    asked = values_in_other_roles(quote, context)
    return f"the context gives these {questions.kind_of(asked)} for something else: {shown}, and asked whether " \
           f"it gives {', '.join(f'“{n}”' for n in asked)} for what the words say, the judge says no"


def _as_asked(item: Judged, context: list[str], unwritten_tokens: list[str]) -> dict[str, Any]:
    """How a verdicts request shows an item, with the keys of the narrow questions code sees a
    reason to ask of it (questions.ASKED_BY); `unwritten_tokens`: `ClaimsScorer._unwritten`."""
    data = item.as_data()
    if unwritten_tokens:
        data["not_in_context"] = unwritten_tokens
    if item.whole and item.bare and (values := numbers_not_written(item.quote, context)):
        data["numbers"] = values
    if others := values_in_other_roles(item.quote, context):
        data["other_role"] = others
        if instead := values_given_instead(item.quote, context):  # what the context writes in their place
            data["context_writes"] = instead
    return data


def same_statements(items: Sequence[Judged], data: Sequence[dict[str, Any]]) -> Callable[[Any], None]:
    """Verdicts match claims by position: one per claim, and none that echoes another claim's words
    (the judge lost its place), each with the narrow answers its item asks. An echo that matches no
    claim exactly is let be: judges reword."""
    keys = [fold(item.quote) for item in items]

    def check(answer: Any) -> None:
        verdicts = answer.verdicts
        if len(verdicts) != len(items):
            raise ValueError(f"expected exactly {len(items)} verdicts (one per claim, in order), got {len(verdicts)}")
        for i, verdict in enumerate(verdicts):
            said = fold(verdict.statement)
            if said and said != keys[i] and said in keys:
                raise ValueError(f"verdict {i + 1} is about {verdict.statement!r}, but claim {i + 1} is "
                                 f"{items[i].quote!r}: give one verdict per claim, in the order given, "
                                 "copying each claim's \"words\" into \"statement\"")
            missing = [name for name, key in questions.ASKED_BY.items()
                       if key in data[i] and getattr(verdict, name) is None]
            if missing:
                raise ValueError(f"verdict {i + 1} has no {', '.join(repr(m) for m in missing)}: answer it "
                                 "\"yes\" or \"no\" for every item that has "
                                 + ", ".join(repr(questions.ASKED_BY[m]) for m in missing))

    return check


def parse_reason(text: str) -> str:
    """Take the prose of an LLM reason: strip code fences, unwrap {"reason": ...}."""
    try:
        data = extract_json(text)
    except ValueError:
        data = None
    if isinstance(data, dict) and isinstance(data.get("reason"), str):
        reason: str = data["reason"]
        return reason.strip()
    body = text.strip()
    if body.startswith("```"):
        body = body.strip("`").removeprefix("json").strip()
    return body


def listing(verdicts: Sequence[Verdict]) -> str:
    return "; ".join(f'"{shorten(v.statement)}" ({shorten(v.reason, 120) or v.verdict})' for v in verdicts)


_NAME = re.compile(r"[a-z][a-z0-9_]*\Z")  # a baseline key's [scorer], a JUnit property's part


class ScorerRegistry:
    """The scorers a run knows by name: the built-in two and those plugins register through the
    pytest_llmfaith_register_scorers hook. A name is checked here once, not in every result."""

    def __init__(self) -> None:
        self._scorers: dict[str, type[Scorer]] = {}

    def register(self, scorer: type[Scorer]) -> None:
        """Add a Scorer subclass under its `name`; registering the same class again does nothing."""
        if not (isinstance(scorer, type) and issubclass(scorer, Scorer)):
            raise TypeError(f"llmfaith: register() takes a subclass of pytest_llmfaith.Scorer, got {scorer!r}. "
                            "Fix: class MyScorer(Scorer): name = 'my_scorer' ... then register(MyScorer).")
        name = getattr(scorer, "name", None)
        if not isinstance(name, str) or not _NAME.match(name):
            raise ValueError(f"llmfaith: scorer {scorer.__name__} has name {name!r}; a scorer's name is lower "
                             "case letters, digits and _, starting with a letter. Fix: e.g. name = 'politeness'.")
        if not isinstance(scorer.higher_is_better, bool):
            raise TypeError(f"llmfaith: {scorer.__name__}.higher_is_better must be True or False.")
        default = scorer.default_threshold
        if default is not None and (isinstance(default, bool) or not isinstance(default, (int, float))
                                    or not math.isfinite(default) or default < 0):
            raise ValueError(f"llmfaith: {scorer.__name__}.default_threshold must be None or a number >= 0, "
                             f"got {default!r}.")
        known = self._scorers.get(name)
        if known is not None and known is not scorer:
            raise ValueError(f"llmfaith: two scorers are named {name!r}: {_where(known)} and {_where(scorer)}. "
                             "Fix: give one of them another name.")
        self._scorers[name] = scorer

    def get(self, name: str) -> type[Scorer]:
        __tracebackhide__ = True
        if name not in self._scorers:
            raise ValueError(f"llmfaith: no scorer is named {name!r}; registered: {', '.join(sorted(self._scorers))}. "
                             "Fix: check the name, or register the scorer with the pytest_llmfaith_register_scorers "
                             "hook in a conftest.py or plugin (README: Extending).")
        return self._scorers[name]


def _where(scorer: type[Scorer]) -> str:
    return f"{scorer.__module__}.{scorer.__qualname__}"
