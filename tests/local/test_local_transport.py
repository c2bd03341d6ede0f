"""The offline judge's transport (local/local_transport.py) against the server in this process,
with a scripted engine: what it sends (what litellm's openai path sent), how it reads the answer,
and what it says when the server refuses, fails or is slow. Its server's death:
test_server_lifecycle.py."""

from __future__ import annotations

import math
import os
import time
from pathlib import Path
from typing import Any

import pytest

from pytest_llmfaith.errors import JudgeError
from pytest_llmfaith.judge.backend import CompletionRequest, JudgeConfig, chat_body
from pytest_llmfaith.local.launcher import ServerState
from pytest_llmfaith.local.local_transport import SERVER_MODEL, LocalTransport
from pytest_llmfaith.local.server import OfflineServer
from pytest_llmfaith.processes.children import started_at
from pytest_llmfaith.processes.service import Hold

MESSAGES = [{"role": "system", "content": "judge"}, {"role": "user", "content": "claim \ud800"}]
LABEL = CompletionRequest(step="verdicts", messages=MESSAGES, temperature=0.0, top_logprobs=5, max_tokens=64)
CLAIMS = CompletionRequest(step="claims", messages=MESSAGES, temperature=0.7, seed=3, max_tokens=64,
                           json_schema={"type": "object"}, schema_name="ClaimsAnswer")


class Engine:
    """Answers as llama_cpp does; `fail`, `delay` and `logprobs` script it."""

    def __init__(self) -> None:
        self.calls: list[dict[str, Any]] = []
        self.fail: Exception | None = None
        self.delay = 0.0
        self.logprobs = True

    def __call__(self, kwargs: dict[str, Any]) -> dict[str, Any]:
        self.calls.append(kwargs)
        time.sleep(self.delay)
        if self.fail is not None:
            raise self.fail
        top = [{"token": "yes", "logprob": math.log(0.8)}, {"token": "no", "logprob": math.log(0.2)}]
        choice: dict[str, Any] = {"index": 0, "finish_reason": "length",
                                  "message": {"role": "assistant", "content": "yes"}}
        if kwargs.get("logprobs") and self.logprobs:
            choice["logprobs"] = {"content": [{**top[0], "top_logprobs": top}]}
        return {"object": "chat.completion", "choices": [choice],
                "usage": {"prompt_tokens": 9, "completion_tokens": 1, "total_tokens": 10, "prompt_tokens_read": 4}}


@pytest.fixture
def engine() -> Engine:
    return Engine()


def transport(server: OfflineServer, **config: Any) -> LocalTransport:
    """A transport whose server is the one in this process (found, never started)."""
    way = LocalTransport(JudgeConfig(model="local", backoff_s=0.01, **config), None)
    state = ServerState(pid=os.getpid(), started=started_at(os.getpid()), port=server.port, sha256="ab" * 32,
                        name="m", model_path=Path("m.gguf"))
    way.hold = Hold(lambda: state, lambda pid: Path("no.log"))
    return way


def test_it_sends_what_litellm_sent_for_the_offline_judge() -> None:
    """One body for every transport (litellm adds its own keys to it): the offline server's enforces the schema."""
    assert chat_body(LABEL, SERVER_MODEL) == {"model": "local", "temperature": 0.0, "messages": [
        MESSAGES[0], {"role": "user", "content": "claim \ufffd"}], "max_tokens": 1, "logprobs": True, "top_logprobs": 5}
    assert chat_body(CLAIMS, SERVER_MODEL)["response_format"] == {"type": "json_schema", "json_schema": {
        "name": "ClaimsAnswer", "schema": {"type": "object"}}}
    assert chat_body(CLAIMS, SERVER_MODEL)["seed"] == 3 and chat_body(CLAIMS, SERVER_MODEL)["max_tokens"] == 64
    assert chat_body(CLAIMS, "openai/m", enforce_schema=False)["response_format"] == {"type": "json_object"}


def test_it_reads_the_first_tokens_alternatives_least_likely_first_and_the_usage(
        offline_server: OfflineServer, engine: Engine) -> None:
    answer = transport(offline_server).complete(LABEL)
    assert list(answer.top_logprobs or {}) == ["no", "yes"] and math.isclose(answer.top_logprobs["yes"], math.log(0.8))
    assert answer.usage == {"prompt_tokens": 9, "completion_tokens": 1} and answer.cost is None
    assert (answer.text, answer.finish_reason) == ("yes", "length")
    assert engine.calls[0]["max_tokens"] == 1 and engine.calls[0]["top_logprobs"] == 5
    engine.logprobs = False
    with pytest.raises(JudgeError, match="returned no logprobs at step 'verdicts'"):
        transport(offline_server).complete(LABEL)


def test_a_refused_request_fails_at_once_and_a_failed_one_after_its_retries(
        offline_server: OfflineServer, engine: Engine) -> None:
    engine.fail = ValueError("Requested tokens (9000) exceed context window of 8192")
    with pytest.raises(JudgeError) as refused:
        transport(offline_server, retries=2).complete(CLAIMS)
    assert str(refused.value).startswith(
        "llmfaith: judge local failed at step 'claims' after 1 attempt(s): BadRequestError: Requested tokens (9000) "
        "exceed context window of 8192. Fix: the offline judge server refused the request")
    assert refused.value.kind == "BadRequestError" and len(engine.calls) == 1
    engine.fail = RuntimeError("boom")
    with pytest.raises(JudgeError, match=r"after 3 attempt\(s\): InternalServerError: generation failed: "
                                         r"RuntimeError: boom\. Fix: the judge server failed"):
        transport(offline_server, retries=2).complete(CLAIMS)
    assert len(engine.calls) == 4


def test_a_slow_answer_is_a_timeout(offline_server: OfflineServer, engine: Engine) -> None:
    engine.delay = 1.0
    with pytest.raises(JudgeError, match=r"after 1 attempt\(s\): Timeout: the offline judge server gave no answer "
                                         r"within 0.3 s\. Fix: raise --llm-judge-timeout"):
        transport(offline_server, retries=0, timeout=0.3).complete(CLAIMS)
