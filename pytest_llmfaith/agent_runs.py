"""An agent's run as what a scorer judges: the final answer's text (the output), the last user
message before it (the input) and every tool result before it (the context), read from the
message lists of the frameworks people use.

Read by shape, never by importing a framework: SDK objects are pydantic models (`model_dump()`)
or dataclasses (pydantic-ai), so a run is first made plain data, then each message or item is
recognised by its keys:

- `{"role", "content", "tool_calls"}` and `role: "tool"`: OpenAI Chat Completions (litellm too);
- `function_call` / `function_call_output` items, `message` items with `output_text`: OpenAI
  Responses, and the OpenAI Agents SDK's `RunResult.to_input_list()`;
- content blocks `tool_use` / `tool_result` (`is_error`): Anthropic Messages;
- `{"type": "ai" | "tool" | "human", ...}`, a state `{"messages": [...]}`: LangChain, LangGraph;
- `{"kind": "request" | "response", "parts": [...]}`: pydantic-ai's `ModelRequest` / `ModelResponse`.

A tool result becomes passages a person can read: `company_facts(name="Zorblat Corp") returned:`
and the result, JSON pretty-printed, a long one split at its joints (list items, object keys,
paragraphs); a failed call is evidence of the failure (`... failed: ...`). The passages depend on
the data only, so a run given as dicts and the same run as SDK objects ask the judge the same
question (one cache key). Pure functions: no pytest, no judge.
"""

from __future__ import annotations

import dataclasses
import inspect
import json
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal

from pydantic import BaseModel, Field

from pytest_llmfaith.wording import plural

MAX_PASSAGE_CHARS = 1200  # a tool result longer than this is split into passages at its joints
TEXT_PARTS = ("text", "output_text", "input_text")  # content parts that are text, by any SDK's name
SKIPPED_PARTS = ("thinking", "redacted_thinking", "reasoning", "reasoning_text", "summary_text")
# Responses items that carry no answer and no tool result this module reads (hosted tools that
# return no text, the model's reasoning, references to earlier items)
SKIPPED_ITEMS = ("reasoning", "item_reference", "web_search_call", "image_generation_call", "computer_call",
                 "computer_call_output", "code_interpreter_call", "local_shell_call", "local_shell_call_output",
                 "mcp_list_tools", "mcp_approval_request", "mcp_approval_response", "compaction")
LANGCHAIN_TYPES = {"human": "user", "ai": "assistant", "AIMessageChunk": "assistant", "tool": "tool",
                   "ToolMessageChunk": "tool", "system": "system", "function": "function", "chat": "chat",
                   "remove": "system"}
# a tool result whose text is an exception: a traceback, `SomeError: ...`, `Error: ...` (LangGraph's
# ToolNode), or the OpenAI Agents SDK's default failure text
FAILURE_TEXT = re.compile(r"\s*(Traceback \(most recent call last\)|([\w.]*(Error|Exception)|Error|ERROR)\b\s*[:(]"
                          r"|An error occurred while running the tool)")
FORMATS_HELP = (
    "Pass the run's messages: a list of OpenAI chat messages, OpenAI Responses items (or a Response), "
    "Anthropic messages, LangChain messages (or a LangGraph state {'messages': [...]}), pydantic-ai "
    "messages (or the run result, whose all_messages() is read), an OpenAI Agents SDK RunResult; or pass the "
    "answer's text as a string with context=[...] (docs/testing-agents.md)."
)


class AgentRunError(ValueError):
    """A run this module cannot judge (no answer, no evidence, a shape nobody wrote); the message
    names the problem and the fix. A ValueError: a wrong argument to an assertion, never a pass."""


class Message(BaseModel):
    """A user or assistant message; `text` None: it has no text (`problem` says what it has instead)."""

    kind: Literal["message"] = "message"
    role: Literal["user", "assistant"]
    text: str | None = None
    problem: str = ""


class ToolCall(BaseModel):
    kind: Literal["call"] = "call"
    id: str | None = None
    name: str
    arguments: Any = None  # a dict of arguments, or whatever the model wrote when it is not one

    @property
    def signature(self) -> str:
        """`company_facts(name="Zorblat Corp")`: the call as a person reads it."""
        return f"{self.name}({format_arguments(self.arguments)})"


