"""Labelled items and the figures computed from them, shared by the self-check and the benchmarks.

Stdlib only and no judge: benchmarks/_labelled.py re-exports this, and its data tests use it alone.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pytest_llmfaith.errors import BudgetExceeded

UNITS = ("claim", "answer")
SPLITS = ("dev", "test")
ITEM_FIELDS = {"id": str, "source": str, "licence": str, "unit": str, "kind": str, "split": str,
               "context": list, "output": str, "faithful": bool, "no_claims": bool}


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def item_problems(item: dict[str, Any]) -> list[str]:
    """What is wrong with one labelled item of the benchmark format (empty list: valid)."""
    problems = []
    for field, kind in ITEM_FIELDS.items():
        if field not in item:
            problems.append(f"missing {field}")
        elif not isinstance(item[field], kind):
            problems.append(f"{field} is not {kind.__name__}")
    if problems:
        return problems
    if item["unit"] not in UNITS:
        problems.append(f"unit {item['unit']!r} not in {UNITS}")
    if item["split"] not in SPLITS:
        problems.append(f"split {item['split']!r} not in {SPLITS}")
    if not all(isinstance(p, str) for p in item["context"]):
        problems.append("context has a non-str passage")
    if item["no_claims"] and not item["faithful"]:
        problems.append("no_claims items must be faithful")
    if not item["id"].strip() or not item["output"].strip() and not item["no_claims"]:
        problems.append("empty id, or empty output not marked no_claims")
    return problems


def passes(scorer: str, score: float, min_faithfulness: float, max_hallucination: float) -> bool:
    """Whether a score predicts "faithful" at these thresholds."""
    return score >= min_faithfulness - 1e-9 if scorer == "faithfulness" else score <= max_hallucination + 1e-9


def score_item(scorer: Any, output: str, context: list[str]) -> dict[str, Any]:
    """Run one scorer on one item; a judge error is a figure (recorded), not a crash."""
    try:
        result = scorer.run(output, context)
    except BudgetExceeded:
        raise  # the run's budget, not the judge: every item after it would be refused too
    except Exception as err:  # a judge error is a figure, not a crash
        return {"score": None, "claims": None, "error": f"{type(err).__name__}: {err}"[:300], "calls": []}
    return {
        "score": result.score, "claims": len(result.claims), "error": None,
        "verdicts": [v.verdict for v in result.verdicts],
        "claim_texts": list(result.claims), "reasons": [v.reason for v in result.verdicts],
        # the judge's claims, and how many of them were kept (their words are the output's)
        "answered": len(result.preprocess_step_result.get("claims", [])),
        "kept": sum(not v.sentence for v in result.verdicts),
        "calls": [{"step": c.step, "cached": c.cached, "latency_s": round(c.latency_s, 3)} for c in result.judge_calls],
    }


def balanced_accuracy(labels: Sequence[bool], preds: Sequence[bool]) -> float | None:
    """Mean of the recall on faithful items and the recall on unfaithful items; None without both classes."""
    pos = [p for truth, p in zip(labels, preds) if truth]
    neg = [p for truth, p in zip(labels, preds) if not truth]
    if not pos or not neg:
        return None
    return (sum(pos) / len(pos) + sum(not p for p in neg) / len(neg)) / 2


def class_accuracy(labels: Sequence[bool], preds: Sequence[bool]) -> float | None:
    """Plain accuracy (used where a group has one class only)."""
    return sum(truth == p for truth, p in zip(labels, preds)) / len(labels) if labels else None
