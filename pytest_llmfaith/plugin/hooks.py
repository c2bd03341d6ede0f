"""pytest hooks: each one hands over to the run (`LLMFaithRun`), which holds the run's facts and
ends it. A judge error shows the pytest way: an ERROR and a JUnit <error> (infrastructure, not a
verdict on the code), with a traceback that ends at the user's llmfaith call.

Nothing here imports litellm, pydantic or sqlite3: a suite that never scores pays only for the
hooks, the run and the settings.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Generator
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any

import pytest

from pytest_llmfaith.errors import LLMFaithError
from pytest_llmfaith.plugin import hookspecs
from pytest_llmfaith.plugin.run import LLMFaithRun
from pytest_llmfaith.settings import OPTIONS

if TYPE_CHECKING:
    from pytest_llmfaith.plugin.fixture import LLMJudge
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
    config.pluginmanager.register(RunHooks(LLMFaithRun(config)), "llmfaith-run")


@pytest.fixture
def llm_judge(request: pytest.FixtureRequest) -> LLMJudge:
    """The llmfaith assertions and raw scorers, bound to this test: llm_judge.assert_faithful(...),
    llm_judge.faithfulness(...), llm_judge.with_defaults(model=..., min_score=...)."""
    from pytest_llmfaith.plugin.fixture import LLMJudge

    return LLMJudge(request.node)


class RunHooks:
    """The hooks of one run, each handing over to it."""

    def __init__(self, run: LLMFaithRun) -> None:
        self.run = run

    @pytest.hookimpl(optionalhook=True)
    def pytest_configure_node(self, node: Any) -> None:  # xdist, on the controller
        self.run.hand_to_worker(node.workerinput)

    @pytest.hookimpl(optionalhook=True)
    def pytest_testnodedown(self, node: Any, error: object) -> None:  # xdist, on the controller
        self.run.worker_down(getattr(node, "workeroutput", {}))

    @pytest.hookimpl(trylast=True)  # after -k, -m and --lf chose the tests that will run
    def pytest_collection_modifyitems(self, items: list[pytest.Item]) -> None:
        self.run.prewarm(items)

    def pytest_deselected(self) -> None:
        self.run.deselected = True

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtestloop(self) -> None:
        self.run.check_judge()

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_protocol(self, item: pytest.Item) -> Generator[None, object, object]:
        with self.run.testing(item):
            return (yield)

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_makereport(
        self, item: pytest.Item, call: pytest.CallInfo[None]
    ) -> Generator[None, pytest.TestReport, pytest.TestReport]:
        if call.excinfo is not None and isinstance(call.excinfo.value, LLMFaithError):
            hide_plugin_frames(call.excinfo)
        report = yield
        self.run.made_report(item, call, report)
        return report

    def pytest_report_teststatus(self, report: pytest.TestReport) -> tuple[str, str, str] | None:
        """A judge or configuration failure is an ERROR, never mistaken for a low score."""
        if report.when == "call" and report.failed and getattr(report, "llmfaith_error", False):
            return "error", "E", "ERROR"
        return None

    @pytest.hookimpl(trylast=True)  # after the JUnit writer, which junit_error corrects
    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if self.run.take_in(report):
            junit_error(self.run.config, report)

    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        session.exitstatus = self.run.finish(session).exitstatus

    def pytest_terminal_summary(self, terminalreporter: pytest.TerminalReporter) -> None:
        self.run.summarise(terminalreporter)

    def pytest_unconfigure(self) -> None:
        self.run.close()


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
    terminal still says ERROR."""
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
