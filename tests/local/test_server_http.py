"""The loopback server's HTTP contract, with a fake engine: no runtime or weights needed (its lifecycle,
leases and idle exit are the kit's: tests/processes/)."""

from __future__ import annotations

import json
import os
import threading
import urllib.error
import urllib.request
from typing import Any

import pytest

from pytest_llmfaith.local.server import OfflineServer

VERDICT_SCHEMA = {
    "type": "object",
    "properties": {"verdict": {"enum": ["yes", "no", "unsure"]}, "reason": {"type": "string"}},
    "required": ["verdict", "reason"],
}


class FakeEngine:
    """Records the llama_cpp kwargs it gets; raises `fail` if set."""

    def __init__(self) -> None:
        self.calls: list[dict[str, Any]] = []
        self.fail: Exception | None = None

    def __call__(self, kwargs: dict[str, Any]) -> dict[str, Any]:
        self.calls.append(kwargs)
        if self.fail is not None:
            raise self.fail
        return {
            "id": "chatcmpl-1", "object": "chat.completion", "created": 1, "model": "gguf",
            "choices": [{"index": 0, "finish_reason": "stop",
                         "message": {"role": "assistant", "content": '{"verdict": "yes", "reason": "r"}'}}],
            "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
        }


NO_PROXY = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def serve(server: OfflineServer) -> threading.Thread:
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    return thread


@pytest.fixture
def engine() -> FakeEngine:
    return FakeEngine()


def call(server: OfflineServer, path: str, body: Any = None, raw: bytes | None = None) -> tuple[int, dict]:
    data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
    request = urllib.request.Request(f"http://127.0.0.1:{server.port}{path}", data=data,
                                     method="POST" if data is not None else "GET")
    try:
        with NO_PROXY.open(request, timeout=10) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def chat_body(**extra: Any) -> dict[str, Any]:
    return {"model": "local", "messages": [{"role": "system", "content": "judge"},
                                           {"role": "user", "content": [{"type": "text", "text": "claim"}]}],
            **extra}


def test_health_and_models(offline_server: OfflineServer) -> None:
    assert call(offline_server, "/health") == (200, {"status": "ok", "pid": os.getpid(),
                                             "model": "fake-model", "sha256": "ab" * 32,
                                             "runtime": ""})
    status, models = call(offline_server, "/v1/models")
    assert status == 200 and [m["id"] for m in models["data"]] == ["fake-model"]
    assert call(offline_server, "/nope")[0] == 404


def test_json_schema_becomes_a_grammar_constrained_json_object(
    offline_server: OfflineServer, engine: FakeEngine
) -> None:
    body = chat_body(temperature=0, seed=7, max_tokens=64, response_format={
        "type": "json_schema", "json_schema": {"name": "v", "schema": VERDICT_SCHEMA, "strict": True}})
    status, answer = call(offline_server, "/v1/chat/completions", body)
    assert status == 200
    assert answer["object"] == "chat.completion" and answer["model"] == "local"
    assert answer["usage"] == {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}
    assert engine.calls == [{
        "messages": [{"role": "system", "content": "judge"}, {"role": "user", "content": "claim"}],
        "temperature": 0.0, "seed": 7, "max_tokens": 64,
        "response_format": {"type": "json_object", "schema": VERDICT_SCHEMA},
    }]


def test_json_object_and_text_formats(offline_server: OfflineServer, engine: FakeEngine) -> None:
    call(offline_server, "/v1/chat/completions", chat_body(response_format={"type": "json_object"}))
    call(offline_server, "/v1/chat/completions", chat_body(response_format={"type": "text"}))
    assert engine.calls[0]["response_format"] == {"type": "json_object"}
    assert "response_format" not in engine.calls[1]


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        (b"{not json", "invalid chat request"),
        (json.dumps({"messages": []}).encode(), "invalid chat request"),
        (json.dumps(chat_body(response_format={"type": "xml"})).encode(), "unsupported response_format"),
        (json.dumps(chat_body(response_format={"type": "json_schema"})).encode(), "json_schema.schema"),
        (json.dumps(chat_body(stream=True)).encode(), "streaming"),
    ],
)
def test_bad_requests_get_400(offline_server: OfflineServer, engine: FakeEngine, raw: bytes, message: str) -> None:
    status, answer = call(offline_server, "/v1/chat/completions", raw=raw)
    assert status == 400
    assert message in answer["error"]["message"]
    assert engine.calls == []


def test_engine_errors_are_answers_not_resets(offline_server: OfflineServer, engine: FakeEngine) -> None:
    engine.fail = ValueError("Requested tokens (9000) exceed context window of 8192")
    assert call(offline_server, "/v1/chat/completions", chat_body())[0] == 400
    engine.fail = RuntimeError("boom")
    status, answer = call(offline_server, "/v1/chat/completions", chat_body())
    assert status == 500 and "RuntimeError: boom" in answer["error"]["message"]


def test_shutdown_endpoint_stops_serving(engine: FakeEngine) -> None:
    srv = OfflineServer(engine, name="m", sha256="cd" * 32, idle_timeout=60)
    thread = serve(srv)
    assert call(srv, "/shutdown", raw=b"") == (200, {"status": "stopping"})
    thread.join(timeout=5)
    srv.server_close()
    assert not thread.is_alive()
