"""The assertions test authors call (the `llm_judge` fixture object offers the same: fixture.py)."""

from __future__ import annotations

import asyncio
import math
from collections.abc import Callable, Coroutine
from typing import Any, Literal, ParamSpec, get_args

from pytest_llmfaith.agent_runs import RunContext, judged
from pytest_llmfaith.errors import ConfigError, redact_data
from pytest_llmfaith.plugin.session import active_session, marker_overrides, reserved_ordinal, running_item
from pytest_llmfaith.results import Assessment, ScoreResult
from pytest_llmfaith.scorers import votes
from pytest_llmfaith.scorers.base import Scorer
from pytest_llmfaith.settings import Settings
from pytest_llmfaith.wording import claim_mark, shorten, unstable_advice

_DEFAULT_KEY = {"faithfulness": "min_faithfulness", "hallucination": "max_hallucination"}
_ARGUMENT = {"faithfulness": "min_score", "hallucination": "max_score"}
NoClaims = Literal["fail", "pass"]
P = ParamSpec("P")


def assert_faithful(
    output: Any, context: RunContext = None, min_score: float | None = None, *,
    input: str | None = None, scale: float = 1, model: str | None = None, no_claims: NoClaims | None = None,
    label: str | None = None, turn: int | None = None,
) -> ScoreResult:
    """Fail unless at least `min_score` of the output's claims are supported by the context.

    `output` is the model's text, or an agent's run (its messages, in any format of
    docs/testing-agents.md): its final answer is judged against its tool results, or against
    `context` when given (a list, or a callable given the run); `turn` picks an earlier answer.
    `no_claims` decides a non-empty output in which the judge found no claims (default: the
    llm_no_claims setting, "fail"): a refusal may rightly make none, a failed judge also does.
    `label` names the assertion within its test, in the summary, the reports and the baseline.
    """
    __tracebackhide__ = True
    return assess("faithfulness", output, context, min_score, no_claims, label,
                  input=input, scale=scale, model=model, turn=turn)


def assert_not_hallucinated(
    output: Any, context: RunContext = None, max_score: float | None = None, *,
    input: str | None = None, scale: float = 1, model: str | None = None, no_claims: NoClaims | None = None,
    label: str | None = None, turn: int | None = None,
) -> ScoreResult:
    """Fail if more than `max_score` of the output's claims are made up relative to the context
    (the output: a string, or an agent's run, as for assert_faithful)."""
    __tracebackhide__ = True
    return assess("hallucination", output, context, max_score, no_claims, label,
                  input=input, scale=scale, model=model, turn=turn)


def async_twin(check: Callable[P, ScoreResult], scorer: str) -> Callable[P, Coroutine[Any, Any, ScoreResult]]:
    """`check` as a coroutine function: the judge works in a thread (asyncio.to_thread, which
    carries the running test along), so several checks of one test can run at once
    (`await asyncio.gather(...)`). The check is numbered when it is called, not when it finishes."""

    async def twin(*args: P.args, **kwargs: P.kwargs) -> ScoreResult:
        __tracebackhide__ = True
        label = kwargs.get("label")
        check_label(label)  # a bad label fails here, before it takes a number
        ordinal = active_session().next_ordinal(running_item(), scorer, label if isinstance(label, str) else None)
        token = reserved_ordinal.set(ordinal)

        def caught() -> tuple[ScoreResult | None, BaseException | None]:
            """In the thread: the failure is handed back, not raised through asyncio's frames, so
            that its traceback goes from the test's await straight to the check."""
            __tracebackhide__ = True
            try:
                return check(*args, **kwargs), None
            except BaseException as err:
                return None, err

        try:
            result, error = await asyncio.to_thread(caught)
        finally:
            reserved_ordinal.reset(token)
        if error is not None:
            raise error
        assert result is not None
        return result

    twin.__name__ = twin.__qualname__ = f"{check.__name__}_async"
    twin.__doc__ = f"`await {check.__name__}_async(...)`: {check.__name__} run in a thread, to gather several."
    return twin


