"""An agent's run as what a scorer judges: the final answer's text (the output), the last user
message before it (the input) and every tool result before it (the context), read from the
message lists of the frameworks people use.

Read by shape, never by importing a framework: SDK objects are pydantic models (`model_dump()`)
or dataclasses (pydantic-ai), so a run is first made plain data, then each message or item is
recognised by its keys:

- `{"role", "content", "tool_calls"}` and `role: "tool"`: OpenAI Chat Completions (litellm too);
- `function_call` / `function_call_output` items, `message` items with `output_text`: OpenAI
  Responses, and the OpenAI Agents SDK's `RunResult.to_input_list()`; its `RunResult` and
  `new_items` are read item by item (`raw_item`), a tool's output as the value it returned;
- content blocks `tool_use` / `tool_result` (`is_error`): Anthropic Messages;
- `{"type": "ai" | "tool" | "human", ...}`, `("user", "...")`: LangChain; a state `{"messages":
  [...]}`, a `StateSnapshot` (`.values`), stream chunks `{node: {"messages": [...]}}`: LangGraph;
- `{"kind": "request" | "response", "parts": [...]}`: pydantic-ai's `ModelRequest` / `ModelResponse`;
- `{"role": "user" | "model", "parts": [...]}` with `function_call` / `function_response`, and a
  `GenerateContentResponse` (`candidates`, `automatic_function_calling_history`): Google GenAI.

A tool result becomes passages a person can read: `company_facts(name="Zorblat Corp") returned:`
and the result, structured data as canonical JSON (sorted keys, two-space indent), a long one
split at its joints (list items, object keys, paragraphs); a failed call is evidence of the
failure (`... failed: ...`). The passages depend on the data only, so a run given as dicts, as
SDK objects or by another SDK asks the judge the same question (one cache key). Pure functions:
no pytest, no judge.
"""

from __future__ import annotations

import ast
import dataclasses
import inspect
import json
import re
from collections.abc import Callable, Mapping, Sequence
from enum import Enum
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
TUPLE_ROLES = ("user", "human", "assistant", "ai", "system", "developer")  # LangChain's ("user", "...")
# a Gemini part's fields that carry nothing to read (set beside text or on their own)
GENAI_QUIET_KEYS = ("thought", "thought_signature", "thoughtSignature", "video_metadata", "media_resolution",
                    "part_metadata")
LANGCHAIN_TYPES = {"human": "user", "ai": "assistant", "AIMessageChunk": "assistant", "tool": "tool",
                   "ToolMessageChunk": "tool", "system": "system", "function": "function", "chat": "chat",
                   "remove": "system"}
# the OpenAI Agents SDK's default failure_error_function's text (0.25 dropped "Please try again."): it
# hides the exception from the model
AGENTS_SDK_HIDDEN_ERRORS = ("An error occurred while running the tool. Please try again.",
                            "An error occurred while running the tool.")
# a tool result whose text is an exception: a traceback, `SomeError: ...`, `Error: ...` (LangGraph's
# ToolNode), or the OpenAI Agents SDK's failure text
FAILURE_TEXT = re.compile(r"\s*(Traceback \(most recent call last\)|([\w.]*(Error|Exception)|Error|ERROR)\b\s*[:(]"
                          r"|An error occurred while running the tool)")