class ToolResult(BaseModel):
    kind: Literal["result"] = "result"
    call_id: str | None = None
    name: str | None = None  # the tool's name, from the result or from its call
    arguments: Any = None  # from its call, when the run has it
    value: Any = None  # the result: text, or JSON data parsed from it
    failed: bool = False  # is_error, status "error", an exception's text, pydantic-ai's outcome

    @property
    def call(self) -> str:
        """How the passages name the call: `f(a=1)`, `f` when its arguments are unknown, or its id."""
        if self.name is None:
            return f"a tool call ({self.call_id})" if self.call_id else "a tool call"
        return self.name if self.arguments is None else f"{self.name}({format_arguments(self.arguments)})"


Step = Message | ToolCall | ToolResult


class AgentRun(BaseModel):
    """A run as read: its steps in order, and the formats recognised in it (for reports)."""

    format: str
    steps: list[Step] = Field(default_factory=list)

    def answers(self) -> list[int]:
        """The positions of the assistant's text turns, in order (what `turn=` counts)."""
        return [i for i, s in enumerate(self.steps) if isinstance(s, Message) and s.role == "assistant" and s.text]

    def answer_at(self, turn: int | None = None) -> int:
        """The position of the judged turn: the last by default, which must end the run; `turn=`
        picks another by its index among the text turns (negative from the end)."""
        answers = self.answers()
        if turn is not None:
            if isinstance(turn, bool) or not isinstance(turn, int):
                raise TypeError(f"llmfaith: turn must be an int (an index among the assistant's text turns), "
                                f"got {type(turn).__name__}.")
            if not -len(answers) <= turn < len(answers):
                listed = "; ".join(f"{n}: {_preview(self.steps[i])!r}" for n, i in enumerate(answers)) or "none"
                raise AgentRunError(f"llmfaith: turn={turn} is out of range: the run has "
                                    f"{plural(len(answers), 'assistant text turn')} ({listed}). Fix: pass "
                                    f"turn=0..{len(answers) - 1}, or -1 for the last.")
            return answers[turn]
        last = max((i for i, s in enumerate(self.steps)
                    if isinstance(s, ToolCall) or (isinstance(s, Message) and s.role == "assistant")), default=None)
        if last is None:
            raise AgentRunError(f"llmfaith: the run ({self.format}) has no assistant message, so there is no answer "
                                "to judge. Fix: pass the whole run, including the agent's final reply.")
        step = self.steps[last]
        if isinstance(step, ToolCall):
            raise AgentRunError(
                f"llmfaith: the run ended on a tool call, {step.signature}, with no assistant text after it: the "
                "agent gave no answer. Fix: run the agent until it replies (feed it the tool result), or pass "
                "turn=... to judge an earlier reply.")
        if not isinstance(step, Message) or not step.text:
            problem = step.problem if isinstance(step, Message) else ""
            raise AgentRunError(
                f"llmfaith: the run's last assistant message has no text ({problem or 'empty'} content), so "
                "there is nothing to judge. Fix: judge a run that ends with a text reply, or pass turn=... to judge "
                "an earlier one.")
        return last

    def tool_calls(self, before: int | None = None) -> list[ToolCall]:
        return [s for s in self.steps[:before] if isinstance(s, ToolCall)]

    def results(self, before: int | None = None) -> list[ToolResult]:
        return [s for s in self.steps[:before] if isinstance(s, ToolResult)]

    def user_input(self, before: int) -> str | None:
        return next((s.text for s in reversed(self.steps[:before])
                     if isinstance(s, Message) and s.role == "user" and s.text), None)


# -- the public functions ---------------------------------------------------------------------

def final_answer(run: Any, turn: int | None = None) -> str:
    """The text of the run's final assistant message (or of its `turn`-th text turn)."""
    agent_run = read_run(run)
    step = agent_run.steps[agent_run.answer_at(turn)]
    assert isinstance(step, Message) and step.text is not None
    return step.text


def tool_results(run: Any, turn: int | None = None, max_chars: int = MAX_PASSAGE_CHARS) -> list[str]:
    """Every tool result of the run (before the judged turn) as passages a judge and a person can
    read: `name(arguments) returned: ...`, a long result split at its joints, a failed call as
    `name(arguments) failed: ...`. Mastra's `extractToolResults`."""
    agent_run = read_run(run)
    before = agent_run.answer_at(turn) if turn is not None else None
    return [passage for result in agent_run.results(before) for passage in result_passages(result, max_chars)]


