"""A labelled set for the redaction rules (issue 40.5): texts holding credentials (LEAKS: each listed
value must be gone) and texts holding none (KEPT: they must come back unchanged, ids and digests
included). Fake credentials are built from parts, so that no secret scanner takes this file for a leak.

`python tests/text/secret_cases.py` measures our rules against detect-secrets (when it is installed
in the interpreter that runs it): false negatives and false positives per detector.
"""

from __future__ import annotations

import base64
import hashlib

# -- credentials (text, the values that must not survive) -------------------------------------------
SLACK_BOT = "xoxb" + "-2368241581-4412519384629-" + "a3f9c2e07b1d4f6e8a5c9b2d"  # hex tail
SLACK_USER = "xoxp" + "-2368241581-2368241582-4412519384630-" + "9c1e5b7a3d2f4068b1a9e7c3d5f20b84"
SLACK_HOOK_PART = "T024BE7LD/B08A2MJ7Q5S/" + "Xk9pQ2rV7mTz4LwN8sYb3HcJ"
DISCORD_HOOK_PART = "kX9_pQ2rV7mTz4LwN8sYb3HcJ" + "-dF6gA1eB5nM0oP3qR8sT2uV7wX4yZ9aB1cD6eF"
GOOGLE = "AIza" + "SyB4x9Kq2LmP7vR3tW8zN1cF6hJ0dE5gS9w"
BASIC_USERPASS = base64.b64encode(b"admin:Sup3rS3cret!").decode()
BASIC_USERPASS_2 = base64.b64encode(b"deploy:hunter22").decode()
HEROKU = "9f8e7d6c-5b4a-4c2d-9e0f-" + "a9b8c7d6e5f4"
GITHUB = "ghp" + "_16C7e42F292c6912E7710c838347Ae178B4a"
STRIPE = "sk_" + "live_" + "4eC39HqLyjWDarjtT1zdp7dc"
OPENAI = "sk-" + "proj-" + "Xb7nQ2rT9kLm4Vw1Zp8Hs3Jd6Fg0Ac5Ye_Nu2Ri7Ko4"
SENDGRID = "SG." + "ngeVfQFYQlKU0ufo8x5d1A" + "." + "TwL2iGABf9DHoTf-09kqeF8tAmbihYzrnopKc-1s5cr"
NPM = "npm" + "_4kQ9zLm2Xv7Rt1Wp4Yc6Nb8f3kQ9zLm2Xv7R"
TELEGRAM = "5312345678:" + "AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw"
AZURE_KEY = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq" + "/K1SZFPTOtr/KBHBeksoGMGw=="
JWT = ".".join(base64.urlsafe_b64encode(raw).decode().rstrip("=") for raw in (
    b'{"alg":"HS256","typ":"JWT"}', b'{"sub":"user-4711","role":"admin"}', hashlib.sha256(b"nobody").digest()))

