"""A labelled set for the redaction rules that they were not tuned on (issue 53): random draws from
each provider's documented token format (prefix, alphabet, length), and random ordinary identifiers
of each kind a judge must compare as written, all embedded in the same neutral sentences (no
`key=` or `password is` around them: only the value's own shape can give it away).

Pure standard library, seeded: tests/text/test_secret_set.py asserts on it, secrets_recall.py
prints its figures. Not a benchmark. The formats, as their providers (and gitleaks' rules) document
them: Hugging Face `hf_` + 34 letters; GitLab `glpat-` + 20 of [A-Za-z0-9_-], and the routable form
(`glpat-` + 27+ of them, `.01` and 7 of [0-9a-z]); GitHub `ghp_ gho_ ghu_ ghs_ ghr_` + 36
alphanumerics and `github_pat_` + 22 + `_` + 59; Stripe `sk_live_ rk_live_ sk_test_ rk_test_` +
24..99 alphanumerics; Google `AIza` + 35 of [A-Za-z0-9_-]; Anthropic `sk-ant-api03-` (and
`sk-ant-admin01-`) + 93 of [A-Za-z0-9_-] + `AA`; OpenAI `sk-proj- sk-svcacct- sk-admin-` + 58 or 74
+ `T3BlbkFJ` + 58 or 74 of [A-Za-z0-9_-], and the legacy `sk-` + 20 + `T3BlbkFJ` + 20 alphanumerics;
Slack bot, user and app-level tokens; AWS `AKIA ASIA` + 16 of base32; npm `npm_` + 36; JWTs (HS256
and RS256); PEM private-key blocks.
"""

from __future__ import annotations

import base64
import hashlib
import json
import random
import string
import uuid
from collections.abc import Callable

SEED = 53
PER_KIND = 300

ALNUM = string.ascii_letters + string.digits
URLSAFE = ALNUM + "_-"
LOWER36 = string.ascii_lowercase + string.digits
BASE32 = string.ascii_uppercase + "234567"
CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"

# Around each value: none names it (a name would tell the rules what it is).
SENTENCES = (
    "I found {} in the log.",
    "Set it to {} and try again.",
    "{} is what the page shows.",
    "The value ({}) came back twice.",
    "Copy `{}` into the form.",
    'It printed "{}".',
    "Compare it with {}",
    "Line 12: {}, then nothing.",
    "<td>{}</td>",
    "- {}\n- done",
)


def _draw(rng: random.Random, alphabet: str, n: int) -> str:
    return "".join(rng.choice(alphabet) for _ in range(n))


def _b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def _gitlab(rng: random.Random) -> str:
    if rng.random() < 0.5:
        return "glpat-" + _draw(rng, URLSAFE, 20)
    return "glpat-" + _draw(rng, URLSAFE, rng.randint(27, 60)) + ".01" + _draw(rng, LOWER36, 7)


def _openai(rng: random.Random) -> str:
    half = rng.choice((58, 74))
    kind = rng.choice(("proj", "svcacct", "admin"))
    return f"sk-{kind}-" + _draw(rng, URLSAFE, half) + "T3BlbkFJ" + _draw(rng, URLSAFE, half)


def _slack(rng: random.Random) -> str:
    def digits() -> str:
        return _draw(rng, string.digits, rng.randint(10, 13))
    kind = rng.randrange(3)
    if kind == 0:
        return f"xoxb-{digits()}-{digits()}-" + _draw(rng, ALNUM, 24)
    if kind == 1:
        return f"xoxp-{digits()}-{digits()}-{digits()}-" + _draw(rng, "0123456789abcdef", 32)
    return "xapp-1-A" + _draw(rng, string.ascii_uppercase + string.digits, 10) + f"-{digits()}-" \
        + _draw(rng, "0123456789abcdef", 64)


def _jwt(rng: random.Random) -> str:
    alg = rng.choice(("HS256", "RS256"))
    header = json.dumps({"alg": alg, "typ": "JWT"}, separators=(",", ":")).encode()
    claims = {"sub": _draw(rng, ALNUM, rng.randint(4, 16)), "iat": rng.randint(1_500_000_000, 1_900_000_000)}
    if rng.random() < 0.5:
        claims["role"] = rng.choice(("admin", "user", "reader"))
    payload = json.dumps(claims, separators=(",", ":")).encode()
    signature = rng.randbytes(32 if alg == "HS256" else 256)
    return ".".join(_b64url(part) for part in (header, payload, signature))


def _pem(rng: random.Random) -> str:
    kind = rng.choice(("", "RSA ", "EC ", "OPENSSH ", "ENCRYPTED "))
    body = base64.b64encode(rng.randbytes(rng.randint(48, 400))).decode()
    lines = "\n".join(body[i:i + 64] for i in range(0, len(body), 64))
    return f"-----BEGIN {kind}PRIVATE KEY-----\n{lines}\n-----END {kind}PRIVATE KEY-----"


