"""What a failed judge call says: the kind of failure, what the server said, and the fix."""

from __future__ import annotations

from pytest_llmfaith.errors import JudgeError, redact
from pytest_llmfaith.judge.config import JudgeConfig
from pytest_llmfaith.wording import shorten


def failure(config: JudgeConfig, step: str, err: Exception, attempts: int) -> JudgeError:
    """A failed call as a JudgeError: its kind (set on the error: connection failures are counted), what
    the server said and the fix for that kind."""
    kind = type(err).__name__
    if "connection error" in str(err).lower():
        kind = "APIConnectionError"  # litellm reports some refused connections as 500s
    server_error = "the judge server failed (see its message); check its logs, or raise --llm-judge-retries"
    hint = {
        "RateLimitError": "the judge is rate-limiting; lower --llm-judge-concurrency "
                          "(one limit for the whole run, all workers), raise --llm-judge-retries, or record "
                          "once and use --llm-cache=replay in CI",
        "Timeout": "raise --llm-judge-timeout or check the judge server is responsive",
        "APIConnectionError": "check --llm-judge-api-base and that the judge server is running",
        "AuthenticationError": "set the provider's API key variable (e.g. OPENAI_API_KEY) or "
                               "--llm-judge-api-key-env",
        "InternalServerError": server_error, "ServiceUnavailableError": server_error,
        "BadGatewayError": server_error, "APIError": server_error,
    }.get(kind, "check the server's message, the judge model string (--llm-judge-model) and "
                "--llm-judge-api-base")
    error = JudgeError(redact(
        f"llmfaith: judge {config.model} failed at step '{step}' after {attempts} "
        f"attempt(s): {kind}: {shorten(server_said(err).rstrip('. ') or kind, 300)}. Fix: {hint}.",
        [config.api_key_env],
    ))
    error.kind = kind
    return error


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
