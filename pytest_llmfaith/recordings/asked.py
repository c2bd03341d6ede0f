"""What a reviewer reads of a request in a recording: the data it was about, not the instructions."""

from __future__ import annotations

import json
import re
from typing import Any

SHOWN_CONTEXT_CHARS = 400  # what a reviewer needs to see of the context, not all of it
DATA_TAGS = ("input", "output", "claims", "claim", "context")


def _between(text: str, tag: str) -> str | None:
    found = re.findall(rf"<{tag}>\n(.*?)\n</{tag}>", text, re.DOTALL)
    return found[-1] if found else None  # the last: a prompt's worked example comes first


def _short(text: str, limit: int = SHOWN_CONTEXT_CHARS) -> str:
    """Part of the file format (not wording.shorten): a change would rewrite every recording."""
    return text if len(text) <= limit else text[:limit] + f"... [{len(text) - limit} more chars]"


def summarise(messages: list[dict[str, str]]) -> dict[str, Any]:
    """What a reviewer needs to see of a request: the data it was about, not the instructions.
    The fenced sections of the scorers' prompts, or the claim and question of a label prompt."""
    text = messages[-1]["content"] if messages else ""
    asked: dict[str, Any] = {}
    for tag in DATA_TAGS:
        value = _between(text, tag)
        if value is None:
            continue
        if tag in ("claims", "claim"):  # the output's words a verdict is about, in their sentence
            try:
                found = json.loads(value)
            except ValueError:
                found = value
            words = [c.get("words", c) if isinstance(c, dict) else c for c in (found if tag == "claims" else [found])]
            asked[tag] = words if tag == "claims" else words[0]
            continue
        asked[tag] = _short(value) if tag == "context" else value
    if not asked:  # a label prompt: Document / Claim / question
        for name, pattern in (("context", r"Document:\n(.*?)\n\n(?:Sentence|Text):"),
                              ("claim", r"\nWords to check: (.*?)\n")):
            if found := re.search(pattern, text, re.DOTALL):
                asked[name] = _short(found.group(1)) if name == "context" else found.group(1)
        asked["question"] = text.strip().splitlines()[-1] if text.strip() else ""
    return asked
