"""The judge's stores, each alone behind the one protocol (`get`, `keep`), then the order the judge
walks them in (judge/stores.py): the recordings, the working cache, and single flight."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from pytest_llmfaith.judge.cache import JudgeCache
from pytest_llmfaith.judge.stores import Entry, Flights, StoredAnswer, Stores
from pytest_llmfaith.recordings.recorder import SELF_CHECK, Recorder
from pytest_llmfaith.recordings.recording_format import RecordedAnswer, RecordingFile, recording_path, write
from pytest_llmfaith.running import RunningTest, outside_tests, running

FOLDER = "llmfaith_recordings"


@contextmanager
def asking(module: Path) -> Iterator[RunningTest]:
    """One test of tests/test_x.py runs meanwhile, and keeps the answers it used."""
    with running(RunningTest(f"{module}::test_a", module)) as test:
        yield test


def entry(claim: str = "a", p_yes: float | None = None) -> Entry:
    stored = StoredAnswer(step="claims", model="openai/m", prompt_version="v1", asked={"output": "x"},
                          answer={"claims": [claim]}, usage={"prompt_tokens": 3}, cost_usd=0.5)
    return Entry(stored, recorded_by="tests/test_x.py", p_yes=p_yes)


@pytest.fixture
def module(tmp_path: Path) -> Path:
    return tmp_path / "tests" / "test_x.py"


def recorded(module: Path, key: str, claim: str) -> None:
    answer = RecordedAnswer.model_validate({**entry(claim).stored.model_dump(), "tests": ["test_a"]})
    write(recording_path(module, FOLDER), RecordingFile(entries={key: answer}))


# -- the working cache ------------------------------------------------------------------------
def test_the_cache_keeps_an_entry_s_value_for_later_runs(tmp_path: Path) -> None:
    JudgeCache(tmp_path / "c", "use").keep("k", entry())
    assert JudgeCache(tmp_path / "c", "use").get("k") == entry().value()
    assert JudgeCache(tmp_path / "c", "replay").get("k")["recorded_by"] == "tests/test_x.py"
    assert JudgeCache(tmp_path / "c", "refresh").get("k") is None  # refresh asks again


@pytest.mark.parametrize("mode", ["replay", "off"])
def test_a_cache_that_does_not_store_keeps_nothing(tmp_path: Path, mode: str) -> None:
    JudgeCache(tmp_path / "c", mode).keep("k", entry())
    assert JudgeCache(tmp_path / "c", "use").get("k") is None


def test_refresh_overwrites_what_the_cache_kept(tmp_path: Path) -> None:
    JudgeCache(tmp_path / "c", "use").keep("k", entry("old"))
    JudgeCache(tmp_path / "c", "refresh").keep("k", entry("new"))
    assert JudgeCache(tmp_path / "c", "use").get("k")["answer"] == {"claims": ["new"]}


# -- the recordings ---------------------------------------------------------------------------
def test_the_recordings_give_the_asking_test_s_module_file(module: Path) -> None:
    recorded(module, "k", "recorded")
    with asking(module):
        found = Recorder(FOLDER, "use").get("k")
        assert found is not None and found["answer"] == {"claims": ["recorded"]} and found["tests"] == ["test_a"]
        assert Recorder(FOLDER, "replay").get("k") == found
        assert Recorder(FOLDER, "use").get("other") is None
        assert Recorder(FOLDER, "refresh").get("k") is None  # refresh asks again
        assert Recorder(None, "use").get("k") is None  # recordings off
    with outside_tests(""):  # no test (this very test runs under the plugin)
        assert Recorder(FOLDER, "use").get("k") is None  # no test, no module file


def test_the_recordings_keep_an_answer_as_a_note_on_the_asking_test(module: Path) -> None:
    with asking(module) as test:
        Recorder(FOLDER, "use").keep("k", entry())
    assert test.used == {"k": entry().stored.model_dump(mode="json")}  # not who stored it in the cache
    assert not recording_path(module, FOLDER).exists()  # the controller writes the files, at the end

    with asking(module) as quiet:
        Recorder(FOLDER, "off").keep("k", entry())
    assert quiet.used == {}


def test_the_recordings_keep_a_label_as_its_p_yes_alone(module: Path) -> None:
    with asking(module) as test:
        Recorder(FOLDER, "use", thresholds=(0.5,)).keep("label", entry(p_yes=0.923))
        Recorder(FOLDER, "use", thresholds=(0.5,)).keep("near", entry(p_yes=0.49963))
        Recorder(FOLDER, "use", thresholds=(0.5,), exact=True).keep("votes", entry(p_yes=0.49963))
    assert test.used["label"]["answer"] == {"p_yes": 0.92}
    assert test.used["near"]["answer"] == {"p_yes": 0.4996}  # 0.5 would cross the threshold
    assert test.used["votes"]["answer"] == {"p_yes": 0.49963}  # votes draw against it: unrounded


def test_who_stores_is_the_asking_test_s_file_or_who_asks_outside_tests(module: Path) -> None:
    with outside_tests(""):  # library use: no test runs (this very test runs under the plugin)
        assert Recorder(FOLDER, "use").recorded_by() == ""
    with asking(module) as test:
        assert Recorder(FOLDER, "use").recorded_by() == str(module)
        with outside_tests(SELF_CHECK):  # the run asks for itself: not even the running test's
            assert Recorder(FOLDER, "use").recorded_by() == SELF_CHECK
            Recorder(FOLDER, "use").keep("k", entry())
            seen: list[str] = []
            thread = threading.Thread(target=lambda: seen.append(Recorder(FOLDER, "use").recorded_by()))
            thread.start()
            thread.join(5)
            assert seen == [SELF_CHECK]  # also in the threads it starts
    assert test.used == {}


def test_the_threads_a_test_starts_ask_as_that_test(module: Path) -> None:
    with asking(module) as test:
        thread = threading.Thread(target=lambda: Recorder(FOLDER, "use").keep("k", entry()))
        thread.start()
        thread.join(5)
    assert set(test.used) == {"k"}


# -- single flight ----------------------------------------------------------------------------
def test_single_flight_keeps_an_entry_s_value_for_the_run(tmp_path: Path) -> None:
    flights = Flights(tmp_path / "run")
    assert flights.get("k") is None
    flights.keep("k", entry())
    assert Flights(tmp_path / "run").get("k") == entry().value()
    assert sorted(p.name for p in (tmp_path / "run" / "flights").iterdir()) == ["k.json"]  # written whole


def test_single_flight_makes_a_second_asker_wait_for_the_first_answer(tmp_path: Path) -> None:
    flights = Flights(tmp_path / "run")
    holding, seen = threading.Event(), []

    def second() -> None:
        holding.wait()
        with flights.alone("k"):
            seen.append(flights.get("k"))

    waiter = threading.Thread(target=second)
    waiter.start()
    with flights.alone("k"):
        holding.set()
        time.sleep(0.2)  # the second asker is waiting for the key meanwhile
        assert seen == []
        flights.keep("k", entry())
    waiter.join(5)
    assert seen == [entry().value()]


# -- the stores in the judge's order ----------------------------------------------------------
def test_the_recordings_answer_before_the_cache(tmp_path: Path, module: Path) -> None:
    cache = JudgeCache(tmp_path / "c", "use")
    cache.keep("both", entry("cached"))
    cache.keep("cached only", entry("cached"))
    recorded(module, "both", "recorded")
    stores = Stores(cache, Recorder(FOLDER, "use"))
    with asking(module):
        assert stores.get("both")["answer"] == {"claims": ["recorded"]}
        assert stores.get("cached only")["answer"] == {"claims": ["cached"]}
        assert stores.get("nowhere") is None
    assert Stores(cache).get("both")["answer"] == {"claims": ["cached"]}


def test_a_new_answer_is_kept_everywhere_a_found_one_by_the_recordings_only(tmp_path: Path, module: Path) -> None:
    stores = Stores(JudgeCache(tmp_path / "c", "use"), Recorder(FOLDER, "use"), Flights(tmp_path / "run"))
    with asking(module) as test:
        stores.keep("new", entry())
    assert stores.cache.get("new") == entry().value()
    assert stores.flights is not None and stores.flights.get("new") == entry().value()
    assert set(test.used) == {"new"}

    with asking(module) as test:
        stores.used("found", lambda: entry("found"))
    assert test.used["found"]["answer"] == {"claims": ["found"]}
    assert stores.cache.get("found") is None and stores.flights.get("found") is None


def test_without_recordings_a_found_answer_makes_no_entry(tmp_path: Path, module: Path) -> None:
    def unwanted() -> Entry:
        raise AssertionError("made for nobody")

    Stores(JudgeCache(tmp_path / "c", "use")).used("k", unwanted)
    assert Stores(JudgeCache(tmp_path / "c", "use")).recorded_by() == ""
    with asking(module) as test:  # a run without a recordings folder: the key is noted (unused entries), no entry
        Stores(JudgeCache(tmp_path / "c", "use"), Recorder(None, "use")).used("k", unwanted)
    assert test.used == {"k": {}}


def test_a_miss_is_held_by_single_flight_when_there_is_one(tmp_path: Path) -> None:
    alone = Stores(JudgeCache(tmp_path / "c", "use"))
    with alone.alone("k") as shared:
        assert shared is None
    run = Stores(JudgeCache(tmp_path / "c", "use"), flights=Flights(tmp_path / "run"))
    run.keep("k", entry())
    with run.alone("k") as shared:
        assert shared == entry().value()
    assert not alone.replay and Stores(JudgeCache(tmp_path / "c", "replay")).replay
