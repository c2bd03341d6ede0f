"""Label verdicts (scorers/labels.py): each claim's verdict read from the judge's next-token
probabilities. The scoring rules are asked of the in-process fake judge; what a label request
carries on the wire (logprobs through litellm), and a judge that returns none, over real HTTP."""

from __future__ import annotations

import pytest

from pytest_llmfaith import Faithfulness, Hallucination
from pytest_llmfaith.errors import JudgeError
from pytest_llmfaith.scorers import labels

TESLA = ["Tesla was founded in 2003.", "Elon Musk joined Tesla in 2004.", "The first Tesla car was the Roadster."]
OUTPUT = "Tesla was founded in 2003. Elon Musk started the company. Tesla sells flying cars."


def test_verdicts_come_from_label_probabilities(tesla_server, make_judge):
    result = Faithfulness(make_judge(verdicts="label")).run(OUTPUT, TESLA)
    assert [v.verdict for v in result.verdicts] == ["yes", "no", "unsure"]
    assert result.score == 0.33
    requests = [c["body"] for c in tesla_server.calls("verdicts")]
    assert all(r["logprobs"] is True and r["max_tokens"] == 1 and r["top_logprobs"] == 20 for r in requests)
    assert "response_format" not in requests[0]
    # the contradiction question is asked only of the two unsupported claims
    assert sum("contradict" in r["messages"][-1]["content"] for r in requests) == 2
    reasons = [v.reason for v in result.verdicts]
    assert reasons == ["supported: P(supported) 0.95 ≥ 0.70: “Tesla was founded in 2003.”",
                       "contradicted: P(contradicted) 0.95 ≥ 0.50 (P(supported) 0.05 < 0.70): "
                       "“Elon Musk joined Tesla in 2004.”",
                       "not supported enough: P(supported) 0.10 < 0.60, not contradicted (P(contradicted) 0.10 < 0.50)"]


@pytest.mark.parametrize("p_yes, supported", [(0.5, False), (0.59, False), (0.6, True), (0.69, True), (0.7, True),
                                              (0.8, True)])
def test_a_lukewarm_yes_is_not_support(fake, make_fake_judge, p_yes, supported):
    """The judge's own answer (P(yes) > 0.5) is not enough: below 0.6 a claim is not supported, so
    an answer the judge only half believes fails its gate instead of passing; from 0.6 to 0.7 it is
    supported unless the contradiction answer outweighs it (measured: benchmarks/label_rule.py)."""
    claim = "Tesla was founded in 2003."
    fake.facts(p_supported={claim: p_yes})
    faithful = Faithfulness(make_fake_judge(verdicts="label")).run(claim, TESLA)
    hallucinated = Hallucination(make_fake_judge(verdicts="label")).run(claim, TESLA)
    assert (faithful.score, hallucinated.score) == ((1.0, 0.0) if supported else (0.0, 1.0))


@pytest.mark.parametrize("p_supported, p_contradicted, verdict", [
    (0.61, 0.62, "yes"),  # the faithful paraphrase of issue 35: both high, close
    (0.67, 0.62, "yes"),
    (0.61, 0.67, "no"),  # the contradiction more than 0.05 above
    (0.67, 0.72, "no"),  # exactly 0.05 above: the contradiction wins (a claim of Mastra's cases)
    (0.67, 0.71, "yes"),
    (0.58, 0.62, "unsure"),  # close, below 0.60: unsure, not contradicted
    (0.55, 0.95, "no"),
    (0.75, None, "yes"),
])
def test_two_label_answers_that_contradict_each_other_decide_by_the_measured_rule(p_supported, p_contradicted,
                                                                                   verdict):
    label = labels.Label(p_supported, p_contradicted, "")
    assert Faithfulness.label_verdict(label) == verdict
    assert Hallucination.label_verdict(label) == ("no" if verdict == "yes" else "yes")
    shown = labels.Label(round(p_supported, 2), None if p_contradicted is None else round(p_contradicted, 2), "")
    assert Faithfulness.label_verdict(shown) == verdict  # as a recording keeps them


def test_both_scorers_ask_the_same_questions_so_the_second_is_free(tesla_fake, make_fake_judge, tmp_path):
    judge = make_fake_judge(cache="use", cache_dir=tmp_path, verdicts="label")
    Faithfulness(judge).run(OUTPUT, TESLA)
    asked = len(tesla_fake.calls())
    result = Hallucination(judge).run(OUTPUT, TESLA)
    assert len(tesla_fake.calls()) == asked  # claims and every label: cache hits
    assert [v.verdict for v in result.verdicts] == ["no", "yes", "yes"] and result.score == 0.67
    assert all(call.cached for call in result.judge_calls)


