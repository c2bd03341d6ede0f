"""The shapes Google GenAI, LangGraph and the OpenAI Agents SDK hand out, made with their own
classes (no network: scripted models, a real graph): each read to the same answer, question and
passages; what cannot be read, or holds no tool result, is an error naming its type and the fix."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest
import runs
from runs import ANSWER, CALL, FACTS, PASSAGE, QUESTION

from pytest_llmfaith import AgentRunError, describe_run, final_answer, tool_results
from pytest_llmfaith.agent_runs import judged

SHAPES = {
    "genai list[Content]": (runs.genai_contents, "google-genai", QUESTION),
    "genai contents as dicts": (lambda: [c.model_dump() for c in runs.genai_contents()], "google-genai", QUESTION),
    "genai REST JSON (camelCase)": (runs.genai_rest, "google-genai", QUESTION),
    "genai GenerateContentResponse (automatic function calling)": (runs.genai_response, "google-genai", QUESTION),
    "genai GenerateContentResponse as a dict": (lambda: runs.genai_response().model_dump(), "google-genai",
                                                QUESTION),
    "genai contents passed, then the response": (
        lambda: [runs.genai_contents()[0], runs.genai_response()], "google-genai", QUESTION),
    "langgraph StateSnapshot": (runs.langgraph_run, "langgraph", QUESTION),
    "langgraph state dict": (lambda: runs.langgraph_run().values, "langgraph", QUESTION),
    "langgraph values chunks": (lambda: runs.langgraph_run(stream_mode="values"), "langgraph", QUESTION),
    "langgraph last values chunk": (lambda: runs.langgraph_run(stream_mode="values")[-1], "langgraph", QUESTION),
    "langgraph updates chunks": (lambda: runs.langgraph_run(stream_mode="updates"), "langgraph", None),
    "langgraph (mode, chunk) pairs": (lambda: runs.langgraph_run(stream_mode=["updates", "values"]), "langgraph",
                                      QUESTION),
    "langgraph tuple and dict messages": (lambda: {"messages": [("user", QUESTION), *runs.langchain()[2:4],
                                                                {"role": "assistant", "content": ANSWER}]},
                                          "langgraph", QUESTION),
    "agents RunResult, a tool returning a dict": (lambda: runs.openai_agents_result(structured=True),
                                                  "openai-agents", QUESTION),
    "agents new_items": (lambda: runs.openai_agents_result(structured=True).new_items, "openai-agents", None),
    "agents to_input_list() (the dict as a Python repr)": (
        lambda: runs.openai_agents_result(structured=True).to_input_list(), "openai-responses", QUESTION),
}


@pytest.mark.parametrize("name", SHAPES)
def test_every_shape_gives_the_answer_and_the_tool_result(name: str) -> None:
    make, fmt, question = SHAPES[name]
    run = make()
    scored = judged(run)
    assert (scored.output, scored.input, scored.context) == (ANSWER, question, [PASSAGE])
    assert (scored.format, scored.tool_calls) == (fmt, [CALL])
    assert (final_answer(run), tool_results(run)) == (ANSWER, [PASSAGE])


@dataclasses.dataclass
class Facts:
    office: str
    employees: int


def test_one_tool_result_is_one_passage_whatever_the_sdk() -> None:
    """The same result, returned as JSON text, a dict, a Python repr, a pydantic model or a
    dataclass, by any SDK: one text, so one judge request and one cache key."""
    from pydantic import BaseModel

    class Model(BaseModel):
        office: str
        employees: int

    reordered = {"office": "Mars", "employees": 40}  # key order does not matter either
    runs_of_one_result = [
        runs.openai_chat(), runs.openai_chat(result=repr(reordered)), runs.anthropic(), runs.langchain(),
        runs.genai_contents(), runs.genai_contents(response={"output": Model(office="Mars", employees=40)}),
        runs.genai_contents(response={"result": Facts(office="Mars", employees=40)}), runs.genai_rest(),
        runs.langgraph_run(), runs.openai_agents_result(structured=True),
        runs.openai_agents_result(structured=True).to_input_list(), runs.pydantic_ai_result(),
    ]
    assert {tuple(tool_results(run)) for run in runs_of_one_result} == {(PASSAGE,)}
    requests = {json.dumps(judged(run).model_dump(exclude={"format"})) for run in runs_of_one_result}
    assert len(requests) == 1


@pytest.mark.parametrize("text", [
    "{1, 2}",  # a set: not data the judge reads as JSON
    "{'cmd': __import__('os').getcwd()}",  # literal_eval runs no code: stays text
    "{'at': datetime.date(2024, 1, 1)}",
    "[unclosed",
])
def test_text_that_is_not_a_literal_stays_text(text: str) -> None:
    assert tool_results(runs.openai_chat(result=text)) == [f"{CALL} returned: {text}"]


def test_a_tool_error_keeps_its_message_where_the_sdk_has_it() -> None:
    failed = f"{CALL} failed:"
    assert tool_results(runs.genai_contents(response={"error": "booking not found"})) == [
        f"{failed} booking not found"]
    assert tool_results(runs.langgraph_run(fail=True)) == [
        f"{failed}\nError: ValueError('the company database is down')\n Please fix your mistakes."]
    kept = runs.openai_agents_result(fail=True, error_text=lambda ctx, error: f"Error: {error}")
    assert tool_results(kept) == [f"{failed} Error: the company database is down"]


def test_the_agents_sdk_default_error_text_says_it_hid_the_exception() -> None:
    (passage,) = tool_results(runs.openai_agents_result(fail=True))
    assert passage.startswith(f"{CALL} failed: An error occurred while running the tool.")  # 0.25 dropped "Please
    # try again."
    assert "the exception's message is not in the run" in passage and "failure_error_function=" in passage


def test_describe_run_shows_what_the_judge_gets() -> None:
    text = describe_run(runs.genai_response())
    assert text.startswith("The run as read (google-genai, 4 steps):")
    for expected in (f"question: {QUESTION}", f"1. {CALL}", f"final answer: {ANSWER}",
                     "the judge gets 1 passage (the context):", '"employees": 40,'):
        assert expected in text
    secret = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
    run = runs.openai_chat(result=json.dumps({**FACTS, "token": secret}))
    assert secret not in describe_run(run) and "[secret 1]" in describe_run(run)


# -- what cannot be read, or holds no tool result ---------------------------------------------

def test_an_updates_chunk_alone_is_refused_with_the_fix() -> None:
    last = runs.langgraph_run(stream_mode="updates")[-1]
    assert final_answer(last) == ANSWER  # the answer is there
    for read in (tool_results, judged):
        with pytest.raises(AgentRunError, match=r'stream_mode="updates" chunk holds only .* Fix: pass '
                                                r"graph.get_state\(config\)"):
            read(last)


def test_tool_calls_without_results_are_refused_not_an_empty_list() -> None:
    model_turns_only = [c for c in runs.genai_contents() if c.role == "model"]
    with pytest.raises(AgentRunError, match=r"(?s)has 1 tool call \(company_facts\(name=\"Zorblat Corp\"\)\) "
                                            r"and none of their results.*The run as read \(google-genai"):
        tool_results(model_turns_only)
    no_history = runs.genai_response(history=False)  # the calls were made, but not kept: nothing says so
    assert tool_results(no_history) == []
    with pytest.raises(AgentRunError, match="no tool results before the judged answer"):
        judged(no_history)


def test_a_response_without_candidates_says_why() -> None:
    from google.genai import types

    blocked = types.GenerateContentResponse(
        candidates=[], prompt_feedback=types.GenerateContentResponsePromptFeedback(block_reason="SAFETY"))
    with pytest.raises(AgentRunError, match=r"no candidates \(block reason: SAFETY\)"):
        judged(blocked)


def test_an_ended_run_without_an_answer_is_described() -> None:
    with pytest.raises(AgentRunError, match=r"ended on a tool call(.|\n)*The run as read \(google-genai, 2 steps\)"):
        judged(runs.genai_contents()[:2])


class Transcript:
    """A framework object this plugin does not know, holding its messages."""

    def __init__(self) -> None:
        self.messages = runs.openai_chat()


@pytest.mark.parametrize(("make", "named", "fix"), [
    (lambda: __import__("google.genai", fromlist=["Client"]).Client(api_key="test").chats.create(model="gemini"),
     "an object of type google.genai.chats.Chat", "assert_faithful(run.get_history(), ...)"),
    (lambda: runs.langgraph_app(), "an object of type langgraph.graph.state.CompiledStateGraph",
     "assert_faithful(run.get_state(config), ...)"),
    (Transcript, "an object of type test_frameworks.Transcript", "assert_faithful(run.messages, ...)"),
    (lambda: [runs.genai_contents()[0], runs.openai_agents_result().context_wrapper.usage],
     "item 1 of the run: an object of type agents.usage.Usage (read as a dict with keys",
     "assert_faithful(text, context=[...])"),
])
def test_an_unreadable_object_names_its_type_module_and_the_fix(make: Any, named: str, fix: str) -> None:
    with pytest.raises(TypeError) as error:
        judged(make())
    assert named in str(error.value) and f"{fix}" in str(error.value)
