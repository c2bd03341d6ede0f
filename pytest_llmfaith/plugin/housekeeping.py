"""End-of-run housekeeping on the controller: which answers the run used, the recordings written
from them, the entries nothing used (reported, removed with --llm-prune-unused), and the budget.

Stdlib only at import: the controller feeds every test report through here, and a suite that
never scores must not pay for pydantic or sqlite3.
"""

from __future__ import annotations

import gc
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pytest_llmfaith.settings import RECORDINGS_FOLDER, default
from pytest_llmfaith.wording import plural

if TYPE_CHECKING:
    import pytest

    from pytest_llmfaith.plugin.session import LLMFaithSession
    from pytest_llmfaith.recordings.recording_format import ModuleAnswers


class ModuleRun:
    """What one test module did in this run: the answers its tests used, which tests passed."""

    def __init__(self) -> None:
        self.used: dict[str, tuple[dict[str, Any], set[str]]] = {}  # key -> (entry, tests)
        self.passed: set[str] = set()
        self.reported: set[str] = set()


class Housekeeping:
    def __init__(self, session: LLMFaithSession, rootdir: Path) -> None:
        self.session = session
        self.rootdir = rootdir
        self.modules: dict[str, ModuleRun] = {}
        self.deselected = False

    def add(self, report: pytest.TestReport) -> None:
        module, _, test = report.nodeid.partition("::")
        run = self.modules.setdefault(module, ModuleRun())
        run.reported.add(test)
        if report.when == "call" and report.passed:
            run.passed.add(test)
        for key, entry in (getattr(report, "llmfaith_used", None) or {}).items():
            run.used.setdefault(key, (entry, set()))[1].add(test)

    def full_run(self, session: pytest.Session) -> bool:
        """Every collected test ran: no selection (-k, -m, node ids, --lf, deselection), no early stop."""
        config, option = session.config, session.config.option
        selected = (getattr(option, "keyword", "") or getattr(option, "markexpr", "")
                    or getattr(option, "deselect", None) or getattr(option, "lf", False)
                    or getattr(option, "stepwise", False) or any("::" in str(a) for a in config.args))
        return not (selected or self.deselected or session.shouldstop or session.shouldfail
                    or session.exitstatus == 2)  # ExitCode.INTERRUPTED

    def finish(self, session: pytest.Session, scored: bool) -> list[str]:
        """Update the recordings, report (and prune) unused entries; the summary's lines.
        `scored`: the run asked the judge (a run that did not prints no budget)."""
        settings = self.session.settings
        used = {key for run in self.modules.values() for key in run.used}
        full = self.full_run(session)
        notes: list[str] = []
        if settings.recordings and settings.cache != "off":
            notes += self._recordings(full)
        whole_suite = full and session.config.args_source != session.config.ArgsSource.ARGS  # no paths given
        if used and whole_suite and settings.cache in ("use", "refresh", "replay"):
            notes += self._cache(used)
        if self.session.run_dir is not None and scored and self.session.budgeted:
            from pytest_llmfaith.judge.budget import Budget

            budget = Budget(self.session.run_dir, settings.max_judge_calls, settings.max_cost)
            notes.append(budget.summary())
            budget.close()
        return notes

    def _recordings(self, full: bool) -> list[str]:
        settings = self.session.settings
        assert settings.recordings is not None
        folder = settings.recordings
        if not any(run.used or (self.rootdir / m).parent.joinpath(folder).is_dir() for m, run in self.modules.items()):
            return []  # cheap: a run that touched no recordings does not import them
        from pytest_llmfaith.recordings.recording_format import record_run

        save = settings.cache in ("use", "refresh")
        modules = (self._redacted(module, run) for module, run in sorted(self.modules.items()))
        unused, written = record_run(self.rootdir, folder, modules, full, settings.prune_unused and save, save)
        notes = [f"llmfaith wrote the recordings: {self._show(path)} (updated)" for path in written]  # a line each
        if unused:
            count = sum(len(keys) for keys in unused.values())
            files = ", ".join(f"{self._show(p)} ({len(k)})" for p, k in unused.items())
            action = "removed" if settings.prune_unused and save else \
                "unused (remove them with --llm-prune-unused under --llm-cache=use)"
            notes.append(f"llmfaith recordings: {plural(count, 'entry')} {action}: {files}")
        return notes

    def _redacted(self, module: str, run: ModuleRun) -> ModuleAnswers:
        """The module's test ids as its recording names them: a credential in a parametrize id becomes
        a placeholder, numbered over the module's ids in order (different values stay different)."""
        from pytest_llmfaith.errors import redact_data
        from pytest_llmfaith.recordings.recording_format import ModuleAnswers

        ids = sorted({test for _, tests in run.used.values() for test in tests} | run.passed | run.reported)
        shown = dict(zip(ids, redact_data(ids, [self.session.settings.judge_api_key_env])))
        used = {key: (entry, {shown[t] for t in tests}) for key, (entry, tests) in run.used.items()}
        return ModuleAnswers(module, used, {shown[t] for t in run.passed}, {shown[t] for t in run.reported})

    def _cache(self, used: set[str]) -> list[str]:
        from pytest_llmfaith.judge.cache import JudgeCache
        from pytest_llmfaith.recordings.recorder import unused_cache_entries

        settings = self.session.settings
        cache = JudgeCache(settings.cache_dir, settings.cache)
        try:
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
        finally:
            cache.close()

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


def freeze_for_exit(judged: bool) -> None:
    """Spare the three end-of-session collections the scoring imports' objects (benchmarks/HISTORY.md).
    One collection first, so the tests' garbage and __del__ errors still reach pytest; none after
    litellm, where it would be the very cost saved."""
    if "litellm" in sys.modules:
        gc.freeze()
    elif judged:
        gc.collect()
        gc.freeze()
