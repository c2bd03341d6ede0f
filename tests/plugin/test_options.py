"""Options end to end: help, precedence CLI > env > ini > default, bad values, cache and reason options."""

from __future__ import annotations

import re

import pytest
from plugin_helpers import HEADER, TESLA_FACTS, rows, run, run_suite, section

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
    s = pytestconfig.pluginmanager.get_plugin("llmfaith-run").run.session.settings
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


def test_one_idle_timeout_for_both_services_its_old_names_still_read(tmp_path) -> None:
    """--llm-idle-timeout is the relay's and the offline judge server's; the variables each had
    before are deprecated names of it, and the new one wins over them."""
    from pytest_llmfaith.settings import resolve

    def idle(environ: dict[str, str], ini: str | None = None, cli: str | None = None) -> float:
        return resolve(lambda name: cli if name == "llm_idle_timeout" else None,
                       lambda name: ini if name == "llm_idle_timeout" else None, environ, tmp_path).idle_timeout

    assert idle({}) == 120.0
    assert idle({}, ini="60") == 60.0
    assert idle({"LLMFAITH_RELAY_IDLE_TIMEOUT": "0"}, ini="60") == 0.0
    assert idle({"LLMFAITH_LOCAL_IDLE_TIMEOUT": "5"}) == 5.0
    assert idle({"LLMFAITH_RELAY_IDLE_TIMEOUT": "0", "LLMFAITH_IDLE_TIMEOUT": "30"}) == 30.0
    assert idle({"LLMFAITH_LOCAL_IDLE_TIMEOUT": "5", "LLMFAITH_IDLE_TIMEOUT": "30"}) == 30.0
    assert idle({"LLMFAITH_IDLE_TIMEOUT": "30"}, cli="1") == 1.0
    with pytest.raises(ValueError, match="environment variable LLMFAITH_LOCAL_IDLE_TIMEOUT = 'soon'"):
        idle({"LLMFAITH_LOCAL_IDLE_TIMEOUT": "soon"})


def test_precedence_decides_the_threshold_used(pytester: pytest.Pytester, server, monkeypatch) -> None:
    """End to end: the same 0.50 score passes or fails depending on which source set the default."""
    pytester.makepyprojecttoml("[tool.pytest.ini_options]\nllm_min_faithfulness = 0.4\n")
    result = run_suite(pytester, server, test_a=HEADER + "def test_half():\n    assert_faithful(HALF, CTX)\n")
    result.assert_outcomes(passed=1)
    assert rows(result)[0][:5] == ["test_a.py::test_half", "faithful", "0.50", ">=0.40", "PASS"]  # ini 0.4
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
    server.script.reason_text = '{"reason": "Musk did not found Tesla; Mars is not in the context."}'
    pytester.makeini("[pytest]\nllm_reason = llm\n")
    result = run_suite(pytester, server, test_a=HEADER + "def test_bad():\n    assert_faithful(MIXED, CTX)\n")
    result.assert_outcomes(failed=1)
    assert "reason: Musk did not found Tesla; Mars is not in the context." in result.stdout.str()
    assert "FAIL test_a.py::test_bad [faithfulness]: Musk did not found Tesla; Mars is not in the context." \
        in section(result)
    # claims, verdicts (with the narrow questions), the reason
    assert len(server.calls("reason")) == 1 and rows(result)[0][5] == "3"
