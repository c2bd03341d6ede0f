"""The judge self-check: --llm-judge-check, --llm-judge-min-accuracy and `python -m pytest_llmfaith check`,
against the loopback judge scripted to be right (or wrong) about the shipped labelled items."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from judge_server import _sentences
from plugin_helpers import judge_args, run

from pytest_llmfaith.selfcheck.judge_check import item_problems, load_items, read_jsonl

ROOT = Path(__file__).resolve().parents[2]
SHIPPED, _ = load_items(None)
SUITE = "def test_runs():\n    open('ran', 'w').close()\n"


def script_a_good_judge(server) -> None:
    """Right about every shipped item: facts as labelled, no claims in refusals."""
    for item in SHIPPED:
        if item.no_claims:
            server.facts(claims={item.output: []})
        elif item.faithful:
            server.facts(supported=_sentences(item.output))
        else:
            server.facts(contradicted=_sentences(item.output))


def test_the_shipped_set_is_a_small_dev_subset_of_the_benchmark_covering_every_kind() -> None:
    bench = {i["id"]: i for f in (ROOT / "benchmarks" / "labelled").glob("*.jsonl") for i in read_jsonl(f)}
    raw = read_jsonl(ROOT / "pytest_llmfaith" / "selfcheck" / "items.jsonl")
    assert 16 <= len(raw) <= 24
    assert all(item == bench[item["id"]] and not item_problems(item) and item["split"] == "dev" for item in raw)
    assert {i.kind for i in SHIPPED} == {"paraphrase", "numbers-units", "negation", "entity-swap",
                                         "not-mentioned", "refusal"}
    assert {i.faithful for i in SHIPPED if not i.no_claims} == {True, False}


def test_the_check_runs_before_the_tests_and_prints_accuracy_per_scorer(pytester, server) -> None:
    script_a_good_judge(server)
    pytester.makepyfile(test_a=SUITE)
    result = run(pytester, server, "--llm-judge-check", "--llm-report=r.json")
    result.assert_outcomes(passed=1)
    out = result.stdout.str()
    assert "llmfaith judge check: openai/test-judge on 17 labelled items (shipped set)" in out
    assert "faithfulness   balanced accuracy 1.00  wrong: none" in out
    assert "hallucination  balanced accuracy 1.00  wrong: none" in out
    assert out.index("llmfaith judge check:") < out.index("test_a.py .")  # before the first test
    assert "llmfaith judge check (shipped set, 17 items): faithfulness balanced accuracy 1.00" in out  # summary
    report = json.loads((pytester.path / "r.json").read_text())
    assert report["judge_check"]["scorers"][0]["balanced_accuracy"] == 1.0


def test_a_judge_below_the_minimum_stops_the_run_before_any_test(pytester, server) -> None:
    pytester.makepyfile(test_a=SUITE)  # unscripted: every claim "not mentioned", so faithful items fail
    result = run(pytester, server, "--llm-judge-min-accuracy=0.8")
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    assert not (pytester.path / "ran").exists()
    out = " ".join(result.stdout.str().split())
    assert "wrong: entity-swap 1/3, negation 1/3, numbers-units 2/4, paraphrase 3/3" in out
    assert ("the judge openai/test-judge scored balanced accuracy 0.50 (faithfulness), balanced accuracy 0.50 "
            "(hallucination) on the self-check (shipped set), below --llm-judge-min-accuracy=0.8") in out
    assert "No test was run. Fix: use a stronger judge (--llm-judge-model)" in out


def test_a_rerun_of_the_check_is_all_cache_hits(pytester, server) -> None:
    script_a_good_judge(server)
    pytester.makepyfile(test_a=SUITE)
    run(pytester, server, "--llm-judge-check", cache="use").assert_outcomes(passed=1)
    asked = len(server.calls())
    result = run(pytester, server, "--llm-judge-check", "--llm-judge-min-accuracy=0.9", cache="replay")
    result.assert_outcomes(passed=1)
    assert len(server.calls()) == asked
    assert "judge calls 68 (68 cached)" in result.stdout.str()


def test_a_judge_that_cannot_answer_never_passes_the_check(pytester, server) -> None:
    server.fail("500", times=1000, message="model overloaded")
    pytester.makepyfile(test_a=SUITE)
    result = run(pytester, server, "--llm-judge-check", "--llm-judge-retries=0")
    assert result.ret == pytest.ExitCode.TESTS_FAILED and not (pytester.path / "ran").exists()
    assert "the judge self-check could not score 34 item(s)" in result.stdout.str()
    assert "model overloaded" in result.stdout.str()


def test_the_users_own_items_from_flag_ini_or_env(pytester, server, monkeypatch) -> None:
    server.facts(supported=["Refunds take 14 days."])
    items = [{"output": "Refunds take 14 days.", "context": ["Refunds take 14 days."], "faithful": True},
             {"output": "Refunds take 2 days.", "context": ["Refunds take 14 days."], "faithful": False,
              "kind": "numbers"}]
    pytester.path.joinpath("mine.jsonl").write_text("".join(json.dumps(i) + "\n" for i in items))
    pytester.makepyfile(test_a=SUITE)
    for how in ("flag", "ini", "env"):
        args = ["--llm-judge-check=mine.jsonl"] if how == "flag" else []
        if how == "ini":
            pytester.makeini("[pytest]\nllm_judge_check = mine.jsonl\n")
        if how == "env":
            pytester.path.joinpath("tox.ini").unlink()
            monkeypatch.setenv("LLMFAITH_JUDGE_CHECK", "mine.jsonl")
        out = run(pytester, server, *args).stdout.str()
        assert "on 2 labelled items (" in out and "mine.jsonl)" in out, how
        assert "faithfulness   balanced accuracy 1.00" in out, how


@pytest.mark.parametrize("content, expected", [
    (None, "the judge check file {path} does not exist. Fix: --llm-judge-check=PATH.jsonl takes one JSON object"),
    ('{"output": "x", "context": ["y"]}\n', "item 1 of {path}: faithful: Field required"),
    ("not json\n", "is not JSON lines"),
])
def test_a_bad_items_file_is_a_usage_error_naming_the_fix(pytester, server, content, expected) -> None:
    path = pytester.path / "bad.jsonl"
    if content is not None:
        path.write_text(content)
    pytester.makepyfile(test_a=SUITE)
    result = run(pytester, server, "--llm-judge-check=bad.jsonl")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert expected.format(path=path) in result.stderr.str()


def test_no_flag_no_check(pytester, server) -> None:
    pytester.makepyfile(test_a=SUITE)
    result = run(pytester, server)
    result.assert_outcomes(passed=1)
    assert server.calls() == [] and "judge check" not in result.stdout.str()


def test_under_xdist_the_check_runs_once_on_the_controller(pytester, server) -> None:
    pytest.importorskip("xdist")
    script_a_good_judge(server)
    pytester.makepyfile(test_a=SUITE + "\ndef test_two():\n    pass\n")
    result = pytester.runpytest_subprocess(*judge_args(server), "-n", "2", "-p", "xdist", "--llm-judge-check",
                                           "--llm-judge-relay=on")
    result.assert_outcomes(passed=2)
    assert result.stdout.str().count("llmfaith judge check: openai/test-judge") == 1
    assert len(server.calls()) == 68  # one check's worth of requests, not one per worker


def cli(server, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pytest_llmfaith", "check", "--model=openai/test-judge",
                           f"--api-base={server.url}", "--cache=off", *args], capture_output=True, text=True,
                          cwd=ROOT, timeout=300)


def test_the_command_line_check(server) -> None:
    script_a_good_judge(server)
    done = cli(server, "--min-accuracy=0.9")
    assert done.returncode == 0, done.stderr
    assert "hallucination  balanced accuracy 1.00  wrong: none" in done.stdout
    server.reset()
    done = cli(server, "--min-accuracy=0.9")
    assert done.returncode == 1 and "below --llm-judge-min-accuracy=0.9" in done.stderr
    done = cli(server, "missing.jsonl")
    assert done.returncode == 2 and "missing.jsonl does not exist" in done.stderr
