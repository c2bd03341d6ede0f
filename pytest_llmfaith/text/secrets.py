"""Secrets found by their shape and by their value, replaced with numbered placeholders
(`[secret 1]`, `[secret 2]`, ...: docs/cache-and-budget.md).

A leaf: the standard library only. `errors.redact` and `errors.redact_data` are the entry points;
this module holds the rules, so they can be tested and documented in one place.

- By shape, in any text, whatever variable (or none) held them: the tokens whose provider documents
  a prefix, an alphabet and a length (`PROVIDER_TOKEN`: Hugging Face, GitLab, GitHub, Stripe, Google,
  Anthropic, OpenAI, Slack, AWS, npm, Shopify), the password of a URL (`scheme://user:PASSWORD@host`),
  JWTs, `Authorization:` / `Bearer` credentials, `password=...`-style assignments (`DB_PASS=`,
  `?pass=`, `&key=`), `curl -u user:PASSWORD`, .netrc and .pgpass lines, private-key PEM blocks, and
  random tokens of no documented format (`random_token`), in a URL's path and query too (webhook URLs).
- By value: the values of the configured key variable, of variables named like a secret (`SECRET_NAME`)
  and the passwords of URLs in any variable, when they are `secret_like`; matched also when the text
  wraps them with spaces or line breaks inside, or splits them with quotes and `+`.
- Across a call (`Redaction`): a secret found in one text of a call is looked for in all of them, also
  URL-encoded or decoded, JSON-escaped, in base64 or decoded from it (`forms`).
A value that is not secret-like ("Stockholm", "EMPTY", "us-east-1") is never replaced, nor an id or a
digest that a rule recognises exactly (`kept_id`: SRI hashes, base64 digests, Bitcoin addresses, nanoid,
cuid, `cus_`/`ord_` object ids; and a data URI's base64) or that is written in capitals and digits only (order ids,
SKUs, IBANs, ULIDs) or in hex (UUIDs, git SHAs): the judge judges the output as written.

Identity: one `Placeholders` numbers the secrets of one redaction (a scorer's output, context and
input together): the same value gets the same placeholder, in any of its forms, different values
different ones, in order of appearance, after the numbers the data holds already. So a judge still
tells a wrong hash from the right one, and the same data always gives the same text (it enters cache keys).

The rules are measured on random draws of each documented format and of ordinary ids, a set they
were not tuned on (benchmarks/secrets_recall.py).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import math
import os
import re
from collections import Counter
from collections.abc import Callable, Iterable
from functools import lru_cache
from typing import Any
from urllib.parse import quote, quote_plus, unquote, unquote_plus

PLACEHOLDER = "[secret {}]"  # what a secret becomes: numbered, and in no rule's shape (a space, brackets)
PLACEHOLDERS = re.compile(r"\[secret (\d+)\]")
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
SECRET_NAME = re.compile(r"(KEY|TOKEN|SECRET|PASSWORD|PASSWD|PASS|PASSPHRASE|CREDENTIAL)S?(_ID)?$", re.IGNORECASE)

# -- the shapes -----------------------------------------------------------------------------
PEM = re.compile(r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----.*?"
                 r"(?:-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|\Z)", re.DOTALL)
JWT = re.compile(r"(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{10,}=*\.[A-Za-z0-9_-]{2,}=*\.[A-Za-z0-9_-]*=*")
# Tokens whose provider documents a prefix, an alphabet and a length (gitleaks' rules say the same):
# found whole, whatever their letters happen to be (random_token misses some draws of any alphabet).
PROVIDER_TOKEN = re.compile(r"(?<![A-Za-z0-9])(?:" + "|".join((
    r"hf_[A-Za-z]{34}", r"api_org_[A-Za-z]{34}",  # Hugging Face: access and organisation tokens
    r"gl(?:pat|dt|rt|ptt|ft|imt|oas|cbt|soat|ffct|agent)-[A-Za-z0-9_-]{20,}(?:\.[0-9a-z]{9})?",  # GitLab, routable too
    r"gh[pousr]_[A-Za-z0-9]{36,251}", r"github_pat_[A-Za-z0-9_]{82,}",  # GitHub
    r"(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{10,247}", r"whsec_[A-Za-z0-9]{32,}",  # Stripe: secret, restricted, webhook
    r"AIza[A-Za-z0-9_-]{35}",  # Google
    r"sk-ant-[a-z]+[0-9]*-[A-Za-z0-9_-]{20,}",  # Anthropic
    r"sk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{20,}", r"sk-[A-Za-z0-9]{20,}T3BlbkFJ[A-Za-z0-9]{20,}",  # OpenAI
    r"sk-[A-Za-z0-9]{48}",
    r"(?:xox[abposre]|xapp)-[A-Za-z0-9-]{10,}",  # Slack (hex tails too)
    r"(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}",  # AWS access key ids
    r"npm_[A-Za-z0-9]{36}", r"shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}",  # npm, Shopify
)) + r")(?![A-Za-z0-9])")
URL_USERINFO = re.compile(r"(?<![A-Za-z0-9+.-])(?P<scheme>[A-Za-z][A-Za-z0-9+.-]*://)(?P<user>[^\s:/?#@]*)"
                          r"(?::(?P<password>[^\s/?#]*))?@(?=[A-Za-z0-9\[])")
AUTHORIZATION = re.compile(r"(?P<head>\b(?:proxy-)?authorization[\"']?\s*[:=]\s*[\"']?"
                           r"(?:(?:bearer|basic|digest|token|negotiate|ntlm|apikey|api-key|key|hmac|"
                           r"aws4-hmac-sha256)\s+)?)(?P<value>[^\s\"',;&]+)", re.IGNORECASE)
BEARER = re.compile(r"(?P<head>\bbearer\s+)(?P<value>[A-Za-z0-9._~+/-]*[A-Za-z0-9_~+/-]=*)", re.IGNORECASE)
ASSIGNMENT = re.compile(
    r"(?P<head>(?<![A-Za-z0-9_.-])[A-Za-z0-9_.-]*?(?:pass|password|passwd|passphrase|pwd|secret|token|api[_-]?key|"
    r"access[_-]?key|private[_-]?key|[_-]key|(?-i:[a-z]Key)|(?<=[?&;])key|signature|sig|credentials?)"
    r"[\"']?\s*[:=]\s*)"
    r"(?P<value>\"[^\"\n]+\"|'[^'\n]+'|`[^`\n]+`|[^\s\"'`<>&,;()\[\]{}]*[^\s\"'`<>&,;()\[\]{}.])", re.IGNORECASE)
CURL_USER = re.compile(r"(?P<head>(?<!\S)(?:-u|-U|--user|--proxy-user)(?:=|\s*)[\"']?[^\s:\"']*:)"
                       r"(?P<value>[^\s\"']+)")
NETRC = re.compile(r"(?P<head>\b(?:machine\s+\S+|default)(?:\s+(?:login|account)\s+\S+)*\s+password\s+)(?P<value>\S+)")
MYSQL_PASSWORD = re.compile(r"(?P<head>\bmysql(?:dump|admin|import|show)?\b[^\n|;&]*?(?<!\S)-p)(?P<value>[^\s\"']+)")
PROSE = re.compile(r"(?P<head>\b(?:password|passwd|passphrase)\s+(?:is|was)\s+[\"'`]?)"
                   r"(?P<value>[^\s\"'`]*[^\s\"'`.,;:!?)])", re.IGNORECASE)  # "the password is hunter22!"
PGPASS = re.compile(r"(?P<head>(?<!\S)[^\s:]+:(?:\d{1,5}|\*):[^\s:]+:[^\s:]+:)(?P<value>(?:\\:|[^\s:])+)(?!\S)")
# A URL's scheme and host are kept, the token runs of its path and query checked; else a run of token characters.
URL_OR_RUN = re.compile(r"(?P<data>(?<![A-Za-z0-9+.-])data:[\w.+-]+/[\w.+-]+(?:;[\w.+-]+=[^;,\s]+)*;base64,"
                        r"[A-Za-z0-9+/]*=*)"  # a data URI: a picture or a file inline, kept whole
                        r"|(?P<url>(?<![A-Za-z0-9+.-])[A-Za-z][A-Za-z0-9+.-]*://[^\s<>\"'`]+)"
                        rf"|(?<![A-Za-z0-9_+/-])(?P<run>[A-Za-z0-9_+/-]{{{MIN_TOKEN_CHARS},}}=*)(?![A-Za-z0-9_+/-])")
URL_RUN = re.compile(rf"(?<![A-Za-z0-9_+-])[A-Za-z0-9_+-]{{{MIN_TOKEN_CHARS},}}=*(?![A-Za-z0-9_+-])")
_AUTHORITY = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://[^/?#]*")

# What any rule above needs to be present: text without it (most text) is returned after a few scans,
# each of which the regular expression engine runs fast (literals; a run from its start; the name
# before each ":" or "="): one pattern of them all took 40% longer.
_LITERAL_HINTS = ("-----BEGIN", "eyJ", "AKIA", "ASIA", "://")
_HEADER_HINT = re.compile(r"(?i:authorization|bearer|passw(?:or)?d\s|passphrase\s)|mysql"
                          r"|(?<!\S)(?:-u|-U|--user|--proxy-user)|:(?:\d|\*)")
_RUN_HINT = re.compile(rf"(?<![A-Za-z0-9_+/-])[A-Za-z0-9_+/-]{{{MIN_TOKEN_CHARS}}}")
_ASSIGNS = re.compile(r"[:=]")
_NAMED_BEFORE = re.compile(r"(?i:pass|password|passwd|passphrase|pwd|secret|token|key|signature|sig|credentials?)"
                           r"[\"']?\Z")
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
_CAPITALS = re.compile(r"[0-9A-Z]+")
_WORD_SEPARATORS = re.compile(r"[\s\-_./:]+")
_WORD = re.compile(r"[A-Za-z][a-z]*|[A-Z]+|[0-9]+")
_PASSPHRASE_SEPARATORS = re.compile(r"[\s_-]+")
_PATH = re.compile(r"(?:(?:~|\.{1,2})?/|[A-Za-z]:[\\/])[\w.~ /\\-]*")  # file names' characters only: "/#Zq8x=" is none


def entropy(text: str) -> float:
    """Shannon entropy of the characters of `text`, in bits per character."""
    n = len(text)
    return -sum(c / n * math.log2(c / n) for c in Counter(text).values()) if n else 0.0


def random_token(run: str) -> bool:
    """Whether a run of token characters ([A-Za-z0-9_+/-], `=` padding) is a random token: split at
    - _ / +, the segments that are random-looking (3 or more words, numbers or capitals averaging fewer
    than 3 characters each, with a small letter, and not hex) hold `MIN_RANDOM_CHARS` characters or more,
    with entropy of `MIN_TOKEN_ENTROPY` bits per character or more, and the run is no id `kept_id` knows.
    "sk-proj-...", "ghp_...", "xoxb-...", a base64 key: yes. Words, CamelCase names, model names
    ("Meta-Llama-3-70B-Instruct"), paths, numbers, dates, hex (git SHAs, UUIDs, cache keys), capitals and
    digits (order ids, SKUs, IBANs), SRI hashes, Bitcoin addresses, repetitions ("Q7x9Q7x9..."): no."""
    material = "".join(s for s in _SEGMENT_SEPARATORS.split(run.rstrip("=")) if _random_segment(s))
    return len(material) >= MIN_RANDOM_CHARS and entropy(material) >= MIN_TOKEN_ENTROPY and not kept_id(run)


def _random_segment(segment: str) -> bool:
    if len(segment) < 3 or _HEX.fullmatch(segment) or _CAPITALS.fullmatch(segment):
        return False
    chunks = len(_CHUNK.findall(segment))
    return chunks >= 3 and len(segment) < 3 * chunks


# -- ids that look random and are none: checked exactly, never guessed ------------------------
_SRI = re.compile(r"sha(256|384|512)-([A-Za-z0-9+/]+={0,2})")
_BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
_BASE58CHECK = re.compile(rf"[13][{_BASE58}]{{25,34}}")
_HEX_NUMBER = re.compile(r"0x[0-9a-fA-F]+")  # an Ethereum address (its checksum in the case of its letters)
_BECH32_CHARS = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"
_BECH32 = re.compile(rf"(bc|tb)1([{_BECH32_CHARS}]{{11,71}})")
_NANOID = re.compile(r"[A-Za-z0-9_-]{21}")  # nanoid's default: 21 of its alphabet
_CUID = re.compile(r"[a-z][0-9a-z]{1,31}")  # cuid (c and 24) and cuid2 (2 to 32, 24 by default): lower-case base36
_OBJECT_ID = re.compile(r"[a-z]{2,10}_[A-Za-z0-9]{8,32}")  # cus_..., pi_..., ord_...: PROVIDER_TOKEN ran first
_PADDED_BASE64 = re.compile(r"[A-Za-z0-9+/]+={1,2}")
_DIGEST_BYTES = (16, 20, 32, 64)  # MD5, SHA-1, SHA-256, SHA-512


def kept_id(run: str) -> bool:
    """An SRI hash (`sha384-` and base64 of that many bytes), a digest in padded base64 (of 16, 20, 32
    or 64 bytes), a Bitcoin address (base58 with its checksum, or bech32 with its checksum), a 0x
    number (Ethereum addresses), a nanoid, a cuid or an object id (`cus_`, `pi_`, `ord_` and 8 to 32
    letters and digits; a provider's token of that shape was found before): public ids a judge must
    compare, never a secret. A random secret of exactly these shapes is kept too: no shape tells them
    apart (a named one is found by its name: `key=`, `Bearer`, a URL's password)."""
    if any(shape.fullmatch(run) for shape in (_HEX_NUMBER, _NANOID, _CUID, _OBJECT_ID)):
        return True
    if _PADDED_BASE64.fullmatch(run) and len(run) * 3 // 4 - run.count("=") in _DIGEST_BYTES:
        return True
    if (sri := _SRI.fullmatch(run)) is not None:
        try:
            return len(base64.b64decode(sri[2], validate=True)) * 8 == int(sri[1])
        except (binascii.Error, ValueError):
            return False
    if _BASE58CHECK.fullmatch(run):
        number = 0
        for char in run:
            number = number * 58 + _BASE58.index(char)
        raw = number.to_bytes(25, "big") if number < 1 << 200 else b""
        return len(raw) == 25 and hashlib.sha256(hashlib.sha256(raw[:-4]).digest()).digest()[:4] == raw[-4:]
    if (bech := _BECH32.fullmatch(run)) is not None:
        return _bech32_polymod([*(ord(c) >> 5 for c in bech[1]), 0, *(ord(c) & 31 for c in bech[1]),
                                *(_BECH32_CHARS.index(c) for c in bech[2])]) in (1, 0x2BC830A3)
    return False


def _bech32_polymod(values: list[int]) -> int:
    check = 1
    for value in values:
        top = check >> 25
        check = (check & 0x1FFFFFF) << 5 ^ value
        for i, generator in enumerate((0x3B6A57B2, 0x26508E6D, 0x1EA119FA, 0x3D4233DD, 0x2A1462B3)):
            check ^= generator if top >> i & 1 else 0
    return check


def word_shaped(value: str) -> bool:
    """Every part of `value` between spaces, - _ . / : is one word ("Stockholm", "EMPTY", "east") or
    one number: a name, a place, a host, a region, a path of words; no secret mixes so little."""
    return all(_WORD.fullmatch(part) for part in _WORD_SEPARATORS.split(value) if part)


def secret_like(value: str, min_chars: int = MIN_VALUE_CHARS) -> bool:
    """Whether a value (surrounding whitespace stripped) can be a secret: `min_chars` or more, at least
    `MIN_VALUE_ENTROPY` bits per character, no placeholder, and either a credential by shape, or neither
    a path nor word-shaped, or a passphrase (3+ words joined by spaces, - or _, `MIN_PASSPHRASE_CHARS`+
    long). "s3cr3tPa55", "hunter22!", "correct-horse-battery": yes. "Stockholm", "EMPTY", "none",
    "true", "localhost", "us-east-1", "12345678", "/etc/ssl/server.key", "[secret 1]": no."""
    value = value.strip()
    if len(value) < min_chars or entropy(value) < MIN_VALUE_ENTROPY or PLACEHOLDERS.search(value):
        return False
    if len(_pieces(value, ())) > 1:
        return True
    if _PATH.fullmatch(value):
        return False
    return not word_shaped(value) or _passphrase(value)


def _passphrase(value: str) -> bool:
    return (len(value) >= MIN_PASSPHRASE_CHARS and not re.search(r"[./:\\]", value)
            and len(_PASSPHRASE_SEPARATORS.split(value)) >= 3)


def _opaque(value: str) -> bool:
    """A credential after `Bearer` or `Authorization:` (not a word of prose: "the bearer of ...")."""
    return len(value) >= MIN_VALUE_CHARS and not word_shaped(value) and entropy(value) >= MIN_VALUE_ENTROPY


def _assigned(value: str) -> bool:
    return secret_like(value, MIN_ASSIGNED_CHARS) or _passphrase(value)


def _literal(value: str) -> bool:
    """A password given on a command line, not a variable's name (`curl -u $USER:$TOKEN`)."""
    return not value.startswith(("$", "%", "{", "<", "***"))


def _pgpass_password(value: str) -> bool:
    """The last field of `host:port:database:user:password`; not a ratio or a time (3:2:1:4:5)."""
    return len(value) >= 4 and not value.isdigit()


# -- finding: each secret becomes a mark of its own while the rules run -------------------------
_OPEN, _KEEP, _CLOSE = "\ue000", "\ue002", "\ue001"  # private use: a mark holds the index of what it stands for
_MARK = re.compile(f"{_OPEN}(\\d+){_CLOSE}")  # a secret found
_KEPT = re.compile(f"{_KEEP}(\\d+){_CLOSE}")  # a placeholder the text held already
_PRIVATE = re.compile("[\ue000-\ue002]")


class _Finding:
    """The values found in one text, each replaced by a mark no later rule reads as a secret."""

    def __init__(self) -> None:
        self.values: list[str] = []

    def hide(self, value: str) -> str:
        if _OPEN in value or _KEEP in value:  # hidden already, or a placeholder: kept
            return value
        self.values.append(value)
        return f"{_OPEN}{len(self.values) - 1}{_CLOSE}"

    def whole(self, match: re.Match[str]) -> str:
        return self.hide(match[0])

    def value_if(self, test: Callable[[str], bool]) -> Callable[[re.Match[str]], str]:
        def replace(match: re.Match[str]) -> str:
            value = match["value"]
            quote = value[0] if value[0] in "\"'`" and len(value) > 1 and value[-1] == value[0] else ""
            inner = value[1:-1] if quote else value
            return f"{match['head']}{quote}{self.hide(inner)}{quote}" if test(inner) else match[0]
        return replace

    def userinfo(self, match: re.Match[str]) -> str:
        scheme, user, password = match["scheme"], match["user"], match["password"]
        if password:  # any password: the URL's shape says it is one
            return f"{scheme}{user}:{self.hide(password)}@"
        if password is None and _opaque(user):  # https://<token>@github.com
            return f"{scheme}{self.hide(user)}@"
        return match[0]

    def token(self, match: re.Match[str]) -> str:
        if match["data"] is not None:
            return match[0]
        run = match["run"]
        if run is None:  # a URL: its scheme and host kept, the random runs of the rest hidden
            url = match["url"]
            start = _AUTHORITY.match(url).end()  # type: ignore[union-attr]  # the URL pattern starts so
            rest = URL_RUN.sub(lambda m: self.hide(m[0]) if random_token(m[0]) else m[0], url[start:])
            return url[:start] + rest
        parts = run.split("/")
        if run.startswith("/") and sum(len(p) > 1 and word_shaped(p) for p in parts) >= 2:
            # a file's path ("/var/folders/..."), not base64: only a random folder name in it (macOS's $TMPDIR has one)
            return "/".join(self.hide(part) if random_token(part) else part for part in parts)
        return self.hide(run) if random_token(run) else run


def _shapes(text: str, found: _Finding) -> str:
    """`text` with every credential found by its shape (the module's docstring) hidden."""
    if not _hinted(text):
        return text
    if "-----BEGIN" in text:
        text = PEM.sub(found.whole, text)
    if "eyJ" in text:
        text = JWT.sub(found.whole, text)
    text = PROVIDER_TOKEN.sub(found.whole, text)
    if "://" in text:
        text = URL_USERINFO.sub(found.userinfo, text)
    text = AUTHORIZATION.sub(found.value_if(_opaque), text)
    text = BEARER.sub(found.value_if(_opaque), text)
    text = ASSIGNMENT.sub(found.value_if(_assigned), text)
    text = CURL_USER.sub(found.value_if(_literal), text)
    if "password" in text:
        text = NETRC.sub(found.value_if(_literal), text)
    if "mysql" in text:
        text = MYSQL_PASSWORD.sub(found.value_if(_literal), text)
    text = PROSE.sub(found.value_if(_assigned), text)
    text = PGPASS.sub(found.value_if(_pgpass_password), text)
    return URL_OR_RUN.sub(found.token, text)


@lru_cache(maxsize=2048)  # an answer is redacted again for the recordings, the report and the test's record
def _pieces(text: str, values: tuple[str, ...] = (), written: tuple[str, ...] = ()) -> tuple[str, ...]:
    """`text` split into what is kept and what is a secret: kept, secret, kept, ... (one piece: none).
    `values` (see `environment_values`) first, however wrapped; then `written` (the forms of the
    secrets the other texts of the call hold: `Redaction`), as written; then the shapes. The
    placeholders the text holds already are kept as they are (no rule reads "password is [secret 1]"
    as a password)."""
    if _PRIVATE.search(text):  # private-use characters of the text's own would read as marks
        text = _PRIVATE.sub("\ufffd", text)
    placeholders: list[str] = []

    def keep(match: re.Match[str]) -> str:
        placeholders.append(match[0])
        return f"{_KEEP}{len(placeholders) - 1}{_CLOSE}"

    if "[secret " in text:
        text = PLACEHOLDERS.sub(keep, text)
    found = _Finding()
    matcher = value_matcher(values)
    if matcher is not None:
        text = matcher.sub(lambda m: found.hide("".join(_SPLIT.split(m[0]))), text)
    if written:
        text = _written_matcher(written).sub(found.whole, text)
    text = _shapes(text, found)
    if placeholders:
        text = _KEPT.sub(lambda m: placeholders[int(m[1])], text)
    if not found.values:
        return (text,)
    pieces = _MARK.split(text)
    return tuple(found.values[int(piece)] if i % 2 else piece for i, piece in enumerate(pieces))


class Placeholders:
    """The numbers of one redaction: the same value the same `[secret N]`, a new one the next number
    after those the data holds already (`taken`, asked only when a secret is found)."""

    def __init__(self, taken: Callable[[], Iterable[str]] = tuple) -> None:
        self.numbers: dict[str, int] = {}
        self.taken = taken
        self.last: int | None = None

    def __call__(self, value: str) -> str:
        if value not in self.numbers:
            if self.last is None:
                self.last = max((int(n) for text in self.taken() for n in PLACEHOLDERS.findall(text)), default=0)
            self.last += 1
            self.numbers[value] = self.last
        return PLACEHOLDER.format(self.numbers[value])


def redact_shapes(text: str) -> str:
    """Replace every credential found by its shape (the module's docstring) with a numbered placeholder."""
    return redact(text)


def redact(text: str, values: tuple[str, ...] = ()) -> str:
    """`text` with `values` (see `environment_values`) and every credential found by shape replaced,
    numbered in `text` alone."""
    return Redaction((text,), values)(text)


class Redaction:
    """The texts of one call (a scorer's output, context passages and input; a record and its
    properties) redacted as one: a secret found in any of them, by shape or by value, is looked for
    in all of them, also as they may write it (`forms`), and every form of it gets its number. A
    context's `HF_TOKEN=hf_...` and the answer's bare copy are one `[secret 1]`; so are a URL's
    percent-encoded password and the answer's decoded one. `texts` must hold every text the
    redaction will be asked for: a secret only the asked text holds is found all the same, but the
    other texts are not searched for it."""

    def __init__(self, texts: Iterable[str], values: tuple[str, ...] = ()) -> None:
        self.texts = tuple(texts)
        self.values = values
        found = {secret for text in self.texts for secret in _pieces(text, values)[1::2]}
        written = {form: secret for secret in sorted(found) if _assigned(secret) for form in forms(secret)}
        self.written = tuple(sorted(written))
        self.secret_of = _one_per_secret(found, written)
        self.placeholders = Placeholders(lambda: self.texts)

    def __call__(self, text: str) -> str:
        pieces = _pieces(text, self.values, self.written)
        if len(pieces) == 1:
            return pieces[0]
        number = self.placeholders
        return "".join(number(self.secret_of.get(piece, piece)) if i % 2 else piece for i, piece in enumerate(pieces))


def _one_per_secret(found: set[str], written: dict[str, str]) -> dict[str, str]:
    """Each secret found and each form to one secret of those found: a secret found twice, in two forms
    (a context's token and the answer's base64 of it), is one."""
    same = {secret: secret for secret in found}

    def first(secret: str) -> str:
        while same[secret] != secret:
            secret = same[secret]
        return secret

    for form, secret in written.items():
        if form in found:  # two found secrets, one a form of the other: the first in order stands for both
            one, other = sorted((first(form), first(secret)))
            same[other] = one
    return {value: first(secret) for value, secret in [*written.items(), *same.items()]}


_HEX_ESCAPE = re.compile(r"%[0-9A-F]{2}")


def forms(secret: str) -> set[str]:
    """`secret` as another text may write it: as found, and what it stands for (URL-decoded,
    JSON-unescaped, the text it is the base64 of: Basic credentials, and the password after their
    `:`), each also URL-encoded (upper- or lower-case escapes, `+` for a space or not), JSON-escaped
    and in base64 (standard or URL-safe, padded or not). Only forms of `MIN_ASSIGNED_CHARS` or more:
    a shorter one is a piece of any text."""
    plain = {secret, unquote(secret), unquote_plus(secret)}
    try:
        plain.add(json.loads(f'"{secret}"'))
    except ValueError:  # not a JSON string's inside
        pass
    decoded = _base64_text(secret)
    if decoded is not None:
        plain.update((decoded, decoded.partition(":")[2]))
    written = set(plain)
    for value in plain:
        encoded = {quote(value, safe=""), quote(value, safe="/:@"), quote_plus(value, safe="")}
        written.update(encoded, (_HEX_ESCAPE.sub(lambda m: m[0].lower(), e) for e in encoded))
        written.update((json.dumps(value)[1:-1], json.dumps(value, ensure_ascii=False)[1:-1]))
        for code in (base64.b64encode(value.encode()).decode(), base64.urlsafe_b64encode(value.encode()).decode()):
            written.update((code, code.rstrip("=")))
    return {form for form in written if len(form) >= MIN_ASSIGNED_CHARS}


def _base64_text(value: str) -> str | None:
    """The text `value` is the base64 of (standard or URL-safe), if it is printable text."""
    try:
        raw = base64.b64decode(value + "=" * (-len(value) % 4), altchars=b"-_" if "-" in value or "_" in value
                               else None, validate=True)
        text = raw.decode()
    except (binascii.Error, ValueError):  # UnicodeDecodeError too
        return None
    return text if text.isprintable() else None


@lru_cache(maxsize=64)
def _written_matcher(written: tuple[str, ...]) -> re.Pattern[str]:
    """One pattern for the forms of a call's secrets, longest first, each not part of a longer word or token."""
    def bounded(form: str) -> str:
        before = r"(?<![A-Za-z0-9])" if form[0].isalnum() else ""
        after = r"(?![A-Za-z0-9])" if form[-1].isalnum() else ""
        return f"{before}{re.escape(form)}{after}"
    return re.compile("|".join(bounded(form) for form in sorted(written, key=len, reverse=True)))


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


_SPLIT = re.compile(r"[\s\"'`+\\]+")  # what may come between the characters of a value the text quotes


@lru_cache(maxsize=1024)
def _value_pattern(value: str) -> str:
    """The pattern of a secret-like value: its characters (whitespace stripped) with anything `_SPLIT`
    allows between them (a key the output wrapped over lines, or split into quoted parts joined by `+`),
    or "" for a value that is not secret-like."""
    if not secret_like(value):
        return ""
    return r"[\s\"'`+\\]*".join(re.escape(c) for c in "".join(value.split()))


@lru_cache(maxsize=64)
def value_matcher(values: tuple[str, ...]) -> re.Pattern[str] | None:
    """One compiled pattern for all of `values` (longest first), built once per set of values."""
    patterns = sorted({_value_pattern(v) for v in values} - {""}, key=len, reverse=True)
    return re.compile("|".join(patterns)) if patterns else None
