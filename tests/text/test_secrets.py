"""The redaction rules measured on a set they were not tuned on (issue 53): every random draw of every
documented provider format is caught, no random ordinary id is touched (benchmarks/_secret_set.py,
the set; benchmarks/secrets_recall.py prints its figures); and a secret found in one text of a call
is replaced in every text of it, in the forms a text writes it in, with one placeholder."""

from __future__ import annotations

import base64
import importlib.util
import json
import re
import sys
from pathlib import Path
from urllib.parse import quote

import pytest

from pytest_llmfaith.errors import redact, redact_data

BENCH = Path(__file__).resolve().parents[2] / "benchmarks"


def _load(name: str):
    spec = importlib.util.spec_from_file_location(name, BENCH / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(name, module)
    spec.loader.exec_module(module)
    return module


SET = _load("_secret_set")
RECALL = _load("secrets_recall")


@pytest.mark.parametrize(("kind", "items"), SET.drawn(SET.SECRETS).items())
def test_every_draw_of_every_documented_format_is_caught(kind, items) -> None:
    missed = [text for value, text in items if RECALL.leaked(value, redact(text))]
    assert (len(items), missed) == (SET.PER_KIND, [])


@pytest.mark.parametrize(("kind", "items"), SET.drawn(SET.ORDINARY).items())
def test_no_ordinary_id_is_redacted(kind, items) -> None:
    changed = [(text, redact(text)) for _, text in items if redact(text) != text]
    assert (len(items), changed) == (SET.PER_KIND, [])


HF = "hf_" + "QmTzVbXkLpRwYcNdFhJgSaEuIoKyMnBvCx"  # 34 letters: the shape gives it away
PASSWORD = "p@ss/w0rd:Zq8x"  # found only as a URL's password


@pytest.mark.parametrize("written", [
    HF, quote(HF, safe=""), json.dumps(HF)[1:-1], base64.b64encode(HF.encode()).decode(),
    base64.urlsafe_b64encode(HF.encode()).decode().rstrip("="),
])
def test_a_token_in_a_context_is_replaced_in_the_answer_in_every_form(written) -> None:
    answer, context, question = redact_data((f"Use {written} to pull the model.", [f"HF_TOKEN={HF}"],
                                             "Which token?"))
    assert (answer, context, question) == ("Use [secret 1] to pull the model.", ["HF_TOKEN=[secret 1]"],
                                           "Which token?")


ENCODED = quote(PASSWORD, safe="")


@pytest.mark.parametrize("written", [PASSWORD, ENCODED, re.sub("%[0-9A-F]{2}", lambda m: m[0].lower(), ENCODED),
                                     json.dumps(PASSWORD)[1:-1], base64.b64encode(PASSWORD.encode()).decode()])
def test_a_url_s_password_is_replaced_in_the_answer_decoded_or_encoded(written) -> None:
    context = f"DATABASE_URL=postgres://app:{ENCODED}@db.internal:5432/shop"
    answer, (passage,) = redact_data((f"Log in as app with {written} first.", [context]))
    assert answer == "Log in as app with [secret 1] first."
    assert passage == "DATABASE_URL=postgres://app:[secret 1]@db.internal:5432/shop"


def test_basic_credentials_are_found_decoded_too() -> None:
    basic = base64.b64encode(b"deploy:Tr0ub4dor-3x").decode()
    answer, context = redact_data(("Its password is Tr0ub4dor-3x, the user deploy:Tr0ub4dor-3x.",
                                   [f"Authorization: Basic {basic}"]))
    assert context == ["Authorization: Basic [secret 1]"]
    assert "Tr0ub4dor" not in answer and answer.count("[secret ") == 2, answer


def test_the_input_s_secret_is_found_in_the_output_and_the_other_way() -> None:
    token = "glpat-" + "x9_QmT-zVbXkLpRwYcNd"
    assert redact_data((f"glpat-? {token}", ["nothing"], f"Is {token} valid?")) == \
        ("glpat-? [secret 1]", ["nothing"], "Is [secret 1] valid?")


def test_one_text_is_one_call_too() -> None:
    """A message that holds a token and its base64 (an error quoting a header)."""
    code = base64.b64encode(HF.encode()).decode()
    assert redact(f"token {HF} sent as {code}") == "token [secret 1] sent as [secret 1]"


def test_a_short_or_word_shaped_password_is_not_looked_for_elsewhere() -> None:
    """`redis://:admin@cache` hides "admin" in the URL; the answer's word "admin" is not a secret."""
    answer, context = redact_data(("Ask the admin; the pass is in the vault.",
                                   ["redis://:admin@cache:6379/0 and https://u:pass@h.example"]))
    assert answer == "Ask the admin; the pass is in the vault."
    assert context == ["redis://:[secret 1]@cache:6379/0 and https://u:[secret 2]@h.example"]


def test_a_found_value_inside_a_longer_token_is_left_to_the_shapes() -> None:
    """The forms are matched as whole tokens: a longer run that merely contains one is another value."""
    password = "Zq8xY3wV9k"
    answer, _ = redact_data((f"The build id is {password}Build7 and the key {password}.",
                             [f"DB_PASS={password}"]))
    assert answer == f"The build id is {password}Build7 and the key [secret 1]."


def test_different_secrets_keep_different_numbers_across_the_call() -> None:
    other = "hf_" + "AbCdEfGhIjKlMnOpQrStUvWxYzAbCdEfGh"
    answer, context = redact_data((f"{other} then {base64.b64encode(HF.encode()).decode()}", [f"{HF} {other}"]))
    assert answer == "[secret 1] then [secret 2]" and context == ["[secret 2] [secret 1]"]
