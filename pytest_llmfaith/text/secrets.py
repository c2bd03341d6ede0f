"""Secrets found by their shape and by their value, replaced with `***` (docs/cache-and-budget.md).

A leaf: the standard library only. `errors.redact` and `errors.redact_data` are the entry points;
this module holds the rules, so they can be tested and documented in one place.

- By shape, in any text, whatever variable (or none) held them: the password of a URL
  (`scheme://user:PASSWORD@host`), AWS access key ids, JWTs, `Authorization:` / `Bearer` credentials,
  `password=...`-style assignments, private-key PEM blocks, and random tokens (`random_token`).
- By value: the values of the configured key variable, of variables named like a secret (`SECRET_NAME`)
  and the passwords of URLs in any variable, when they are `secret_like`; matched also when the text
  wraps them with spaces or line breaks inside.
A value that is not secret-like ("Stockholm", "EMPTY", "us-east-1") is never replaced: the judge
judges the output as written.
"""

from __future__ import annotations

import math
import os
import re
from collections import Counter
from collections.abc import Callable, Iterable
from functools import lru_cache
from typing import Any

MARK = "***"
MIN_VALUE_CHARS = 8  # shorter values ("EMPTY", "none") are placeholders, and common words
MIN_ASSIGNED_CHARS = 6  # after `password=`, the name says what it is: shorter passwords count too
MIN_VALUE_ENTROPY = 2.5  # bits per character: below it a value is a repetition ("xxxxxxxx", "12121212")
MIN_PASSPHRASE_CHARS = 20  # three or more words this long are a passphrase, not a name
MIN_TOKEN_CHARS = 20  # a run shorter than this is never a token by shape
MIN_RANDOM_CHARS = 12  # characters in random-looking segments a token needs (see random_token)
MIN_TOKEN_ENTROPY = 3.0  # bits per character of those segments: random base62 has more in 99% of 12-character
#   samples (> 3.3 at 16), repetitions such as "Q7x9Q7x9..." (2.0) or "aB1aB1..." (1.6) less

# Names that suggest a secret (matched case-insensitively at the end of the name, `_ID` allowed):
# only to say whose values are matched by value; what is replaced is decided by the value's shape.
SECRET_NAME = re.compile(r"(KEY|TOKEN|SECRET|PASSWORD|PASSWD|PASSPHRASE|CREDENTIAL)S?(_ID)?$", re.IGNORECASE)

# -- the shapes -----------------------------------------------------------------------------
PEM = re.compile(r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----.*?"
                 r"(?:-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|\Z)", re.DOTALL)
JWT = re.compile(r"(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{10,}=*\.[A-Za-z0-9_-]{2,}=*\.[A-Za-z0-9_-]*=*")
AWS_KEY_ID = re.compile(r"(?<![A-Za-z0-9])(?:AKIA|ASIA)[A-Z0-9]{16}(?![A-Za-z0-9])")
URL_USERINFO = re.compile(r"(?<![A-Za-z0-9+.-])(?P<scheme>[A-Za-z][A-Za-z0-9+.-]*://)(?P<user>[^\s:/?#@]*)"
                          r"(?::(?P<password>[^\s/?#]*))?@(?=[A-Za-z0-9\[])")
AUTHORIZATION = re.compile(r"(?P<head>\b(?:proxy-)?authorization[\"']?\s*[:=]\s*[\"']?"
                           r"(?:(?:bearer|basic|digest|token|negotiate|ntlm|apikey|api-key|key|hmac|"
                           r"aws4-hmac-sha256)\s+)?)(?P<value>[^\s\"',;&]+)", re.IGNORECASE)
BEARER = re.compile(r"(?P<head>\bbearer\s+)(?P<value>[A-Za-z0-9._~+/-]*[A-Za-z0-9_~+/-]=*)", re.IGNORECASE)
ASSIGNMENT = re.compile(
    r"(?P<head>(?<![A-Za-z0-9_.-])[A-Za-z0-9_.-]*?(?:password|passwd|passphrase|pwd|secret|token|api[_-]?key|"
    r"access[_-]?key|private[_-]?key|signature|sig|credentials?)[\"']?\s*[:=]\s*)"
    r"(?P<value>\"[^\"\n]+\"|'[^'\n]+'|`[^`\n]+`|[^\s\"'`<>&,;()\[\]{}]*[^\s\"'`<>&,;()\[\]{}.])", re.IGNORECASE)
# A URL is skipped whole by the token rule (its password is the URL rule's); else a run of token characters.
URL_OR_RUN = re.compile(r"(?P<url>(?<![A-Za-z0-9+.-])[A-Za-z][A-Za-z0-9+.-]*://[^\s<>\"'`]+)"
                        rf"|(?<![A-Za-z0-9_+/-])(?P<run>[A-Za-z0-9_+/-]{{{MIN_TOKEN_CHARS},}}=*)(?![A-Za-z0-9_+/-])")

