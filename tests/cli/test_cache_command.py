"""`python -m pytest_llmfaith cache ...` run as users run it: a subprocess in a project directory."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from plugin_helpers import SUITE, judge_args, run_suite

from pytest_llmfaith.cli.cache_command import current_prompt_versions
from pytest_llmfaith.judge.cache import JudgeCache
from pytest_llmfaith.recordings.recording_format import RecordedAnswer, RecordingFile, load, write


def cli(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pytest_llmfaith", "cache", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=120)


def entry(version: str, *tests: str, answer: object = None) -> RecordedAnswer:
    return RecordedAnswer(step="claims", model="openai/test-judge", prompt_version=version,
                          asked={"output": "A."}, answer=answer or {"claims": ["A."]}, tests=list(tests))


def test_stats_and_show_after_a_recorded_run(pytester, server) -> None:
    run_suite(pytester, server, "--llm-recordings=llmfaith_recordings", cache="use", test_a=SUITE).assert_outcomes(
        passed=2)
    stats = cli(pytester.path, "stats")
    assert stats.returncode == 0, stats.stderr
    assert stats.stdout.startswith("working cache .llmfaith_cache: 4 entries, ")
    assert "by step: claims 2, verdicts 2" in stats.stdout and "by model: openai/test-judge 4" in stats.stdout
    assert "recordings (1 file under .): 4 entries" in stats.stdout
    assert stats.stdout.splitlines()[0].endswith("tokens recorded, cost n/a")  # as the summary says: no $0.0000

    # claims and verdicts (the narrow questions travel with the verdicts)
    of_test = cli(pytester.path, "show", "test_a.py::test_half")
    assert of_test.returncode == 0 and of_test.stdout.count("# ") == 2
    assert '"Elon Musk founded Tesla."' in of_test.stdout and "scripted: Elon Musk founded Tesla." in of_test.stdout
    key = of_test.stdout.split()[1]
    by_key = cli(pytester.path, "show", key[:10])
    assert by_key.stdout.count(f"# {key}") == 2  # in the recording and in the working cache
    assert cli(pytester.path, "show", "ffffffffff").returncode == 1


def test_prune_unused_old_and_other_prompt_versions(tmp_path) -> None:
    current = sorted(current_prompt_versions())[0]
    recording = tmp_path / "tests" / "llmfaith_recordings" / "test_a.json"
    write(recording, RecordingFile(entries={"k1": entry(current, "test_x"), "k2": entry(current),
                                            "k3": entry("claims-0", "test_y")}))
    cache = JudgeCache(tmp_path / ".llmfaith_cache", "use")
    for key in ("k1", "k2", "k3", "k4"):
        cache.set(key, entry(current if key != "k3" else "claims-0").model_dump(mode="json"))
    cache.close()

    done = cli(tmp_path, "prune", "--unused", "--other-prompt-versions")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == ("removed 2 recordings entries (1 file) and 3 entries of the working cache "
                                   ".llmfaith_cache")
    assert list(load(recording).entries) == ["k1"]
    assert [k for k, _, _ in JudgeCache(tmp_path / ".llmfaith_cache", "replay").entries()] == ["k1"]
    assert "and 1 entry of the working cache" in cli(tmp_path, "prune", "--older-than", "0").stdout
    assert cli(tmp_path, "prune").returncode == 2


def test_merge_recordings_and_caches_of_shards(tmp_path) -> None:
    for shard, tests in (("shard1", ("test_x",)), ("shard2", ("test_y",))):
        write(tmp_path / shard / "tests" / "llmfaith_recordings" / "test_a.json",
              RecordingFile(entries={"shared": entry("v", *tests), f"only-{shard}": entry("v", *tests)}))
        write(tmp_path / shard / "tests" / "llmfaith_recordings" / f"test_{shard}.json",
              RecordingFile(entries={"k": entry("v", "test_z")}))
        cache = JudgeCache(tmp_path / shard / "cache", "use")
        cache.set(f"key-{shard}", {"answer": {"claims": [shard]}})
        cache.close()
    merged = cli(tmp_path, "merge", "merged", "shard1", "shard2")
    assert merged.returncode == 0 and "merged 3 recordings files" in merged.stdout, merged.stderr
    joined = load(tmp_path / "merged" / "tests" / "llmfaith_recordings" / "test_a.json")
    assert sorted(joined.entries) == ["only-shard1", "only-shard2", "shared"]
    assert joined.entries["shared"].tests == ["test_x", "test_y"]
    text = (tmp_path / "merged" / "tests" / "llmfaith_recordings" / "test_a.json").read_text()
    assert text == json.dumps(json.loads(text), sort_keys=True, indent=2) + "\n"
    assert "(0 changed" in cli(tmp_path, "merge", "merged", "shard2", "shard1").stdout  # idempotent, any order

    caches = cli(tmp_path, "merge", "cache", "shard1/cache", "shard2/cache")
    assert "merged 2 new entries" in caches.stdout, caches.stderr
    assert [k for k, _, _ in JudgeCache(tmp_path / "cache", "replay").entries()] == ["key-shard1", "key-shard2"]


def test_merge_reports_the_keys_two_shards_answered_differently(pytester, server) -> None:
    """Two CI shards record one request, and the judge answers each differently: the merge keeps one
    answer and names the key, for caches as for recordings."""
    server.facts(changing={"Tesla was founded in 2003.": ["yes", "unsure"]})
    pytester.makepyfile(test_a=SUITE)
    for shard in ("shard1", "shard2"):
        pytester.runpytest(*judge_args(server, "use"), f"--llm-cache-dir={shard}/cache",
                           f"--llm-recordings=rec_{shard}", "-k", "test_good")
        (pytester.path / f"rec_{shard}").rename(pytester.path / shard / "llmfaith_recordings")
    verdicts = next(k for k, _, v in JudgeCache(pytester.path / "shard1" / "cache", "replay").entries()
                    if v["step"] == "verdicts")

    caches = cli(pytester.path, "merge", "cache", "shard1/cache", "shard2/cache")
    assert caches.returncode == 0, caches.stderr
    assert caches.stdout.splitlines() == [
        "merged 2 new entries into the working cache cache; 1 entry answered differently kept the first answer",
        "answered differently (see both with `python -m pytest_llmfaith cache show KEY` and --cache-dir or --root "
        "naming each):",
        f"  {verdicts[:12]} (step verdicts): kept the answer in cache, not the one in shard2/cache"]
    kept = dict((k, v) for k, _, v in JudgeCache(pytester.path / "cache", "replay").entries())[verdicts]
    assert kept["answer"]["verdicts"][0]["verdict"] == "yes"  # shard1's, the first source

    recordings = cli(pytester.path, "merge", "merged", "shard1", "shard2")
    assert "1 entry answered differently kept the destination's answer" in recordings.stdout, recordings.stderr
    assert f"  {verdicts[:12]} (step verdicts): kept the answer in merged/llmfaith_recordings/test_a.json, not the " \
           "one in shard2/llmfaith_recordings/test_a.json" in recordings.stdout
