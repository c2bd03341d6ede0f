"""Error types. Each message names the problem and the fix; none ever carries an API key."""

from __future__ import annotations


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


class BudgetExceeded(JudgeError):
    """The run's judge budget (--llm-max-judge-calls / --llm-max-cost) is spent: no new calls."""
