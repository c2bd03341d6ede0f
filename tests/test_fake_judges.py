"""The test suite's two fake judges: the HTTP one (judge_server.py, through litellm) and the
in-process transport (fake_transport.py). Both answer by step and claim, read from the request's
structure and data tags, so a prompt reworded in the package breaks no test; the fake transport
fails as scripted."""

from __future__ import annotations

import pytest
from cases import TESLA

from pytest_llmfaith import Faithfulness, Hallucination, JudgeError
from pytest_llmfaith.scorers import claims, labels

OUTPUT = "Tesla was founded in 2003. Elon Musk founded Tesla. Tesla is based on Mars."
FACTS = {"supported": ["Tesla was founded in 2003."], "contradicted": ["Elon Musk founded Tesla."]}
SCORERS = (Faithfulness, Hallucination)


def _reword_every_prompt(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every prompt in other words; the data tags, the placeholders and the JSON asked for stay."""
    monkeypatch.setattr(claims, "CLAIMS_TASK", 'List the facts of this text, one per entry, as {{"claims": [...]}}.'
                        "\n{output}")
    for scorer, key in ((Faithfulness, "verdict"), (Hallucination, "supported")):
        fmt = f'"statement": "<claim>", "{key}": "yes" | "no" | "unsure", "reason": "<why>"'
        monkeypatch.setattr(scorer, "verdicts_task", "Here are the sources.\n{context}\nRate each of these in turn.\n"
                            f"{{claims}}\nReply as {{{{\"verdicts\": [{{{{{fmt}}}}}]}}}}")
        monkeypatch.setattr(scorer, "one_verdict_task", "Sources:\n{context}\nRate this one.\n{claims}\n"
                            f"Reply as {{{{{fmt}}}}}")
        monkeypatch.setattr(scorer, "reason_task", "Say in a sentence why the score is {score} of {scale}.\n"
                            "{verdicts}\n{context}\n{input}\n{output}")
    monkeypatch.setattr(labels, "SUPPORT", "Text:\n{context}\n\nStatement: {claim}\n\nNearby:\n{evidence}\n\n"
                        "Does the text back the statement up? yes or no.")
    monkeypatch.setattr(labels, "CONTRADICT", "Text:\n{context}\n\nStatement: {claim}\n\nNearby:\n{evidence}\n\n"
                        "Does the text say the opposite of the statement? yes or no.")


def _scores(make, verdicts: str) -> list[tuple[float, list[str], list[str], str]]:
    out = []
    for scorer in SCORERS:
        result = scorer(make(verdicts=verdicts), reason="llm").run(OUTPUT, TESLA)
        out.append((result.score, result.claims, [v.verdict for v in result.verdicts], result.reason))
    return out


@pytest.mark.parametrize("verdicts", ["all", "one", "label"])
@pytest.mark.parametrize("over", ["http", "in_process"])
def test_reworded_prompts_are_answered_as_before(request, monkeypatch, verdicts, over):
    judge, make = (("server", "make_judge") if over == "http" else ("fake", "make_fake_judge"))
    judge, make = request.getfixturevalue(judge), request.getfixturevalue(make)
    judge.facts(**FACTS)
    judge.script.reason_text = '{"reason": "Musk did not found Tesla."}'
    before = _scores(make, verdicts)
    steps = sorted({c["step"] for c in judge.calls()})
    judge.requests.clear()
    _reword_every_prompt(monkeypatch)
    assert _scores(make, verdicts) == before
    assert sorted({c["step"] for c in judge.calls()}) == steps == ["claims", "reason", "verdicts"]
    assert [s for s, _, _, _ in before] == [0.33, 0.67]
    assert before[0][3] == "Musk did not found Tesla."


def test_the_fake_transport_is_asked_by_step_and_answers_each_claim(fake, make_fake_judge):
    fake.facts(**FACTS, claims={OUTPUT: ["Tesla was founded in 2003.", "Tesla is based on Mars."]})
    result = Faithfulness(make_fake_judge(verdicts="one")).run(OUTPUT, TESLA)
    # one verdicts request per item: the two claims, and the sentence no claim quotes (its facts question with it)
    assert [c["step"] for c in fake.calls()] == ["claims", "verdicts", "verdicts", "verdicts"]
    assert [(v.statement, v.verdict, v.sentence) for v in result.verdicts] == [
        ("Tesla was founded in 2003.", "yes", False), ("Elon Musk founded Tesla.", "no", True),
        ("Tesla is based on Mars.", "unsure", False)]  # the sentence no claim quotes is judged whole, in place
    label = Faithfulness(make_fake_judge(verdicts="label")).run("Elon Musk founded Tesla.", TESLA)
    assert label.verdicts[0].verdict == "no" and fake.calls()[-1]["body"]["top_logprobs"] == 20


def test_a_scripted_judge_error_is_raised_by_the_transport_and_never_scored(fake, make_fake_judge):
    fake.fail("judge_error", step="verdicts", message="llmfaith: the judge is down. Fix: start it.")
    with pytest.raises(JudgeError, match="the judge is down"):
        Faithfulness(make_fake_judge()).run(OUTPUT, TESLA)
    assert [c["step"] for c in fake.calls()] == ["claims", "verdicts"]


@pytest.mark.parametrize("fault, step", [("malformed", "claims"), ("wrong_count", "verdicts")])
def test_a_bad_answer_is_reasked_then_an_error(fake, make_fake_judge, fault, step):
    fake.facts(**FACTS)
    fake.fail(fault, step=step, times=1)
    assert Hallucination(make_fake_judge(verdicts="all", reasks=1)).run(OUTPUT, TESLA).score == 0.67
    assert len(fake.calls(step)) == 2
    fake.fail(fault, step=step, times=99)
    with pytest.raises(JudgeError, match=f"no valid answer at step '{step}' after 2 attempts"):
        Hallucination(make_fake_judge(verdicts="all", reasks=1)).run(OUTPUT, TESLA)


def test_a_fault_that_needs_a_wire_is_refused_in_process(fake):
    with pytest.raises(AssertionError, match="429: a fault of the HTTP judge"):
        fake.fail("429")
