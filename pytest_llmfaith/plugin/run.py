"""One pytest run, from `pytest_configure` to `pytest_unconfigure`: its session (the judges), the
facts it gathers (scores, judge errors, the self-check, the answers each test module used, the
relay deaths its xdist workers saw), and its end (`finish`: the recordings, the unused entries, the
budget, the report; the notes for the summary; the exit status), with the run's own cache and
budget. The pytest hooks hand everything here. Under xdist only the controller reports.

Stdlib only at import: every test report passes through here, and a suite that never scores must
not pay for pydantic or sqlite3.
"""

from __future__ import annotations

import gc
import os
import secrets
import shutil
import signal
import sys
import tempfile
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from pytest_llmfaith.errors import BudgetExceeded, LLMFaithError, redact
from pytest_llmfaith.plugin import terminal_progress
from pytest_llmfaith.plugin.session import RESULTS_KEY, LLMFaithSession, activate, from_this_package
from pytest_llmfaith.running import ModuleRun, RunningTest, running
from pytest_llmfaith.settings import RECORDINGS_FOLDER, default, resolve
from pytest_llmfaith.wording import plural

if TYPE_CHECKING:
    from pytest_llmfaith.report.model import CheckReport, Report

TEST_KEY = pytest.StashKey[RunningTest]()


@dataclass
class RunEnd:
    """What `finish` gives the summary and pytest."""

    report: Report | None = None  # None: nothing of the run asked the judge
    notes: list[str] = field(default_factory=list)  # recordings, unused entries, budget, relay
    exitstatus: int | pytest.ExitCode = pytest.ExitCode.OK


