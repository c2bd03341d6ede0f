"""Shared helpers for the benchmark scripts (not a benchmark itself, not a test).

- `pytest_run`: run `python -m pytest` in a generated suite as a subprocess and time it;
- `judge`: the loopback judge of tests/judge_server.py, in this process, with request timestamps;
- `stats`: medians and spreads, printed the same way by every script.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
TESTS = ROOT / "tests"
PYTHON = sys.executable
MODEL = "openai/test-judge"

if str(TESTS) not in sys.path:
    sys.path.insert(0, str(TESTS))

from judge_server import JudgeServer  # noqa: E402

_PYCACHE_PREFIX: Path | None = None


def use_pycache_prefix(directory: Path | None) -> None:
    """Let benchmarked runs write bytecode, as an installed package has it, but only under
    `directory` (a temporary one): nothing lands in the project or the generated suites."""
    global _PYCACHE_PREFIX
    _PYCACHE_PREFIX = directory


def clean_env(**extra: str) -> dict[str, str]:
    """The environment of a benchmarked run: no LLMFAITH_* settings, no PYTEST_ADDOPTS, no proxy
    for the loopback judge, no GitHub step summary; colour off so output size does not vary.
    With a pycache prefix set, bytecode is written there (PYTHONDONTWRITEBYTECODE dropped)."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("LLMFAITH_") and k not in ("PYTEST_ADDOPTS", "GITHUB_STEP_SUMMARY",
                                                          "PYTEST_PLUGINS")}
    env["NO_PROXY"] = env["no_proxy"] = "127.0.0.1,localhost"
    env["NO_COLOR"] = "1"
    if _PYCACHE_PREFIX is not None:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = str(_PYCACHE_PREFIX)
    env.update(extra)
    return env


class RunFailed(RuntimeError):
    pass


def pytest_run(suite: Path, args: Sequence[str], *, expect_rc: int | None = 0,
               env: dict[str, str] | None = None,
               timeout: float = 600) -> tuple[float, subprocess.CompletedProcess[str]]:
    """Run pytest in `suite`; return (wall seconds, completed process). Raises if the exit code
    is not `expect_rc` (None: any), printing the tail of the output."""
    cmd = [PYTHON, "-m", "pytest", *args]
    started = time.perf_counter()
    proc = subprocess.run(cmd, cwd=suite, env=env or clean_env(), capture_output=True, text=True, timeout=timeout)
    wall = time.perf_counter() - started
    if expect_rc is not None and proc.returncode != expect_rc:
        tail = "\n".join((proc.stdout + proc.stderr).splitlines()[-40:])
        raise RunFailed(f"{' '.join(cmd)} (in {suite}) exited {proc.returncode}, expected {expect_rc}:\n{tail}")
    return wall, proc


def stop_relays(env: dict[str, str]) -> None:
    """Stop the judge relays the runs with `env` would reuse (`python -m pytest_llmfaith relay stop`),
    so that the next run is cold: it starts a relay and pays litellm's import."""
    subprocess.run([PYTHON, "-m", "pytest_llmfaith", "relay", "stop"], env=env, capture_output=True, text=True,
                   check=True, timeout=600)


def summary_line(proc: subprocess.CompletedProcess[str]) -> str:
    """pytest's last line ('100 passed in 1.23s')."""
    lines = [line for line in proc.stdout.splitlines() if line.strip()]
    return lines[-1].strip("= ") if lines else "(no output)"


def judge_args(url: str, cache: str = "off", cache_dir: Path | None = None, *extra: str) -> list[str]:
    args = [f"--llm-judge-model={MODEL}", f"--llm-judge-api-base={url}", f"--llm-cache={cache}", *extra]
    if cache_dir is not None:
        args.append(f"--llm-cache-dir={cache_dir}")
    return args


@contextmanager
def judge(latency: float = 0.0) -> Iterator[JudgeServer]:
    """The loopback judge on 127.0.0.1 in a daemon thread of this process (it notes each request's
    arrival, `t`, in time.monotonic() seconds); always stopped."""
    server = JudgeServer()
    server.script.latency = latency
    with server:
        yield server


def clear_requests(server: JudgeServer) -> None:
    server.requests = []


def judge_shares(server: JudgeServer, latency: float, started: float, wall: float) -> tuple[float, float]:
    """Of a run that started at `started` (time.monotonic()) and took `wall` seconds: the share spent
    before the judge's first request, and the share outside the judge wait (no request in flight)."""
    first = min((r["t"] for r in server.requests), default=started + wall)
    return (first - started) / wall, (wall - busy_seconds(server, latency)) / wall


def busy_seconds(server: JudgeServer, latency: float) -> float:
    """Seconds during which at least one judge request was in flight (each lasts `latency`
    after it arrives): divided by `latency`, the number of sequential round-trips."""
    spans = sorted((r["t"], r["t"] + latency) for r in server.requests)
    total, end = 0.0, float("-inf")
    for start, stop in spans:
        if start > end:
            total += stop - start
            end = stop
        elif stop > end:
            total += stop - end
            end = stop
    return total


def prompt_chars(request: dict[str, Any]) -> int:
    return sum(len(m.get("content") or "") for m in request["body"].get("messages", []))


def median(values: Sequence[float]) -> float:
    return statistics.median(values)


def spread(values: Sequence[float], unit: str = "s", scale: float = 1.0, digits: int = 3) -> str:
    """'median 1.234 s (min 1.2, max 1.3, n=5)'."""
    v = [x * scale for x in values]
    return (f"median {statistics.median(v):.{digits}f} {unit} "
            f"(min {min(v):.{digits}f}, max {max(v):.{digits}f}, n={len(v)})")


def header(title: str) -> None:
    print(f"\n== {title} ==", flush=True)


def machine() -> str:
    load = os.getloadavg() if hasattr(os, "getloadavg") else (float("nan"),) * 3
    return (f"python {sys.version.split()[0]}, {os.cpu_count()} cpus, "
            f"load average {load[0]:.2f} at start, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}")


def write_suite(directory: Path, files: dict[str, str]) -> list[Path]:
    """Write a generated suite (plus an empty ini so the rootdir is the temp directory, not the
    project: the project's pyproject addopts must not leak into a benchmark)."""
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")
    written = [directory / "pytest.ini"]
    for name, text in files.items():
        path = directory / name
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written


def all_files(directory: Path) -> set[str]:
    return {str(p.relative_to(directory)) for p in directory.rglob("*")}
