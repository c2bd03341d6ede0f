"""pytest hooks: each one hands over to the session, the assertion or the report. A judge error
shows the pytest way: an ERROR and a JUnit <error> (infrastructure, not a verdict on the code),
with a traceback that ends at the user's llmfaith call.

Nothing here imports litellm, pydantic or sqlite3: a suite that never scores pays only for
this module and settings.py.
"""

from __future__ import annotations

import os
import secrets
import shutil
import signal
import tempfile
import threading
from collections.abc import Callable, Generator
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any

import pytest

from pytest_llmfaith.errors import BudgetExceeded, LLMFaithError, redact
from pytest_llmfaith.plugin import hookspecs, terminal_progress
from pytest_llmfaith.plugin.housekeeping import Housekeeping, freeze_for_exit
from pytest_llmfaith.plugin.session import (
    RESULTS_KEY,
    USED_KEY,
    LLMFaithSession,
    activate,
    current_item,
    from_this_package,
)
from pytest_llmfaith.settings import OPTIONS, resolve

if TYPE_CHECKING:
    from pytest_llmfaith.plugin.fixture import LLMJudge
    from pytest_llmfaith.report.model import CheckReport, Report
    from pytest_llmfaith.scorers import Scorer


def pytest_addhooks(pluginmanager: pytest.PytestPluginManager) -> None:
    pluginmanager.add_hookspecs(hookspecs)


def pytest_llmfaith_register_scorers(register: Callable[[type[Scorer]], None]) -> None:
    """The built-in scorers register like anyone else's."""
    from pytest_llmfaith.scorers import builtin

    builtin(register)


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("llmfaith", "LLM judge assertions (pytest-llmfaith)")
    for opt in OPTIONS:
        help_text = f"{opt.help}. ini: {opt.name}; env: {opt.env}" + (
            f"; default: {opt.default}" if opt.default not in (None, False) else "")
        if opt.flag_only:
            group.addoption(opt.flag, dest=opt.name, action="store_true", default=None, help=help_text)
        elif opt.optional_value:
            group.addoption(opt.flag, dest=opt.name, nargs="?", const="true", default=None,
                            metavar="PATH.jsonl", help=help_text)
        else:
            group.addoption(opt.flag, dest=opt.name, default=None, metavar=opt.field.upper(), help=help_text)
        parser.addini(opt.name, opt.help, default="")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "llmfaith(model=None, min_faithfulness=None, max_hallucination=None, no_claims=None): "
        "judge model, default thresholds or no-claims outcome for the llmfaith assertions of a test or module")
    try:
        settings = resolve(config.getoption, config.getini, os.environ, Path(config.rootpath))
    except ValueError as err:
        raise pytest.UsageError(str(err)) from None
    session = LLMFaithSession(settings, config, terminal_progress.install(config))
    shared = getattr(config, "workerinput", {}).get("llmfaith_run_dir")  # xdist: the controller's
    session.run_dir = Path(shared) if shared else Path(tempfile.gettempdir()) / f"llmfaith-run-{secrets.token_hex(8)}"
    previous = activate(session)
    hooks = RunHooks(session, config, previous)
    if not shared:  # the controller's own folder: a SIGTERM'd run removes it too
        hooks.restore_sigterm = remove_on_sigterm(session.run_dir)
    config.pluginmanager.register(hooks, "llmfaith-run")


def remove_on_sigterm(folder: Path) -> Callable[[], None]:
    """Until the returned function is called, SIGTERM first removes `folder` (the run's private state,
    judge answers among it), then does what it did before: the previous handler, or the default (the
    process ends by the signal, its exit status says so). Main thread only (signals are handled
    there); a SIGTERM that was ignored stays ignored. Returns the function that puts the previous back."""
    if threading.current_thread() is not threading.main_thread():
        return lambda: None
    previous = signal.getsignal(signal.SIGTERM)
    if previous is signal.SIG_IGN or previous is None:  # ignored, or set outside Python: left alone
        return lambda: None

    def on_sigterm(signum: int, frame: Any) -> None:
        shutil.rmtree(folder, ignore_errors=True)
        signal.signal(signal.SIGTERM, previous)
        if callable(previous):
            previous(signum, frame)
        else:  # SIG_DFL: end as the signal ends a process
            signal.raise_signal(signum)

    signal.signal(signal.SIGTERM, on_sigterm)

    def restore() -> None:
        if signal.getsignal(signal.SIGTERM) is on_sigterm:  # else someone set their own since: theirs stays
            signal.signal(signal.SIGTERM, previous)

    return restore


