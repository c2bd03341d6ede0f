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
                       "not supported enough: P(supported) 0.10 < 0.50, not contradicted (P(contradicted) 0.10 < 0.50)"]


@pytest.mark.parametrize("p_yes, supported", [(0.4, False), (0.49, False), (0.5, True), (0.59, True), (0.6, True),
                                              (0.7, True), (0.8, True)])
def test_a_borderline_yes_on_clean_words_is_read_twice(fake, make_fake_judge, p_yes, supported):
    """Between 0.5 and 0.6 a claim whose names and numbers the context all writes is supported when
    the contradiction answer is a no (a second reading): one coin-flip claim does not fail a
    faithful answer (issue 52)."""
    claim = "Tesla was founded in 2003."
    fake.facts(p_supported={claim: p_yes})
    faithful = Faithfulness(make_fake_judge(verdicts="label")).run(claim, TESLA)
    hallucinated = Hallucination(make_fake_judge(verdicts="label")).run(claim, TESLA)
    assert (faithful.score, hallucinated.score) == ((1.0, 0.0) if supported else (0.0, 1.0))


@pytest.mark.parametrize("p_yes", [0.5, 0.59])
def test_a_borderline_yes_on_what_the_claims_leave_of_a_sentence_is_not_support(fake, make_fake_judge, p_yes):
    """A sentence judged for the words its claims leave out ("and may sell flying cars": a hedge or
    an addition that no name or number shows) is held to 0.6, where its claim alone is read twice."""
    output = "Tesla was founded in 2003 and may sell flying cars."
    fake.facts(claims={output: ["Tesla was founded in 2003"]}, supported=["Tesla was founded in 2003"],
               p_supported={output: p_yes}, says_more=[output])
    result = Faithfulness(make_fake_judge(verdicts="label")).run(output, TESLA)
    assert [v.verdict for v in result.verdicts] == ["yes", "unsure"] and result.score == 0.5
    fake.facts(p_supported={"Tesla was founded in 2003.": p_yes})
    assert Faithfulness(make_fake_judge(verdicts="label")).run("Tesla was founded in 2003.", TESLA).score == 1.0


@pytest.mark.parametrize("claim, context", [
    ("The flight costs 310 EUR.", "The flight costs 290 EUR. Taxes are 31 EUR."),  # a number it never writes
    ("The Oslo office opened in Bergen.", "The office opened in Oslo."),  # a name it never writes
])
@pytest.mark.parametrize("p_yes", [0.5, 0.59])
def test_a_borderline_yes_on_words_the_context_never_writes_is_not_support(fake, make_fake_judge, claim, context,
                                                                          p_yes):
    """The other way: a wrong price at the same coin flip stays unsupported (held to 0.6)."""
    fake.facts(p_supported={claim: p_yes})
    assert Faithfulness(make_fake_judge(verdicts="label")).run(claim, [context]).score == 0.0
    assert Hallucination(make_fake_judge(verdicts="label")).run(claim, [context]).score == 1.0


@pytest.mark.parametrize("p_contradicted, clean, supported", [(0.1, True, True), (0.49, True, True),
                                                               (0.5, True, False), (0.6, True, False),
                                                               (0.1, False, False)])
def test_the_second_reading_needs_a_no_to_contradiction_and_clean_words(p_contradicted, clean, supported):
    from pytest_llmfaith.scorers.labels import Label

    assert Label(0.55, p_contradicted, "", written=clean).supported is supported


@pytest.mark.parametrize("p_supported, p_evidence, clean, supported", [
    (0.58, 0.61, True, True), (0.5, 0.5, True, True), (0.61, 0.75, True, True),
    (0.58, 0.49, True, False),  # the evidence alone says no too
    (0.49, 0.9, True, False),  # below the borderline: one yes is not two
    (0.58, 0.9, False, False),  # code sees a risk (a name or number the context never writes, a leftover)
])
def test_the_evidence_alone_is_a_third_reading_of_clean_borderline_words(p_supported, p_evidence, clean, supported):
    """Shown every passage, the 1.5B judge answers both questions near 0.6 for faithful and
    unfaithful claims alike; shown only the nearest passages it parts them (benchmarks, round 18)."""
    asked = labels.Label(p_supported, 0.66, "", written=clean)
    assert not asked.supported and asked.needs_evidence is (clean and p_supported >= labels.BORDERLINE_FROM)
    label = labels.Label(p_supported, 0.66, "", written=clean, p_evidence=p_evidence)
    assert label.supported is supported and not label.needs_evidence
    assert Faithfulness.label_verdict(label) == ("yes" if supported else "no")