FORMATS_HELP = (
    "Pass the run's messages: a list of OpenAI chat messages, OpenAI Responses items (or a Response), "
    "Anthropic messages, LangChain messages (or a LangGraph state {'messages': [...]}, graph.get_state(config), "
    "the stream's chunks), pydantic-ai messages (or the run result), an OpenAI Agents SDK RunResult (or its "
    "new_items), Google GenAI Contents (or a GenerateContentResponse); or pass the answer's text as a string with "
    "context=[...] (docs/testing-agents.md)."
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
    missing: str = ""  # why the shape passed may lack tool results (a stream chunk), for the fix

    def answers(self) -> list[int]:
        """The positions of the assistant's text turns, in order (what `turn=` counts)."""
        return [i for i, s in enumerate(self.steps) if isinstance(s, Message) and s.role == "assistant" and s.text]

    def answer_at(self, turn: int | None = None) -> int:
        """The position of the judged turn: the last by default, which must end the run; `turn=`
        picks another by its index among the text turns (negative from the end)."""
        if turn is not None and (isinstance(turn, bool) or not isinstance(turn, int)):
            raise TypeError(f"llmfaith: turn must be an int (an index among the assistant's text turns), "
                            f"got {type(turn).__name__}.")
        found = self._answer(turn)
        if isinstance(found, str):
            raise AgentRunError(f"{found}\n{self.described(short=True)}")
        return found

    def _answer(self, turn: int | None) -> int | str:
        """The judged turn's position, or why there is none (with the fix)."""
        answers = self.answers()
        if turn is not None:
            if not -len(answers) <= turn < len(answers):
                listed = "; ".join(f"{n}: {_preview(self.steps[i])!r}" for n, i in enumerate(answers)) or "none"
                return (f"llmfaith: turn={turn} is out of range: the run has "
                        f"{plural(len(answers), 'assistant text turn')} ({listed}). Fix: pass "
                        f"turn=0..{len(answers) - 1}, or -1 for the last.")
            return answers[turn]
        last = max((i for i, s in enumerate(self.steps)
                    if isinstance(s, ToolCall) or (isinstance(s, Message) and s.role == "assistant")), default=None)
        if last is None:
            return (f"llmfaith: the run ({self.format}) has no assistant message, so there is no answer to judge. "
                    "Fix: pass the whole run, including the agent's final reply.")
        step = self.steps[last]
        if isinstance(step, ToolCall):
            return (f"llmfaith: the run ended on a tool call, {step.signature}, with no assistant text after it: the "
                    "agent gave no answer. Fix: run the agent until it replies (feed it the tool result), or pass "
                    "turn=... to judge an earlier reply.")
        if not isinstance(step, Message) or not step.text:
            problem = step.problem if isinstance(step, Message) else ""
            return (f"llmfaith: the run's last assistant message has no text ({problem or 'empty'} content), so "
                    "there is nothing to judge. Fix: judge a run that ends with a text reply, or pass turn=... to "
                    "judge an earlier one.")
        return last

    def check_results(self, before: int | None) -> None:
        """No tool result where the run shows there should be some (calls without results, a stream
        chunk) is an error with the fix, never an empty context."""
        if self.results(before):
            return
        calls = self.tool_calls(before)
        if self.missing:
            problem = f"llmfaith: the run has no tool results: {self.missing}."
        elif calls:
            problem = (f"llmfaith: the run ({self.format}) has {plural(len(calls), 'tool call')} "
                       f"({', '.join(c.signature for c in calls[:3])}{', ...' if len(calls) > 3 else ''}) and none of "
                       "their results, so the evidence the agent had is not in what was passed. Fix: pass the whole "
                       "run, the tool results included (the messages after each call, not only the model's turns).")
        else:
            return
        raise AgentRunError(f"{problem}\n{self.described(short=True)}")

    def tool_calls(self, before: int | None = None) -> list[ToolCall]:
        return [s for s in self.steps[:before] if isinstance(s, ToolCall)]

    def results(self, before: int | None = None) -> list[ToolResult]:
        return [s for s in self.steps[:before] if isinstance(s, ToolResult)]

    def user_input(self, before: int | None) -> str | None:
        return next((s.text for s in reversed(self.steps[:before])
                     if isinstance(s, Message) and s.role == "user" and s.text), None)

    def described(self, turn: int | None = None, short: bool = False) -> str:
        """The run as the judge would get it: format, question, tool calls in order, final answer,
        passages; secrets redacted as in the judge's request. `short`: long passages cut, for an
        error message."""
        from pytest_llmfaith.errors import redact_data  # text/secrets.py compiles its rules: not at import

        found = self._answer(turn)
        before = found if isinstance(found, int) else None
        answer_step = self.steps[found] if isinstance(found, int) else None
        answer = answer_step.text if isinstance(answer_step, Message) else None
        passages = [p for r in self.results(before) for p in result_passages(r)]
        question = self.user_input(before)
        calls = [c.signature for c in self.tool_calls(before)]
        answer, passages, question, calls = redact_data((answer, passages, question, calls))
        lines = [f"The run as read ({self.format}, {plural(len(self.steps), 'step')}):",
                 f"  question: {_quoted(question, short) if question else '(none: no user message before the answer)'}",
                 f"  tool calls, in order:{'' if calls else ' none'}"]
        lines += [f"    {n}. {call}" for n, call in enumerate(calls, 1)]
        lines.append(f"  final answer: {_quoted(answer, short) if answer else '(none)'}")
        lines.append(f"  the judge gets {plural(len(passages), 'passage')} (the context){':' if passages else ''}")
        shown = passages[:8] if short else passages
        lines += [f"    {n}. " + _quoted(p, short).replace("\n", "\n       ") for n, p in enumerate(shown, 1)]
        if len(shown) < len(passages):
            lines.append(f"    ... and {len(passages) - len(shown)} more (describe_run(run) shows them all)")
        return "\n".join(lines)


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
    `name(arguments) failed: ...`. Mastra's `extractToolResults`. Tool calls without any result
    (or a stream chunk that cannot hold them) are an AgentRunError, never an empty list."""
    agent_run = read_run(run)
    before = agent_run.answer_at(turn) if turn is not None else None
    agent_run.check_results(before)
    return [passage for result in agent_run.results(before) for passage in result_passages(result, max_chars)]


def describe_run(run: Any, turn: int | None = None) -> str:
    """The run as this plugin reads it: its format, the question, the tool calls in order with
    their arguments, the final answer and the passages the judge gets (secrets redacted as in the
    judge's request). For a test's own message, or to see why a run scores as it does."""
    return read_run(run).described(turn)


class ScoringInput(BaseModel):
    """What an assertion hands the scorer, from a run or a string: strings and a context."""

    output: Any  # the answer's text (a string's check, and its message, are check_inputs')
    context: Any  # a list of passages, or the caller's own context (a zero-argument callable) as given
    input: str | None = None
    format: str | None = None  # the run's format; None: the output was a string
    tool_calls: list[str] = Field(default_factory=list)
    failed_calls: list[int] = Field(default_factory=list)  # positions in tool_calls of the calls whose result failed


def judged(output: Any, context: Any = None, input: str | None = None, turn: int | None = None) -> ScoringInput:
    """(output, context, input) for a scorer. A string passes as it is (its context is required);
    a run gives its final answer, the user message before it (unless `input` is given) and its
    tool results, unless `context` is given: a list replaces them, a callable taking one argument
    is given the run (Mastra's `getContext({ run })`)."""
    if output is None or isinstance(output, (bytes, int, float)):  # check_inputs says what an output must be
        return ScoringInput(output=output, context=context, input=input)
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
        return ScoringInput(output=output, context=context, input=input)
    _check_context_number(context)
    agent_run = read_run(output)
    at = agent_run.answer_at(turn)
    answer = agent_run.steps[at]
    assert isinstance(answer, Message) and answer.text is not None
    if context is None:
        agent_run.check_results(at)
        context = [p for r in agent_run.results(at) for p in result_passages(r)]
        if not context:
            raise AgentRunError(
                f"llmfaith: the run ({agent_run.format}) has no tool results before the judged answer and no "
                "context was given, so there is nothing to judge it against. Fix: pass context=[...] (the "
                "documents the agent had), or context=lambda run: tool_results(run) + docs.\n"
                + agent_run.described(turn, short=True))
    elif callable(context) and _takes_run(context):
        context = context(output)
    calls = agent_run.tool_calls(at)
    failed = [(r.name, r.arguments) for r in agent_run.results(at) if r.failed]  # a result names its call (_link)
    asked = input if input is not None else agent_run.user_input(at)
    return ScoringInput(output=answer.text, context=context, input=asked, format=agent_run.format,
                        tool_calls=[c.signature for c in calls],
                        failed_calls=[n for n, c in enumerate(calls) if (c.name, c.arguments) in failed])


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
    missing: list[str] = []
    steps: list[Step] = []
    for index, (item, given) in enumerate(_items(run, formats, missing)):
        try:
            _read_item(item, steps, formats)
        except TypeError as error:
            raise TypeError(f"llmfaith: cannot read item {index} of the run: {_described(given)}"
                            f"{_read_as(item, given)}{error}. {_fix(given)}\n{FORMATS_HELP}") from None
    _link(steps)
    order = ("openai-agents", "pydantic-ai", "google-genai", "langgraph", "langchain", "anthropic", "openai-responses",
             "openai-chat")
    name = next((f for f in order if f in formats), "chat messages")
    return AgentRun(format=name, steps=steps, missing=" ".join(missing))


def _link(steps: list[Step]) -> None:
    """A result names its call (the tool and its arguments): by the call's id, or, where the SDK
    gives none (Gemini), by the earliest call of that tool not yet answered."""
    by_id = {s.id: s for s in steps if isinstance(s, ToolCall) and s.id}
    waiting: list[ToolCall] = []
    for step in steps:
        if isinstance(step, ToolCall):
            waiting.append(step)
        elif step.kind == "result":
            call = (by_id.get(step.call_id) if step.call_id
                    else next((c for c in waiting if c.name == step.name), None))
            if call is not None:
                step.name = step.name or call.name
                step.arguments = call.arguments
                if call in waiting:
                    waiting.remove(call)


def _items(run: Any, formats: list[str], missing: list[str]) -> list[tuple[Any, Any]]:
    """The run's messages or items as plain data, each with the object it was read from (errors
    name that object's type), from whichever container holds them."""
    run = _unwrapped(run, formats)
    given = list(run) if isinstance(run, (list, tuple)) else [run]
    data = [plain(item) for item in given]
    if data and all(_is_graph_chunk(d) for d in data):  # LangGraph: a state, a stream chunk, or the chunks
        formats.append("langgraph")
        data, given = _graph_messages(data, missing), []
    elif not isinstance(run, (list, tuple)) and not isinstance(data[0], dict):
        raise TypeError(f"llmfaith: cannot read an agent run from {_described(run)}. {_fix(run)}\n{FORMATS_HELP}")
    items: list[tuple[Any, Any]] = []
    for n, item in enumerate(data):
        source = given[n] if given else item
        if isinstance(item, dict) and item.get("object") == "response" and isinstance(item.get("output"), list):
            formats.append("openai-responses")  # a Response: its output items
            items += [(i, source) for i in item["output"]]
        elif isinstance(item, dict) and str(item.get("object")).startswith("chat.completion") and item.get("choices"):
            formats.append("openai-chat")  # a ChatCompletion (OpenAI, litellm): its first choice's message
            items.append((item["choices"][0].get("message") or {}, source))
        elif isinstance(item, dict) and "candidates" in item:  # a Gemini GenerateContentResponse
            formats.append("google-genai")
            items += [(i, source) for i in _genai_response(item, [i for i, _ in items])]
        elif _is_tuple_message(item):  # LangChain's shorthand: ("user", "...")
            formats.append("langchain")
            items.append(({"role": LANGCHAIN_TYPES.get(item[0], item[0]), "content": item[1]}, source))
        else:
            items.append((item, source))
    if not items:
        raise AgentRunError("llmfaith: the run is empty: no messages. Fix: pass the agent's messages (the whole "
                            "conversation, ending with its reply).")
    return items


def _unwrapped(run: Any, formats: list[str]) -> Any:
    """What a framework's result object holds: its messages or items, still as objects."""
    if isinstance(run, (str, bytes, Mapping)):
        return run
    if hasattr(run, "new_items") and hasattr(run, "input"):  # OpenAI Agents SDK RunResult: its input, its items
        formats.append("openai-agents")
        given = run.input
        items = [{"role": "user", "content": given}] if isinstance(given, str) else list(given)
        return items + [_run_item(item) for item in run.new_items]
    if callable(getattr(run, "all_messages", None)):  # pydantic-ai's run result
        return run.all_messages()
    if hasattr(type(run), "_fields") and hasattr(run, "values") and hasattr(run, "next"):  # a LangGraph StateSnapshot
        formats.append("langgraph")
        return run.values
    if isinstance(run, (list, tuple)) and any(_is_run_item(item) for item in run):  # RunResult.new_items
        formats.append("openai-agents")
        return [_run_item(item) for item in run]
    return run


def _is_run_item(item: Any) -> bool:
    return (not isinstance(item, (Mapping, list, tuple, str)) and hasattr(item, "raw_item")
            and isinstance(getattr(item, "type", None), str))


def _run_item(item: Any) -> Any:
    """An Agents SDK RunItem as its raw Responses item; a tool's output as the value the tool
    returned (the raw item has its `str()`, a Python repr for a dict)."""
    if not _is_run_item(item):
        return item
    raw = plain(item.raw_item)
    if item.type == "tool_call_output_item" and isinstance(raw, dict) and "output" in raw:
        return {**raw, "output": plain(getattr(item, "output", raw["output"]))}
    return raw


def _is_state(item: Any) -> bool:
    return isinstance(item, dict) and isinstance(item.get("messages"), list)


def _is_update(item: Any) -> bool:
    """A LangGraph `stream_mode="updates"` chunk: {node: {"messages": [...]}} (None for a node that
    changed nothing; `__interrupt__` and the like beside them)."""
    if not isinstance(item, dict) or not item or "messages" in item:
        return False
    nodes = {k: v for k, v in item.items() if not str(k).startswith("__")}
    return (any(_is_state(v) for v in nodes.values())
            and all(v is None or _is_state(v) or isinstance(v, dict) for v in nodes.values()))


def _is_graph_chunk(item: Any) -> bool:
    """A state (a "values" chunk), an "updates" chunk, or either as `(mode, chunk)` (several stream modes)."""
    if isinstance(item, list) and len(item) == 2 and item[0] in ("values", "updates"):
        item = item[1]
    return _is_state(item) or _is_update(item)


def _graph_messages(chunks: list[Any], missing: list[str]) -> list[Any]:
    """The messages of LangGraph chunks: the last state, else every update's messages in order."""
    chunks = [c[1] if isinstance(c, list) else c for c in chunks]
    states = [c for c in chunks if _is_state(c)]
    if states:
        return list(states[-1]["messages"])
    if len(chunks) == 1:
        missing.append('a LangGraph stream_mode="updates" chunk holds only the messages one node added in one step. '
                       "Fix: pass graph.get_state(config), the final state, or the list of every chunk")
    return [m for c in chunks for v in c.values() if _is_state(v) for m in v["messages"]]


def _is_tuple_message(item: Any) -> bool:
    return (isinstance(item, list) and len(item) == 2 and item[0] in TUPLE_ROLES
            and isinstance(item[1], (str, list)))


def plain(value: Any) -> Any:
    """JSON-like data: pydantic models by `model_dump()`, dataclasses by their fields, mappings and
    sequences item by item; anything else (a datetime, an unknown object) as it is."""
    if isinstance(value, Enum):  # an SDK's enum (Gemini's finish reason): its value, as JSON would have it
        return plain(value.value)
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


def _read_item(item: Any, steps: list[Step], formats: list[str]) -> None:
    """One message or item into steps; TypeError (what it is not) for a shape nobody wrote."""
    if not isinstance(item, dict):
        raise TypeError(", not a message this plugin knows")
    kind = item.get("type")
    if item.get("kind") in ("request", "response") and isinstance(item.get("parts"), list):
        formats.append("pydantic-ai")
        _read_pydantic_ai(item, steps)
    elif isinstance(item.get("parts"), list) and "content" not in item:
        formats.append("google-genai")
        _read_genai(item, steps)
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
        raise TypeError((f" (type {kind!r})" if kind else "") + ", not a message this plugin knows")


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


def _read_genai(item: dict[str, Any], steps: list[Step]) -> None:
    """A Gemini `Content`: role "user" or "model" (a function's response comes back in a user or
    tool turn), parts of text, `function_call`, `function_response` (snake_case from the SDK's
    objects, camelCase in the REST API's JSON)."""
    texts: list[str] = []
    calls: list[Step] = []
    results: list[Step] = []
    other: list[str] = []
    for part in item["parts"]:
        if not isinstance(part, dict):
            other.append(type(part).__name__)
            continue
        call = part.get("function_call") or part.get("functionCall")
        response = part.get("function_response") or part.get("functionResponse")
        if isinstance(call, dict):
            calls.append(ToolCall(id=call.get("id"), name=call.get("name") or "tool",
                                  arguments=_arguments(call.get("args"))))
        elif isinstance(response, dict):
            results.append(_genai_result(response))
        elif isinstance(part.get("text"), str):
            if not part.get("thought"):  # a thought summary is not the answer
                texts.append(part["text"])
        else:
            other += [k for k, v in part.items() if v is not None and k not in GENAI_QUIET_KEYS][:1]
    text = "".join(texts)
    if item.get("role") == "model":
        if text.strip():
            steps.append(Message(role="assistant", text=text))
        elif not calls:
            finish = item.get("finish_reason")
            steps.append(Message(role="assistant", problem=" and ".join(other) or (
                f"no parts, finish reason {finish}" if finish else "empty")))
        steps += calls
        return
    steps += results
    if text.strip():
        steps.append(Message(role="user", text=text))


def _genai_result(response: dict[str, Any]) -> ToolResult:
    """A `FunctionResponse`: its `response` dict, unwrapped from the SDK's `{"result": ...}` (or the
    documented `{"output": ...}`) so the value reads as in any other SDK; `{"error": ...}` failed."""
    value = response.get("response")
    failed = False
    if isinstance(value, dict) and len(value) == 1:
        ((key, inner),) = value.items()
        if key in ("result", "output", "error"):
            value, failed = inner, key == "error"
    return _result(response.get("id"), response.get("name"), value, failed)


def _genai_response(response: dict[str, Any], before: list[Any]) -> list[Any]:
    """A `GenerateContentResponse` as turns: its automatic function calling history (the turns
    before, less those the caller passed already) and its first candidate's content."""
    history = list(response.get("automatic_function_calling_history")
                   or response.get("automaticFunctionCallingHistory") or [])
    known = {_genai_digest(item) for item in before}
    while history and _genai_digest(history[0]) in known:
        history.pop(0)
    candidates = response.get("candidates") or []
    if not candidates:
        feedback = response.get("prompt_feedback") or response.get("promptFeedback") or {}
        reason = feedback.get("block_reason") or feedback.get("blockReason") if isinstance(feedback, dict) else None
        raise AgentRunError(
            f"llmfaith: the Gemini response has no candidates (block reason: {reason or 'none given'}), so there is "
            "no answer to judge. Fix: judge a response that has a candidate (response.prompt_feedback says why "
            "this one has none).")
    candidate = candidates[0]
    content = candidate.get("content") or {}
    finish = candidate.get("finish_reason") or candidate.get("finishReason")
    return [*history, {"role": "model", "parts": content.get("parts") or [], "finish_reason": finish}]


def _genai_digest(item: Any) -> str:
    """A turn compared by what it says (role, parts' set values), however it was written."""
    if not isinstance(item, dict):
        return repr(item)
    parts = [{k: v for k, v in p.items() if v is not None} if isinstance(p, dict) else p
             for p in item.get("parts") or []]
    return _JSON.encode([item.get("role") or "user", parts])


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
        except (ValueError, RecursionError):
            return arguments
    return arguments


def _result(call_id: Any, name: Any, content: Any, failed: bool) -> ToolResult:
    value = _result_value(content)
    if not failed and isinstance(value, str) and FAILURE_TEXT.match(value):
        failed = True
    return ToolResult(call_id=call_id if isinstance(call_id, str) else None,
                      name=name if isinstance(name, str) and name else None, value=value, failed=failed)


def _result_value(content: Any) -> Any:
    """A result's data: text (JSON text, or the Python repr of a dict or list, parsed), content
    blocks joined into text, data as it is."""
    if isinstance(content, list) and content and all(_is_block(b) for b in content):
        content = "\n".join(b["text"] if b.get("type") in TEXT_PARTS else f"[{b.get('type')} not read]"
                            for b in content)
    if isinstance(content, str):
        return _parsed(content)
    return content


def _parsed(text: str) -> Any:
    """JSON text as data; else a Python repr of a dict or list (an SDK that sends `str(value)`, as
    the OpenAI Agents SDK does) read back with `ast.literal_eval`, which runs no code; else the text."""
    stripped = text.strip()
    if stripped[:1] not in ("{", "[") or stripped[-1:] not in ("}", "]"):
        return text
    try:
        return json.loads(stripped)
    except (ValueError, RecursionError):  # nested deeper than Python reads: literal_eval says so too
        pass
    try:
        value = ast.literal_eval(stripped)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return text
    return plain(value) if isinstance(value, (dict, list)) else text


def _is_block(block: Any) -> bool:
    if not isinstance(block, dict) or not isinstance(block.get("type"), str):
        return False
    if block["type"] in TEXT_PARTS:
        return isinstance(block.get("text"), str) and set(block) <= {"type", "text", "annotations", "citations",
                                                                     "cache_control", "logprobs", "id"}
    return block["type"] in ("image", "image_url", "input_image", "document", "input_file", "file", "audio",
                             "search_result")


# -- tool results as passages -----------------------------------------------------------------

# one encoder each: json.dumps(..., default=) builds one a call
_JSON = json.JSONEncoder(ensure_ascii=False, default=str)
_CANONICAL = json.JSONEncoder(ensure_ascii=False, default=str, sort_keys=True, indent=2)


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
    text = canonical(value)
    limit = max(max_chars - len(result.call) - 40, 200)
    if len(text) <= limit:
        return [f"{result.call} {verb}:{chr(10) if chr(10) in text else ' '}{text}{_hidden_error(result)}"]
    parts = [canonical(p) for p in _split(value, limit)]
    return [f"{result.call} {verb} (part {n} of {len(parts)}):{chr(10) if chr(10) in p else ' '}{p}"
            for n, p in enumerate(parts, 1)]


def canonical(value: Any) -> str:
    """A result as the judge reads it: text as it is, data as JSON with sorted keys, two spaces of
    indentation and non-ASCII kept, so the same result reads the same whatever SDK carried it
    (the same request, cache key and score)."""
    if isinstance(value, str):
        return value.strip()
    return _CANONICAL.encode(value)


def _hidden_error(result: ToolResult) -> str:
    """Where the run lost a failed call's message, the passage says so (and how to keep it)."""
    if result.failed and isinstance(result.value, str) and result.value.strip() in AGENTS_SDK_HIDDEN_ERRORS:
        return (" (the OpenAI Agents SDK's default tool-error text: the exception's message is not in the run; "
                "@function_tool(failure_error_function=...) keeps it)")
    return ""


def _size(value: Any) -> int:
    """About the length of `canonical(value)`: the compact encoding (C-fast, where indent= is not)
    and half more for the line breaks and indentation. Splitting compares this; only the parts are
    encoded canonically."""
    if isinstance(value, str):
        return len(value)
    return len(_JSON.encode(value)) * 3 // 2


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
        entries: list[Any] = ([{k: value[k]} for k in sorted(value, key=str)] if isinstance(value, dict)
                              else list(value))
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


def _quoted(text: str, short: bool) -> str:
    """Text for a description: whole, or (short) its first 300 characters."""
    text = text.strip()
    return text if not short or len(text) <= 300 else text[:299] + "…"


def _preview(step: Step) -> str:
    text = step.text if isinstance(step, Message) else ""
    text = " ".join((text or "").split())
    return text if len(text) <= 40 else text[:39] + "…"


def _described(value: Any) -> str:
    """What a value is, by its type and module: `an object of type google.genai.chats.Chat`."""
    kind = type(value)
    where = f"{kind.__module__}.{kind.__qualname__}" if kind.__module__ != "builtins" else kind.__name__
    if isinstance(value, dict):
        return f"a dict with keys {', '.join(sorted(map(str, value))[:8]) or '(none)'}"
    return f"an object of type {where}"


def _read_as(item: Any, given: Any) -> str:
    """How an object that is not a dict was read, when it was read as one (its `model_dump()`)."""
    if isinstance(item, dict) and not isinstance(given, Mapping):
        return f" (read as a dict with keys {', '.join(sorted(map(str, item))[:8]) or '(none)'})"
    return ""


# where a framework's object keeps its messages: the one line that fixes a run passed whole
HOLDERS = (("get_history", "()"), ("all_messages", "()"), ("to_input_list", "()"), ("get_state", "(config)"),
           ("messages", ""), ("chat_history", ""), ("history", ""), ("values", ""))


def _fix(value: Any) -> str:
    """The one line that fixes an unreadable run: the attribute that holds its messages, if it has one."""
    if not isinstance(value, (Mapping, list, tuple, str)):
        for name, call in HOLDERS:
            if hasattr(value, name) and callable(getattr(value, name)) == bool(call):
                return f"Fix: pass its messages: assert_faithful(run.{name}{call}, ...)."
    return "Fix: pass the run's list of messages, or its answer as text: assert_faithful(text, context=[...])."


RunContext = Sequence[str] | Callable[..., Sequence[str]] | None
