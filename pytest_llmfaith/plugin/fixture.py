"""What the `llm_judge` fixture returns: the assertions and raw scorers bound to one test, with
defaults of its own (`with_defaults`, like syrupy's `snapshot.with_defaults`)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError

from pytest_llmfaith.agent_runs import RunContext
from pytest_llmfaith.errors import ConfigError
from pytest_llmfaith.plugin.assertion import NoClaims, assess, async_twin, score
from pytest_llmfaith.plugin.session import active_session, running_item
from pytest_llmfaith.results import ScoreResult


class JudgeDefaults(BaseModel):
    """The defaults of one `llm_judge` object (`with_defaults`); a call's own arguments win."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    model: str | None = None
    min_score: float | None = None
    max_score: float | None = None
    no_claims: NoClaims | None = None
    scale: float | None = None


class LLMJudge:
    """What the `llm_judge` fixture returns: the assertions and raw scorers, bound to one test.

    `with_defaults(...)` returns a copy with defaults of its own, like syrupy's
    `snapshot.with_defaults`: one object per judge model or threshold a test needs."""

    def __init__(self, item: Any = None, defaults: JudgeDefaults | None = None) -> None:
        self.item = item  # None: the running test, found when a call is made
        self.defaults = defaults or JudgeDefaults()

    def with_defaults(self, **defaults: Any) -> LLMJudge:
        """A copy of this object whose calls default to these options (model, min_score,
        max_score, no_claims, scale); this object's own defaults carry over."""
        __tracebackhide__ = True
        try:
            merged = JudgeDefaults.model_validate({**self.defaults.model_dump(exclude_unset=True), **defaults})
        except ValidationError as err:
            first = err.errors()[0]
            where = ".".join(str(p) for p in first["loc"])
            problem = "unknown option" if first["type"] == "extra_forbidden" else first["msg"].lower()
            raise ValueError(
                f"llmfaith: llm_judge.with_defaults({where}=...): {problem}. It takes "
                f"{', '.join(JudgeDefaults.model_fields)}, e.g. with_defaults(model=\"openai/gpt-4o\", "
                "min_score=0.8)."
            ) from None
        return LLMJudge(self.item, merged)

    def assert_faithful(self, output: Any, context: RunContext = None, min_score: float | None = None, *,
                        input: str | None = None, scale: float | None = None, model: str | None = None,
                        no_claims: NoClaims | None = None, label: str | None = None,
                        turn: int | None = None) -> ScoreResult:
        """`assert_faithful`, with this object's defaults."""
        __tracebackhide__ = True
        return self.assert_score("faithfulness", output, context, min_score, input=input, scale=scale, model=model,
                                 no_claims=no_claims, label=label, turn=turn)

    def assert_not_hallucinated(self, output: Any, context: RunContext = None, max_score: float | None = None, *,
                                input: str | None = None, scale: float | None = None, model: str | None = None,
                                no_claims: NoClaims | None = None, label: str | None = None,
                                turn: int | None = None) -> ScoreResult:
        """`assert_not_hallucinated`, with this object's defaults."""
        __tracebackhide__ = True
        return self.assert_score("hallucination", output, context, max_score, input=input, scale=scale, model=model,
                                 no_claims=no_claims, label=label, turn=turn)

    def faithfulness(self, output: Any, context: RunContext = None, *, input: str | None = None,
                     scale: float | None = None, model: str | None = None, label: str | None = None,
                     turn: int | None = None) -> ScoreResult:
        """The faithfulness score without a threshold (a NO THRESHOLD row)."""
        __tracebackhide__ = True
        return self.score("faithfulness", output, context, input=input, scale=scale, model=model, label=label,
                          turn=turn)

    def hallucination(self, output: Any, context: RunContext = None, *, input: str | None = None,
                      scale: float | None = None, model: str | None = None, label: str | None = None,
                      turn: int | None = None) -> ScoreResult:
        """The hallucination score without a threshold (a NO THRESHOLD row)."""
        __tracebackhide__ = True
        return self.score("hallucination", output, context, input=input, scale=scale, model=model, label=label,
                          turn=turn)

    assert_faithful_async = async_twin(assert_faithful, "faithfulness")
    assert_not_hallucinated_async = async_twin(assert_not_hallucinated, "hallucination")

    def score(self, scorer: str, output: Any, context: RunContext = None, *, input: str | None = None,
              scale: float | None = None, model: str | None = None, label: str | None = None,
              turn: int | None = None) -> ScoreResult:
        """Any registered scorer's score without a threshold (a NO THRESHOLD row)."""
        __tracebackhide__ = True
        return score(scorer, output, context, label=label, item=self._test(),
                     **self._options(input, scale, model, turn))

    def assert_score(self, scorer: str, output: Any, context: RunContext = None, threshold: float | None = None, *,
                     input: str | None = None, scale: float | None = None, model: str | None = None,
                     no_claims: NoClaims | None = None, label: str | None = None,
                     turn: int | None = None) -> ScoreResult:
        """Fail unless any registered scorer's score is on the good side of `threshold` (>= where
        higher is better, <= where lower is); it defaults to this object's min_score or max_score
        by the scorer's direction, then to the scorer's default."""
        __tracebackhide__ = True
        d, item = self.defaults, self._test()
        if threshold is None:
            higher = active_session().judges.scorer_class(scorer).higher_is_better
            threshold = d.min_score if higher else d.max_score
        return assess(scorer, output, context, threshold, no_claims or d.no_claims, label, item,
                      **self._options(input, scale, model, turn))

    def _test(self) -> Any:
        """The test this object belongs to; used in another test, its scores would land in a
        report that is already written, so that is an error."""
        __tracebackhide__ = True
        running = running_item()
        if self.item is not None and running is not None and running is not self.item:
            raise ConfigError(
                f"llmfaith: this llm_judge object belongs to {self.item.nodeid} but was used in "
                f"{running.nodeid}. Fix: request the llm_judge fixture in {running.name} (or use "
                "assert_faithful / assert_not_hallucinated, which need no fixture)."
            )
        return self.item or running

    def _options(self, input: str | None, scale: float | None, model: str | None,
                 turn: int | None) -> dict[str, Any]:
        d = self.defaults
        return {"input": input, "scale": (1 if d.scale is None else d.scale) if scale is None else scale,
                "model": model or d.model, "turn": turn}
