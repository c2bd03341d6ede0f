"""Secrets never leave the process: a judge that echoes the Authorization header in a 200 answer's
verdict reasons, and app outputs that hold a key or a password, are redacted from the cache, the
recordings, the JSON report, JUnit and the terminal; the cache keys do not change (replay hits).
Credentials are found by their shape (a URL's password, AWS key ids, JWTs, tokens...) wherever they
are, secrets by value however the output wraps them, and values that are no secret ("Stockholm" in
SEARCH_INDEX_KEY) are left as the output wrote them (pytest_llmfaith/text/secrets.py)."""

from __future__ import annotations

import base64
import hashlib
import json
import re
import shutil

import pytest
from plugin_helpers import judge_args

from pytest_llmfaith.errors import redact, redact_data

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
    assert re.search(r"\(asked with Bearer \[secret \d\]\)", recording)  # redacted, not dropped
    assert "invalid key [secret 1]." in recording and "The password is [secret 1]." in recording
    report = json.loads((pytester.path / "report.json").read_text())
    assert any(re.search(r"asked with Bearer \[secret \d\]", json.dumps(r)) for r in report["results"])
    assert "invalid key [secret 1]" in result.stdout.str()  # the failure message, redacted

    shutil.rmtree(pytester.path / ".llmfaith_cache")  # the keys of the requests are the same: replay hits
    server.requests.clear()
    replayed = pytester.runpytest(*judge_args(server, "replay"), "--llm-judge-api-key-env=JUDGE_SECRET_KEY",
                                  "--llm-recordings=recorded")
    replayed.assert_outcomes(passed=1, failed=1)
    assert server.requests == []


# -- secrets by shape as well as by value (issue 32.3) ---------------------------------------
# Fake credentials are built from parts, so that no secret scanner takes this file for a leak.
def fake_jwt() -> str:
    """A JWT (HS256 header, a payload, a signature) made at run time: in no environment variable."""
    def part(raw: bytes) -> str:
        return base64.urlsafe_b64encode(raw).decode().rstrip("=")

    return ".".join([part(b'{"alg":"HS256","typ":"JWT"}'), part(b'{"sub":"user-4711","role":"admin"}'),
                     part(hashlib.sha256(b"signed by nobody").digest())])


JWT = fake_jwt()
AWS_ID = "AKIA" + "Q3EGRZ7VXN4HTW2L"
DB_PASSWORD = "s3cr3tPa55"
DATABASE_URL = f"postgres://app:{DB_PASSWORD}@db.internal/prod"
GITHUB = "ghp" + "_16C7e42F292c6912E7710c838347Ae178B4a"
GITLAB = "glpat" + "-xR7kP2mQ9vL4nT8wZ3yB"
SLACK = "xoxb" + "-123456789012-1234567890123-" + "Tm3xQ9fZ1pL7vR2kW8sN4yB6"
STRIPE = "sk_" + "live_" + "4eC39HqLyjWDarjtT1zdp7dc"
OPENAI = "sk-" + "proj-" + "Xb7nQ2rT9kLm4Vw1Zp8Hs3Jd6Fg0Ac5Ye_Nu2Ri7Ko4"
AWS_SECRET = "wJalrXUtnFEMI/K7MDENG" + "/bPxRfiCYzEXAMPLEKEY"
PEM = ("-----BEGIN " + "RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun\n"
       "VTLw7onLRnrq0/IzW7yWR7QkrmBL7jTKEn5u+qKhbwKfBstIs+bMY2Zkp18gnTxK\n-----END " + "RSA PRIVATE KEY-----")
TOKEN = "8f3kQ9zLm2Xv7Rt1Wp4Yc6Nb"

