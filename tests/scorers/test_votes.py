"""Votes (--llm-judge-votes=N, scorers/votes.py): independent samples per verdict, asked of the in-process
fake judge (each sample its own request, seed and temperature)."""

from __future__ import annotations

import math

import pytest

from pytest_llmfaith import Faithfulness, Hallucination
from pytest_llmfaith.results import ScoreResult, Verdict
from pytest_llmfaith.scorers import labels, votes
from pytest_llmfaith.scorers.claims import Judged

CTX = ["Tesla was founded in 2003.", "Elon Musk joined Tesla in 2004."]
SURE, SPLIT = "Tesla was founded in 2003.", "Musk joined in 2004."
OUTPUT = f"{SURE} {SPLIT}"
CLOSE_ABOVE = labels.SUPPORTED_AT + 0.05  # a close call the judge decides "supported"


@pytest.fixture
def split_vote(fake):
    """The judge is sure of one claim and answers the other yes, no, yes by sample."""
    fake.facts(supported=[SURE], votes={SPLIT: ["yes", "no", "yes"]})
    return fake


@pytest.mark.parametrize("mode", ["all", "one"])
def test_each_sample_is_a_new_request_at_the_votes_temperature_with_its_own_seed(split_vote, make_fake_judge, mode):
    result = Faithfulness(make_fake_judge(verdicts=mode, votes=3, votes_temperature=0.9)).run(OUTPUT, CTX)
    assert result.votes == 3 and result.score == 1.0
    assert [(v.verdict, v.samples, v.agreement) for v in result.verdicts] == [
        ("yes", ["yes", "yes", "yes"], "3/3"), ("yes", ["yes", "no", "yes"], "2/3")]
    asked = [c["body"] for c in split_vote.calls("verdicts")]
    assert len(asked) == (3 if mode == "all" else 6)
    assert sorted((r["temperature"], r.get("seed")) for r in asked)[:: len(asked) // 3] == [
        (0.0, None), (0.9, 1), (0.9, 2)]
    assert len(split_vote.calls("claims")) == 1  # the claims are the unit voted on: asked once


def test_the_majority_wins_and_keeps_the_reason_of_a_sample_that_gave_it(fake, make_fake_judge):
    fake.facts(supported=[SURE], votes={SPLIT: ["yes", "no", "no"]})
    result = Hallucination(make_fake_judge(votes=3)).run(OUTPUT, CTX)
    verdict = result.verdicts[1]
    assert (verdict.verdict, verdict.agreement, result.score) == ("yes", "2/3", 0.5)  # made up, 2 of 3
    assert verdict.samples == ["no", "yes", "yes"]


def test_a_rerun_replays_the_same_samples_and_a_cached_answer_is_never_a_new_sample(split_vote, make_fake_judge,
                                                                                   tmp_path):
    first = Faithfulness(make_fake_judge(cache="use", cache_dir=tmp_path, votes=3)).run(OUTPUT, CTX)
    asked = len(split_vote.calls())
    again = Faithfulness(make_fake_judge(cache="replay", cache_dir=tmp_path, votes=3)).run(OUTPUT, CTX)
    assert len(split_vote.calls()) == asked
    assert all(c.cached for c in again.judge_calls) and len(again.judge_calls) == 4  # claims + 3 samples
    assert [v.samples for v in again.verdicts] == [v.samples for v in first.verdicts]
    assert len({c.key for c in again.judge_calls}) == 4  # three distinct keys for the three samples


def test_sample_zero_keeps_the_key_of_a_single_vote_so_existing_caches_stay_valid(split_vote, make_fake_judge,
                                                                                 tmp_path):
    Faithfulness(make_fake_judge(cache="use", cache_dir=tmp_path)).run(OUTPUT, CTX)
    split_vote.requests.clear()
    Faithfulness(make_fake_judge(cache="use", cache_dir=tmp_path, votes=3)).run(OUTPUT, CTX)
    assert [c["body"].get("seed") for c in split_vote.calls()] == [1, 2]  # only the new samples


def test_without_votes_results_are_unchanged(split_vote, make_fake_judge):
    result = Faithfulness(make_fake_judge()).run(OUTPUT, CTX)
    assert result.votes == 1 and all(v.samples == [] and v.agreement is None for v in result.verdicts)
    assert [c["body"]["temperature"] for c in split_vote.calls("verdicts")] == [0.0]


# -- label verdicts: votes drawn from the judge's probabilities ----------------------------------
def test_label_votes_are_drawn_from_the_probabilities_without_asking_again(fake, make_fake_judge, tmp_path):
    fake.facts(supported=[SURE], p_supported={SPLIT: CLOSE_ABOVE})
    judge = make_fake_judge(verdicts="label", votes=9, cache="use", cache_dir=tmp_path)
    result = Faithfulness(judge).run(OUTPUT, CTX)
    assert len(fake.calls("verdicts")) == 2  # one label question per claim (both supported), as with 1 vote
    sure, split = result.verdicts
    assert sure.samples == ["yes"] * 9  # P(yes) 0.95 at temperature 0.7: every draw agrees
    assert split.samples[0] == "yes"  # the judge's own label, just above the threshold
    assert 0 < split.samples.count("unsure") < 9  # a close call splits the vote
    yes = split.samples.count("yes")
    assert (split.verdict, split.agreement) == (("yes", f"{yes}/9") if yes > 4 else ("unsure", f"{9 - yes}/9"))
    again = Faithfulness(judge).run(OUTPUT, CTX)  # the draws are seeded: a re-run gives the same votes
    assert [v.samples for v in again.verdicts] == [v.samples for v in result.verdicts]
    assert Hallucination(judge).run(OUTPUT, CTX).verdicts[1].samples == [
        "no" if s == "yes" else "yes" for s in split.samples]  # the other scorer draws the same votes


