"""Recall and false redactions of the redaction rules, per format, on a set they were not tuned on.

    python benchmarks/secrets_recall.py                     # this checkout's rules
    python benchmarks/secrets_recall.py --package /tmp/old  # another checkout's (its pytest_llmfaith/)

The set is benchmarks/_secret_set.py: random draws from each provider's documented format and random
ordinary ids, each in a neutral sentence (seeded: the same set every run). A secret is missed when
12 or more of its characters in a row survive (a PEM block: of its body); an id is falsely redacted
when its sentence changes at all. "Across a call" redacts a context passage holding a random password
(in `DB_PASSWORD=`, a URL, "the password is") and an answer holding it in one form (as written,
URL-encoded, decoded, JSON-escaped, base64): missed when that form survives in the answer.
"""

from __future__ import annotations

import argparse
import base64
import json
import random
import string
import sys
from collections.abc import Callable
from pathlib import Path
from urllib.parse import quote

HERE = Path(__file__).resolve().parent
WINDOW = 12  # characters of a secret in a row that count as a leak

Redact = Callable[[str, list[str]], tuple[str, list[str]]]  # (answer, context) -> redacted


def material(value: str) -> list[str]:
    """What must not survive of a secret: a PEM block's body lines, else the value."""
    if value.startswith("-----BEGIN"):
        return [line for line in value.splitlines() if not line.startswith("-----")]
    return [value]


def leaked(value: str, text: str) -> bool:
    """Whether `WINDOW` characters in a row of the secret's material are in `text`."""
    return any(part[i:i + WINDOW] in text for part in material(value) for i in range(max(len(part) - WINDOW + 1, 1)))


_PASSWORD = string.ascii_letters + string.digits + "!@#%*/:+=?$"


def across_a_call(per_form: int, seed: int) -> dict[str, list[tuple[str, list[str], str]]]:
    """Per form of the answer: (answer, context, what must be gone from the answer)."""
    rng = random.Random(seed)
    forms: dict[str, Callable[[str], str]] = {
        "as written": lambda v: v,
        "url-encoded": lambda v: quote(v, safe=""),
        "json-escaped": lambda v: json.dumps(v)[1:-1],
        "base64": lambda v: base64.b64encode(v.encode()).decode(),
    }
    cases: dict[str, list[tuple[str, list[str], str]]] = {f"password, {form}": [] for form in forms}
    cases["url password, decoded"] = []
    for _ in range(per_form):
        for form, make in forms.items():
            value = "".join(rng.choice(_PASSWORD) for _ in range(rng.randint(10, 20)))
            value += "\\" if form == "json-escaped" else ""  # what JSON escapes
            context = rng.choice((f"DB_PASSWORD={value}", f"The password is {value}",
                                  f"postgres://app:{quote(value, safe='')}@db.internal:5432/shop"))
            written = make(value)
            cases[f"password, {form}"].append((f"The answer uses {written} to log in.", [context], written))
        value = "".join(rng.choice(_PASSWORD) for _ in range(rng.randint(10, 20))) + "@"
        context = f"DATABASE_URL=postgres://app:{quote(value, safe='')}@db.internal:5432/shop"
        cases["url password, decoded"].append((f"The answer uses {value} to log in.", [context], value))
    return cases


def measure(redact: Redact, per_kind: int, seed: int) -> list[tuple[str, str, int, int]]:
    """(part, kind, set size, misses or false redactions) for every kind of the set."""
    from _secret_set import ORDINARY, SECRETS, drawn

    rows = []
    for kind, items in drawn(SECRETS, per_kind, seed).items():
        rows.append(("secret", kind, len(items), sum(leaked(v, redact(text, [])[0]) for v, text in items)))
    for kind, items in drawn(ORDINARY, per_kind, seed).items():
        rows.append(("ordinary", kind, len(items), sum(redact(text, [])[0] != text for _, text in items)))
    for kind, cases in across_a_call(per_kind // 3, seed).items():
        missed = sum(gone in redact(answer, context)[0] for answer, context, gone in cases)
        rows.append(("across", kind, len(cases), missed))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--package", type=Path, default=HERE.parent,
                        help="the checkout whose pytest_llmfaith to measure")
    parser.add_argument("--per-kind", type=int, default=300)
    parser.add_argument("--seed", type=int, default=53)
    args = parser.parse_args()
    sys.path[:0] = [str(HERE), str(args.package)]
    from pytest_llmfaith.errors import redact_data

    def redact(answer: str, context: list[str]) -> tuple[str, list[str]]:
        return redact_data((answer, context))

    print(f"rules of {args.package}, seed {args.seed}")
    print(f"{'part':9} {'kind':34} {'size':>5} {'missed / changed':>17}")
    for part, kind, size, wrong in measure(redact, args.per_kind, args.seed):
        print(f"{part:9} {kind:34} {size:5} {wrong:17}")


if __name__ == "__main__":
    main()