SHAPES = [  # (text, what reaches anyone of it): nothing of these is in the environment
    (f"Connect to {DATABASE_URL} first.", "Connect to postgres://app:[secret 1]@db.internal/prod first."),
    ("mysql://root:hunter2@localhost:3306/shop", "mysql://root:[secret 1]@localhost:3306/shop"),
    ("redis://:p4ss-w0rd@cache:6379/0", "redis://:[secret 1]@cache:6379/0"),
    ("mongodb+srv://svc:Zq8%21xY@cluster0.example.net/?retryWrites=true",
     "mongodb+srv://svc:[secret 1]@cluster0.example.net/?retryWrites=true"),
    ("ftp://user:p@ss@files.example.org/pub", "ftp://user:[secret 1]@files.example.org/pub"),  # the last @ ends it
    ("amqps://guest:guest@rabbit.internal/vhost", "amqps://guest:[secret 1]@rabbit.internal/vhost"),  # even a word
    (f"git clone https://{GITHUB}@github.com/org/repo.git", "git clone https://[secret 1]@github.com/org/repo.git"),
    (f"The key id is {AWS_ID}.", "The key id is [secret 1]."),
    ("Temporary id ASIA" + "Y34FZKBOKMUTVV7A, expires soon.", "Temporary id [secret 1], expires soon."),
    (f"Log in with {JWT}, then call the API.", "Log in with [secret 1], then call the API."),
    (f"curl -H 'Authorization: Bearer {TOKEN}' https://api.example.com",
     "curl -H 'Authorization: Bearer [secret 1]' https://api.example.com"),
    ("Authorization: Basic dXNlcjpwYXNzd29yZA==", "Authorization: Basic [secret 1]"),
    (f"The server answered: bearer {TOKEN}.", "The server answered: bearer [secret 1]."),
    (f"The key is\n{PEM}\nkeep it safe.", "The key is\n[secret 1]\nkeep it safe."),
    (f"export OPENAI_API_KEY={OPENAI}", "export OPENAI_API_KEY=[secret 1]"),
    ('{"password": "p@ss w0rd!"}', '{"password": "[secret 1]"}'),
    ("Set DB_PASSWORD=hunter22! in .env", "Set DB_PASSWORD=[secret 1] in .env"),
    (f"https://api.example.com/v1?access_token={TOKEN}&page=2",
     "https://api.example.com/v1?access_token=[secret 1]&page=2"),
    (f"Slack says {SLACK} was revoked.", "Slack says [secret 1] was revoked."),
    (f"The Stripe key {STRIPE} is live.", "The Stripe key [secret 1] is live."),
    (f"GitLab: {GITLAB}", "GitLab: [secret 1]"),
    (f"GitHub: {GITHUB}", "GitHub: [secret 1]"),
    (f"OpenAI: {OPENAI}", "OpenAI: [secret 1]"),
    (f"aws_secret_access_key {AWS_SECRET}", "aws_secret_access_key [secret 1]"),
    ("See /var/folders/0k/w6qcbn_93tq5y5pz9b7q6k1c0000gn/T/llmfaith-relay-joe/relay.log",  # a path: its random part
     "See /var/folders/0k/[secret 1]/T/llmfaith-relay-joe/relay.log"),
]


@pytest.mark.parametrize(("text", "expected"), SHAPES, ids=[t[:32] for t, _ in SHAPES])
def test_credentials_are_redacted_by_their_shape_whatever_holds_them(text, expected) -> None:
    assert redact(text) == expected
    assert redact(expected) == expected  # redacting twice changes nothing: the data passes several times


