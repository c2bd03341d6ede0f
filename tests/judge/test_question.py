"""A question passed whole (judge/question.py): its key is the one the judge's request gives, and
it says how it is sent, validated and kept."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from pytest_llmfaith.judge.question import TOP_LOGPROBS, NextToken, request_key
from pytest_llmfaith.scorers.claims import ClaimsAnswer

MESSAGES = [{"role": "user", "content": "hi"}]


@pytest.mark.parametrize("schema", [ClaimsAnswer, NextToken, None])
@pytest.mark.parametrize("sample", [0, 2])
def test_a_question_s_key_is_its_request_s(make_fake_judge, schema, sample) -> None:
    """The key existing caches and committed recordings are stored under."""
    judge = make_fake_judge()
    question = judge.question("claims", MESSAGES, schema, "v1", sample)
    assert question.key == request_key(question.request)
    assert (question.model, question.request["model"]) == (judge.identity, judge.identity)
    assert (question.step, question.messages, question.schema, question.sample) == ("claims", MESSAGES, schema, sample)


def test_a_question_is_sent_in_its_schema_s_shape(make_fake_judge) -> None:
    judge = make_fake_judge(seed=7, max_tokens=50)
    claims = judge.question("claims", MESSAGES, ClaimsAnswer, "v1").completion(MESSAGES)
    assert claims.json_schema == ClaimsAnswer.model_json_schema() and claims.schema_name == "ClaimsAnswer"
    assert (claims.seed, claims.max_tokens, claims.temperature) == (7, 50, 0.0)
    label = judge.question("verdicts", MESSAGES, NextToken, "v1").completion(MESSAGES)
    assert label.top_logprobs == TOP_LOGPROBS and label.json_schema is None
    vote = judge.question("verdicts", MESSAGES, ClaimsAnswer, "v1", sample=1).completion(MESSAGES)
    assert (vote.temperature, vote.seed) == (judge.config.votes_temperature, 8)


def test_a_question_validates_its_answer_and_runs_its_check(make_fake_judge) -> None:
    def no_empty(answer: ClaimsAnswer) -> None:
        if not answer.claims:
            raise ValueError("no claims")

    question = make_fake_judge().question("claims", MESSAGES, ClaimsAnswer, "v1", check=no_empty)
    assert question.validate({"claims": ["a"]}) == ClaimsAnswer(claims=["a"])
    with pytest.raises(ValueError, match="no claims"):
        question.validate({"claims": []})
    with pytest.raises(ValidationError):
        question.validate({"not_claims": 1})
    with pytest.raises(TypeError):
        make_fake_judge().question("reason", MESSAGES, None, "v1").validate({"claims": ["a"]})


def test_a_question_s_entry_is_redacted_and_a_label_s_carries_its_p_yes(make_fake_judge, monkeypatch) -> None:
    monkeypatch.setenv("JUDGE_KEY", "sk-secret-value-123456")
    judge = make_fake_judge(api_key_env="JUDGE_KEY")
    entry = judge.question("claims", MESSAGES, ClaimsAnswer, "v1").entry(
        {"claims": ["key sk-secret-value-123456"]}, {"prompt_tokens": 4}, 0.25, "tests/test_x.py")
    assert "sk-secret-value-123456" not in str(entry.value())
    assert (entry.stored.step, entry.stored.prompt_version, entry.recorded_by, entry.p_yes) == \
        ("claims", "v1", "tests/test_x.py", None)
    label = judge.question("verdicts", MESSAGES, NextToken, "v1").entry({"top": {"yes": 0.0}}, {}, None)
    assert label.p_yes == 1.0 and label.stored.answer == {"top": {"yes": 0.0}}  # the cache keeps the tokens
