"""What a newcomer reads (issue 28): hallucinations in words, test ids whole, counts in grammar,
suggested commands that work, UNSTABLE explained. Inner pytest runs against the loopback judge."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys

import pytest
from plugin_helpers import HEADER, judge_args, run, run_suite, section

from pytest_llmfaith.wording import plural


@pytest.mark.parametrize("count, word, shown", [(0, "test", "0 tests"), (1, "test", "1 test"),
                                                (1, "entry", "1 entry"), (2, "entry", "2 entries"),
                                                (3, "day", "3 days"), (2, "recordings file", "2 recordings files")])
def test_plural(count, word, shown) -> None:
    assert plural(count, word) == shown


def test_a_hallucination_regression_lists_its_claims_in_words(pytester, server) -> None:
    """Was: "appeared (no): … supported (p=0.96)" for a claim that is fine, "(yes)" for one made up."""
    answer = HEADER + "def test_answer():\n    assert_not_hallucinated({output!r}, CTX, max_score=0.9)\n"
    assert run_suite(pytester, server, "--llm-baseline=b.json", "--llm-baseline-update",
                     test_a=answer.format(output="Tesla was founded in 2003.")).ret == 0
    pytester.makepyfile(test_a=answer.format(
        output="Tesla was founded in 2003. Elon Musk founded Tesla. Elon Musk joined Tesla in 2004."))
    lines = section(run(pytester, server, "--llm-baseline=b.json"))
    at = next(i for i, line in enumerate(lines) if line.startswith("llmfaith gate FAILED: baseline regression"))
    assert lines[at + 1:at + 3] == [
        '    appeared (not supported): "Elon Musk founded Tesla." — scripted: Elon Musk founded Tesla.',
        '    appeared (supported): "Elon Musk joined Tesla in 2004." — scripted: Elon Musk joined Tesla in 2004.']
    assert "llmfaith: baseline compared: 1 score, 1 regression" in lines


def test_ids_that_differ_at_their_end_stay_told_apart_at_80_columns(pytester, server, monkeypatch) -> None:
    """Was: "…::test_the_refund_answer_in…st_english_docs", and "…nst_german_docs"."""
    monkeypatch.setenv("COLUMNS", "80")
    tests = "".join(f"def test_refund_answer_{lang}_docs():\n    assert_faithful({answer!r}, CTX)\n\n"
                    for lang, answer in (("english", "Tesla was founded in 2003."),
                                         ("german", "Tesla wurde 2003 gegründet.")))
    lines = section(run_suite(pytester, server, test_support_answers=HEADER + tests))
    ids = [line for line in lines if line.startswith("test_support_answers.py::")]
    assert ids == ["test_support_answers.py::test_refund_answer_english_docs",
                   "test_support_answers.py::test_refund_answer_german_docs"], lines
    for test_id in ids:  # the cells follow on the next line, under their headers
        cells = lines[lines.index(test_id) + 1]
        assert cells.index("faithful") == lines[0].index("scorer") and len(cells) <= 80, cells


def test_counts_of_one_read_as_one(pytester, server) -> None:
    server.fail("500", step="claims", times=99)
    suite = HEADER + "def test_a():\n    assert_faithful('Tesla was founded in 2003.', CTX)\n"
    lines = section(run_suite(pytester, server, "--llm-judge-retries=0", test_a=suite))
    assert lines[-1] == ("llmfaith: 0 scores (0 passed, 0 failed); judge calls 0 (0 cached, 0 new); tokens 0; "
                         "cost n/a; judge time 0.0s; 1 test hit judge errors")


def test_the_suggested_prune_command_removes_what_the_note_counts(pytester, server) -> None:
    """Was: a bare `python -m pytest_llmfaith cache prune`, which only asks "prune what?"."""
    both = HEADER + ("def test_good():\n    assert_faithful(GOOD, CTX)\n\n"
                     "def test_half():\n    assert_not_hallucinated(HALF, CTX, max_score=0.5)\n")
    record = ("--llm-recordings=llmfaith_recordings",)
    run_suite(pytester, server, *record, cache="use", test_a=both).assert_outcomes(passed=2)
    pytester.makepyfile(test_a=HEADER + "def test_good():\n    assert_faithful(GOOD, CTX)\n")
    text = pytester.runpytest(*judge_args(server, "use"), *record).stdout.str()
    note = re.search(r"llmfaith cache: 2 entries in \.llmfaith_cache unused by this full run .*; remove them: "
                     r"`(pytest [^`]+)` or `python -m (pytest_llmfaith cache prune[^`]*)`", text)
    assert note, text
    done = subprocess.run([sys.executable, "-m", *shlex.split(note.group(2))], cwd=pytester.path,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and "and 2 entries of the working cache" in done.stdout, done
    after = pytester.runpytest(*judge_args(server, "use"), *record).stdout.str()
    assert "llmfaith cache:" not in after and len(server.requests) == 4  # nothing left to prune, nothing re-asked


CLOSE = "Elon Musk joined Tesla in 2004."


def test_the_summary_says_what_unstable_means_and_what_to_do(pytester, server, monkeypatch) -> None:
    summary = pytester.path / "summary.md"
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    server.facts(supported=["Tesla was founded in 2003."], votes={CLOSE: ["yes", "unsure", "yes"]})
    pytester.makepyfile(test_a=HEADER + f"def test_close():\n    assert_faithful('Tesla was founded in 2003. {CLOSE}', "
                                        "CTX)\n")
    lines = section(run(pytester, server, "--llm-judge-votes=3"))
    advice = next(line for line in lines if line.startswith("llmfaith: 1 score UNSTABLE"))
    assert advice == ("llmfaith: 1 score UNSTABLE: the judge's votes on a claim split, and the minority would flip "
                      "pass/fail; the majority decided. Fix: raise --llm-judge-votes (now 3) so that a close call "
                      "settles, use a stronger judge (--llm-judge-model), or move the threshold away from the score "
                      "if the close call is fine; docs/reading-results.md has more.")
    assert f"- ⚠️ {advice}" in summary.read_text()
    assert not any("UNSTABLE:" in line for line in section(run(pytester, server)))  # without votes: nothing


def test_xdist_is_an_extra_of_its_own() -> None:
    """`pytest -n 2` needs pytest-xdist, which only the dev extra held: `pip install -e ".[xdist]"`."""
    from importlib.metadata import metadata

    meta = metadata("pytest-llmfaith")
    assert "xdist" in (meta.get_all("Provides-Extra") or [])
    assert any(r.startswith("pytest-xdist") and 'extra == "xdist"' in r for r in meta.get_all("Requires-Dist") or [])
