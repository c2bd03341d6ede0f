"""Tool results as passages a person can read: the call named with its arguments, JSON pretty,
a long result split at its joints (never inside a value), a failed call as evidence of failure."""

from __future__ import annotations

import json

import pytest
import runs
from runs import CALL

from pytest_llmfaith import tool_results
from pytest_llmfaith.agent_runs import MAX_PASSAGE_CHARS, ToolResult, format_arguments, result_passages


def chat_run(result: str, arguments: str = '{"name": "Zorblat Corp"}') -> list[dict]:
    run = runs.openai_chat(result=result)
    run[2]["tool_calls"][0]["function"]["arguments"] = arguments
    return run


@pytest.mark.parametrize(("arguments", "shown"), [
    ({"name": "Zorblat Corp", "year": 2024, "tags": ["a"]}, 'name="Zorblat Corp", year=2024, tags=["a"]'),
    ({}, ""),
    (None, ""),
    ("not json {", "not json {"),
    ({"city": "Zürich"}, 'city="Zürich"'),
])
def test_arguments_read_like_a_call(arguments: object, shown: str) -> None:
    assert format_arguments(arguments) == shown


def test_text_results_stay_text_and_json_text_is_canonical() -> None:
    assert tool_results(chat_run("Zorblat Corp employs 40 people.")) == [
        f"{CALL} returned: Zorblat Corp employs 40 people."]
    assert tool_results(chat_run('[1, 2]')) == [f"{CALL} returned:\n[\n  1,\n  2\n]"]
    nested = {"company": "Zorblat Corp", "offices": [{"city": "Mars Base One", "staff": 30}], "founded": 1999}
    assert tool_results(chat_run(json.dumps(nested))) == [f"""{CALL} returned:
{{
  "company": "Zorblat Corp",
  "founded": 1999,
  "offices": [
    {{
      "city": "Mars Base One",
      "staff": 30
    }}
  ]
}}"""]
    assert tool_results(chat_run("{not json}")) == [f"{CALL} returned: {{not json}}"]


def test_unparsable_arguments_and_unknown_calls_are_still_named() -> None:
    assert tool_results(chat_run("ok", arguments="Zorblat")) == ["company_facts(Zorblat) returned: ok"]
    orphan = [{"role": "user", "content": "q"}, {"role": "tool", "tool_call_id": "call_9", "content": "ok"},
              {"role": "assistant", "content": "a"}]
    assert tool_results(orphan) == ["a tool call (call_9) returned: ok"]


def test_an_empty_result_is_evidence_of_nothing() -> None:
    assert tool_results(chat_run("")) == [f"{CALL} returned nothing (an empty result)."]


def test_a_long_list_is_split_between_items_and_every_part_is_json() -> None:
    tickets = [{"id": i, "title": f"Ticket {i}", "body": f"Customer {i} cannot restore backup {i}. " * 6}
               for i in range(30)]
    passages = tool_results(chat_run(json.dumps(tickets)))
    assert len(passages) > 3
    assert all(len(p) <= MAX_PASSAGE_CHARS + 100 for p in passages)
    items = []
    for n, passage in enumerate(passages, 1):
        head, body = passage.split("\n", 1)
        assert head == f"{CALL} returned (part {n} of {len(passages)}):"
        part = json.loads(body)  # cut between items, so every part parses
        items += part if isinstance(part, list) else [part]
    assert items == tickets


def test_a_long_object_is_split_between_keys_and_a_long_text_between_sentences() -> None:
    data = {"summary": "All systems normal. " * 100, "regions": {f"r{i}": {"status": "up", "latency_ms": i}
                                                                for i in range(80)}}
    passages = result_passages(ToolResult(name="status", value=data), max_chars=600)
    bodies = [json.loads(p.split("\n", 1)[1]) for p in passages]
    text = " ".join(b["summary"] for b in bodies if "summary" in b)
    assert text.split() == data["summary"].split()  # cut at sentence ends, no word lost or cut
    regions = {k: v for b in bodies if "regions" in b for k, v in b["regions"].items()}
    assert regions == data["regions"]
    assert all(len(p) <= 700 for p in passages)


def test_a_long_plain_text_is_split_at_paragraphs() -> None:
    text = "\n\n".join(f"Paragraph {i}. " + "Backups run nightly. " * 12 for i in range(12))
    passages = result_passages(ToolResult(name="docs", arguments={"q": "backups"}, value=text))
    assert len(passages) > 1
    assert all(p.split(":\n", 1)[1].startswith("Paragraph") for p in passages)


@pytest.mark.parametrize("text", [
    "Traceback (most recent call last):\n  File \"x.py\", line 1\nKeyError: 'refund'",
    "ValueError: order A1 was not found",
    "requests.exceptions.ConnectionError: timed out",
    "Error: ToolException('refund service down')\n Please fix your mistakes.",
    "An error occurred while running the tool. Please try again. Error: down",
])
def test_an_exception_text_is_a_failure(text: str) -> None:
    assert tool_results(chat_run(text))[0].startswith(f"{CALL} failed:")


@pytest.mark.parametrize("text", ["An error occurred while running the tool. Please try again.",
                                  "An error occurred while running the tool."])  # the Agents SDK's before and from 0.25
def test_the_agents_sdk_default_error_text_is_named_in_any_version(text: str) -> None:
    assert "the exception's message is not in the run" in tool_results(chat_run(text))[0]


@pytest.mark.parametrize("text", ["Errors are logged daily.", "No errors: all green.", "Error budget: 0.1%"])
def test_text_about_errors_is_not_a_failure(text: str) -> None:
    assert tool_results(chat_run(text))[0].startswith(f"{CALL} returned:")


def test_failed_calls_in_each_format() -> None:
    failed = f"{CALL} failed:"
    assert tool_results(runs.anthropic(result="The database is down.", is_error=True)) == [
        f"{failed} The database is down."]
    assert tool_results(runs.anthropic(result=[{"type": "text", "text": "down"}], is_error=True)) == [f"{failed} down"]
    assert tool_results(runs.langchain(status="error", result="The database is down.")) == [
        f"{failed} The database is down."]
    assert tool_results(runs.pydantic_ai_result(fail=True)) == [f"{failed} the company database is down"]
    assert tool_results(runs.openai_agents_result(fail=True))[0].startswith(failed)


def test_non_text_result_blocks_are_marked_not_dropped() -> None:
    image = {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "AA"}}
    run = runs.anthropic(result=[{"type": "text", "text": "Chart of staff."}, image])
    assert tool_results(run) == [f"{CALL} returned:\nChart of staff.\n[image not read]"]
