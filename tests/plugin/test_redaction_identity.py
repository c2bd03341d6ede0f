"""Redaction that keeps identity (issue 40.5): every credential of the labelled set is replaced, every
id and digest of it kept; the same value gets the same `[secret N]` in output, context and input,
different values different ones, so a judge tells a wrong token from the right one; the configured
key is found stripped, wrapped and split; a credential in a parametrize id reaches no recording; and
a SIGTERM'd run leaves no `llmfaith-run-*` folder behind (issue 40)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest
from plugin_helpers import judge_args
from text.secret_cases import KEPT, LEAKS

from pytest_llmfaith.errors import redact, redact_data
from pytest_llmfaith.text.secrets import PLACEHOLDERS

TOKEN_A = "sk-" + "proj-" + "Xb7nQ2rT9kLm4Vw1Zp8Hs3Jd6Fg0Ac5Ye"
TOKEN_B = "sk-" + "proj-" + "Rm2Kx8Tq4Wz6Lp1Vn9Hc3Jb7Fd0Sa5Ge"


@pytest.mark.parametrize(("text", "values"), LEAKS, ids=[t[:40] for t, _ in LEAKS])
def test_every_credential_of_the_labelled_set_is_replaced(text, values) -> None:
    redacted = redact(text)
    assert not [value for value in values if value in redacted], redacted
    assert PLACEHOLDERS.search(redacted)
    assert redact(redacted) == redacted  # a placeholder is no secret: redacting again changes nothing


@pytest.mark.parametrize("text", KEPT, ids=[t[:40] for t in KEPT])
def test_ids_digests_and_words_of_the_labelled_set_are_kept(text) -> None:
    """SRI hashes, SKUs, Bitcoin addresses, order ids, UUIDs, git SHAs: a judge compares them as written."""
    assert redact(text) == text


def test_the_same_value_gets_the_same_placeholder_in_output_context_and_input() -> None:
    output = f"Use {TOKEN_A}; it replaced {TOKEN_B}."
    context = [f"The current key is {TOKEN_B}.", f"The old key {TOKEN_A} was revoked."]
    question = f"Which key replaced {TOKEN_A}?"
    redacted = redact_data((output, context, question))
    assert redacted == ("Use [secret 1]; it replaced [secret 2].",
                        ["The current key is [secret 2].", "The old key [secret 1] was revoked."],
                        "Which key replaced [secret 1]?")
    assert redact_data((output, context, question)) == redacted  # deterministic: it enters cache keys


def test_a_wrong_value_is_told_from_the_right_one() -> None:
    """The output names token A, the context token B: different placeholders, so no false pass."""
    output, context, _ = redact_data((f"The key is {TOKEN_A}.", [f"The key is {TOKEN_B}."], None))
    assert output == "The key is [secret 1]." and context == ["The key is [secret 2]."]


def test_new_secrets_are_numbered_after_the_placeholders_the_data_holds() -> None:
    """An answer that quotes `[secret 1]` of the output and echoes another key: `[secret 2]`, not a second 1."""
    answer = {"reason": f"[secret 1] is not in the context (asked with Bearer {TOKEN_B})"}
    assert redact_data(answer) == {"reason": "[secret 1] is not in the context (asked with Bearer [secret 2])"}
    assert redact("The password is [secret 3].") == "The password is [secret 3]."


@pytest.mark.parametrize("form", [
    "{key}",  # as set
    "{key_wrapped}",  # wrapped over lines by the output
    '"{first}" + "{second}"',  # split into quoted parts
    "{first} {second}",  # split by a space
])
def test_the_configured_key_is_found_in_every_form(monkeypatch, form) -> None:
    key = "Zx81Lq0TmA5Vr3Ny7Gc2Ke9Wp4Hd"  # no shape of its own: only its value gives it away
    monkeypatch.setenv("JUDGE_CREDENTIAL", f"  {key}\n")  # `export JUDGE_CREDENTIAL=$(cat key.txt)`: stripped
    text = "The key " + form.format(key=key, key_wrapped=key[:10] + "\n  " + key[10:], first=key[:14],
                                    second=key[14:]) + " works."
    context = [f"Keys look like {key}."]
    output, redacted_context = redact_data((text, context), ["JUDGE_CREDENTIAL"])
    assert key[:6] not in output and key[-6:] not in output, output
    assert "[secret 1]" in output and redacted_context == ["Keys look like [secret 1]."]


PARAMETRIZED = """
import pytest
from pytest_llmfaith import assert_faithful

@pytest.mark.parametrize("token", [{token!r}])
def test_with_token(token):
    assert_faithful("Tesla was founded in 2003.", ["Tesla was founded in 2003."])
"""


def test_a_credential_in_a_parametrize_id_reaches_no_recording_or_report(pytester, server) -> None:
    server.facts(supported=["Tesla was founded in 2003."])
    pytester.makepyfile(test_ids=PARAMETRIZED.format(token=TOKEN_A))
    result = pytester.runpytest(*judge_args(server, "use"), "--llm-recordings=recorded", "--llm-report=report.json")
    result.assert_outcomes(passed=1)
    recording = (pytester.path / "recorded" / "test_ids.json").read_text()
    assert TOKEN_A not in recording
    assert "test_with_token[[secret 1]]" in recording
    report = (pytester.path / "report.json").read_text()
    assert TOKEN_A not in report and "test_with_token[[secret 1]]" in report
    assert TOKEN_A not in json.dumps([c["body"] for c in server.calls()])

    server.requests.clear()  # replay finds the recording by its redacted test id
    replayed = pytester.runpytest(*judge_args(server, "replay"), "--llm-recordings=recorded")
    replayed.assert_outcomes(passed=1)
    assert (pytester.path / "recorded" / "test_ids.json").read_text() == recording


WAITS = """
import os
import time
from pathlib import Path
from pytest_llmfaith import assert_faithful

def test_scores_then_waits():
    assert_faithful("Tesla was founded in 2003.", ["Tesla was founded in 2003."])
    Path(os.environ["READY_FILE"]).touch()
    time.sleep(120)
"""


@pytest.mark.skipif(sys.platform == "win32", reason="SIGTERM ends a Windows process without running handlers")
def test_a_sigtermed_run_leaves_no_run_folder(pytester, server, tmp_path) -> None:
    server.facts(supported=["Tesla was founded in 2003."])
    pytester.makepyfile(test_waits=WAITS)
    temp = tmp_path / "tmp"
    temp.mkdir()
    ready = tmp_path / "ready"
    env = {**os.environ, "TMPDIR": str(temp), "READY_FILE": str(ready)}
    process = subprocess.Popen([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:randomly",
                                *judge_args(server, "use"), "--llm-judge-relay=off"],
                               cwd=pytester.path, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 120
        while not ready.exists() and process.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert ready.exists(), process.communicate(timeout=30)[0].decode(errors="replace")
        assert [p.name for p in temp.iterdir() if p.name.startswith("llmfaith-run-")]  # the run made one
        process.send_signal(signal.SIGTERM)
        process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == -signal.SIGTERM  # it ended as a SIGTERM'd process does
    assert [p.name for p in temp.iterdir() if p.name.startswith("llmfaith-run-")] == []
