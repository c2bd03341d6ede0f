"""One small agent run, written in every format tests/agents/ reads: the user asks about Zorblat
Corp, the agent calls company_facts(name="Zorblat Corp"), which returns JSON, and answers.
Each builder uses the framework's own classes where `sdk` is true, plain dicts where it is not."""

from __future__ import annotations

import json
from typing import Any

QUESTION = "How many people work at Zorblat Corp, and where is its office?"
FACTS = {"employees": 40, "office": "Mars"}
ANSWER = "Zorblat Corp employs 40 people. Its office is on Mars."
ARGS = {"name": "Zorblat Corp"}
PASSAGE = 'company_facts(name="Zorblat Corp") returned:\n{\n  "employees": 40,\n  "office": "Mars"\n}'
CALL = 'company_facts(name="Zorblat Corp")'


def openai_chat(sdk: bool = False, answer: str = ANSWER, result: str = json.dumps(FACTS)) -> list[Any]:
    calling = {"role": "assistant", "content": None, "tool_calls": [
        {"id": "call_1", "type": "function", "function": {"name": "company_facts", "arguments": json.dumps(ARGS)}}]}
    final = {"role": "assistant", "content": answer}
    if sdk:
        from openai.types.chat import ChatCompletion, ChatCompletionMessage

        calling = ChatCompletionMessage.model_validate(calling)  # type: ignore[assignment]
        final = ChatCompletion.model_validate({  # type: ignore[assignment]
            "id": "c", "object": "chat.completion", "created": 0, "model": "gpt",
            "choices": [{"index": 0, "finish_reason": "stop", "message": final}]})
    return [{"role": "system", "content": "You answer questions about companies."},
            {"role": "user", "content": QUESTION}, calling,
            {"role": "tool", "tool_call_id": "call_1", "content": result}, final]


def openai_responses(sdk: bool = False, answer: str = ANSWER) -> list[Any]:
    call = {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "company_facts",
            "arguments": json.dumps(ARGS), "status": "completed"}
    message = {"type": "message", "id": "msg_1", "role": "assistant", "status": "completed",
               "content": [{"type": "output_text", "text": answer, "annotations": []}]}
    items: list[Any] = [{"role": "user", "content": QUESTION}, call,
                        {"type": "function_call_output", "call_id": "call_1", "output": json.dumps(FACTS)}]
    if not sdk:
        return [*items, message]
    from openai.types.responses import Response, ResponseFunctionToolCall

    items[1] = ResponseFunctionToolCall.model_validate(call)
    response = Response.model_validate({"id": "resp_1", "object": "response", "created_at": 0, "model": "gpt",
                                        "parallel_tool_calls": True, "tool_choice": "auto", "tools": [],
                                        "output": [message]})
    return [*items, response]


def anthropic(sdk: bool = False, answer: str = ANSWER, result: Any = None, is_error: bool = False) -> list[Any]:
    calling = {"role": "assistant", "content": [
        {"type": "text", "text": "Let me look that up."},
        {"type": "tool_use", "id": "toolu_1", "name": "company_facts", "input": ARGS}]}
    final = {"role": "assistant", "content": [{"type": "text", "text": answer}]}
    if sdk:
        from anthropic.types import Message

        def message(data: dict[str, Any]) -> Any:
            return Message.model_validate({"id": "msg", "type": "message", "model": "claude", "stop_reason": "end_turn",
                                           "stop_sequence": None, "usage": {"input_tokens": 1, "output_tokens": 1},
                                           **data})

        calling = {"role": "assistant", "content": message(calling).content}  # what a loop appends
        final = message(final)
    block = {"type": "tool_result", "tool_use_id": "toolu_1",
             "content": json.dumps(FACTS) if result is None else result}
    if is_error:
        block["is_error"] = True
    return [{"role": "user", "content": QUESTION}, calling, {"role": "user", "content": [block]}, final]


def langchain(answer: str = ANSWER, status: str = "success", result: str = json.dumps(FACTS)) -> list[Any]:
    from langchain_core.messages import AIMessage, HumanMessage, SystemMessage, ToolMessage

    return [SystemMessage("You answer questions about companies."), HumanMessage(QUESTION),
            AIMessage(content="", tool_calls=[{"name": "company_facts", "args": ARGS, "id": "call_1"}]),
            ToolMessage(result, tool_call_id="call_1", name="company_facts", status=status),
            AIMessage(answer)]


def langchain_dicts(answer: str = ANSWER) -> list[dict[str, Any]]:
    return [message.model_dump() for message in langchain(answer)]


def pydantic_ai_result(answer: str = ANSWER, fail: bool = False) -> Any:
    """A real pydantic-ai run (its FunctionModel is scripted: no network)."""
    from pydantic_ai import Agent, ModelRetry
    from pydantic_ai.messages import ModelResponse, TextPart, ToolCallPart
    from pydantic_ai.models.function import FunctionModel

    def model(messages: list[Any], info: Any) -> ModelResponse:
        if len(messages) == 1:
            return ModelResponse(parts=[ToolCallPart("company_facts", dict(ARGS), tool_call_id="call_1")])
        return ModelResponse(parts=[TextPart(answer)])

    agent = Agent(FunctionModel(model))

    @agent.tool_plain(retries=0 if not fail else 1)
    def company_facts(name: str) -> dict[str, Any]:
        if fail:
            raise ModelRetry("the company database is down")
        return dict(FACTS)

    return agent.run_sync(QUESTION)


