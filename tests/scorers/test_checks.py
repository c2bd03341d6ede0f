"""A judge that lies plausibly (issue 9, items 1-3) ends in a correct score or a JudgeError, never a pass.

Scorer level (scorers/checks.py), against the in-process fake judge; the plugin-level side (no-claims policy,
thresholds, settings, xfail) is in tests/plugin/test_no_false_pass.py.
"""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import pytest
from cases import TESLA

from pytest_llmfaith import Faithfulness, Hallucination, JudgeError
from pytest_llmfaith.scorers.checks import check_claim, numbers, same_statements
from pytest_llmfaith.scorers.facts import states_facts

OUTPUT = "Tesla was founded in 2003. Elon Musk started the company."
LABELLED = Path(__file__).parents[2] / "benchmarks" / "labelled_set.jsonl"


@pytest.fixture
def tesla(fake):
    fake.facts(supported=["Tesla was founded in 2003.", *TESLA], contradicted=["Elon Musk started the company."])
    return fake


# -- 1. plausible invented claims ------------------------------------------------------------

@pytest.mark.parametrize("invented", [
    "Elon Musk joined Tesla in 2004.",  # a date the output does not give, copied from the context
    "The first Tesla car was the Roadster.",  # shares only "Tesla" with the output
])
def test_a_claim_copied_from_the_context_is_dropped(tesla, make_fake_judge, invented):
    tesla.fail("extra_claim", step="claims", times=1, text=invented)
    result = Faithfulness(make_fake_judge()).run(OUTPUT, TESLA)
    assert result.claims == ["Tesla was founded in 2003.", "Elon Musk started the company."]
    assert result.score == 0.5  # 0.67 if the supported invention counted
    assert invented not in [c["body"]["messages"][-1]["content"] for c in tesla.calls("verdicts")]


def test_an_invented_number_is_dropped_and_the_outputs_own_sentence_judged(fake, make_fake_judge):
    output = "Acme employs 40 people."
    fake.facts(claims={output: ["Acme employs 400 people."]}, supported=["Acme employs 400 people."])
    result = Faithfulness(make_fake_judge()).run(output, ["Acme employs 400 people."])
    assert result.claims == ["Acme employs 40 people."]  # the sentence, in the output's words
    assert result.score == 0.0 and result.verdicts[0].verdict == "unsure"
    assert len(fake.calls("claims")) == 1  # dropped, not re-asked: the answer stays cacheable


def test_numbers_are_compared_normalised(fake, make_fake_judge):
    output = "The company employs about 1,200 people and its budget is $3,000.00."
    claims = ["The company employs about 1200 people.", "The company's budget is $3000."]
    fake.facts(claims={output: claims}, supported=claims)
    result = Hallucination(make_fake_judge()).run(output, ["The company employs 1,234 people; budget 3000."])
    assert result.claims == claims and result.score == 0.0
    assert numbers("1,200 and 1200.0 and 0.50 on the fifth of Oct") == {"1200", "0.5", "5", "oct"}


def test_duplicate_claims_are_dropped(tesla, make_fake_judge):
    """A repeated claim would be counted twice: here it would dilute the contradicted one."""
    tesla.facts(claims={OUTPUT: ["Tesla was founded in 2003.", "Tesla was founded in 2003.",
                                 " tesla was founded in 2003 ", "Elon Musk started the company."]})
    result = Hallucination(make_fake_judge()).run(OUTPUT, TESLA)
    assert result.claims == ["Tesla was founded in 2003.", "Elon Musk started the company."]
    assert result.score == 0.5


def _labelled() -> list[dict]:
    return [json.loads(line) for line in LABELLED.read_text().splitlines() if line.strip()]


def test_every_real_claim_of_the_labelled_set_is_accepted():
    """The labelled set's claims are real extractions: paraphrased, with pronouns resolved."""
    checked = 0
    for item in _labelled():
        for claim in item["claims"]:
            check_claim(claim["claim"], item["output"])
            checked += 1
    assert checked > 50


@pytest.mark.parametrize("output, claim", [
    ("Tesla was founded in 2003.", "Elon Musk joined Tesla in 2004."),
    ("Tesla was founded in 2003.", "The first Tesla car was the Roadster."),
    ("The company employs about 1,200 people.", "The company employs about 12,000 people."),
    ("The store is open on Sundays.", "The store is closed on Sundays."),
    ("The museum is free on Mondays.", "The museum is open on Mondays."),
    ("Room 12 is on the fifth floor.", "Room 12 is on the second floor."),
    ("Critics called the film a masterpiece, and it won three awards.", "The film won four awards."),
    ("Python 3.12 came out in October 2023.", "Python 3.12 came out in March 2023."),
    ("The Pixel 8 has a 6.2-inch display.", "The Pixel 8 has a 6.1-inch display."),
    ("Backups are kept for 90 days.", "Deleted files can be restored by support staff."),
    # the output's numbers, qualified otherwise (Mastra's mixed-precision case)
    ("Revenue was about $10M in Q1 and exactly $20M in Q2.", "Revenue was about $20M in Q2."),
    ("The company has exactly 1,234 employees.", "The company has 1,234 employees."),
    ("Each key can make up to 600 requests a minute.", "Each key can make over 600 requests a minute."),
    # the subject swapped by a pronoun (FactCC): every content word is the output's
    ("Angela Moore was back home enjoying time with his grandchildren.",
     "Angela Moore was back home enjoying time with her grandchildren."),
])
def test_invented_claims_are_rejected(output, claim):
    with pytest.raises(ValueError, match="OUTPUT"):
        check_claim(claim, output)