# What any rule above needs to be present: text without it (most text) is returned after a few scans,
# each of which the regular expression engine runs fast (literals; a run from its start; the name
# before each ":" or "="): one pattern of them all took 40% longer.
_LITERAL_HINTS = ("-----BEGIN", "eyJ", "AKIA", "ASIA", "://")
_HEADER_HINT = re.compile(r"(?i:authorization|bearer)")
_RUN_HINT = re.compile(rf"(?<![A-Za-z0-9_+/-])[A-Za-z0-9_+/-]{{{MIN_TOKEN_CHARS}}}")
_ASSIGNS = re.compile(r"[:=]")
_NAMED_BEFORE = re.compile(r"(?i:password|passwd|passphrase|pwd|secret|token|key|signature|sig|credentials?)[\"']?\Z")
_LONGEST_NAME = len("credentials") + 1  # and its quote


def _hinted(text: str) -> bool:
    """Whether any rule above could apply: `redact_shapes`'s first question of every text."""
    if any(hint in text for hint in _LITERAL_HINTS) or _RUN_HINT.search(text) or _HEADER_HINT.search(text):
        return True
    for sign in _ASSIGNS.finditer(text):
        end = sign.start()
        while end and text[end - 1].isspace():
            end -= 1
        if _NAMED_BEFORE.search(text, max(end - _LONGEST_NAME, 0), end):
            return True
    return False


_SEGMENT_SEPARATORS = re.compile(r"[-_/+]")
_CHUNK = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+")  # a word, a Capitalized word, an ACRONYM, a number
_HEX = re.compile(r"[0-9a-f]+|[0-9A-F]+")
_WORD_SEPARATORS = re.compile(r"[\s\-_./:]+")
_WORD = re.compile(r"[A-Za-z][a-z]*|[A-Z]+|[0-9]+")
_PASSPHRASE_SEPARATORS = re.compile(r"[\s_-]+")
_PATH = re.compile(r"(?:~|\.{1,2})?/|[A-Za-z]:[\\/]")


def entropy(text: str) -> float:
    """Shannon entropy of the characters of `text`, in bits per character."""
    n = len(text)
    return -sum(c / n * math.log2(c / n) for c in Counter(text).values()) if n else 0.0


def random_token(run: str) -> bool:
    """Whether a run of token characters ([A-Za-z0-9_+/-], `=` padding) is a random token: split at
    - _ / +, the segments that are random-looking (3 or more words, numbers or capitals averaging fewer
    than 3 characters each, and not hex) hold `MIN_RANDOM_CHARS` characters or more, with entropy of
    `MIN_TOKEN_ENTROPY` bits per character or more. "sk-proj-...", "ghp_...", "xoxb-...", a base64 key:
    yes. Words, CamelCase names, model names ("Meta-Llama-3-70B-Instruct"), paths, numbers, dates,
    hex (git SHAs, UUIDs, cache keys), repetitions ("Q7x9Q7x9..."): no."""
    material = "".join(s for s in _SEGMENT_SEPARATORS.split(run.rstrip("=")) if _random_segment(s))
    return len(material) >= MIN_RANDOM_CHARS and entropy(material) >= MIN_TOKEN_ENTROPY


def _random_segment(segment: str) -> bool:
    if len(segment) < 3 or _HEX.fullmatch(segment):
        return False
    chunks = len(_CHUNK.findall(segment))
    return chunks >= 3 and len(segment) < 3 * chunks


def word_shaped(value: str) -> bool:
    """Every part of `value` between spaces, - _ . / : is one word ("Stockholm", "EMPTY", "east") or
    one number: a name, a place, a host, a region, a path of words; no secret mixes so little."""
    return all(_WORD.fullmatch(part) for part in _WORD_SEPARATORS.split(value) if part)


def secret_like(value: str, min_chars: int = MIN_VALUE_CHARS) -> bool:
    """Whether a value (surrounding whitespace stripped) can be a secret: `min_chars` or more, at least
    `MIN_VALUE_ENTROPY` bits per character, and either a credential by shape, or neither a path nor
    word-shaped, or a passphrase (3+ words joined by spaces, - or _, `MIN_PASSPHRASE_CHARS`+ long).
    "s3cr3tPa55", "hunter22!", "correct-horse-battery": yes. "Stockholm", "EMPTY", "none", "true",
    "localhost", "us-east-1", "12345678", "/etc/ssl/server.key": no."""
    value = value.strip()
    if len(value) < min_chars or entropy(value) < MIN_VALUE_ENTROPY:
        return False
    if redact_shapes(value) != value:
        return True
    if _PATH.match(value):
        return False
    return not word_shaped(value) or _passphrase(value)


def _passphrase(value: str) -> bool:
    return (len(value) >= MIN_PASSPHRASE_CHARS and not re.search(r"[./:\\]", value)
            and len(_PASSPHRASE_SEPARATORS.split(value)) >= 3)


