"""The labelled set of benchmarks/labelled/ and the metrics of benchmarks/scorer_accuracy.py (no judge)."""

from __future__ import annotations

import importlib.util
import sys
from collections import Counter
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parent.parent / "benchmarks"


def _load():
    spec = importlib.util.spec_from_file_location("_labelled", BENCH / "_labelled.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("_labelled", module)
    spec.loader.exec_module(module)
    return module


L = _load()


# -- metrics ----------------------------------------------------------------------------------
def test_balanced_accuracy():
    labels = [True, True, True, True, False, False]
    preds = [True, True, True, False, False, True]
    assert L.balanced_accuracy(labels, preds) == pytest.approx((3 / 4 + 1 / 2) / 2)
    assert L.balanced_accuracy([True, False], [True, False]) == 1.0
    assert L.balanced_accuracy([True, False], [False, True]) == 0.0
    # always "faithful" is 0.5 whatever the class balance
    assert L.balanced_accuracy([True] * 9 + [False], [True] * 10) == 0.5
    assert L.balanced_accuracy([True, True], [True, False]) is None  # one class only


def test_confusion_positive_is_unfaithful():
    labels = [False, False, True, True, True]  # faithful?
    preds = [False, True, True, False, True]
    assert L.confusion(labels, preds) == {"tp": 1, "fn": 1, "tn": 2, "fp": 1}


def _auc_bruteforce(scores, labels):
    pos = [s for s, truth in zip(scores, labels) if truth]
    neg = [s for s, truth in zip(scores, labels) if not truth]
    return sum(1.0 if p > n else 0.5 if p == n else 0.0 for p in pos for n in neg) / (len(pos) * len(neg))


def test_auc_perfect_inverted_and_all_tied():
    assert L.roc_auc([0.9, 0.8, 0.1, 0.2], [True, True, False, False]) == 1.0
    assert L.roc_auc([0.1, 0.2, 0.9, 0.8], [True, True, False, False]) == 0.0
    assert L.roc_auc([0.5] * 6, [True, False] * 3) == 0.5
    assert L.roc_auc([1.0, 0.0], [True, True]) is None


def test_auc_with_ties_matches_pairwise_count():
    scores = [1.0, 1.0, 0.67, 0.5, 0.5, 0.5, 0.0, 0.0, 1.0, 0.33]
    labels = [True, False, True, True, False, False, False, True, True, False]
    assert L.roc_auc(scores, labels) == pytest.approx(_auc_bruteforce(scores, labels))
    import random
    rnd = random.Random(7)
    for _ in range(50):
        n = rnd.randint(2, 30)
        s = [rnd.choice([0, 0.25, 0.5, 0.75, 1]) for _ in range(n)]
        lab = [rnd.random() < 0.5 for _ in range(n)]
        if any(lab) and not all(lab):
            assert L.roc_auc(s, lab) == pytest.approx(_auc_bruteforce(s, lab))


def test_thresholds_and_faithful_score():
    assert L.predicts_faithful("faithfulness", 1.0, "strict")
    assert not L.predicts_faithful("faithfulness", 0.67, "loose")
    assert L.predicts_faithful("faithfulness", 0.7, "loose")
    assert L.predicts_faithful("hallucination", 0.0, "strict")
    assert not L.predicts_faithful("hallucination", 0.33, "strict")
    assert L.predicts_faithful("hallucination", 0.3, "loose")
    assert L.faithful_score("hallucination", 0.25) == 0.75


# -- the data -----------------------------------------------------------------------------------
ITEMS = L.load_items()  # raises on an item that does not validate


def test_every_item_validates_and_ids_are_unique():
    for item in ITEMS:
        assert L.item_problems(item) == [], item["id"]
    ids = Counter(item["id"] for item in ITEMS)
    assert [i for i, n in ids.items() if n > 1] == []
    assert len(ITEMS) >= 240


def test_both_classes_in_test_split_for_each_unit():
    for unit in L.UNITS:
        labels = {it["faithful"] for it in ITEMS
                  if it["unit"] == unit and it["split"] == "test" and not it["no_claims"]}
        assert labels == {True, False}, unit


def test_seven_languages_with_both_classes_in_the_test_split():
    """The README reports accuracy per language: each needs faithful and unfaithful test items."""
    for lang in ("en", "de", "es", "fr", "ko", "zh", "ja", "ar"):
        labels = {it["faithful"] for it in ITEMS if it.get("lang", "en") == lang and it["split"] == "test"
                  and not it["no_claims"]}
        assert labels == {True, False}, lang
    # real texts, not only written ones, for the scripts the claims checks read differently
    public = {it["lang"] for it in ITEMS if it.get("lang") and not it["source"].startswith("llmfaith")}
    assert {"de", "ko", "zh", "ja"} <= public


def test_several_public_sources_with_licences():
    own = {"llmfaith-own", "llmfaith-rag"}
    public = {it["source"] for it in ITEMS} - own
    assert len(public) >= 4
    assert all(it["licence"].strip() for it in ITEMS)


def test_the_two_user_seen_cases_are_there():
    by_output = {it["output"]: it for it in ITEMS}
    trash = by_output["Deleted files remain in the trash for 30 days, after which they are permanently removed."]
    assert trash["faithful"] is True
    employs = [it for it in ITEMS if "employs 40 people" in it["output"]]
    assert employs and all(it["faithful"] is False for it in employs)


def test_mastra_cases():
    cases = L.load_mastra()
    assert len(cases) == 29
    assert Counter(c["scorer"] for c in cases) == {"faithfulness": 12, "hallucination": 17}
    for case in cases:
        for field, kind in L.MASTRA_FIELDS.items():
            assert isinstance(case[field], kind), (case["id"], field)
        assert 0 <= case["expected"] <= 1 and case["tolerance"] >= 0
    assert len({c["id"] for c in cases}) == len(cases)