def test_a_drawn_vote_says_how_it_was_drawn(fake, make_fake_judge):
    fake.facts(p_supported={SPLIT: CLOSE_ABOVE})
    judge = make_fake_judge(verdicts="label")
    found, _, _ = labels.judge_claims(judge, [Judged.whole_sentence(SPLIT)], CTX, [False])
    (label, reason), = votes.drawn_labels(found, 1, 3, 0.7)
    assert label.p_supported in (0.0, 1.0)
    assert f"in vote 2 (read at temperature 0.7 from the judge's P(supported) {CLOSE_ABOVE:.2f} ≥ 0.70)" in reason


@pytest.mark.parametrize(("claim", "context", "verdict", "reason"), [
    ("Acme employs 40 people.", "Acme employs 400 people.", "no", "contradicted by the context's numbers"),
    ("Acme employs 40 people in Iran.", "Acme employs 40 people in Iraq.", "unsure", "not in the context"),
])
def test_a_claim_code_or_a_narrow_question_decides_shows_no_votes(fake, make_fake_judge, claim, context, verdict,
                                                                  reason):
    """A judge sure of "supported" would draw "supported in vote 2" next to an unsupported verdict."""
    fake.facts(supported=[claim], unnamed=["iran"])
    result = Faithfulness(make_fake_judge(verdicts="label", votes=3)).run(claim, [context])
    found, = result.verdicts
    assert found.verdict == verdict and found.samples == [] and found.agreement is None
    assert found.reason.startswith(reason)


def test_a_cold_temperature_draws_the_judges_own_label_every_time(fake, make_fake_judge):
    fake.facts(p_supported={SURE: CLOSE_ABOVE, SPLIT: labels.BORDERLINE_FROM - 0.05})
    result = Faithfulness(make_fake_judge(verdicts="label", votes=5, votes_temperature=0.01)).run(OUTPUT, CTX)
    assert [v.agreement for v in result.verdicts] == ["5/5", "5/5"]
    assert [v.verdict for v in result.verdicts] == ["yes", "unsure"]


@pytest.mark.parametrize("votes_asked", [3, 5, 7, 9])
@pytest.mark.parametrize("p, splits", [(0.93, False), (0.95, False), (0.99, False), (0.75, True), (0.05, False)])
def test_votes_split_as_the_docs_say(fake, make_fake_judge, votes_asked, p, splits):
    """Issue 35.3: a claim at P 0.93 came out UNSTABLE with 3 votes, where the docs say 0.95 never
    splits and 0.75 does. The votes are read at evenly spaced quantiles, so far from the threshold
    they never split, whatever the claim's words."""
    for claim in (SURE, SPLIT, "Backups are encrypted at rest.", "Refunds take 14 days."):
        fake.facts(p_supported={claim: p})
        judge = make_fake_judge(verdicts="label", votes=votes_asked)
        verdict, = Faithfulness(judge).run(claim, CTX).verdicts
        assert verdict.contested == splits, (claim, verdict.samples)


@pytest.mark.parametrize("p", [0.1, 0.55, 0.9])
@pytest.mark.parametrize("t", [0.5, 1.0, 2.0])
def test_tempered_is_the_sharpened_distribution_at_threshold_one_half(p, t):
    expected = p ** (1 / t) / (p ** (1 / t) + (1 - p) ** (1 / t))
    assert math.isclose(votes.tempered(p, 0.5, t), expected)
    assert (votes.tempered(p, 0.6, t) > 0.5) == (p > 0.6)  # a draw leans the way the label does


# -- unstable ------------------------------------------------------------------------------------
def result_of(*samples: list[str], scorer: str = "faithfulness") -> ScoreResult:
    verdicts = votes.majority([[Verdict(statement=f"c{i}", verdict=s) for i, s in enumerate(sample)]
                               for sample in zip(*samples)])
    score = sum(v.verdict == "yes" for v in verdicts) / len(verdicts)
    return ScoreResult(scorer=scorer, run_id="x", score=score, reason="", output="o", context=["c"],
                       verdicts=verdicts, votes=len(samples[0]))


def test_unstable_when_the_minority_of_some_claims_would_flip_the_outcome():
    result = result_of(["yes", "yes", "yes"], ["yes", "no", "yes"])  # 1.00; 0.50 had the minority won
    assert votes.score_range(result) == (0.5, 1.0)
    assert votes.unstable(result, 0.7) and not votes.unstable(result, 0.5)


def test_contested_claims_pulling_both_ways_are_still_unstable():
    # one "yes" claim 2/3 and one "no" claim 2/3: flipping both cancels out, flipping one does not
    result = result_of(["yes", "no", "yes"], ["no", "yes", "no"])
    assert result.score == 0.5 and votes.score_range(result) == (0.0, 1.0)
    assert votes.unstable(result, 0.5)


def test_a_unanimous_vote_is_stable_and_the_majority_label_counts_the_side_not_the_word():
    result = result_of(["no", "unsure", "unsure"], ["yes", "yes", "yes"])
    assert [(v.verdict, v.agreement) for v in result.verdicts] == [("unsure", "3/3"), ("yes", "3/3")]
    assert not votes.unstable(result, 0.5) and not votes.unstable(result, 0.7)
