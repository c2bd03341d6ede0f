"""The claim checks against a judge that misbehaves plausibly (issue 25, items 1-4 and 8).

Each case is a judge answer that the checks once turned into a pass: padding with sub-claims, a
claim whose negation or comparison changed, an output left partly unclaimed, a verdict given for
another claim. The scorer-level tests pin the claims and the score against the in-process fake
judge; the real runs (pytester, the HTTP judge) show the pass/fail outcome a user sees.
"""

from __future__ import annotations

import time

import pytest
from plugin_helpers import rows, run

from pytest_llmfaith import Faithfulness, Hallucination, JudgeError
from pytest_llmfaith.scorers.checks import check_claim
from pytest_llmfaith.scorers.coverage import uncovered, without_repeats

# -- 1. padding ------------------------------------------------------------------------------------
PADDED = "Acme was founded in 1999 in Oslo. Acme makes 40,000 bikes a year. Acme has a store in Bergen."
PADDED_CONTEXT = ["Acme was founded in 1999 in Oslo."]
WHOLE = ["Acme was founded in 1999 in Oslo.", "Acme makes 40,000 bikes a year.", "Acme has a store in Bergen."]
PADDING = ["Acme was founded in 1999.", "Acme was founded in Oslo."]


def _pad(judge) -> None:
    judge.facts(claims={PADDED: [WHOLE[0], *PADDING, *WHOLE[1:]]}, supported=[WHOLE[0], *PADDING])


def test_sub_claims_of_another_claim_count_once(fake, make_fake_judge):
    _pad(fake)
    faithful = Faithfulness(make_fake_judge(verdicts="all")).run(PADDED, PADDED_CONTEXT)
    assert faithful.claims == WHOLE and faithful.score == 0.33  # 0.60 with the padding
    assert Hallucination(make_fake_judge(verdicts="all")).run(PADDED, PADDED_CONTEXT).score == 0.67  # 0.40


@pytest.mark.usefixtures("litellm_warmed_up", "clean_env")  # an inner pytest run
def test_padding_does_not_turn_failing_assertions_into_passes(pytester, server):
    _pad(server)
    pytester.makepyfile(test_a=f"""
from pytest_llmfaith import assert_faithful, assert_not_hallucinated

def test_faithful():
    assert_faithful({PADDED!r}, {PADDED_CONTEXT!r}, min_score=0.34)

def test_not_hallucinated():
    assert_not_hallucinated({PADDED!r}, {PADDED_CONTEXT!r}, max_score=0.5)
""")
    result = run(pytester, server, "--llm-judge-verdicts=all")
    result.assert_outcomes(failed=2)
    assert [r[:3] for r in rows(result)] == [["test_a.py::test_faithful", "faithful", "0.33"],
                                             ["test_a.py::test_not_hallucinated", "halluc", "0.67"]]


@pytest.mark.parametrize("claims, kept", [
    (["Acme was founded in 1999.", "Acme was founded in 1999 in Oslo."], ["Acme was founded in 1999 in Oslo."]),
    # not repeats: another subject, another negation, another number
    (["Company A leads the market.", "Company B leads the market with 30% share."],
     ["Company A leads the market.", "Company B leads the market with 30% share."]),
    (["Acme sells bikes.", "Acme does not sell bikes in Oslo."],
     ["Acme sells bikes.", "Acme does not sell bikes in Oslo."]),
    (["Acme has 40 staff.", "Acme has 400 staff in Oslo."], ["Acme has 40 staff.", "Acme has 400 staff in Oslo."]),
    # German, Korean: n-grams; the fuller claim is kept
    (["Nordlicht wurde 1999 gegründet.", "Nordlicht wurde 1999 in Bremen gegründet."],
     ["Nordlicht wurde 1999 in Bremen gegründet."]),
    (["회사는 2015년 설립되었다.", "회사는 2015년 서울에서 설립되었다."], ["회사는 2015년 서울에서 설립되었다."]),
])
def test_a_claim_is_a_repeat_only_when_another_carries_every_word_of_it(claims, kept):
    assert without_repeats(claims, " ".join(claims)) == kept


# -- 2. negation and comparison markers ---------------------------------------------------------------
@pytest.mark.parametrize("claim", ["Acme employs 40 people or more.", "Acme does not employ 40 people.",
                                   "Acme employs at least 40 people.", "Acme never employed 40 people."])
def test_a_claim_that_adds_a_negation_or_comparison_is_not_the_outputs(fake, make_fake_judge, claim):
    output = "Acme employs 40 people."
    fake.facts(claims={output: [claim]}, supported=[claim])  # the context says what the altered claim says
    result = Faithfulness(make_fake_judge(verdicts="all")).run(output, [claim])
    assert result.claims == [output] and result.score == 0.0  # 1.00 if the altered claim were judged


def test_a_claim_that_removes_a_negation_is_not_the_outputs(fake, make_fake_judge):
    output = "Acme does not ship to Norway, and it has a store in Oslo."
    claims = ["Acme ships to Norway.", "Acme has a store in Oslo."]
    fake.facts(claims={output: claims}, supported=claims)
    context = ["Acme ships to Norway and has a store in Oslo."]
    result = Faithfulness(make_fake_judge(verdicts="all")).run(output, context)
    assert result.claims == [claims[1], output] and result.score == 0.5


