"""Where a hosted judge's requests go: litellm's model string, the api base and the key, read
from the environment at each call (the offline judge has its own client:
local/local_transport.py)."""

from __future__ import annotations

import os
from urllib.parse import urlparse

from pytest_llmfaith.errors import JudgeError
from pytest_llmfaith.judge.config import JudgeConfig
from pytest_llmfaith.processes.loopback import LOOPBACK_HOSTS


def api_key(config: JudgeConfig) -> str | None:
    """The key of a hosted judge's request, read at each call as litellm reads its own variables:
    a fixture may set it after the first call."""
    key = os.environ.get(config.api_key_env) if config.api_key_env else None
    if config.api_key_env and not key:
        raise JudgeError(
            f"llmfaith: the judge API key variable {config.api_key_env} is not set. "
            f"Fix: export {config.api_key_env}=<your key>, or change --llm-judge-api-key-env."
        )
    # the variable litellm reads itself otherwise: the provider's, by its convention
    name = config.api_key_env or f"{config.model.partition('/')[0].upper()}_API_KEY"
    refuse_whitespace(name, os.environ.get(name, ""))
    if key is None and config.api_base and config.model.startswith("openai/"):
        key = os.environ.get("OPENAI_API_KEY") or "none"  # keyless local servers
    return key


_BLANKS = {"\n": "a newline", "\r": "a carriage return", " ": "a space", "\t": "a tab"}


def refuse_whitespace(name: str, key: str) -> None:
    """A key read from a file keeps its newline, which no HTTP header may hold: said as such, not
    as the connection error it becomes. Not stripped: the redaction of every output looks for the
    variable's value as it is, so a stripped key echoed by a server would be shown."""
    ends = [f"{where} {_BLANKS.get(char, 'whitespace')}"
            for where, char, edge in (("starts with", key[:1], key.lstrip()), ("ends with", key[-1:], key.rstrip()))
            if edge != key]
    if ends:
        raise JudgeError(
            f"llmfaith: the judge's API key in {name} {' and '.join(ends)}: it cannot be sent like that (a "
            "key read from a file keeps its newline, and no HTTP header may hold one). Fix: set it "
            f"without, e.g. {name}=\"$(tr -d '[:space:]' < key.txt)\"; the key is not shown.")


def bypass_proxy_for_loopback(api_base: str | None) -> None:
    """A judge on this machine (the offline judge, a local server) is never reached through
    HTTP(S)_PROXY: add its host to NO_PROXY, which litellm's HTTP client honours."""
    host = urlparse(api_base or "").hostname
    if host not in LOOPBACK_HOSTS:
        return
    for name in ("NO_PROXY", "no_proxy"):
        hosts = [h for h in os.environ.get(name, "").split(",") if h.strip()]
        if host not in hosts:
            os.environ[name] = ",".join([*hosts, host])
