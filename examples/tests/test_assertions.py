"""The two assertions, passing: the app's answers are backed by the passages it retrieved."""

import pytest

from pytest_llmfaith import assert_faithful, assert_not_hallucinated


@pytest.mark.smoke
def test_pricing_answer_is_faithful(ask):
    reply, context = ask("How much does Acme Cloud Backup cost?")
    # at least 70% of the answer's claims supported by the context (llm_min_faithfulness)
    assert_faithful(reply, context)


@pytest.mark.smoke
def test_retention_answer_is_not_hallucinated(ask):
    question = "How long are deleted files kept?"
    reply, context = ask(question)
    # at most 30% of the claims made up; an explicit threshold wins over the ini default
    assert_not_hallucinated(reply, context, max_score=0.3, input=question)