class LLMFaithRun:
    def __init__(self, config: pytest.Config) -> None:
        try:
            settings = resolve(config.getoption, config.getini, os.environ, Path(config.rootpath))
        except ValueError as err:
            raise pytest.UsageError(str(err)) from None
        self.config = config
        self.session = LLMFaithSession(settings, config, terminal_progress.install(config))
        self.judges = self.session.judges
        self.is_controller = not hasattr(config, "workerinput")
        shared = getattr(config, "workerinput", {}).get("llmfaith_run_dir")  # xdist: the controller's
        self.judges.run_dir = run_dir = Path(shared) if shared else \
            Path(tempfile.gettempdir()) / f"llmfaith-run-{secrets.token_hex(8)}"
        self.previous = activate(self.session)  # the enclosing run's, when pytester runs pytest inside a test
        # the controller's own folder: a SIGTERM'd run removes it too
        self.restore_sigterm = remove_on_sigterm(run_dir) if not shared else (lambda: None)
        self.rootdir = Path(config.rootpath)
        # the run's facts
        self.records: list[dict[str, Any]] = []
        self.judge_errors: dict[str, str] = {}  # test id -> what went wrong
        self.check: CheckReport | None = None
        self.modules: dict[str, ModuleRun] = {}  # test file -> what its tests used
        self.relay_deaths: list[tuple[int, str, bool]] = []  # (pid, how, saw it die), from the xdist workers
        self.deselected = False  # not a full run: unused entries are not all known
        self.end = RunEnd()
        self._judge_modules: dict[int, bool] = {}  # module id -> it uses something of this package

    @property
    def judged(self) -> bool:
        """The run asked the judge: in a test, outside one, or in the self-check."""
        return bool(self.records or self.session.unattached or self.judge_errors or self.check)

    # -- xdist ----------------------------------------------------------------------------
    def hand_to_worker(self, workerinput: dict[str, Any]) -> None:
        """Every worker shares the run's state (budget, single flight) with the controller, and sends
        its judge calls through the run's one relay (started by the first process that needs it)."""
        if self.judges.run_dir is not None:
            workerinput["llmfaith_run_dir"] = str(self.judges.run_dir)
        run = self.judges.relay.run_info()  # its relay, for each worker's JudgeRun
        if run is not None:
            workerinput["llmfaith_relay"] = run

    def worker_down(self, workeroutput: dict[str, Any]) -> None:
        """The relay deaths a worker saw (its `finish`), for the controller's summary."""
        self.relay_deaths += [(pid, how, saw) for pid, how, saw in workeroutput.get("llmfaith_relay_deaths", [])]

    # -- before the tests -----------------------------------------------------------------
    def prewarm(self, items: list[pytest.Item]) -> None:
        """When a test that will run uses the judge, start the relay in the background now, so
        that litellm's import overlaps the start of the tests rather than delaying the first call."""
        if not self.config.option.collectonly and any(self._uses_judge(item) for item in items):
            self.judges.prewarm_relay()  # nothing without a relay (--llm-judge-relay=off, a worker handed none)

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

    def check_judge(self) -> None:
        """The judge self-check, once (on the controller), after collection and before the first
        test; a judge below --llm-judge-min-accuracy stops the run here."""
        settings = self.session.settings
        if not self.is_controller or self.config.option.collectonly or \
                not (settings.judge_check or settings.judge_min_accuracy is not None):
            return
        from pytest_llmfaith.selfcheck.judge_check import run_check

        try:
            self.check = run_check(self.session.judges, settings.judge_check if isinstance(settings.judge_check, Path)
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

    # -- each test ------------------------------------------------------------------------
    @contextmanager
    def testing(self, item: pytest.Item) -> Iterator[None]:
        """The test is "running" through setup, call and teardown: fixtures may assert too."""
        test = RunningTest(item.nodeid, item.path, item)
        item.stash[TEST_KEY] = test
        with running(test):
            yield

    def made_report(self, item: pytest.Item, call: pytest.CallInfo[None], report: pytest.TestReport) -> None:
        """Each phase's report carries the scores made and the answers used since the previous one
        (xdist serialises them), and says when the judge, not the code, failed."""
        records = item.stash.get(RESULTS_KEY, None)
        if records:
            report.llmfaith = list(records)  # type: ignore[attr-defined]
            if self.config.pluginmanager.hasplugin("html"):
                from pytest_html import extras  # pytest-html is optional: asked for only where it runs

                from pytest_llmfaith.report.page import claims_table
                from pytest_llmfaith.results import Assessment

                table = extras.html("".join(claims_table(Assessment.model_validate(r)) for r in records))
                report.extras = [*getattr(report, "extras", []), table]  # type: ignore[attr-defined]
            records.clear()
        test = item.stash.get(TEST_KEY, None)
        used = test.take_used() if test is not None else None
        if used:  # the answers this phase used, for its module's recording
            report.llmfaith_used = used  # type: ignore[attr-defined]
        if call.excinfo is not None and isinstance(call.excinfo.value, LLMFaithError):
            if hasattr(report, "wasxfail"):  # xfail expects a wrong answer, never a broken judge
                report.outcome = "failed"
                del report.wasxfail
            if call.when == "call":
                from pytest_llmfaith.wording import error_line

                report.llmfaith_error = error_line(str(call.excinfo.value))  # type: ignore[attr-defined]

    def take_in(self, report: pytest.TestReport) -> bool:
        """The controller keeps what a test's report carries; True when it is a judge error."""
        if not self.is_controller:
            return False
        error = getattr(report, "llmfaith_error", None)
        if error:
            self.judge_errors[redact(report.nodeid, [self.session.settings.judge_api_key_env])] = error
        records = getattr(report, "llmfaith", None)
        if records:
            if hasattr(report, "wasxfail"):
                records = [{**r, "expected_failure": True} for r in records]
            self.records.extend(records)
        module, _, test = report.nodeid.partition("::")
        run = self.modules.setdefault(module, ModuleRun(module))
        run.reported.add(test)
        if report.when == "call" and report.passed:
            run.passed.add(test)
        for key, entry in (getattr(report, "llmfaith_used", None) or {}).items():
            run.used.setdefault(key, (entry, set()))[1].add(test)
        return bool(error)

    # -- the end --------------------------------------------------------------------------
    def finish(self, session: pytest.Session) -> RunEnd:
        """The recordings and the unused entries, the budget, the relay, then the report and its
        gates; kept in `end` for the summary. A worker hands its relay deaths to the controller."""
        status = session.exitstatus
        if not self.is_controller:  # xdist hands the controller its workeroutput (pytest_testnodedown)
            relay = self.judges.made_relay
            seen = [list(death) for death in relay.deaths()] if relay is not None else []
            self.config.workeroutput["llmfaith_relay_deaths"] = seen  # type: ignore[attr-defined]
            return RunEnd(exitstatus=status)
        try:
            notes = self._housekeeping(session)
        except (LLMFaithError, OSError) as err:  # a conflicted recordings file: said, and never a pass
            notes = [f"llmfaith recordings: not updated: {err}"]
            status = _failed(status)
        relay = self.judges.made_relay  # none made: nothing of this run asked for it
        if relay is not None:
            notes += relay.notes(self.relay_deaths, self.judged)
        report = self._report() if self.judged else None
        if report is not None and report.gate_failures:
            status = _failed(status)
        self.end = RunEnd(report, notes, status)
        return self.end

    def summarise(self, tr: pytest.TerminalReporter) -> None:
        """The llmfaith section of the terminal summary: the report, then the notes."""
        if self.end.report is not None:
            from pytest_llmfaith.plugin.terminal import flag_gate_failures, render

            render(self.end.report, tr, verbose=self.config.get_verbosity() > 0)
            flag_gate_failures(self.end.report, tr)
        elif self.end.notes:
            tr.section("llmfaith")
        for note in self.end.notes:
            tr.write_line(note, yellow="unused" in note or "mid-run" in note, red="not updated" in note)

    def _report(self) -> Report:
        from pytest_llmfaith.report.model import Report, apply_gates
        from pytest_llmfaith.report.render import write_outputs

        report = Report(assessments=self.session.unattached, judge_errors=self.judge_errors, judge_check=self.check)
        report.add(self.records)
        if self.config.pluginmanager.hasplugin("dsession"):  # xdist: tests finished in any order
            report.assessments.sort(key=lambda a: a.test_id)  # each test's in the order they were made
        apply_gates(report, self.session.settings, self.session.baseline_file())
        write_outputs(report, self.session.settings, self.session.baseline())
        self.config.hook.pytest_llmfaith_report(report=report, config=self.config)
        return report

    def _housekeeping(self, session: pytest.Session) -> list[str]:
        """Update the recordings, report (and prune) unused entries, and say what the budget spent."""
        settings = self.session.settings
        used = {key for run in self.modules.values() for key in run.used}
        full = self._full_run(session)
        notes: list[str] = []
        if settings.recordings and settings.cache != "off":
            notes += self._recordings(full)
        whole_suite = full and session.config.args_source != session.config.ArgsSource.ARGS  # no paths given
        if used and whole_suite and settings.cache in ("use", "refresh", "replay"):
            notes += self._unused_cache_entries(used)
        if self.judged and (budget := self.judges.budget) is not None:  # a run that did not ask prints none
            notes.append(budget.summary())
        return notes

    def _full_run(self, session: pytest.Session) -> bool:
        """Every collected test ran: no selection (-k, -m, node ids, --lf, deselection), no early stop."""
        config, option = session.config, session.config.option
        selected = (getattr(option, "keyword", "") or getattr(option, "markexpr", "")
                    or getattr(option, "deselect", None) or getattr(option, "lf", False)
                    or getattr(option, "stepwise", False) or any("::" in str(a) for a in config.args))
        return not (selected or self.deselected or session.shouldstop or session.shouldfail
                    or session.exitstatus == pytest.ExitCode.INTERRUPTED)

    def _recordings(self, full: bool) -> list[str]:
        settings = self.session.settings
        assert settings.recordings is not None
        folder = settings.recordings
        if not any(run.used or (self.rootdir / m).parent.joinpath(folder).is_dir() for m, run in self.modules.items()):
            return []  # cheap: a run that touched no recordings does not import them
        from pytest_llmfaith.recordings.recording_format import record_run

        save = settings.cache in ("use", "refresh")
        modules = (self._redacted(run) for _, run in sorted(self.modules.items()))
        unused, written = record_run(self.rootdir, folder, modules, full, settings.prune_unused and save, save)
        notes = [f"llmfaith wrote the recordings: {self._show(path)} (updated)" for path in written]  # a line each
        if unused:
            count = sum(len(keys) for keys in unused.values())
            files = ", ".join(f"{self._show(p)} ({len(k)})" for p, k in unused.items())
            action = "removed" if settings.prune_unused and save else \
                "unused (remove them with --llm-prune-unused under --llm-cache=use)"
            notes.append(f"llmfaith recordings: {plural(count, 'entry')} {action}: {files}")
        return notes

    def _redacted(self, run: ModuleRun) -> ModuleRun:
        """The module's test ids as its recording names them: a credential in a parametrize id becomes
        a placeholder, numbered over the module's ids in order (different values stay different)."""
        from pytest_llmfaith.errors import redact_data

        ids = sorted({test for _, tests in run.used.values() for test in tests} | run.passed | run.reported)
        shown = dict(zip(ids, redact_data(ids, [self.session.settings.judge_api_key_env])))
        used = {key: (entry, {shown[t] for t in tests}) for key, (entry, tests) in run.used.items()}
        return ModuleRun(run.module, used, {shown[t] for t in run.passed}, {shown[t] for t in run.reported})

    def _unused_cache_entries(self, used: set[str]) -> list[str]:
        """The run's working cache (its judges', opened now if no judge of this process was made)."""
        from pytest_llmfaith.recordings.recorder import unused_cache_entries

        settings, cache = self.session.settings, self.judges.cache
        unused = unused_cache_entries(cache.entries(), used)
        count = sum(len(keys) for keys in unused.values())
        if not count:
            return []
        files = ", ".join(f"{name} ({len(keys)})" for name, keys in sorted(unused.items()))
        if settings.prune_unused and settings.cache in ("use", "refresh"):
            removed = cache.delete(key for keys in unused.values() for key in keys)
            return [(f"llmfaith cache: {plural(removed, 'entry')} this full run did not use removed from "
                     f"{self._show(settings.cache_dir)}: {files}")]
        return [(f"llmfaith cache: {plural(count, 'entry')} in {self._show(settings.cache_dir)} unused by this "
                 f"full run (stored by {files}); remove them: {self._prune_commands()}")]

    def _prune_commands(self) -> str:
        """A full run with --llm-prune-unused, or, where recordings say what is used, the exact cache
        command: a bare `cache prune` only asks "prune what?"."""
        settings = self.session.settings
        mode = "" if settings.cache in ("use", "refresh") else " --llm-cache=use"
        commands = [f"`pytest --llm-prune-unused{mode}`"]
        if settings.recordings:
            where = self._show(settings.cache_dir)
            options = "".join([f" --cache-dir {where}" if where != str(default("llm_cache_dir")) else "",
                               f" --folder {settings.recordings}" if settings.recordings != RECORDINGS_FOLDER else ""])
            commands.append(f"`python -m pytest_llmfaith cache prune --unused{options}`")
        return " or ".join(commands)

    def _show(self, path: Path) -> str:
        try:
            return str(path.relative_to(self.rootdir))
        except ValueError:
            return str(path)

    def close(self) -> None:
        """After the summary: the judges, cache, budget and relay closed, the run's folder removed,
        the enclosing run's session active again."""
        self.judges.close()
        if self.is_controller and self.judges.run_dir is not None:
            shutil.rmtree(self.judges.run_dir, ignore_errors=True)
        self.restore_sigterm()
        activate(self.previous)
        freeze_for_exit(judged=self.judged)


def _failed(status: int | pytest.ExitCode) -> int | pytest.ExitCode:
    return pytest.ExitCode.TESTS_FAILED if status == pytest.ExitCode.OK else status


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


def freeze_for_exit(judged: bool) -> None:
    """Spare the three end-of-session collections the scoring imports' objects (benchmarks/HISTORY.md).
    One collection first, so the tests' garbage and __del__ errors still reach pytest; none after
    litellm, where it would be the very cost saved."""
    if "litellm" in sys.modules:
        gc.freeze()
    elif judged:
        gc.collect()
        gc.freeze()
