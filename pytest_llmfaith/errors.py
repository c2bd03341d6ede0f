"""Error types, and the redaction every judge message passes through. Each message names the
problem and the fix; none ever carries an API key."""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from typing import Any, TypeVar


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


MIN_SECRET_CHARS = 8  # shorter values ("EMPTY", "none") are placeholders, and common words
SECRET_NAME = re.compile(r"(KEY|TOKEN|SECRET|PASSWORD)$", re.IGNORECASE)
Data = TypeVar("Data")


def redact(text: str, names: Iterable[str | None] = ()) -> str:
    """Remove every credential-looking environment value from text that may reach a user, and
    the values of `names` (the configured key variable, which may be called anything)."""
    return _replace(text, _secrets(names))


def redact_data(data: Data, names: Iterable[str | None] = ()) -> Data:
    """`redact` for JSON-like data, dict keys too. Secrets are read at the call, so a key a fixture set is found."""
    secrets = _secrets(names)
    return _walk(data, secrets) if secrets else data


def _walk(data: Any, secrets: list[str]) -> Any:
    if isinstance(data, str):
        return _replace(data, secrets)
    if isinstance(data, dict):
        return {_walk(k, secrets): _walk(v, secrets) for k, v in data.items()}
    if isinstance(data, (list, tuple)):
        return type(data)(_walk(v, secrets) for v in data)
    return data


def _replace(text: str, secrets: list[str]) -> str:
    for secret in secrets:
        text = text.replace(secret, "***")
    return text


def _secrets(names: Iterable[str | None]) -> list[str]:
    named = [os.environ.get(name) or "" for name in names if name]
    found = [v for k, v in os.environ.items() if SECRET_NAME.search(k)]
    return sorted({v for v in [*named, *found] if len(v) >= MIN_SECRET_CHARS}, key=len, reverse=True)

