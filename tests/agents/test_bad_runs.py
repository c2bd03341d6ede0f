"""A run that cannot be judged is an error that names the problem and the fix, never a pass."""

from __future__ import annotations

import pytest
import runs
from runs import ANSWER, PASSAGE

from pytest_llmfaith import AgentRunError, final_answer, tool_results
from pytest_llmfaith.agent_runs import judged


def test_a_run_that_ended_on_a_tool_call_has_no_answer() -> None:
    run = runs.openai_chat()[:-1] + [{"role": "assistant", "content": None, "tool_calls": [
        {"id": "call_2", "type": "function", "function": {"name": "refund", "arguments": '{"order": "A1"}'}}]}]
    with pytest.raises(AgentRunError, match=r'ended on a tool call, refund\(order="A1"\).*Fix: run the agent'):
        judged(run)
    with pytest.raises(AgentRunError, match="ended on a tool call"):
        final_answer(runs.openai_chat()[:3])
    assert tool_results(run) == [PASSAGE]  # the results alone are still readable


def test_a_preamble_before_a_tool_call_is_not_the_answer() -> None:
    with pytest.raises(AgentRunError, match="ended on a tool call"):
        judged(runs.anthropic()[:2])  # "Let me look that up." + tool_use, and nothing after


def test_no_tool_results_and_no_context() -> None:
    run = [{"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Zorblat has 40 staff."}]
    with pytest.raises(AgentRunError, match=r"no tool results .* Fix: pass context=\[...\]"):
        judged(run)
    assert judged(run, context=["Zorblat has 40 staff."]).context == ["Zorblat has 40 staff."]


@pytest.mark.parametrize(("run", "named"), [
    (object(), "from an object of type object"),
    ({"answer": "40"}, "keys answer"),
    ([{"answer": "40"}], "item 0 of the run: a dict with keys answer"),
    ([42], "item 0 of the run: an object of type int"),
    ([{"type": "weird_call", "id": "x"}], "(type 'weird_call')"),
])
def test_an_unknown_format_names_its_type_and_what_to_pass(run: object, named: str) -> None:
    with pytest.raises(TypeError) as error:
        judged(run)
    message = str(error.value)
    assert named in message
    assert "Pass the run's messages" in message and "as a string with context=[...]" in message


@pytest.mark.parametrize("content", [
    [{"type": "image_url", "image_url": {"url": "data:image/png;base64,AA"}}],
    {"unexpected": "dict"},
    "",
])
def test_an_assistant_message_without_text(content: object) -> None:
    run = runs.openai_chat()[:-1] + [{"role": "assistant", "content": content}]
    with pytest.raises(AgentRunError, match="last assistant message has no text"):
        judged(run)


def test_an_empty_run() -> None:
    with pytest.raises(AgentRunError, match="the run is empty"):
        judged([])
    with pytest.raises(AgentRunError, match="no assistant message"):
        judged([{"role": "user", "content": "Hi"}])


def test_turn_out_of_range_lists_the_turns() -> None:
    with pytest.raises(AgentRunError, match=r"turn=2 is out of range: the run has 1 assistant text turn \(0: 'Zorb"):
        judged(runs.openai_chat(), turn=2)
    with pytest.raises(TypeError, match="turn must be an int"):
        judged(runs.openai_chat(), turn="last")  # type: ignore[arg-type]


def test_strings_behave_as_before() -> None:
    scored = judged(ANSWER, ["ctx"], "q")
    assert (scored.output, scored.context, scored.input, scored.format) == (ANSWER, ["ctx"], "q", None)
    with pytest.raises(TypeError, match="context is required when the output is a string"):
        judged(ANSWER)
    with pytest.raises(TypeError, match="turn= picks a turn of an agent's run"):
        judged(ANSWER, ["ctx"], turn=0)
    with pytest.raises(TypeError, match="takes an argument \\(the run\\), but the output is a string"):
        judged(ANSWER, lambda run: ["ctx"])
    retrieve = lambda: ["ctx"]  # noqa: E731
    assert judged(ANSWER, retrieve).context is retrieve  # resolved by the scorer, as before


def test_a_threshold_given_as_the_context() -> None:
    with pytest.raises(TypeError, match=r"min_score=0\.8"):
        judged(runs.openai_chat(), 0.8)


def test_a_callable_context_is_given_the_run() -> None:
    run = runs.openai_chat()
    scored = judged(run, context=lambda r: tool_results(r) + ["Zorblat Corp's office is on Mars."])
    assert scored.context == [PASSAGE, "Zorblat Corp's office is on Mars."]
    retrieve = lambda: ["docs"]  # noqa: E731
    assert judged(run, context=retrieve).context is retrieve  # no argument: the scorer calls it, as before


@pytest.mark.parametrize("deep", ["[" * 100_000 + "]" * 100_000, '{"a": ' * 100_000 + "1" + "}" * 100_000])
def test_a_tool_result_or_arguments_nested_deeper_than_python_reads_are_their_text(deep: str) -> None:
    """JSON nested past Python's recursion limit is no crash: the judge reads it as written."""
    run = [{"role": "user", "content": "Hi"},
           {"role": "assistant", "content": None, "tool_calls": [
               {"id": "c1", "type": "function", "function": {"name": "lookup", "arguments": deep}}]},
           {"role": "tool", "tool_call_id": "c1", "content": deep},
           {"role": "assistant", "content": "Nothing found."}]
    found = judged(run)
    assert found.output == "Nothing found."
    assert found.context and all(passage.startswith("lookup(") for passage in found.context)
