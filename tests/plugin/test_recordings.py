"""Recordings next to the tests, unused entries, and the run's judge budget, as users see them:
inner pytest runs (pytester, in-process) against the loopback judge through the real litellm client."""

from __future__ import annotations

import json
import re

import pytest
from plugin_helpers import GOOD, HALF, HEADER, SUITE, TESLA_FACTS, judge_args, run, run_suite, section

RECORDING = "llmfaith_recordings/test_a.json"
RECORD = "--llm-recordings=llmfaith_recordings"


def record(pytester: pytest.Pytester, server, *args: str, cache: str = "use") -> pytest.RunResult:
    return run(pytester, server, RECORD, *args, cache=cache)


def notes(result: pytest.RunResult) -> list[str]:
    return [line for line in result.outlines if line.startswith(("llmfaith recordings:", "llmfaith cache:",
                                                                  "llmfaith wrote the recordings:",
                                                                  "llmfaith budget:"))]


def test_recordings_are_readable_deterministic_and_replay_alone(pytester, server) -> None:
    run_suite(pytester, server, RECORD, cache="use", test_a=SUITE).assert_outcomes(passed=2)
    path = pytester.path / RECORDING
    text = path.read_text()
    data = json.loads(text)
    assert text == json.dumps(data, sort_keys=True, indent=2, ensure_ascii=False) + "\n"
    entries = data["entries"]
    assert list(entries) == sorted(entries) and len(entries) == 4  # two claims calls, two verdict calls
    claims = [e for e in entries.values() if e["step"] == "claims"]
    assert {e["asked"]["output"] for e in claims} == {GOOD, HALF}
    verdicts = next(e for e in entries.values() if e["step"] == "verdicts" and e["tests"] == ["test_half"])
    assert verdicts["asked"]["claims"] == ["Tesla was founded in 2003.", "Elon Musk founded Tesla."]
    assert verdicts["answer"]["verdicts"][1]["reason"] == "scripted: Elon Musk founded Tesla."
    assert verdicts["model"] == "openai/test-judge" and verdicts["prompt_version"].startswith("hallucination")
    assert verdicts["usage"]["prompt_tokens"] > 0
    assert (pytester.path / ".llmfaith_cache" / ".gitignore").read_text().splitlines()[-1] == "*"

    # a fresh clone: no working cache, a judge that would now answer differently, replay
    import shutil

    shutil.rmtree(pytester.path / ".llmfaith_cache")
    server.reset()
    replayed = record(pytester, server, cache="replay")
    replayed.assert_outcomes(passed=2)
    assert server.requests == [] and path.read_text() == text
    assert not (pytester.path / ".llmfaith_cache").exists()
    # and a cached run under `use` rewrites nothing either
    record(pytester, server).assert_outcomes(passed=2)
    assert server.requests == [] and path.read_text() == text


def test_replay_miss_names_the_recording(pytester, server) -> None:
    pytester.makepyfile(test_a=SUITE)
    result = record(pytester, server, cache="replay")
    result.assert_outcomes(errors=2)
    text = result.stdout.str()
    assert "has no stored judge answer for test " in text and " in the recordings " in text
    assert "neither" not in text and "llmfaith_recordings/test_a.json" in text  # "no ... in neither ... nor" read twice


def test_unused_entries_are_reported_then_pruned(pytester, server) -> None:
    run_suite(pytester, server, RECORD, cache="use", test_a=SUITE).assert_outcomes(passed=2)
    before = (pytester.path / RECORDING).read_text()

    # a partial run never calls the entries of the tests it did not run unused
    partial = record(pytester, server, "-k", "test_good")
    partial.assert_outcomes(passed=1, deselected=1)
    assert notes(partial) == [] and (pytester.path / RECORDING).read_text() == before

    pytester.makepyfile(test_a=HEADER + "def test_good():\n    assert_faithful(GOOD, CTX)\n")
    full = record(pytester, server)
    assert notes(full) == [
        "llmfaith wrote the recordings: llmfaith_recordings/test_a.json (updated)",
        ("llmfaith recordings: 2 entries unused (remove them with --llm-prune-unused under --llm-cache=use): "
         "llmfaith_recordings/test_a.json (2)"),
        ("llmfaith cache: 2 entries in .llmfaith_cache unused by this full run (stored by test_a.py (2)); remove "
         "them: `pytest --llm-prune-unused` or `python -m pytest_llmfaith cache prune --unused`")]
    entries = json.loads((pytester.path / RECORDING).read_text())["entries"]
    assert sorted(len(e["tests"]) for e in entries.values()) == [0, 0, 1, 1]

    pruned = record(pytester, server, "--llm-prune-unused")
    assert notes(pruned) == [
        "llmfaith wrote the recordings: llmfaith_recordings/test_a.json (updated)",
        "llmfaith recordings: 2 entries removed: llmfaith_recordings/test_a.json (2)",
        "llmfaith cache: 2 entries this full run did not use removed from .llmfaith_cache: test_a.py (2)"]
    entries = json.loads((pytester.path / RECORDING).read_text())["entries"]
    assert [e["tests"] for e in entries.values()] == [["test_good"], ["test_good"]]
    assert notes(record(pytester, server)) == []
    assert len(server.requests) == 4  # all of it from the first run's answers