def openai_agents_result(answer: str = ANSWER, fail: bool = False, structured: bool = False,
                         error_text: Any = None) -> Any:
    """A real OpenAI Agents SDK run, its model scripted (no network, no tracing); `structured`: the
    tool returns a dict (the SDK sends the model its Python repr); `error_text`: a failure_error_function."""
    from agents import Agent, Model, ModelResponse, Runner, Usage, function_tool, set_tracing_disabled
    from openai.types.responses import ResponseFunctionToolCall, ResponseOutputMessage, ResponseOutputText

    set_tracing_disabled(True)

    @function_tool(**({} if error_text is None else {"failure_error_function": error_text}))
    def company_facts(name: str) -> Any:
        """Facts about a company."""
        if fail:
            raise RuntimeError("the company database is down")
        return dict(FACTS) if structured else json.dumps(FACTS)

    class Scripted(Model):
        def __init__(self) -> None:
            self.turns = 0

        async def get_response(self, *args: Any, **kwargs: Any) -> ModelResponse:
            self.turns += 1
            if self.turns == 1:
                out: list[Any] = [ResponseFunctionToolCall(type="function_call", call_id="call_1", id="fc_1",
                                                           name="company_facts", arguments=json.dumps(ARGS))]
            else:
                out = [ResponseOutputMessage(type="message", id="msg_1", role="assistant", status="completed",
                                             content=[ResponseOutputText(type="output_text", text=answer,
                                                                         annotations=[])])]
            return ModelResponse(output=out, usage=Usage(), response_id=None)

        def stream_response(self, *args: Any, **kwargs: Any) -> Any:
            raise NotImplementedError

    return Runner.run_sync(Agent(name="facts", model=Scripted(), tools=[company_facts]), QUESTION)


def genai_contents(answer: str = ANSWER, response: Any = None) -> list[Any]:
    """A Gemini function-calling loop's contents, as google-genai's own `types.Content` objects."""
    from google.genai import types

    return [types.Content(role="user", parts=[types.Part(text=QUESTION)]),
            types.Content(role="model", parts=[types.Part(function_call=types.FunctionCall(
                name="company_facts", args=dict(ARGS)))]),
            types.Content(role="user", parts=[types.Part(function_response=types.FunctionResponse(
                name="company_facts", response={"result": dict(FACTS)} if response is None else response))]),
            types.Content(role="model", parts=[types.Part(text=answer)])]


def genai_rest(answer: str = ANSWER) -> list[dict[str, Any]]:
    """The same contents as the REST API's JSON (camelCase), as a user writes them by hand."""
    return [{"role": "user", "parts": [{"text": QUESTION}]},
            {"role": "model", "parts": [{"functionCall": {"name": "company_facts", "args": ARGS}}]},
            {"role": "user", "parts": [{"functionResponse": {"name": "company_facts", "response": {"output": FACTS}}}]},
            {"role": "model", "parts": [{"text": answer}]}]


def genai_response(answer: str = ANSWER, history: bool = True) -> Any:
    """What `client.models.generate_content(..., tools=[company_facts])` returns with automatic
    function calling: the turns before in `automatic_function_calling_history`, the answer in
    `candidates[0].content`."""
    from google.genai import types

    *before, final = genai_contents(answer)
    return types.GenerateContentResponse(candidates=[types.Candidate(content=final, finish_reason="STOP")],
                                         automatic_function_calling_history=before if history else None)


def langgraph_app(answer: str = ANSWER, fail: bool = False) -> Any:
    """A real LangGraph agent: StateGraph(MessagesState), a scripted chat model (langchain-core's
    GenericFakeChatModel), the prebuilt ToolNode and tools_condition, an in-memory checkpointer."""
    from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
    from langchain_core.messages import AIMessage
    from langchain_core.tools import tool
    from langgraph.checkpoint.memory import InMemorySaver
    from langgraph.graph import START, MessagesState, StateGraph
    from langgraph.prebuilt import ToolNode, tools_condition

    @tool
    def company_facts(name: str) -> dict[str, Any]:
        """Facts about a company."""
        if fail:
            raise ValueError("the company database is down")
        return dict(FACTS)

    model = GenericFakeChatModel(messages=iter([
        AIMessage(content="", tool_calls=[{"name": "company_facts", "args": dict(ARGS), "id": "call_1"}]),
        AIMessage(answer)]))

    def agent(state: MessagesState) -> dict[str, Any]:
        return {"messages": [model.invoke(state["messages"])]}

    graph = StateGraph(MessagesState)
    graph.add_node("agent", agent)
    graph.add_node("tools", ToolNode([company_facts], handle_tool_errors=True))
    graph.add_edge(START, "agent")
    graph.add_conditional_edges("agent", tools_condition)
    graph.add_edge("tools", "agent")
    return graph.compile(checkpointer=InMemorySaver())


def langgraph_run(answer: str = ANSWER, stream_mode: Any = None, fail: bool = False) -> Any:
    """The graph run on QUESTION: its final state snapshot, or the list of its stream's chunks."""
    app = langgraph_app(answer, fail)
    config = {"configurable": {"thread_id": "1"}}
    given = {"messages": [("user", QUESTION)]}
    if stream_mode is None:
        app.invoke(given, config)
        return app.get_state(config)
    return list(app.stream(given, config, stream_mode=stream_mode))