def test_context_first_claim_last_so_the_context_is_read_once(tesla_fake, make_fake_judge):
    Faithfulness(make_fake_judge(verdicts="label")).run(OUTPUT, TESLA)
    prompts = [c["body"]["messages"][-1]["content"] for c in tesla_fake.calls("verdicts")]
    heads = {p.split("\n\nClaim: ")[0] for p in prompts}
    assert len(heads) == 1
    head = heads.pop()
    assert all(item in head for item in TESLA)


def test_a_judge_without_logprobs_is_a_clear_error_not_a_verdict(tesla_server, make_judge):
    tesla_server.fail("no_logprobs", step="verdicts", times=10)
    with pytest.raises(JudgeError, match="returned no logprobs.*--llm-judge-verdicts=one"):
        Faithfulness(make_judge(verdicts="label")).run(OUTPUT, TESLA)


def test_auto_reads_labels_for_the_offline_judge_only(make_fake_judge):
    from pytest_llmfaith.judge.client import JudgeConfig

    assert JudgeConfig(model="local").verdict_mode == "label"
    assert JudgeConfig(model="local:/x.gguf").verdict_mode == "label"
    assert JudgeConfig(model="openai/gpt-4o-mini").verdict_mode == "all"
    assert JudgeConfig(model="openai/gpt-4o-mini", verdicts="label").verdict_mode == "label"


def test_speculation_is_unsure_for_faithfulness_but_no_hallucination_when_the_fact_is_stated(fake, make_fake_judge):
    claim = "The company will likely keep its 500 employees."
    fake.facts(supported=[claim])
    judge = make_fake_judge(verdicts="label")
    faithful = Faithfulness(judge).run(claim, ["The company has 500 employees."])
    assert [v.verdict for v in faithful.verdicts] == ["unsure"] and faithful.score == 0.0
    assert faithful.verdicts[0].reason.startswith("speculative")
    assert Hallucination(judge).run(claim, ["The company has 500 employees."]).score == 0.0


@pytest.mark.parametrize(("claim", "context", "made_up"), [
    ("SpaceX made history with its first landing in 2015.", "SpaceX achieved its first landing in 2015.", True),
    ("Tesla might be the most innovative car company.", "Tesla was founded in 2003.", True),
    ("Acme leads the market with a 30% share.", "Acme has a 30% market share.", True),
    ("Acme leads the market with a 30% share.", "Acme leads the market with a 30% share.", False),
])
def test_an_evaluation_the_context_does_not_make_is_never_supported(fake, make_fake_judge, claim, context, made_up):
    fake.facts(supported=[claim])  # a judge that says "supported" anyway
    result = Hallucination(make_fake_judge(verdicts="label")).run(claim, [context])
    assert result.score == (1.0 if made_up else 0.0)
    if made_up:
        assert "is an evaluation the context does not make" in result.verdicts[0].reason


@pytest.mark.parametrize(("claim", "context", "conflict"), [
    # a new user's miss (issue 14): the offline judge read 40 and 400 as the same
    ("Nordlicht Systems employs 40 people.", "The company employs 400 people, most of them engineers.",
     "“40 people” where the context says “400 people”"),
    ("Breakfast costs 18 euros per person.", "Breakfast costs 25 euros per person.",
     "“18 euros” where the context says “25 euros”"),
    ("The plan costs $9 per month.", "The plan costs $8 per month; every extra 100 GB adds $2.",
     "“$9” where the context says “$2”, “$8”"),
    ("He won his 13th Emmy in 2017.", "In 2017 he won his 18th Emmy.", "“13th” where the context says “18th”"),
    # the same amount, an approximation the spec allows, a number of another thing: left to the judge
    ("The plan costs $8 per month.", "The plan costs $8 per month; every extra 100 GB adds $2.", None),
    ("Nordlicht employs about 390 people.", "The company employs 400 people.", None),
    ("Nordlicht employs 40 engineers.", "The company employs 400 people.", None),
    # the same length in other units is no conflict, though the context has another number of weeks
    ("Pro backups are kept for 2 weeks.", "Pro backups are kept for 14 days, Enterprise backups for 3 weeks.", None),
])
def test_an_amount_the_context_gives_as_another_number_is_contradicted(fake, make_fake_judge, claim, context, conflict):
    fake.facts(supported=[claim])  # a judge that says "supported" anyway
    judge = make_fake_judge(verdicts="label")
    faithful = Faithfulness(judge).run(claim, [context])
    made_up = Hallucination(judge).run(claim, [context])
    if conflict is None:
        assert faithful.score == 1.0 and made_up.score == 0.0
    else:
        assert [v.verdict for v in faithful.verdicts] == ["no"] and made_up.score == 1.0
        assert faithful.verdicts[0].reason == f"contradicted by the context's numbers: {conflict}"


