"""Every way the judge can misbehave ends in a valid score or a clear JudgeError, never a pass."""

from __future__ import annotations

import os

import pytest
from cases import TESLA

from pytest_llmfaith import Faithfulness, Hallucination, JudgeError
from pytest_llmfaith.judge.asking import extract_json

OUTPUT = "Tesla was founded in 2003. Elon Musk started the company."


@pytest.fixture
def tesla(server):
    server.facts(supported=["Tesla was founded in 2003."], contradicted=["Elon Musk started the company."])
    return server


def test_rate_limit_is_retried_after_the_servers_delay(tesla, make_judge):
    tesla.fail("429", step="claims", times=2, seconds=0.05)
    result = Hallucination(make_judge(retries=3)).run(OUTPUT, TESLA)
    assert result.score == 0.5
    assert len(tesla.calls("claims")) == 3


def test_rate_limit_exhausted_is_a_clear_error(tesla, make_judge):
    tesla.fail("429", times=99, seconds=0.01)
    with pytest.raises(JudgeError) as err:
        Hallucination(make_judge(retries=2)).run(OUTPUT, TESLA)
    message = str(err.value)
    assert "openai/test-judge" in message and "'claims'" in message and "3 attempt(s)" in message
    assert "RateLimitError" in message and "Fix:" in message
    assert len(tesla.calls()) == 3  # litellm's own client retries are off: we count every attempt


def test_server_errors_are_retried(tesla, make_judge):
    tesla.fail("500", step="verdicts", times=1)
    assert Hallucination(make_judge()).run(OUTPUT, TESLA).score == 0.5
    assert len(tesla.calls("verdicts")) == 2


def test_timeout_is_an_error_naming_the_fix(tesla, make_judge):
    tesla.fail("delay", times=99, seconds=1.5)
    with pytest.raises(JudgeError, match=r"Timeout.*--llm-judge-timeout"):
        Hallucination(make_judge(timeout=0.3, retries=1)).run(OUTPUT, TESLA)


def test_dropped_connection_is_retried_then_reported(tesla, make_judge):
    tesla.fail("drop", times=1)
    assert Hallucination(make_judge()).run(OUTPUT, TESLA).score == 0.5
    tesla.fail("drop", times=99)
    with pytest.raises(JudgeError, match="Connection error.*--llm-judge-api-base"):
        Hallucination(make_judge(retries=1)).run("Something else entirely.", TESLA)


def test_unreachable_judge_is_an_error(make_judge):
    with pytest.raises(JudgeError, match="--llm-judge-api-base"):
        Hallucination(make_judge(api_base="http://127.0.0.1:9/v1", retries=0)).run(OUTPUT, TESLA)


@pytest.mark.parametrize("kind", ["malformed", "nested", "wrong_schema", "empty_content", "empty_body"])
def test_bad_answer_is_reasked_then_scored(tesla, make_judge, kind):
    tesla.fail(kind, step="claims", times=1)
    result = Hallucination(make_judge()).run(OUTPUT, TESLA)
    assert result.score == 0.5
    assert result.judge_calls[0].attempts == 2 or kind == "empty_body"


@pytest.mark.parametrize("kind", ["malformed", "nested", "wrong_schema", "empty_content"])
def test_persistently_bad_answer_is_a_clear_error(tesla, make_judge, kind):
    tesla.fail(kind, step="claims", times=99)
    with pytest.raises(JudgeError) as err:
        Hallucination(make_judge(reasks=2)).run(OUTPUT, TESLA)
    message = str(err.value)
    assert "openai/test-judge" in message and "'claims'" in message and "after 3 attempts" in message
    assert "Last answer:" in message
    assert len(tesla.calls("claims")) == 3


def test_reask_tells_the_judge_what_was_wrong(tesla, make_judge):
    tesla.fail("wrong_count", step="verdicts", times=1)
    result = Faithfulness(make_judge()).run(OUTPUT, TESLA)
    assert result.score == 0.5 and result.judge_calls[1].attempts == 2
    reask = tesla.calls("verdicts")[1]["body"]["messages"]
    assert "expected exactly 2 verdicts" in reask[-1]["content"]


