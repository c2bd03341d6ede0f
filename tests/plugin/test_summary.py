"""Assertions end to end: pass, fail and error, the summary table, failure messages."""

from __future__ import annotations

import json
import re

import pytest
from plugin_helpers import HEADER, rows, run, run_suite, section

# -- assertions ----------------------------------------------------------------------------------

def test_pass_fail_and_summary_under_plain_pytest(pytester, server) -> None:
    result = run_suite(pytester, server, test_a=HEADER + """
def test_good():
    assert_faithful(GOOD, CTX)
    assert_not_hallucinated(GOOD, CTX)

def test_mixed_faithful():
    assert_faithful(MIXED, CTX, min_score=0.5)

def test_half_at_the_boundary():
    assert_faithful(HALF, CTX, min_score=0.5)
    assert_not_hallucinated(HALF, CTX, max_score=0.5)

def test_mixed_hallucinated():
    assert_not_hallucinated(MIXED, CTX)

def test_not_scored():
    pass
""")
    result.assert_outcomes(passed=3, failed=2)
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    got = [r[:6] for r in rows(result)]
    assert got == [
        ["test_a.py::test_good", "faithful", "1.00", ">=0.70", "PASS", "2"],
        ["test_a.py::test_good", "halluc", "0.00", "<=0.30", "PASS", "2"],
        # two calls an assertion: the narrow questions travel with the verdicts
        ["test_a.py::test_mixed_faithful", "faithful", "0.33", ">=0.50", "FAIL", "2"],
        ["test_a.py::test_half_at_the_boundary", "faithful", "0.50", ">=0.50", "PASS", "2"],
        ["test_a.py::test_half_at_the_boundary", "halluc", "0.50", "<=0.50", "PASS", "2"],
        ["test_a.py::test_mixed_hallucinated", "halluc", "0.67", "<=0.30", "FAIL", "2"],
    ]
    lines = section(result)
    reasons = [line for line in lines if line.startswith(("FAIL ", "PASS "))]
    assert reasons == [
        "FAIL test_a.py::test_mixed_faithful [faithfulness]: 0.33 — 1 of 3 claims supported by the context; "
        "not supported: \"Elon Musk founded Tesla.\" (scripted: Elon Musk founded Tesla.); "
        "\"Tesla is based on Mars.\" (scripted: Tesla is based on Mars.)",
        "FAIL test_a.py::test_mixed_hallucinated [hallucination]: 0.67 — 2 of 3 claims not supported by the "
        "context: \"Elon Musk founded Tesla.\" (scripted: Elon Musk founded Tesla.); "
        "\"Tesla is based on Mars.\" (scripted: Tesla is based on Mars.)",
    ]
    footer = [line for line in lines if line.startswith("llmfaith: ")]
    assert len(footer) == 1
    match = re.fullmatch(r"llmfaith: 6 scores \(4 passed, 2 failed\); judge calls 12 \(0 cached, 12 new\); "
                         r"tokens ([\d,]+); cost n/a; judge time (\d+\.\d)s", footer[0])
    assert match, footer
    row_tokens = sum(int(r[7]) for r in rows(result))
    assert int(match.group(1).replace(",", "")) == row_tokens > 0
    assert len(server.calls("claims")) == 6 and len(server.calls("verdicts")) == 6


@pytest.mark.parametrize("verdicts", ["all", "one", "label"])
@pytest.mark.parametrize("reason", ["verdicts", "llm"])
def test_every_scorer_path_scores_the_same_end_to_end(pytester, server, verdicts, reason) -> None:
    """Each way of asking for verdicts and reasons, through litellm to the HTTP judge, in a real run:
    the scorer unit tests ask the in-process fake judge, so this is their end-to-end counterpart."""
    server.script.reason_text = '{"reason": "Musk did not found Tesla; Mars is not in the context."}'
    result = run_suite(pytester, server, f"--llm-judge-verdicts={verdicts}", f"--llm-reason={reason}", "-vv",
                       test_a=HEADER + """
def test_good():
    assert_faithful(GOOD, CTX)
    assert_not_hallucinated(GOOD, CTX)

def test_mixed():
    assert_faithful(MIXED, CTX, min_score=0.5)
    assert_not_hallucinated(MIXED, CTX, max_score=0.5)
""")
    result.assert_outcomes(passed=1, failed=1)
    assert [r[:5] for r in rows(result)] == [
        ["test_a.py::test_good", "faithful", "1.00", ">=0.70", "PASS"],
        ["test_a.py::test_good", "halluc", "0.00", "<=0.30", "PASS"],
        ["test_a.py::test_mixed", "faithful", "0.33", ">=0.50", "FAIL"]]  # the first failing assertion ends the test
    steps = {c["step"] for c in server.calls()}
    assert steps == ({"claims", "verdicts", "reason"} if reason == "llm" else {"claims", "verdicts"})
    assert all(bool(c["body"].get("logprobs")) == (verdicts == "label") for c in server.calls("verdicts"))
    if reason == "llm":
        assert "Musk did not found Tesla; Mars is not in the context." in result.stdout.str()