def _asked_claims(fake) -> list[str]:
    prompts = [c["body"]["messages"][-1]["content"] for c in fake.calls("verdicts")]
    return [p.split("\n\nClaim: ")[1].split("\n\n")[0] for p in prompts if "Is the claim supported" in p]


@pytest.mark.parametrize(("claim", "context", "asked", "shown"), [
    # the spec's own example, which the offline judge read as "not stated" (Mastra's hallucination-07)
    ("The company employs about 1,200 people.", "The company has exactly 1,234 employees.",
     "The company employs 1,234 people.", "“about 1,200” ≈ “1,234”"),
    ("Revenue was roughly $49 million.", "Revenue in 2023 was $48.7 million.",
     "Revenue was $48.7 million.", "“roughly $49” ≈ “$48.7”"),
    # a paraphrase in other units (the labelled set's backups answer: P(yes) 0.42, and 0.92 in days)
    ("Nightly backups are retained for two weeks.", "Backups run every night and are kept for 14 days.",
     "Nightly backups are retained for 14 days.", "“two weeks” = “14 days”"),
    ("The trial lasts one year.", "The free trial lasts 12 months.", "The trial lasts 12 months.",
     "“one year” = “12 months”"),
    # a less precise date (the spec: "the year where the context gives the month"), which the offline
    # judge read as "not stated" (the labelled set's date-month-dropped item: P(yes) 0.59; 0.92 with the month)
    ("Version 2.0 was released in 2021.", "Version 1.0 shipped in March 2019. Version 2.0 was released in "
     "September 2021.", "Version 2.0 was released in September 2021.", "“2021” → “September 2021”"),
    ("The bridge opened in 1937.", "The bridge opened to traffic on May 28, 1937, after four years of work.",
     "The bridge opened on May 28, 1937.", "“1937” → “May 28, 1937”"),
])
def test_an_amount_is_judged_as_the_context_writes_it(fake, make_fake_judge, claim, context, asked, shown):
    fake.facts(supported=[asked])  # a judge that supports the context's own amount only
    judge = make_fake_judge(verdicts="label")
    faithful = Faithfulness(judge).run(claim, [context])
    assert faithful.score == 1.0 and Hallucination(judge).run(claim, [context]).score == 0.0
    assert faithful.verdicts[0].reason.startswith(
        f"supported as the context writes it: {shown}; P(supported) 0.95 ≥ 0.70")
    assert _asked_claims(fake)[:2] == [claim, asked]


@pytest.mark.parametrize(("claim", "context", "restated"), [
    ("Revenue was about $10M in Q1.", "Revenue was exactly $10.5M in Q1.", None),  # 5 % off: Mastra's hallucination-15
    ("The company employs about 1,000 people.", "The company has 1,234 employees.", None),  # not 1,000 at 3 %
    ("Tesla was founded around 2010.", "Tesla was founded in 2004.", None),  # does not round
    ("Backups are kept for three weeks.", "Backups are kept for 14 days.", None),  # another length
    ("Backups are kept for 30 days.", "Backups are kept for one month.", None),  # a month is no number of days
    ("Version 2.0 was released in 2022.", "Version 2.0 was released in September 2021.", None),  # another year
    ("Version 2.0 was released before 2021.", "Version 2.0 was released in September 2021.", None),  # not "in"
    # close enough, the rest of the claim is still the judge's to check
    ("The company employs about 1,200 engineers in Paris.", "The company has 1,234 employees in Lyon.",
     "The company employs 1,234 engineers in Paris."),
    ("Version 3.0 was released in 2021.", "Version 2.0 was released in September 2021.",
     "Version 3.0 was released in September 2021."),
])
def test_an_amount_in_other_terms_is_no_licence_for_the_rest_of_the_claim(fake, make_fake_judge, claim, context,
                                                                          restated):
    """Too far off or not the same length, the claim is judged as written; close enough, the judge
    still judges the rest of it (here it supports nothing), so a right number never carries a
    wrong city, nor a right year a wrong version."""
    judge = make_fake_judge(verdicts="label")
    assert Faithfulness(judge).run(claim, [context]).score == 0.0
    assert Hallucination(judge).run(claim, [context]).score == 1.0
    assert set(_asked_claims(fake)) == {claim} | ({restated} if restated else set())