@pytest.fixture
def llm_judge(request: pytest.FixtureRequest) -> LLMJudge:
    """The llmfaith assertions and raw scorers, bound to this test: llm_judge.assert_faithful(...),
    llm_judge.faithfulness(...), llm_judge.with_defaults(model=..., min_score=...)."""
    from pytest_llmfaith.plugin.fixture import LLMJudge

    return LLMJudge(request.node)


class RunHooks:
    """The hooks of one run, bound to its session. Under xdist only the controller reports."""

    def __init__(self, session: LLMFaithSession, config: pytest.Config,
                 previous: LLMFaithSession | None = None) -> None:
        self.session = session
        self.previous = previous  # the enclosing run's session, when pytester runs pytest inside a test
        self.config = config
        self.is_controller = not hasattr(config, "workerinput")
        self.records: list[dict[str, Any]] = []
        self.judge_errors: dict[str, str] = {}  # test id -> what went wrong
        self.report: Report | None = None
        self.check: CheckReport | None = None
        self.housekeeping = Housekeeping(session, Path(config.rootpath))
        self.notes: list[str] = []  # recordings, unused entries, budget, relay
        self._judge_modules: dict[int, bool] = {}  # module id -> it uses something of this package
        self.relay_deaths: list[tuple[int, str, bool]] = []  # (pid, how, saw it die), from the xdist workers
        self.restore_sigterm: Callable[[], None] = lambda: None  # see remove_on_sigterm

    @property
    def judged(self) -> bool:
        """The run asked the judge: in a test, outside one, or in the self-check."""
        return bool(self.records or self.session.unattached or self.judge_errors or self.check)

    @pytest.hookimpl(optionalhook=True)
    def pytest_configure_node(self, node: Any) -> None:
        """xdist: every worker shares the run's state (budget, single flight) with the controller, and
        sends its judge calls through the run's one relay (started by the first process that needs it)."""
        if self.session.run_dir is not None:
            node.workerinput["llmfaith_run_dir"] = str(self.session.run_dir)
        run = self.session.relay.run_info()  # its relay, for LLMFaithSession.new_relay in each worker
        if run is not None:
            node.workerinput["llmfaith_relay"] = run

    @pytest.hookimpl(optionalhook=True)
    def pytest_testnodedown(self, node: Any, error: object) -> None:
        """xdist: the relay deaths a worker saw (its sessionfinish), for the controller's summary."""
        seen = getattr(node, "workeroutput", {}).get("llmfaith_relay_deaths", [])
        self.relay_deaths += [(pid, how, saw) for pid, how, saw in seen]

    @pytest.hookimpl(trylast=True)  # after -k, -m and --lf chose the tests that will run
    def pytest_collection_modifyitems(self, config: pytest.Config, items: list[pytest.Item]) -> None:
        """When a test that will run uses the judge, start the relay in the background now, so
        that litellm's import overlaps the start of the tests rather than delaying the first call."""
        if not config.option.collectonly and any(self._uses_judge(item) for item in items):
            self.session.prewarm_relay()  # nothing without a relay (--llm-judge-relay=off, a worker handed none)

    def _uses_judge(self, item: pytest.Item) -> bool:
        """The llm_judge fixture, the llmfaith marker, or anything of this package in the test's module."""
        if "llm_judge" in getattr(item, "fixturenames", ()) or item.get_closest_marker("llmfaith"):
            return True
        module = getattr(item, "module", None)
        if module is None:
            return False
        if id(module) not in self._judge_modules:
            self._judge_modules[id(module)] = any(map(from_this_package, vars(module).values()))
        return self._judge_modules[id(module)]

    def pytest_deselected(self) -> None:
        self.housekeeping.deselected = True  # not a full run: unused entries are not all known

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtestloop(self, session: pytest.Session) -> None:
        """The judge self-check, once (on the controller under xdist), after collection and
        before the first test; a judge below --llm-judge-min-accuracy stops the run here."""
        settings = self.session.settings
        if not self.is_controller or session.config.option.collectonly or \
                not (settings.judge_check or settings.judge_min_accuracy is not None):
            return
        from pytest_llmfaith.selfcheck.judge_check import run_check

        try:
            self.check = run_check(self.session, settings.judge_check if isinstance(settings.judge_check, Path)
                                   else None, settings.judge_min_accuracy)
        except BudgetExceeded as err:  # a check cut short says nothing of the judge: never a pass
            pytest.exit(f"{err} The judge self-check could not finish, so no test was run.",
                        returncode=pytest.ExitCode.TESTS_FAILED)
        except LLMFaithError as err:  # no judge configured, a bad items file
            raise pytest.UsageError(str(err)) from None
        reporter = self.config.pluginmanager.get_plugin("terminalreporter")
        if reporter is not None:
            reporter.ensure_newline()
            for line in self.check.lines():
                reporter.write_line(line)
        if self.check.problem:
            pytest.exit(self.check.problem, returncode=pytest.ExitCode.TESTS_FAILED)

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_protocol(self, item: pytest.Item) -> Generator[None, object, object]:
        """The test is "running" through setup, call and teardown: fixtures may assert too."""
        token = current_item.set(item)
        self.session.running_item = item
        try:
            return (yield)
        finally:
            self.session.running_item = None
            current_item.reset(token)

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_makereport(
        self, item: pytest.Item, call: pytest.CallInfo[None]
    ) -> Generator[None, pytest.TestReport, pytest.TestReport]:
        if call.excinfo is not None and isinstance(call.excinfo.value, LLMFaithError):
            hide_plugin_frames(call.excinfo)
        report = yield
        records = item.stash.get(RESULTS_KEY, None)
        if records:  # each phase's report carries the scores made since the previous one
            report.llmfaith = list(records)  # type: ignore[attr-defined]  # xdist serialises it
            if self.config.pluginmanager.hasplugin("html"):
                from pytest_html import extras  # pytest-html is optional: asked for only where it runs

                from pytest_llmfaith.report.page import claims_table
                from pytest_llmfaith.results import Assessment

                table = extras.html("".join(claims_table(Assessment.model_validate(r)) for r in records))
                report.extras = [*getattr(report, "extras", []), table]  # type: ignore[attr-defined]
            records.clear()
        used = item.stash.get(USED_KEY, None)
        if used:  # the answers this phase used, for its module's recording
            report.llmfaith_used = dict(used)  # type: ignore[attr-defined]
            used.clear()
        if call.excinfo is not None and isinstance(call.excinfo.value, LLMFaithError):
            if hasattr(report, "wasxfail"):  # xfail expects a wrong answer, never a broken judge
                report.outcome = "failed"
                del report.wasxfail
            if call.when == "call":
                from pytest_llmfaith.wording import error_line

                report.llmfaith_error = error_line(str(call.excinfo.value))  # type: ignore[attr-defined]
        return report

    def pytest_report_teststatus(self, report: pytest.TestReport) -> tuple[str, str, str] | None:
        """A judge or configuration failure is an ERROR, never mistaken for a low score."""
        if report.when == "call" and report.failed and getattr(report, "llmfaith_error", False):
            return "error", "E", "ERROR"
        return None

    @pytest.hookimpl(trylast=True)  # after the JUnit writer, which junit_error corrects
    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        records = getattr(report, "llmfaith", None)
        if self.is_controller and getattr(report, "llmfaith_error", None):
            self.judge_errors[redact(report.nodeid, [self.session.settings.judge_api_key_env])] = report.llmfaith_error
            junit_error(self.config, report)
        if self.is_controller and records:
            if hasattr(report, "wasxfail"):
                records = [{**r, "expected_failure": True} for r in records]
            self.records.extend(records)
        if self.is_controller:
            self.housekeeping.add(report)

    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        if not self.is_controller:  # xdist hands the controller its workeroutput (pytest_testnodedown)
            relay = self.session.made_relay
            seen = [list(death) for death in relay.deaths()] if relay is not None else []
            self.config.workeroutput["llmfaith_relay_deaths"] = seen  # type: ignore[attr-defined]
            return
        try:
            self.notes = self.housekeeping.finish(session, scored=self.judged)
        except (LLMFaithError, OSError) as err:  # a conflicted recordings file: said, and never a pass
            self.notes = [f"llmfaith recordings: not updated: {err}"]
            if session.exitstatus == pytest.ExitCode.OK:
                session.exitstatus = pytest.ExitCode.TESTS_FAILED
        relay = self.session.made_relay  # none made: nothing of this run asked for it
        if relay is not None:
            self.notes += relay.notes(self.relay_deaths, self.judged)
        if not self.judged:
            return
        from pytest_llmfaith.report.model import Report, apply_gates
        from pytest_llmfaith.report.render import write_outputs

        report = Report(assessments=self.session.unattached, judge_errors=self.judge_errors,
                        judge_check=self.check)
        report.add(self.records)
        if self.config.pluginmanager.hasplugin("dsession"):  # xdist: tests finished in any order
            report.sort_by_test()
        apply_gates(report, self.session.settings, self.session.baseline_file())
        write_outputs(report, self.session.settings, self.session.baseline())
        self.config.hook.pytest_llmfaith_report(report=report, config=self.config)
        if report.gate_failures and session.exitstatus == pytest.ExitCode.OK:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED
        self.report = report

    def pytest_terminal_summary(self, terminalreporter: pytest.TerminalReporter) -> None:
        if self.report is not None:
            from pytest_llmfaith.plugin.terminal import flag_gate_failures, render

            render(self.report, terminalreporter, verbose=self.config.get_verbosity() > 0)
            flag_gate_failures(self.report, terminalreporter)
        elif self.notes:
            terminalreporter.section("llmfaith")
        for note in self.notes:
            terminalreporter.write_line(note, yellow="unused" in note or "mid-run" in note, red="not updated" in note)

    def pytest_unconfigure(self) -> None:
        self.session.close()
        if self.is_controller and self.session.run_dir is not None:
            shutil.rmtree(self.session.run_dir, ignore_errors=True)
        self.restore_sigterm()
        activate(self.previous)
        freeze_for_exit(judged=self.judged)