@pytest.mark.parametrize("output, claim", [
    ("Acme does not sell cars, but it employs 40 people.", "Acme employs 40 people."),
    ("Acme does not sell cars, but it employs 40 people.", "Acme does not sell cars."),
    ("Acme employs at least 40 people.", "Acme employs at least 40 people."),
    ("The app stores no location data.", "The app stores no location data."),
])
def test_claims_that_keep_their_clauses_negations_and_comparisons_are_accepted(output, claim):
    check_claim(claim, output)


# -- 3. part of the output left out ------------------------------------------------------------------
@pytest.mark.parametrize("output, claims", [
    ("Acme ships orders from Berlin and Paris warehouses daily.", ["Acme ships orders from Berlin warehouses daily."]),
    ("Quellfish Ltd sells blue widgets. Quellfish Ltd sells red widgets.", ["Quellfish Ltd sells blue widgets."]),
    ("Acme ships from Berlin on Mondays and Fridays.", ["Acme ships from Berlin on Mondays."]),
    ("The plan costs $8 and includes 50 GB.", ["The plan costs $8."]),
])
def test_a_sentence_whose_names_numbers_or_own_words_no_claim_carries_is_judged(fake, make_fake_judge, output, claims):
    fake.facts(claims={output: claims}, supported=claims)
    result = Faithfulness(make_fake_judge(verdicts="all")).run(output, claims)
    assert result.score == 0.5  # 1.00 if the left-out part went unjudged
    assert len(result.claims) == 2 and result.claims[0] == claims[0]


def test_sentences_whose_facts_are_all_claimed_stay_covered():
    output = "Acme ships orders from Berlin and Paris warehouses daily. Quellfish Ltd sells blue widgets."
    claims = ["Acme ships orders from Berlin warehouses daily.", "Acme ships orders from Paris warehouses daily.",
              "Quellfish Ltd sells blue widgets."]
    assert uncovered(output, claims) == []


# -- 4. a verdict for another claim --------------------------------------------------------------------
OUTPUT_40 = "Acme employs 40 people. Acme was founded in 1999."
CLAIMS_40 = ["Acme employs 40 people.", "Acme was founded in 1999."]


@pytest.mark.parametrize("statement", ["Acme employs 400 people.", "Acme does not employ 40 people.",
                                       "Initech employs 40 people.", "Acme employs 40 people or more."])
def test_a_verdict_for_another_statement_is_reasked_then_an_error(fake, make_fake_judge, statement):
    fake.facts(claims={OUTPUT_40: CLAIMS_40}, supported=[statement, CLAIMS_40[1]])
    fake.fail("restate", step="verdicts", times=1, text=statement)
    result = Faithfulness(make_fake_judge(verdicts="all")).run(OUTPUT_40, ["Initech employs 400 people."])
    assert result.score == 0.5 and result.verdicts[0].statement == CLAIMS_40[0]  # re-asked: the claim's own verdict
    assert len(fake.calls("verdicts")) == 2
    fake.fail("restate", step="verdicts", times=99, text=statement)
    with pytest.raises(JudgeError, match=f"verdict 1 is about {statement!r}, but claim 1 is"):
        Faithfulness(make_fake_judge(verdicts="all")).run(OUTPUT_40, ["Initech employs 400 people."])


@pytest.mark.usefixtures("litellm_warmed_up", "clean_env")  # an inner pytest run
def test_a_verdict_for_another_number_is_an_error_in_a_real_run(pytester, server):
    server.facts(claims={OUTPUT_40: CLAIMS_40}, supported=["Acme employs 400 people.", CLAIMS_40[1]])
    server.fail("restate", step="verdicts", times=99, text="Acme employs 400 people.")
    pytester.makepyfile(test_a=f"""
from pytest_llmfaith import assert_faithful

def test_employees():
    assert_faithful({OUTPUT_40!r}, ["Acme employs 400 people."], min_score=0.9)
""")
    result = run(pytester, server, "--llm-judge-verdicts=all")
    result.assert_outcomes(errors=1)
    assert "verdict 1 is about 'Acme employs 400 people.', but claim 1 is 'Acme employs 40 people.'" in \
        result.stdout.str()


# -- 8. coverage is linear ------------------------------------------------------------------------------
def _long_output(n: int) -> tuple[str, list[str]]:
    sentences = [f"Order {i} ships from warehouse {i % 97} in {('Oslo', 'Bergen', 'Paris')[i % 3]} on day {i}."
                 for i in range(n)]
    return " ".join(sentences), sentences


def test_coverage_of_a_long_output_grows_linearly():
    """Today's claims x sentences loop: 0.3 s at 1k sentences, 7.4 s at 4k (the issue's figures)."""
    seconds = []
    for n in (500, 4000):
        output, claims = _long_output(n)
        start = time.perf_counter()
        assert uncovered(output, claims) == []
        seconds.append(time.perf_counter() - start)
    assert seconds[1] < 8 * seconds[0] * 3  # linear (8x) with room for a shared machine; quadratic is 64x
