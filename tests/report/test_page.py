"""The review page's data without a browser: where claims are found, what the JSON tag may hold,
the history folder, and what the page is given per assessment (tests/report/test_page_browser.py
opens it in chromium)."""

from __future__ import annotations

import json
import re

from pytest_llmfaith.report import baseline, model, page
from pytest_llmfaith.report.model import Report
from pytest_llmfaith.report.page import evidence_span, word_spans
from pytest_llmfaith.report.render import load_history
from pytest_llmfaith.results import Assessment, Regression, ScoreResult, Verdict

CTX = ["Tesla was founded in 2003.", "Elon Musk joined Tesla in 2004.", "The first Tesla car was the Roadster."]
MIXED = "Tesla was founded in 2003. Elon Musk founded Tesla. Tesla is based on Mars."


TURKISH_CTX = ["Standart kargo ücreti 49,90 TL'dir. 500 TL ve üzeri siparişlerde kargo ücretsizdir. "
               "Kapıda ödeme 15 TL ek ücretlidir."]
TURKISH_OUT = "Kargo ücreti 39,90 TL, kapıda ödeme de mümkün."


def spans(words: list[str], output: str) -> list[str]:
    return [output[a:b] for a, b in word_spans(words, output)]


def test_a_verdicts_words_are_marked_where_the_output_says_them_exactly_and_nowhere_else() -> None:
    assert spans(["Elon Musk founded Tesla"], MIXED) == ["Elon Musk founded Tesla"]
    assert spans(["ELON\n musk  FOUNDED"], MIXED) == ["Elon Musk founded"]  # case and white space folded
    assert spans(["Tesla was founded … in 2003"], MIXED) == ["Tesla was founded", "in 2003"]  # each stretch
    assert spans(["Tesla", "Mars"], MIXED) == ["Tesla", "Mars"]  # in order, the second after the first
    assert spans(["２００３"], MIXED) == ["2003"]  # NFKC: full-width digits are digits
    assert spans(["“Elon Musk founded Tesla.”"], "He said “Elon Musk founded Tesla.”") == [
        "“Elon Musk founded Tesla.”"]
    assert spans(["Tesla's base is on Mars"], MIXED) == []  # not said so: nothing marked, no guess
    assert spans(["Tesla", "the Moon"], MIXED) == []  # one of its words is not there: none marked
    assert spans([], MIXED) == [] and spans([""], MIXED) == []
    assert spans(["日本の首都"], "東京は日本の首都です。") == ["日本の首都"]
    assert spans(["39,90 TL"], TURKISH_OUT) == ["39,90 TL"]
    assert spans(["KAPIDA ÖDEME"], TURKISH_OUT) == []  # casefold keeps ı and i apart: exact, never loose


def test_a_verdicts_evidence_is_marked_only_where_the_context_holds_it() -> None:
    found = evidence_span("Standart kargo ücreti 49,90 TL'dir.", TURKISH_CTX)
    assert found is not None and TURKISH_CTX[0][found[1]:found[2]] == "Standart kargo ücreti 49,90 TL'dir."
    assert evidence_span("elon   MUSK joined Tesla in 2004.", CTX) == (1, 0, 31)
    assert evidence_span("", CTX) is None and evidence_span("Tesla was founded in 2004.", CTX) is None


def test_a_contradicted_number_marks_the_sentence_it_rests_on_among_several_with_numbers() -> None:
    verdict = Verdict(statement="Kargo ücreti 39,90 TL'dir.", verdict="no", reason="49,90 TL diyor",
                      words=["39,90 TL"], evidence="Standart kargo ücreti 49,90 TL'dir.")
    result = ScoreResult(scorer="faithfulness", run_id="r", score=0.0, reason="0.00", output=TURKISH_OUT,
                         context=TURKISH_CTX, claims=[verdict.statement], verdicts=[verdict])
    data = page.page_data(Report(assessments=[Assessment(test_id="t.py::test_kargo", result=result,
                                                         threshold=0.7, passed=False)]))
    (claim,) = data["items"][0]["claims"]
    assert claim["k"] == "contra" and claim["raw"] == "no"
    assert [TURKISH_OUT[a:b] for a, b in claim["at"]] == ["39,90 TL"]
    p, a, b = claim["ev"]
    assert data["texts"][data["items"][0]["ctx"][p]][a:b] == "Standart kargo ücreti 49,90 TL'dir."


