"""The pytest plugin end to end: inner pytest runs (pytester, in-process) against the loopback judge.

The judge server lives in this (outer) process and is scripted before each inner run; the inner
run reaches it through --llm-judge-api-base. Runs that need a fresh interpreter (xdist workers,
"litellm is never imported") are in test_plugin_subprocess.py.
"""

from __future__ import annotations

import json
import os
import re
import xml.etree.ElementTree as ET

import pytest

TESLA_FACTS = {
    "supported": ["Tesla was founded in 2003.", "The first Tesla car was the Roadster.",
                  "Elon Musk joined Tesla in 2004."],
    "contradicted": ["Elon Musk founded Tesla."],
}
# claims are sentences; supported -> yes/no, contradicted -> no/yes, anything else "not mentioned"
GOOD = "Tesla was founded in 2003. The first Tesla car was the Roadster."  # faith 1.00, hall 0.00
MIXED = "Tesla was founded in 2003. Elon Musk founded Tesla. Tesla is based on Mars."  # faith 0.33, hall 0.67
HALF = "Tesla was founded in 2003. Elon Musk founded Tesla."  # faith 0.50, hall 0.50

HEADER = f'''
import pytest
from pytest_llmfaith import assert_faithful, assert_not_hallucinated
CTX = ["Tesla was founded in 2003.", "Elon Musk joined Tesla in 2004.", "The first Tesla car was the Roadster."]
GOOD = {GOOD!r}
MIXED = {MIXED!r}
HALF = {HALF!r}
'''


def judge_args(server, cache: str = "off") -> list[str]:
    return ["--llm-judge-model=openai/test-judge", f"--llm-judge-api-base={server.url}", f"--llm-cache={cache}"]


def run(pytester: pytest.Pytester, server, *args: str, cache: str = "off") -> pytest.RunResult:
    return pytester.runpytest(*judge_args(server, cache), *args)


def section(result: pytest.RunResult) -> list[str]:
    """The lines of the llmfaith terminal section (up to the next pytest section)."""
    lines = result.outlines
    starts = [i for i, line in enumerate(lines) if "llmfaith: LLM judge scores" in line]
    assert len(starts) == 1, result.stdout.str()
    out = []
    for line in lines[starts[0] + 1:]:
        if line.startswith("=") and line.endswith("="):
            break
        if line.strip():
            out.append(line)
    return out


ROW = re.compile(r"^(\S+::\S+(?: \[[^\]]*\])?(?: #\d+)?) +((?:faith|halluc).*)$")


def rows(result: pytest.RunResult) -> list[list[str]]:
    """The table rows of the llmfaith section: the test (id, label, #n), then the cells split on
    whitespace ("NO THRESHOLD" stays one cell)."""
    matches = [ROW.match(line) for line in section(result)]
    return [[m.group(1), *m.group(2).replace("NO THRESHOLD", "NO_THRESHOLD").split()] for m in matches if m]


@pytest.fixture(scope="module", autouse=True)
def _litellm_warmed_up_in_the_outer_process(judge_server) -> None:
    """Import litellm and exercise its answer and error paths here, before any inner run does.

    pytester's in-process runs undo what an inner run imported. litellm imports the
    importlib_metadata backport, which deletes the stdlib PathFinder.find_distributions and puts
    its own finder on sys.meta_path: restored, that leaves no pytest11 entry points, so later
    inner runs would not load the plugin. And litellm submodules imported lazily inside one inner
    run (error mapping) would be re-imported by the next with new exception classes.
    """
    from pytest_llmfaith import Faithfulness, Judge, JudgeCache, JudgeConfig, JudgeError

    judge = Judge(JudgeConfig(model="openai/test-judge", api_base=judge_server.url, retries=0, timeout=0.3),
                  JudgeCache(None, "off"))
    judge_server.reset()
    Faithfulness(judge).run("Tesla was founded in 2003.", ["Tesla was founded in 2003."])
    for fault in ("500", "delay", "malformed"):
        judge_server.fail(fault, times=3, seconds=1)
        with pytest.raises(JudgeError):
            Faithfulness(judge).run("Tesla was founded in 2003.", ["Tesla was founded in 2003."])
        judge_server.reset()


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in [*(n for n in os.environ if n.startswith("LLMFAITH_")), "GITHUB_STEP_SUMMARY", "NO_COLOR",
                 "FORCE_COLOR", "PY_COLORS", "PYTEST_ADDOPTS"]:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("COLUMNS", "160")  # full test ids in the table; the 80-column layout has its own test


# -- options -----------------------------------------------------------------------------------

