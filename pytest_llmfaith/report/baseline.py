"""The committed baseline file: per assertion its score, claims and verdicts, and what changed since.

Format 2 keeps the claims, so a regression names the claim that went wrong, and flags close votes,
whose later change may be the judge's. Format 1 (scores only) is still read.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from pydantic import BaseModel, ValidationError

from pytest_llmfaith.errors import ConfigError
from pytest_llmfaith.results import Assessment, ClaimChange, Regression, claim_is_bad

BASELINE_VERSION = 2
_SCORER_IN_KEY = re.compile(r" \[(faithfulness|hallucination)\](?: #\d+)?$")
_ORDER = {"newly unsupported": 0, "appeared": 1, "disappeared": 2, "flipped": 3}


class BaselineClaim(BaseModel):
    claim: str
    verdict: str
    reason: str = ""


class BaselineEntry(BaseModel):
    scorer: str
    score: float
    claims: list[BaselineClaim] | None = None  # None: read from a format-1 file (scores only)
    unstable: bool = False  # with votes: the minority verdicts would have flipped pass/fail


class Baseline(BaseModel):
    version: int = BASELINE_VERSION
    assertions: dict[str, BaselineEntry]

    @property
    def migrated(self) -> bool:
        """Read from a format-1 file: scores only, no claims to compare."""
        return self.version < BASELINE_VERSION


def load(path: Path) -> Baseline:
    """Read a baseline file, format 1 or 2; a missing or broken file is a ConfigError with the fix."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if isinstance(data, dict) and data.get("version") == 1:
            unstable = set(data.get("unstable", []))
            return Baseline(version=1, assertions={str(k): _old_entry(str(k), v, str(k) in unstable)
                                                   for k, v in data["scores"].items()})
        if isinstance(data, dict) and isinstance(data.get("version"), int) and data["version"] > BASELINE_VERSION:
            raise ConfigError(f"llmfaith: baseline file {path} has format {data['version']}, newer than this "
                              f"pytest-llmfaith reads ({BASELINE_VERSION}). Fix: upgrade pytest-llmfaith, or "
                              "regenerate the file with --llm-baseline-update.")
        return Baseline.model_validate(data)
    except FileNotFoundError:
        raise ConfigError(f"llmfaith: baseline file {path} does not exist. Fix: create it once with "
                          "--llm-baseline-update, then commit it.") from None
    except (OSError, ValueError, KeyError, TypeError, AttributeError, ValidationError) as err:
        problem = str(err).splitlines()[0]
        raise ConfigError(f"llmfaith: baseline file {path} is not a valid baseline ({problem}). "
                          "Fix: regenerate it with --llm-baseline-update.") from None


def _old_entry(key: str, score: object, unstable: bool) -> BaselineEntry:
    match = _SCORER_IN_KEY.search(key)
    if match is None:
        raise ValueError(f"key {key!r} names no scorer")
    return BaselineEntry(scorer=match.group(1), score=float(score), unstable=unstable)  # type: ignore[arg-type]


def write(path: Path, assessments: list[Assessment]) -> Baseline:
    """Write the baseline of these assessments: sorted keys, and `unstable` only where true (runs
    without votes never have it), so that its diffs stay small."""
    baseline = Baseline(assertions={a.key: entry(a) for a in assessments})
    stable = {key: {"unstable"} for key, e in baseline.assertions.items() if not e.unstable}
    data = baseline.model_dump(mode="json", exclude={"assertions": stable})
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n", encoding="utf-8",
                    errors="backslashreplace")
    return baseline


def entry(a: Assessment) -> BaselineEntry:
    return BaselineEntry(scorer=a.result.scorer, score=a.result.score,
                         claims=[BaselineClaim(claim=v.statement, verdict=v.verdict, reason=v.reason)
                                 for v in a.result.verdicts], unstable=a.unstable)


def compare(was: BaselineEntry, a: Assessment, tolerance: float) -> Regression | None:
    """A Regression when the score got worse by more than the tolerance, else None."""
    now = a.result.score
    worse_by = (was.score - now) if a.result.higher_is_better else (now - was.score)
    if worse_by <= tolerance + 1e-9:
        return None
    return Regression(was=was.score, now=now, tolerance=tolerance, claims_known=was.claims is not None,
                      changes=claim_changes(was, a) if was.claims is not None else [], was_unstable=was.unstable)


def claim_changes(was: BaselineEntry, a: Assessment) -> list[ClaimChange]:
    """Claims newly unsupported, appeared, disappeared or flipped; the ones that hurt first."""
    higher = a.result.higher_is_better
    before = {c.claim: c for c in was.claims or []}
    after = {v.statement: v for v in a.result.verdicts}
    changes = []
    for claim, v in after.items():
        old = before.get(claim)
        if old is None:
            changes.append(ClaimChange(change="appeared", claim=claim, now=v.verdict, reason=v.reason))
        elif old.verdict != v.verdict:
            newly_bad = claim_is_bad(higher, v.verdict) and not claim_is_bad(higher, old.verdict)
            changes.append(ClaimChange(change="newly unsupported" if newly_bad else "flipped", claim=claim,
                                       was=old.verdict, now=v.verdict, reason=v.reason))
    changes += [ClaimChange(change="disappeared", claim=claim, was=old.verdict)
                for claim, old in before.items() if claim not in after]
    return sorted(changes, key=lambda c: (_ORDER[c.change], not claim_is_bad(higher, c.now or c.was or "")))