def test_the_quick_first_look_misses_no_text_a_shape_rule_changes() -> None:
    """`redact_shapes` skips the text its first look finds nothing in: that look must answer yes to
    every text one pattern of all the rules' starts would (the rules' own list: no new one), and to
    every credential above; random texts of the rules' pieces, spaces, quotes and separators."""
    import random
    import re

    from pytest_llmfaith.text import secrets

    starts = re.compile(r"-----BEGIN|eyJ|AKIA|ASIA|://|(?i:authorization|bearer|(?:pass|password|passwd|passphrase|"
                        r"pwd|secret|token|key|signature|sig|credentials?)[\"']?\s*[:=])"
                        r"|(?i:passw(?:or)?d\s|passphrase\s)|mysql|(?<!\S)(?:-u|-U|--user|--proxy-user)|:(?:\d|\*)"
                        rf"|[A-Za-z0-9_+/-]{{{secrets.MIN_TOKEN_CHARS}}}")
    assert all(secrets._hinted(text) for text, _ in SHAPES)
    pieces = ["password", "PassWord", "KEY", "sig", "token", "credentials", "secret", "pwd", "passphrase", "Bearer",
              "authoriZation", "ſecret", "\u212aey", ":", "=", " ", "\n", "\u00a0", '"', "'", "a", "1", "-", "_", "/",
              "+", "eyJ", "AKIA", "://", "é", "。", "aaaaaaaaaa", "0123456789", "pass", "Passwd", "-u", "--user",
              "mysql", "*"]
    rng = random.Random(7)
    for _ in range(20_000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 12)))
        assert secrets._hinted(text) == bool(starts.search(text)), text


PLAIN_VALUES = {"SEARCH_INDEX_KEY": "Stockholm", "REGION_KEY": "us-east-1", "PLACEHOLDER_API_KEY": "EMPTY",
                "NONE_TOKEN": "none", "FLAG_SECRET": "true", "HOST_PASSWORD": "localhost",
                "GOOGLE_APPLICATION_CREDENTIALS": "/etc/gcp/service-account.json", "REPEATED_TOKEN": "x" * 24}
ORDINARY = [
    "Stockholm is the capital of Sweden; the index lives on localhost in us-east-1.",
    "EMPTY, none and true are placeholders; xxxxxxxxxxxxxxxxxxxxxxxx is a mask.",
    "Read /etc/gcp/service-account.json, /home/runner/work/project/tests/test_rag_pipeline.py and "
    "src/components/UserProfileCard.tsx.",
    "internationalization, Donaudampfschifffahrtsgesellschaft and AbstractSingletonProxyFactoryBean are long words.",
    "Request 550e8400-e29b-41d4-a716-446655440000 failed.",  # UUIDs are ids: kept
    "Fixed in commit 8d5e3b1f0c9a7e6d4b2a1f0e9d8c7b6a5f4e3d2c; sha256 "  # hex (git SHAs, digests): kept
    "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08.",
    "Write to jane.doe+rag@example.com.",
    "See https://example.com/path?x=1 and https://github.com/pytest-dev/pytest/commit/"
    "8d5e3b1f0c9a7e6d4b2a1f0e9d8c7b6a5f4e3d2c for details.",
    "Clone ssh://git@github.com/org/repo.git or https://jane.doe@example.com/wiki.",
    "Order 12345678901234567890 shipped on 2024-01-15T10:30:00Z, 3.5% faster than 2023-12-01.",
    "The bearer of this letter needs no authorization: none is required.",
    "Password: ask the admin. max_tokens: 4096, token: 512, secret: Stockholm.",
    "Meta-Llama-3-70B-Instruct beat gpt-4o-mini-2024-07-18 and claude-3-5-sonnet-20241022.",
    "The iPhone 15 Pro Max, the PlayStation5DigitalEdition and x86_64-unknown-linux-gnu builds ship today.",
    "The key Q7x9Q7x9Q7x9Q7x9Q7x9Q7x9 repeats itself: low entropy, no secret.",
]


def test_ordinary_text_and_values_that_are_not_secret_like_are_never_redacted(monkeypatch) -> None:
    """`SEARCH_INDEX_KEY=Stockholm` is no secret: the judge judges "Stockholm" as the output wrote it."""
    for name, value in PLAIN_VALUES.items():
        monkeypatch.setenv(name, value)
    names = ["PLACEHOLDER_API_KEY"]  # the configured key variable, set to a placeholder
    assert [text for text in ORDINARY if redact(text, names) != text] == []
    assert redact_data({"Stockholm": ORDINARY}, names) == {"Stockholm": ORDINARY}


