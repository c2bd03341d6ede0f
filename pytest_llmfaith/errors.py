"""Error types, and the redaction every judge message passes through. Each message names the
problem and the fix; none ever carries an API key."""

from __future__ import annotations

from collections.abc import Callable, Iterable
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


Data = TypeVar("Data")


def redact(text: str, names: Iterable[str | None] = ()) -> str:
    """Replace every credential in text that may reach a user with a numbered placeholder, `[secret 1]`,
    `[secret 2]`, ...: those found by their shape, and the secret-like values of the environment, of
    `names` (the configured key variable, which may be called anything) among them. The rules are
    the text package's (`secrets`)."""
    from pytest_llmfaith.text import secrets  # its patterns compile at import: not for a run that redacts nothing

    return secrets.redact(text, secrets.environment_values(names))


def redact_data(data: Data, names: Iterable[str | None] = ()) -> Data:
    """`redact` for JSON-like data, dict keys too, as one call (secrets.Redaction): a secret found in
    any string of `data` (a scorer's output, context and input) is replaced in all of them, also where
    they write it encoded or decoded, and gets the same placeholder wherever it is, a different one
    the next number after those `data` holds already. Secrets are read at the call, so a key a
    fixture set is found."""
    from pytest_llmfaith.text import secrets

    texts: list[str] = []

    def seen(text: str) -> str:
        texts.append(text)
        return text

    _walk(data, seen)  # every text first: a secret found in one is looked for in all
    redacted: Data = _walk(data, secrets.Redaction(texts, secrets.environment_values(names)))
    return redacted


_LEAVES = (int, float, bool, type(None))  # nothing to redact: not walked into (most of a result's fields)


def _walk(data: Any, redact: Callable[[str], str]) -> Any:
    if isinstance(data, str):
        return redact(data)
    if isinstance(data, dict):
        return {_walk(k, redact): v if isinstance(v, _LEAVES) else _walk(v, redact) for k, v in data.items()}
    if isinstance(data, (list, tuple)):
        return type(data)(v if isinstance(v, _LEAVES) else _walk(v, redact) for v in data)
    return data
