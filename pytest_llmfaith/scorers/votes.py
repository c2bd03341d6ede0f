"""Votes: each verdict asked N times, the majority kept, and how close the vote was.

The vote is on what the score counts ("yes" or not: "no" and "unsure" are one side). A label
verdict's extra votes are read from its probability at evenly spaced quantiles, not asked again
and not drawn at random: a re-run gives the same votes, no log-prob is asked twice, and a claim
far from its threshold never splits (docs/votes-and-self-check.md).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace

from pytest_llmfaith.results import ScoreResult, Verdict, round2
from pytest_llmfaith.scorers import labels
from pytest_llmfaith.scorers.labels import Label


def majority(samples: Sequence[Sequence[Verdict]]) -> list[Verdict]:
    """Per claim: the side most samples took, its most frequent label (the earliest on a tie),
    the reason of the first sample that gave it, and every sample's label."""
    voted = []
    for per_claim in zip(*samples):
        counted = sum(v.verdict == "yes" for v in per_claim) * 2 > len(per_claim)
        side = [v for v in per_claim if (v.verdict == "yes") == counted]
        label = Counter(v.verdict for v in side).most_common(1)[0][0]
        chosen = next(v for v in side if v.verdict == label)
        voted.append(Verdict(statement=per_claim[0].statement, verdict=label, reason=chosen.reason,
                             samples=[v.verdict for v in per_claim]))
    return voted


def tempered(p: float, threshold: float, temperature: float) -> float:
    """Log-odds centred on the label's threshold (so a draw leans the way the label does), over T."""
    p = min(max(p, 1e-6), 1 - 1e-6)
    t = min(max(threshold, 1e-6), 1 - 1e-6)
    logit = (math.log(p / (1 - p)) - math.log(t / (1 - t))) / temperature
    return 1 / (1 + math.exp(-logit))


SPREAD = (0.25, 0.75)
"""The quantiles votes 2..N read at, evenly from the first to the last: a tempered probability
outside them (P(supported) 0.84 or more, or 0.52 or less, at temperature 0.7 and threshold 0.70)
never splits the vote, however many votes are asked."""


def quantile(sample: int, votes: int) -> float:
    """Where vote `sample` (1..votes-1) reads the tempered probability."""
    low, high = SPREAD
    return (low + high) / 2 if votes == 2 else low + (high - low) * (sample - 1) / (votes - 2)


def drawn_labels(found: Sequence[Label], sample: int, votes: int, temperature: float) -> list[tuple[Label, str]]:
    """Vote `sample` (> 0) of `votes` of every claim's label, with the reason it gets: "supported"
    while the tempered probability is above the vote's quantile."""
    drawn = []
    at = quantile(sample, votes)
    for label in found:
        supported = at < tempered(label.p_supported, label.support_line, temperature)
        # the contradiction question was asked only of claims the judge did not find supported
        contradicted = (not supported and label.p_contradicted is not None
                        and at < tempered(label.p_contradicted, labels.CONTRADICTED_AT, temperature))
        said = "supported" if supported else "contradicted" if contradicted else "not supported"
        vote = replace(label, p_supported=1.0 if supported else 0.0, p_contradicted=1.0 if contradicted else 0.0)
        reason = (f"{said} in vote {sample + 1} (read at temperature {temperature:g} from the judge's "
                  f"{labels.probability('supported', label.p_supported, label.support_line)})"
                  + (f": “{label.evidence}”" if label.evidence else ""))
        drawn.append((vote, reason))
    return drawn


def score_range(result: ScoreResult) -> tuple[float, float]:
    """The lowest and highest score if the minority of any contested claims had won."""
    if not result.verdicts:
        return result.score, result.score
    hits = sum(v.verdict == "yes" for v in result.verdicts)
    down = sum(v.contested and v.verdict == "yes" for v in result.verdicts)
    up = sum(v.contested and v.verdict != "yes" for v in result.verdicts)
    total = len(result.verdicts)
    return round2((hits - down) / total * result.scale), round2((hits + up) / total * result.scale)


def unstable(result: ScoreResult, threshold: float) -> bool:
    """Would pass/fail flip had the minority verdicts of some claims won? (Scores are monotone in
    the number of "yes", so the two ends of the range decide.)"""
    low, high = score_range(result)

    def passes(score: float) -> bool:
        return score >= threshold if result.higher_is_better else score <= threshold

    return passes(low) != passes(high)
