"""Secrets never leave the process: a judge that echoes the Authorization header in a 200 answer's
verdict reasons, and app outputs that hold a key or a password, are redacted from the cache, the
recordings, the JSON report, JUnit and the terminal; the cache keys do not change (replay hits)."""

from __future__ import annotations

import json
import shutil

from plugin_helpers import judge_args

KEY = "sk-live-" + "Q7x9" * 6  # set by a fixture of the suite, after the run started
PASSWORD = "correct-horse-battery"  # any *_PASSWORD variable long enough to be a secret
SUITE = """
import os
import pytest
from pytest_llmfaith import assert_faithful

@pytest.fixture(autouse=True)
def judge_key(monkeypatch):
    monkeypatch.setenv("JUDGE_SECRET_KEY", "sk-live-" + "Q7x9" * 6)

def test_upstream_error():
    output = f"The upstream said: invalid key {os.environ['JUDGE_SECRET_KEY']}. Tesla was founded in 2003."
    assert_faithful(output, ["Tesla was founded in 2003."], min_score=0.9)

def test_password():
    assert_faithful(f"The password is {os.environ['UPSTREAM_PASSWORD']}.", ["Tesla was founded in 2003."],
                    min_score=0.0)
"""


def written(root) -> bytes:
    return b"".join(p.read_bytes() for p in root.rglob("*") if p.is_file() and p.suffix != ".py")


def test_echoed_keys_and_secrets_in_outputs_are_redacted_everywhere(pytester, server, monkeypatch) -> None:
    monkeypatch.setenv("UPSTREAM_PASSWORD", PASSWORD)
    server.facts(supported=["Tesla was founded in 2003."])
    server.fail("echo_key", times=100)
    pytester.makepyfile(test_a=SUITE)
    args = [*judge_args(server, "use"), "--llm-judge-api-key-env=JUDGE_SECRET_KEY", "--llm-recordings=recorded",
            "--llm-report=report.json", "--junitxml=junit.xml", "-v", "-rA"]
    result = pytester.runpytest(*args)
    result.assert_outcomes(passed=1, failed=1)
    assert all(c["headers"]["authorization"] == f"Bearer {KEY}" for c in server.calls())
    assert not any(secret in json.dumps(c["body"]) for c in server.calls() for secret in (KEY, PASSWORD))
    stored = written(pytester.path)
    shown = (result.stdout.str() + result.stderr.str()).encode()
    for secret in (KEY, PASSWORD):
        assert secret.encode() not in stored and secret.encode() not in shown, secret
    recording = (pytester.path / "recorded" / "test_a.json").read_text()
    assert "(asked with Bearer ***)" in recording and "invalid key ***." in recording  # redacted, not dropped
    assert "The password is ***." in recording
    report = json.loads((pytester.path / "report.json").read_text())
    assert any("asked with Bearer ***" in json.dumps(r) for r in report["results"])
    assert "invalid key ***" in result.stdout.str()  # the failure message, redacted

    shutil.rmtree(pytester.path / ".llmfaith_cache")  # the keys of the requests are the same: replay hits
    server.requests.clear()
    replayed = pytester.runpytest(*judge_args(server, "replay"), "--llm-judge-api-key-env=JUDGE_SECRET_KEY",
                                  "--llm-recordings=recorded")
    replayed.assert_outcomes(passed=1, failed=1)
    assert server.requests == []
