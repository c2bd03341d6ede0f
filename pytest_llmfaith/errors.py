"""Error types, and the redaction every judge message passes through. Each message names the
problem and the fix; none ever carries an API key."""

from __future__ import annotations

import os
import re
from collections.abc import Iterable

SHOWN_ANSWER_CHARS = 300


class LLMFaithError(Exception):
    """Base class: anything the plugin raises on purpose."""


class ConfigError(LLMFaithError):
    """The plugin is set up wrongly (no judge, bad value); the message says how to fix it."""


class LocalJudgeUnavailable(ConfigError):
    """The offline judge's runtime or weights are missing; the message gives the install commands."""


class JudgeError(LLMFaithError):
    """The judge could not produce a valid answer: an infrastructure failure, never a pass."""

    kind: str = ""  # the transport failure behind it (e.g. APIConnectionError), when there was one


class CacheMissError(JudgeError):
    """Replay mode found no stored answer for a judge call."""


class LocalServerDied(JudgeError):
    """The offline judge's server died and could not be replaced; the message says how it ended."""


class RelayError(JudgeError):
    """The run's judge relay could not be started or reached, or died; the message says how and the fix."""


class BudgetExceeded(JudgeError):
    """The run's judge budget (--llm-max-judge-calls / --llm-max-cost) is spent: no new calls."""


def redact(text: str, names: Iterable[str | None] = ()) -> str:
    """Remove every credential-looking environment value from text that may reach a user, and
    the values of `names` (the configured key variable, which may be called anything)."""
    for secret in _secrets(names):
        text = text.replace(secret, "***")
    return text


def _secrets(names: Iterable[str | None]) -> list[str]:
    named = [os.environ.get(name) or "" for name in names if name]
    found = [v for k, v in os.environ.items() if len(v) >= 8 and re.search(r"(KEY|TOKEN|SECRET)$", k)]
    return sorted({v for v in [*named, *found] if len(v) >= 4}, key=len, reverse=True)


def shorten(text: str, limit: int = SHOWN_ANSWER_CHARS) -> str:
    """A judge's answer as quoted in a message: long enough to see what went wrong, never a wall."""
    return text if len(text) <= limit else text[:limit] + f"... [{len(text) - limit} more chars]"
