"""The transport seam: `Judge` keeps the cache, re-asks and validation; a transport only sends.

Every request still goes over real HTTP to the loopback judge through litellm: the second transport
here relays to `LiteLLMTransport` and notes what the judge asked it to send.
"""

from __future__ import annotations

import json

from cases import TESLA

from pytest_llmfaith import Completion, CompletionRequest, Hallucination, Judge, JudgeCache, JudgeConfig
from pytest_llmfaith.judge.transport import LiteLLMTransport

OUTPUT = "Tesla was founded in 2003. Elon Musk started the company."


class Relay:
    """A second transport: LiteLLMTransport underneath, every request noted."""

    def __init__(self, config: JudgeConfig) -> None:
        self.inner = LiteLLMTransport(config)
        self.sent: list[CompletionRequest] = []
        self.closed = False

    def complete(self, request: CompletionRequest) -> Completion:
        self.sent.append(request)
        return self.inner.complete(request)

    def close(self) -> None:
        self.closed = True


def test_judge_sends_through_the_transport_it_is_given(server, tmp_path):
    server.facts(supported=["Tesla was founded in 2003."], contradicted=["Elon Musk started the company."])
    config = JudgeConfig(model="openai/test-judge", api_base=server.url, seed=7)
    relay = Relay(config)
    judge = Judge(config, JudgeCache(tmp_path / "cache", "use"), transport=relay)

    assert Hallucination(judge).run(OUTPUT, TESLA).score == 0.5
    assert [r.step for r in relay.sent] == ["claims", "verdicts"]
    assert relay.sent[0].json_schema is not None and relay.sent[0].seed == 7
    assert len(server.requests) == 2

    assert Hallucination(judge).run(OUTPUT, TESLA).score == 0.5  # the cache is the judge's, not the transport's
    assert len(relay.sent) == 2
    judge.close()
    assert relay.closed


def test_judge_reasks_through_the_transport(server, tmp_path):
    server.facts(supported=["Tesla was founded in 2003."], contradicted=["Elon Musk started the company."])
    server.fail("malformed", step="claims", times=1)
    config = JudgeConfig(model="openai/test-judge", api_base=server.url)
    relay = Relay(config)
    judge = Judge(config, JudgeCache(tmp_path / "cache", "off"), transport=relay)

    assert Hallucination(judge).run(OUTPUT, TESLA).score == 0.5
    first, again = relay.sent[0], relay.sent[1]
    assert (first.step, again.step) == ("claims", "claims")
    assert again.messages[-1]["content"].startswith("That answer was invalid")


def test_litellm_transport_returns_text_and_usage(server):
    transport = LiteLLMTransport(JudgeConfig(model="openai/test-judge", api_base=server.url))
    messages = [{"role": "system", "content": "judge"},
                {"role": "user",
                 "content": "Split the OUTPUT into atomic claims.\n<output>\nTesla was founded in 2003.\n</output>"}]
    reply = transport.complete(CompletionRequest(step="claims", messages=messages, temperature=0.0,
                                                 json_schema={"type": "object"}, schema_name="ClaimsAnswer"))
    assert json.loads(reply.text) == {"claims": ["Tesla was founded in 2003."]}
    assert reply.usage["prompt_tokens"] > 0 and reply.top_logprobs is None


def test_the_key_sent_is_the_one_set_at_the_call_not_at_the_first(server, monkeypatch):
    """litellm reads a provider's variables at each call; the configured key variable is read
    likewise, so a key that a fixture sets (or changes) after the first call is the one sent."""
    transport = LiteLLMTransport(JudgeConfig(model="openai/test-judge", api_base=server.url,
                                             api_key_env="JUDGE_SECRET_KEY", retries=0))
    messages = [{"role": "system", "content": "judge"},
                {"role": "user",
                 "content": "Split the OUTPUT into atomic claims.\n<output>\nTesla was founded in 2003.\n</output>"}]
    keys = ["sk-first-test-0123456789", "sk-second-test-9876543210"]
    for key in keys:
        monkeypatch.setenv("JUDGE_SECRET_KEY", key)
        transport.complete(CompletionRequest(step="claims", messages=messages, temperature=0.0))
    assert [r["headers"]["authorization"] for r in server.requests] == [f"Bearer {key}" for key in keys]
