"""Reasons say what decided (issue 27, part 4): which question, the probability named one way
("P(supported) 0.64 < 0.70"), a quote only of the sentence the verdict rests on, and the
hallucination scorer's reasons in its own direction. Label verdicts from the in-process fake judge."""

from __future__ import annotations

import re

import pytest

from pytest_llmfaith import Faithfulness, Hallucination

FEEDER = ["The P2 feeder holds 4 litres of dry food.", "The P2 has no camera.",
          "The P2 connects to the app over Wi-Fi.", "The P1 has a camera and a microphone."]


def reasons(fake, make_fake_judge, claim: str, context: list[str], **facts: object) -> tuple[str, str]:
    fake.facts(**facts)  # type: ignore[arg-type]
    judge = make_fake_judge(verdicts="label")
    return (Faithfulness(judge).run(claim, context).verdicts[0].reason,
            Hallucination(judge).run(claim, context).verdicts[0].reason)


def test_a_claim_just_under_the_line_is_not_supported_enough_not_contradicted(fake, make_fake_judge) -> None:
    """Words with a number the context never writes: held to 0.60."""
    claim = "The P2 holds 5 litres of dry food."
    faithful, made_up = reasons(fake, make_fake_judge, claim, FEEDER, p_supported={claim: 0.58})
    assert faithful == ("not supported enough: P(supported) 0.58 < 0.60, not contradicted "
                        "(P(contradicted) 0.10 < 0.50): “The P2 feeder holds 4 litres of dry food.”")
    assert made_up == "made up, " + faithful


def test_a_claim_just_under_the_line_on_clean_words_is_supported_on_a_second_reading(fake, make_fake_judge) -> None:
    claim = "The P2 holds 4 litres of dry food."
    faithful, made_up = reasons(fake, make_fake_judge, claim, FEEDER, p_supported={claim: 0.58})
    assert faithful == ("supported on a second reading: P(supported) 0.58 ≥ 0.50, P(contradicted) 0.10 < 0.50, "
                        "and the context writes every name and number of the words: "
                        "“The P2 feeder holds 4 litres of dry food.”")
    assert made_up == "not made up, " + faithful


def test_a_contradiction_names_every_question_it_asked(fake, make_fake_judge) -> None:
    """Support at 0.64 outweighed: the evidence alone is read too, and its no is in the reason."""
    claim = "The P2 has a built-in camera."  # not the words of "The P2 has no camera" negated
    faithful, made_up = reasons(fake, make_fake_judge, claim, FEEDER, contradicted=[claim], p_supported={claim: 0.64},
                                p_evidence={claim: 0.2})
    assert faithful == ("contradicted: P(contradicted) 0.95 ≥ 0.50 (P(supported) 0.64 < 0.70; shown only the nearest "
                        "passages, P(supported) 0.20 < 0.60): “The P2 has no camera.”")
    assert made_up == "made up, " + faithful


def test_a_contradiction_two_support_answers_overrule_names_all_three(fake, make_fake_judge) -> None:
    claim = "The P2 holds 4 litres of dry food."
    faithful, made_up = reasons(fake, make_fake_judge, claim, FEEDER, p_supported={claim: 0.64},
                                p_contradicted={claim: 0.74}, p_evidence={claim: 0.75})
    assert faithful == ("supported on a reading of the evidence alone: P(supported) 0.64 ≥ 0.60 with the whole "
                        "context against P(contradicted) 0.74, P(supported) 0.75 ≥ 0.60 shown only the passages "
                        "nearest the words, and the context writes every name and number of them: "
                        "“The P2 feeder holds 4 litres of dry food.”")
    assert made_up == "not made up, " + faithful



def test_a_paraphrase_the_two_answers_disagree_on_is_supported_and_says_why(fake, make_fake_judge) -> None:
    claim = "The P2 holds 4 litres of dry food."
    faithful, _ = reasons(fake, make_fake_judge, claim, FEEDER, p_supported={claim: 0.64})
    assert faithful == ("supported, not outweighed by the contradiction question: P(supported) 0.64 ≥ 0.60, "
                        "P(contradicted) 0.10 less than 0.05 above it: “The P2 feeder holds 4 litres of dry food.”")

@pytest.mark.parametrize("claim", ["The P2 works with the Alexa voice assistant.",
                                   "The P2 plays music through its speaker.",
                                   "The P2 is sold in Norway."])
def test_a_sentence_that_shares_only_the_product_name_is_not_quoted(fake, make_fake_judge, claim) -> None:
    """The newcomer's "nearest" quote, "The P2 has no camera." for a voice-assistant claim: a
    sentence that shares only the product's name is not what the verdict rests on."""
    faithful, made_up = reasons(fake, make_fake_judge, claim, FEEDER)
    assert "“" not in faithful and "“" not in made_up, (faithful, made_up)
    assert faithful.startswith(("not supported enough: P(supported) 0.10 < 0.60",
                                "not supported enough: P(supported) 0.10 < 0.50"))


def test_the_hallucination_scorer_says_whether_a_claim_is_made_up(fake, make_fake_judge) -> None:
    claim = "The P2 connects to the app over Wi-Fi."
    faithful, made_up = reasons(fake, make_fake_judge, claim, FEEDER, supported=[claim])
    assert faithful == "supported: P(supported) 0.95 ≥ 0.70: “The P2 connects to the app over Wi-Fi.”"
    assert made_up == "not made up, " + faithful


def test_p_is_named_one_way_in_every_reason(fake, make_fake_judge) -> None:
    """No bare "p=" nor "p supported=": every probability is P(question) with the line it was held to."""
    claims = ["The P2 holds 4 litres of dry food.", "The P2 has a camera.", "The P2 is sold in Norway."]
    fake.facts(supported=claims[:1], contradicted=claims[1:2])
    judge = make_fake_judge(verdicts="label", votes=3)
    for scorer in (Faithfulness(judge), Hallucination(judge)):
        for verdict in scorer.run(" ".join(claims), FEEDER).verdicts:
            assert not re.search(r"\bp[ =]", verdict.reason), verdict.reason
            assert re.search(r"P\((supported|contradicted)\) \d\.\d\d [<≥] 0\.\d0", verdict.reason), verdict.reason
