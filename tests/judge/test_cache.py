"""The judge cache: key material, modes, faults, and several processes sharing one directory.

The answers come from the in-process fake judge; what depends on the request sent (the api base,
the key) and the subprocesses that replay, from the HTTP judge."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import textwrap
import warnings
from pathlib import Path

import pytest
from cases import TESLA

from pytest_llmfaith import CacheMissError, Faithfulness, Hallucination, JudgeError
from pytest_llmfaith.judge.cache import CacheWarning, JudgeCache
from pytest_llmfaith.scorers.claims import ClaimsAnswer

OUTPUT = "Tesla was founded in 2003. Elon Musk started the company."


def store_text(directory: Path) -> bytes:
    return b"".join(p.read_bytes() for p in directory.rglob("*") if p.is_file())


def test_key_covers_what_decides_the_answer(make_judge):
    judge = make_judge()
    messages = [{"role": "user", "content": "hi"}]
    base = judge.question("claims", messages, ClaimsAnswer, "v1").key
    assert base == judge.question("claims", list(messages), ClaimsAnswer, "v1").key
    variants = [
        make_judge(model="openai/other").question("claims", messages, ClaimsAnswer, "v1"),
        make_judge(api_base="http://127.0.0.1:1/v1").question("claims", messages, ClaimsAnswer, "v1"),
        make_judge(temperature=0.5).question("claims", messages, ClaimsAnswer, "v1"),
        make_judge(seed=7).question("claims", messages, ClaimsAnswer, "v1"),
        make_judge(max_tokens=99).question("claims", messages, ClaimsAnswer, "v1"),
        judge.question("claims", messages, ClaimsAnswer, "v2"),
        judge.question("claims", messages, None, "v1"),
        judge.question("claims", [{"role": "user", "content": "hi!"}], ClaimsAnswer, "v1"),
    ]
    assert len({base, *(v.key for v in variants)}) == len(variants) + 1
    # settings that do not decide the answer do not change the key
    for other in (make_judge(timeout=5), make_judge(retries=0), make_judge(api_key_env="X_KEY")):
        assert other.question("claims", messages, ClaimsAnswer, "v1").key == base


def test_use_mode_records_then_replays_for_free(tesla_fake, make_fake_judge, tmp_path):
    first = Hallucination(make_fake_judge("use")).run(OUTPUT, TESLA)
    assert [c.step for c in first.judge_calls] == ["claims", "verdicts"]
    assert [c.cached for c in first.judge_calls] == [False, False]
    calls = len(tesla_fake.requests)
    again = Hallucination(make_fake_judge("use")).run(OUTPUT, TESLA)
    assert [c.cached for c in again.judge_calls] == [True, True]
    assert len(tesla_fake.requests) == calls
    assert (again.score, again.reason, again.claims) == (first.score, first.reason, first.claims)
    assert again.judge_calls[0].prompt_tokens == first.judge_calls[0].prompt_tokens


def test_threshold_and_test_name_are_not_in_the_key(tesla_fake, make_fake_judge):
    """Two scorers sharing an output share the claims call: the key is the request only."""
    Hallucination(make_fake_judge("use")).run(OUTPUT, TESLA)
    result = Faithfulness(make_fake_judge("use")).run(OUTPUT, TESLA)
    assert [c.cached for c in result.judge_calls] == [True, False]  # claims shared, verdicts not


def test_refresh_asks_again_and_overwrites(tesla_fake, make_fake_judge):
    Hallucination(make_fake_judge("use")).run(OUTPUT, TESLA)
    tesla_fake.facts(supported=["Elon Musk started the company."], contradicted=[])
    tesla_fake.script.contradicted.clear()
    refreshed = Hallucination(make_fake_judge("refresh")).run(OUTPUT, TESLA)
    assert refreshed.score == 0.0 and not any(c.cached for c in refreshed.judge_calls)
    replayed = Hallucination(make_fake_judge("replay")).run(OUTPUT, TESLA)
    assert replayed.score == 0.0 and all(c.cached for c in replayed.judge_calls)


def test_replay_miss_names_step_model_key_and_fix(tesla_fake, make_fake_judge, tmp_path):
    with pytest.raises(CacheMissError) as err:
        Hallucination(make_fake_judge("replay")).run(OUTPUT, TESLA)
    message = str(err.value)
    assert "step 'claims'" in message and "openai/test-judge" in message
    assert "cache key " in message and "--llm-cache=use" in message
    assert tesla_fake.requests == []


def test_off_mode_reads_and_writes_nothing(tesla_fake, make_fake_judge, tmp_path):
    Hallucination(make_fake_judge("off")).run(OUTPUT, TESLA)
    Hallucination(make_fake_judge("off")).run(OUTPUT, TESLA)
    assert len(tesla_fake.requests) == 4  # claims, verdicts, twice
    assert not (tmp_path / "cache").exists()


def test_failed_answers_are_never_stored(tesla_fake, make_fake_judge, tmp_path):
    tesla_fake.fail("malformed", step="verdicts", times=99)
    with pytest.raises(JudgeError):
        Hallucination(make_fake_judge("use", reasks=1)).run(OUTPUT, TESLA)
    tesla_fake.faults.clear()
    result = Hallucination(make_fake_judge("use")).run(OUTPUT, TESLA)
    assert [c.cached for c in result.judge_calls] == [True, False]  # claims were valid, verdicts not
    assert b"unterminated" not in store_text(tmp_path / "cache")


def test_stored_answer_that_no_longer_validates_is_a_miss_and_is_replaced(tesla_fake, make_fake_judge, tmp_path):
    judge = make_fake_judge("use")
    Hallucination(judge).run(OUTPUT, TESLA)
    key = Hallucination(judge).run(OUTPUT, TESLA).judge_calls[0].key
    judge.cache.set(key, {"answer": {"not_claims": 1}})
    result = Hallucination(make_fake_judge("use")).run(OUTPUT, TESLA)
    assert [c.cached for c in result.judge_calls] == [False, True]
    assert Hallucination(make_fake_judge("replay")).run(OUTPUT, TESLA).score == 0.5


def test_api_key_never_reaches_the_store(server, make_judge, tmp_path, monkeypatch):
    secret = "sk-live-DO-NOT-STORE-0123456789"
    monkeypatch.setenv("JUDGE_SECRET_KEY", secret)
    server.facts(supported=["A."])
    Faithfulness(make_judge("use", api_key_env="JUDGE_SECRET_KEY")).run("A.", ["A."])
    assert server.calls()[0]["headers"]["authorization"].endswith(secret)
    stored = store_text(tmp_path / "cache")
    assert b'"claims"' in stored and secret.encode() not in stored


def test_corrupt_store_warns_once_and_runs_uncached(tesla_fake, make_fake_judge, tmp_path):
    cache_dir = tmp_path / "cache"
    cache_dir.mkdir()
    (cache_dir / "cache.db").write_bytes(b"this is not sqlite" * 100)
    judge = make_fake_judge("use")
    with pytest.warns(CacheWarning, match=r"unusable .*Fix: delete that directory") as record:
        assert Hallucination(judge).run(OUTPUT, TESLA).score == 0.5
        assert Hallucination(judge).run(OUTPUT, TESLA).score == 0.5
    assert len([w for w in record if issubclass(w.category, CacheWarning)]) == 1
    with pytest.raises(JudgeError, match="(?i)replay mode needs a readable cache"):
        Hallucination(make_fake_judge("replay")).run(OUTPUT, TESLA)



def test_a_store_another_process_is_still_creating_is_empty_not_broken(tmp_path):
    """What an xdist worker sees when a sibling has made cache.db but not yet its tables: the
    old reader called that store broken and the worker ran uncached, losing its answers."""
    import sqlite3

    sqlite3.connect(tmp_path / "cache.db").close()  # a file with no tables yet
    cache = JudgeCache(tmp_path, "use")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert cache.get("k") is None
        cache.set("k", {"answer": {"claims": ["kept"]}})
    assert JudgeCache(tmp_path, "replay").get("k") == {"answer": {"claims": ["kept"]}}


def test_a_store_another_process_is_writing_while_created_is_waited_for(tmp_path):
    """A sibling mid-transaction when a worker switches the file to write-ahead logging: SQLite
    answers "database is locked" at once there, without waiting, and the worker ran uncached
    (seen in CI as lost answers). Now it waits for the sibling's transaction to end."""
    import sqlite3
    import threading

    sibling = sqlite3.connect(tmp_path / "cache.db", isolation_level=None, check_same_thread=False)
    sibling.execute("BEGIN IMMEDIATE")
    sibling.execute("CREATE TABLE entries (key TEXT PRIMARY KEY, stored REAL NOT NULL, value)")
    threading.Timer(0.5, lambda: sibling.execute("COMMIT")).start()
    cache = JudgeCache(tmp_path, "use")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        cache.set("k", {"answer": {"claims": ["kept"]}})
    sibling.close()
    assert JudgeCache(tmp_path, "replay").get("k") == {"answer": {"claims": ["kept"]}}