PACKAGE_DIR = str(Path(__file__).parents[1]) + os.sep  # frames in it are the plugin's


def hide_plugin_frames(excinfo: pytest.ExceptionInfo[BaseException]) -> None:
    """End the traceback at the user's llmfaith call: with `pytest -l` the plugin's frames would
    print locals holding the API key. Cut from the exception itself, so no traceback style shows them."""
    tb: TracebackType | None = excinfo.tb
    last_user: TracebackType | None = None
    while tb is not None and not tb.tb_frame.f_code.co_filename.startswith(PACKAGE_DIR):
        last_user, tb = tb, tb.tb_next
    if tb is not None and last_user is not None:
        last_user.tb_next = None
        excinfo.traceback = type(excinfo.traceback)(excinfo.tb)


def junit_error(config: pytest.Config, report: pytest.TestReport) -> None:
    """pytest's JUnit writer files every failed call as a <failure>; a judge error is an <error>
    (infrastructure, not a verdict on the code), so its element is renamed once written.

    pytest has no public way to say so: this reaches its writer through `_pytest.junitxml.xml_key`.
    A pytest without it, or whose writer is shaped otherwise, leaves the <failure> as it is: the
    terminal still says ERROR (tests/plugin/test_faults.py shows both)."""
    try:
        from _pytest.junitxml import xml_key
    except ImportError:
        return
    xml = config.stash.get(xml_key, None)
    if xml is None:
        return
    try:
        nodes = [node for node in xml.node_reporter(report).nodes if node.tag == "failure"]
        counts = xml.stats
        counts["failure"], counts["error"] = counts["failure"] - len(nodes), counts["error"] + len(nodes)
    except (AttributeError, KeyError, TypeError):
        return
    for node in nodes:
        node.tag = "error"
        node.set("message", report.llmfaith_error)
