"""A callable context: pass the retrieval itself, e.g. `context=lambda: retrieve(question)`.

The plugin calls it once per assertion and uses the same passages for every judge step, so
the test states *how* the context is obtained instead of computing it up front.
"""

from acme_rag import answer, retrieve
from pytest_llmfaith import assert_faithful


def test_backup_schedule_with_callable_context():
    question = "How often do backups run?"
    assert_faithful(answer(question), context=lambda: retrieve(question))
