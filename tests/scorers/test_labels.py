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
    heads = {p.split("\n\nSentence: ")[0] for p in prompts}
    assert len(heads) == 1
    head = heads.pop()
    assert all(item in head for item in TESLA)


def test_a_judge_without_logprobs_is_a_clear_error_not_a_verdict(tesla_server, make_judge):
    tesla_server.fail("no_logprobs", step="verdicts", times=10)
    with pytest.raises(JudgeError, match="returned no logprobs.*--llm-judge-verdicts=one"):
        Faithfulness(make_judge(verdicts="label")).run(OUTPUT, TESLA)


def test_auto_reads_labels_for_the_offline_judge_only(make_fake_judge):
    from pytest_llmfaith.judge.backend import JudgeConfig

    assert JudgeConfig(model="local").verdict_mode == "label"
    assert JudgeConfig(model="local:/x.gguf").verdict_mode == "label"
    assert JudgeConfig(model="openai/gpt-4o-mini").verdict_mode == "all"
    assert JudgeConfig(model="openai/gpt-4o-mini", verdicts="label").verdict_mode == "label"


def test_a_supported_claim_naming_what_the_context_never_writes_is_asked_about_it(fake, make_fake_judge):
    """The backstops: an amount the context gives only with other numbers, and tokens it never
    writes exactly, are narrow questions; a no makes the claim unsupported, whatever the verdict said."""
    output = "Nordlicht Systems employs 40 people in Iran."
    context = ["Nordlicht Systems employs 400 people in Iraq."]
    fake.facts(supported=[output], unnamed=["iran"])
    result = Faithfulness(make_fake_judge(verdicts="label")).run(output, context)
    assert [v.verdict for v in result.verdicts] == ["unsure"] and result.score == 0.0
    asked = [c["body"]["messages"][-1]["content"] for c in fake.calls("names")]
    assert len(asked) == 2 and asked[0] == "Is “40 people” equal to “400 people”? Answer yes or no."
    assert "mention “iran”?" in asked[1].replace(",", "") or "“iran”" in asked[1]
    assert result.verdicts[0].reason.startswith("not in the context: it never writes “iran”")


def test_an_amount_the_context_gives_as_another_number_is_the_judges_question(fake, make_fake_judge):
    output = "Der AquaPur fasst 5,3 Liter Wasser."
    fake.facts(supported=[output], unnamed=["5,3 liter"])
    result = Hallucination(make_fake_judge(verdicts="label")).run(output, ["Der AquaPur fasst 3,5 Liter Wasser."])
    assert result.score == 1.0
    assert result.verdicts[0].reason.startswith(
        "contradicted by the context's numbers: “5,3 liter” where the context says “3,5 liter”")


def test_an_approximate_amount_the_judge_accepts_stays_supported(fake, make_fake_judge):
    output = "The company employs about 1,200 people."
    fake.facts(supported=[output])
    result = Faithfulness(make_fake_judge(verdicts="label")).run(output, ["The company employs 1,234 people."])
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
