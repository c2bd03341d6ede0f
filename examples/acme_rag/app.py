"""The app's answers.

In production, `answer()` would send the question and the retrieved passages to a generator
LLM. No generator runs offline, so this example replays the answers the app gave (recorded in
answers.json), the way a team checks recorded outputs of their app in CI. The judge then
checks those answers against the same passages the app retrieved.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

ANSWERS_FILE = Path(__file__).resolve().parent / "answers.json"


@lru_cache(maxsize=1)
def recorded_answers() -> dict[str, str]:
    return json.loads(ANSWERS_FILE.read_text(encoding="utf-8"))


def answer(question: str) -> str:
    """The app's (recorded) answer to `question`."""
    try:
        return recorded_answers()[question]
    except KeyError:
        raise KeyError(f"no recorded answer for {question!r}; add it to {ANSWERS_FILE.name}") from None
