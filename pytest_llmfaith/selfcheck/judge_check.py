"""Run the configured judge over labelled items and say how far its verdicts can be trusted.

Items are scored exactly as a test would (same judge, cache, votes, thresholds; from the command
line, configured as a pytest run is), so the figures describe the judge the tests will use, and a
re-run is all cache hits. Refusal items are faithful items, right when the judge finds no claims in
them. The item format and the figures computed from labelled items are shared with the benchmarks.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from importlib.resources import files
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ValidationError

from pytest_llmfaith.errors import BudgetExceeded, ConfigError, LLMFaithError
from pytest_llmfaith.recordings.recorder import SELF_CHECK
from pytest_llmfaith.report.model import CheckReport, ItemOutcome, ScorerCheck
from pytest_llmfaith.running import outside_tests
from pytest_llmfaith.settings import resolve

if TYPE_CHECKING:
    from pytest_llmfaith.wiring import JudgeRun


SCORERS = ("faithfulness", "hallucination")
ITEM_FORMAT = ('one JSON object per line: {"output": "...", "context": ["...", ...], "faithful": true, '
               '"kind": "negation", "no_claims": false, "id": "..."} (kind, no_claims and id are optional)')


class CheckItem(BaseModel):
    """A labelled item: the benchmark format's fields the check needs (others are ignored)."""

    output: str
    context: list[str]
    faithful: bool
    kind: str = "item"
    no_claims: bool = False  # a refusal, greeting or question: right when no claims are found
    id: str = ""


def load_items(path: Path | None) -> tuple[list[CheckItem], str]:
    """The shipped set (path None) or the user's JSONL file, with a name for it; a bad file is a
    ConfigError naming the line and the format."""
    if path is None:
        text = files(__package__).joinpath("items.jsonl").read_text(encoding="utf-8")
        return [CheckItem.model_validate_json(line) for line in text.splitlines() if line.strip()], "shipped set"
    fix = f"Fix: --llm-judge-check=PATH.jsonl takes {ITEM_FORMAT}."
    try:
        raw = read_jsonl(path)
    except FileNotFoundError:
        raise ConfigError(f"llmfaith: the judge check file {path} does not exist. {fix}") from None
    except (OSError, ValueError) as err:
        raise ConfigError(f"llmfaith: the judge check file {path} is not JSON lines ({err}). {fix}") from None
    items = []
    for n, data in enumerate(raw, 1):
        try:
            item = CheckItem.model_validate(data)
        except ValidationError as err:
            first = err.errors()[0]
            where = ".".join(str(p) for p in first["loc"]) or "item"
            raise ConfigError(f"llmfaith: item {n} of {path}: {where}: {first['msg']}. {fix}") from None
        items.append(item.model_copy(update={"id": item.id or f"line {n}"}))
    if not items:
        raise ConfigError(f"llmfaith: the judge check file {path} has no items. {fix}")
    return items, str(path)


def run_check(judges: JudgeRun, path: Path | None, min_accuracy: float | None) -> CheckReport:
    """Score every item with both scorers of the run's judge."""
    items, source = load_items(path)
    s = judges.settings
    report = CheckReport(model=judges.judge().config.model, source=source, items=len(items),
                         min_faithfulness=s.min_faithfulness, max_hallucination=s.max_hallucination,
                         min_accuracy=min_accuracy)
    with outside_tests(SELF_CHECK):  # the working cache only, never a recording
        for name in SCORERS:
            scorer = judges.scorer(name)
            outcomes = []
            for item in items:
                got = score_item(scorer, item.output, item.context)
                report.judge_calls += len(got["calls"])
                report.cache_hits += sum(c["cached"] for c in got["calls"])
                outcome = ItemOutcome(id=item.id, kind=item.kind, faithful=item.faithful, no_claims=item.no_claims,
                                      score=got["score"], claims=got["claims"], error=got["error"])
                if got["score"] is not None:
                    outcome.right = got["claims"] == 0 if item.no_claims else \
                        passes(name, got["score"], s.min_faithfulness, s.max_hallucination) == item.faithful
                outcomes.append(outcome)
            report.scorers.append(_accuracy(name, outcomes))
    return report


def _accuracy(name: str, outcomes: list[ItemOutcome]) -> ScorerCheck:
    """Balanced accuracy; a refusal counts as a faithful item the judge got right when it found no
    claims in it. Plain accuracy when the items have one class only."""
    scored = [o for o in outcomes if o.right is not None]
    labels = [o.faithful for o in scored]
    preds = [o.faithful == o.right for o in scored]  # what the judge predicted: faithful or not
    value = balanced_accuracy(labels, preds)
    one_class = value is None and bool(scored)
    if one_class:
        value = class_accuracy(labels, preds)
    return ScorerCheck(scorer=name, balanced_accuracy=value, one_class=one_class, items=outcomes)


# flag -> the settings option it sets
FLAGS = {"--model": "llm_judge_model", "--api-base": "llm_judge_api_base", "--verdicts": "llm_judge_verdicts",
         "--votes": "llm_judge_votes", "--cache": "llm_cache", "--cache-dir": "llm_cache_dir",
         "--min-accuracy": "llm_judge_min_accuracy"}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m pytest_llmfaith check",
        description="Score the judge on a labelled set: balanced accuracy per scorer and the kinds it "
                    "gets wrong. Exit 1 when it scores below --min-accuracy or cannot answer.",
        epilog=f"ITEMS (default: the set shipped with the package): {ITEM_FORMAT}. Unset options come "
               "from the LLMFAITH_* environment variables, as in a pytest run.")
    parser.add_argument("items", nargs="?", type=Path, help="a JSONL file of labelled items")
    for flag, name in FLAGS.items():
        parser.add_argument(flag, dest=name, metavar=name.removeprefix("llm_").upper())
    args = vars(parser.parse_args(argv))
    try:
        settings = resolve(args.get, lambda _: None, os.environ, Path.cwd())
    except ValueError as err:
        parser.error(str(err))
    from pytest_llmfaith.wiring import JudgeRun

    run = JudgeRun(settings)
    try:
        report = run_check(run, args["items"], settings.judge_min_accuracy)
    except LLMFaithError as err:  # no judge configured, a bad items file
        print(err, file=sys.stderr)
        return 2
    finally:
        run.close()
    print("\n".join(report.lines()))
    if report.problem:
        print(report.problem, file=sys.stderr)
        return 1
    return 0


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