class Judged(BaseModel):
    """What an assertion hands the scorer, from a run or a string: strings and a context."""

    output: Any  # the answer's text (a string's check, and its message, are check_inputs')
    context: Any  # a list of passages, or the caller's own context (a zero-argument callable) as given
    input: str | None = None
    format: str | None = None  # the run's format; None: the output was a string
    tool_calls: list[str] = Field(default_factory=list)


def judged(output: Any, context: Any = None, input: str | None = None, turn: int | None = None) -> Judged:
    """(output, context, input) for a scorer. A string passes as it is (its context is required);
    a run gives its final answer, the user message before it (unless `input` is given) and its
    tool results, unless `context` is given: a list replaces them, a callable taking one argument
    is given the run (Mastra's `getContext({ run })`)."""
    if output is None or isinstance(output, (bytes, int, float)):  # check_inputs says what an output must be
        return Judged(output=output, context=context, input=input)
    if isinstance(output, str):
        _check_context_number(context)
        if turn is not None:
            raise TypeError("llmfaith: turn= picks a turn of an agent's run, but the output is a string. Fix: pass the "
                            "run itself as the output, or drop turn=.")
        if context is None:
            raise TypeError("llmfaith: context is required when the output is a string: assert_faithful(output, "
                            "context=[...]). To judge an agent's answer against its tool results, pass the run "
                            "(its messages) as the output instead of its text.")
        if _takes_run(context):
            raise TypeError("llmfaith: this context callable takes an argument (the run), but the output is a string, "
                            "not a run. Fix: pass the agent's run as the output, or a callable with no arguments.")
        return Judged(output=output, context=context, input=input)
    _check_context_number(context)
    agent_run = read_run(output)
    at = agent_run.answer_at(turn)
    answer = agent_run.steps[at]
    assert isinstance(answer, Message) and answer.text is not None
    if context is None:
        context = [p for r in agent_run.results(at) for p in result_passages(r)]
        if not context:
            raise AgentRunError(
                f"llmfaith: the run ({agent_run.format}) has no tool results before the judged answer and no "
                "context was given, so there is nothing to judge it against. Fix: pass context=[...] (the "
                "documents the agent had), or context=lambda run: tool_results(run) + docs.")
    elif callable(context) and _takes_run(context):
        context = context(output)
    return Judged(output=answer.text, context=context, input=input if input is not None else agent_run.user_input(at),
                  format=agent_run.format, tool_calls=[c.signature for c in agent_run.tool_calls(at)])


def _check_context_number(context: Any) -> None:
    if isinstance(context, (int, float)) and not isinstance(context, bool):
        raise TypeError(f"llmfaith: the second argument is the context, got the number {context!r}. Fix: name the "
                        f"threshold: assert_faithful(run, min_score={context!r}) or "
                        f"assert_not_hallucinated(run, max_score={context!r}).")


def _takes_run(context: Any) -> bool:
    """A callable whose signature needs exactly one positional argument (the run)."""
    if not callable(context):
        return False
    try:
        parameters = inspect.signature(context).parameters.values()
    except (TypeError, ValueError):  # a builtin without a signature: called with no argument, as before
        return False
    required = [p for p in parameters
                if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) and p.default is p.empty]
    return len(required) == 1


# -- reading a run ----------------------------------------------------------------------------

def read_run(run: Any) -> AgentRun:
    """The steps of a run in any of the formats above; AgentRunError / TypeError, with the fix, for
    anything else."""
    formats: list[str] = []
    items = _items(run, formats)
    steps: list[Step] = []
    for index, item in enumerate(items):
        _read_item(item, index, steps, formats)
    calls = {s.id: s for s in steps if isinstance(s, ToolCall) and s.id}
    for step in steps:  # a result names its call: the tool and its arguments
        if isinstance(step, ToolResult) and step.call_id in calls:
            call = calls[step.call_id]
            step.name = step.name or call.name
            step.arguments = call.arguments
    order = ("openai-agents", "pydantic-ai", "langgraph", "langchain", "anthropic", "openai-responses", "openai-chat")
    name = next((f for f in order if f in formats), "chat messages")
    return AgentRun(format=name, steps=steps)