@pytest.mark.parametrize("wrapped", ["sk-Zx81Lq0TmA5Vr\r\n3Ny7Gc2Ke9Wp4Hd", "sk-Zx81Lq0TmA5Vr\n  3Ny7Gc2Ke9Wp4Hd",
                                     "sk-Zx81 Lq0TmA5Vr3 Ny7Gc2 Ke9Wp4Hd"])
def test_a_secret_value_wrapped_by_the_output_is_still_redacted(monkeypatch, wrapped) -> None:
    monkeypatch.setenv("MY_SERVICE_API_KEY", "sk-Zx81Lq0TmA5Vr3Ny7Gc2Ke9Wp4Hd")
    assert redact(f"The key\n{wrapped}\nworks.") == "The key\n[secret 1]\nworks."


def test_the_configured_key_read_from_a_file_is_redacted_without_its_newline(monkeypatch) -> None:
    monkeypatch.setenv("JUDGE_CREDENTIAL", "cred-0123456789abcdef\n")  # `export JUDGE_CREDENTIAL=$(cat key.txt)`
    assert redact("invalid key cred-0123456789abcdef.", ["JUDGE_CREDENTIAL"]) == "invalid key [secret 1]."


def test_secrets_held_by_variables_are_redacted_wherever_the_text_quotes_them(monkeypatch) -> None:
    """A URL's password from DATABASE_URL quoted alone, and an AWS key id over two lines (AWS_ACCESS_KEY_ID:
    neither name ends in KEY)."""
    monkeypatch.setenv("DATABASE_URL", DATABASE_URL)
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", AWS_ID)
    text = f"The password is {DB_PASSWORD}. The id is {AWS_ID[:10]}\n{AWS_ID[10:]}."
    assert redact(text) == "The password is [secret 1]. The id is [secret 2]."
    assert redact_data({"asked": [text, (DB_PASSWORD,)]}) == {
        "asked": ["The password is [secret 1]. The id is [secret 2].", ("[secret 1]",)]}  # the same value, the same


@pytest.mark.parametrize(("value", "expected"), [
    ("Stockholm", False), ("EMPTY", False), ("none", False), ("true", False), ("localhost", False),
    ("us-east-1", False), ("12345678", False), ("internationalization", False), ("xxxxxxxxxxxx", False),
    ("/etc/ssl/private/server.key", False), ("https://example.com/index", False), ("short1!", False),
    ("s3cr3tPa55", True), ("hunter22!", True), ("correct-horse-battery", True), ("Password1", True),
    (" sk-live-" + "Q7x9" * 6 + "\n", True), ("cred-0123456789abcdef", True), (AWS_ID, True), (GITLAB, True),
    (DATABASE_URL, True),
])
def test_secret_like_is_a_rule_of_length_character_mix_and_entropy(value, expected) -> None:
    from pytest_llmfaith.text.secrets import secret_like

    assert secret_like(value) is expected


QUOTING_SUITE = """
import base64
import hashlib
import os
from pytest_llmfaith import assert_faithful

def part(raw):
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")

def test_quotes_credentials():
    jwt = ".".join([part(b'{"alg":"HS256","typ":"JWT"}'), part(b'{"sub":"user-4711","role":"admin"}'),
                    part(hashlib.sha256(b"signed by nobody").digest())])
    output = (f"Connect with {os.environ['DATABASE_URL']}. The session token is {jwt}. "
              f"The key id is {os.environ['AWS_ACCESS_KEY_ID']}. Our office is in Stockholm.")
    assert_faithful(output, ["Our office is in Stockholm."], min_score=0.9)
"""


