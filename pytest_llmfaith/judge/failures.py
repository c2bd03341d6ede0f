"""What a failed litellm call says: the kind of failure, what the server said, and the fix
(completion.judge_failure words it for every transport)."""

from __future__ import annotations

from pytest_llmfaith.errors import JudgeError
from pytest_llmfaith.judge.completion import judge_failure
from pytest_llmfaith.judge.config import JudgeConfig


def failure(config: JudgeConfig, step: str, err: Exception, attempts: int) -> JudgeError:
    """A failed call as a JudgeError, its kind set on it (connection failures are counted)."""
    kind = type(err).__name__
    if "connection error" in str(err).lower():
        kind = "APIConnectionError"  # litellm reports some refused connections as 500s
    return judge_failure(config, step, kind, server_said(err), attempts)


def server_said(err: BaseException) -> str:
    """What the server said: the innermost message of the exception chain. litellm's own text
    loses it when a 200 response's body is an error object."""
    said = ""
    seen: BaseException | None = err
    for _ in range(10):  # a chain is a handful of wrappers; never follow a cycle forever
        if seen is None:
            break
        message = getattr(seen, "message", None)
        if isinstance(message, str) and message.strip():
            said = message.strip().splitlines()[0]
        seen = seen.__cause__ or seen.__context__
    return said or (str(err).strip().splitlines() or [""])[0]
