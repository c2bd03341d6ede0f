"""The assertions given an agent's run, end to end: inner pytest runs against the loopback judge
over HTTP (the scripted judge's defaults: an output's claims are its sentences, a claim is
supported when the script says so)."""

from __future__ import annotations

import json

import pytest
from plugin_helpers import run
from runs import ANSWER, CALL, PASSAGE

pytestmark = pytest.mark.usefixtures("litellm_warmed_up", "clean_env")
SUPPORTED = {"supported": ["Zorblat Corp employs 40 people.", "Its office is on Mars.", "It was founded in 1999."]}
HEADER = """
import pytest
import runs
from pytest_llmfaith import (assert_faithful, assert_faithful_async, assert_not_hallucinated, final_answer,
                             tool_results)
WRONG = "Zorblat Corp employs 40 people. It was founded on Venus."
FOUNDED = "Zorblat Corp employs 40 people. It was founded in 1999."
"""


def test_a_run_is_an_output_everywhere_an_output_is(pytester, server) -> None:
    server.facts(**SUPPORTED)
    pytester.makepyfile(test_a=HEADER + """
def test_chat():
    result = assert_faithful(runs.openai_chat(), min_score=0.9)
    assert (result.output, result.context, result.tool_calls) == (runs.ANSWER, [runs.PASSAGE], [runs.CALL])
    assert result.input == runs.QUESTION and result.agent_run == "openai-chat"

def test_hallucinated_run_fails():
    assert_not_hallucinated(runs.anthropic(sdk=True, answer=WRONG), max_score=0.2)

def test_fixture_and_raw_score(llm_judge):
    llm_judge.assert_faithful(runs.langchain(), min_score=0.9, label="langchain")
    assert llm_judge.faithfulness({"messages": runs.langchain()}, label="graph").score == 1.0
    assert llm_judge.score("hallucination", runs.openai_responses(sdk=True), label="raw").score == 0.0
    llm_judge.assert_score("faithfulness", runs.pydantic_ai_result(), threshold=0.9, label="pydantic-ai")

AGENTS_RUN = runs.openai_agents_result()  # the SDK's run_sync needs no running event loop

@pytest.mark.anyio
async def test_async():
    await assert_faithful_async(AGENTS_RUN, min_score=0.9)

def test_callable_context_gets_the_run():
    docs = ["Zorblat Corp was founded in 1999."]
    assert_faithful(runs.openai_chat(answer=FOUNDED), lambda run: tool_results(run) + docs, min_score=0.9)
""")
    result = run(pytester, server, "--llm-report=report.json", "-p", "no:randomly")
    result.assert_outcomes(passed=4, failed=1)
    text = result.stdout.str()
    assert "hallucination score 0.50 is above max_score 0.20" in text
    data = json.loads((pytester.path / "report.json").read_text())
    by_test = {(r["test_id"].split("::")[1], r["label"]): r["result"] for r in data["results"]}
    assert {k: v["agent_run"] for k, v in by_test.items()} == {
        ("test_chat", None): "openai-chat", ("test_hallucinated_run_fails", None): "anthropic",
        ("test_fixture_and_raw_score", "langchain"): "langchain", ("test_fixture_and_raw_score", "graph"): "langgraph",
        ("test_fixture_and_raw_score", "raw"): "openai-responses",
        ("test_fixture_and_raw_score", "pydantic-ai"): "pydantic-ai",
        ("test_async[asyncio]", None): "openai-agents", ("test_callable_context_gets_the_run", None): "openai-chat"}
    assert all(r["tool_calls"] == [CALL] for r in by_test.values())
    assert by_test[("test_callable_context_gets_the_run", None)]["context"] == [
        PASSAGE, "Zorblat Corp was founded in 1999."]
    # the judge was shown the tool result as the context
    verdicts = [json.dumps(c["body"]) for c in server.calls("verdicts")]
    assert verdicts and all(json.dumps(PASSAGE)[1:-1] in body for body in verdicts)


def test_bad_runs_fail_with_the_fix_and_never_ask_the_judge(pytester, server) -> None:
    pytester.makepyfile(test_a=HEADER + """
def test_ended_on_a_tool_call():
    assert_faithful(runs.openai_chat()[:3], min_score=0.9)

def test_no_evidence():
    assert_not_hallucinated([{"role": "user", "content": "Hi"}, {"role": "assistant", "content": "40 people."}])

def test_unknown_format():
    assert_faithful({"answer": "40"}, min_score=0.9)

def test_threshold_as_context():
    assert_faithful(runs.openai_chat(), 0.9)

def test_string_still_needs_context():
    assert_faithful("Zorblat Corp employs 40 people.", min_score=0.9)
""")
    result = run(pytester, server, "-p", "no:randomly")
    result.assert_outcomes(failed=5)
    text = result.stdout.str()
    for expected in ('ended on a tool call, company_facts(name="Zorblat Corp")', "has no tool results before",
                     "cannot read item 0 of the run: a dict with keys answer", "min_score=0.9",
                     "context is required when the output is a string"):
        assert expected in text
    assert server.calls() == []


