"""A scorer of one's own: registered through the pytest_llmfaith_register_scorers hook, used through
the llm_judge fixture, judged over real HTTP, and reported like the built-in two."""

from __future__ import annotations

import json

import pytest
from plugin_helpers import HEADER, run, run_suite, section

from pytest_llmfaith import Scorer, ScoreResult
from pytest_llmfaith.scorers import ScorerRegistry, builtin

# The share of the context the output leaves out: each passage is asked about (one judge call per
# passage, the server's "is the claim supported" answer), lower is better.
OMISSIONS = '''
from pydantic import BaseModel
from pytest_llmfaith import Scorer, Verdict
from pytest_llmfaith.scorers.claims import fence


class Covered(BaseModel):
    verdict: str
    reason: str = ""


class Omissions(Scorer):
    name = "omissions"
    higher_is_better = False

    def measure(self, output, context, input, scale):
        asked = [[{"role": "system", "content": "You compare an OUTPUT with a passage."},
                  {"role": "user", "content": fence("output", output) + "\\nDoes the OUTPUT state this?\\n"
                   + fence("claim", passage) + '\\nAnswer with JSON: {"verdict": "yes" | "no", "reason": "..."}'}]
                 for passage in context]
        answers = self.judge.ask_each("coverage", asked, Covered, "omissions-1")
        verdicts = [Verdict(statement=p, verdict="no" if a.verdict == "yes" else "yes", reason=a.reason)
                    for p, (a, _) in zip(context, answers)]
        left_out = sum(v.verdict == "yes" for v in verdicts)
        return self.result(score=round(left_out / len(context) * scale, 2) if context else 0.0,
                           reason=f"{left_out} of {len(context)} passages left out", output=output,
                           context=context, input=input, scale=scale, verdicts=verdicts,
                           judge_calls=[call for _, call in answers])


class StrictOmissions(Omissions):
    name = "strict_omissions"
    default_threshold = 0.2


def pytest_llmfaith_register_scorers(register):
    register(Omissions)
    register(StrictOmissions)
'''


def test_a_registered_scorer_is_asserted_reported_and_baselined_like_the_built_ins(pytester, server) -> None:
    # the server says a passage is "supported" when it is in the script: two of three are covered
    server.facts(supported=["Tesla was founded in 2003.", "The first Tesla car was the Roadster."])
    pytester.makeconftest(OMISSIONS)
    pytester.makepyfile(test_a=HEADER + """
def test_covers_enough(llm_judge):
    result = llm_judge.assert_score("omissions", GOOD, CTX, threshold=0.4)   # 0.33 <= 0.40
    assert result.scorer == "omissions" and not result.higher_is_better

def test_covers_too_little(llm_judge):
    llm_judge.with_defaults(max_score=0.2).assert_score("omissions", GOOD, CTX, label="strict")

def test_raw(llm_judge):
    assert llm_judge.score("omissions", GOOD, CTX).scorer == "omissions"
""")
    result = run(pytester, server, "--llm-report=report.json", "--llm-baseline=baseline.json",
                 "--llm-baseline-update")
    result.assert_outcomes(passed=2, failed=1)
    text = result.stdout.str()
    assert "omissions [strict] score 0.33 is above threshold 0.20 (judge: openai/test-judge)" in text
    assert "  ✗ yes 'Elon Musk joined Tesla in 2004.'" in text  # the passage left out, first
    table = section(result)
    assert [line.split()[:6] for line in table[1:4]] == [
        ["test_a.py::test_covers_enough", "omissions", "0.33", "<=0.40", "PASS", "3"],
        ["test_a.py::test_covers_too_little", "[strict]", "omissions", "0.33", "<=0.20", "FAIL"],
        ["test_a.py::test_raw", "omissions", "0.33", "-", "NO", "THRESHOLD"]]
    assert len(server.calls()) == 9  # one judge call per passage, three checks
    report = json.loads((pytester.path / "report.json").read_text())
    assert [(r["key"], r["result"]["higher_is_better"], r["outcome"]) for r in report["results"]] == [
        ("test_a.py::test_covers_enough [omissions]", False, "PASS"),
        ("test_a.py::test_covers_too_little [strict] [omissions]", False, "FAIL"),
        ("test_a.py::test_raw [omissions]", False, "NO THRESHOLD")]
    baseline = json.loads((pytester.path / "baseline.json").read_text())["assertions"]
    assert baseline["test_a.py::test_covers_enough [omissions]"]["scorer"] == "omissions"

    # a passage no longer covered: higher is worse for this scorer, so the baseline gate fails
    server.reset()
    server.facts(supported=["Tesla was founded in 2003."])
    result = run(pytester, server, "--llm-baseline=baseline.json", "-k", "test_raw")
    result.assert_outcomes(passed=1)
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    lines = section(result)
    at = lines.index("llmfaith gate FAILED: baseline regression test_a.py::test_raw [omissions]: 0.33 -> 0.67 "
                     "(+0.34, tolerance 0.05)")
    assert lines[at + 1].startswith('    newly unsupported (no -> yes): "The first Tesla car was the Roadster."')