LEAKS: list[tuple[str, tuple[str, ...]]] = [
    # the cases
    (f"Slack answered for {SLACK_BOT} with ok=false.", (SLACK_BOT[5:],)),
    (f"The legacy token {SLACK_USER} still works.", (SLACK_USER[5:],)),
    (f"Post to https://hooks.slack.com/services/{SLACK_HOOK_PART} when done.", (SLACK_HOOK_PART.rsplit("/")[-1],)),
    (f"Webhook: https://discord.com/api/webhooks/1187304559241826304/{DISCORD_HOOK_PART}",
     (DISCORD_HOOK_PART,)),
    (f"GET https://maps.googleapis.com/maps/api/geocode/json?address=Berlin&key={GOOGLE} returned 200.",
     (GOOGLE,)),
    ("Upload with curl -u deploy:Tr0ub4dor-3x https://api.example.com/upload", ("Tr0ub4dor-3x",)),
    ("curl --user admin:hunter22! -X POST https://ci.example.com/job", ("hunter22!",)),
    ("Open https://legacy.example.com/login?user=jane&pass=s3cr3tPa55 to sign in.", ("s3cr3tPa55",)),
    ("machine api.example.com login jane password Zq8xY3wV9k", ("Zq8xY3wV9k",)),
    (f"~/.netrc: machine api.heroku.com\n  login jane@example.com\n  password {HEROKU}", (HEROKU,)),
    ("~/.pgpass holds db.internal:5432:prod:app:s3cr3tPa55", ("s3cr3tPa55",)),
    ("*:*:*:postgres:hunter22!", ("hunter22!",)),
    (f"The header value is {BASIC_USERPASS}.", (BASIC_USERPASS,)),
    (f"Send {BASIC_USERPASS_2} to the proxy.", (BASIC_USERPASS_2,)),
    ("Set DB_PASS=hunter22! in .env", ("hunter22!",)),
    ("export REDIS_PASS='Zq8xY3wV9k'", ("Zq8xY3wV9k",)),
    # ours: other common forms
    (f"The Maps key {GOOGLE} is restricted.", (GOOGLE,)),
    ("PGPASSWORD=s3cr3tPa55 psql -h db.internal", ("s3cr3tPa55",)),
    ("mysql://root:hunter2@localhost:3306/shop", ("hunter2",)),
    ("redis://:p4ss-w0rd@cache:6379/0", ("p4ss-w0rd",)),
    (f"git clone https://{GITHUB}@github.com/org/repo.git", (GITHUB,)),
    (f"GitHub: {GITHUB}", (GITHUB,)),
    (f"The Stripe key {STRIPE} is live.", (STRIPE,)),
    (f"export OPENAI_API_KEY={OPENAI}", (OPENAI,)),
    (f"SendGrid key {SENDGRID} was rotated.", (SENDGRID,)),
    (f"//registry.npmjs.org/:_authToken={NPM}", (NPM,)),
    (f"Bot token {TELEGRAM} is set.", (TELEGRAM.split(":")[1],)),
    (f"DefaultEndpointsProtocol=https;AccountName=acme;AccountKey={AZURE_KEY};EndpointSuffix=core.windows.net",
     (AZURE_KEY,)),
    (f"Log in with {JWT}, then call the API.", (JWT,)),
    ("The key id is AKIA" + "Q3EGRZ7VXN4HTW2L.", ("AKIA" + "Q3EGRZ7VXN4HTW2L",)),
    ("curl -H 'Authorization: Bearer 8f3kQ9zLm2Xv7Rt1Wp4Yc6Nb' https://api.example.com", ("8f3kQ9zLm2Xv7Rt1Wp4Yc6Nb",)),
    ("X-API-Key: 8f3kQ9zLm2Xv7Rt1", ("8f3kQ9zLm2Xv7Rt1",)),
    ('{"password": "p@ss w0rd!"}', ("p@ss w0rd!",)),
    ('client_secret: "Zq8xY3wV9kLm2"', ("Zq8xY3wV9kLm2",)),
    ("https://acme.blob.core.windows.net/c/f.txt?sv=2022-11-02&sig=Xk9pQ2rV7mTz4LwN8sYb3HcJ%3D", ("Xk9pQ2rV7mTz",)),
    ("PASS=Zq8xY3wV9k ./deploy.sh", ("Zq8xY3wV9k",)),
    ("wget --password=Zq8xY3wV9k ftp://files.example.org/f.tar", ("Zq8xY3wV9k",)),
    ("curl -u 'deploy:Tr0ub4dor-3x' https://api.example.com", ("Tr0ub4dor-3x",)),
    ("machine example.com login jane password 'hunter22'", ("hunter22",)),
    (f"SLACK_WEBHOOK_URL=https://hooks.slack.com/services/{SLACK_HOOK_PART}", (SLACK_HOOK_PART.rsplit("/")[-1],)),
    ("mysql -u root -pS3cr3tPass shop < dump.sql", ("S3cr3tPass",)),
    ("The password is hunter22! Keep it.", ("hunter22",)),
    ("Use github_pat" + "_11ABCDEFG0xR7kP2mQ9vL4nT8wZ3yB_Xb7nQ2rT9kLm4Vw1Zp8Hs3Jd6Fg0Ac5Ye here.",
     ("11ABCDEFG0xR7kP2mQ9vL4nT8wZ3yB_Xb7nQ2rT9kLm4Vw1Zp8Hs3Jd6Fg0Ac5Ye",)),
    ("-----BEGIN " + "OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ\n-----END "
     + "OPENSSH PRIVATE KEY-----", ("b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ",)),
]

# -- no credentials: each text comes back unchanged ----------------------------------------------------
SRI = "sha384-" + "oqVuAfXRKap7fdgcCY5uykM6+R9GqQ8K/uxy9rx7HNQlGYl1kPzQho1wx4JwY8wC"
SRI_256 = "sha256-" + base64.b64encode(hashlib.sha256(b"app.js").digest()).decode()
SRI_512 = "sha512-" + base64.b64encode(hashlib.sha512(b"app.css").digest()).decode()

