"""What a scorer run produces and what an assertion records: the types that cross into reports."""

from __future__ import annotations

import math
from enum import Enum
from typing import Any, Literal

from pydantic import BaseModel, Field, computed_field

from pytest_llmfaith.wording import finding


class Verdict(BaseModel):
    """One claim judged against the context. `verdict` is already normalised ("Yes." -> "yes").

    With votes, `samples` holds every sample's verdict (the first is the one a single vote would
    give) and `verdict` is the majority on what the score counts ("yes" or not)."""

    statement: str  # the claim as the judge worded it: its name, never what is judged
    verdict: str
    reason: str = ""
    samples: list[str] = Field(default_factory=list)
    words: list[str] = Field(default_factory=list)  # the output's own words the verdict is about, verbatim
    sentence: bool = False  # the claim is an output sentence no quoted claim covered (asked, then judged)
    evidence: str = ""  # the context sentence the verdict rests on, verbatim from the context ("" if none)

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

    scorer: str  # a registered scorer's name
    higher_is_better: bool = True  # faithfulness: True; hallucination: False
    run_id: str
    score: float
    reason: str
    output: str
    context: list[str]
    input: str | None = None
    scale: float = 1.0
    claims: list[str] = Field(default_factory=list)
    verdicts: list[Verdict] = Field(default_factory=list)
    preprocess_step_result: dict[str, Any] = Field(default_factory=dict)
    preprocess_prompt: str = ""
    analyze_step_result: dict[str, Any] = Field(default_factory=dict)
    analyze_prompt: str = ""
    generate_reason_prompt: str | None = None
    judge_calls: list[JudgeCall] = Field(default_factory=list)
    no_claims: bool = False  # the judge found no claims: the score is 0, pass or fail is a policy
    votes: int = 1  # samples per verdict (claims are extracted once)
    notes: list[str] = Field(default_factory=list)  # how the score was made less strictly than usual
    agent_run: str | None = None  # the output came from an agent's run in this format (agent_runs.py); None: a string
    tool_calls: list[str] = Field(default_factory=list)  # that run's tool calls before the judged answer, `f(a=1)`
    failed_tool_calls: list[int] = Field(default_factory=list)  # positions in tool_calls of those that failed

    @property
    def lowest_agreement(self) -> str | None:
        """The agreement of the least agreed-on claim, e.g. "2/3"."""
        agreements = [v.agreement for v in self.verdicts if v.agreement]
        return min(agreements, key=lambda a: int(a.split("/")[0])) if agreements else None

    def is_bad(self, verdict: Verdict) -> bool:
        return claim_is_bad(self.higher_is_better, verdict.verdict)


def claim_is_bad(higher_is_better: bool, verdict: str) -> bool:
    """A claim that worsens the score: one not judged "yes" where a higher score is better (not
    supported, for faithfulness), one judged "yes" where lower is better (made up, for hallucination)."""
    return verdict != "yes" if higher_is_better else verdict == "yes"


class Status(str, Enum):
    """What a row of the summary says. Extend here: reports colour and count by status."""

    PASS = "PASS"
    FAIL = "FAIL"
    XFAIL = "XFAIL"
    REGRESSED = "REGRESSED"  # passed its threshold, but worse than the committed baseline
    NO_THRESHOLD = "NO THRESHOLD"  # a raw score from the llm_judge fixture: recorded, not checked
    UNSTABLE = "UNSTABLE"  # votes: qualifies an outcome that the minority verdicts would flip

    def __str__(self) -> str:
        return self.value


class ClaimChange(BaseModel):
    """One difference between a baseline entry's claims and this run's."""

    change: Literal["newly unsupported", "appeared", "disappeared", "flipped"]
    claim: str
    was: str | None = None  # verdict in the baseline (None: the claim is new)
    now: str | None = None  # verdict in this run (None: the claim is gone)
    reason: str = ""  # the judge's reason for the current verdict

    def describe(self, scorer: str) -> str:
        """`newly unsupported (supported -> not in the context): "claim" — reason`, `disappeared
        (was supported): "claim"`: the verdicts in words, which read the same for both scorers."""
        was, now = (finding(scorer, v) if v is not None else None for v in (self.was, self.now))
        verdicts = f"was {was}" if now is None else now if was is None else f"{was} -> {now}"
        reason = f" — {self.reason}" if self.reason else ""
        return f'{self.change} ({verdicts}): "{self.claim}"{reason}'



class Regression(BaseModel):
    """A score worse than its baseline entry by more than the tolerance, and what changed."""

    was: float
    now: float
    tolerance: float
    changes: list[ClaimChange] = Field(default_factory=list)
    claims_known: bool = True  # False: an old scores-only baseline entry, nothing to compare claims with
    was_unstable: bool = False  # a close vote decided the baseline's score: the judge may have moved, not the app

    def headline(self) -> str:
        return f"{self.was:.2f} -> {self.now:.2f} ({self.now - self.was:+.2f}, tolerance {self.tolerance:.2f})"


class Assessment(BaseModel):
    """A score made inside a test, checked against a threshold or not: one row of the summary."""

    test_id: str
    result: ScoreResult
    threshold: float | None = None  # None: a raw score from the llm_judge fixture
    passed: bool | None = None  # None with no threshold: nothing was checked
    label: str | None = None  # names the assertion within its test (label="...")
    ordinal: int = 1  # 2, 3...: a further unlabelled assertion of this scorer (same label) in the test
    expected_failure: bool = False  # scored in an xfail test: shown, but kept out of gates
    regression: Regression | None = None  # worse than the baseline by more than the tolerance
    unstable: bool = False  # with votes: the minority verdicts of some claims would flip pass/fail

    @computed_field  # type: ignore[prop-decorator]
    @property
    def outcome(self) -> Status:
        if self.passed is False:
            return Status.XFAIL if self.expected_failure else Status.FAIL
        if self.regression is not None and not self.expected_failure:
            return Status.REGRESSED
        return Status.PASS if self.passed else Status.NO_THRESHOLD

    @property
    def statuses(self) -> tuple[Status, ...]:
        """The outcome, then UNSTABLE when a close vote decided it: what reports show and count."""
        return (self.outcome, Status.UNSTABLE) if self.unstable else (self.outcome,)

    @property
    def status(self) -> str:
        """`PASS`, `PASS UNSTABLE`, `REGRESSED UNSTABLE`...: a row's result cell."""
        return " ".join(self.statuses)

    @property
    def comparison(self) -> str:
        return ">=" if self.result.higher_is_better else "<="

    @property
    def name(self) -> str:
        """The test id and the label (or `#2`, `#3`... for unlabelled repeats): a row's test column."""
        return self.test_id + (f" [{self.label}]" if self.label else "") + (
            f" #{self.ordinal}" if self.ordinal > 1 else "")

    @computed_field  # type: ignore[prop-decorator]
    @property
    def key(self) -> str:
        """The assertion's identity in the baseline and the reports; `test [scorer] #2` as in
        baseline format 1, so unlabelled entries keep their keys."""
        label = f" [{self.label}]" if self.label else ""
        return f"{self.test_id}{label} [{self.result.scorer}]" + (f" #{self.ordinal}" if self.ordinal > 1 else "")


def round2(x: float) -> float:
    """Half-up rounding to 2 decimals, as Mastra does (1/8 -> 0.13; Python's round gives 0.12)."""
    return math.floor((x + 1e-9) * 100 + 0.5) / 100
