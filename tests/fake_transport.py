"""A judge in process: a `Transport` that answers from a script, for scorer and judge unit tests.

    fake = FakeTransport()
    fake.facts(supported=["Tesla was founded in 2003."], claims={output: [...]})
    judge = Judge(config, cache, transport=fake)

It answers by the step the judge names (`CompletionRequest.step`) and, for one-token label
questions (`top_logprobs`), with P(yes) per claim; the claims and the output are read from the
prompts' data tags, never from their wording. The script is the HTTP fake judge's
(judge_server.ScriptedJudge: `facts`, `fail`, `calls`), so a test moves between the two by its
fixture. Faults: every answer fault of the HTTP judge (malformed JSON, wrong_count, lies, ...)
plus `judge_error`, a JudgeError raised by the transport. What needs a wire (HTTP statuses,
dropped connections, litellm's error mapping) stays with tests/judge_server.py.
"""

from __future__ import annotations

import time

from judge_server import FAULTS, Fault, ScriptedJudge

from pytest_llmfaith.errors import JudgeError
from pytest_llmfaith.judge.backend import Completion, CompletionRequest

WIRE_FAULTS = frozenset({"delay", "429", "500", "401", "error_200", "no_choices", "empty_body", "drop",
                         "no_logprobs", "echo_key"})
IN_PROCESS_FAULTS = (*(f for f in FAULTS if f not in WIRE_FAULTS), "judge_error")


class FakeTransport(ScriptedJudge):
    """The scripted judge behind the `Transport` protocol: no socket, no litellm."""

    def __init__(self) -> None:
        super().__init__()
        self.closed = False

    def fail(self, kind: str, step: str | None = None, times: int = 1, seconds: float = 0.0,
             message: str = "", text: str = "") -> None:
        assert kind in IN_PROCESS_FAULTS, f"{kind}: a fault of the HTTP judge (tests/judge_server.py) only"
        if kind == "judge_error":  # not a fault of the HTTP judge: queued past its check
            self.faults.append(Fault(kind, step, times, seconds, message, text))
        else:
            super().fail(kind, step, times, seconds, message, text)

    def complete(self, request: CompletionRequest) -> Completion:
        self.requests.append({"step": request.step, "body": request.model_dump(), "t": time.monotonic()})
        fault = self.take_fault(request.step)
        if fault is not None and fault.kind == "judge_error":
            raise JudgeError(fault.message or f"llmfaith: scripted judge failure at step '{request.step}'. "
                             "Fix: none, the test asked for it.")
        if request.top_logprobs:
            return Completion(text="", usage={"prompt_tokens": 100, "completion_tokens": 1},
                              top_logprobs=self.next_token(request.messages), finish_reason="length")
        answer = self.answer(request.step, request.messages, sample=request.seed or 0, schema=request.json_schema)
        text = self.content(answer, fault)
        prompt_chars = self.script.prompt_tokens * 4 or sum(len(m.get("content") or "") for m in request.messages)
        return Completion(text=text, usage={"prompt_tokens": prompt_chars // 4, "completion_tokens": len(text) // 4},
                          finish_reason="length" if fault is not None and fault.kind == "length" else "stop")

    def close(self) -> None:
        self.closed = True