def _items(run: Any, formats: list[str]) -> list[Any]:
    """The run's messages or items as plain data, from whichever container holds them."""
    if callable(getattr(run, "to_input_list", None)) and hasattr(run, "new_items"):  # OpenAI Agents SDK RunResult
        formats.append("openai-agents")
        run = run.to_input_list()
    elif callable(getattr(run, "all_messages", None)):  # pydantic-ai's run result
        run = run.all_messages()
    data = plain(run)
    if isinstance(data, dict):
        if isinstance(data.get("messages"), list):  # a LangGraph state (or any {"messages": [...]})
            formats.append("langgraph")
            data = data["messages"]
        else:
            data = [data]
    if not isinstance(data, list):
        raise TypeError(f"llmfaith: cannot read an agent run from {_described(run)}. {FORMATS_HELP}")
    items: list[Any] = []
    for item in data:
        if isinstance(item, dict) and item.get("object") == "response" and isinstance(item.get("output"), list):
            formats.append("openai-responses")  # a Response: its output items
            items += item["output"]
        elif isinstance(item, dict) and str(item.get("object")).startswith("chat.completion") and item.get("choices"):
            formats.append("openai-chat")  # a ChatCompletion (OpenAI, litellm): its first choice's message
            items.append(item["choices"][0].get("message") or {})
        else:
            items.append(item)
    if not items:
        raise AgentRunError("llmfaith: the run is empty: no messages. Fix: pass the agent's messages (the whole "
                            "conversation, ending with its reply).")
    return items


def plain(value: Any) -> Any:
    """JSON-like data: pydantic models by `model_dump()`, dataclasses by their fields, mappings and
    sequences item by item; anything else (a datetime, an unknown object) as it is."""
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    if isinstance(value, Mapping):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    dump = getattr(value, "model_dump", None)
    if callable(dump) and not isinstance(value, type):
        return plain(dump())
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    return value


def _read_item(item: Any, index: int, steps: list[Step], formats: list[str]) -> None:
    if not isinstance(item, dict):
        raise TypeError(f"llmfaith: cannot read item {index} of the run, {_described(item)}. {FORMATS_HELP}")
    kind = item.get("type")
    if item.get("kind") in ("request", "response") and isinstance(item.get("parts"), list):
        formats.append("pydantic-ai")
        _read_pydantic_ai(item, steps)
    elif kind in LANGCHAIN_TYPES and "content" in item and "role" not in item:
        formats.append("langchain")
        _read_langchain(item, LANGCHAIN_TYPES[kind], steps)
    elif kind in ("function_call", "custom_tool_call"):
        formats.append("openai-responses")
        arguments = item.get("arguments") if kind == "function_call" else item.get("input")
        steps.append(ToolCall(id=item.get("call_id"), name=item.get("name") or "tool", arguments=_arguments(arguments)))
    elif kind in ("function_call_output", "custom_tool_call_output"):
        formats.append("openai-responses")
        steps.append(_result(item.get("call_id"), None, item.get("output"), False))
    elif kind == "mcp_call":
        formats.append("openai-responses")
        call = ToolCall(id=item.get("id"), name=item.get("name") or "tool", arguments=_arguments(item.get("arguments")))
        failed = bool(item.get("error"))
        steps += [call, _result(call.id, call.name, item.get("error") if failed else item.get("output"), failed)]
    elif kind == "file_search_call":
        formats.append("openai-responses")
        call = ToolCall(id=item.get("id"), name="file_search", arguments={"queries": item.get("queries") or []})
        steps.append(call)
        if item.get("results"):
            steps.append(_result(call.id, call.name, item["results"], False))
    elif kind in SKIPPED_ITEMS:
        pass
    elif "role" in item:
        _read_role_message(item, steps, formats)
    else:
        keys = ", ".join(sorted(item)[:8])
        raise TypeError(f"llmfaith: cannot read item {index} of the run: a dict with keys {keys}"
                        + (f" (type {kind!r})" if kind else "") + f", not a message this plugin knows. {FORMATS_HELP}")


