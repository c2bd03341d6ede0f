"""The labelled set of benchmarks/labelled/ and the metrics scorer_accuracy.py reports on it.

Pure Python (no numpy, no judge), so tests/test_labelled_set.py can check the data and the
metrics on their own. Not a benchmark. The item format, the accuracy metrics and the scoring of
one item live in the package (pytest_llmfaith/selfcheck/judge_check.py), shared with the judge
self-check.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from pathlib import Path

from pytest_llmfaith.selfcheck.judge_check import (  # noqa: F401  (re-exported for the benchmarks)
    ITEM_FIELDS,
    SPLITS,
    UNITS,
    balanced_accuracy,
    class_accuracy,
    item_problems,
    passes,
    read_jsonl,
)

LABELLED = Path(__file__).resolve().parent / "labelled"
MASTRA_FILE = "mastra_cases.jsonl"

MASTRA_FIELDS = {"id": str, "scorer": str, "context": list, "output": str, "expected": (int, float),
                 "tolerance": (int, float), "source": str, "licence": str}

# Thresholds at which a score predicts "faithful": (name, faithfulness >= x, hallucination <= y).
THRESHOLDS = (("strict", 1.0, 0.0), ("loose", 0.7, 0.3))


def load_items(directory: Path = LABELLED) -> list[dict]:
    """Every item of directory/*.jsonl except the Mastra cases; raises ValueError on a bad item."""
    items = []
    for path in sorted(directory.glob("*.jsonl")):
        if path.name == MASTRA_FILE:
            continue
        for item in read_jsonl(path):
            if problems := item_problems(item):
                raise ValueError(f"{path.name}: {item.get('id')}: {', '.join(problems)}")
            items.append(item)
    return items


def load_mastra(directory: Path = LABELLED) -> list[dict]:
    path = directory / MASTRA_FILE
    return read_jsonl(path) if path.exists() else []


def hash_order(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def predicts_faithful(scorer: str, score: float, threshold: str) -> bool:
    _, f_min, h_max = next(t for t in THRESHOLDS if t[0] == threshold)
    return passes(scorer, score, f_min, h_max)


def faithful_score(scorer: str, score: float) -> float:
    """Higher = more faithful, for the AUC: the faithfulness score, or 1 - the hallucination score."""
    return score if scorer == "faithfulness" else 1.0 - score


def confusion(labels: Sequence[bool], preds: Sequence[bool]) -> dict[str, int]:
    """Counts with POSITIVE = UNFAITHFUL: tp = unfaithful item flagged, fn = unfaithful item passed,
    tn = faithful item passed, fp = faithful item flagged. labels/preds are 'faithful' booleans."""
    c = {"tp": 0, "fn": 0, "tn": 0, "fp": 0}
    for label, pred in zip(labels, preds):
        c[("fn" if pred else "tp") if not label else ("tn" if pred else "fp")] += 1
    return c


def roc_auc(scores: Sequence[float], labels: Sequence[bool]) -> float | None:
    """ROC AUC of `scores` (higher = more likely faithful) against `labels` (True = faithful).

    Mann-Whitney U with average ranks for ties: the probability that a random faithful item
    scores higher than a random unfaithful one, ties counting one half. None without both classes."""
    n_pos = sum(1 for truth in labels if truth)
    n_neg = len(labels) - n_pos
    if n_pos == 0 or n_neg == 0:
        return None
    order = sorted(range(len(scores)), key=lambda i: scores[i])
    ranks = [0.0] * len(scores)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and scores[order[j + 1]] == scores[order[i]]:
            j += 1
        avg = (i + j) / 2 + 1  # ranks are 1-based
        for k in range(i, j + 1):
            ranks[order[k]] = avg
        i = j + 1
    rank_sum = sum(r for r, truth in zip(ranks, labels) if truth)
    return (rank_sum - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg)


def median(values: Iterable[float]) -> float | None:
    v = sorted(values)
    if not v:
        return None
    mid = len(v) // 2
    return v[mid] if len(v) % 2 else (v[mid - 1] + v[mid]) / 2