def test_budget_refuses_new_calls_and_still_serves_cached_ones(pytester, server) -> None:
    first = run_suite(pytester, server, "--llm-max-judge-calls=2", cache="use", test_a=HEADER + """
def test_1():
    assert_faithful(GOOD, CTX)

def test_2():
    assert_faithful(HALF, CTX, min_score=0.5)

def test_3():
    assert_faithful(MIXED, CTX, min_score=0.3)
""")
    first.assert_outcomes(passed=1, errors=2)
    text = first.stdout.str()
    assert "judge budget of this run is spent (2 of --llm-max-judge-calls=2 new judge calls made)" in text
    assert re.search(r"^ERROR test_a\.py::test_2 - pytest_llmfaith\.errors\.BudgetExceeded", text, re.MULTILINE)
    assert "llmfaith budget: spent 2 of 2 new judge calls" in section(first)
    assert len(server.requests) == 2

    second = pytester.runpytest(*judge_args(server, "use"), "-p", "no:randomly")
    second.assert_outcomes(passed=3)
    assert len(server.requests) == 2 + 4  # claims and verdicts of HALF and MIXED, beside the budget's 2
    footer = next(line for line in section(second) if line.startswith("llmfaith: "))
    assert re.search(r"tokens [\d,]+ \([\d,]+ saved by the cache\)", footer), footer

    # env and ini set it too; the cached answers are served, no new call is made
    pytester.makeini("[pytest]\nllm_max_judge_calls = 0\n")
    third = pytester.runpytest(*judge_args(server, "use"))
    third.assert_outcomes(passed=3)
    assert "llmfaith budget: spent 0 of 0 new judge calls" in section(third)


def test_cost_budget_counts_litellm_prices(pytester, server) -> None:
    """A model litellm knows the price of (served by the loopback judge): cost is counted and saved."""
    server.facts(**TESLA_FACTS)
    pytester.makepyfile(test_a=HEADER + """
def test_1():
    assert_faithful(GOOD, CTX)

def test_2():
    assert_faithful(HALF, CTX, min_score=0.5)
""")
    args = ["--llm-judge-model=openai/gpt-4o-mini", f"--llm-judge-api-base={server.url}", "--llm-cache=use"]
    first = pytester.runpytest(*args, "--llm-max-cost=0.0000001")  # less than one call costs
    first.assert_outcomes(errors=2)
    assert len(server.requests) == 1  # the first call is made; every later one is refused
    assert "of --llm-max-cost=1e-07 USD spent); the new call at step 'verdicts'" in first.stdout.str()
    assert any(re.match(r"llmfaith budget: spent \$0\.\d{4} of \$1e-07", line) for line in section(first))
    second = pytester.runpytest(*args)
    footer = next(line for line in section(second) if line.startswith("llmfaith: "))
    assert re.search(r"cost \$0\.\d{4} \(\$0\.\d{4} saved\)", footer), footer


@pytest.mark.parametrize("args, problem", [
    (["--llm-recordings=tests/rec"], "must be a folder name"),
    (["--llm-max-judge-calls=-1"], "must be >= 0"),
    (["--llm-max-cost=0"], "must be > 0"),
])
def test_bad_values_stop_at_start_up(pytester, args, problem) -> None:
    result = pytester.runpytest(*args)
    assert result.ret == pytest.ExitCode.USAGE_ERROR and problem in result.stderr.str()


OTHER = HEADER + """
@pytest.mark.parametrize("output", [GOOD, HALF])
def test_param(output):
    assert_not_hallucinated(output, CTX, max_score=0.5)
"""