def test_a_database_that_is_not_a_judge_cache_is_left_alone(tmp_path):
    """Unlike a store being created, a cache.db with tables of its own is someone else's: it is
    reported, never written into."""
    import sqlite3

    with sqlite3.connect(tmp_path / "cache.db") as db:
        db.execute("CREATE TABLE notes (text TEXT)")
    before = (tmp_path / "cache.db").read_bytes()
    cache = JudgeCache(tmp_path, "use")
    with pytest.warns(CacheWarning, match=r"unusable .*no such table: entries"):
        assert cache.get("k") is None
    cache.set("k", {"answer": {"claims": ["kept"]}})
    assert (tmp_path / "cache.db").read_bytes() == before


REPLAY_SCRIPT = textwrap.dedent("""
    import socket, sys
    def refuse(*a, **k):
        raise OSError("network is forbidden in replay")
    socket.socket = refuse
    socket.create_connection = refuse
    from pathlib import Path
    from pytest_llmfaith import Hallucination, Judge, JudgeCache, JudgeConfig
    judge = Judge(JudgeConfig(model="openai/test-judge", api_base=sys.argv[4]),
                  JudgeCache(Path(sys.argv[1]), sys.argv[2]))
    result = Hallucination(judge).run(sys.argv[3], ["Tesla was founded in 2003.",
        "Elon Musk joined Tesla in 2004.", "The first Tesla car was the Roadster."])
    print(result.score, all(c.cached for c in result.judge_calls),
          [m for m in ("litellm",) if m in sys.modules])
""")


