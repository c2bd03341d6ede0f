"""A tool-calling support agent for Acme Cloud Backup: the same docs, reached through tools.

The agent loop is the real shape of one (ask the model, run the tool calls it makes, feed back
the results, until it answers in text), but its "model" is scripted (`SCRIPT`): no generator
runs offline, as in app.py. `run_agent` returns the run as the messages of the API the agent
would have talked to, OpenAI Chat Completions or Anthropic Messages: exactly what the tests
hand to `assert_faithful(run)`, which judges the final answer against what the tools returned.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, Literal

from acme_rag.retrieval import retrieve


def search_docs(query: str) -> list[str]:
    """The product docs' passages that best answer `query`."""
    return retrieve(query)


def plan_price(storage_gb: int) -> dict[str, Any]:
    """The monthly price of a plan with `storage_gb` of storage (docs/pricing.md's rules)."""
    extra_blocks = max(0, -(-(storage_gb - 500) // 100))  # each additional 100 GB, rounded up
    return {"storage_gb": storage_gb, "monthly_price_usd": 8 + 2 * extra_blocks,
            "annual_billing_discount": "15%"}


def restore_file(name: str) -> str:
    """Restore a deleted file (this demo account may not: the call fails)."""
    raise PermissionError(f"restoring {name} needs the account owner's approval")


TOOLS: dict[str, Callable[..., Any]] = {"search_docs": search_docs, "plan_price": plan_price,
                                        "restore_file": restore_file}

# question -> the model's turns: the tool calls it makes (name, arguments), then its answer
SCRIPT: dict[str, tuple[list[tuple[str, dict[str, Any]]], str]] = {
    "How much is 700 GB per month?": (
        [("plan_price", {"storage_gb": 700})],
        "A plan with 700 GB of storage costs $12 per month."),
    "How long are deleted files kept?": (
        [("search_docs", {"query": "how long are deleted files kept"})],
        "Deleted files are kept for 90 days before they are permanently removed."),
    "Which regions can store my backups, and when is live chat open?": (
        [("search_docs", {"query": "regions store backups"}), ("search_docs", {"query": "live chat open"})],
        "Your backups can be stored in Frankfurt, Virginia or Singapore. "
        "Live chat is open Monday to Friday, from 8:00 to 18:00 CET."),
    "Please restore report.pdf.": (  # a bad agent: it claims the restore worked
        [("restore_file", {"name": "report.pdf"})],
        "Your file report.pdf has been restored."),
}


def call_tool(name: str, arguments: dict[str, Any]) -> tuple[str, bool]:
    """(the tool's result as the model reads it: JSON text, or the error; whether it failed)."""
    try:
        return json.dumps(TOOLS[name](**arguments)), False
    except Exception as error:  # a tool error goes back to the model, as agent frameworks do
        return f"{type(error).__name__}: {error}", True


def run_agent(question: str, api: Literal["openai", "anthropic"] = "openai") -> list[dict[str, Any]]:
    """Run the agent on `question`: the whole conversation, in `api`'s message format."""
    calls, answer = SCRIPT[question]
    if api == "openai":
        messages: list[dict[str, Any]] = [{"role": "system", "content": "You are Acme's support agent."},
                                          {"role": "user", "content": question}]
        for n, (name, arguments) in enumerate(calls):
            call_id = f"call_{n}"
            messages.append({"role": "assistant", "content": None, "tool_calls": [
                {"id": call_id, "type": "function", "function": {"name": name, "arguments": json.dumps(arguments)}}]})
            result, _ = call_tool(name, arguments)
            messages.append({"role": "tool", "tool_call_id": call_id, "content": result})
        return [*messages, {"role": "assistant", "content": answer}]
    messages = [{"role": "user", "content": question}]
    for n, (name, arguments) in enumerate(calls):
        tool_use_id = f"toolu_{n}"
        messages.append({"role": "assistant", "content": [
            {"type": "tool_use", "id": tool_use_id, "name": name, "input": arguments}]})
        result, failed = call_tool(name, arguments)
        messages.append({"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": tool_use_id, "content": result, "is_error": failed}]})
    return [*messages, {"role": "assistant", "content": [{"type": "text", "text": answer}]}]