def test_help_shows_every_option_in_one_group(pytester: pytest.Pytester) -> None:
    result = pytester.runpytest("--help")
    text = result.stdout.str()
    group = text[text.index("LLM judge assertions (pytest-llmfaith):"):]
    group = group[:group.index("\n\n")]
    for flag in ("--llm-judge-model", "--llm-judge-api-base", "--llm-judge-timeout", "--llm-judge-retries",
                 "--llm-cache", "--llm-cache-dir", "--llm-reason", "--llm-report", "--llm-baseline",
                 "--llm-baseline-update"):
        assert re.search(rf"^\s+{flag}(=|\s|$)", group, re.MULTILINE), flag
    assert "LLMFAITH_JUDGE_MODEL" in group and "llm_cache_dir" in group
    assert "replay (stored answers only" in " ".join(group.split())


SETTINGS_PROBE = """
def test_settings(pytestconfig):
    s = pytestconfig.pluginmanager.get_plugin("llmfaith-run").session.settings
    print("SETTINGS", s.judge_model, s.judge_retries, s.judge_timeout, s.cache, s.reason, s.min_faithfulness,
          s.cache_dir.name)
"""


def probe(result: pytest.RunResult) -> list[str]:
    line = next(x for x in result.outlines if "SETTINGS " in x)
    return line.split("SETTINGS ", 1)[1].split()


def test_precedence_cli_over_env_over_ini_over_default(pytester: pytest.Pytester, monkeypatch) -> None:
    pytester.makepyfile(test_probe=SETTINGS_PROBE)
    # timeout None: the judge picks 60 s, or 600 s for the local judge
    assert probe(pytester.runpytest("-s")) == ["None", "3", "None", "use", "verdicts", "0.7", ".llmfaith_cache"]

    pytester.makeini("[pytest]\nllm_judge_model = openai/from-ini\nllm_judge_retries = 1\n"
                     "llm_cache = refresh\nllm_min_faithfulness = 0.5\nllm_cache_dir = inic\n")
    assert probe(pytester.runpytest("-s")) == ["openai/from-ini", "1", "None", "refresh", "verdicts", "0.5", "inic"]

    # CI overrides pyproject.toml without editing it: the environment beats the ini file
    for name, value in (("JUDGE_MODEL", "openai/from-env"), ("JUDGE_RETRIES", "5"), ("JUDGE_TIMEOUT", "9"),
                        ("CACHE", "replay"), ("REASON", "llm"), ("MIN_FAITHFULNESS", "0.9"), ("CACHE_DIR", "envc")):
        monkeypatch.setenv(f"LLMFAITH_{name}", value)
    assert probe(pytester.runpytest("-s")) == ["openai/from-env", "5", "9.0", "replay", "llm", "0.9", "envc"]

    result = pytester.runpytest("-s", "--llm-judge-model=openai/from-cli", "--llm-judge-retries=0",
                                "--llm-cache=OFF", "--llm-min-faithfulness=0.2", "--llm-cache-dir=clic")
    assert probe(result) == ["openai/from-cli", "0", "9.0", "off", "llm", "0.2", "clic"]


def test_precedence_decides_the_threshold_used(pytester: pytest.Pytester, server, monkeypatch) -> None:
    """End to end: the same 0.50 score passes or fails depending on which source set the default."""
    server.facts(**TESLA_FACTS)
    pytester.makepyfile(test_a=HEADER + "def test_half():\n    assert_faithful(HALF, CTX)\n")
    pytester.makepyprojecttoml("[tool.pytest.ini_options]\nllm_min_faithfulness = 0.4\n")
    result = run(pytester, server)  # ini 0.4
    result.assert_outcomes(passed=1)
    assert rows(result)[0][:5] == ["test_a.py::test_half", "faithful", "0.50", ">=0.40", "PASS"]
    monkeypatch.setenv("LLMFAITH_MIN_FAITHFULNESS", "0.9")
    result = run(pytester, server)  # env 0.9 beats ini 0.4
    result.assert_outcomes(failed=1)
    assert rows(result)[0][:5] == ["test_a.py::test_half", "faithful", "0.50", ">=0.90", "FAIL"]
    result = run(pytester, server, "--llm-min-faithfulness=0.45")  # CLI beats env
    result.assert_outcomes(passed=1)
    assert rows(result)[0][:5] == ["test_a.py::test_half", "faithful", "0.50", ">=0.45", "PASS"]


@pytest.mark.parametrize("where, value, expected", [
    ("cli", "--llm-judge-timeout=soon", "--llm-judge-timeout = 'soon' must be a float number"),
    ("cli", "--llm-cache=sometimes", "--llm-cache = 'sometimes' must be one of use, refresh, replay, off"),
    ("cli", "--llm-judge-retries=-1", "--llm-judge-retries = '-1' must be >= 0"),
    ("cli", "--llm-reason=poetry", "must be one of verdicts, llm"),
    ("ini", "llm_max_hallucination = 2", "ini key llm_max_hallucination = '2' must be a score between 0 and 1"),
    ("ini", "llm_cache = always", "ini key llm_cache = 'always' must be one of"),
    ("env", "LLMFAITH_CACHE=bogus", "environment variable LLMFAITH_CACHE = 'bogus' must be one of"),
    ("env", "LLMFAITH_JUDGE_TIMEOUT=0", "environment variable LLMFAITH_JUDGE_TIMEOUT = '0' must be > 0"),
    ("cli", "--llm-baseline-update", "--llm-baseline-update needs --llm-baseline=PATH"),
])
def test_malformed_values_are_usage_errors_at_start_up(pytester, monkeypatch, where, value, expected) -> None:
    pytester.makepyfile(test_a="def test_never_runs():\n    raise SystemExit('collected')\n")
    args = []
    if where == "cli":
        args.append(value)
    elif where == "ini":
        pytester.makeini(f"[pytest]\n{value}\n")
    else:
        monkeypatch.setenv(*value.split("=", 1))
    result = pytester.runpytest(*args)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert expected in result.stderr.str()
    assert "collected" not in result.stdout.str() + result.stderr.str()