def test_table_fits_80_columns_and_shows_every_test_id_whole(pytester, server, monkeypatch) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    lines = section(run_suite(pytester, server, **{"tests/integration/rag/test_faq": HEADER + """
def test_refund_answer_is_grounded():
    assert_faithful(GOOD, CTX)
""", "tests/test_b": HEADER + """
@pytest.mark.parametrize("case", ["refund-policy"])
def test_answer_is_faithful_to_the_retrieved_documents_of_the_knowledge_base(case):
    assert_faithful(GOOD, CTX)
"""}))
    table = lines[:5]
    assert table[0].startswith("test ") and "scorer" in table[0] and "calls" in table[0]
    # an id too long for its column is shown whole on a line of its own, its cells under their headers
    cells = r" +faithful +1\.00 +>=0\.70 +PASS +2 +0 +\d+$"
    assert table[1] == "tests/integration/rag/test_faq.py::test_refund_answer_is_grounded"
    assert re.match(cells, table[2]) and table[0].index("scorer") == table[2].index("faithful"), table
    assert table[3] == ("tests/test_b.py::test_answer_is_faithful_to_the_retrieved_documents_of_the_knowledge_base"
                        "[refund-policy]")
    assert re.match(cells, table[4]), table[4]
    assert all(len(line) <= 80 for line in (table[0], table[2], table[4])), table
    # no column is given up when the ids would not fit anyway
    assert "tokens" in table[0] and "…" not in "".join(table)

    monkeypatch.setenv("COLUMNS", "200")  # wide terminal: every column, as wide as the longest id
    pytester.makepyfile(test_c=HEADER + "def test_short():\n    assert_faithful(GOOD, CTX)\n")
    lines = section(run(pytester, server, "test_c.py"))
    assert "tokens" in lines[0] and lines[1].startswith("test_c.py::test_short faithful  1.00") and len(lines[1]) < 100


def test_verbose_shows_every_reason(pytester, server) -> None:
    result = run_suite(pytester, server, test_a=HEADER + """
def test_good():
    assert_faithful(GOOD, CTX)

def test_bad():
    assert_faithful(MIXED, CTX)
""")
    quiet = [x for x in section(result) if x.startswith(("FAIL ", "PASS "))]
    assert [x.split(": ")[0] for x in quiet] == ["FAIL test_a.py::test_bad [faithfulness]"]
    loud = [x for x in section(run(pytester, server, "-v")) if x.startswith(("FAIL ", "PASS "))]
    assert loud[0] == "PASS test_a.py::test_good [faithfulness]: 1.00 — 2 of 2 claims supported by the context."
    assert loud[1].startswith("FAIL test_a.py::test_bad [faithfulness]: 0.33 — 1 of 3")


def test_color_follows_the_color_option(pytester, server) -> None:
    colored = run_suite(pytester, server, "--color=yes",
                        test_a=HEADER + "def test_bad():\n    assert_faithful(MIXED, CTX)\n").stdout.str()
    row = next(line for line in colored.splitlines() if "test_a.py::test_bad" in line and "faithful" in line)
    assert "\x1b[31m" in row  # red
    plain = run(pytester, server, "--color=no").stdout.str()
    assert "\x1b[" not in plain


