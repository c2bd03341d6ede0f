"""Golden cases from golden.jsonl, one test each (the test id is the case id).

Each line holds a question, an answer and what the judge should conclude about it:
- "faithful": a good answer; it must pass assert_faithful (and is tracked in the baseline);
- "hallucinated": a known-bad answer; the judge must flag at least one of its claims, which
  keeps the judge itself honest (a judge that says yes to everything fails these).
"""

import json
from pathlib import Path

import pytest

from acme_rag import retrieve
from pytest_llmfaith import assert_faithful

CASES = [json.loads(line) for line in (Path(__file__).parent / "golden.jsonl").read_text().splitlines() if line.strip()]
SMOKE = {"live-chat-hours"}  # the case CI runs with the real offline judge


@pytest.mark.parametrize("case", [
    pytest.param(case, id=case["id"], marks=[pytest.mark.smoke] if case["id"] in SMOKE else [])
    for case in CASES
])
def test_golden(case, llm_judge):
    context = retrieve(case["question"])
    if case["expect"] == "faithful":
        assert_faithful(case["answer"], context)
    else:
        result = llm_judge.hallucination(case["answer"], context)
        assert result.score > 0, f"the judge missed a known hallucination: {result.reason}"