KEPT: list[str] = [
    # the false redactions and false passes
    f'<script src="https://cdn.example.com/app.js" integrity="{SRI}" crossorigin="anonymous"></script>',
    f"The lockfile pins {SRI_256} and {SRI_512}.",
    "SKU XJ9-4KF2-QP7R-88ZM is back in stock; SKU-8F3KQ9ZLM2XV7RT1W4 is not.",
    "Item WH1000XM4BLK2024EU ships from warehouse B7.",
    "Send 0.5 BTC to 1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa or 3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy.",
    "The SegWit address is bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq.",
    "Order ORD-7F3K9Q2XZ8M4P1V6 was refunded; order A1B2C3D4E5F6G7H8J9K0 was not.",
    "Your order 114-3941689-8772232 and booking ref QX7RTZ9K2L4M8N3P arrive Monday.",
    # ours: ids, digests and words
    "Request 550e8400-e29b-41d4-a716-446655440000 failed.",
    "Fixed in commit 8d5e3b1f0c9a7e6d4b2a1f0e9d8c7b6a5f4e3d2c.",
    "Pull docker.io/library/python@sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
    "The IBAN DE89370400440532013000 belongs to the shop.",
    "UPS tracking 1Z999AA10123456784, USPS 9400111899223197428490.",
    "Stockholm is the capital of Sweden; the index lives on localhost in us-east-1.",
    "Read /home/runner/work/project/tests/test_rag_pipeline.py and src/components/UserProfileCard.tsx.",
    "Meta-Llama-3-70B-Instruct beat gpt-4o-mini-2024-07-18 and claude-3-5-sonnet-20241022.",
    "See https://github.com/pytest-dev/pytest/commit/8d5e3b1f0c9a7e6d4b2a1f0e9d8c7b6a5f4e3d2c for details.",
    "Clone ssh://git@github.com/org/repo.git or https://jane.doe@example.com/wiki.",
    "The bearer of this letter needs no authorization: none is required.",
    "Password: ask the admin. max_tokens: 4096, token: 512, secret: Stockholm.",
    "sorted(rows, key=lambda row: row[1]); the primary key=customer_id.",
    "curl -u $DEPLOY_USER:$DEPLOY_TOKEN https://api.example.com/upload",
    "DB_PASS is read from the vault; pass=true skips the check.",
    "machine learning needs no password reset; login page password field.",
    "The meeting is at 10:30:00 on 2024-01-15 in room 4:2:7:b.",
    "internationalization, Donaudampfschifffahrtsgesellschaft and AbstractSingletonProxyFactoryBean.",
    "The iPhone 15 Pro Max and x86_64-unknown-linux-gnu builds ship today.",
    "The key Q7x9Q7x9Q7x9Q7x9Q7x9Q7x9 repeats itself.",
    "Write to jane.doe+rag@example.com or call +1-202-555-0143.",
    "Send ETH to 0x742d35Cc6634C0532925a3b844Bc454e4438f44e.",
    "The ratio 3:2:1:4:5 holds; so does a:1:b:c:d.",
    '{"verdicts": [{"verdict": "yes", "reason": "The context says the train leaves at 12:30."}]}',
    "The password is ready; the secret is out.",
]


def _measure() -> None:  # pragma: no cover - a measurement, run by hand
    import sys

    sys.path.insert(0, str(__import__("pathlib").Path(__file__).parents[2]))

    def ours(text: str) -> str:
        from pytest_llmfaith.errors import redact

        return redact(text)

    detectors = {"ours": ours}
    try:
        import tempfile

        from detect_secrets import SecretsCollection
        from detect_secrets.settings import default_settings

        def detect_secrets(text: str) -> str:  # as its scanner reads a file holding the text
            with tempfile.TemporaryDirectory() as folder, default_settings():
                path = f"{folder}/output.txt"
                with open(path, "w") as file:
                    file.write(text)
                found = SecretsCollection()
                found.scan_file(path)
                values = [s.secret_value for secrets in found.data.values() for s in secrets]
            for value in sorted(filter(None, values), key=len, reverse=True):
                text = text.replace(value, "<found>")
            return text

        detectors["detect-secrets"] = detect_secrets
    except ImportError:
        pass
    for name, redact in detectors.items():
        missed = [(text, value) for text, values in LEAKS for value in values if value in redact(text)]
        changed = [(text, redact(text)) for text in KEPT if redact(text) != text]
        print(f"{name}: {len(missed)} false negatives of {sum(len(v) for _, v in LEAKS)}, "
              f"{len(changed)} false positives of {len(KEPT)}")
        for text, value in missed:
            print(f"  FN {value!r} in {text!r}")
        for text, out in changed:
            print(f"  FP {text!r} -> {out!r}")


if __name__ == "__main__":
    _measure()