@pytest.mark.parametrize("p_supported, p_contradicted, p_evidence, written, supported", [
    (0.67, 0.74, 0.75, True, True),  # "I could not find a booking ZZ9999" beside "booking ZZ9999 not found"
    (0.65, 0.95, 0.6, True, True),
    (0.69, 0.79, 0.57, True, False),  # the labelled set's role swap ("bombed by u.n. children's fund")
    (0.65, 0.71, 0.59, True, False),  # one answer at the support side's line is not two
    (0.59, 0.74, 0.9, True, False),  # support under its own line: the contradiction stands
    (0.67, 0.74, 0.9, False, False),  # a name or number the context never writes
])
def test_a_settled_contradiction_is_overruled_only_by_two_answers_at_the_support_line(
        p_supported, p_contradicted, p_evidence, written, supported):
    """Both answers leaning their own way (support 0.60 or more, contradiction 0.70 or more) are a
    dispute the evidence alone reads again, held to 0.60, not 0.50: the offline judge gave faithful
    tool-result claims P(contradicted) 0.71-0.76 beside a "non-refundable" or an "Error:" line."""
    asked = labels.Label(p_supported, p_contradicted, "", written=written)
    assert not asked.supported and asked.needs_evidence is (written and p_supported >= labels.SUPPORTED_FROM)
    label = labels.Label(p_supported, p_contradicted, "", written=written, p_evidence=p_evidence)
    assert label.supported is supported and not label.needs_evidence
    assert label.contradicted is not supported
    assert Faithfulness.label_verdict(label) == ("yes" if supported else "no")


@pytest.mark.parametrize("p_contradicted, p_evidence, supported", [(0.68, 0.62, True), (0.68, 0.55, False),
                                                                   (0.8, 0.62, True), (0.8, 0.55, False)])
def test_a_leftover_sentence_the_contradiction_outweighs_is_read_again_at_the_support_line(
        p_contradicted, p_evidence, supported):
    """A sentence judged for what its claims leave out ("…, and they are refunded") may hide a
    hedge code cannot see, so it is never read at the borderline's 0.50, only at 0.60."""
    label = labels.Label(0.62, p_contradicted, "", written=True, leftover=True)
    assert label.needs_evidence and label.evidence_line == labels.OUTWEIGHED_EVIDENCE_AT
    read = labels.Label(0.62, p_contradicted, "", written=True, leftover=True, p_evidence=p_evidence)
    assert read.supported is supported
    assert not labels.Label(0.58, 0.66, "", written=True, leftover=True).needs_evidence  # under 0.60: no third reading


@pytest.mark.parametrize("label", [labels.Label(0.75, None, ""), labels.Label(0.55, 0.1, "", written=True),
                                   labels.Label(0.65, 0.62, ""), labels.Label(0.3, 0.9, "", written=True),
                                   labels.Label(0.59, 0.7, "", written=True), labels.Label(0.6, 0.66, ""),
                                   labels.Label(0.65, 0.8, "", written=False)])
def test_the_evidence_is_not_asked_where_it_cannot_change_the_verdict(label):
    assert not label.needs_evidence


TESLA_KO = ["테슬라는 2003년에 설립되었다.", "일론 머스크는 2004년에 테슬라에 합류했다.",
            "테슬라의 첫 차는 로드스터였다."]