def test_a_built_in_scorer_by_name_and_an_unknown_name(pytester, server) -> None:
    result = run_suite(pytester, server, "-s", test_a=HEADER + """
import pytest

def test_by_name(llm_judge):
    llm_judge.assert_score("faithfulness", HALF, CTX)      # the llm_min_faithfulness default, 0.70

def test_unknown(llm_judge):
    with pytest.raises(ValueError) as err:
        llm_judge.assert_score("faithfulnes", GOOD, CTX, threshold=0.5)
    print("MESSAGE", err.value)
""")
    result.assert_outcomes(passed=1, failed=1)
    assert "faithfulness score 0.50 is below min_score 0.70" in result.stdout.str()
    assert ("llmfaith: no scorer is named 'faithfulnes'; registered: faithfulness, hallucination. Fix: check "
            "the name, or register the scorer with the pytest_llmfaith_register_scorers hook") in result.stdout.str()


def test_a_scorer_without_a_default_threshold_needs_one(pytester, server) -> None:
    pytester.makeconftest(OMISSIONS)
    result = run_suite(pytester, server, test_a=HEADER + """
def test_no_threshold(llm_judge):
    llm_judge.assert_score("omissions", GOOD, CTX)
""")
    result.assert_outcomes(failed=1)
    assert ("llmfaith: scorer 'omissions' has no default threshold. Fix: pass threshold=... (or min_score / "
            "max_score to llm_judge.with_defaults), or set default_threshold on Omissions.") in result.stdout.str()
    assert server.calls() == []


def test_a_scorer_with_a_default_threshold_uses_it(pytester, server) -> None:
    server.facts(supported=["Tesla was founded in 2003."])  # one passage of three is stated: two left out
    pytester.makeconftest(OMISSIONS)
    pytester.makepyfile(test_a=HEADER + """
def test_default(llm_judge):
    llm_judge.assert_score("strict_omissions", GOOD, CTX)
""")
    result = run(pytester, server)
    result.assert_outcomes(failed=1)
    assert "strict_omissions score 0.67 is above threshold 0.20" in result.stdout.str()


class _Mislabelled(Scorer):
    name = "mislabelled"

    def measure(self, output, context, input, scale):
        return ScoreResult(scorer="faithfulness", run_id="x", score=1.0, reason="", output=output, context=context)


def test_a_result_must_be_the_scorers_own(make_judge) -> None:
    with pytest.raises(TypeError, match=r"scorer 'mislabelled' returned a result of 'faithfulness' "
                                        r"\(higher_is_better=True\)\. Fix: build it with self\.result"):
        _Mislabelled(make_judge()).run("Tesla was founded in 2003.", ["Tesla was founded in 2003."])


class _Tone(Scorer):
    name = "tone"


class _OtherTone(Scorer):
    name = "tone"


class _Bad(Scorer):
    name = "Tone Check"


def test_the_registry_refuses_what_it_could_not_report() -> None:
    registry = ScorerRegistry()
    builtin(registry.register)
    registry.register(_Tone)
    registry.register(_Tone)  # the same class twice: a conftest imported twice is harmless
    assert registry.get("tone") is _Tone and registry.get("hallucination").higher_is_better is False
    with pytest.raises(ValueError, match=r"two scorers are named 'tone': test_custom_scorer\._Tone and "
                                         r"test_custom_scorer\._OtherTone\. Fix: give one of them another name"):
        registry.register(_OtherTone)
    with pytest.raises(ValueError, match="has name 'Tone Check'; a scorer's name is lower case letters"):
        registry.register(_Bad)
    with pytest.raises(TypeError, match="register\\(\\) takes a subclass of pytest_llmfaith.Scorer"):
        registry.register(len)  # type: ignore[arg-type]