assert_faithful_async = async_twin(assert_faithful, "faithfulness")
assert_not_hallucinated_async = async_twin(assert_not_hallucinated, "hallucination")


def score(scorer: str, output: Any, context: RunContext = None, *, input: str | None = None,
          scale: float = 1, model: str | None = None, label: str | None = None, item: Any = None,
          turn: int | None = None) -> ScoreResult:
    """Run a scorer without a threshold (for custom checks). Recorded as a NO THRESHOLD row: its
    judge calls are part of the run's totals, and its score of the baseline."""
    __tracebackhide__ = True
    check_label(label)
    session, item = active_session(), item or running_item()
    session.judges.scorer_class(scorer)  # an unknown name fails before the judge is set up
    overrides = marker_overrides(item)
    result = _scored(session.judges.scorer(scorer, model or overrides.get("model")), output, context, input, turn,
                     scale=scale)
    session.record(Assessment(test_id=_test_id(item), result=result, label=label), item)
    return result


def assess(name: str, output: Any, context: RunContext, threshold: float | None, no_claims: str | None,
           label: str | None, item: Any = None, **options: Any) -> ScoreResult:
    __tracebackhide__ = True
    check_label(label)
    session, item = active_session(), item or running_item()
    scorer = session.judges.scorer_class(name)
    overrides = marker_overrides(item)
    scale = options["scale"]
    if threshold is None:
        threshold = _default_threshold(scorer, session.settings, overrides, scale)
    else:
        check_threshold(threshold, scale, f"{_ARGUMENT.get(name, 'threshold')}={threshold!r}", ValueError)
    policy = no_claims or overrides.get("no_claims") or session.settings.no_claims
    if policy not in get_args(NoClaims):
        error = ValueError if no_claims else ConfigError  # a wrong argument fails, a wrong marker errors
        raise error(f"llmfaith: no_claims must be 'pass' or 'fail', got {policy!r}.")
    model = options.pop("model") or overrides.get("model")
    result = _scored(session.judges.scorer(name, model), output, context, options.pop("input", None),
                     options.pop("turn", None), **options)
    if _policy_decides(result):
        passed = policy == "pass"
    else:
        passed = result.score >= threshold if result.higher_is_better else result.score <= threshold
    assessment = Assessment(test_id=_test_id(item), result=result, threshold=float(threshold), passed=passed,
                            label=label, unstable=votes.unstable(result, threshold))
    recorded = session.record(assessment, item)  # before raising: failures must reach the summary
    if not passed:
        raise AssertionError(failure_message(recorded))
    return result


def _scored(scorer: Scorer, output: Any, context: RunContext, input: str | None, turn: int | None,
            **options: Any) -> ScoreResult:
    """The score of a string or an agent's run (its answer against its tool results). A run's texts
    and tool calls are redacted as one call, so a secret in a tool's arguments is a placeholder on
    the page and in the reports too, with the number it has in the passages."""
    scored = judged(output, context, input, turn)
    if scored.format is not None and isinstance(scored.context, list):
        texts = (scored.output, scored.context, scored.input, scored.tool_calls)
        output, context, input, calls = redact_data(texts, [scorer.judge.config.api_key_env])
        scored = scored.model_copy(update={"output": output, "context": context, "input": input, "tool_calls": calls})
    result = scorer.run(scored.output, scored.context, input=scored.input, **options)
    if scored.format is not None:  # its format and tool calls reach the reports
        result.agent_run = scored.format
        result.tool_calls = scored.tool_calls
        result.failed_tool_calls = scored.failed_calls
    return result


def _default_threshold(scorer: type[Scorer], settings: Settings, overrides: dict[str, Any], scale: float) -> float:
    """A built-in scorer's from the marker or the settings; another's from its class."""
    __tracebackhide__ = True
    key = _DEFAULT_KEY.get(scorer.name)
    if key is not None:
        threshold = overrides.get(key, getattr(settings, key))
        where = f"@pytest.mark.llmfaith({key}={threshold!r})" if key in overrides else f"llm_{key}={threshold!r}"
    else:
        threshold = scorer.default_threshold
        if threshold is None:
            raise ValueError(f"llmfaith: scorer {scorer.name!r} has no default threshold. Fix: pass threshold=... "
                             f"(or min_score / max_score to llm_judge.with_defaults), or set "
                             f"default_threshold on {scorer.__name__}.")
        where = f"{scorer.__name__}.default_threshold={threshold!r}"
    check_threshold(threshold, scale, where, ConfigError)
    return float(threshold)


