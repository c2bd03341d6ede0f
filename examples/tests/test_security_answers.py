"""A module-level marker: security answers get zero tolerance for made-up claims.

`pytestmark` applies `llmfaith(max_hallucination=0.0)` to every test in this file, so any
assertion here without an explicit max_score fails on a single hallucinated claim (the
project-wide default in pyproject.toml is 0.3). The marker also takes min_faithfulness and model.
"""

import pytest

from pytest_llmfaith import assert_not_hallucinated

pytestmark = pytest.mark.llmfaith(max_hallucination=0.0)


def test_encryption_answer(ask):
    reply, context = ask("How are my backups encrypted?")
    assert_not_hallucinated(reply, context)


def test_two_factor_answer(ask):
    reply, context = ask("Is two-factor authentication required?")
    assert_not_hallucinated(reply, context)
