"""The plugin where the POSIX-only calls are missing: runs in interpreters that look like Windows
(or macOS) to pytest_llmfaith (tests/fake_platform/sitecustomize.py: no os.getuid, no fcntl, no
signal.SIGKILL, a Popen without pass_fds and start_new_session, os.name "nt", sys.platform
"win32"), against the loopback judge through the real litellm client, serial and under xdist.

Every process of such a run has the fake (pytest, its workers, the judge relay), since it comes
with PYTHONPATH. The relay's folder is in the run's own TMPDIR (under its HOME, as Windows' %TEMP%
is under the user's profile), so its relays are the only ones seen there.
"""

from __future__ import annotations

import ast
import contextlib
import json
import os
import re
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

import pytest
from plugin_helpers import gone

from pytest_llmfaith.processes.service import Leases

pytest.importorskip("xdist")
# The fakes are made from Linux; on Windows and macOS the whole suite runs on the real platform.
FAKES = pytest.mark.skipif(sys.platform != "linux", reason="the fake platforms are made from Linux")

SHIM = Path(__file__).parents[1] / "fake_platform"
PACKAGE = Path(__file__).parents[2] / "pytest_llmfaith"
FACTS = ["Tesla was founded in 2003.", "The first Tesla car was the Roadster."]
GOOD = " ".join(FACTS)
SUITE = f'''
import pytest
from pytest_llmfaith import assert_faithful
CTX = {FACTS!r}

@pytest.mark.parametrize("i", range(4))
def test_grounded(i):
    assert_faithful({GOOD!r}, CTX)

def test_invented():
    assert_faithful({GOOD + " Tesla is based on Mars."!r}, CTX)
'''
PLAIN = '''
def test_plain():
    assert 1 + 1 == 2

def test_also_plain():
    assert "a" * 2 == "aa"
'''
# Each process notes what it saw: the platform the fake gives it, and whether it imported litellm.
HOOKS = '''
import os, sys

def pytest_unconfigure(config):
    name = config.workerinput["workerid"] if hasattr(config, "workerinput") else "controller"
    with open(f"seen-{name}.txt", "w") as fh:
        fh.write(f"{sys.platform} {os.name} {hasattr(os, 'getuid')} litellm={'litellm' in sys.modules}")
'''
RELAY_LINE = re.compile(r"llmfaith judge relay \(pid (\d+)\): (\d+) judge requests from (\d+) process\(es\)")
OFF_LINE = "llmfaith judge relay off: "
SEEN = {"windows": "win32 nt False", "macos": "darwin posix True"}


def fake(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, platform: str) -> Path:
    """Make the runs `pytester` starts look like `platform`; returns their temporary folder."""
    # the caller's PYTHONPATH kept after it: a checkout run with PYTHONPATH=$PWD tests its own package
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(SHIM), os.environ.get("PYTHONPATH")])))
    monkeypatch.setenv("LLMFAITH_FAKE_PLATFORM", platform)
    monkeypatch.setenv("USERNAME", "tester")  # Windows' name for the user, where there is no uid
    tmp = pytester.path / "tmp"
    tmp.mkdir()
    monkeypatch.setenv("TMPDIR", str(tmp))
    pytester.makeconftest(HOOKS)
    return tmp


def run(pytester: pytest.Pytester, server, workers: int, *args: str) -> pytest.RunResult:
    xdist = ("-n", str(workers)) if workers else ()
    return pytester.runpytest_subprocess(
        *xdist, "-p", "no:cacheprovider", "--llm-judge-model=openai/test-judge", f"--llm-judge-api-base={server.url}",
        *args, timeout=1500)


def seen(pytester: pytest.Pytester, workers: int) -> dict[str, str]:
    names = ["controller", *(f"gw{i}" for i in range(workers))]
    return {name: (pytester.path / f"seen-{name}.txt").read_text() for name in names}


@contextlib.contextmanager
def relay_logs(tmp: Path) -> Iterator[set[Path]]:
    """The relay logs seen under `tmp` meanwhile: a relay that ends with its run removes its folder."""
    seen: set[Path] = set()
    done = threading.Event()

    def watch() -> None:
        while not done.wait(0.05):
            with contextlib.suppress(OSError):  # a folder removed while it was listed
                seen.update(tmp.glob("llmfaith-relay-*/warm-*/relay.*.log"))

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    try:
        yield seen
    finally:
        done.set()
        watcher.join(10)


class FakeRun(NamedTuple):
    platform: str
    workers: int
    tmp: Path


