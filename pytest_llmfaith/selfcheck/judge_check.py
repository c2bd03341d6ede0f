"""Run the configured judge over labelled items and say how far its verdicts can be trusted.

Items are scored exactly as a test would (same judge, cache, votes, thresholds), so the figures
describe the judge the tests will use, and a re-run is all cache hits. Refusal items are
faithful items, right when the judge finds no claims in them.
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import BaseModel, ValidationError

from pytest_llmfaith.errors import ConfigError
from pytest_llmfaith.recordings.recorder import SELF_CHECK
from pytest_llmfaith.report.selfcheck import CheckReport, ItemOutcome, ScorerCheck
from pytest_llmfaith.selfcheck.labelled import balanced_accuracy, class_accuracy, passes, read_jsonl, score_item

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


def run_check(session: JudgeRun, path: Path | None, min_accuracy: float | None) -> CheckReport:
    """Score every item with both scorers of the session's judge."""
    items, source = load_items(path)
    s = session.settings
    report = CheckReport(model=session.judge().config.model, source=source, items=len(items),
                         min_faithfulness=s.min_faithfulness, max_hallucination=s.max_hallucination,
                         min_accuracy=min_accuracy)
    with session.asking_outside_tests(SELF_CHECK):  # the working cache only, never a recording
        for name in SCORERS:
            scorer = session.scorer(name)
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
