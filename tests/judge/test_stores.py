"""The judge's stores, each alone behind the one protocol (`get`, `keep`), then the order the judge
walks them in (judge/stores.py): the recordings, the working cache, and single flight."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import pytest

from pytest_llmfaith.judge.cache import JudgeCache
from pytest_llmfaith.judge.stores import Flights, Stores
from pytest_llmfaith.recordings.asker import AskingTest
from pytest_llmfaith.recordings.recorder import SELF_CHECK, Recorder
from pytest_llmfaith.recordings.recording_format import (
    Entry,
    RecordedAnswer,
    RecordingFile,
    StoredAnswer,
    recording_path,
    write,
)

FOLDER = "llmfaith_recordings"


class Asking:
    """One test of tests/test_x.py asks (None: nobody), and keeps the answers it used."""

    def __init__(self, module: Path | None) -> None:
        self.test = AskingTest(f"{module}::test_a", module) if module is not None else None
        self.used: dict[str, dict[str, Any]] = {}

    def asking(self) -> AskingTest | None:
        return self.test

    def note_used(self, key: str, answer: dict[str, Any]) -> None:
        self.used[key] = answer


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
    found = Recorder(FOLDER, "use", Asking(module)).get("k")
    assert found is not None and found["answer"] == {"claims": ["recorded"]} and found["tests"] == ["test_a"]
    assert Recorder(FOLDER, "replay", Asking(module)).get("k") == found
    assert Recorder(FOLDER, "use", Asking(module)).get("other") is None
    assert Recorder(FOLDER, "refresh", Asking(module)).get("k") is None  # refresh asks again
    assert Recorder(FOLDER, "use", Asking(None)).get("k") is None  # no test, no module file
    assert Recorder(None, "use", Asking(module)).get("k") is None  # recordings off


def test_the_recordings_keep_an_answer_as_a_note_on_the_asking_test(module: Path) -> None:
    asker = Asking(module)
    Recorder(FOLDER, "use", asker).keep("k", entry())
    assert asker.used == {"k": entry().stored.model_dump(mode="json")}  # not who stored it in the cache
    assert not recording_path(module, FOLDER).exists()  # the controller writes the files, at the end

    quiet = Asking(module)
    Recorder(FOLDER, "off", quiet).keep("k", entry())
    assert quiet.used == {}


def test_the_recordings_keep_a_label_as_its_p_yes_alone(module: Path) -> None:
    asker = Asking(module)
    Recorder(FOLDER, "use", asker, thresholds=(0.5,)).keep("label", entry(p_yes=0.923))
    Recorder(FOLDER, "use", asker, thresholds=(0.5,)).keep("near", entry(p_yes=0.49963))
    Recorder(FOLDER, "use", asker, thresholds=(0.5,), exact=True).keep("votes", entry(p_yes=0.49963))
    assert asker.used["label"]["answer"] == {"p_yes": 0.92}
    assert asker.used["near"]["answer"] == {"p_yes": 0.4996}  # 0.5 would cross the threshold
    assert asker.used["votes"]["answer"] == {"p_yes": 0.49963}  # votes draw against it: unrounded


def test_who_stores_is_the_asking_test_s_file_or_who_asks_outside_tests(module: Path) -> None:
    assert Recorder(FOLDER, "use", Asking(module)).recorded_by() == str(module)
    outside = Recorder(FOLDER, "use", Asking(None))
    outside.outside = SELF_CHECK
    assert outside.recorded_by() == SELF_CHECK


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
    stores = Stores(cache, Recorder(FOLDER, "use", Asking(module)))
    assert stores.get("both")["answer"] == {"claims": ["recorded"]}
    assert stores.get("cached only")["answer"] == {"claims": ["cached"]}
    assert stores.get("nowhere") is None
    assert Stores(cache).get("both")["answer"] == {"claims": ["cached"]}


def test_a_new_answer_is_kept_everywhere_a_found_one_by_the_recordings_only(tmp_path: Path, module: Path) -> None:
    asker = Asking(module)
    stores = Stores(JudgeCache(tmp_path / "c", "use"), Recorder(FOLDER, "use", asker), Flights(tmp_path / "run"))
    stores.keep("new", entry())
    assert stores.cache.get("new") == entry().value()
    assert stores.flights is not None and stores.flights.get("new") == entry().value()
    assert set(asker.used) == {"new"}

    stores.used("found", lambda: entry("found"))
    assert asker.used["found"]["answer"] == {"claims": ["found"]}
    assert stores.cache.get("found") is None and stores.flights.get("found") is None


def test_without_recordings_a_found_answer_makes_no_entry(tmp_path: Path, module: Path) -> None:
    def unwanted() -> Entry:
        raise AssertionError("made for nobody")

    Stores(JudgeCache(tmp_path / "c", "use")).used("k", unwanted)
    assert Stores(JudgeCache(tmp_path / "c", "use")).recorded_by() == ""
    asker = Asking(module)  # a run without a recordings folder: the key is noted (unused cache entries), no entry
    Stores(JudgeCache(tmp_path / "c", "use"), Recorder(None, "use", asker)).used("k", unwanted)
    assert asker.used == {"k": {}}


def test_a_miss_is_held_by_single_flight_when_there_is_one(tmp_path: Path) -> None:
    alone = Stores(JudgeCache(tmp_path / "c", "use"))
    with alone.alone("k") as shared:
        assert shared is None
    run = Stores(JudgeCache(tmp_path / "c", "use"), flights=Flights(tmp_path / "run"))
    run.keep("k", entry())
    with run.alone("k") as shared:
        assert shared == entry().value()
    assert not alone.replay and Stores(JudgeCache(tmp_path / "c", "replay")).replay