def test_credentials_by_shape_reach_no_judge_cache_report_or_terminal(pytester, server, monkeypatch) -> None:
    """The QA case: an output quotes a DATABASE_URL, a JWT in no variable and an AWS key id; the judge,
    the cache, the recordings, the reports and the terminal see none of them, and "Stockholm" (the
    value of SEARCH_INDEX_KEY, no secret) reaches the judge as the output wrote it."""
    monkeypatch.setenv("DATABASE_URL", DATABASE_URL)
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", AWS_ID)
    monkeypatch.setenv("SEARCH_INDEX_KEY", "Stockholm")
    server.facts(supported=["Our office is in Stockholm."])
    pytester.makepyfile(test_b=QUOTING_SUITE)
    result = pytester.runpytest(*judge_args(server, "use"), "--llm-recordings=recorded", "--llm-report=report.json",
                                "--junitxml=junit.xml", "-v", "-rA")
    result.assert_outcomes(failed=1)  # 1 claim of 4 supported: the failure message is shown too
    secrets = (DB_PASSWORD, AWS_ID, JWT, JWT.split(".")[1])
    sent = json.dumps([c["body"] for c in server.calls()])
    stored = written(pytester.path)
    shown = result.stdout.str() + result.stderr.str()
    assert any((pytester.path / ".llmfaith_cache").iterdir()) and (pytester.path / "recorded").is_dir()
    for secret in secrets:
        assert secret not in sent and secret.encode() not in stored and secret not in shown, secret
    assert "Connect with postgres://app:[secret 1]@db.internal/prod." in sent
    assert "The session token is [secret 2]." in sent and "The key id is [secret 3]." in sent
    assert "Our office is in Stockholm." in sent  # judged as written
    report = (pytester.path / "report.json").read_text()
    assert "postgres://app:[secret 1]@db.internal/prod" in report and "The key id is [secret 3]." in report
    assert "Stockholm" in report and "Stockholm" in shown


# -- a secret found in one text of a call is gone from all of them (issue 53) ----------------------------
HF = "hf_" + "NnDGTETHxUDUbckwViqVdkdxoCmoiiwGWP"  # random letters the rules before missed (1 draw in 6)
GLPAT = "glpat-" + "Zcvlo4Hmf_Om6dch9ruB"
URL_PASSWORD = "Zq8x@Y3wV9k"  # in the context percent-encoded, in the answer as it is
# Built at run time: pytest's own traceback shows the test's source, which the plugin does not redact.
ACROSS_SUITE = f"""
from pytest_llmfaith import assert_faithful

def test_across():
    hf, glpat, password = "hf_" + "{HF[3:]}", "glpat-" + "{GLPAT[6:]}", "Zq8x" + "@Y3wV9k"
    context = [f"HF_TOKEN={{hf}}", "DATABASE_URL=postgres://app:" + password.replace("@", "%40") + "@db.internal/shop",
               "Tesla was founded in 2003."]
    output = f"Pull with {{hf}}, log in with {{password}}. Tesla was founded in 2003."
    assert_faithful(output, context, input=f"Is {{glpat}} valid?", min_score=0.9)
"""


def test_a_secret_of_one_text_reaches_no_judge_file_or_terminal_in_any_text(pytester, server) -> None:
    server.facts(supported=["Tesla was founded in 2003."])
    pytester.makepyfile(test_c=ACROSS_SUITE)
    result = pytester.runpytest(*judge_args(server, "use"), "--llm-recordings=recorded", "--llm-report=report.json",
                                "--junitxml=junit.xml", "-v", "-rA")
    result.assert_outcomes(failed=1)  # 1 claim of 3 supported: the failure message shows the output too
    sent = json.dumps([c["body"] for c in server.calls()])
    stored = written(pytester.path)
    shown = result.stdout.str() + result.stderr.str()
    for secret in (HF, GLPAT, URL_PASSWORD, "Zq8x%40Y3wV9k"):
        assert secret not in sent and secret.encode() not in stored and secret not in shown, secret
    assert "Pull with [secret 1], log in with [secret 2]." in sent
    assert "postgres://app:[secret 2]@db.internal/shop" in sent
