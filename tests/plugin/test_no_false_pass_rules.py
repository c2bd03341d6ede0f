"""No false pass by rule, not by list (issue 32, items 1, 2 and 4), in real pytest runs against the
loopback judge over HTTP: a judge that restates the output with a qualifier or without its negation,
in English for a Japanese answer, or that calls an unknown product supported, fails the test."""

from __future__ import annotations

import json

import pytest
from plugin_helpers import rows, run

# (output, the judge's claim, the context that makes the claim true and the output false)
CASES = {
    "plus": ("Acme employs 40 people.", "Acme employs 40+ people.", "Acme employs 400 people."),
    "upwards": ("Acme employs 40 people.", "Acme employs upwards of 40 people.", "Acme employs 400 people."),
    "zh_duo": ("公司有40名员工。", "公司有40多名员工。", "公司有400名员工。"),
    "ko_yeo": ("회사는 직원 40명을 고용합니다.", "회사는 직원 40여 명을 고용합니다.",
               "회사는 직원 400명을 고용합니다."),
    "ru_ne": ("Приложение не поддерживает Android.", "Приложение поддерживает Android.",
              "Приложение поддерживает Android и iOS."),
    "ja_mi": ("AquaBrewはAndroidに未対応です。", "AquaBrewはAndroidに対応しています。",
              "AquaBrewはAndroidに対応しています。"),
    "vi_khong": ("Ứng dụng không hỗ trợ Android.", "Ứng dụng hỗ trợ Android.", "Ứng dụng hỗ trợ Android và iOS."),
    "ja_english_claim": ("AquaBrew Miniは税込み29,800円です。", "The AquaBrew Mini costs 29,800 yen including tax.",
                         "AquaBrew Proは税込み29,800円です。"),
}


def _suite() -> str:
    tests = "".join(f"""
def test_{name}():
    assert_faithful({output!r}, [{context!r}], min_score=0.9)
    assert_not_hallucinated({output!r}, [{context!r}], max_score=0.1)
""" for name, (output, _, context) in CASES.items())
    return "from pytest_llmfaith import assert_faithful, assert_not_hallucinated\n" + tests


# Claims whose words the output has in its order, its negation left out between them: judged as
# those words (their gap marked), read in their sentence, and the sentence asked whether it says
# more. The offline judge, asked so about ten such claims in eight languages, never supported the
# words (P 0.13-0.32) and always said the sentence says more (benchmarks/HISTORY.md, round 12).
GAPPED = {"ru_ne": "Приложение … поддерживает Android", "vi_khong": "Ứng dụng … hỗ trợ Android"}


@pytest.mark.parametrize("verdicts", ["label", "all"])
def test_claims_that_are_not_the_outputs_never_turn_a_test_green(pytester, server, verdicts):
    """Every claim is supported by its context, and is not what the output says: each test fails,
    because what is judged is the output's own words: its sentence, or the claim's words with the
    negation's gap marked beside it (the fake supports only the claims as the judge wrote them)."""
    server.facts(claims={output: [claim] for output, claim, _ in CASES.values()},
                 supported=[claim for _, claim, _ in CASES.values()],
                 says_more=[CASES[name][0] for name in GAPPED])
    pytester.makepyfile(test_a=_suite())
    result = run(pytester, server, f"--llm-judge-verdicts={verdicts}", "--llm-report=r.json")
    result.assert_outcomes(failed=len(CASES))
    reported = json.loads((pytester.path / "r.json").read_text())["results"]
    for entry in reported:
        output, name = entry["result"]["output"], entry["test_id"].split("::test_", 1)[1]
        expected = [GAPPED[name], output] if name in GAPPED else [output]  # the output's words only
        assert entry["result"]["claims"] == expected, entry["test_id"]


def test_a_name_the_context_never_gives_is_not_supported_whatever_the_judge_says(pytester, server):
    """The AquaBrew false pass: the judge's own verdict on the sentence was "supported" (P 0.73)."""
    output = "AquaBrew Miniは税込み29,800円です。"
    faithful = "AquaBrew Proは税込み29,800円です。"
    server.facts(claims={output: [output], faithful: [faithful]}, supported=[output, faithful], unnamed=["mini"])
    pytester.makepyfile(test_a=f"""
from pytest_llmfaith import assert_faithful, assert_not_hallucinated
CONTEXT = ["AquaBrew Proは税込み29,800円です。Androidに対応しています。"]

def test_wrong_product():
    assert_not_hallucinated({output!r}, CONTEXT, max_score=0.1)

def test_right_product():
    assert_faithful({faithful!r}, CONTEXT, min_score=0.9)
""")
    result = run(pytester, server, "--llm-report=r.json")
    result.assert_outcomes(passed=1, failed=1)
    assert [r[:3] for r in rows(result)] == [["test_a.py::test_wrong_product", "halluc", "1.00"],
                                             ["test_a.py::test_right_product", "faithful", "1.00"]]
    reason = json.loads((pytester.path / "r.json").read_text())["results"][0]["result"]["verdicts"][0]["reason"]
    assert reason.startswith("not in the context: it never writes “mini”, “aquabrew mini”, and asked whether it "
                             "gives them")


REFUSALS = ["申し訳ありませんが、その情報は資料に記載されていません。", "죄송하지만 해당 정보는 문서에 없습니다.",
            "抱歉，文档中没有相关信息。", "Извините, в документах нет такой информации.",
            "Lo siento, no encuentro esa información en los documentos.", "Xin lỗi, tài liệu không có thông tin này."]


def test_a_refusal_in_any_language_is_no_claims_when_the_judge_says_so(pytester, server):
    server.facts(claims={r: [] for r in REFUSALS})
    tests = "".join(f"""
def test_{i}():
    assert_not_hallucinated({r!r}, CTX, no_claims="pass")
""" for i, r in enumerate(REFUSALS))
    header = 'from pytest_llmfaith import assert_not_hallucinated\nCTX = ["Acme employs 400 people."]\n'
    pytester.makepyfile(test_a=header + tests)
    result = run(pytester, server)
    result.assert_outcomes(passed=len(REFUSALS))
    assert all(r[2:4] == ["NO", "CLAIMS"] for r in rows(result))
    asked = [r["body"]["messages"][-1]["content"] for r in server.calls("verdicts")]
    assert len(asked) == len(REFUSALS) and all('"already_checked": []' in a for a in asked)