def test_xdist_writes_the_same_bytes_and_holds_one_budget(pytester, server) -> None:
    """Workers only read; the controller writes the recordings from every test's report, so the
    bytes do not depend on -n. The budget is counted across workers, not per worker."""
    run_suite(pytester, server, RECORD, "-p", "no:cacheprovider", cache="use", test_a=SUITE,
              test_b=OTHER).assert_outcomes(passed=4)
    written = {p.name: p.read_bytes() for p in (pytester.path / "llmfaith_recordings").iterdir()}
    assert sorted(written) == ["test_a.json", "test_b.json"]
    for path in (pytester.path / "llmfaith_recordings").iterdir():
        path.unlink()
    requests = len(server.requests)
    parallel = pytester.runpytest_subprocess(
        "-n", "2", "--llm-judge-relay=on", "-p", "no:cacheprovider", *judge_args(server, "use"),
        "--llm-recordings=llmfaith_recordings", timeout=120)
    parallel.assert_outcomes(passed=4)
    assert len(server.requests) == requests  # the working cache answered
    assert {p.name: p.read_bytes() for p in (pytester.path / "llmfaith_recordings").iterdir()} == written

    limited = pytester.runpytest_subprocess(
        "-n", "2", "--llm-judge-relay=on", "-p", "no:cacheprovider", *judge_args(server, "off"),
        "--llm-max-judge-calls=3", timeout=120)
    assert len(server.requests) == requests + 3
    limited.assert_outcomes(passed=1, errors=3)
    assert "llmfaith budget: spent 3 of 3 new judge calls" in limited.stdout.str()


def test_api_keys_never_reach_the_recordings(pytester, server, monkeypatch) -> None:
    secret = "sk-live-DO-NOT-RECORD-0123456789"
    monkeypatch.setenv("JUDGE_SECRET_KEY", secret)
    run_suite(pytester, server, RECORD, "--llm-judge-api-key-env=JUDGE_SECRET_KEY", cache="use",
              test_a=SUITE).assert_outcomes(passed=2)
    assert server.calls()[0]["headers"]["authorization"].endswith(secret)
    stored = b"".join(p.read_bytes() for p in pytester.path.rglob("*") if p.is_file())
    assert b'"verdicts"' in stored and secret.encode() not in stored


def test_a_conflicted_recording_is_an_error_naming_the_file_and_the_fix(pytester, server) -> None:
    server.facts(**TESLA_FACTS)
    pytester.makepyfile(test_a=SUITE)
    (pytester.path / "llmfaith_recordings").mkdir()
    (pytester.path / RECORDING).write_text('{\n<<<<<<< HEAD\n  "entries": {}\n=======\n>>>>>>> other\n}\n')
    for cache in ("replay", "use"):
        result = record(pytester, server, cache=cache)
        result.assert_outcomes(errors=2)
        assert result.ret == pytest.ExitCode.TESTS_FAILED
        text = result.stdout.str()
        assert "the recordings file" in text and "llmfaith_recordings/test_a.json is not valid" in text
        assert "git checkout --" in text and "cache merge" in text
    assert server.requests == []


def test_a_run_of_some_files_never_calls_other_files_cache_entries_unused(pytester, server) -> None:
    run_suite(pytester, server, RECORD, cache="use", test_a=SUITE, test_b=OTHER).assert_outcomes(passed=4)
    only_a = record(pytester, server, "test_a.py", "--llm-prune-unused")
    only_a.assert_outcomes(passed=2)
    assert notes(only_a) == []
    import shutil

    shutil.rmtree(pytester.path / "llmfaith_recordings")
    pytester.runpytest(*judge_args(server, "replay")).assert_outcomes(passed=4)  # test_b's answers are still cached


def test_the_working_cache_folder_ignores_itself_from_its_first_write(pytester, server) -> None:
    """Recordings off: the folder made by the first write has its .gitignore, so `git status` never
    lists it; deleted on purpose (to commit the cache), it is not written again."""
    import subprocess

    subprocess.run(["git", "init", "-q"], cwd=pytester.path, check=True)
    run_suite(pytester, server, cache="use", test_a=SUITE).assert_outcomes(passed=2)
    assert (pytester.path / ".llmfaith_cache" / "cache.db").exists()
    status = subprocess.run(["git", "status", "--porcelain", "--untracked-files=all"], cwd=pytester.path,
                            capture_output=True, text=True, check=True).stdout
    assert ".llmfaith_cache" not in status and "test_a.py" in status

    (pytester.path / ".llmfaith_cache" / ".gitignore").unlink()
    pytester.runpytest(*judge_args(server, "refresh")).assert_outcomes(passed=2)  # writes again
    assert not (pytester.path / ".llmfaith_cache" / ".gitignore").exists()


