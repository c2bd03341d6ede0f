"""Plugin behaviour that needs a fresh interpreter: real xdist workers, and which modules a run imports.

Each run here is a subprocess (pytester.runpytest_subprocess). A process that calls the judge pays
the litellm import (~5 s); the xdist run replays answers recorded beforehand, so its four workers
never import litellm (which the test checks too).
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

pytest.importorskip("xdist")

FACTS = {"supported": ["Tesla was founded in 2003.", "The first Tesla car was the Roadster."],
         "contradicted": ["Elon Musk founded Tesla."]}
GOOD = "Tesla was founded in 2003. The first Tesla car was the Roadster."
MIXED = "Tesla was founded in 2003. Elon Musk founded Tesla. Tesla is based on Mars."

SUITE = f'''
import pytest
from pytest_llmfaith import assert_faithful, assert_not_hallucinated
CTX = ["Tesla was founded in 2003.", "The first Tesla car was the Roadster."]
GOOD = {GOOD!r}
MIXED = {MIXED!r}

@pytest.mark.parametrize("i", range(10))
def test_ok(i):
    assert_faithful(GOOD, CTX)

def test_two_scores():
    assert_faithful(GOOD, CTX)
    assert_not_hallucinated(GOOD, CTX)

def test_fails():
    assert_faithful(MIXED, CTX)

@pytest.fixture
def checked():
    yield GOOD
    assert_not_hallucinated(GOOD, CTX)  # in teardown: must still reach the controller

def test_scored_in_fixture_teardown(checked):
    assert checked

def test_not_scored():
    pass

@pytest.mark.llmfaith(model="openai/unrecorded-judge")
def test_judge_error():
    assert_faithful(GOOD, CTX)
'''

HOOKS = '''
import json, os, sys

def pytest_unconfigure(config):
    with open(f"litellm-{os.environ.get('PYTEST_XDIST_WORKER', 'controller')}.txt", "w") as fh:
        fh.write(str("litellm" in sys.modules))

def pytest_llmfaith_scored(assessment, config):
    worker = os.environ.get("PYTEST_XDIST_WORKER", "controller")
    with open(f"scored-{worker}.txt", "a") as fh:
        fh.write(f"{assessment.test_id} {assessment.result.scorer}\\n")

def pytest_llmfaith_report(report, config):
    with open("report-hook.txt", "a") as fh:
        fh.write(f"{os.environ.get('PYTEST_XDIST_WORKER', 'controller')} {len(report.assessments)}\\n")
'''


@pytest.fixture(scope="module", autouse=True)
def _litellm_imported_before_pytester() -> None:
    """litellm's importlib_metadata import patches sys.meta_path; the pytester fixture restores
    sys.meta_path at teardown, which would leave no package metadata for the rest of the session
    if litellm were first imported while a pytester fixture is alive (see plugin_helpers.py)."""
    from pytest_llmfaith.judge.transport import import_litellm

    import_litellm()


@pytest.fixture(scope="module")
def recorded_cache(judge_server, tmp_path_factory) -> Path:
    """Judge answers for SUITE, recorded through the library with the keys the plugin will use.

    Module-scoped so that it runs before (outside) the pytester fixture, which would otherwise
    unload the litellm modules that the first completion imports."""
    from pytest_llmfaith import Faithfulness, Hallucination, Judge, JudgeCache, JudgeConfig

    server = judge_server
    server.reset()
    server.facts(**FACTS)
    directory = tmp_path_factory.mktemp("recorded") / "cache"
    cache = JudgeCache(directory, "use")
    judge = Judge(JudgeConfig(model="openai/test-judge", api_base=server.url), cache)
    ctx = ["Tesla was founded in 2003.", "The first Tesla car was the Roadster."]
    Faithfulness(judge).run(GOOD, ctx)
    Hallucination(judge).run(GOOD, ctx)
    Faithfulness(judge).run(MIXED, ctx)
    cache.close()
    server.reset()
    return directory


def test_xdist_workers_results_are_merged_once(pytester: pytest.Pytester, server, recorded_cache,
                                               monkeypatch) -> None:
    monkeypatch.setenv("COLUMNS", "160")
    pytester.makepyfile(test_suite=SUITE)
    pytester.makeconftest(HOOKS)
    result = pytester.runpytest_subprocess(
        "-n", "4", "-p", "no:cacheprovider", "--llm-judge-model=openai/test-judge",
        f"--llm-judge-api-base={server.url}", "--llm-cache=replay", f"--llm-cache-dir={recorded_cache}",
        "--llm-report=report.json", "--junitxml=junit.xml", timeout=120)
    result.assert_outcomes(passed=13, failed=1, errors=1)
    # the marker's model has no recorded answer: replay refuses to call the judge, an ERROR
    assert re.search(r"^ERROR test_suite\.py::test_judge_error - pytest_llmfaith\.errors\.CacheMissError",
                     result.stdout.str(), re.MULTILINE)
    assert "4 workers" in result.stdout.str() or "created: 4/4 workers" in result.stdout.str()
    expected = sorted([f"test_suite.py::test_ok[{i}] faithfulness" for i in range(10)] + [
        "test_suite.py::test_two_scores faithfulness", "test_suite.py::test_two_scores hallucination",
        "test_suite.py::test_fails faithfulness", "test_suite.py::test_scored_in_fixture_teardown hallucination"])

    # one merged terminal section on the controller: every row exactly once
    text = result.stdout.str()
    assert text.count("llmfaith: LLM judge scores") == 1
    rows = re.findall(r"^(test_suite\.py::\S+)\s+(faithful|halluc)\s+\d\.\d\d", text, re.MULTILINE)
    assert sorted(f"{t} {'faithfulness' if s == 'faithful' else 'hallucination'}" for t, s in rows) == expected
    assert [t for t, _ in rows] == sorted(t for t, _ in rows)  # by test id, not in the order workers finished
    assert re.search(r"^llmfaith: 14 scores \(13 passed, 1 failed\); judge calls 28 \(28 cached, 0 new\)", text,
                     re.MULTILINE)
    assert server.requests == []
    litellm = {p.name: p.read_text() for p in pytester.path.glob("litellm-*.txt")}
    assert litellm == {"litellm-controller.txt": "False", **{f"litellm-gw{i}.txt": "False" for i in range(4)}}

    report = json.loads((pytester.path / "report.json").read_text())
    assert sorted(f"{a['test_id']} {a['result']['scorer']}" for a in report["results"]) == expected

    # the scored hook runs where the test ran (the workers); the report hook once, on the controller
    scored = {p.name: p.read_text().splitlines() for p in pytester.path.glob("scored-*.txt")}
    assert "scored-controller.txt" not in scored and len(scored) >= 2, scored
    assert sorted(line for lines in scored.values() for line in lines) == expected
    assert (pytester.path / "report-hook.txt").read_text() == "controller 14\n"

    props = [p.get("name") for p in ET.parse(pytester.path / "junit.xml").iter("property")]
    assert sum(name.endswith(".score") for name in props) == 14


UNRELATED = '''
import sys

def test_one():
    assert 1 + 1 == 2

def test_two(tmp_path):
    (tmp_path / "x").write_text("fine")
'''

PROBE = '''
import sys

def pytest_unconfigure(config):
    heavy = [m for m in ("litellm", "pydantic", "pytest_llmfaith.judge.client",
                         "pytest_llmfaith.report.model", "pytest_llmfaith.plugin.assertion") if m in sys.modules]
    sys.stdout.write(f"\\nHEAVY MODULES: {heavy}\\n")
    import gc
    sys.stdout.write(f"FROZEN: {gc.get_freeze_count()}\\n")
'''


def _files(root) -> set[str]:
    return {str(p.relative_to(root)) for p in root.rglob("*") if "__pycache__" not in p.parts}


def test_invisible_in_a_suite_that_does_not_score(pytester: pytest.Pytester, server) -> None:
    """Configured (model, report, baseline) but never used: no imports, files, requests or output."""
    proj = pytester.mkdir("proj")  # pytester writes its own files next to it
    (proj / "test_unrelated.py").write_text(UNRELATED)
    (proj / "conftest.py").write_text(PROBE)
    (proj / "pyproject.toml").write_text("[tool.pytest.ini_options]\nllm_judge_model = \"openai/test-judge\"\n"
                                         f"llm_judge_api_base = \"{server.url}\"\n")
    before = _files(proj)
    args = ("proj", "-p", "no:cacheprovider", "--llm-report=llm.json", "--llm-baseline=baseline.json", "-rA")
    with_plugin = pytester.runpytest_subprocess(*args)
    with_plugin.assert_outcomes(passed=2)
    assert with_plugin.ret == 0
    assert "HEAVY MODULES: []" in with_plugin.stdout.str()
    assert "FROZEN: 0" in with_plugin.stdout.str()  # a suite that never scored keeps its collector as it was
    assert _files(proj) == before  # no report, no baseline, no .llmfaith_cache
    assert not [p for p in pytester.path.rglob("*") if p.name in ("llm.json", "baseline.json", ".llmfaith_cache")]
    assert server.requests == []

    assert "warning" not in with_plugin.stdout.str().lower()
    assert [line for line in with_plugin.outlines if "llmfaith" in line] == [
        line for line in with_plugin.outlines if line.startswith("plugins:")]

    # unconfigured, the output is the same as with the plugin disabled
    (proj / "pyproject.toml").unlink()
    plain = pytester.runpytest_subprocess("proj", "-p", "no:cacheprovider", "-rA")
    without = pytester.runpytest_subprocess("proj", "-p", "no:cacheprovider", "-p", "no:llmfaith", "-rA")
    without.assert_outcomes(passed=2)

    def normalised(result: pytest.RunResult) -> list[str]:
        return [re.sub(r"\d+\.\d+s", "N s", line) for line in result.outlines if not line.startswith("plugins:")]

    assert "HEAVY MODULES: []" in plain.stdout.str()
    assert normalised(plain) == normalised(without)


GARBAGE = f"""
import gc
from pytest_llmfaith import assert_faithful