def run_script(script: str, *args: str, prefix: list[str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*(prefix or []), sys.executable, "-c", script, *args],
                          capture_output=True, text=True, timeout=120)


def test_replay_opens_no_socket_and_never_imports_litellm(tesla_server, make_judge, tmp_path):
    Hallucination(make_judge("use")).run(OUTPUT, TESLA)
    done = run_script(REPLAY_SCRIPT, str(tmp_path / "cache"), "replay", OUTPUT, tesla_server.url)
    assert done.stdout.split() == ["0.5", "True", "[]"], done.stderr
    missed = run_script(REPLAY_SCRIPT, str(tmp_path / "cache"), "replay", "Something new.", tesla_server.url)
    assert "CacheMissError" in missed.stderr and "network is forbidden" not in missed.stderr


def test_read_only_store_serves_hits(tesla_server, make_judge, tmp_path):
    if not shutil.which("unshare") or run_script("", prefix=["unshare", "-m", "true"]).returncode:
        pytest.skip("needs mount namespaces (unshare -m) to make a read-only mount")
    judge = make_judge("use")
    Hallucination(judge).run(OUTPUT, TESLA)
    judge.cache.close()  # as a finished CI job leaves it: write-ahead log checkpointed
    cache = tmp_path / "cache"
    script = "import warnings; warnings.simplefilter('always');" + REPLAY_SCRIPT.replace('"replay"', "sys.argv[2]")
    mount = f"mount --bind {cache} {cache} && mount -o remount,ro,bind {cache} && exec \"$@\""
    done = run_script(script, str(cache), "use", OUTPUT, tesla_server.url,
                      prefix=["unshare", "-m", "sh", "-c", mount, "sh"])
    assert done.stdout.split() == ["0.5", "True", "[]"], done.stderr
    assert "read-only" in done.stderr and "Stored answers are used" in done.stderr


