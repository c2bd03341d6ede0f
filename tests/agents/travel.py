"""The travel-booking support agent of benchmarks/agent_answers.py (its tool calls, their results
and its 15 faithful and 15 unfaithful answers: one source of truth), rebuilt with three SDKs' own
classes, no network: an OpenAI Agents SDK run (a scripted `Model`, function tools), a LangGraph
agent (a real compiled graph: a scripted chat model, the prebuilt ToolNode) and a Google GenAI
function-calling loop (`types.Content` turns). The same Python tools answer all three; the lookup
of booking ZZ9999 raises, and each SDK's error hook writes what the benchmark's tool wrote,
"Error: booking ZZ9999 not found" (the Agents SDK's default would hide the message)."""

from __future__ import annotations

import importlib.util
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parents[2] / "benchmarks"


def _load(name: str) -> Any:
    spec = importlib.util.spec_from_file_location(name, BENCH / f"{name}.py")
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    sys.modules.setdefault(name, module)
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


ANSWERS = _load("agent_answers")  # stdlib imports only: loading it runs nothing
CALLS: list[tuple[str, dict[str, Any], Any]] = ANSWERS.CALLS
FAITHFUL: list[str] = ANSWERS.FAITHFUL
UNFAITHFUL: list[str] = ANSWERS.UNFAITHFUL
JWT: str = ANSWERS.JWT
QUESTION: str = ANSWERS.run_of("")[0]["content"]
chat_run: Callable[[str], list[dict[str, Any]]] = ANSWERS.run_of  # the benchmark's run, as OpenAI chat messages


def _tool(name: str, **args: Any) -> Any:
    """What the tool `name` returns for `args` in the benchmark's run; its error text raised."""
    result = next(r for n, a, r in CALLS if (n, a) == (name, args))
    if isinstance(result, str) and result.startswith("Error: "):
        raise LookupError(result.removeprefix("Error: "))
    return result


def search_flights(origin: str, destination: str, date: str) -> dict[str, Any]:
    """Flights from origin to destination on date."""
    return _tool("search_flights", origin=origin, destination=destination, date=date)


def get_booking(ref: str) -> dict[str, Any]:
    """A booking, by its reference."""
    return _tool("get_booking", ref=ref)


def refund_policy(fare: str) -> str:
    """The refund policy of a fare."""
    return _tool("refund_policy", fare=fare)


TOOLS = [search_flights, get_booking, refund_policy]


def error_text(error: Exception) -> str:
    """A failed call's result, as each SDK's error hook writes it here."""
    return f"Error: {error}"


def openai_agents_result(answer: str) -> Any:
    """A real OpenAI Agents SDK run: a scripted Model calls the four tools in turn, then answers."""
    from agents import Agent, Model, ModelResponse, Runner, Usage, function_tool, set_tracing_disabled
    from openai.types.responses import ResponseFunctionToolCall, ResponseOutputMessage, ResponseOutputText

    set_tracing_disabled(True)
    tools = [function_tool(f, failure_error_function=lambda ctx, error: error_text(error)) for f in TOOLS]

    class Scripted(Model):
        def __init__(self) -> None:
            self.turns = 0

        async def get_response(self, *args: Any, **kwargs: Any) -> ModelResponse:
            if self.turns < len(CALLS):
                name, arguments, _ = CALLS[self.turns]
                out: list[Any] = [ResponseFunctionToolCall(type="function_call", call_id=f"call_{self.turns}",
                                                           id=f"fc_{self.turns}", name=name,
                                                           arguments=json.dumps(arguments))]
            else:
                out = [ResponseOutputMessage(type="message", id="msg_1", role="assistant", status="completed",
                                             content=[ResponseOutputText(type="output_text", text=answer,
                                                                         annotations=[])])]
            self.turns += 1
            return ModelResponse(output=out, usage=Usage(), response_id=None)

        def stream_response(self, *args: Any, **kwargs: Any) -> Any:
            raise NotImplementedError

    agent = Agent(name="travel", model=Scripted(), tools=tools)
    return Runner.run_sync(agent, QUESTION, max_turns=len(CALLS) + 2)


def _langgraph_tools() -> Any:
    """Made per run, never cached: an in-process pytester run drops the modules it imported, so a
    tool kept from before is of a BaseTool class the ToolNode no longer knows."""
    from langchain_core.tools import tool

    return [tool(f) for f in TOOLS]


def langgraph_run(answer: str) -> Any:
    """A real LangGraph agent (StateGraph(MessagesState), a scripted GenericFakeChatModel, the
    prebuilt ToolNode whose handle_tool_errors writes the error, tools_condition), run on QUESTION:
    its final state snapshot."""
    from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
    from langchain_core.messages import AIMessage
    from langgraph.checkpoint.memory import InMemorySaver
    from langgraph.graph import START, MessagesState, StateGraph
    from langgraph.prebuilt import ToolNode, tools_condition

    model = GenericFakeChatModel(messages=iter([
        *(AIMessage(content="", tool_calls=[{"name": name, "args": dict(args), "id": f"call_{i}"}])
          for i, (name, args, _) in enumerate(CALLS)),
        AIMessage(answer)]))

    def agent(state: MessagesState) -> dict[str, Any]:
        return {"messages": [model.invoke(state["messages"])]}

    graph = StateGraph(MessagesState)
    graph.add_node("agent", agent)
    graph.add_node("tools", ToolNode(_langgraph_tools(), handle_tool_errors=error_text))
    graph.add_edge(START, "agent")
    graph.add_conditional_edges("agent", tools_condition)
    graph.add_edge("tools", "agent")
    app = graph.compile(checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "1"}}
    app.invoke({"messages": [("user", QUESTION)]}, config)
    return app.get_state(config)


def genai_contents(answer: str) -> list[Any]:
    """A Gemini function-calling loop's contents (google-genai's `types.Content`): each call the
    model made, the tool run by the loop, its result sent back as `{"result": ...}`, or the error
    as `{"error": ...}`, then the model's answer."""
    from google.genai import types

    functions = {f.__name__: f for f in TOOLS}
    contents = [types.Content(role="user", parts=[types.Part(text=QUESTION)])]
    for name, args, _ in CALLS:
        call = types.FunctionCall(name=name, args=dict(args))
        try:
            response = {"result": functions[name](**call.args)}
        except LookupError as error:
            response = {"error": error_text(error)}
        contents += [types.Content(role="model", parts=[types.Part(function_call=call)]),
                     types.Content(role="user", parts=[types.Part(function_response=types.FunctionResponse(
                         name=name, response=response))])]
    return [*contents, types.Content(role="model", parts=[types.Part(text=answer)])]


SDKS: dict[str, Callable[[str], Any]] = {"openai-agents": openai_agents_result, "langgraph": langgraph_run,
                                         "google-genai": genai_contents}