def test_failure_message_reads_like_a_pytest_failure(pytester, server) -> None:
    long_claim = "The Roadster " + "was very fast and " * 20 + "sold well."
    result = run_suite(pytester, server, test_a=HEADER + f"""
LONG = {long_claim!r}

def test_faithful():
    # the supported claim comes first in the output, but is listed after the unsupported ones
    assert_faithful(HALF + " " + LONG, CTX, min_score=0.8)

def test_hallucinated():
    assert_not_hallucinated(HALF, CTX, max_score=0.25)
""")
    result.assert_outcomes(failed=2)
    text = result.stdout.str()
    start = text.index("AssertionError: faithfulness score 0.33 is below min_score 0.80 (judge: openai/test-judge)")
    block = text[start:text.index("test_a.py:", start)]
    assert "reason: 0.33 — 1 of 3 claims supported by the context; not supported:" in block
    assert "claims, unsupported first:" in block
    # the marks and their words say what is wrong with a claim, the same way for both scorers
    order = [block.index(s) for s in ("✗ contradicted       'Elon Musk founded Tesla.'",
                                      "✗ not in the context 'The Roadster was very fast",
                                      "✓ supported          'Tesla was founded in 2003.'")]
    assert order == sorted(order)
    assert "scripted: Elon Musk founded Tesla." in block
    assert long_claim not in block and "…" in block  # long texts are shortened
    assert "hallucination score 0.50 is above max_score 0.25" in text
    hall = text[text.index("hallucination score 0.50 is above"):]
    assert hall.index("✗ not supported 'Elon Musk founded Tesla.'") < hall.index("✓ supported     'Tesla was founded")
    assert "yes" not in hall[:hall.index("output:")]  # a made-up claim never reads as "✗ yes"


@pytest.mark.parametrize("fault, step, seconds, message", [
    ("500", None, 0, r"failed at step 'claims' after 1 attempt\(s\): InternalServerError"),
    ("malformed", "verdicts", 0, r"gave no valid answer at step 'verdicts' after 3 attempts"),
    ("delay", None, 3, r"failed at step 'claims' after 1 attempt\(s\): Timeout: .*Fix: raise --llm-judge-timeout"),
])
def test_judge_failure_is_an_error_never_a_failure_or_pass(pytester, server, fault, step, seconds, message) -> None:
    server.fail(fault, step=step, times=99, seconds=seconds)
    result = run_suite(pytester, server, "--llm-judge-retries=0", "--llm-judge-timeout=0.3", "-rA",
                       "--llm-report=report.json", test_a=HEADER + """
def test_would_pass():
    assert_faithful(GOOD, CTX, min_score=0.0)

def test_judge_error_is_not_an_assertion_error():
    with pytest.raises(AssertionError):
        assert_not_hallucinated(MIXED, CTX)
""")
    result.assert_outcomes(errors=2)
    errors = json.loads((pytester.path / "report.json").read_text())["judge_errors"]
    assert sorted(errors) == ["test_a.py::test_judge_error_is_not_an_assertion_error", "test_a.py::test_would_pass"]
    assert all(re.search(message, e) for e in errors.values())
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    text = result.stdout.str()
    assert len(re.findall(message, text)) >= 2
    assert re.search(r"test_a\.py EE", text)
    assert "ERROR at call of test_would_pass" in text or "ERROR test_a.py::test_would_pass" in text
    lines = section(result)  # nothing was scored, but the summary names the judge errors
    assert [x.split(":")[0] for x in lines if x.startswith("ERROR ")] == [
        "ERROR test_a.py", "ERROR test_a.py"] and not rows(result)
    assert lines[-1].startswith("llmfaith: 0 scores") and lines[-1].endswith("; 2 tests hit judge errors")
    assert "warnings summary" not in text


def test_no_judge_configured_says_how_to_configure_one(pytester) -> None:
    pytester.makepyfile(test_a=HEADER + "def test_a():\n    assert_faithful(GOOD, CTX)\n")
    result = pytester.runpytest("--llm-cache=off")
    result.assert_outcomes(errors=1)
    text = result.stdout.str()
    for needle in ("no judge model is configured", "--llm-judge-model=openai/gpt-4o-mini",
                   'llm_judge_model = "openai/gpt-4o-mini"', "LLMFAITH_JUDGE_MODEL=openai/gpt-4o-mini",
                   "--llm-judge-api-base=", "--llm-judge-model=local", "python -m pytest_llmfaith local install"):
        assert needle in text, needle
    assert "pytest-llmfaith[local]" not in text  # an unpublished package
    assert not (pytester.path / ".llmfaith_cache").exists()


def test_the_error_line_for_missing_weights_ends_with_the_command_to_run(pytester, monkeypatch, tmp_path) -> None:
    """Issue 34.5: the summary's ERROR line ended in "... repair them with:", the command cut off."""
    monkeypatch.setenv("LLMFAITH_MODEL_DIR", str(tmp_path / "no-models"))
    pytester.makepyfile(test_a=HEADER + "def test_a():\n    assert_faithful(GOOD, CTX)\n")
    result = pytester.runpytest("--llm-cache=off", "--llm-judge-model=local")
    result.assert_outcomes(errors=1)
    error = next(line for line in section(result) if line.startswith("ERROR "))
    assert error.endswith("-m pytest_llmfaith local install"), error