WORKER = textwrap.dedent("""
    import sys
    from pathlib import Path
    from pytest_llmfaith.judge.cache import JudgeCache
    cache = JudgeCache(Path(sys.argv[1]), "use")
    me = sys.argv[2]
    for i in range(200):
        cache.set(f"{me}-{i}", {"answer": {"claims": [f"{me} claim {i}"] * 20}})
        shared = cache.get(f"shared-{i % 10}")
        cache.set(f"shared-{i % 10}", {"answer": {"claims": ["same"]}})
        assert shared is None or shared == {"answer": {"claims": ["same"]}}, shared
    print("ok")
""")


def test_parallel_processes_share_one_store_without_losing_entries(tmp_path):
    procs = [subprocess.Popen([sys.executable, "-c", WORKER, str(tmp_path), f"w{n}"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for n in range(4)]
    outputs = [p.communicate(timeout=120) for p in procs]
    assert all(out.strip() == "ok" and not err for out, err in outputs), outputs
    cache = JudgeCache(tmp_path, "replay")
    for n in range(4):
        for i in range(200):
            assert cache.get(f"w{n}-{i}") == {"answer": {"claims": [f"w{n} claim {i}"] * 20}}
    assert all(cache.get(f"shared-{i}") == {"answer": {"claims": ["same"]}} for i in range(10))


def test_values_are_json_text_not_pickles(tesla_fake, make_fake_judge, tmp_path):
    Hallucination(make_fake_judge("use")).run(OUTPUT, TESLA)
    import sqlite3

    rows = sqlite3.connect(tmp_path / "cache" / "cache.db").execute("SELECT value FROM entries").fetchall()
    assert rows and all(isinstance(value, str) and json.loads(value)["answer"] for (value,) in rows)


def test_a_cached_run_changes_no_byte_of_the_store(tesla_fake, make_fake_judge, tmp_path):
    """Reads write nothing (unlike diskcache, which rewrites its settings on every open): git status stays clean."""
    judge = make_fake_judge("use")
    Hallucination(judge).run(OUTPUT, TESLA)
    judge.cache.close()
    before = {p.name: p.read_bytes() for p in (tmp_path / "cache").iterdir() if p.is_file()}
    for mode in ("use", "replay"):
        again = make_fake_judge(mode)
        assert all(c.cached for c in Hallucination(again).run(OUTPUT, TESLA).judge_calls)
        again.cache.close()
    assert {p.name: p.read_bytes() for p in (tmp_path / "cache").iterdir() if p.is_file()} == before


def test_replay_without_a_store_creates_nothing(tesla_fake, make_fake_judge, tmp_path):
    with pytest.raises(CacheMissError):
        Hallucination(make_fake_judge("replay")).run(OUTPUT, TESLA)
    assert not (tmp_path / "cache").exists()


def test_a_cache_folder_given_as_text_is_a_folder_and_an_unknown_mode_is_refused(tmp_path):
    """The public JudgeCache takes what users pass (a str path from their config), and names the
    modes instead of silently reading and writing nothing for a mode it does not know."""
    cache = JudgeCache(str(tmp_path / "judge"), "use")
    cache.set("k", {"answer": 1})
    assert JudgeCache(str(tmp_path / "judge"), "replay").get("k") == {"answer": 1}
    with pytest.raises(ValueError, match="unknown cache mode 'on': use one of use, refresh, replay, off"):
        JudgeCache(tmp_path, "on")
