"""Which judge relay a run uses, named with the standard library only.

The xdist controller names it in every run, also one that never calls the judge, so this must
import no pydantic and touch no file. The name is a hash of what the relay's calls depend on,
the environment included.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import secrets
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pytest_llmfaith.processes.capabilities import background_processes_missing, private_folder_problem, user_tag
from pytest_llmfaith.processes.children import PACKAGE_ROOT, relay_root
from pytest_llmfaith.processes.files import stat_line
from pytest_llmfaith.processes.loopback import LOOPBACK_HOSTS
from pytest_llmfaith.settings import OPTIONS, Settings

# Not part of what the relay's calls depend on: set per run or per test by pytest, xdist or the
# shell, or the plugin's own options (they travel in each call, or are in the identity).
_PER_RUN_VARIABLES = frozenset({"COLUMNS", "LINES", "PWD", "OLDPWD", "SHLVL", "_",
                                *(name for o in OPTIONS for name in (o.env, *o.aliases))})


def new_relay_run(settings: Settings) -> dict[str, Any]:
    """Plain JSON of wire.RelayRun: validated by the processes that use it, not here (no pydantic)."""
    concurrency, idle_timeout = settings.judge_concurrency, settings.idle_timeout
    return {"directory": str(relay_root() / f"warm-{identity(concurrency, idle_timeout)}"),
            "run_id": f"{os.getpid()}-{secrets.token_hex(4)}", "owner_pid": os.getpid(),
            "concurrency": concurrency, "idle_timeout": idle_timeout}


def identity(concurrency: int, idle_timeout: float, environ: Mapping[str, str] = os.environ) -> str:
    """A hash of what the relay's calls depend on (docs/relay.md: whose credentials a call is sent
    with); no value is kept."""
    return named(concurrency, idle_timeout, environment_fingerprint(environ))


def named(concurrency: int, idle_timeout: float, environment: str) -> str:
    """The relay's identity from the fingerprint of an environment (`environment_fingerprint`)."""
    return hashlib.sha256(f"{_installation(concurrency, idle_timeout)} {environment}".encode()).hexdigest()[:16]


@functools.cache
def _installation(concurrency: int, idle_timeout: float) -> str:
    """Everything but the environment: the same for every call of a process, so hashed once."""
    from importlib import metadata

    def version(name: str) -> str:
        try:
            return metadata.version(name)
        except metadata.PackageNotFoundError:
            return "missing"

    package = Path(PACKAGE_ROOT) / "pytest_llmfaith"
    parts = {
        "user": user_tag(), "python": sys.executable,
        "pytest_llmfaith": [version("pytest-llmfaith"), *(stat_line(f) for f in sorted(package.rglob("*.py")))],
        "litellm": version("litellm"), "concurrency": concurrency, "idle_timeout": idle_timeout,
    }
    return hashlib.sha256(json.dumps(parts).encode()).hexdigest()


def environment_fingerprint(environ: Mapping[str, str] = os.environ) -> str:
    """Every variable counts, not a list of known keys: litellm reads credentials from more of them
    with every provider it adds. Only per-run variables are left out."""
    kept = {name: value for name, value in environ.items()
            if name not in _PER_RUN_VARIABLES and not name.startswith("PYTEST_")}
    for name in ("NO_PROXY", "no_proxy"):
        hosts = ",".join(h for h in kept.pop(name, "").split(",") if h.strip() and h.strip() not in LOOPBACK_HOSTS)
        if hosts:  # empty or unset: the same to every HTTP client
            kept[name] = hosts
    return hashlib.sha256(json.dumps(sorted(kept.items())).encode()).hexdigest()


def leased(directory: Path, owner_pid: int) -> list[Path]:
    """All relay folders the run leased, not only its named one: a worker with another environment
    (a key set by a sub-folder's conftest.py) leased its own."""
    folders = sorted(directory.parent.glob("warm-*"))
    if not folders:  # no relay was ever asked for: nothing to import
        return []
    from pytest_llmfaith.relay.wire import relay_files

    return [folder for folder in folders if owner_pid in relay_files(folder).leases.live()]


def why_no_relay() -> str | None:
    """Why no judge relay can run safely here, or None: the one question, whatever the reason (what
    the platform lacks, a folder others may read). Under `auto` any answer turns the relay off, said
    in one line; under `on` it is the error. Makes nothing: the xdist controller asks in every run."""
    missing = background_processes_missing()
    if missing is not None:
        return missing
    problem = private_folder_problem(relay_root())
    return None if problem is None else f"its folder {relay_root()} {problem}"


def off_note(why: str) -> str:
    """The summary's one line for a run whose relay `auto` turned off (`why_no_relay`)."""
    return (f"llmfaith judge relay off: {why}; each process that calls the judge imports litellm itself "
            "(~5 s each) and keeps its own concurrency limit")