def test_dicts_and_sdk_objects_share_one_cache_entry(pytester, server) -> None:
    server.facts(**SUPPORTED)
    pytester.makepyfile(test_a=HEADER + """
def test_dicts():
    assert_faithful(runs.openai_chat(), min_score=0.9)

def test_sdk_objects():
    assert_faithful(runs.openai_chat(sdk=True), min_score=0.9)

def test_anthropic_sdk():
    assert_faithful(runs.anthropic(sdk=True), min_score=0.9)

def test_plain_strings():
    assert_faithful(runs.ANSWER, [runs.PASSAGE], min_score=0.9, input=runs.QUESTION)

def test_gemini_response():
    assert_faithful(runs.genai_response(), min_score=0.9)

def test_langgraph_snapshot():
    assert_faithful(runs.langgraph_run(), min_score=0.9)

def test_agents_sdk_tool_returning_a_dict():
    assert_faithful(runs.openai_agents_result(structured=True), min_score=0.9)
""")
    result = run(pytester, server, "--llm-report=report.json", "-p", "no:randomly", cache="use")
    result.assert_outcomes(passed=7)
    first, *others = [r["result"]["judge_calls"] for r in json.loads((pytester.path / "report.json").read_text())[
        "results"]]
    assert first and not any(call["cached"] for call in first)
    assert others and all(call["cached"] for calls in others for call in calls)  # the same requests: cache hits
    assert len(server.calls()) == len(first)
    assert ANSWER in json.dumps(server.calls("claims")[0]["body"])


def test_framework_runs_pass_when_faithful_and_fail_when_not(pytester, server) -> None:
    server.facts(**SUPPORTED)
    pytester.makepyfile(test_a=HEADER + """
MAKERS = {"gemini": runs.genai_response, "gemini-contents": runs.genai_contents, "langgraph": runs.langgraph_run,
          "langgraph-updates": lambda answer: runs.langgraph_run(answer, stream_mode="updates"),
          "agents-sdk": lambda answer: runs.openai_agents_result(answer, structured=True)}

@pytest.mark.parametrize("sdk", MAKERS)
def test_faithful(sdk):
    assert_faithful(MAKERS[sdk](runs.ANSWER), min_score=0.9)

@pytest.mark.parametrize("sdk", MAKERS)
def test_unfaithful(sdk):
    assert_faithful(MAKERS[sdk](WRONG), min_score=0.9)
""")
    result = run(pytester, server, "--llm-report=report.json", "-p", "no:randomly")
    result.assert_outcomes(passed=5, failed=5)
    data = json.loads((pytester.path / "report.json").read_text())
    outcomes = {r["test_id"].split("::")[1]: (r["result"]["agent_run"], r["result"]["score"]) for r in data["results"]}
    assert outcomes == {
        **{f"test_faithful[{sdk}]": (fmt, 1.0) for sdk, fmt in FRAMEWORKS.items()},
        **{f"test_unfaithful[{sdk}]": (fmt, 0.5) for sdk, fmt in FRAMEWORKS.items()}}
    assert "faithfulness score 0.50 is below min_score 0.90" in result.stdout.str()


FRAMEWORKS = {"gemini": "google-genai", "gemini-contents": "google-genai", "langgraph": "langgraph",
              "langgraph-updates": "langgraph", "agents-sdk": "openai-agents"}


def test_a_secret_in_a_tool_calls_arguments_is_redacted_with_the_run(pytester, server) -> None:
    """The call list reaches the JSON report and the page: a token in its arguments is the same
    placeholder as in the passage that echoes it, and its value is in no file."""
    token = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
    server.facts(supported=["The repository has 12 stars."])
    run_messages = [
        {"role": "user", "content": "How many stars?"},
        {"role": "assistant", "content": None, "tool_calls": [{"id": "c1", "type": "function", "function": {
            "name": "repo_stats", "arguments": json.dumps({"repo": "acme/app", "token": token})}}]},
        {"role": "tool", "tool_call_id": "c1", "content": json.dumps({"stars": 12, "asked_with": token})},
        {"role": "assistant", "content": "The repository has 12 stars."}]
    pytester.makepyfile(test_a=f"""
from pytest_llmfaith import assert_faithful

def test_stars():
    assert_faithful({run_messages!r}, min_score=0.9)
""")
    result = run(pytester, server, "--llm-report=report.json", "--llm-report-html=page.html")
    result.assert_outcomes(passed=1)
    data = json.loads((pytester.path / "report.json").read_text())["results"][0]["result"]
    assert data["tool_calls"] and "[secret 1]" in data["tool_calls"][0] and "[secret 1]" in data["context"][0]
    for written in ("report.json", "page.html"):
        assert token not in (pytester.path / written).read_text(), written
    assert token not in result.stdout.str() and all(token not in json.dumps(r["body"]) for r in server.requests)
