"""How long `coverage.uncovered` takes on long outputs, today's against the claims x sentences loop
it replaced (issue 25, item 8: 0.3 / 1.2 / 7.4 s at 1k / 2k / 4k sentences, over 7 minutes at 26k).

Each output is n generated sentences with a claim per sentence ("Order 17 ships from warehouse
17 in Paris on day 17."), so every sentence is covered and both functions do all their work. The
old function runs only up to --old-limit sentences (default 8000; 26k took minutes), once each.

    .venv/bin/python benchmarks/coverage_speed.py [--sizes 1000 2000 4000 8000 26000] [--old-limit 8000]
"""

from __future__ import annotations

import argparse
import re
import time
from collections.abc import Callable, Sequence

from pytest_llmfaith.scorers.coverage import uncovered

# -- the function this replaced (pytest_llmfaith 5212e94, scorers/checks.py), kept only here --------
_OLD_STOPWORDS = frozenset("""
a an the and or but if of to in on at by for with from as into onto about than then that this these
those there here it its it's they them their he him his she her we our us you your i me my is are was
were be been being has have had do does did will would can could shall should may might must not no
so such which who whom whose what when where why how also very just only all any each both some
""".split())
_OLD_NUMBER = re.compile(r"\d+(?:,\d{3}(?!\d))*(?:\.\d+)?")
_OLD_SPLIT = re.compile(r"(?<=[.!?])[\"”')\]]*\s+")
_OLD_CLAUSE = re.compile(r"[,;:()]|\s(?:and|but|while|whereas|which|who|because|although)\s", re.IGNORECASE)


def _old_numbers(text: str) -> set[str]:  # digits only: the generated sentences have no number words
    found = set()
    for raw in _OLD_NUMBER.findall(text):
        value = raw.replace(",", "")
        found.add(re.sub(r"^0+(?=\d)", "", value.rstrip("0").rstrip(".") if "." in value else value))
    return found


def _old_content_words(text: str) -> set[str]:
    words = set()
    for w in re.findall(r"[^\W\d_]+(?:['’][^\W\d_]+)?", text.lower()):
        if w not in _OLD_STOPWORDS:
            for suffix in ("'s", "’s", "ing", "ed", "es", "s"):
                if w.endswith(suffix) and len(w) - len(suffix) >= 3:
                    w = w[: -len(suffix)]
                    break
            words.add(w)
    return words | _old_numbers(text)


def _old_dropped(clause: str, claimed_words: set[str]) -> bool:
    words = _old_content_words(clause)
    return len(words) >= 2 and len(words & claimed_words) < len(words) / 2


def old_uncovered(output: str, claims: Sequence[str]) -> list[str]:
    """The old loop: every sentence against every claim (its is_non_fact never matches here)."""
    claimed = [(_old_content_words(c), _old_numbers(c)) for c in claims]
    anywhere: set[str] = set().union(*(w for w, _ in claimed))
    missing = []
    for sentence in (s.strip() for line in output.splitlines() for s in _OLD_SPLIT.split(line) if s.strip()):
        wanted, digits = _old_content_words(sentence), _old_numbers(sentence)
        if not wanted:
            continue
        near = [(w, n) for w, n in claimed if len(w & wanted) >= max(1, len(wanted) // 3)]
        got_words: set[str] = set().union(*(w for w, _ in near))
        got_numbers: set[str] = set().union(*(n for _, n in near))
        if (len(got_words & wanted) < 0.6 * len(wanted) or not digits <= got_numbers
                or any(_old_dropped(c, anywhere) for c in _OLD_CLAUSE.split(sentence) if c.strip())):
            missing.append(sentence)
    return missing


# -- the benchmark -------------------------------------------------------------------------------
def long_output(n: int) -> tuple[str, list[str]]:
    sentences = [f"Order {i} ships from warehouse {i % 97} in {('Oslo', 'Bergen', 'Paris')[i % 3]} on day {i}."
                 for i in range(n)]
    return " ".join(sentences), sentences


def seconds(function: Callable[[str, Sequence[str]], list[str]], output: str, claims: list[str]) -> float:
    start = time.perf_counter()
    assert function(output, claims) == []  # every sentence covered: both did the whole comparison
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 2000, 4000, 8000, 26000])
    parser.add_argument("--old-limit", type=int, default=8000, help="largest output the old loop is run on")
    args = parser.parse_args()
    print(f"{'sentences':>9}  {'new (s)':>8}  {'old (s)':>8}")
    for n in args.sizes:
        output, claims = long_output(n)
        new = seconds(uncovered, output, claims)
        old = f"{seconds(old_uncovered, output, claims):8.2f}" if n <= args.old_limit else f"{'not run':>8}"
        print(f"{n:>9}  {new:8.2f}  {old}", flush=True)


if __name__ == "__main__":
    main()