@pytest.mark.parametrize("context", [TESLA, TESLA_KO], ids=["en", "ko"])
@pytest.mark.parametrize("p_contradicted, p_evidence, score", [(0.66, 0.62, 1.0), (0.66, 0.3, 0.5), (0.7, 0.9, 0.5)])
def test_a_coin_flip_beside_a_contradiction_answer_is_decided_by_the_evidence_alone(
        server, make_judge, p_contradicted, p_evidence, score, context):
    """Both directions over the wire: the same borderline support and contradiction answers pass
    the claim when the evidence alone reads as support and fail it when it does not; the question
    is asked once, of that claim only, with no document but the nearest passages. A contradiction
    answer of 0.70 or more is settled: it is not read again."""
    claim, other = context[0], context[1]
    server.facts(p_supported={claim: 0.58}, p_contradicted={claim: p_contradicted}, p_evidence={claim: p_evidence},
                 supported=[other])
    result = Faithfulness(make_judge(verdicts="label")).run(f"{claim} {other}", context)
    assert result.score == score
    asked = [c["body"]["messages"][-1]["content"] for c in server.calls("verdicts")]
    evidence = [a for a in asked if "The most relevant sentences" not in a]
    if p_contradicted >= labels.SUPPORTED_AT:
        assert evidence == [] and result.verdicts[0].reason.startswith("contradicted: P(contradicted) 0.70 ≥ 0.50 "
                                                                       "(P(supported) 0.58 < 0.70): ")
        return
    assert len(evidence) == 1 and f"Words to check: {claim}" in evidence[0]
    document = evidence[0].split("\n\nSentence: ")[0]
    assert sum(sentence in document for sentence in context) == labels.EVIDENCE_SENTENCES  # not the whole context
    assert result.verdicts[0].reason.startswith(
        "supported on a reading of the evidence alone: P(supported) 0.58 ≥ 0.50 with the whole context, "
        "P(supported) 0.62 ≥ 0.50 shown only the passages nearest the words" if score == 1.0 else
        "contradicted: P(contradicted) 0.66 ≥ 0.50 (P(supported) 0.58 < 0.70; shown only the nearest passages, "
        "P(supported) 0.30 < 0.50)")


TESLA_ZH = ["特斯拉成立于2003年。", "埃隆·马斯克于2004年加入特斯拉。", "特斯拉的第一辆车是Roadster。"]


@pytest.mark.parametrize("context", [TESLA, TESLA_KO, TESLA_ZH], ids=["en", "ko", "zh"])
@pytest.mark.parametrize("p_evidence, score", [(0.75, 1.0), (0.57, 0.5)])
def test_a_settled_contradiction_needs_the_evidence_at_the_support_line_over_the_wire(
        server, make_judge, p_evidence, score, context):
    """Support 0.67 against a contradiction of 0.74, in three scripts: the evidence alone at 0.75
    makes the claim supported, at 0.57 (over the borderline's 0.50) it stays contradicted."""
    claim, other = context[0], context[1]
    server.facts(p_supported={claim: 0.67}, p_contradicted={claim: 0.74}, p_evidence={claim: p_evidence},
                 supported=[other])
    result = Faithfulness(make_judge(verdicts="label")).run(f"{claim} {other}", context)
    assert result.score == score
    assert result.verdicts[0].reason.startswith("supported on a reading of the evidence alone" if score == 1.0
                                                else "contradicted: P(contradicted) 0.74")


@pytest.mark.parametrize("claim, context", [
    ("A ticket is 310 EUR.", "The flight costs 290 EUR."),  # a number never written
    ("The Oslo office opened in Bergen.", "The office opened in Oslo."),  # a name never written
])
def test_words_the_context_never_writes_are_never_read_again(fake, make_fake_judge, claim, context):
    """The other way: a name or number the context never writes is a risk code sees, so however
    the evidence alone would read, the claim is held to the document's answers."""
    fake.facts(p_supported={claim: 0.58}, p_contradicted={claim: 0.66}, p_evidence={claim: 0.9})
    assert Faithfulness(make_fake_judge(verdicts="label")).run(claim, [context]).score == 0.0
    asked = [c["body"]["messages"][-1]["content"] for c in fake.calls("verdicts")]
    assert len(asked) == 2 and all("The most relevant sentences" in a for a in asked)  # support, contradiction


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
    heads = {p.split("\n\nSentence: ")[0] for p in prompts}
    assert len(heads) == 1
    head = heads.pop()
    assert all(item in head for item in TESLA)


def test_a_judge_without_logprobs_is_a_clear_error_not_a_verdict(tesla_server, make_judge):
    tesla_server.fail("no_logprobs", step="verdicts", times=10)
    with pytest.raises(JudgeError, match="returned no logprobs.*--llm-judge-verdicts=one"):
        Faithfulness(make_judge(verdicts="label")).run(OUTPUT, TESLA)