@pytest.mark.parametrize("output, claim", [
    ("Revenue was about $10M in Q1 and exactly $20M in Q2.", "Revenue was about $10M in Q1."),
    ("Revenue was about $10M in Q1 and exactly $20M in Q2.", "Revenue was exactly $20M in Q2."),
    ("Acme, founded around 1999, has over 1,200 staff.", "Acme has more than 1200 staff."),
    ("Tesla was founded in 2003.", "Tesla was founded in 2003."),
    ("Kari Berg runs the plant. She founded it in 1999.", "Kari Berg founded the plant in 1999."),
    ("She founded Acme in 1999 with her brother.", "She founded Acme with her brother."),
])
def test_claims_that_keep_the_outputs_qualifiers_and_pronouns_are_accepted(output, claim):
    check_claim(claim, output)


def test_a_requalified_claims_sentence_is_judged_whole(tesla, make_fake_judge):
    """Dropping "about $20M" for "exactly $20M" must not drop the $20M: the sentence is judged."""
    output = "Revenue was about $10M in Q1 and exactly $20M in Q2."
    tesla.facts(claims={output: ["Revenue was about $10M in Q1.", "Revenue was about $20M in Q2."]})
    result = Hallucination(make_fake_judge()).run(output, TESLA)
    assert result.claims == ["Revenue was about $10M in Q1.", output]


@pytest.mark.parametrize("output, claims, judged_whole", [
    # Mastra's faithfulness case: the speculative half of the first sentence left out
    ("The company was founded in 1995 and may have international offices. They might be expanding to Asia soon.",
     ["The company was founded in 1995.", "The company might be expanding to Asia soon."],
     "The company was founded in 1995 and may have international offices."),
    # Mastra's relative comparison: "ahead of Company B" left out (the sentence is 5/7 covered)
    ("Company A leads the market with 30% share, ahead of Company B.", ["Company A leads the market with 30% share."],
     "Company A leads the market with 30% share, ahead of Company B."),
])
def test_a_sentence_with_a_clause_no_claim_carries_is_judged_whole(fake, make_fake_judge, output, claims, judged_whole):
    fake.facts(claims={output: claims})
    result = Faithfulness(make_fake_judge()).run(output, ["Company A was founded in 1995."])
    assert result.claims == [*claims, judged_whole]


def test_claims_that_carry_every_clause_add_no_sentence(fake, make_fake_judge):
    output = "Our 2FA setup is the most secure in the industry: it supports authenticator apps and hardware keys."
    claims = ["Our 2FA setup is the most secure in the industry.", "It supports authenticator apps.",
              "It supports hardware keys."]
    fake.facts(claims={output: claims})
    assert Faithfulness(make_fake_judge()).run(output, ["ctx"]).claims == claims


# -- 2. no claims for an output that states facts ------------------------------------------------

def test_empty_claims_for_a_factual_output_are_reasked_once(tesla, make_fake_judge):
    tesla.fail("no_claims", step="claims", times=1)
    result = Hallucination(make_fake_judge()).run(OUTPUT, TESLA)
    assert result.score == 0.5 and not result.no_claims
    assert len(tesla.calls("claims")) == 2
    assert "states facts" in tesla.calls("claims")[1]["body"]["messages"][-1]["content"]


def test_a_judge_that_keeps_finding_no_claims_has_the_sentences_judged_instead(tesla, make_fake_judge, tmp_path):
    tesla.fail("no_claims", step="claims", times=2)
    first = Hallucination(make_fake_judge(cache="use", cache_dir=tmp_path)).run(OUTPUT, TESLA)
    # the empty list is not trusted: every sentence that states a fact becomes a claim
    assert (first.score, first.claims, first.no_claims) == (0.5, [
        "Tesla was founded in 2003.", "Elon Musk started the company."], False)
    assert len(tesla.calls("claims")) == 2  # re-asked once, then the sentences
    healthy = Hallucination(make_fake_judge(cache="use", cache_dir=tmp_path)).run(OUTPUT, TESLA)
    assert healthy.score == 0.5 and not healthy.no_claims
    assert len(tesla.calls("claims")) == 3  # the stored empty list was asked again
    replayed = Hallucination(make_fake_judge(cache="replay", cache_dir=tmp_path)).run(OUTPUT, TESLA)
    assert replayed.score == 0.5 and len(tesla.calls()) == 3 + len(tesla.calls("verdicts"))


