"""The engine's JSON answers: generated without the grammar when that gives the same answer.

`fits` is checked on its own (no model); the equivalence with grammar generation on the real
weights (a few short generations, in-process).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from pytest_llmfaith.judge import schema_json
from pytest_llmfaith.local import LocalModel
from pytest_llmfaith.local.engine import LlamaEngine, fits
from pytest_llmfaith.scorers import prompts
from pytest_llmfaith.scorers.base import ClaimsAnswer, verdict_schemas

CLAIMS = schema_json(ClaimsAnswer)
VERDICTS = schema_json(verdict_schemas("T", ("yes", "no", "unsure"))[1])


@pytest.mark.parametrize("value, schema, expected", [
    ({"claims": ["a", "b"]}, CLAIMS, True),
    ({"claims": []}, CLAIMS, True),
    ({"claims": "a"}, CLAIMS, False),
    ({}, CLAIMS, False),
    ({"claims": [], "extra": 1}, CLAIMS, False),  # the grammar writes no other key
    (["a"], CLAIMS, False),
    ({"claims": [1]}, CLAIMS, False),
    ({"verdicts": [{"statement": "s", "verdict": "yes", "reason": "r"}]}, VERDICTS, True),
    ({"verdicts": [{"verdict": "no"}]}, VERDICTS, True),  # optional fields may be left out
    ({"verdicts": [{"verdict": "Yes"}]}, VERDICTS, False),  # enum is exact
    ({"verdicts": [{"reason": "r", "verdict": "no"}]}, VERDICTS, False),  # the grammar's key order
    ({"verdicts": [{"verdict": True}]}, VERDICTS, False),
    ({"n": 1}, {"type": "object", "properties": {"n": {"type": "integer"}}}, True),
    ({"n": True}, {"type": "object", "properties": {"n": {"type": "integer"}}}, False),
    ({"n": 1}, {"type": "object", "properties": {"n": {"$ref": "#/definitions/x"}}}, False),  # unknown: grammar
])
def test_fits_is_the_grammar_schema_subset(value: Any, schema: dict, expected: bool) -> None:
    assert fits(value, schema, schema) is expected


@pytest.fixture(scope="module")
def engine(real_model: LocalModel) -> LlamaEngine:
    return LlamaEngine(real_model.path, 4096, 2)


def claims_request(output: str) -> dict[str, Any]:
    return {"messages": prompts.claims_messages(output), "temperature": 0.0, "max_tokens": 200,
            "response_format": {"type": "json_object", "schema": CLAIMS}}


@pytest.mark.parametrize("output", [
    "Acme was founded in 1999 in Oslo. It employs 40 people.",
    "Deleted files remain in the trash for 30 days, after which they are permanently removed.",
])
def test_free_json_is_the_answer_the_grammar_gives(engine: LlamaEngine, output: str) -> None:
    request = claims_request(output)
    free = engine(request)
    assert free["id"].startswith("json-"), "the answer should have come without the grammar"
    under_grammar = engine.writer().create_chat_completion(**request)
    assert free["choices"][0]["message"]["content"] == under_grammar["choices"][0]["message"]["content"].strip()
    assert free["usage"]["prompt_tokens"] == under_grammar["usage"]["prompt_tokens"]


def test_an_answer_that_is_not_json_is_generated_again_under_the_grammar(engine: LlamaEngine) -> None:
    request = claims_request("Acme was founded in 1999.")
    request["messages"] = [{"role": "user", "content": "Say hello in three words, as plain text."}]
    answer = engine(request)
    assert not answer["id"].startswith("json-")
    assert fits(json.loads(answer["choices"][0]["message"]["content"]), CLAIMS, CLAIMS)