def _test_id(item: Any) -> str:
    return item.nodeid if item is not None else "<outside pytest>"


def check_label(label: Any) -> None:
    """A label is part of a baseline key and a table row: one line of text, or None."""
    __tracebackhide__ = True
    if label is not None and (not isinstance(label, str) or not label.strip() or "\n" in label):
        raise ValueError(f"llmfaith: label must be a non-empty one-line string, got {label!r}. "
                         'Fix: e.g. label="refund policy".')


def check_threshold(value: Any, scale: Any, where: str, error: type[Exception]) -> None:
    """A threshold outside the scale always passes or always fails: refuse it at the call.

    `error` is ValueError for an argument, ConfigError (an ERROR of the test) for a marker.
    """
    __tracebackhide__ = True
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise error(f"llmfaith: {where} must be a finite number between 0 and the scale.")
    if not isinstance(scale, bool) and isinstance(scale, (int, float)) and not 0 <= value <= scale:
        percent = value / 100 * scale  # max_score=10 on a 0..1 scale was meant as 10 %
        hint = f"; did you mean {percent:.2f}?" if 0 < percent <= scale else \
            f"; use a score between 0 and {scale:g} (the scale argument)."
        raise error(f"llmfaith: {where} is outside 0..{scale:g}{hint}")


def failure_message(assessment: Assessment) -> str:
    r = assessment.result
    judge = f"(judge: {r.judge_calls[0].model if r.judge_calls else 'none needed'})"
    if _policy_decides(r):
        return "\n".join([
            f"{r.scorer}: the judge found NO CLAIMS in a non-empty output {judge}, and no_claims='fail'.",
            "If this output rightly states no facts (a refusal, a greeting, a question), pass "
            "no_claims='pass' to the assertion or to @pytest.mark.llmfaith (default: --llm-no-claims); "
            "if it does state facts, the judge failed to read them: use a stronger judge model.",
            f"output: {shorten(r.output, 300)!r}"])
    side = f"{'below' if r.higher_is_better else 'above'} {_ARGUMENT.get(r.scorer, 'threshold')}"
    named = f" [{assessment.label}]" if assessment.label else ""
    votes_note = f"; majority of {r.votes} votes per claim" if r.votes > 1 else ""
    lines = [f"{r.scorer}{named} score {r.score:.2f} is {side} {assessment.threshold:.2f} {judge}{votes_note}",
             f"reason: {r.reason}"]
    if assessment.unstable:
        low, high = votes.score_range(r)
        lines.append(f"UNSTABLE: the minority votes would give {low:.2f}..{high:.2f}, which flips the "
                     f"outcome; the majority decides. {unstable_advice(r.votes)}")
    if r.verdicts:
        lines.append("claims, unsupported first:")
        marks = [(r.is_bad(v), claim_mark(r.scorer, v.verdict, r.is_bad(v)), v) for v in r.verdicts]
        width = max(len(mark) for _, mark, _ in marks)
        lines += [f"  {mark:<{width}} {f'({v.agreement}) ' if v.agreement else ''}{shorten(v.statement, 110)!r}"
                  + (f"\n  {'':<{width}} {shorten(v.reason, 110)}" if bad and v.reason else "")
                  for bad, mark, v in sorted(marks, key=lambda m: not m[0])]
    lines.append(f"output: {shorten(r.output, 300)!r}")
    return "\n".join(lines)


def _policy_decides(result: ScoreResult) -> bool:
    """No claims in a non-empty output: the no_claims policy decides, not the score (0).
    An empty output keeps Mastra's outcomes: hallucination 0 passes, faithfulness 0 fails."""
    return result.no_claims and bool(result.output.strip())
