"""What a scorer run produces and what an assertion records: the types that cross into reports."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field, computed_field


class Verdict(BaseModel):
    """One claim judged against the context. `verdict` is already normalised ("Yes." -> "yes").

    With votes, `samples` holds every sample's verdict (the first is the one a single vote would
    give) and `verdict` is the majority on what the score counts ("yes" or not)."""

    statement: str
    verdict: str
    reason: str = ""
    samples: list[str] = Field(default_factory=list)

    @computed_field  # type: ignore[prop-decorator]
    @property
    def agreement(self) -> str | None:
        """How many samples agree with the verdict, e.g. "2/3" (None without votes)."""
        if len(self.samples) < 2:
            return None
        agree = sum((s == "yes") == (self.verdict == "yes") for s in self.samples)
        return f"{agree}/{len(self.samples)}"

    @property
    def contested(self) -> bool:
        """Some samples counted this claim differently from the majority."""
        return len({s == "yes" for s in self.samples}) > 1


class JudgeCall(BaseModel):
    """One judge round-trip (or cache hit), for cost and latency accounting."""

    step: str
    model: str
    cached: bool
    latency_s: float
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    cost_usd: float | None = None
    attempts: int = 1
    key: str = ""


class ScoreResult(BaseModel):
    """A scorer run. Field names follow Mastra's run result so existing dashboards map 1:1."""

    scorer: Literal["faithfulness", "hallucination"]
    run_id: str
    score: float
    reason: str
    output: str
    context: list[str]
    input: str | None = None
    scale: float = 1.0
    claims: list[str] = Field(default_factory=list)
    verdicts: list[Verdict] = Field(default_factory=list)
    preprocess_step_result: dict = Field(default_factory=dict)
    preprocess_prompt: str = ""
    analyze_step_result: dict = Field(default_factory=dict)
    analyze_prompt: str = ""
    generate_reason_prompt: str | None = None
    judge_calls: list[JudgeCall] = Field(default_factory=list)
    no_claims: bool = False  # the judge found no claims: the score is 0, pass or fail is a policy
    votes: int = 1  # samples per verdict (claims are extracted once)

    @property
    def lowest_agreement(self) -> str | None:
        """The agreement of the least agreed-on claim, e.g. "2/3"."""
        agreements = [v.agreement for v in self.verdicts if v.agreement]
        return min(agreements, key=lambda a: int(a.split("/")[0])) if agreements else None

    @property
    def higher_is_better(self) -> bool:
        return self.scorer == "faithfulness"


class Assessment(BaseModel):
    """A score checked against a threshold inside a test: one row of the summary."""

    test_id: str
    result: ScoreResult
    threshold: float
    passed: bool
    expected_failure: bool = False  # scored in an xfail test: shown, but kept out of gates
    unstable: bool = False  # the minority verdicts of some claims would flip pass/fail

    @property
    def status(self) -> str:
        """The outcome, with UNSTABLE added when the votes were too close to trust it."""
        return f"{self.outcome} UNSTABLE" if self.unstable else self.outcome

    @property
    def outcome(self) -> str:
        if self.passed:
            return "PASS"
        return "XFAIL" if self.expected_failure else "FAIL"

    @property
    def comparison(self) -> str:
        return ">=" if self.result.higher_is_better else "<="
