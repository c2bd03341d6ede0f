"""Retrieval over the product docs in examples/docs: one passage per sentence, ranked by
keyword overlap weighted by how rare each word is (a tiny TF-IDF). Pure Python, deterministic."""

from __future__ import annotations

import math
import re
from collections import Counter
from functools import lru_cache
from pathlib import Path

DOCS_DIR = Path(__file__).resolve().parent.parent / "docs"

# common words, plus the product name (it is in half of the passages, so it says nothing)
STOPWORDS = frozenset("""
a an and are as at be by can do does for from get how i in is it its my of on or the their
there they this to what when where which who why with you your acme cloud
""".split())


def _sentences(text: str) -> list[str]:
    body = " ".join(line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#"))
    return [s.strip() for s in re.split(r"(?<=[.!?])\s+", body) if s.strip()]


def _terms(text: str) -> list[str]:
    words = re.findall(r"[a-z0-9$%]+(?:[:-][a-z0-9]+)*", text.lower())
    # crude stemming: drop a plural "s", keep 5 letters ("stored", "stores" -> "store")
    return [(w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w)[:5]
            for w in words if len(w) > 1 and w not in STOPWORDS]


@lru_cache(maxsize=1)
def load_passages() -> tuple[str, ...]:
    """Every sentence of every doc, in a stable order (file name, then position)."""
    return tuple(s for path in sorted(DOCS_DIR.glob("*.md")) for s in _sentences(path.read_text(encoding="utf-8")))


@lru_cache(maxsize=1)
def _index() -> tuple[list[set[str]], dict[str, float]]:
    passages = [set(_terms(p)) for p in load_passages()]
    df = Counter(t for terms in passages for t in terms)
    idf = {t: math.log(len(passages) / n) for t, n in df.items()}
    return passages, idf


def retrieve(question: str, k: int = 2) -> list[str]:
    """The k passages sharing the most (rare) words with the question; ties keep doc order."""
    passages, idf = _index()
    wanted = set(_terms(question))
    scored = [(sum(idf[t] for t in wanted & terms), -i) for i, terms in enumerate(passages)]
    best = sorted(scored, reverse=True)[:k]
    texts = load_passages()
    return [texts[-i] for score, i in best if score > 0]
