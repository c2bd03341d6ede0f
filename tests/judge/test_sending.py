"""The sending chain (transports wrapped in transports, made on the first uncached call) and a
judge built whole, in one expression."""

from __future__ import annotations

from pathlib import Path

import pytest
from cases import TESLA

from pytest_llmfaith import BudgetExceeded, Hallucination, Judge, JudgeCache, JudgeConfig
from pytest_llmfaith.judge.budget import Budget, Budgeted
from pytest_llmfaith.judge.stores import Stores
from pytest_llmfaith.judge.transport import Completion, CompletionRequest, LiteLLMTransport, Transport, in_process

OUTPUT = "Tesla was founded in 2003. Elon Musk started the company."
REQUEST = CompletionRequest(step="claims", messages=[{"role": "user", "content": "hi"}], temperature=0.0)


class Answers:
    """A transport that answers "ok" at $0.01."""

    def __init__(self) -> None:
        self.sent: list[CompletionRequest] = []
        self.closed = False

    def complete(self, request: CompletionRequest) -> Completion:
        self.sent.append(request)
        return Completion(text="ok", usage={"prompt_tokens": 1, "completion_tokens": 1}, cost=0.01)

    def close(self) -> None:
        self.closed = True


def test_a_budgeted_transport_refuses_what_the_budget_has_no_room_for(tmp_path: Path) -> None:
    inner, budget = Answers(), Budget(tmp_path / "run", max_calls=2, max_cost=None)
    budgeted = Budgeted(inner, budget, "openai/m")
    assert budgeted.complete(REQUEST).text == "ok"
    assert budgeted.complete(REQUEST).text == "ok"
    with pytest.raises(BudgetExceeded, match="2 of --llm-max-judge-calls=2"):
        budgeted.complete(REQUEST)
    assert len(inner.sent) == 2  # refused before it left
    assert budget.summary() == "llmfaith budget: spent 2 of 2 new judge calls"
    budgeted.close()
    assert inner.closed
    budget.close()


def test_a_budgeted_transport_settles_with_the_price_the_reply_had(tmp_path: Path) -> None:
    budget = Budget(tmp_path / "run", max_calls=None, max_cost=1.0)
    Budgeted(Answers(), budget, "openai/m").complete(REQUEST)
    assert budget.summary().startswith("llmfaith budget: spent $0.0100 of $1")
    budget.close()


class Offline:
    """An offline port that hands out `transport` and notes what it was asked with."""

    def __init__(self, transport: Transport) -> None:
        self.made = transport
        self.asked: list[tuple[JudgeConfig, object]] = []

    def identity(self, model: str, replay: bool) -> str:
        return "sha256-of-the-weights"

    def replay_hint(self, key_model: str) -> str:
        return ""

    def transport(self, config: JudgeConfig, announce: object) -> Transport:
        self.asked.append((config, announce))
        return self.made


def test_a_local_model_is_sent_through_the_offline_port_s_transport() -> None:
    config, offline = JudgeConfig(model="local"), Offline(Answers())

    def announce(model: str, seconds: float | None) -> None:
        pass

    assert in_process(config, offline, announce) is offline.made
    assert offline.asked == [(config, announce)]
    assert isinstance(in_process(JudgeConfig(model="openai/m"), offline, announce), LiteLLMTransport)
    assert len(offline.asked) == 1  # a hosted model is litellm's, here


def test_a_judge_makes_its_chain_on_the_first_uncached_call_only(tesla_fake, tmp_path: Path) -> None:
    made: list[Transport] = []

    def send() -> Transport:
        made.append(Budgeted(tesla_fake, Budget(tmp_path / "run", 10, None), "openai/test-judge"))
        return made[-1]

    def judge() -> Judge:
        return Judge(JudgeConfig(model="openai/test-judge"), stores=Stores(JudgeCache(tmp_path / "c", "use")),
                     send=send)

    first = judge()
    assert Hallucination(first).run(OUTPUT, TESLA).score == 0.5
    assert len(made) == 1  # two calls, one chain
    again = judge()
    assert [c.cached for c in Hallucination(again).run(OUTPUT, TESLA).judge_calls] == [True, True]
    assert len(made) == 1  # a cached run makes none
    first.close()
    assert tesla_fake.closed


def test_a_judge_takes_each_part_once(tmp_path: Path) -> None:
    cache, config = JudgeCache(None, "off"), JudgeConfig(model="openai/m")
    with pytest.raises(TypeError, match="not both"):
        Judge(config, cache, stores=Stores(cache))
    with pytest.raises(TypeError, match="not both"):
        Judge(config, transport=Answers(), send=Answers)
    assert Judge(config, cache).cache is cache and Judge(config).cache.mode == "off"
