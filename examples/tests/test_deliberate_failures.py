"""The same assertions failing, on purpose: answers that contradict the docs.

These are what a regression looks like (a new prompt or model that invents numbers and
places). They are marked xfail so the example run stays green; remove the marker to see the
failure report: the score, the threshold and each claim the judge rejected, with its reason.
"""

import pytest

from acme_rag import retrieve
from pytest_llmfaith import assert_faithful, assert_not_hallucinated

# raises=AssertionError: only a low score is expected; a judge that errors is an ERROR of the run
XFAIL = pytest.mark.xfail(reason="a wrong answer on purpose: demonstrates a failing check",
                          raises=AssertionError, strict=False)


@pytest.mark.smoke
@XFAIL
def test_wrong_retention_period_is_caught():
    question = "How long are deleted files kept?"
    wrong = "Deleted files are kept for 7 days before they are permanently removed."  # docs: 90 days
    assert_faithful(wrong, retrieve(question))


@XFAIL
def test_invented_regions_are_caught():
    question = "Which regions can my backups be stored in?"
    wrong = "Acme Cloud Backup stores your data in London and Tokyo."  # docs: Frankfurt, Virginia, Singapore
    assert_not_hallucinated(wrong, retrieve(question))
