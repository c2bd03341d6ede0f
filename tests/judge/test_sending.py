"""The sending chain (transports wrapped in transports, made on the first uncached call) and a
judge built whole, in one expression."""

from __future__ import annotations

from pathlib import Path

import pytest
from cases import TESLA

from pytest_llmfaith import BudgetExceeded, ConfigError, Hallucination, Judge, JudgeCache, JudgeConfig
from pytest_llmfaith.judge.backend import HOSTED, Completion, CompletionRequest, Transport
from pytest_llmfaith.judge.budget import Budget, Budgeted, WithinBudget
from pytest_llmfaith.judge.stores import Stores
from pytest_llmfaith.judge.transport import HostedBackend, LiteLLMTransport

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


def test_each_model_gets_its_backend_and_a_local_one_never_litellm() -> None:
    from pytest_llmfaith.local.local_transport import LocalTransport, OfflineBackend
    from pytest_llmfaith.wiring import backend_for

    local, hosted = backend_for(JudgeConfig(model="local")), backend_for(JudgeConfig(model="openai/m"))
    assert isinstance(local, OfflineBackend) and isinstance(hosted, HostedBackend)
    assert local.identity(replay=True).startswith("local:")  # the weights' hash, without running them
    assert isinstance(local.transport(None), LocalTransport)
    assert hosted.identity(replay=False) == "openai/m" and isinstance(hosted.transport(None), LiteLLMTransport)
    assert isinstance(Judge(JudgeConfig(model="local")).backend, OfflineBackend)  # the public judge picks it


def test_a_core_judge_built_without_a_backend_names_the_offline_one_for_a_local_model() -> None:
    import importlib
    import re

    from pytest_llmfaith.judge.client import Judge as CoreJudge

    with pytest.raises(ConfigError, match="needs the offline judge's backend.*OfflineBackend") as refused:
        CoreJudge(JudgeConfig(model="local")).identity  # noqa: B018  # the property is the call
    for backend in ("OfflineBackend", "HostedBackend"):  # the fix names real ones
        named = re.search(rf"backend=(pytest_llmfaith\.[\w.]+)\.{backend}", str(refused.value))
        assert named and hasattr(importlib.import_module(named.group(1)), backend)


def test_what_differs_per_backend_is_said_by_the_backend(tmp_path: Path) -> None:
    """The core reads its backend's traits, never the model's name: the api base in the key, one
    question at a time, the default timeout and verdict mode, questions about a claim in turn."""
    from pytest_llmfaith.local.local_transport import OFFLINE
    from pytest_llmfaith.wiring import backend_for

    base = "http://127.0.0.1:8080/v1"
    local, hosted = (Judge(JudgeConfig(model=model, api_base=base)) for model in ("local:/x.gguf", "openai/m"))
    assert (local.traits, hosted.traits) == (OFFLINE, HOSTED)
    assert not local.traits.api_base_in_key and hosted.question("claims", [], None, "v1").api_base == base
    assert OFFLINE.one_at_a_time and OFFLINE.asks_in_turn and not (HOSTED.one_at_a_time or HOSTED.asks_in_turn)
    assert [t.request_timeout(JudgeConfig(model="m")) for t in (OFFLINE, HOSTED)] == [600.0, 60.0]
    assert OFFLINE.request_timeout(JudgeConfig(model="m", timeout=5)) == 5
    budgeted = WithinBudget(backend_for(JudgeConfig(model="local")), Budget(tmp_path / "run", 1, None), "local")
    assert budgeted.traits is OFFLINE
    for verdicts in ("all", "one", "label"):  # what the user asks wins over what auto means
        assert Judge(JudgeConfig(model="local", verdicts=verdicts)).verdict_mode == verdicts
    assert (local.verdict_mode, hosted.verdict_mode) == ("label", "all")


class Given:
    """A backend that hands out `transport` and counts how often it was asked for it."""

    traits = HOSTED

    def __init__(self, transport: Transport) -> None:
        self.given, self.made = transport, 0

    def identity(self, replay: bool) -> str:
        return "openai/test-judge"

    def replay_hint(self, key_model: str) -> str:
        return ""

    def transport(self, announce: object) -> Transport:
        self.made += 1
        return self.given


def test_a_judge_makes_its_chain_on_the_first_uncached_call_only(tesla_fake, tmp_path: Path) -> None:
    given = Given(tesla_fake)
    backend = WithinBudget(given, Budget(tmp_path / "run", 10, None), "openai/test-judge")

    def judge() -> Judge:
        return Judge(JudgeConfig(model="openai/test-judge"), stores=Stores(JudgeCache(tmp_path / "c", "use")),
                     backend=backend)

    first = judge()
    assert Hallucination(first).run(OUTPUT, TESLA).score == 0.5
    assert given.made == 1  # two calls, one chain
    again = judge()
    assert [c.cached for c in Hallucination(again).run(OUTPUT, TESLA).judge_calls] == [True, True]
    assert given.made == 1  # a cached run makes none
    first.close()
    assert tesla_fake.closed


def test_a_judge_takes_each_part_once(tmp_path: Path) -> None:
    cache, config = JudgeCache(None, "off"), JudgeConfig(model="openai/m")
    with pytest.raises(TypeError, match="not both"):
        Judge(config, cache, stores=Stores(cache))
    assert Judge(config, cache).cache is cache and Judge(config).cache.mode == "off"
