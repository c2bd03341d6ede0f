"""The review page's data without a browser: where claims are found, what the JSON tag may hold,
the history folder, and what the page is given per assessment (tests/report/test_page_browser.py
opens it in chromium)."""

from __future__ import annotations

import json
import re

from pytest_llmfaith.report import baseline, history, page
from pytest_llmfaith.report.marks import claim_spans, evidence, tokens
from pytest_llmfaith.report.model import Report
from pytest_llmfaith.results import Assessment, Regression, ScoreResult, Verdict

CTX = ["Tesla was founded in 2003.", "Elon Musk joined Tesla in 2004.", "The first Tesla car was the Roadster."]
MIXED = "Tesla was founded in 2003. Elon Musk founded Tesla. Tesla is based on Mars."


def spans(claim: str, output: str) -> list[str]:
    return [output[a:b] for a, b in claim_spans(claim, tokens(output))]


def test_a_claim_is_found_by_its_longest_shared_word_runs_near_each_other() -> None:
    assert spans("Elon Musk founded Tesla.", MIXED) == ["Elon Musk founded Tesla"]
    assert spans("Tesla's base is on Mars", MIXED) == ["Tesla is based on Mars"]  # the nearest "Tesla"
    assert spans("tesla was FOUNDED by Elon Musk in 2003", MIXED) == ["Tesla was founded in 2003. Elon Musk"]
    assert spans("The moon is made of cheese.", MIXED) == []  # too few of its words: listed, not marked
    assert spans("Tesla is a company.", MIXED) == []  # one shared word anchors nothing
    assert spans("Roadster", "The first car was the Roadster.") == ["Roadster"]


def test_scripts_without_spaces_are_matched_letter_by_letter_and_right_to_left_text_by_words() -> None:
    output = "東京は日本の首都です。人口は約1400万人です。"
    assert spans("東京は日本の首都である。", output) == ["東京は日本の首都で"]
    assert spans("大阪は港町。", output) == []  # shares only single letters
    arabic = "تأسست تسلا في عام 2003. المقر الرئيسي لشركة تسلا على المريخ."
    assert spans("المقر الرئيسي لشركة تسلا على المريخ.", arabic) == ["المقر الرئيسي لشركة تسلا على المريخ"]


def test_a_claims_evidence_is_the_sentence_its_reason_quotes_else_the_one_sharing_most_words() -> None:
    quoted = "supported: P(supported) 0.93 ≥ 0.50: “Elon  Musk joined tesla in 2004.”"
    assert evidence("Musk came in 2004.", quoted, CTX) == (1, 0, 31)
    assert evidence("Elon Musk founded Tesla.", "scripted", CTX) == (1, 0, 31)
    assert evidence("Tesla is based on Mars.", "", CTX) is None  # shares only "Tesla": rests on nothing
    long = ["Tesla was founded in 2003. Its first car, the Roadster, came in 2008! Musk joined in 2004."]
    p, a, b = evidence("The Roadster was the first car.", "", long)  # type: ignore[misc]
    assert long[p][a:b] == "Its first car, the Roadster, came in 2008!"
    assert evidence("x", "“a quote the context does not have”", CTX) is None


def _assessment(output: str, verdicts: list[tuple[str, str]], score: float, passed: bool | None = True,
                test: str = "t.py::test_a", **kw: object) -> Assessment:
    result = ScoreResult(scorer="faithfulness", run_id="r", score=score, reason=f"{score:.2f}", output=output,
                         context=CTX, claims=[c for c, _ in verdicts],
                         verdicts=[Verdict(statement=c, verdict=v, reason="because") for c, v in verdicts])
    return Assessment(test_id=test, result=result, threshold=0.7, passed=passed, **kw)  # type: ignore[arg-type]


def _embedded(text: str) -> object:
    match = re.search(r'<script type="application/json" id="llmfaith-data">(.*?)</script>', text, re.DOTALL)
    assert match, "no data tag"
    return json.loads(match.group(1))


def test_no_text_of_the_run_can_end_the_data_tag_and_every_character_survives() -> None:
    nasty = "</script><script>alert(1)</script> <!-- --> </SCRIPT > & \u2028 \u2029 \udc80 مرحبا"
    report = Report(assessments=[_assessment(nasty, [(nasty, "unsure")], 0.0, passed=False)],
                    judge_errors={"t.py::test_<b>": "</script>"})
    text = page.html(report)
    assert text.count("</script>") == 2 and text.lower().count("<script") == 2  # the data tag and the page's
    assert "<!--" not in text.replace("<!doctype", "")
    text.encode("utf-8")  # the lone surrogate went in as a JSON escape
    data = _embedded(text)
    assert isinstance(data, dict)
    error, item = data["items"]  # the error first
    assert item["out"] == nasty  # the lone surrogate too, through its JSON escape
    assert error == {**error, "st": ["ERROR"], "name": "t.py::test_<b>", "reason": "</script>"}
    assert data == json.loads(page.embed(data))