def test_a_refusal_is_not_reasked_for_claims(fake, make_fake_judge):
    for refusal in ("I don't know.", "I could not find that in the documents."):
        fake.facts(claims={refusal: []})
        result = Faithfulness(make_fake_judge()).run(refusal, TESLA)
        assert (result.score, result.no_claims) == (0.0, True)
    assert len(fake.calls("claims")) == 2


@pytest.mark.parametrize("text", [
    "I don't know.", "I do not know the answer to that.", "I could not find that in the documents.",
    "Sorry, I couldn't find any information about refunds.", "That is not mentioned in the documents.",
    "Hello! How can I help you today?", "Hi there, I'm the Acme support assistant.", "Thanks for asking!",
    "What is your order number?", "Could you tell me which plan you are on?",
    "I can help you with billing questions.", "As an AI assistant, I cannot browse the web.",
    "I'm not sure.", "", "   ",
])
def test_refusals_greetings_questions_and_statements_about_the_assistant_state_no_facts(text):
    assert not states_facts(text)


@pytest.mark.parametrize("text", [
    OUTPUT, "Deleted files are kept for 90 days.", "The sky is blue.", "Paris is the capital of France.",
    "Critics called the film a masterpiece.", "Hello! Refunds take 14 days.",
    "I don't know the exact date. The store opened in 1998.",
])
def test_sentences_with_a_number_a_name_or_a_verb_state_facts(text):
    assert states_facts(text)


# -- 3. repeated verdicts ------------------------------------------------------------------------

def test_a_repeated_first_verdict_is_reasked(tesla, make_fake_judge):
    tesla.fail("repeat_first", step="verdicts", times=1)
    result = Hallucination(make_fake_judge(verdicts="all")).run(OUTPUT, TESLA)
    assert result.score == 0.5  # 0.0 if the first claim's "supported" were counted twice
    assert result.judge_calls[1].attempts == 2
    reask = tesla.calls("verdicts")[1]["body"]["messages"][-1]["content"]
    assert "verdict 2 is about 'Tesla was founded in 2003.'" in reask


def test_repeated_verdicts_are_an_error_after_the_reasks(tesla, make_fake_judge):
    tesla.fail("repeat_first", step="verdicts", times=99)
    with pytest.raises(JudgeError, match="verdict 2 is about 'Tesla was founded in 2003.', but claim 2 is"):
        Faithfulness(make_fake_judge(verdicts="all")).run(OUTPUT, TESLA)
    assert len(tesla.calls("verdicts")) == 3


def _verdicts(*statements: str) -> SimpleNamespace:
    return SimpleNamespace(verdicts=[SimpleNamespace(statement=s) for s in statements])


def test_echoed_statements_may_differ_in_case_and_punctuation_or_be_empty():
    check = same_statements(["Tesla was founded in 2003.", "Elon Musk started the company."])
    check(_verdicts("TESLA was founded in 2003", ""))
    check(_verdicts('"Tesla was founded in 2003"', "Elon Musk started the company (Tesla)."))
    with pytest.raises(ValueError, match="verdict 1 is about"):
        check(_verdicts("Elon Musk started the company.", "Tesla was founded in 2003."))
    with pytest.raises(ValueError, match="verdict 2 is about"):  # closer to claim 1 than to its own
        check(_verdicts("Tesla was founded in 2003.", "Tesla was founded by Elon Musk in 2003."))


def test_a_refusal_the_judge_lists_as_a_claim_is_still_no_claims(fake, make_fake_judge):
    for refusal in ("I don't know.", "I'm not able to answer that from the documentation I have access to."):
        fake.facts(claims={refusal: [refusal]}, supported=[refusal])
        result = Faithfulness(make_fake_judge()).run(refusal, ["The API allows 600 requests per minute."])
        assert (result.claims, result.no_claims) == ([], True)


@pytest.mark.parametrize("claim", [
    "We do not have data centres in Asia.", "The app stores no information about your location.",
    "The product has no data retention limit.", "Refunds are not certain for sale items.",
])
def test_claims_about_the_world_that_sound_like_refusals_are_kept_and_judged(fake, make_fake_judge, claim):
    """Dropping such a claim, or leaving its sentence uncovered, would hide it from the verdicts."""
    fake.facts(claims={claim: []})  # a judge that lists nothing: the sentence itself is judged
    result = Faithfulness(make_fake_judge()).run(claim, ["Acme has data centres in Frankfurt and Singapore."])
    assert result.claims == [claim] and result.score == 0.0
    fake.facts(claims={claim: [claim]})
    assert Faithfulness(make_fake_judge()).run(claim, ["Acme has data centres in Frankfurt."]).claims == [claim]
