"""Progress of slow judge work on pytest's terminal (pytest_llmfaith/plugin/terminal_progress.py),
with inner pytest runs against the loopback judge, whose answers are delayed to make a test slow."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from plugin_helpers import HEADER, TESLA_FACTS, judge_args, run

from pytest_llmfaith.plugin import terminal_progress

SUITE = HEADER + '''
def test_slow():
    assert_faithful(GOOD, CTX)

def test_fast():
    assert_not_hallucinated(GOOD, CTX)
'''
TTY = '''
import pytest

class Tee:
    """Keeps the raw terminal output (pytester's lines are split at carriage returns too)."""

    def __init__(self, file):
        self.file, self.raw = file, open("terminal.txt", "w")

    def write(self, text):
        self.raw.write(text)
        self.raw.flush()
        return self.file.write(text)

    def __getattr__(self, name):
        return getattr(self.file, name)

@pytest.hookimpl(trylast=True)
def pytest_configure(config):
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    reporter.isatty = type(reporter.isatty)(True)  # as on a terminal (a bool, callable in pytest 9)
    reporter._tw._file = Tee(reporter._tw._file)
'''
SLOW_LINE = r"llmfaith: test_progress_suite.py::test_slow: 2 judge calls, \d+\.\d s"


@pytest.fixture
def slow_suite(pytester: pytest.Pytester, server, monkeypatch: pytest.MonkeyPatch) -> None:
    """test_slow waits 2 x 0.5 s on the judge (claims, verdicts); test_fast does not wait."""
    monkeypatch.setattr(terminal_progress, "SLOW_AFTER_S", 0.3)
    monkeypatch.setattr(terminal_progress, "TICK_S", 0.05)
    server.facts(**TESLA_FACTS)
    server.fail("delay", times=2, seconds=0.5)
    pytester.makepyfile(test_progress_suite=SUITE)


def progress_lines(text: str) -> list[str]:
    return [line for line in text.split("\n") if "llmfaith: test_progress_suite.py::" in line]


def test_a_slow_test_gets_one_line_in_a_ci_log(pytester, server, slow_suite) -> None:
    result = run(pytester, server)
    result.assert_outcomes(passed=2)
    lines = progress_lines(result.stdout.str())  # split at "\r" too: a live status would show
    assert len(lines) == 1 and re.fullmatch(SLOW_LINE, lines[0]), result.stdout.str()
    assert re.search(r"^test_progress_suite.py \.\.", result.stdout.str(), re.MULTILINE)


def test_a_ci_log_keeps_pytests_line_of_dots_whole(pytester, server, slow_suite) -> None:
    """Was: the slow test's line printed between the dots, and the file's name again after it,
    so that a log read one line per slow test. Now the line waits for the end of the run."""
    pytester.makepyfile(test_progress_suite=HEADER + """
def test_first():
    pass

def test_slow():
    assert_faithful(GOOD, CTX)

def test_last():
    pass
""")
    result = run(pytester, server)
    result.assert_outcomes(passed=3)
    text = result.stdout.str()
    assert re.search(r"^test_progress_suite\.py \.\.\. +\[100%\]$", text, re.MULTILINE), text
    assert text.count("test_progress_suite.py ") == 1
    slow = progress_lines(text)
    assert len(slow) == 1 and text.index(slow[0]) > text.index("[100%]"), text


def test_a_terminal_shows_the_step_live_then_the_same_one_line(pytester, server, slow_suite) -> None:
    pytester.makeconftest(TTY)
    run(pytester, server).assert_outcomes(passed=2)
    lines = progress_lines((pytester.path / "terminal.txt").read_bytes().decode())
    assert len(lines) == 1, lines
    live, _, final = lines[0].rpartition("\r")  # redrawn in place
    assert re.search(r"llmfaith: test_progress_suite.py::test_slow: (claims|verdicts), \d+\.\d s", live)
    assert re.fullmatch(SLOW_LINE, final.rstrip())


RENAMED = TTY + '''
import sys

as_a_terminal = pytest_configure


@pytest.hookimpl(trylast=True)
def pytest_configure(config):
    as_a_terminal(config)
    reporter = config.pluginmanager.get_plugin("terminalreporter")

    class Renamed(type(reporter)):
        """A pytest that keeps its current line's file under another name, as the plugin sees it."""

        def __getattribute__(self, name):
            if name == "currentfspath" and sys._getframe(1).f_globals["__name__"].startswith("pytest_llmfaith"):
                raise AttributeError(name)
            return super().__getattribute__(name)

    reporter.__class__ = Renamed
'''


def test_without_pytests_current_file_the_line_is_written_whole(pytester, server, slow_suite) -> None:
    """`TerminalReporter.currentfspath` is not public API: without it, no live status, and the
    slow test's one line is written whole on a line of its own."""
    pytester.makeconftest(RENAMED)
    result = run(pytester, server)
    result.assert_outcomes(passed=2)
    assert "INTERNALERROR" not in result.stdout.str() + result.stderr.str()
    lines = progress_lines((pytester.path / "terminal.txt").read_bytes().decode())
    assert len(lines) == 1 and "\r" not in lines[0] and re.fullmatch(SLOW_LINE, lines[0]), lines


def test_quiet_runs_show_no_progress(pytester, server, slow_suite) -> None:
    pytester.makeconftest(TTY)
    run(pytester, server, "-q").assert_outcomes(passed=2)
    assert progress_lines((pytester.path / "terminal.txt").read_bytes().decode()) == []
    server.fail("delay", times=2, seconds=0.5)
    run(pytester, server).assert_outcomes(passed=2)  # the same run without -q shows it
    assert len(progress_lines((pytester.path / "terminal.txt").read_bytes().decode())) == 1


def test_cached_runs_show_no_progress(pytester, server, slow_suite) -> None:
    first = run(pytester, server, cache="use")
    assert len(progress_lines(first.stdout.str())) == 1
    server.fail("delay", times=2, seconds=0.5)  # would be slow, but every answer is stored
    second = run(pytester, server, cache="use")
    second.assert_outcomes(passed=2)
    assert progress_lines(second.stdout.str()) == []


LOADING = HEADER + '''
from pytest_llmfaith.plugin.session import active_session

def test_first_local_call():
    active_session().judges.progress.judge_loading("qwen-test", None)
    active_session().judges.progress.judge_loading("qwen-test", 1.43)
'''


def test_loading_the_offline_judge_is_one_line(pytester, server) -> None:
    pytester.makepyfile(test_loading=LOADING)
    result = run(pytester, server)
    assert "llmfaith: loading the offline judge model qwen-test ... ready in 1.4 s" in result.outlines
    assert "ready in" not in run(pytester, server, "-q").stdout.str()


def test_xdist_workers_report_to_no_one(pytestconfig: pytest.Config, monkeypatch) -> None:
    registered: list[object] = []
    monkeypatch.setattr(pytestconfig.option, "verbose", 0)  # this run's own -q must not decide
    monkeypatch.delattr(pytestconfig, "workerinput", raising=False)  # nor whether this run is itself a worker
    monkeypatch.setattr(pytestconfig.pluginmanager, "register", lambda plugin, name=None: registered.append(plugin))
    assert isinstance(terminal_progress.install(pytestconfig), terminal_progress.TerminalProgress)
    monkeypatch.setattr(pytestconfig, "workerinput", {"workerid": "gw0"}, raising=False)
    assert terminal_progress.install(pytestconfig) is terminal_progress.NO_PROGRESS  # its output reaches no one
    assert len(registered) == 1


def test_the_live_status_bypasses_output_capture(pytester, server, slow_suite, monkeypatch) -> None:
    """Drawn while the test runs, it must reach the terminal, not the test's captured output
    (a subprocess: in-process runs do not capture the terminal's file descriptor)."""
    monkeypatch.setenv("PYTHONPATH", str(Path(terminal_progress.__file__).parents[2]))  # the code under test
    pytester.makeconftest(TTY + "import pytest_llmfaith.plugin.terminal_progress as p\n"
                          "p.SLOW_AFTER_S, p.TICK_S = 0.3, 0.05\n")
    pytester.makepyfile(test_progress_suite=HEADER + '''
def test_slow():
    assert_faithful(GOOD, CTX)
    assert False, "fails, to show its captured output"
''')
    result = pytester.runpytest_subprocess(*judge_args(server), timeout=120)
    result.assert_outcomes(failed=1)
    assert "Captured stdout call" not in result.stdout.str()
    lines = progress_lines((pytester.path / "terminal.txt").read_bytes().decode())
    assert len(lines) == 1 and "\r" in lines[0]