def test_auto_reads_labels_for_the_offline_judge_only():
    from pytest_llmfaith import Judge
    from pytest_llmfaith.judge.backend import JudgeConfig

    assert Judge(JudgeConfig(model="local")).verdict_mode == "label"
    assert Judge(JudgeConfig(model="local:/x.gguf")).verdict_mode == "label"
    assert Judge(JudgeConfig(model="openai/gpt-4o-mini")).verdict_mode == "all"
    assert Judge(JudgeConfig(model="openai/gpt-4o-mini", verdicts="label")).verdict_mode == "label"


def test_a_supported_claim_naming_what_the_context_never_writes_is_asked_about_it(fake, make_fake_judge):
    """The backstop: tokens the context never writes are one narrow question; a no makes the claim
    unsupported, whatever the verdict said."""
    output = "Nordlicht Systems employs 400 people in Iran."
    context = ["Nordlicht Systems employs 400 people in Iraq."]
    fake.facts(supported=[output], unnamed=["iran"])
    result = Faithfulness(make_fake_judge(verdicts="label")).run(output, context)
    assert [v.verdict for v in result.verdicts] == ["unsure"] and result.score == 0.0
    asked = [c["body"]["messages"][-1]["content"] for c in fake.calls("names")]
    assert len(asked) == 1 and "The sentence writes “iran”, which the document never writes" in asked[0]
    assert result.verdicts[0].reason.startswith("not in the context: it never writes “iran”")


@pytest.mark.parametrize("verdicts", ["label", "all"])
def test_a_number_the_context_writes_in_the_same_role_with_another_value_is_decided_without_asking(
        fake, make_fake_judge, verdicts):
    output = "Der AquaPur fasst 5,3 Liter Wasser."
    fake.facts(supported=[output])
    result = Hallucination(make_fake_judge(verdicts=verdicts)).run(output, ["Der AquaPur fasst 3,5 Liter Wasser."])
    assert result.score == 1.0
    assert result.verdicts[0].reason.startswith(
        "contradicted by the context's numbers, decided without asking: “5,3” where the context writes “3,5”")
    assert fake.calls("verdicts") == [] and fake.calls("names") == []


def test_an_approximate_amount_the_judge_accepts_stays_supported(fake, make_fake_judge):
    output = "The company employs about 1,200 people."
    fake.facts(supported=[output])
    result = Faithfulness(make_fake_judge(verdicts="label")).run(output, ["The company employs 1,234 people."])
    # the specifics question only: "about 1,200" is an estimate, no amount whose sameness is asked
    assert result.score == 1.0 and len(fake.calls("names")) == 1


def test_a_name_the_context_writes_in_another_form_stays_supported(fake, make_fake_judge):
    """The other direction: Helsingissä for Helsinki is the judge's to read, and it says yes."""
    output = "Toimisto on Helsingissä."
    fake.facts(supported=[output])
    result = Hallucination(make_fake_judge(verdicts="label")).run(output, ["The office is in Helsinki."])
    assert result.score == 0.0 and len(fake.calls("names")) == 1


def test_words_the_context_writes_exactly_ask_nothing_more(fake, make_fake_judge):
    output = "Tesla was founded in 2003."
    fake.facts(supported=[output])
    result = Faithfulness(make_fake_judge(verdicts="label")).run(output, TESLA)
    assert result.score == 1.0 and fake.calls("names") == []


def test_the_offline_judge_compares_a_number_the_context_never_writes_with_those_beside_the_same_words(
        fake, make_fake_judge):
    """Its specifics answer alone is weak on numbers (yes to 40 people for 400): the bare amount
    question beside it is a second answer, and a no makes the claim unsupported."""
    output = "Nordlicht employs 40 people."
    fake.facts(supported=[output], unnamed=["40 people"])
    result = Faithfulness(make_fake_judge(verdicts="label")).run(output, ["The company employs 400 people."])
    assert result.score == 0.0 and result.verdicts[0].reason.startswith("not in the context: it never writes “40”")
    asked = [c["body"]["messages"][-1]["content"] for c in fake.calls("names")]
    assert "Is “employs 40 people” the same amount as “employs 400 people”? Answer yes or no." in asked
    fake.reset()
    fake.facts(supported=[output])  # the judge says it is the same amount (another notation): supported
    assert Faithfulness(make_fake_judge(verdicts="label")).run(output, ["The company employs 400 people."]).score == 1.0
