"""The assertions test authors call, and the `llm_judge` fixture object that offers the same."""

from __future__ import annotations

from typing import Any

from .results import Assessment, ScoreResult, Verdict
from .scorers.base import ContextArg, shorten
from .session import active_session, marker_overrides, running_item

_DEFAULT_KEY = {"faithfulness": "min_faithfulness", "hallucination": "max_hallucination"}


def assert_faithful(
    output: str, context: ContextArg, min_score: float | None = None, *,
    input: str | None = None, scale: float = 1, model: str | None = None,
) -> ScoreResult:
    """Fail unless at least `min_score` of the output's claims are supported by the context."""
    __tracebackhide__ = True
    return _check("faithfulness", output, context, min_score, input=input, scale=scale, model=model)


def assert_not_hallucinated(
    output: str, context: ContextArg, max_score: float | None = None, *,
    input: str | None = None, scale: float = 1, model: str | None = None,
) -> ScoreResult:
    """Fail if more than `max_score` of the output's claims are made up relative to the context."""
    __tracebackhide__ = True
    return _check("hallucination", output, context, max_score, input=input, scale=scale, model=model)


def score(scorer: str, output: str, context: ContextArg, *, input: str | None = None,
          scale: float = 1, model: str | None = None) -> ScoreResult:
    """Run a scorer without a threshold (for custom checks); not recorded in the summary."""
    __tracebackhide__ = True
    overrides = marker_overrides(running_item())
    return active_session().scorer(scorer, model or overrides.get("model")).run(
        output, context, input=input, scale=scale)


def _check(name: str, output: Any, context: ContextArg, threshold: float | None, **options: Any) -> ScoreResult:
    __tracebackhide__ = True
    session, item = active_session(), running_item()
    overrides = marker_overrides(item)
    if threshold is None:
        threshold = overrides.get(_DEFAULT_KEY[name], getattr(session.settings, _DEFAULT_KEY[name]))
    if isinstance(threshold, bool) or not isinstance(threshold, (int, float)) or threshold < 0:
        raise ValueError(f"llmfaith: the {name} threshold must be a number >= 0, got {threshold!r}.")
    model = options.pop("model") or overrides.get("model")
    result = session.scorer(name, model).run(output, context, **options)
    passed = result.score >= threshold if result.higher_is_better else result.score <= threshold
    assessment = Assessment(test_id=item.nodeid if item is not None else "<outside pytest>",
                            result=result, threshold=float(threshold), passed=passed)
    session.record(assessment, item)  # before raising: failures must reach the summary
    if not passed:
        raise AssertionError(failure_message(assessment))
    return result


def failure_message(assessment: Assessment) -> str:
    r = assessment.result
    side = "below min_score" if r.higher_is_better else "above max_score"
    lines = [f"{r.scorer} score {r.score:.2f} is {side} {assessment.threshold:.2f} "
             f"(judge: {r.judge_calls[0].model if r.judge_calls else 'none needed'})",
             f"reason: {r.reason}"]
    if r.verdicts:
        lines.append("claims, unsupported first:")
        lines += [f"  {'✗' if bad else '✓'} {v.verdict:<6} {shorten(v.statement, 110)!r}"
                  + (f"\n             {shorten(v.reason, 110)}" if bad and v.reason else "")
                  for bad, v in sorted(((_is_bad(r, v), v) for v in r.verdicts), key=lambda p: not p[0])]
    lines.append(f"output: {shorten(r.output, 300)!r}")
    return "\n".join(lines)


def _is_bad(result: ScoreResult, verdict: Verdict) -> bool:
    return verdict.verdict != "yes" if result.higher_is_better else verdict.verdict == "yes"


class LLMJudge:
    """What the `llm_judge` fixture returns: the assertions plus the raw scorers."""

    assert_faithful = staticmethod(assert_faithful)
    assert_not_hallucinated = staticmethod(assert_not_hallucinated)

    @staticmethod
    def faithfulness(output: str, context: ContextArg, **options: Any) -> ScoreResult:
        __tracebackhide__ = True
        return score("faithfulness", output, context, **options)

    @staticmethod
    def hallucination(output: str, context: ContextArg, **options: Any) -> ScoreResult:
        __tracebackhide__ = True
        return score("hallucination", output, context, **options)