def _opaque(value: str) -> bool:
    """A credential after `Bearer` or `Authorization:` (not a word of prose: "the bearer of ...")."""
    return len(value) >= MIN_VALUE_CHARS and not word_shaped(value) and entropy(value) >= MIN_VALUE_ENTROPY


def _userinfo(match: re.Match[str]) -> str:
    scheme, user, password = match["scheme"], match["user"], match["password"]
    if password:  # any password: the URL's shape says it is one
        return f"{scheme}{user}:{MARK}@"
    if password is None and _opaque(user):  # https://<token>@github.com
        return f"{scheme}{MARK}@"
    return match[0]


def _if(test: Callable[[str], bool]) -> Callable[[re.Match[str]], str]:
    def replace(match: re.Match[str]) -> str:
        value = match["value"]
        quote = value[0] if value[0] in "\"'`" and len(value) > 1 and value[-1] == value[0] else ""
        inner = value[1:-1] if quote else value
        return f"{match['head']}{quote}{MARK}{quote}" if test(inner) else match[0]
    return replace


def _assigned(value: str) -> bool:
    return secret_like(value, MIN_ASSIGNED_CHARS) or _passphrase(value)


def _token(match: re.Match[str]) -> str:
    run = match["run"]
    if run is None:
        return match[0]  # a URL
    parts = run.split("/")
    if run.startswith("/") and sum(len(p) > 1 and word_shaped(p) for p in parts) >= 2:
        # a file's path ("/var/folders/..."), not base64: only a random folder name in it (macOS's $TMPDIR has one)
        return "/".join(MARK if random_token(part) else part for part in parts)
    return MARK if random_token(run) else run


def redact_shapes(text: str) -> str:
    """Replace every credential found by its shape (the module's docstring) with `***`."""
    if not _hinted(text):
        return text
    if "-----BEGIN" in text:
        text = PEM.sub(MARK, text)
    if "eyJ" in text:
        text = JWT.sub(MARK, text)
    if "AKIA" in text or "ASIA" in text:
        text = AWS_KEY_ID.sub(MARK, text)
    if "://" in text:
        text = URL_USERINFO.sub(_userinfo, text)
    text = AUTHORIZATION.sub(_if(_opaque), text)
    text = BEARER.sub(_if(_opaque), text)
    text = ASSIGNMENT.sub(_if(_assigned), text)
    return URL_OR_RUN.sub(_token, text)


# -- by value -------------------------------------------------------------------------------
def environment_values(names: Iterable[str | None] = ()) -> tuple[str, ...]:
    """The secret-like values of the environment now: of the variables `names` (the configured key
    variable, whatever its name), of every variable whose name matches `SECRET_NAME`, and the
    passwords of URLs in any variable (DATABASE_URL). Read at each call, so a key a fixture set is
    found; worked out again only when the environment changed (a cached re-run redacts each of
    its answers: reading every variable's name each time cost it 2 ms an assertion)."""
    raw = os.environb if os.supports_bytes_environ else os.environ  # bytes: no decoding to compare
    return _environment_values(tuple(name for name in names if name), tuple(raw.items()))


@lru_cache(maxsize=8)
def _environment_values(names: tuple[str, ...], _snapshot: tuple[tuple[Any, Any], ...]) -> tuple[str, ...]:
    values = {os.environ.get(name) or "" for name in names}
    for name, value in os.environ.items():
        if SECRET_NAME.search(name):
            values.add(value)
        elif "://" in value and "@" in value:
            values.update(_url_passwords(value))
    return tuple(sorted(v for v in values if _value_pattern(v)))


@lru_cache(maxsize=256)
def _url_passwords(value: str) -> tuple[str, ...]:
    return tuple(m["password"] for m in URL_USERINFO.finditer(value) if m["password"])


@lru_cache(maxsize=1024)
def _value_pattern(value: str) -> str:
    """The pattern of a secret-like value: its characters with any whitespace allowed between them
    (a key the output wrapped over lines), or "" for a value that is not secret-like."""
    if not secret_like(value):
        return ""
    return r"\s*".join(re.escape(c) for c in "".join(value.split()))


@lru_cache(maxsize=64)
def value_matcher(values: tuple[str, ...]) -> re.Pattern[str] | None:
    """One compiled pattern for all of `values` (longest first), built once per set of values."""
    patterns = sorted({_value_pattern(v) for v in values} - {""}, key=len, reverse=True)
    return re.compile("|".join(patterns)) if patterns else None


@lru_cache(maxsize=2048)  # an answer is redacted again for the recordings, the report and the test's record
def redact(text: str, values: tuple[str, ...] = ()) -> str:
    """`text` with `values` (see `environment_values`) and every credential found by shape replaced."""
    matcher = value_matcher(values)
    if matcher is not None:
        text = matcher.sub(MARK, text)
    return redact_shapes(text)
