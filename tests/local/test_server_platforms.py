"""The offline judge's server where the POSIX-only calls are missing: a process that looks like
Windows to pytest_llmfaith (tests/fake_platform/sitecustomize.py) starts the fake server
(tests/local/fake_judge_server.py, which also has the fake), is answered by it, and stops it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

import pytest_llmfaith
from pytest_llmfaith.local.kernels import PORTABLE, Variant
from pytest_llmfaith.local.weights import LocalModel

SHIM = Path(__file__).parents[1] / "fake_platform"
CLIENT = '''
import json, os, sys, time
from pytest_llmfaith.local import launcher
from pytest_llmfaith.local.launcher import ensure_server, shutdown_server
from pytest_llmfaith.local.weights import resolve_local_model
from pytest_llmfaith.processes.children import pid_alive
from pytest_llmfaith.processes.loopback import request_json

launcher.SERVER_MODULE = "fake_judge_server"
launcher.runtime_identity = lambda variant=None: "runtime-a"
model = resolve_local_model(sys.argv[1])
base = ensure_server(model)
files = launcher.run_files(model)
state = files.read()
again = ensure_server(model)  # found, not started again
health = request_json(state.port, "/health")
shutdown_server(model)
deadline = time.monotonic() + 15
while pid_alive(state.pid) and time.monotonic() < deadline:
    time.sleep(0.05)
import pytest_llmfaith
print(json.dumps({"platform": [sys.platform, os.name, hasattr(os, "getuid")], "base": base, "again": again,
                  "package": pytest_llmfaith.__file__,
                  "pid": state.pid, "health_pid": health["pid"], "alive_after_stop": pid_alive(state.pid),
                  "log": files.log_of(state.pid).read_text()}))
'''


def python_path() -> str:
    """The fake first, then the fake server, then the caller's own PYTHONPATH: a checkout run with
    PYTHONPATH=$PWD tests its own package (as tests/subprocess_runs/test_platforms.py's `fake`)."""
    return os.pathsep.join(filter(None, [str(SHIM), str(Path(__file__).parent), os.environ.get("PYTHONPATH")]))


@pytest.mark.skipif(sys.platform != "linux", reason="the fake platforms are made from Linux")
@pytest.mark.parametrize("platform", ["windows", "macos"])
def test_the_offline_judges_server_starts_serves_and_stops(
        fake_model: LocalModel, model_dir: Path, fake_build: Callable[[Variant, str], Path], platform: str) -> None:
    fake_build(PORTABLE, "")  # a runtime folder the fake server imports and never calls
    env = {**os.environ, "LLMFAITH_FAKE_PLATFORM": platform, "LLMFAITH_IDLE_TIMEOUT": "30",
           "PYTHONPATH": python_path()}
    done = subprocess.run([sys.executable, "-c", CLIENT, f"local:{fake_model.path}"], env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout.splitlines()[-1])
    assert seen["platform"] == (["win32", "nt", False] if platform == "windows" else ["darwin", "posix", True])
    assert seen["base"] == seen["again"] and seen["health_pid"] == seen["pid"]
    assert not seen["alive_after_stop"]
    assert "serving on 127.0.0.1:" in seen["log"] and "stopped" in seen["log"]
    assert seen["package"] == str(Path(pytest_llmfaith.__file__))  # this checkout's, not an installed one


@pytest.mark.skipif(sys.platform != "linux", reason="the fake platforms are made from Linux")
def test_where_the_platform_lacks_what_the_server_needs_the_offline_judge_says_so(
        fake_model: LocalModel, model_dir: Path) -> None:
    env = {**os.environ, "LLMFAITH_FAKE_PLATFORM": "macos", "LLMFAITH_FAKE_NO_FCNTL": "1",
           "PYTHONPATH": python_path()}
    done = subprocess.run([sys.executable, "-c", CLIENT, f"local:{fake_model.path}"], env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 1
    assert ("LocalJudgeUnavailable: the offline judge runs in a shared server process, which cannot run here: "
            "this platform has no fcntl, so no file lock that a crashed process lets go of. Fix: run it on "
            "Linux, macOS or Windows") in done.stderr
    assert not list(model_dir.rglob("*.log"))  # nothing started
