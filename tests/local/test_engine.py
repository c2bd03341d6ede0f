"""The engine's JSON answers: generated without the grammar when that gives the same answer.

`fits` is checked on its own (no model); the equivalence with grammar generation on the real
weights (a few short generations, in a child process).
"""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any, cast

import pytest

from pytest_llmfaith.judge.question import schema_json
from pytest_llmfaith.local import engine
from pytest_llmfaith.local.engine import PromptReader, aligned_reuse, closed_json, fits, loop_start
from pytest_llmfaith.local.weights import LocalModel
from pytest_llmfaith.scorers.base import verdict_schemas
from pytest_llmfaith.scorers.claims import ClaimsAnswer, claims_messages

CLAIMS = schema_json(ClaimsAnswer)
VERDICTS = schema_json(verdict_schemas("T", ("yes", "no", "unsure"))[1])


@pytest.mark.parametrize("value, schema, expected", [
    ({"claims": ["a", "b"]}, CLAIMS, True),
    # an earlier shape is read by the scorer, never written by the grammar
    ({"claims": [{"claim": "a", "words": "a"}]}, CLAIMS, False),
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


_EXTRA = '"every extra 100 GB adds $2", '
LOOPED = '{"claims": ["costs $8 per month", ' + _EXTRA * 3 + '"every'



@pytest.mark.parametrize("text, looping", [
    (LOOPED, True),
    ('{"claims": ["It costs $2 per month per month per month per month', True),  # a loop inside one claim
    ('{"claims": ["Acme costs $8 per month.", "Acme costs $8 per year."', False),
    ('{"claims": ["a", "a", "a", "a"', False),  # spans shorter than 8 characters are not looked at
    ('{"verdicts": [{"verdict": "yes"}, {"verdict": "no"}, {"verdict": "yes"}', False),
])
def test_a_greedy_loop_is_seen_where_it_starts(text: str, looping: bool) -> None:
    start = loop_start(text)
    assert (start is not None) is looping
    if start is not None:
        span = (len(text) - start) // 2  # the first copy is kept, the second and third are the loop
        assert text[start - span:start] == text[start:start + span] == text[start + span:]


@pytest.mark.parametrize("text, expected", [
    (LOOPED[:loop_start(LOOPED)], '{"claims": ["costs $8 per month", "every extra 100 GB adds $2"]}'),
    # the looping claim goes: its sentence is then asked about and judged itself
    ('{"claims": ["It costs $2 per month per', '{"claims": []}'),
    ('{"claims": ["a, b", "c \\" ,d', '{"claims": ["a, b"]}'),  # commas and escaped quotes in strings
    ('{"verdicts": [{"verdict": "yes"}, {"verdict": "no"}, {"verd',
     '{"verdicts": [{"verdict": "yes"}, {"verdict": "no"}]}'),
    ('{"claims": "never an array', None),
])
def test_a_looping_answer_is_closed_after_its_last_whole_item(text: str, expected: str | None) -> None:
    schema = VERDICTS if "verdicts" in text else CLAIMS
    assert closed_json(text, schema) == expected


# In a child process: the test process itself must never import llama_cpp (test_real_model checks).
PROBE = """
import json, sys
from pathlib import Path
from pytest_llmfaith.local.engine import LlamaEngine
engine = LlamaEngine(Path(sys.argv[1]), 4096, 2)
requests = json.loads(sys.stdin.read())
out = []
for request in requests:
    answer = engine(request)
    grammar = engine.writer().create_chat_completion(**request)
    out.append({"id": answer["id"], "content": answer["choices"][0]["message"]["content"],
                "usage": answer["usage"], "grammar": grammar["choices"][0]["message"]["content"],
                "grammar_prompt_tokens": grammar["usage"]["prompt_tokens"]})
for request, first in zip(reversed(requests), reversed(out)):  # again, after other requests
    first["again"] = engine(request)["choices"][0]["message"]["content"]
print(json.dumps(out))
"""


def claims_request(output: str) -> dict[str, Any]:
    return {"messages": claims_messages(output), "temperature": 0.0, "max_tokens": 200,
            "response_format": {"type": "json_object", "schema": CLAIMS}}


@pytest.fixture(scope="module")
def answers(real_model: LocalModel) -> list[dict[str, Any]]:
    """Two claims requests, then one whose answer is prose: the engine's answer and the grammar's."""
    prose = claims_request("Acme was founded in 1999.")
    prose["messages"] = [{"role": "user", "content": "Say hello in three words, as plain text."}]
    requests = [claims_request(o) for o in OUTPUTS] + [prose]
    done = subprocess.run([sys.executable, "-c", PROBE, str(real_model.path)], input=json.dumps(requests),
                          capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout)


OUTPUTS = ["Acme was founded in 1999 in Oslo. It employs 40 people.",
           "Deleted files remain in the trash for 30 days, after which they are permanently removed."]


@pytest.mark.parametrize("index", range(len(OUTPUTS)))
def test_free_json_is_the_answer_the_grammar_gives(answers: list[dict[str, Any]], index: int) -> None:
    free = answers[index]
    assert free["id"].startswith("json-"), "the answer should have come without the grammar"
    assert free["content"] == free["grammar"].strip()
    assert free["usage"]["prompt_tokens"] == free["grammar_prompt_tokens"]


@pytest.mark.parametrize("index", range(len(OUTPUTS) + 1))
def test_an_answer_is_the_same_when_asked_again_after_other_requests(answers: list[dict[str, Any]],
                                                                     index: int) -> None:
    assert answers[index]["again"] == answers[index]["content"]


def test_an_answer_that_is_not_json_is_generated_again_under_the_grammar(answers: list[dict[str, Any]]) -> None:
    prose = answers[-1]
    assert not prose["id"].startswith("json-")
    assert fits(json.loads(prose["content"]), CLAIMS, CLAIMS)


# The wording that sent the claims step into a loop (one claim over and over, to the token
# limit: 4 minutes, then an error); now it is cut after the last whole claim.
LOOPING = ("Acme Cloud Backup costs $8 per month for 500 GB of storage, and every extra 100 GB adds "
           "$2 per month.")
ENGINE_ONLY = """
import json, sys
from pathlib import Path
from pytest_llmfaith.local.engine import LlamaEngine
answer = LlamaEngine(Path(sys.argv[1]), 4096, 2)(json.loads(sys.stdin.read()))
print(json.dumps({"id": answer["id"], "content": answer["choices"][0]["message"]["content"],
                  "completion_tokens": answer["usage"]["completion_tokens"]}))
"""


def test_a_greedy_loop_is_cut_after_the_last_whole_claim(real_model: LocalModel) -> None:
    request = {**claims_request(LOOPING), "max_tokens": 400}
    done = subprocess.run([sys.executable, "-c", ENGINE_ONLY, str(real_model.path)], input=json.dumps(request),
                          capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    answer = json.loads(done.stdout)
    # with claims that carry their words the model no longer loops here; if it does, the loop is cut
    assert answer["id"].startswith(("json-loop-cut-", "json-"))
    assert answer["completion_tokens"] < 200, "stopped at the loop or the answer's end, not at the token limit"
    claims = json.loads(answer["content"])["claims"]
    assert claims and any(c in LOOPING for c in claims)


@pytest.mark.parametrize("cached, tokens, expected", [
    (list(range(40)), list(range(40)) + [99], 32),  # a longer prompt: the prefix down to the grid
    (list(range(40)), list(range(40)), 32),  # the same prompt: its last token is read again, on the grid
    (list(range(40)), list(range(20)) + [99] * 20, 16),  # a shorter shared prefix
    (list(range(40)), list(range(15)) + [99] * 20, 0),  # under one grid step: read afresh
    (list(range(32)), list(range(32)), 16),  # a prompt exactly on the grid keeps its last token to read
])
def test_a_cached_prefix_is_reused_only_down_to_the_grid(cached: list[int], tokens: list[int], expected: int) -> None:
    assert aligned_reuse(cached, tokens, 16) == expected


def test_the_label_context_keeps_the_latest_prefixes_within_their_count_and_bytes(monkeypatch) -> None:
    reader = PromptReader(cast(Any, None), keep=3)
    for n in range(5):
        reader._keep(reader._kept, ([n], bytes(10), False))
    assert [tokens for tokens, _, _ in reader._kept] == [[2], [3], [4]]  # the oldest went
    monkeypatch.setattr(engine, "KEPT_BYTES", 25)
    reader._keep(reader._kept, ([5], bytes(10), False))
    assert [tokens for tokens, _, _ in reader._kept] == [[4], [5]]  # within the bytes too
    reader._keep(reader._kept, ([6], bytes(30), False))
    assert [tokens for tokens, _, _ in reader._kept] == [[6]]  # the last one is always kept


def test_a_prefix_put_back_outlives_the_one_off_prompts_read_between() -> None:
    """The worked examples of a question asked every few tests are put back each time: the
    contexts read once in between go first."""
    reader = PromptReader(cast(Any, None), keep=3)
    reader._keep([], (["examples"], bytes(10), True))
    for n in range(5):
        reader._keep(reader._kept, ([n], bytes(10), False))
    assert [tokens for tokens, _, _ in reader._kept] == [["examples"], [3], [4]]
    reader._keep(reader._kept, (["shared"], bytes(10), True))
    reader._keep(reader._kept, ([5], bytes(10), False))
    assert [tokens for tokens, _, _ in reader._kept] == [["examples"], ["shared"], [5]]
    reader._keep(reader._kept, (["third"], bytes(10), True))
    assert [tokens for tokens, _, _ in reader._kept] == [["examples"], ["shared"], ["third"]]
    reader._keep(reader._kept, (["fourth"], bytes(10), True))  # all put back before: the oldest goes
    assert [tokens for tokens, _, _ in reader._kept] == [["shared"], ["third"], ["fourth"]]