def test_wrong_verdict_count_is_never_scored(tesla, make_judge):
    tesla.fail("wrong_count", step="verdicts", times=99)
    with pytest.raises(JudgeError, match="expected exactly 2 verdicts"):
        Faithfulness(make_judge()).run(OUTPUT, TESLA)


def test_fenced_answer_with_prose_is_accepted_first_time(tesla, make_judge):
    tesla.fail("fenced", times=2)
    result = Faithfulness(make_judge()).run(OUTPUT, TESLA)
    assert result.score == 0.5 and all(c.attempts == 1 for c in result.judge_calls)


def test_long_bad_answer_is_truncated_in_the_error(server, make_judge):
    server.script.reason_text = "x" * 5000
    server.facts(labels={})
    server.fail("malformed", times=99, step="claims")
    with pytest.raises(JudgeError) as err:
        Faithfulness(make_judge(reasks=0)).run("A.", ["ctx"])
    assert len(str(err.value)) < 1200


def test_api_key_is_sent_but_never_leaks(server, make_judge, monkeypatch):
    secret = "sk-test-SECRET-0123456789abcdef"
    monkeypatch.setenv("MY_JUDGE_KEY", secret)
    server.facts(supported=["A."])
    result = Faithfulness(make_judge(api_key_env="MY_JUDGE_KEY")).run("A.", ["A."])
    assert server.calls()[0]["headers"]["authorization"] == f"Bearer {secret}"
    assert secret not in result.model_dump_json()
    server.fail("500", times=99)
    with pytest.raises(JudgeError) as err:
        Faithfulness(make_judge(api_key_env="MY_JUDGE_KEY", retries=0)).run("B.", ["B."])
    assert secret not in str(err.value) and secret not in repr(err.value)


def test_missing_key_variable_is_a_clear_error(make_judge, monkeypatch):
    monkeypatch.delenv("NOT_SET_KEY", raising=False)
    with pytest.raises(JudgeError, match="NOT_SET_KEY is not set"):
        Faithfulness(make_judge(api_key_env="NOT_SET_KEY")).run("A.", ["A."])


@pytest.mark.parametrize(("text", "expected"), [
    ('{"a": 1}', {"a": 1}),
    ('```json\n{"a": 1}\n```', {"a": 1}),
    ('Sure, here it is: {"a": [1, 2]} -- done', {"a": [1, 2]}),
    # an output's own code fences quoted inside the answer's strings are no wrapping
    ('{"claims": ["```json", "x = 1", "```"]}', {"claims": ["```json", "x = 1", "```"]}),
    ('```json\n{"claims": ["```python", "```"]}\n```', {"claims": ["```python", "```"]}),
    ('Here:\n```\n{"a": "```"}\n```', {"a": "```"}),
])
def test_extract_json(text, expected):
    assert extract_json(text) == expected


def test_extract_json_rejects_prose():
    with pytest.raises(ValueError):
        extract_json("no json here")


def test_a_judge_on_this_machine_is_reached_past_http_proxy_settings(server):
    """A fresh process (litellm caches HTTP clients) with a dead proxy in the environment."""
    import subprocess
    import sys

    server.facts(supported=["A is true."])
    script = ("from pytest_llmfaith import Faithfulness, Judge, JudgeConfig; import os, sys; "
              "r = Faithfulness(Judge(JudgeConfig(model='openai/test-judge', api_base=sys.argv[1], "
              "retries=0))).run('A is true.', ['A is true.']); print(r.score, os.environ['NO_PROXY'])")
    env = {k: v for k, v in os.environ.items() if "proxy" not in k.lower()}
    env.update(HTTP_PROXY="http://127.0.0.1:9", HTTPS_PROXY="http://127.0.0.1:9", ALL_PROXY="http://127.0.0.1:9")
    done = subprocess.run([sys.executable, "-c", script, server.url], env=env, capture_output=True,
                          text=True, timeout=120)
    assert done.stdout.split() == ["1.0", "127.0.0.1"], done.stderr[-2000:]