def test_label_verdicts_are_recorded_as_one_rounded_probability_that_replays_the_same(pytester, server) -> None:
    """A reviewer reads P(yes) (two digits, more only where rounding would cross a threshold), not
    20 log-probabilities; the working cache keeps those; replay gives the recorded verdicts."""
    server.facts(p_supported={"Tesla was founded in 2003.": 0.93, "Elon Musk joined Tesla in 2004.": 0.4996})
    pytester.makepyfile(test_a=HEADER + """
def test_labels():
    assert_faithful("Tesla was founded in 2003. Elon Musk joined Tesla in 2004.", CTX, min_score=0.5)
""")
    args = ("--llm-judge-verdicts=label", "--llm-report=report.json")
    record(pytester, server, *args).assert_outcomes(passed=1)
    entries = json.loads((pytester.path / RECORDING).read_text())["entries"]
    labels = {(e["asked"]["claim"], e["asked"]["question"].split()[0]): e["answer"]
              for e in entries.values() if e["step"] == "verdicts"}
    assert labels == {("Tesla was founded in 2003.", "Is"): {"p_yes": 0.93},
                      ("Elon Musk joined Tesla in 2004.", "Is"): {"p_yes": 0.4996},  # 0.50 would be support
                      ("Elon Musk joined Tesla in 2004.", "Does"): {"p_yes": 0.1}}
    from pytest_llmfaith.judge.cache import JudgeCache

    cached = [v["answer"] for _, _, v in JudgeCache(pytester.path / ".llmfaith_cache", "replay").entries()
              if v["step"] == "verdicts"]
    assert all(len(answer["top"]) == 3 for answer in cached)  # all the tokens the judge sent
    recorded = json.loads((pytester.path / "report.json").read_text())["results"][0]["result"]

    import shutil

    shutil.rmtree(pytester.path / ".llmfaith_cache")
    server.reset()
    record(pytester, server, *args, cache="replay").assert_outcomes(passed=1)
    replayed = json.loads((pytester.path / "report.json").read_text())["results"][0]["result"]
    assert [(v["verdict"], v["reason"]) for v in replayed["verdicts"]] == \
        [(v["verdict"], v["reason"]) for v in recorded["verdicts"]]
    assert replayed["score"] == recorded["score"] == 0.5


# Emoji, and lone surrogates (a broken decoding upstream), in the output, the context and the
# judge's own answers: the judge is sent U+FFFD in a surrogate's place (transport.sendable).
ODD_OUTPUTS = ["Tesla was founded in 2003 \U0001f697.", "The caf\udce9 opened in 2004.", "Tesla sold \ud83d cars."]
ODD_CONTEXT = ["Tesla was founded in 2003 \U0001f697.", "The caf\udce9 opened in 2004\ud83d."]
ODD_SUITE = f"""
import pytest
from pytest_llmfaith import assert_faithful

@pytest.mark.parametrize("output", {ODD_OUTPUTS!r})
def test_odd(output):
    assert_faithful(output, {ODD_CONTEXT!r}, min_score=0.5)
"""


def test_a_recording_of_any_characters_replays_to_the_same_outcomes(pytester, server) -> None:
    """Whatever a run recorded replays: the file round-trips every str, lone surrogates included."""
    sent = [text.replace("\udce9", "\ufffd").replace("\ud83d", "\ufffd") for text in ODD_OUTPUTS]
    # the judge echoes a lone surrogate in a claim of the last output, as a broken judge might
    server.facts(supported=sent, claims={sent[2]: ["Tesla sold \ud83d cars."]})
    pytester.makepyfile(test_a=ODD_SUITE)
    recorded = record(pytester, server, "--llm-report=recorded.json")
    recorded.assert_outcomes(passed=3)
    text = (pytester.path / RECORDING).read_text(encoding="utf-8")
    assert "\U0001f697" in text and "\\udce9" in text and "\\ud83d" in text  # the emoji as is; escapes
    import shutil

    shutil.rmtree(pytester.path / ".llmfaith_cache")
    server.reset()
    replayed = record(pytester, server, "--llm-report=replayed.json", cache="replay")
    replayed.assert_outcomes(passed=3)
    assert server.requests == []

    def scores(name: str) -> list[tuple[str, float, list[str]]]:
        data = json.loads((pytester.path / name).read_text())
        return sorted((r["key"], r["result"]["score"], [v["statement"] for v in r["result"]["verdicts"]])
                      for r in data["results"])

    assert scores("replayed.json") == scores("recorded.json")
    again = record(pytester, server)  # the working cache is empty: the recording answers, unchanged
    again.assert_outcomes(passed=3)
    assert server.requests == [] and notes(again) == []
    assert (pytester.path / RECORDING).read_text(encoding="utf-8") == text