def test_invalid_lower_source_is_ignored_when_a_higher_one_wins(pytester, monkeypatch) -> None:
    pytester.makepyfile(test_probe=SETTINGS_PROBE)
    monkeypatch.setenv("LLMFAITH_CACHE", "bogus")
    result = pytester.runpytest("-s", "--llm-cache=replay")
    assert result.ret == 0 and probe(result)[3] == "replay"


def test_cache_dir_and_mode_options_record_then_replay(pytester, server) -> None:
    server.facts(**TESLA_FACTS)
    pytester.makepyfile(test_a=HEADER + "def test_good():\n    assert_faithful(GOOD, CTX)\n")
    base = [f"--llm-judge-api-base={server.url}", "--llm-judge-model=openai/test-judge", "--llm-cache-dir=jc"]
    run1 = pytester.runpytest(*base)
    run1.assert_outcomes(passed=1)
    assert (pytester.path / "jc").is_dir() and not (pytester.path / ".llmfaith_cache").exists()
    assert len(server.calls()) == 2
    run2 = pytester.runpytest(*base, "--llm-cache=replay")
    run2.assert_outcomes(passed=1)
    assert len(server.calls()) == 2  # no new request
    assert "judge calls 2 (2 cached, 0 new)" in section(run2)[-1]
    assert rows(run2)[0][5:7] == ["2", "2"]  # calls, hits


def test_reason_option_llm_asks_the_judge_for_the_reason(pytester, server) -> None:
    server.facts(**TESLA_FACTS)
    server.script.reason_text = '{"reason": "Musk did not found Tesla; Mars is not in the context."}'
    pytester.makepyfile(test_a=HEADER + "def test_bad():\n    assert_faithful(MIXED, CTX)\n")
    pytester.makeini("[pytest]\nllm_reason = llm\n")
    result = run(pytester, server)
    result.assert_outcomes(failed=1)
    assert "reason: Musk did not found Tesla; Mars is not in the context." in result.stdout.str()
    assert "FAIL test_a.py::test_bad [faithfulness]: Musk did not found Tesla; Mars is not in the context." \
        in section(result)
    assert len(server.calls("reason")) == 1 and rows(result)[0][5] == "3"


# -- assertions ----------------------------------------------------------------------------------

