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
    claim_block,
    claims_block,
    claims_messages,
    context_block,
    fence,
    read_claims,
)
from pytest_llmfaith.scorers.labels import Label
from pytest_llmfaith.text.exact import fold, nearest_sentences, other_amounts, quoted_sentence, tokens, unwritten
from pytest_llmfaith.wording import plural, shorten

ContextArg = Sequence[str] | Callable[[], Sequence[str]]
ReasonMode = Literal["verdicts", "llm"]


def normalise_verdict(value: Any) -> Any:
    """'Yes.' and ' YES ' are 'yes' (Mastra counts only the exact string 'yes')."""
    return value.strip().lower().rstrip(".!?,;:") if isinstance(value, str) else value


def verdict_schemas(prefix: str, labels: tuple[str, ...],
                    field: str = "verdict") -> tuple[type[BaseModel], type[BaseModel]]:
    """The answer schemas of one scorer: one verdict (its label under `field`), and a list of them."""
    label = Annotated[Literal[labels], BeforeValidator(normalise_verdict)]  # type: ignore[valid-type]
    # the label before the reason: better and faster with a small judge (benchmarks/README.md)
    fields: dict[str, Any] = {"statement": (str, ""), field: (label, ...), "reason": (str, "")}
    one = create_model(f"{prefix}Verdict", **fields)
    many = create_model(f"{prefix}Verdicts", verdicts=(list[one], ...))
    return one, many


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
    verdict_system: ClassVar[str]
    verdicts_task: ClassVar[str]
    one_verdict_task: ClassVar[str]
    reason_task: ClassVar[str]
    VerdictSchema: ClassVar[type[BaseModel]]
    VerdictsSchema: ClassVar[type[BaseModel]]

    def measure(self, output: str, context: list[str], input: str | None, scale: float) -> ScoreResult:
        calls: list[JudgeCall] = []
        items: list[Judged] = []
        claims_prompt, answered, notes = claims_messages(output)[-1]["content"], [], []
        if output.strip():  # no judge call is needed to know "" makes no claims
            read = read_claims(self.judge, output)
            items, claims_prompt, answered = read.judged, read.prompt, read.answered
            calls += read.calls
            if read.left_out:
                notes.append(f"{len(read.left_out)} of the judge's claims quoted words the output does not have "
                             "(asked again once); their sentences were judged instead where they state a fact")
        verdicts, analyze_prompt = self._verdicts(items, context, calls)
        items, verdicts, not_claims = self._without_non_facts(output, items, verdicts, context, calls)
        if not_claims:
            notes.append(f"{plural(len(not_claims), 'claim')} of the judge's, each a whole sentence the context "
                         "does not support, stated no fact when asked (" + ", ".join(f"“{shorten(q)}”" for q in
                                                                                      not_claims) + "): left out")
        hits = sum(v.verdict == "yes" for v in verdicts)
        score = round2(hits / len(verdicts) * scale) if verdicts else 0.0
        claims = [item.quote for item in items]
        result = self.result(
            score=score, reason="", output=output,
            context=context, input=input, scale=scale, claims=claims, verdicts=verdicts,
            preprocess_step_result={"claims": answered}, preprocess_prompt=claims_prompt,
            analyze_step_result={"verdicts": [v.model_dump() for v in verdicts]},
            analyze_prompt=analyze_prompt, judge_calls=calls, no_claims=not claims, votes=self.judge.config.votes,
            notes=notes,
        )
        if self.reason_mode == "llm":
            self._llm_reason(result)
        else:
            result.reason = self.explain(result)
        return result

    # -- steps --------------------------------------------------------------------------
    def _verdicts(self, items: list[Judged], context: list[str], calls: list[JudgeCall]) -> tuple[list[Verdict], str]:
        """Every claim's verdict: one sample, or the majority of --llm-judge-votes samples."""
        if not items:
            return [], ""
        if not context:
            return [self._about(Verdict(statement=i.quote, verdict=self.empty_context_verdict,
                                        reason="the context is empty"), i, []) for i in items], ""
        config = self.judge.config
        if config.verdict_mode == "label":
            found, label_calls, prompt = labels.judge_claims(self.judge, items, context)
            calls.extend(label_calls)
            samples = [[Verdict(statement=i.quote, verdict=self.label_verdict(f), reason=self.label_reason(f),
                                evidence=f.evidence) for i, f in zip(items, found)]]
            for k in range(1, config.votes):  # drawn from the probabilities: no further judge call
                drawn = votes.drawn_labels(found, k, config.votes, config.votes_temperature)
                samples.append([Verdict(statement=i.quote, verdict=self.label_verdict(label), reason=reason,
                                        evidence=label.evidence) for i, (label, reason) in zip(items, drawn)])
        else:
            asked = [self._asked_verdicts(items, context, calls, k) for k in range(config.votes)]
            samples, prompt = [verdicts for verdicts, _ in asked], asked[0][1]
        decided = samples[0] if config.votes == 1 else votes.majority(samples)
        verdicts = [self._about(v, item, context) for v, item in zip(decided, items)]
        return self._named(verdicts, items, context, calls), prompt

    def _without_non_facts(self, output: str, items: list[Judged], verdicts: list[Verdict], context: list[str],
                           calls: list[JudgeCall]) -> tuple[list[Judged], list[Verdict], list[str]]:
        """A whole sentence the claims step listed and the context does not support is asked the
        facts question, as a sentence no claim quotes is: a greeting or thanks ("Merhaba!") is no
        claim, whichever step met it. Part of a sentence states what the claims step found in it,
        and an empty context judged nothing. Returns the rest, and the words left out."""
        asked = [i for i, (item, verdict) in enumerate(zip(items, verdicts)) if context and not item.whole
                 and verdict.verdict != self.supported_verdict and tokens(item.quote) == tokens(item.sentence)]
        if not asked:
            return items, verdicts, []
        facts, fact_calls = questions.states_facts(self.judge, output, [items[i].sentence for i in asked])
        calls.extend(fact_calls)
        dropped = {i for i, fact in zip(asked, facts) if not fact}
        kept = [i for i in range(len(items)) if i not in dropped]
        return [items[i] for i in kept], [verdicts[i] for i in kept], [items[i].quote for i in sorted(dropped)]

    @staticmethod
    def _about(verdict: Verdict, item: Judged, context: list[str]) -> Verdict:
        """The verdict with the words it is about, and the context sentence it rests on: the one
        its reason quotes, else the one sharing most characters with the words."""
        evidence = verdict.evidence or quoted_sentence(verdict.reason, context) or next(
            iter(nearest_sentences(item.quote, context, 1, share=0.25)), "")
        return verdict.model_copy(update={"words": list(item.words), "sentence": item.whole, "evidence": evidence})

    def _named(self, verdicts: list[Verdict], items: list[Judged], context: list[str],
               calls: list[JudgeCall]) -> list[Verdict]:
        """A supported claim whose words hold what the context never writes exactly is one narrow
        question to the judge, and a no makes it unsupported whatever the verdict said: an amount
        the context gives only with other numbers ("40 people" beside "400 people"), or a name or
        number it never writes ("Iran" where the context says Iraq)."""
        supported = [i for i, v in enumerate(verdicts) if v.verdict == self.supported_verdict]
        pairs = {i: other_amounts(items[i].quote, context) for i in supported}
        pairs = {i: p for i, p in pairs.items() if p}
        numbers = {i: {n for said, _ in p for n in tokens(said)} for i, p in pairs.items()}
        tokens_of = {i: [t for t in unwritten(items[i].quote, context) if t not in numbers.get(i, set())]
                     for i in supported}
        tokens_of = {i: t for i, t in tokens_of.items() if t}
        asked = [(i, pair) for i, p in pairs.items() for pair in p]
        amounts, amount_calls = questions.same_amounts(self.judge, [pair for _, pair in asked])
        named, named_calls = questions.named(self.judge, context,
                                             [(items[i].sentence, t) for i, t in tokens_of.items()])
        calls.extend(amount_calls + named_calls)
        for (i, (said, others)), p in zip(asked, amounts):
            if p < questions.YES_AT and verdicts[i].verdict == self.supported_verdict:
                shown = ", ".join(f"“{o}”" for o in others)
                verdicts[i] = self._overruled(verdicts[i], f"contradicted by the context's numbers: “{said}” where "
                                                           f"the context says {shown}, and asked whether they are "
                                                           f"equal, {_said(p)}")
        for i, p in zip(tokens_of, named):
            if p < questions.YES_AT and verdicts[i].verdict == self.supported_verdict:
                shown = ", ".join(f"“{t}”" for t in tokens_of[i])
                verdicts[i] = self._overruled(verdicts[i], f"not in the context: it never writes {shown}, and asked "
                                                           f"whether it names them in any form, {_said(p)}")
        return verdicts

    def _overruled(self, verdict: Verdict, reason: str) -> Verdict:
        """Decided by a narrow question: not supported, and no votes shown (they did not decide)."""
        return verdict.model_copy(update={"verdict": self.empty_context_verdict, "samples": [], "reason": reason})

    def _asked_verdicts(self, items: list[Judged], context: list[str], calls: list[JudgeCall],
                        sample: int) -> tuple[list[Verdict], str]:
        """One sample of the JSON verdicts: all claims in one call, or one call per claim."""
        if self.judge.config.verdict_mode == "one":
            conversations = [self._messages(self.one_verdict_task, context, claim_block(i.as_data()))
                             for i in items]
            answers = self.judge.ask_each("verdicts", conversations, self.VerdictSchema, self.version, sample=sample)
            calls.extend(call for _, call in answers)
            verdicts = [self._verdict(a, i) for (a, _), i in zip(answers, items)]
            return verdicts, "\n\n".join(m[-1]["content"] for m in conversations)
        messages = self._messages(self.verdicts_task, context, claims_block([i.as_data() for i in items]))
        answer, call = self.judge.ask("verdicts", messages, self.VerdictsSchema, self.version,
                                      check=same_statements(items), sample=sample)
        calls.append(call)
        verdicts = [self._verdict(a, i) for a, i in zip(answer.verdicts, items)]  # type: ignore[union-attr]
        return verdicts, messages[-1]["content"]

    def _messages(self, task: str, context: list[str], claims: str) -> list[dict[str, str]]:
        """System and context first, claims last: a local judge reuses the shared prefix."""
        return [
            {"role": "system", "content": self.verdict_system},
            {"role": "user", "content": task.format(context=context_block(context), claims=claims)},
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

    # -- wording ------------------------------------------------------------------------
    def explain(self, result: ScoreResult) -> str:
        raise NotImplementedError


def _said(p: float) -> str:
    return labels.probability("yes", p, questions.YES_AT) if 0 < p < 1 else "the judge said no"


def same_statements(items: Sequence[Judged]) -> Callable[[Any], None]:
    """Verdicts match claims by position: one per claim, and none that echoes another claim's words
    (the judge lost its place). An echo that matches no claim exactly is let be: judges reword."""
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
