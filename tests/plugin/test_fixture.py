"""The `llm_judge` fixture object: bound to its test, `with_defaults` copies (pytester, real HTTP judge)."""

from __future__ import annotations

from plugin_helpers import HEADER, rows, run, run_suite


def test_with_defaults_sets_thresholds_and_model_for_its_copy_only(pytester, server) -> None:
    result = run_suite(pytester, server, test_a=HEADER + """
def test_strict(llm_judge):
    strict = llm_judge.with_defaults(min_score=0.9, max_score=0.1)
    llm_judge.assert_faithful(HALF, CTX, min_score=0.5)     # the fixture itself is unchanged
    strict.assert_faithful(HALF, CTX, min_score=0.4)        # a call's own argument wins
    strict.assert_not_hallucinated(GOOD, CTX)               # 0.00 <= 0.10
    strict.assert_faithful(HALF, CTX)                       # 0.50 < 0.90

def test_other_judge(llm_judge):
    other = llm_judge.with_defaults(model="openai/other-judge").with_defaults(min_score=0.9)
    assert other.faithfulness(GOOD, CTX).score == 1.0
    other.assert_faithful(HALF, CTX)                        # both defaults carried over
""")
    result.assert_outcomes(failed=2)
    text = result.stdout.str()
    assert "faithfulness score 0.50 is below min_score 0.90 (judge: openai/test-judge)" in text
    assert "faithfulness score 0.50 is below min_score 0.90 (judge: openai/other-judge)" in text
    assert [r[:5] for r in rows(result)] == [
        ["test_a.py::test_strict", "faithful", "0.50", ">=0.50", "PASS"],
        ["test_a.py::test_strict #2", "faithful", "0.50", ">=0.40", "PASS"],
        ["test_a.py::test_strict", "halluc", "0.00", "<=0.10", "PASS"],
        ["test_a.py::test_strict #3", "faithful", "0.50", ">=0.90", "FAIL"],
        ["test_a.py::test_other_judge", "faithful", "1.00", "-", "NO_THRESHOLD"],
        ["test_a.py::test_other_judge #2", "faithful", "0.50", ">=0.90", "FAIL"]]
    assert {c["body"]["model"] for c in server.calls()} == {"test-judge", "other-judge"}


def test_with_defaults_names_a_wrong_option_and_the_right_ones(pytester, server) -> None:
    pytester.makepyfile(test_a=HEADER + """
import pytest

def test_typo(llm_judge):
    with pytest.raises(ValueError) as err:
        llm_judge.with_defaults(min_scor=0.9)
    print("MESSAGE", err.value)
""")
    result = run(pytester, server, "-s")
    result.assert_outcomes(passed=1)
    assert ("llm_judge.with_defaults(min_scor=...): unknown option. It takes model, min_score, max_score, "
            "no_claims, scale") in result.stdout.str()
    assert server.calls() == []


def test_object_used_in_another_test_is_an_error_naming_both(pytester, server) -> None:
    result = run_suite(pytester, server, test_a=HEADER + """
kept = []

def test_first(llm_judge):
    kept.append(llm_judge.with_defaults(min_score=0.4))
    kept[0].assert_faithful(HALF, CTX)

def test_second():
    kept[0].assert_faithful(HALF, CTX)
""")
    result.assert_outcomes(passed=1, errors=1)  # a misuse, not a verdict on the code
    assert ("this llm_judge object belongs to test_a.py::test_first but was used in test_a.py::test_second. "
            "Fix: request the llm_judge fixture in test_second") in result.stdout.str()
    assert [r[:5] for r in rows(result)] == [["test_a.py::test_first", "faithful", "0.50", ">=0.40", "PASS"]]