def test_marks_count_as_the_page_script_does_and_a_sentence_claim_says_so() -> None:
    output = "😀 Tesla was founded in 2003."
    verdict = Verdict(statement=output, verdict="yes", words=[output], sentence=True,
                      evidence="Tesla was founded in 2003.")
    result = ScoreResult(scorer="faithfulness", run_id="r", score=1.0, reason="1.00", output=output,
                         context=CTX, claims=[output], verdicts=[verdict])
    (claim,) = page.page_data(Report(assessments=[Assessment(test_id="t.py::t", result=result)]))["items"][0]["claims"]
    assert claim["at"] == [[0, len(output) + 1]]  # UTF-16: the emoji is two units
    assert claim["sent"] is True and claim["q"] is True and claim["ev"] == [0, 0, 26]


def test_a_verdict_a_code_rule_decided_says_so_instead_of_the_votes() -> None:
    ruled = Verdict(statement="Ali Bey kurdu.", verdict="unsure", samples=["yes", "yes", "no"], words=["Ali Bey"])
    voted = Verdict(statement="Tesla was founded in 2003.", verdict="yes", samples=["yes", "yes", "no"])
    result = ScoreResult(scorer="faithfulness", run_id="r", score=0.5, reason="0.50", output="x", context=CTX,
                         claims=[], verdicts=[ruled, voted], votes=3)
    a = Assessment(test_id="t.py::t", result=result, threshold=0.5, passed=True)
    item = page.page_data(Report(assessments=[a]))["items"][0]
    assert [c["rule"] for c in item["claims"]] == ["decided by a code rule, over 2 of 3 votes for supported", ""]
    assert item["low"] == "2/3" == model.lowest_agreement(a)  # the rule's 1/3 is no vote's agreement
    only_ruled = a.model_copy(update={"result": result.model_copy(update={"verdicts": [ruled]})})
    assert model.lowest_agreement(only_ruled) == "rule"


def test_a_figure_is_shown_with_the_precision_that_decided_its_comparison() -> None:
    assert model.decisive(0.6951, 0.7) == "0.695" and model.decisive(0.6999, 0.70) == "0.6999"
    assert model.decisive(0.6, 0.6) == "0.60" and model.decisive(0.33, 0.7) == "0.33"
    assert model.decisive(0.61, 0.9, least=3) == "0.610" and model.decisive(0.7, 0.755) == "0.700"
    result = ScoreResult(scorer="faithfulness", run_id="r", score=0.7451, reason="", output="x", context=CTX)
    a = Assessment(test_id="t.py::t", result=result, threshold=0.75, passed=False)
    assert (model.score_text(a), model.threshold_text(a)) == ("0.745", ">=0.75")  # not "0.75 >= 0.75"
    b = a.model_copy(update={"threshold": 0.755})
    assert (model.score_text(b), model.threshold_text(b)) == ("0.745", ">=0.755")


def test_a_note_on_the_whole_run_is_said_once_on_the_page() -> None:
    note = "Latin-script text checked more loosely than English"
    made = [_assessment("Tesla was founded in 2003.", [], 1.0, test=f"t.py::test_{i}") for i in range(3)]
    for a in made[:2]:
        a.result.notes.append(note)
    data = page.page_data(Report(assessments=made))
    assert data["notes"] == [f"note (2 scores): {note}"] and all("notes" not in i for i in data["items"])


_EVIDENCE = {"Tesla was founded in 2003.": CTX[0], "Elon Musk founded Tesla.": CTX[1]}


def _assessment(output: str, verdicts: list[tuple[str, str]], score: float, passed: bool | None = True,
                test: str = "t.py::test_a", **kw: object) -> Assessment:
    result = ScoreResult(scorer="faithfulness", run_id="r", score=score, reason=f"{score:.2f}", output=output,
                         context=CTX, claims=[c for c, _ in verdicts],
                         verdicts=[Verdict(statement=c, verdict=v, reason="because", words=[c] if c in output else [],
                                           evidence=_EVIDENCE.get(c, "")) for c, v in verdicts])
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
        ("supported", "ok", ["Tesla was founded in 2003."]), ("contradicted", "contra", ["Elon Musk founded Tesla."]),
        ("not in the context", "gap", ["Tesla is based on Mars."]), ("not in the context", "gap", [])]
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
    past = load_history(folder, skip={(folder / "mine.json").resolve()})
    assert past.runs == ["2025-01-01", "2025-01-02", "2025-01-03"]
    assert past.scores == {"t.py::test_a [faithfulness]": [1.0, 0.5, 0.25],
                           "t.py::test_a [lbl] [faithfulness]": [0.5, None, None]}
    assert past.problems == ["2025-01-04.json: not a JSON report or baseline (neither 'results' nor 'assertions')"]
    assert load_history(tmp_path / "nope").problems == [f"history folder {tmp_path / 'nope'} does not exist"]
    data = page.page_data(Report(assessments=[a, b]), history=past)
    assert data["runs"] == past.runs and data["items"][0]["hist"] == [1.0, 0.5, 0.25]
    assert data["notes"][-1].startswith("2025-01-04.json")