def _read_role_message(item: dict[str, Any], steps: list[Step], formats: list[str]) -> None:
    """OpenAI chat, Anthropic and Responses `message` items: `role` and `content`."""
    role, content = item.get("role"), item.get("content")
    if not content and isinstance(item.get("refusal"), str):  # an OpenAI chat refusal is what the model said
        content = item["refusal"]
    if item.get("type") == "message":
        formats.append("anthropic" if "stop_reason" in item else "openai-responses")
    if role in ("tool", "function"):  # OpenAI chat: a tool's result
        formats.append("openai-chat")
        steps.append(_result(item.get("tool_call_id"), item.get("name"), content, False))
        return
    if role in ("user", "human"):
        text, _ = _content(content, steps, formats)
        if text.strip():
            steps.append(Message(role="user", text=text))
        return
    if role not in ("assistant", "model", "ai"):
        return  # system, developer: instructions, neither answer nor evidence
    calls: list[ToolCall] = []
    for call in item.get("tool_calls") or []:
        formats.append("openai-chat")
        function = call.get("function") or {}
        calls.append(ToolCall(id=call.get("id"), name=function.get("name") or call.get("name") or "tool",
                              arguments=_arguments(function.get("arguments", call.get("args")))))
    if item.get("function_call"):  # the legacy single function call
        formats.append("openai-chat")
        function = item["function_call"]
        calls.append(ToolCall(name=function.get("name") or "tool", arguments=_arguments(function.get("arguments"))))
    _assistant(content, calls, steps, formats)


def _assistant(content: Any, calls: list[ToolCall], steps: list[Step], formats: list[str],
               read_blocks: bool = True) -> None:
    """An assistant message: its text (or what it has instead), then its calls."""
    block_calls: list[Step] = []
    text, other = _content(content, block_calls if read_blocks else [], formats)
    known = {c.id for c in calls if c.id}
    calls += [c for c in block_calls if isinstance(c, ToolCall) and (c.id is None or c.id not in known)]
    if text.strip():
        steps.append(Message(role="assistant", text=text))
    elif not calls:
        steps.append(Message(role="assistant", problem=other or "empty"))
    steps += calls


def _content(content: Any, steps: list[Step], formats: list[str]) -> tuple[str, str]:
    """(the text of a message's content, what else it had when it had no text). Tool blocks found
    in it (Anthropic `tool_use` / `tool_result`) are appended to `steps`."""
    if content is None:
        return "", "empty"
    if isinstance(content, str):
        return content, ""
    if not isinstance(content, list):
        return "", f"a {type(content).__name__}, not text"
    texts: list[str] = []
    other: list[str] = []
    for block in content:
        if isinstance(block, str):
            texts.append(block)
            continue
        kind = block.get("type") if isinstance(block, dict) else None
        if kind in TEXT_PARTS and isinstance(block.get("text"), str):
            texts.append(block["text"])
        elif kind == "refusal":
            texts.append(str(block.get("refusal", "")))
        elif kind in ("tool_use", "server_tool_use"):
            formats.append("anthropic")
            steps.append(ToolCall(id=block.get("id"), name=block.get("name") or "tool",
                                  arguments=_arguments(block.get("input"))))
        elif kind == "tool_result" or (isinstance(kind, str) and kind.endswith("_tool_result")):
            formats.append("anthropic")
            steps.append(_result(block.get("tool_use_id"), None, block.get("content"), bool(block.get("is_error"))))
        elif kind in SKIPPED_PARTS:
            continue
        else:
            other.append(str(kind) if kind else type(block).__name__)
    return "".join(texts), " and ".join(dict.fromkeys(other))


def _read_langchain(item: dict[str, Any], role: str, steps: list[Step]) -> None:
    content = item.get("content")
    if role == "tool" or role == "function":
        steps.append(_result(item.get("tool_call_id"), item.get("name"), content, item.get("status") == "error"))
    elif role == "user":
        text, _ = _content(content, [], [])
        if text.strip():
            steps.append(Message(role="user", text=text))
    elif role == "assistant":  # tool_calls is the list; content's tool_use blocks repeat it
        calls = [ToolCall(id=c.get("id"), name=c.get("name") or "tool", arguments=_arguments(c.get("args")))
                 for c in item.get("tool_calls") or []]
        _assistant(content, calls, steps, [], read_blocks=False)


