"""Every format gives the same answer, input and passages, whether the run is made of dicts or of
the SDK's own objects: one question to the judge, one cache key."""

from __future__ import annotations

import json
import sys
from typing import Any

import pytest
import runs
from runs import ANSWER, CALL, PASSAGE, QUESTION

from pytest_llmfaith import final_answer, tool_results
from pytest_llmfaith.agent_runs import judged, read_run

FORMATS = {
    "openai chat, dicts": (lambda: runs.openai_chat(), "openai-chat"),
    "openai chat, SDK messages and a ChatCompletion": (lambda: runs.openai_chat(sdk=True), "openai-chat"),
    "openai responses, dicts": (lambda: runs.openai_responses(), "openai-responses"),
    "openai responses, SDK items and a Response": (lambda: runs.openai_responses(sdk=True), "openai-responses"),
    "anthropic, dicts": (lambda: runs.anthropic(), "anthropic"),
    "anthropic, SDK Message and content blocks": (lambda: runs.anthropic(sdk=True), "anthropic"),
    "langchain messages": (lambda: runs.langchain(), "langchain"),
    "langchain messages as dicts": (lambda: runs.langchain_dicts(), "langchain"),
    "langgraph state": (lambda: {"messages": runs.langchain()}, "langgraph"),
    "pydantic-ai run result": (lambda: runs.pydantic_ai_result(), "pydantic-ai"),
    "pydantic-ai all_messages()": (lambda: runs.pydantic_ai_result().all_messages(), "pydantic-ai"),
    "openai agents RunResult": (lambda: runs.openai_agents_result(), "openai-agents"),
}


@pytest.mark.parametrize("name", FORMATS)
def test_every_format_gives_the_answer_the_question_and_the_tool_result(name: str) -> None:
    make, fmt = FORMATS[name]
    run = make()
    scored = judged(run)
    assert (scored.output, scored.input, scored.context) == (ANSWER, QUESTION, [PASSAGE])
    assert (scored.format, scored.tool_calls) == (fmt, [CALL])
    assert final_answer(run) == ANSWER
    assert tool_results(run) == [PASSAGE]


@pytest.mark.parametrize(("dicts", "objects"), [
    (runs.openai_chat, lambda: runs.openai_chat(sdk=True)),
    (runs.openai_responses, lambda: runs.openai_responses(sdk=True)),
    (runs.anthropic, lambda: runs.anthropic(sdk=True)),
    (runs.langchain_dicts, runs.langchain),
])
def test_dicts_and_sdk_objects_are_the_same_request(dicts: Any, objects: Any) -> None:
    assert judged(dicts()) == judged(objects())


def test_a_long_conversation_judges_the_last_answer_with_every_result_before_it() -> None:
    second = [{"role": "user", "content": "And its founder?"},
              {"role": "assistant", "content": None, "tool_calls": [{"id": "call_2", "type": "function", "function": {
                  "name": "founder", "arguments": '{"company": "Zorblat Corp"}'}}]},
              {"role": "tool", "tool_call_id": "call_2", "content": "Ada Zorblat founded it in 1999."},
              {"role": "assistant", "content": "Ada Zorblat founded it in 1999."}]
    run = runs.openai_chat() + second
    scored = judged(run)
    assert scored.output == "Ada Zorblat founded it in 1999."
    assert scored.input == "And its founder?"
    assert scored.context == [PASSAGE, 'founder(company="Zorblat Corp") returned: Ada Zorblat founded it in 1999.']
    first = judged(run, turn=0)  # turn: an index among the assistant's text turns
    assert (first.output, first.input, first.context) == (ANSWER, QUESTION, [PASSAGE])
    assert judged(run, turn=-1) == scored


def test_anthropic_preamble_text_is_a_turn_but_not_the_answer() -> None:
    run = runs.anthropic()
    assert [run_step.text for run_step in (read_run(run).steps[i] for i in read_run(run).answers())] == [
        "Let me look that up.", ANSWER]
    with pytest.raises(ValueError, match="no tool results before the judged answer"):
        judged(run, turn=0)  # nothing before the preamble to judge it against
    assert judged(run, turn=0, context=["Zorblat Corp is a company."]).output == "Let me look that up."


def test_anthropic_result_blocks_and_text_blocks_are_joined() -> None:
    run = runs.anthropic(result=[{"type": "text", "text": "Zorblat Corp employs 40 people."},
                                 {"type": "text", "text": "Its office is on Mars."}])
    assert tool_results(run) == [f"{CALL} returned:\nZorblat Corp employs 40 people.\nIts office is on Mars."]


def test_plugin_imports_no_framework() -> None:
    """Reading is by shape: none of the frameworks is imported to read a plain run."""
    import subprocess

    code = ("import sys, json; from pytest_llmfaith.agent_runs import judged; "
            f"judged({runs.openai_chat()!r}); "
            "print(json.dumps(sorted({m.split('.')[0] for m in sys.modules})))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert not {"openai", "anthropic", "langchain_core", "pydantic_ai", "agents", "litellm"} & set(json.loads(out))