@pytest.fixture(params=[("windows", 0), ("windows", 2), ("macos", 2)], ids=lambda p: f"{p[0]}-{p[1]}")
def faked(request: pytest.FixtureRequest, pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> FakeRun:
    """A platform and a number of xdist workers for the runs of the test."""
    platform, workers = request.param
    return FakeRun(platform, workers, fake(pytester, monkeypatch, platform))


@FAKES
def test_a_suite_that_never_calls_the_judge_needs_no_process_machinery(
        pytester: pytest.Pytester, server, faked: FakeRun) -> None:
    platform, workers, tmp = faked
    pytester.makepyfile(test_plain=PLAIN)
    result = run(pytester, server, workers)
    result.assert_outcomes(passed=2)
    assert "INTERNALERROR" not in result.stdout.str() + result.stderr.str()
    assert all(line == f"{SEEN[platform]} litellm=False" for line in seen(pytester, workers).values())
    assert list(tmp.iterdir()) == [] and server.requests == []  # no relay folder, no lock, no judge call
    assert "judge relay" not in result.stdout.str()


@FAKES
def test_a_judged_suite_goes_through_one_relay(pytester: pytest.Pytester, server, faked: FakeRun) -> None:
    platform, workers, tmp = faked
    server.facts(supported=FACTS)
    pytester.makepyfile(test_suite=SUITE)
    with relay_logs(tmp) as logs:
        result = run(pytester, server, workers, "--llm-cache=off")
    result.assert_outcomes(passed=4, failed=1)
    text = result.stdout.str()
    assert "INTERNALERROR" not in text + result.stderr.str() and "faithfulness" in text
    found = RELAY_LINE.search(text)
    assert found, text
    pid, requests = int(found.group(1)), int(found.group(2))
    assert requests == len(server.requests) == 10  # claims + verdicts of five, via the relay
    assert all(line == f"{SEEN[platform]} litellm=False" for line in seen(pytester, workers).values())
    user = "tester" if platform == "windows" else str(os.getuid())  # Windows' user name; a uid elsewhere
    assert [(log.parts[-3], log.name) for log in logs] == [(f"llmfaith-relay-{user}", f"relay.{pid}.log")]
    assert gone(pid) and not list(tmp.glob("*/warm-*"))  # LLMFAITH_IDLE_TIMEOUT=0: it ends with the run


@FAKES
@pytest.mark.parametrize("workers", [0, 2])
def test_a_judged_suite_without_the_relay(
        pytester: pytest.Pytester, server, monkeypatch: pytest.MonkeyPatch, workers: int) -> None:
    tmp = fake(pytester, monkeypatch, "windows")
    server.facts(supported=FACTS)
    pytester.makepyfile(test_suite=SUITE)
    result = run(pytester, server, workers, "--llm-cache=off", "--llm-judge-relay=off")
    result.assert_outcomes(passed=4, failed=1)
    assert "INTERNALERROR" not in result.stdout.str() and len(server.requests) == 10
    assert list(tmp.iterdir()) == [] and "judge relay" not in result.stdout.str()
    assert all(line.startswith(SEEN["windows"]) for line in seen(pytester, workers).values())


@FAKES
def test_where_the_platform_lacks_what_the_relay_needs_one_line_says_so_and_the_suite_is_judged(
        pytester: pytest.Pytester, server, monkeypatch: pytest.MonkeyPatch) -> None:
    tmp = fake(pytester, monkeypatch, "macos")
    monkeypatch.setenv("LLMFAITH_FAKE_NO_FCNTL", "1")
    server.facts(supported=FACTS)
    pytester.makepyfile(test_suite=SUITE)
    result = run(pytester, server, 2, "--llm-cache=off")
    result.assert_outcomes(passed=4, failed=1)
    off = [line for line in result.outlines if OFF_LINE in line]
    assert off == ["llmfaith judge relay off: this platform has no fcntl, so no file lock that a crashed process "
                   "lets go of; each process that calls the judge imports litellm itself (~5 s each) and keeps its "
                   "own concurrency limit"]
    assert list(tmp.iterdir()) == [] and len(server.requests) == 10
    assert any(line.endswith("litellm=True") for line in seen(pytester, 2).values())  # the cost the line names
    pytester.makepyfile(test_suite=PLAIN)
    unrelated = run(pytester, server, 2)
    unrelated.assert_outcomes(passed=2)
    assert OFF_LINE not in unrelated.stdout.str()  # said only to runs that judged


@FAKES
@pytest.mark.parametrize("workers", [0, 2])
def test_where_the_relay_folder_is_outside_the_profile_auto_turns_the_relay_off_in_one_line(
        pytester: pytest.Pytester, server, monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory,
        workers: int) -> None:
    """A Windows service account, or a CI agent whose TEMP is C:\\Windows\\Temp: where the relay's folder
    cannot be checked, `auto` judges every test in its own process rather than failing them all."""
    fake(pytester, monkeypatch, "windows")
    outside = tmp_path_factory.mktemp("windows-temp")  # not under HOME, which is the profile here
    monkeypatch.setenv("TMPDIR", str(outside))
    server.facts(supported=FACTS)
    pytester.makepyfile(test_suite=SUITE)
    result = run(pytester, server, workers, "--llm-cache=off")
    result.assert_outcomes(passed=4, failed=1)
    off = [line for line in result.outlines if "judge relay" in line]
    assert off == [f"{OFF_LINE}its folder {outside}/llmfaith-relay-tester is outside your user profile "
                   f"({pytester.path}), where this platform's permissions cannot be checked, so what it holds "
                   "may not be private (fix: point TEMP and TMP at a folder inside your profile); each process "
                   "that calls the judge imports litellm itself (~5 s each) and keeps its own concurrency limit"]
    assert len(server.requests) == 10 and not list(outside.glob("llmfaith-relay-*"))
    assert all(line.startswith(SEEN["windows"]) for line in seen(pytester, workers).values())
    if workers:
        return
    demanded = run(pytester, server, 0, "--llm-cache=off", "--llm-judge-relay=on")  # `on` may refuse
    demanded.assert_outcomes(errors=5)
    assert f"the judge relay cannot run here: its folder {outside}/llmfaith-relay-tester is outside your user " \
           "profile" in demanded.stdout.str() and len(server.requests) == 10


@FAKES
def test_cache_recordings_replay_report_votes_gates_and_budget_on_windows(
        pytester: pytest.Pytester, server, monkeypatch: pytest.MonkeyPatch) -> None:
    fake(pytester, monkeypatch, "windows")
    server.facts(supported=FACTS)
    pytester.makepyfile(test_suite=SUITE)
    first = run(pytester, server, 2, "--llm-cache=use", "--llm-cache-dir=cache", "--llm-recordings=recorded",
                "--llm-report=first.json", "--llm-judge-votes=3")
    first.assert_outcomes(passed=4, failed=1)
    asked = len(server.requests)
    samples = {r["body"].get("seed") for r in server.requests if r["step"] == "verdicts"}
    assert samples >= {1, 2} and (pytester.path / "recorded" / "test_suite.json").is_file()  # the votes were asked
    report = json.loads((pytester.path / "first.json").read_text())
    assert "test_suite.py::test_invented" in json.dumps(report)

    cached = run(pytester, server, 2, "--llm-cache=use", "--llm-cache-dir=cache", "--llm-judge-votes=3")
    replayed = run(pytester, server, 0, "--llm-cache=use", "--llm-cache-dir=empty", "--llm-recordings=recorded",
                   "--llm-judge-votes=3")
    for again in (cached, replayed):
        again.assert_outcomes(passed=4, failed=1)
    assert len(server.requests) == asked  # both answered without the judge

    gated = run(pytester, server, 2, "--llm-cache=use", "--llm-cache-dir=cache", "--llm-judge-votes=3",
                "--llm-min-mean-faithfulness=0.99")
    gated.assert_outcomes(passed=4, failed=1)
    assert gated.ret != 0 and "below the gate" in gated.stdout.str()

    budget = run(pytester, server, 2, "--llm-cache=off", "--llm-max-judge-calls=3")
    assert "the judge budget of this run is spent" in budget.stdout.str()
    assert len(server.requests) - asked == 3  # the workers' shared counter held across processes


def test_a_state_file_is_written_while_windows_refuses_to_replace_it_for_a_moment(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Windows refuses os.replace onto a file another process has open (a run reading the leases)."""
    target = tmp_path / "runs.json"
    target.write_text('{"leases": []}')
    refusals = iter([PermissionError(13, "Access is denied", str(target))] * 3)
    real_replace = os.replace

    def replace(source: str, destination: Path) -> None:
        refusal = next(refusals, None)
        if refusal is not None:
            raise refusal
        real_replace(source, destination)

    monkeypatch.setattr(os, "replace", replace)
    Leases(target).take(os.getpid())
    assert Leases(target).live() == [os.getpid()]
    assert [p.name for p in tmp_path.iterdir()] == ["runs.json"]  # no temporary file left


def posix_only_use(node: ast.AST) -> str | None:
    """What `node` uses that only POSIX has, if anything."""
    if isinstance(node, ast.Attribute) and node.attr in POSIX_ATTRIBUTES:
        return node.attr
    if isinstance(node, ast.Attribute) and node.attr == "kill" and getattr(node.value, "id", "") == "os":
        return "os.kill"  # on Windows it ends the process, whatever the signal
    if isinstance(node, ast.keyword) and node.arg in ("pass_fds", "start_new_session"):
        return node.arg
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        names = [alias.name for alias in node.names] if isinstance(node, ast.Import) else [node.module or ""]
        return next((name for name in names if name in POSIX_MODULES), None)
    if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.startswith("/proc/"):
        return node.value
    return None


POSIX_ATTRIBUTES = {"getuid", "geteuid", "getgid", "getpgid", "killpg", "setsid", "fork", "SIGKILL", "WNOHANG"}
POSIX_MODULES = {"fcntl", "pwd", "grp", "termios", "resource"}


def test_no_module_but_capabilities_uses_what_only_posix_has() -> None:
    """The class of the bug: a POSIX-only call anywhere else crashes a Windows run again."""
    found = [f"{path.relative_to(PACKAGE.parent)}:{node.lineno}: {use}"
             for path in sorted(PACKAGE.rglob("*.py")) if path.name != "capabilities.py"
             for node in ast.walk(ast.parse(path.read_text()))
             if (use := posix_only_use(node)) is not None]
    assert found == []