def test_the_page_lists_failing_first_with_each_claims_place_and_the_baseline_changes(tmp_path) -> None:
    good = _assessment("Tesla was founded in 2003.", [("Tesla was founded in 2003.", "yes")], 1.0,
                       test="t.py::test_good")
    bad = _assessment(MIXED, [("Tesla was founded in 2003.", "yes"), ("Elon Musk founded Tesla.", "no"),
                              ("Tesla is based on Mars.", "unsure"), ("Tesla sells boats.", "unsure")], 0.25,
                      passed=False, test="t.py::test_bad")
    regressed = _assessment("Tesla was founded in 2003.", [("Tesla was founded in 2003.", "yes")], 0.8,
                            test="t.py::test_reg", regression=Regression(was=1.0, now=0.8, tolerance=0.05))
    was = baseline.write(tmp_path / "b.json", [_assessment(
        "x", [("Tesla was founded in 2003.", "yes"), ("The first Tesla car was the Roadster.", "yes")], 1.0,
        test="t.py::test_bad")])
    report = Report(assessments=[good, bad, regressed], judge_errors={"t.py::test_err": "judge down"},
                    gate_failures=["mean faithfulness 0.68 is below the gate 0.90\n    details"])
    data = page.page_data(report, was)
    assert [(i["name"], i["st"]) for i in data["items"]] == [
        ("t.py::test_err", ["ERROR"]), ("t.py::test_bad", ["FAIL"]), ("t.py::test_reg", ["REGRESSED"]),
        ("t.py::test_good", ["PASS"])]
    item = data["items"][1]
    assert [(c["v"], c["k"], [MIXED[a:b] for a, b in c["at"]]) for c in item["claims"]] == [
        ("supported", "ok", ["Tesla was founded in 2003"]), ("contradicted", "contra", ["Elon Musk founded Tesla"]),
        ("not in the context", "gap", ["Tesla is based on Mars"]), ("not in the context", "gap", [])]
    assert [data["texts"][item["ctx"][c["ev"][0]]] if c["ev"] else None for c in item["claims"]] == [
        CTX[0], CTX[1], None, None]
    assert item["ctx"] == data["items"][2]["ctx"]  # one copy of a shared context
    assert [c["d"] for c in item["changes"]] == [
        'appeared (contradicted): "Elon Musk founded Tesla." — because',
        'appeared (not in the context): "Tesla is based on Mars." — because',
        'appeared (not in the context): "Tesla sells boats." — because',
        'disappeared (was supported): "The first Tesla car was the Roadster."']
    assert data["items"][3]["known"] is False and item["known"] is True
    assert data["gates"] == [["mean faithfulness 0.68 is below the gate 0.90", "    details"]]
    assert data["totals"]["errors"] == 1 and data["totals"]["failed"] == 1


def test_history_reads_reports_and_baselines_in_name_order_and_names_what_it_cannot_read(tmp_path) -> None:
    folder = tmp_path / "hist"
    folder.mkdir()
    from pytest_llmfaith.report.render import json_text

    a = _assessment("Tesla was founded in 2003.", [("Tesla was founded in 2003.", "yes")], 1.0)
    b = _assessment("x", [], 0.5, label="lbl")
    (folder / "2025-01-02.json").write_text(json_text(Report(assessments=[a.model_copy(update={
        "result": a.result.model_copy(update={"score": 0.5})})])))
    baseline.write(folder / "2025-01-01.json", [a, b])
    (folder / "2025-01-03.json").write_text(json.dumps({"version": 1, "scores": {"t.py::test_a [faithfulness]": 0.25}}))
    (folder / "2025-01-04.json").write_text("[]")
    (folder / "mine.json").write_text(json_text(Report(assessments=[b])))
    (folder / "notes.txt").write_text("not json")
    past = history.load(folder, skip={(folder / "mine.json").resolve()})
    assert past.runs == ["2025-01-01", "2025-01-02", "2025-01-03"]
    assert past.scores == {"t.py::test_a [faithfulness]": [1.0, 0.5, 0.25],
                           "t.py::test_a [lbl] [faithfulness]": [0.5, None, None]}
    assert past.problems == ["2025-01-04.json: not a JSON report or baseline (neither 'results' nor 'assertions')"]
    assert history.load(tmp_path / "nope").problems == [f"history folder {tmp_path / 'nope'} does not exist"]
    data = page.page_data(Report(assessments=[a, b]), history=past)
    assert data["runs"] == past.runs and data["items"][0]["hist"] == [1.0, 0.5, 0.25]
    assert data["notes"][-1].startswith("2025-01-04.json")