def _read_pydantic_ai(item: dict[str, Any], steps: list[Step]) -> None:
    if item["kind"] == "request":
        for part in item["parts"]:
            kind = part.get("part_kind") if isinstance(part, dict) else None
            if kind == "user-prompt":
                text, _ = _content(part.get("content"), [], [])
                if text.strip():
                    steps.append(Message(role="user", text=text))
            elif kind in ("tool-return", "builtin-tool-return"):
                failed = part.get("outcome", "success") != "success"
                steps.append(_result(part.get("tool_call_id"), part.get("tool_name"), part.get("content"), failed))
            elif kind == "retry-prompt" and part.get("tool_name"):  # ModelRetry, or wrong arguments
                steps.append(_result(part.get("tool_call_id"), part["tool_name"], part.get("content"), True))
        return
    texts: list[str] = []
    calls: list[ToolCall] = []
    results: list[Step] = []
    other: list[str] = []
    for part in item["parts"]:
        kind = part.get("part_kind") if isinstance(part, dict) else None
        if kind == "text":
            texts.append(str(part.get("content") or ""))
        elif kind in ("tool-call", "builtin-tool-call"):
            calls.append(ToolCall(id=part.get("tool_call_id"), name=part.get("tool_name") or "tool",
                                  arguments=_arguments(part.get("args"))))
        elif kind == "builtin-tool-return":
            failed = part.get("outcome", "success") != "success"
            results.append(_result(part.get("tool_call_id"), part.get("tool_name"), part.get("content"), failed))
        elif kind != "thinking":
            other.append(str(kind))
    text = "".join(texts)
    if text.strip():
        steps.append(Message(role="assistant", text=text))
    elif not calls:
        steps.append(Message(role="assistant", problem=" and ".join(other) or "empty"))
    steps += calls
    steps += results


def _arguments(arguments: Any) -> Any:
    """A call's arguments as data: a JSON string parsed, else as the model wrote them."""
    if isinstance(arguments, str):
        try:
            return json.loads(arguments) if arguments.strip() else {}
        except ValueError:
            return arguments
    return arguments


def _result(call_id: Any, name: Any, content: Any, failed: bool) -> ToolResult:
    value = _result_value(content)
    if not failed and isinstance(value, str) and FAILURE_TEXT.match(value):
        failed = True
    return ToolResult(call_id=call_id if isinstance(call_id, str) else None,
                      name=name if isinstance(name, str) and name else None, value=value, failed=failed)


def _result_value(content: Any) -> Any:
    """A result's data: text (JSON text parsed), content blocks joined into text, data as it is."""
    if isinstance(content, list) and content and all(_is_block(b) for b in content):
        content = "\n".join(b["text"] if b.get("type") in TEXT_PARTS else f"[{b.get('type')} not read]"
                            for b in content)
    if isinstance(content, str):
        stripped = content.strip()
        if stripped[:1] in ("{", "[") and stripped[-1:] in ("}", "]"):
            try:
                return json.loads(stripped)
            except ValueError:
                pass
        return content
    return content


def _is_block(block: Any) -> bool:
    if not isinstance(block, dict) or not isinstance(block.get("type"), str):
        return False
    if block["type"] in TEXT_PARTS:
        return isinstance(block.get("text"), str) and set(block) <= {"type", "text", "annotations", "citations",
                                                                     "cache_control", "logprobs", "id"}
    return block["type"] in ("image", "image_url", "input_image", "document", "input_file", "file", "audio",
                             "search_result")


# -- tool results as passages -----------------------------------------------------------------

_JSON = json.JSONEncoder(ensure_ascii=False, default=str)  # one encoder: json.dumps(..., default=) builds one a call


def format_arguments(arguments: Any) -> str:
    """`name="Zorblat Corp", year=2024`: a dict's arguments as keywords, anything else as written."""
    if arguments is None or arguments == {}:
        return ""
    if isinstance(arguments, dict):
        return ", ".join(f"{k}={_JSON.encode(v)}" for k, v in arguments.items())
    if isinstance(arguments, str):
        return arguments
    return _JSON.encode(arguments)


def result_passages(result: ToolResult, max_chars: int = MAX_PASSAGE_CHARS) -> list[str]:
    """One passage per result, `f(a=1) returned: ...` (`failed: ...`); a long one split at its joints."""
    verb = "failed" if result.failed else "returned"
    value = result.value
    if value is None or (isinstance(value, str) and not value.strip()):
        return [f"{result.call} {verb} nothing (an empty result)."]
    limit = max(max_chars - len(result.call) - 40, 200)
    if _size(value) <= limit:
        text = _pretty(value)
        return [f"{result.call} {verb}:{chr(10) if chr(10) in text else ' '}{text}"]
    parts = [_pretty(p) for p in _split(value, limit)]
    return [f"{result.call} {verb} (part {n} of {len(parts)}):{chr(10) if chr(10) in p else ' '}{p}"
            for n, p in enumerate(parts, 1)]