SECRETS: dict[str, Callable[[random.Random], str]] = {
    "huggingface hf_": lambda rng: "hf_" + _draw(rng, string.ascii_letters, 34),
    "gitlab glpat-": _gitlab,
    "github ghp_/gho_/ghu_/ghs_/ghr_": lambda rng: rng.choice(("ghp", "gho", "ghu", "ghs", "ghr")) + "_"
    + _draw(rng, ALNUM, 36),
    "github github_pat_": lambda rng: "github_pat_" + _draw(rng, ALNUM, 22) + "_" + _draw(rng, ALNUM, 59),
    "stripe sk_/rk_ live/test": lambda rng: rng.choice(("sk_live_", "rk_live_", "sk_test_", "rk_test_"))
    + _draw(rng, ALNUM, rng.randint(24, 99)),
    "google AIza": lambda rng: "AIza" + _draw(rng, URLSAFE, 35),
    "anthropic sk-ant-": lambda rng: rng.choice(("sk-ant-api03-", "sk-ant-admin01-")) + _draw(rng, URLSAFE, 93) + "AA",
    "openai sk-proj-/svcacct-/admin-": _openai,
    "openai sk- (legacy)": lambda rng: "sk-" + _draw(rng, ALNUM, 20) + "T3BlbkFJ" + _draw(rng, ALNUM, 20),
    "slack xoxb-/xoxp-/xapp-": _slack,
    "aws AKIA/ASIA": lambda rng: rng.choice(("AKIA", "ASIA")) + _draw(rng, BASE32, 16),
    "npm npm_": lambda rng: "npm_" + _draw(rng, ALNUM, 36),
    "jwt": _jwt,
    "pem private key": _pem,
}


def _isbn(rng: random.Random) -> str:
    if rng.random() < 0.5:
        digits = [9, 7, 8, *(rng.randrange(10) for _ in range(9))]
        check = (10 - sum(d * (3 if i % 2 else 1) for i, d in enumerate(digits)) % 10) % 10
        text = "".join(map(str, [*digits, check]))
        return f"{text[:3]}-{text[3]}-{text[4:7]}-{text[7:12]}-{text[12]}"
    digits = [rng.randrange(10) for _ in range(9)]
    check = sum((10 - i) * d for i, d in enumerate(digits)) * 10 % 11 % 11
    return "".join(map(str, digits)) + ("X" if check == 10 else str(check))


def _data_uri(rng: random.Random) -> str:
    mime = rng.choice(("image/png", "image/jpeg", "image/gif", "application/pdf", "text/plain", "font/woff2"))
    return f"data:{mime};base64," + base64.b64encode(rng.randbytes(rng.randint(16, 300))).decode()


def _cuid(rng: random.Random) -> str:
    if rng.random() < 0.5:
        return "c" + _draw(rng, LOWER36, 24)  # cuid: c, then timestamp, counter, fingerprint, random in base36
    return rng.choice(string.ascii_lowercase) + _draw(rng, LOWER36, rng.choice((23, 23, 9, 31)))  # cuid2


ORDINARY: dict[str, Callable[[random.Random], str]] = {
    "uuid": lambda rng: str(uuid.UUID(int=rng.getrandbits(128), version=4)),
    "git sha-1": lambda rng: _draw(rng, "0123456789abcdef", 40),
    "git sha-256 / hex checksum": lambda rng: hashlib.sha256(rng.randbytes(16)).hexdigest(),
    "base64 sha-256 checksum": lambda rng: base64.b64encode(hashlib.sha256(rng.randbytes(16)).digest()).decode(),
    "data uri": _data_uri,
    "nanoid": lambda rng: _draw(rng, URLSAFE, 21),
    "cuid / cuid2": _cuid,
    "isbn": _isbn,
    "order id ord_": lambda rng: "ord_" + _draw(rng, ALNUM, rng.randint(14, 24)),
    "stripe object id": lambda rng: rng.choice(("cus_", "pi_", "ch_", "in_", "sub_", "prod_", "price_", "evt_",
                                                "txn_", "acct_", "pm_", "seti_", "re_", "po_"))
    + _draw(rng, ALNUM, rng.choice((14, 24))),
    "ulid": lambda rng: rng.choice("01234567") + _draw(rng, CROCKFORD, 25),
}


def drawn(kinds: dict[str, Callable[[random.Random], str]], per_kind: int = PER_KIND,
          seed: int = SEED) -> dict[str, list[tuple[str, str]]]:
    """For each kind, `per_kind` (value, sentence holding it), the same for the same seed."""
    rng = random.Random(seed)
    return {kind: [(value, rng.choice(SENTENCES).format(value)) for value in (make(rng) for _ in range(per_kind))]
            for kind, make in kinds.items()}
