"""Earlier runs for the review page's sparklines: a folder of JSON reports (--llm-report) and
baseline files, read in file-name order, since CI artefacts and committed files keep no
trustworthy modification time (name them so they sort by date: 2025-06-01.json)."""

from __future__ import annotations

import json
from collections.abc import Collection
from dataclasses import dataclass, field
from pathlib import Path

from pydantic import ValidationError

from pytest_llmfaith.errors import ConfigError
from pytest_llmfaith.report import baseline
from pytest_llmfaith.results import Assessment


@dataclass
class History:
    runs: list[str] = field(default_factory=list)  # file stems, oldest first
    scores: dict[str, list[float | None]] = field(default_factory=dict)  # key -> a score per run (None: not run)
    problems: list[str] = field(default_factory=list)  # files that could not be read, and why


def load(folder: Path, skip: Collection[Path] = ()) -> History:
    """Every readable *.json of the folder; a file that is neither a report nor a baseline is a
    problem the page lists, never an error of the run. `skip`: this run's own outputs."""
    history = History()
    if not folder.is_dir():
        history.problems.append(f"history folder {folder} does not exist")
        return history
    for path in sorted(p for p in folder.glob("*.json") if p.resolve() not in skip):
        try:
            scores = _scores(path)
        except (OSError, ValueError, KeyError, TypeError, ValidationError, ConfigError) as err:
            history.problems.append(f"{path.name}: not a JSON report or baseline ({str(err).splitlines()[0]})")
            continue
        for key, score in scores.items():
            history.scores.setdefault(key, [None] * len(history.runs)).append(score)
        history.runs.append(path.stem)
        for column in history.scores.values():
            column.extend([None] * (len(history.runs) - len(column)))
    return history


def _scores(path: Path) -> dict[str, float]:
    data = json.loads(path.read_text(encoding="utf-8"))
    if isinstance(data, dict) and isinstance(data.get("results"), list):
        return {str(r.get("key") or Assessment.model_validate(r).key): float(r["result"]["score"])
                for r in data["results"]}
    if isinstance(data, dict) and ("assertions" in data or "scores" in data):
        return {key: e.score for key, e in baseline.load(path).assertions.items()}
    raise ValueError("neither 'results' nor 'assertions'")
