"""A tool-calling agent's answers, judged against what its tools returned (acme_rag/agent.py).

Pass the run (its messages) where a string would go: the final answer is the output, the
question the input, every tool result the context (`search_docs(query="...") returned: [...]`).
The same test reads OpenAI Chat Completions messages and Anthropic Messages alike
(docs/testing-agents.md lists the other formats: Responses, LangChain/LangGraph, pydantic-ai,
the OpenAI Agents SDK).
"""

import pytest

from acme_rag import retrieve
from acme_rag.agent import run_agent
from pytest_llmfaith import assert_faithful, assert_not_hallucinated, tool_results


@pytest.mark.parametrize("api", ["openai", "anthropic"])
def test_agent_price_comes_from_its_tool(api):
    assert_faithful(run_agent("How much is 700 GB per month?", api))


@pytest.mark.parametrize("api", ["openai", "anthropic"])
def test_agent_retention_answer_is_not_hallucinated(api):
    assert_not_hallucinated(run_agent("How long are deleted files kept?", api))


def test_agent_with_two_searches_and_the_docs_beside_its_tool_results():
    question = "Which regions can store my backups, and when is live chat open?"
    # Mastra's getContext({ run }): a callable that takes the run; here the tool results plus the docs
    assert_faithful(run_agent(question), context=lambda run: tool_results(run) + retrieve("support phone"))


@pytest.mark.xfail(reason="a bad agent on purpose: the tool failed, the answer says it worked",
                   raises=AssertionError, strict=False)
def test_agent_claiming_a_failed_action_is_caught():
    # the context is `restore_file(name="report.pdf") failed: PermissionError: ...`
    assert_not_hallucinated(run_agent("Please restore report.pdf.", "anthropic"), max_score=0.0)
