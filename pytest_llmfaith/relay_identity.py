"""Which judge relay a run uses, named with the standard library only.

Under xdist the controller names the run's relay for its workers before any of them starts
(`pytest_configure_node`), in every run, also one whose tests never call the judge: that must
import no pydantic (relay.py's models) and touch no file. The folder's name is a hash of what the
relay's calls depend on (see relay.py); the run is attached once one of its processes leased it.
"""

from __future__ import annotations

import hashlib
import json
import os
import secrets
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from .capabilities import user_tag
from .processes import PACKAGE_ROOT, Leases, relay_root, stat_line
from .settings import OPTIONS, Settings

# Not part of what the relay's calls depend on: set per run or per test by pytest, xdist or the
# shell, or the plugin's own options (they travel in each call, or are in the identity).
_PER_RUN_VARIABLES = frozenset({"COLUMNS", "LINES", "PWD", "OLDPWD", "SHLVL", "_", *(o.env for o in OPTIONS)})


def new_relay_run(settings: Settings) -> dict[str, Any]:
    """The relay this run shares with the runs whose judge calls it would make identically, as
    the JSON of relay.RelayRun (validated there, by the processes that use it)."""
    concurrency, idle_timeout = settings.judge_concurrency, settings.relay_idle_timeout
    return {"directory": str(relay_root() / f"warm-{identity(concurrency, idle_timeout)}"),
            "run_id": f"{os.getpid()}-{secrets.token_hex(4)}", "owner_pid": os.getpid(),
            "concurrency": concurrency, "idle_timeout": idle_timeout}


def identity(concurrency: int, idle_timeout: float, environ: Mapping[str, str] = os.environ) -> str:
    """A hash of what the relay's calls depend on (see relay.py's docstring); no value is kept."""
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
        "environment": sorted((name, value) for name, value in environ.items()
                              if name not in _PER_RUN_VARIABLES and not name.startswith("PYTEST_")),
    }
    return hashlib.sha256(json.dumps(parts).encode()).hexdigest()[:16]


def attached(run: Mapping[str, Any]) -> bool:
    """Whether a process of the run leased the relay (it needed a judge): only then has the run
    a relay to report and a lease to give up."""
    return run["owner_pid"] in Leases(Path(run["directory"]) / "runs.json").live()


def off_note(why: str) -> str:
    """The summary's one line for a run that wanted a relay where the platform runs none."""
    return (f"llmfaith judge relay off: {why}; each process that calls the judge imports litellm itself "
            "(~5 s each) and keeps its own concurrency limit")