def test_pass_fail_and_summary_under_plain_pytest(pytester, server) -> None:
    server.facts(**TESLA_FACTS)
    pytester.makepyfile(test_a=HEADER + """
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
    result = run(pytester, server)
    result.assert_outcomes(passed=3, failed=2)
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    got = [r[:6] for r in rows(result)]
    assert got == [
        ["test_a.py::test_good", "faithful", "1.00", ">=0.70", "PASS", "2"],
        ["test_a.py::test_good", "halluc", "0.00", "<=0.30", "PASS", "2"],
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


def test_table_fits_80_columns_and_keeps_the_test_name(pytester, server, monkeypatch) -> None:
    server.facts(**TESLA_FACTS)
    monkeypatch.setenv("COLUMNS", "80")
    pytester.makepyfile(**{"tests/integration/rag/test_faq": HEADER + """
def test_refund_answer_is_grounded():
    assert_faithful(GOOD, CTX)
""", "tests/test_b": HEADER + """
@pytest.mark.parametrize("case", ["refund-policy"])
def test_answer_is_faithful_to_the_retrieved_documents_of_the_knowledge_base(case):
    assert_faithful(GOOD, CTX)
"""})
    lines = section(run(pytester, server))
    table = lines[:3]
    assert table[0].startswith("test ") and "scorer" in table[0] and "calls" in table[0]
    assert all(len(line) <= 80 for line in table), table
    # the path gives way first, then the columns a glance does not need (tokens, hits)...
    assert re.match(r"^test_faq\.py::test_refund_answer_is_grounded +faithful +1\.00 +>=0\.70 +PASS +2$",
                    table[1]), table[1]
    assert "tokens" not in table[0]
    # ...and a test name too long for any width keeps its start and its parameters
    assert re.match(r"^…::test_answer_is_faithful_t\S*…\S*\[refund-policy\] faithful", table[2]), table[2]

    monkeypatch.setenv("COLUMNS", "200")  # wide terminal: every column, as wide as the longest id
    pytester.makepyfile(test_c=HEADER + "def test_short():\n    assert_faithful(GOOD, CTX)\n")
    lines = section(run(pytester, server, "test_c.py"))
    assert "tokens" in lines[0] and lines[1].startswith("test_c.py::test_short faithful  1.00") and len(lines[1]) < 100


def test_verbose_shows_every_reason(pytester, server) -> None:
    server.facts(**TESLA_FACTS)
    pytester.makepyfile(test_a=HEADER + """
def test_good():
    assert_faithful(GOOD, CTX)

def test_bad():
    assert_faithful(MIXED, CTX)
""")
    quiet = [x for x in section(run(pytester, server)) if x.startswith(("FAIL ", "PASS "))]
    assert [x.split(": ")[0] for x in quiet] == ["FAIL test_a.py::test_bad [faithfulness]"]
    loud = [x for x in section(run(pytester, server, "-v")) if x.startswith(("FAIL ", "PASS "))]
    assert loud[0] == "PASS test_a.py::test_good [faithfulness]: 1.00 — 2 of 2 claims supported by the context."
    assert loud[1].startswith("FAIL test_a.py::test_bad [faithfulness]: 0.33 — 1 of 3")


def test_color_follows_the_color_option(pytester, server) -> None:
    server.facts(**TESLA_FACTS)
    pytester.makepyfile(test_a=HEADER + "def test_bad():\n    assert_faithful(MIXED, CTX)\n")
    colored = run(pytester, server, "--color=yes").stdout.str()
    row = next(line for line in colored.splitlines() if "test_a.py::test_bad" in line and "faithful" in line)
    assert "\x1b[31m" in row  # red
    plain = run(pytester, server, "--color=no").stdout.str()
    assert "\x1b[" not in plain


def test_failure_message_reads_like_a_pytest_failure(pytester, server) -> None:
    long_claim = "The Roadster " + "was very fast and " * 20 + "sold well."
    server.facts(**TESLA_FACTS)
    pytester.makepyfile(test_a=HEADER + f"""
LONG = {long_claim!r}

def test_faithful():
    # the supported claim comes first in the output, but is listed after the unsupported ones
    assert_faithful(HALF + " " + LONG, CTX, min_score=0.8)

def test_hallucinated():
    assert_not_hallucinated(HALF, CTX, max_score=0.25)
""")
    result = run(pytester, server)
    result.assert_outcomes(failed=2)
    text = result.stdout.str()
    start = text.index("AssertionError: faithfulness score 0.33 is below min_score 0.80 (judge: openai/test-judge)")
    block = text[start:text.index("test_a.py:", start)]
    assert "reason: 0.33 — 1 of 3 claims supported by the context; not supported:" in block
    assert "claims, unsupported first:" in block
    order = [block.index(s) for s in ("✗ no     'Elon Musk founded Tesla.'", "✗ unsure 'The Roadster was very fast",
                                      "✓ yes    'Tesla was founded in 2003.'")]
    assert order == sorted(order)
    assert "scripted: Elon Musk founded Tesla." in block
    assert long_claim not in block and "…" in block  # long texts are shortened
    assert "hallucination score 0.50 is above max_score 0.25" in text
    hall = text[text.index("hallucination score 0.50 is above"):]
    assert hall.index("✗ yes    'Elon Musk founded Tesla.'") < hall.index("✓ no     'Tesla was founded in 2003.'")


@pytest.mark.parametrize("fault, step, seconds, message", [
    ("500", None, 0, r"failed at step 'claims' after 1 attempt\(s\): InternalServerError"),
    ("malformed", "verdicts", 0, r"gave no valid answer at step 'verdicts' after 3 attempts"),
    ("delay", None, 3, r"failed at step 'claims' after 1 attempt\(s\): Timeout: .*Fix: raise --llm-judge-timeout"),
])
def test_judge_failure_is_an_error_never_a_failure_or_pass(pytester, server, fault, step, seconds, message) -> None:
    server.facts(**TESLA_FACTS)
    server.fail(fault, step=step, times=99, seconds=seconds)
    pytester.makepyfile(test_a=HEADER + """
def test_would_pass():
    assert_faithful(GOOD, CTX, min_score=0.0)

def test_judge_error_is_not_an_assertion_error():
    with pytest.raises(AssertionError):
        assert_not_hallucinated(MIXED, CTX)
""")
    result = run(pytester, server, "--llm-judge-retries=0", "--llm-judge-timeout=0.3", "-rA",
                 "--llm-report=report.json")
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
                   "--llm-judge-api-base=", "--llm-judge-model=local", "llmfaith-install-model"):
        assert needle in text, needle
    assert not (pytester.path / ".llmfaith_cache").exists()


# -- outputs -------------------------------------------------------------------------------------

def test_json_report_and_github_step_summary(pytester, server, monkeypatch) -> None:
    server.facts(**TESLA_FACTS)
    summary = pytester.path / "step_summary.md"
    summary.write_text("earlier step\n")
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    pytester.makepyfile(test_a=HEADER + """
def test_good():
    assert_faithful(GOOD, CTX)

def test_bad():
    assert_not_hallucinated(MIXED, CTX)
""")
    result = run(pytester, server, "--llm-report=out/llm.json")
    result.assert_outcomes(passed=1, failed=1)
    data = json.loads((pytester.path / "out" / "llm.json").read_text())
    assert data["version"] == 1
    assert data["totals"]["scores"] == 2 and data["totals"]["passed"] == 1 and data["totals"]["failed"] == 1
    assert data["totals"]["judge_calls"] == 4 and data["totals"]["tokens"] > 0
    good, bad = data["results"]
    assert (good["test_id"], good["threshold"], good["passed"]) == ("test_a.py::test_good", 0.7, True)
    assert good["result"]["scorer"] == "faithfulness" and good["result"]["score"] == 1.0
    assert (bad["test_id"], bad["threshold"], bad["passed"]) == ("test_a.py::test_bad", 0.3, False)
    r = bad["result"]
    assert r["scorer"] == "hallucination" and r["score"] == 0.67 and r["context"][0] == "Tesla was founded in 2003."
    assert r["claims"] == ["Tesla was founded in 2003.", "Elon Musk founded Tesla.", "Tesla is based on Mars."]
    assert [v["verdict"] for v in r["verdicts"]] == ["no", "yes", "yes"]
    assert r["verdicts"][1]["reason"] == "scripted: Elon Musk founded Tesla."
    assert r["reason"].startswith("0.67 — 2 of 3 claims not supported")
    call = r["judge_calls"][0]
    assert call["step"] == "claims" and call["cached"] is False and call["prompt_tokens"] > 0
    md = summary.read_text()
    assert md.startswith("earlier step\n### pytest-llmfaith")
    assert "| `test_a.py::test_bad` | hallucination | 0.67 | <= 0.30 | ❌ fail |" in md


def test_junit_xml_carries_the_scores(pytester, server) -> None:
    server.facts(**TESLA_FACTS)
    pytester.makepyfile(test_a=HEADER + """
def test_good(llm_judge):
    assert_faithful(GOOD, CTX)
    assert_not_hallucinated(HALF, CTX, max_score=0.5, label="half")
    llm_judge.faithfulness(HALF, CTX, label="raw")

def test_bad():
    assert_faithful(MIXED, CTX)
""")
    result = run(pytester, server, "--junitxml=junit.xml")
    result.assert_outcomes(passed=1, failed=1)
    cases = {c.get("name"): c for c in ET.parse(pytester.path / "junit.xml").iter("testcase")}
    props = {name: [(p.get("name"), p.get("value")) for p in case.iter("property")] for name, case in cases.items()}
    assert props["test_good"] == [
        ("llmfaith.faithfulness.score", "1.0"), ("llmfaith.faithfulness.threshold", "0.7"),
        ("llmfaith.faithfulness.passed", "True"), ("llmfaith.faithfulness.status", "PASS"),
        ("llmfaith.hallucination[half].score", "0.5"), ("llmfaith.hallucination[half].threshold", "0.5"),
        ("llmfaith.hallucination[half].passed", "True"), ("llmfaith.hallucination[half].status", "PASS"),
        ("llmfaith.faithfulness[raw].score", "0.5"), ("llmfaith.faithfulness[raw].status", "NO THRESHOLD"),
    ]
    assert props["test_bad"] == [("llmfaith.faithfulness.score", "0.33"), ("llmfaith.faithfulness.threshold", "0.7"),
                                 ("llmfaith.faithfulness.passed", "False"), ("llmfaith.faithfulness.status", "FAIL")]


# -- gates -------------------------------------------------------------------------------------

def test_baseline_update_then_regression_fails_the_session(pytester, server) -> None:
    server.facts(**TESLA_FACTS)
    pytester.makepyfile(test_a=HEADER + """
def test_stable():
    assert_faithful(GOOD, CTX)

def test_drifts():
    assert_faithful(GOOD, CTX, min_score=0.3)
    assert_not_hallucinated(GOOD, CTX, max_score=0.7)
""")
    result = run(pytester, server, "--llm-baseline=ci/baseline.json", "--llm-baseline-update")
    assert result.ret == 0
    text = (pytester.path / "ci" / "baseline.json").read_text()
    data = json.loads(text)
    assert text == json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n"  # stable diffs
    assert data["version"] == 2
    assert {key: entry["score"] for key, entry in data["assertions"].items()} == {
        "test_a.py::test_drifts [faithfulness]": 1.0, "test_a.py::test_drifts [hallucination]": 0.0,
        "test_a.py::test_stable [faithfulness]": 1.0}
    assert data["assertions"]["test_a.py::test_drifts [hallucination]"] == {"scorer": "hallucination", "score": 0.0,
        "claims": [{"claim": "Tesla was founded in 2003.", "verdict": "no",
                    "reason": "scripted: Tesla was founded in 2003."},
                   {"claim": "The first Tesla car was the Roadster.", "verdict": "no",
                    "reason": "scripted: The first Tesla car was the Roadster."}]}
    assert any("baseline written to" in line and "(3 scores)" in line for line in section(result))

    same = run(pytester, server, "--llm-baseline=ci/baseline.json")
    assert same.ret == 0
    assert "llmfaith: baseline compared: 3 scores, 0 regressions" in section(same)

    # the model under test got worse: the assertions still pass their own thresholds
    pytester.makepyfile(test_a=HEADER + """
def test_stable():
    assert_faithful(GOOD, CTX)

def test_drifts():
    assert_faithful(MIXED, CTX, min_score=0.3)
    assert_not_hallucinated(HALF, CTX, max_score=0.7)
""")
    worse = run(pytester, server, "--llm-baseline=ci/baseline.json", "-rfE")
    worse.assert_outcomes(passed=2)
    assert worse.ret == pytest.ExitCode.TESTS_FAILED
    lines = section(worse)
    assert [r[:5] for r in rows(worse)] == [["test_a.py::test_stable", "faithful", "1.00", ">=0.70", "PASS"],
                                            ["test_a.py::test_drifts", "faithful", "0.33", ">=0.30", "REGRESSED"],
                                            ["test_a.py::test_drifts", "halluc", "0.50", "<=0.70", "REGRESSED"]]
    at = lines.index("llmfaith gate FAILED: baseline regression test_a.py::test_drifts [faithfulness]: 1.00 -> 0.33 "
                     "(-0.67, tolerance 0.05)")
    assert lines[at + 1:at + 4] == [  # what changed, the claims that hurt first
        '    appeared (no): "Elon Musk founded Tesla." — scripted: Elon Musk founded Tesla.',
        '    appeared (unsure): "Tesla is based on Mars." — scripted: Tesla is based on Mars.',
        '    disappeared (was yes): "The first Tesla car was the Roadster."']
    assert "llmfaith gate FAILED: baseline regression test_a.py::test_drifts [hallucination]: 0.00 -> 0.50 " \
           "(+0.50, tolerance 0.05)" in lines
    assert not any("test_stable" in line and "gate FAILED" in line for line in lines)
    assert "llmfaith: baseline compared: 3 scores, 2 regressions" in lines
    assert any(x.startswith("llmfaith: 3 scores (1 passed, 0 failed, 2 regressed);") for x in lines)
    # pytest's own closing lines say it too: the short summary, and the last line is not "2 passed"
    tail = worse.outlines[worse.outlines.index(next(x for x in worse.outlines if "short test summary" in x)):]
    assert tail[1].startswith("FAILED llmfaith gate - baseline regression test_a.py::test_drifts [faithfulness]")
    assert tail[2].startswith("FAILED llmfaith gate - baseline regression test_a.py::test_drifts [hallucination]")
    assert re.match(r"^=+ 2 passed, 2 llmfaith gate failed in ", tail[3]), tail[3]

    tolerant = run(pytester, server, "--llm-baseline=ci/baseline.json", "--llm-baseline-tolerance=0.7")
    assert tolerant.ret == 0


def test_missing_baseline_fails_with_the_fix(pytester, server) -> None:
    server.facts(**TESLA_FACTS)
    pytester.makepyfile(test_a=HEADER + "def test_good():\n    assert_faithful(GOOD, CTX)\n")
    result = run(pytester, server, "--llm-baseline=nope.json")
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    assert "does not exist. Fix: create it once with --llm-baseline-update" in result.stdout.str()


def test_mean_gates(pytester, server) -> None:
    server.facts(**TESLA_FACTS)
    pytester.makepyfile(test_a=HEADER + """
def test_one():
    assert_faithful(GOOD, CTX)
    assert_not_hallucinated(GOOD, CTX)

def test_two():
    assert_faithful(MIXED, CTX, min_score=0.3)
    assert_not_hallucinated(HALF, CTX, max_score=0.5)
""")
    ok = run(pytester, server, "--llm-min-mean-faithfulness=0.6", "--llm-max-mean-hallucination=0.3")
    assert ok.ret == 0 and "gate FAILED" not in ok.stdout.str()
    result = run(pytester, server, "--llm-min-mean-faithfulness=0.7", "--llm-max-mean-hallucination=0.2")
    result.assert_outcomes(passed=2)
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    lines = section(result)
    assert "llmfaith gate FAILED: mean faithfulness 0.665 is below the gate 0.70 over 2 scores" in lines
    assert "llmfaith gate FAILED: mean hallucination 0.250 is above the gate 0.20 over 2 scores" in lines


def test_deliberate_failures_in_xfail_tests_are_shown_but_not_gated(pytester, server) -> None:
    server.facts(**TESLA_FACTS)
    pytester.makepyfile(test_a=HEADER + """
def test_good():
    assert_faithful(GOOD, CTX)

@pytest.mark.xfail(reason="demonstrates a failing check", strict=True)
def test_known_bad():
    assert_faithful(MIXED, CTX)
""")
    baseline = pytester.path / "baseline.json"
    run(pytester, server, f"--llm-baseline={baseline}", "--llm-baseline-update")
    assert list(json.loads(baseline.read_text())["assertions"]) == ["test_a.py::test_good [faithfulness]"]
    result = run(pytester, server, "--llm-min-mean-faithfulness=0.9", f"--llm-baseline={baseline}")
    result.assert_outcomes(passed=1, xfailed=1)
    assert result.ret == 0, result.stdout.str()
    assert [r[:5] for r in rows(result)] == [["test_a.py::test_good", "faithful", "1.00", ">=0.70", "PASS"],
                                             ["test_a.py::test_known_bad", "faithful", "0.33", ">=0.70", "XFAIL"]]
    assert any("1 scores" not in x and "(1 passed, 0 failed, 1 xfailed)" in x for x in section(result))


# -- marker, fixture, hooks --------------------------------------------------------------------

def test_marker_sets_model_and_thresholds_per_test_and_module(pytester, server) -> None:
    server.facts(**TESLA_FACTS)
    pytester.makepyfile(test_mod=HEADER + """
pytestmark = pytest.mark.llmfaith(min_faithfulness=0.3, max_hallucination=0.7)

def test_module_thresholds():
    assert_faithful(MIXED, CTX)
    assert_not_hallucinated(MIXED, CTX)

@pytest.mark.llmfaith(min_faithfulness=0.9, model="openai/other-judge")
def test_own_threshold_and_model():
    assert_faithful(HALF, CTX)

@pytest.mark.llmfaith(model="openai/third-judge")
def test_model_only_keeps_the_module_thresholds():
    assert_not_hallucinated(MIXED, CTX)

def test_explicit_threshold_wins():
    assert_faithful(MIXED, CTX, min_score=0.34)
""", test_plain=HEADER + """
def test_defaults():
    assert_faithful(HALF, CTX)

@pytest.mark.llmfaith(min_score=0.1)
def test_unknown_marker_argument_is_an_error():
    assert_faithful(HALF, CTX)
""")
    result = run(pytester, server)
    result.assert_outcomes(passed=2, failed=3, errors=1)
    got = {(r[0], r[1]): r[3:5] for r in rows(result)}
    assert got == {
        ("test_mod.py::test_module_thresholds", "faithful"): [">=0.30", "PASS"],
        ("test_mod.py::test_module_thresholds", "halluc"): ["<=0.70", "PASS"],
        ("test_mod.py::test_own_threshold_and_model", "faithful"): [">=0.90", "FAIL"],
        ("test_mod.py::test_model_only_keeps_the_module_thresholds", "halluc"): ["<=0.70", "PASS"],
        ("test_mod.py::test_explicit_threshold_wins", "faithful"): [">=0.34", "FAIL"],
        ("test_plain.py::test_defaults", "faithful"): [">=0.70", "FAIL"],
    }
    models = [c["body"]["model"] for c in server.calls()]
    assert models.count("other-judge") == 2 and models.count("third-judge") == 2
    assert models.count("test-judge") == 8
    text = result.stdout.str()
    assert "(judge: openai/other-judge)" in text
    assert "the llmfaith marker takes keyword arguments model, min_faithfulness, max_hallucination, " \
           "no_claims; got unknown min_score" in text


def test_fixture_offers_assertions_and_raw_scorers(pytester, server) -> None:
    server.facts(**TESLA_FACTS)
    pytester.makepyfile(test_a=HEADER + """
def test_raw_scores(llm_judge):
    f = llm_judge.faithfulness(MIXED, CTX)
    h = llm_judge.hallucination(MIXED, CTX)
    assert (f.scorer, f.score, h.scorer, h.score) == ("faithfulness", 0.33, "hallucination", 0.67)
    assert [v.verdict for v in f.verdicts] == ["yes", "no", "unsure"]
    assert f.claims[1] == "Elon Musk founded Tesla."

def test_fixture_assertions(llm_judge):
    result = llm_judge.assert_faithful(GOOD, CTX)
    assert result.score == 1.0
    llm_judge.assert_not_hallucinated(MIXED, CTX, max_score=0.5)
""")
    result = run(pytester, server, "--llm-report=r.json")
    result.assert_outcomes(passed=1, failed=1)
    assert "hallucination score 0.67 is above max_score 0.50" in result.stdout.str()
    # raw scores are recorded too: a row without threshold, and their judge calls in the totals
    assert [r[:5] for r in rows(result)] == [
        ["test_a.py::test_raw_scores", "faithful", "0.33", "-", "NO_THRESHOLD"],
        ["test_a.py::test_raw_scores", "halluc", "0.67", "-", "NO_THRESHOLD"],
        ["test_a.py::test_fixture_assertions", "faithful", "1.00", ">=0.70", "PASS"],
        ["test_a.py::test_fixture_assertions", "halluc", "0.67", "<=0.50", "FAIL"]]
    assert len(server.calls()) == 8
    assert section(result)[-1].startswith("llmfaith: 4 scores (1 passed, 1 failed, 2 without threshold); "
                                          "judge calls 8 (0 cached, 8 new)")
    raw = json.loads((pytester.path / "r.json").read_text())["results"][0]
    assert (raw["threshold"], raw["passed"], raw["outcome"]) == (None, None, "NO THRESHOLD")


def test_own_hooks_see_every_score_and_the_report_once(pytester, server) -> None:
    server.facts(**TESLA_FACTS)
    pytester.makeconftest("""
import json

SEEN = []

def pytest_llmfaith_scored(assessment, config):
    SEEN.append((assessment.test_id, assessment.result.scorer, assessment.result.score, assessment.passed))

def pytest_llmfaith_report(report, config):
    with open("hooks.json", "a") as fh:
        fh.write(json.dumps({"seen": SEEN, "report": [a.test_id for a in report.assessments],
                             "totals": report.totals.scores}) + "\\n")
""")
    pytester.makepyfile(test_a=HEADER + """
def test_good():
    assert_faithful(GOOD, CTX)

def test_bad():
    assert_faithful(MIXED, CTX)
    assert_not_hallucinated(GOOD, CTX)  # never reached

def test_not_scored():
    pass
""")
    result = run(pytester, server)
    result.assert_outcomes(passed=2, failed=1)
    calls = (pytester.path / "hooks.json").read_text().splitlines()
    assert len(calls) == 1  # the report hook ran once
    data = json.loads(calls[0])
    assert data["seen"] == [["test_a.py::test_good", "faithfulness", 1.0, True],
                            ["test_a.py::test_bad", "faithfulness", 0.33, False]]
    assert data["report"] == ["test_a.py::test_good", "test_a.py::test_bad"] and data["totals"] == 2


def test_scores_in_fixtures_are_attributed_to_their_test(pytester, server) -> None:
    server.facts(**TESLA_FACTS)
    pytester.makepyfile(test_a=HEADER + """
@pytest.fixture
def checked_answer():
    assert_faithful(GOOD, CTX)
    yield GOOD
    assert_not_hallucinated(GOOD, CTX)

@pytest.mark.llmfaith(min_faithfulness=0.95)
def test_uses_fixture(checked_answer):
    assert checked_answer
""")
    result = run(pytester, server, "--llm-report=r.json")
    result.assert_outcomes(passed=1)
    got = [(a["test_id"], a["result"]["scorer"], a["threshold"])
           for a in json.loads((pytester.path / "r.json").read_text())["results"]]
    assert got == [("test_a.py::test_uses_fixture", "faithfulness", 0.95),
                   ("test_a.py::test_uses_fixture", "hallucination", 0.3)]


def test_scores_from_threads_of_a_test_are_attributed_to_it(pytester, server) -> None:
    server.facts(**TESLA_FACTS)
    pytester.makepyfile(test_a=HEADER + """
from concurrent.futures import ThreadPoolExecutor

@pytest.mark.llmfaith(min_faithfulness=0.5)
def test_parallel_cases():
    with ThreadPoolExecutor(2) as pool:
        scores = list(pool.map(lambda out: assert_faithful(out, CTX).score, [GOOD, HALF]))
    assert scores == [1.0, 0.5]
""")
    result = run(pytester, server)
    result.assert_outcomes(passed=1)
    assert sorted(r[1:5] for r in rows(result)) == [  # the threads finish in any order
        ["faithful", "0.50", ">=0.50", "PASS"], ["faithful", "1.00", ">=0.50", "PASS"]]
    assert sorted(r[0] for r in rows(result)) == ["test_a.py::test_parallel_cases",
                                                  "test_a.py::test_parallel_cases #2"]


def test_a_nested_pytester_run_leaves_the_outer_settings_active(pytester, server) -> None:
    """A suite that tests its own pytest plugin with pytester can still score after an inner run."""
    server.facts(**TESLA_FACTS)
    pytester.makepyfile(test_a=HEADER + """
def test_outer(pytester):
    pytester.makepyfile(test_inner="def test_inner():\\n    pass\\n")
    pytester.runpytest("-p", "no:cacheprovider").assert_outcomes(passed=1)
    assert_faithful(GOOD, CTX)  # still the outer run's judge model and api base
""")
    result = run(pytester, server, "-p", "pytester")
    result.assert_outcomes(passed=1)
    assert [r[:5] for r in rows(result)] == [["test_a.py::test_outer", "faithful", "1.00", ">=0.70", "PASS"]]