gc.disable()  # only the explicit collections at the end free the cycle (and none runs its __del__ mid-import)

class Cycle:
    def __init__(self):
        self.me = self
    def __del__(self):
        raise RuntimeError("a __del__ error pytest must still report")

def test_scored_and_left_garbage():
    Cycle()
    assert_faithful({GOOD!r}, ["Tesla was founded in 2003.", "The first Tesla car was the Roadster."])
"""


def test_a_scored_run_freezes_its_objects_after_collecting_the_tests_garbage(
        pytester: pytest.Pytester, server, recorded_cache) -> None:
    """pytest's end-of-session collections, and the interpreter's at exit, skip what the scoring
    imported (frozen); the tests' garbage is collected first, so pytest still reports its errors."""
    pytester.makepyfile(test_garbage=GARBAGE)
    pytester.makeconftest(PROBE)
    result = pytester.runpytest_subprocess(
        "-p", "no:cacheprovider", "--llm-judge-model=openai/test-judge", f"--llm-judge-api-base={server.url}",
        "--llm-cache=replay", f"--llm-cache-dir={recorded_cache}", timeout=120)
    result.assert_outcomes(passed=1)
    text = result.stdout.str()
    # pytest's unconfigure reports it, after the summary line (so it is not counted there)
    assert re.search(r"PytestUnraisableExceptionWarning: Exception ignored in: <function Cycle.__del__",
                     text + result.stderr.str()), text + result.stderr.str()
    assert "HEAVY MODULES: ['pydantic', 'pytest_llmfaith.judge.client', 'pytest_llmfaith.report.model', " \
           "'pytest_llmfaith.plugin.assertion']" in text  # no litellm: the scores were replayed
    frozen = re.search(r"^FROZEN: (\d+)$", text, re.MULTILINE)
    assert frozen is not None and int(frozen.group(1)) > 10_000, text  # pydantic, the scorers, the report