def _pretty(value: Any, indent: int = 0) -> str:
    """Text as it is; JSON with one entry a line, except where a whole object or list fits on
    one line of 80 characters, which it then takes (`{"employees": 40, "office": "Mars"}`)."""
    if isinstance(value, str) and indent == 0:
        return value.strip()
    compact = _JSON.encode(value)
    if len(compact) + indent <= 80 or not isinstance(value, (dict, list)) or not value:
        return compact
    pad, end = " " * (indent + 2), " " * indent
    if isinstance(value, dict):
        entries = [f"{pad}{_JSON.encode(str(k))}: {_pretty(v, indent + 2)}" for k, v in value.items()]
        return "{\n" + ",\n".join(entries) + f"\n{end}}}"
    return "[\n" + ",\n".join(f"{pad}{_pretty(v, indent + 2)}" for v in value) + f"\n{end}]"


def _size(value: Any) -> int:
    """About the length of `_pretty(value)`: the compact encoding (C-fast, where indent= is not)
    and a quarter more for the line breaks. Splitting compares this; only the parts are pretty-printed."""
    if isinstance(value, str):
        return len(value)
    return len(_JSON.encode(value)) * 5 // 4


def _split(value: Any, limit: int) -> list[Any]:
    """`value` as pieces whose text fits `limit`, cut only between list items, between object
    keys, or (in text) between paragraphs, lines, sentences, words; each piece is itself JSON."""
    if _size(value) <= limit:
        return [value]
    if isinstance(value, str):
        return _split_text(value.strip(), limit)
    if isinstance(value, list) and len(value) == 1:
        return _split(value[0], limit)
    if isinstance(value, dict) and len(value) == 1:
        ((key, inner),) = value.items()
        if isinstance(inner, (dict, list, str)):
            return [{key: part} for part in _split(inner, limit - len(key) - 8)]
        return [value]
    if isinstance(value, (dict, list)) and len(value) > 1:
        entries: list[Any] = [{k: v} for k, v in value.items()] if isinstance(value, dict) else list(value)
        pieces: list[Any] = []
        group: list[Any] = []
        size = 4
        for entry in entries:
            length = _size(entry) + 4
            if group and size + length > limit:
                pieces.append(_joined(group, isinstance(value, dict)))
                group, size = [], 4
            if length > limit:  # one entry alone is too long: split it in turn
                pieces += _split(entry, limit)
                continue
            group.append(entry)
            size += length
        if group:
            pieces.append(_joined(group, isinstance(value, dict)))
        return pieces
    return [value]


def _joined(group: list[Any], as_dict: bool) -> Any:
    if as_dict:
        return {k: v for entry in group for k, v in entry.items()}
    return group if len(group) > 1 else group[0]


_JOINTS = (re.compile(r"\n\s*\n"), re.compile(r"\n"), re.compile(r"(?<=[.!?。！？])\s+"), re.compile(r"\s+"))


def _split_text(text: str, limit: int, level: int = 0) -> list[str]:
    """Text cut at paragraphs, then lines, sentences, words; a word longer than the limit stays whole."""
    if len(text) <= limit or level >= len(_JOINTS):
        return [text]
    pieces = [p for p in _JOINTS[level].split(text) if p.strip()]
    separator = ("\n\n", "\n", " ", " ")[level]
    out: list[str] = []
    current = ""
    for piece in pieces:
        if len(piece) > limit:
            if current:
                out.append(current)
                current = ""
            out += _split_text(piece, limit, level + 1)
        elif current and len(current) + len(separator) + len(piece) > limit:
            out.append(current)
            current = piece
        else:
            current = f"{current}{separator}{piece}" if current else piece
    if current:
        out.append(current)
    return out


def _preview(step: Step) -> str:
    text = step.text if isinstance(step, Message) else ""
    text = " ".join((text or "").split())
    return text if len(text) <= 40 else text[:39] + "…"


def _described(value: Any) -> str:
    kind = type(value)
    where = f"{kind.__module__}.{kind.__qualname__}" if kind.__module__ != "builtins" else kind.__name__
    if isinstance(value, dict):
        return f"a dict with keys {', '.join(sorted(map(str, value))[:8]) or '(none)'}"
    return f"an object of type {where}"


RunContext = Sequence[str] | Callable[..., Sequence[str]] | None
