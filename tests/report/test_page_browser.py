"""The review page (--llm-report-html) in a real browser: real runs against the loopback judge write
it, headless chromium opens it from file:// and its DOM after the page's script ran is read back.

Skipped only when chromium is not on PATH (.ci/run installs it).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from page_helpers import CHROMIUM, PHONE, Dom, browse, name, open_page, png_size, words
from plugin_helpers import HEADER, TESLA_FACTS, judge_args, run, run_suite

from pytest_llmfaith.report import page
from pytest_llmfaith.report.model import Report
from pytest_llmfaith.results import Assessment, JudgeCall, ScoreResult, Verdict

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="chromium is not on PATH: apt-get install chromium "
                                                            "(.ci/run installs it)")


@pytest.fixture(autouse=True)
def _inner_run_environment(litellm_warmed_up: None, clean_env: None) -> None:
    """litellm warmed up in this process and a clean environment, as in tests/plugin/ (tests/conftest.py)."""


SUITE = HEADER + '''
def test_good():
    assert_faithful(GOOD, CTX)

def test_mixed():
    assert_faithful(MIXED, CTX)

def test_half():
    assert_not_hallucinated(HALF, CTX, max_score=0.5, label="half")

def test_markup():
    assert_faithful("Tesla was founded in 2003. </script><!-- <b>x</b>", CTX)
'''


def review_run(pytester: pytest.Pytester, server, *args: str, suite: str = SUITE) -> tuple[pytest.RunResult, Path]:
    result = run_suite(pytester, server, "--llm-report-html=out/review.html", "--llm-report=out/report.json", *args,
                       test_a=suite)
    return result, pytester.path / "out" / "review.html"


def test_the_page_of_a_failing_run_shows_every_claim_where_the_output_and_the_context_say_it(
        pytester, server, tmp_path) -> None:
    result, path = review_run(pytester, server, "--llm-min-mean-faithfulness=0.9")
    result.assert_outcomes(passed=2, failed=2)
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    text = path.read_text(encoding="utf-8")
    assert text.count("</script>") == 2 and "<!-- <b>" not in text  # the output's markup stays inside the JSON
    assert not re.search(r"""<(?:link|img|iframe)\b|src=|href=["']?(?:https?:)?//""", text)  # nothing fetched

    dom = open_page(path, tmp_path)
    assert float(dom.root["data-rendered-ms"] or "nan") > 0
    report = json.loads((pytester.path / "out" / "report.json").read_text())
    assert len(dom.cards) == len(report["results"]) == 4
    order = [name(c) for c in dom.cards]  # failing first
    assert order[:2] == ["test_a.py::test_mixed", "test_a.py::test_markup"]
    assert sorted(order[2:]) == ["test_a.py::test_good", "test_a.py::test_half [half]"]

    mixed = dom.card("test_a.py::test_mixed")
    assert words(mixed).startswith("FAIL test_a.py::test_mixed faithfulness 0.33 ≥ 0.70 0.33 — 1 of 3 claims supported")
    assert [c.split(" scripted: ")[0] for c in mixed["claims"]] == [  # then the judge's reason
        "1 ✓ supported Tesla was founded in 2003.", "2 ✗ contradicted Elon Musk founded Tesla.",
        "3 ✗ not in the context Tesla is based on Mars."]
    # marks are the verdicts' own words and evidence, verbatim (exact marking: tests below)
    for card in dom.cards:
        said = words(card)
        assert all(" ".join(m[2].split()) in said for m in card["marks"])
    assert "context (3 passages)" in words(mixed)

    half = dom.card("test_a.py::test_half [half]")
    assert words(half).startswith("PASS test_a.py::test_half [half] hallucination 0.50 ≤ 0.50")
    markup = dom.card("test_a.py::test_markup")
    assert "</script><!-- <b>x</b>" in words(markup)  # as text

    page_text = dom.words()
    assert "gate failed: mean faithfulness 0.610 is below the gate 0.90 over 3 scores" in page_text
    assert "gates passed" not in page_text and "no gate configured" not in page_text
    assert "judge openai/test-judge" in page_text
    t = report["totals"]
    assert f"{t['judge_calls']} judge calls {t['cache_hits']} cache hits {t['tokens']:,} tokens n/a cost" in page_text
    assert "4 scores 2 passed 2 failed" in page_text


def test_the_filters_read_the_address_and_hide_what_does_not_match(pytester, server, tmp_path) -> None:
    _, path = review_run(pytester, server)

    def shown(fragment: str) -> list[str]:
        dom = open_page(path, tmp_path, fragment)
        assert len(dom.cards) == 4
        return sorted(name(c).removeprefix("test_a.py::") for c in dom.cards if not c["hidden"])

    assert shown("") == ["test_good", "test_half [half]", "test_markup", "test_mixed"]
    assert shown("#outcome=FAIL") == ["test_markup", "test_mixed"]
    assert shown("#outcome=PASS&scorer=hallucination") == ["test_half [half]"]
    assert shown("#label=half") == ["test_half [half]"]
    assert shown("#verdict=contradicted") == ["test_mixed"]
    assert shown("#q=MARS") == ["test_mixed"]  # any case; the context never says Mars
    assert shown("?outcome=REGRESSED") == []  # an outcome this run does not have: nothing, not everything
    assert shown("#outcome=problems") == ["test_markup", "test_mixed"]
    # the JSON report's own verdict names: "no" is contradicted, and supported for hallucination
    assert shown("#verdict=no") == ["test_half [half]", "test_mixed"]


def test_history_and_baseline_show_the_score_over_time_and_the_claims_that_came_and_went(
        pytester, server, tmp_path) -> None:
    drift = HEADER + "def test_stable():\n    assert_faithful(GOOD, CTX)\n\ndef test_drift():\n" \
                     "    assert_faithful({}, CTX, min_score=0.3)\n"
    run_suite(pytester, server, "--llm-report=hist/01.json", "--llm-baseline=ci/baseline.json", "--llm-baseline-update",
              test_a=drift.format("GOOD"))
    pytester.makepyfile(test_a=drift.format("HALF"))
    run(pytester, server, "--llm-report=hist/02.json")
    (pytester.path / "hist" / "03-broken.json").write_text("{not json")
    pytester.makepyfile(test_a=drift.format("MIXED"))
    result = run(pytester, server, "--llm-report-history=hist", "--llm-report=hist/04.json",  # its own report: skipped
                 "--llm-baseline=ci/baseline.json", "--llm-report-html=review.html")
    assert result.ret == pytest.ExitCode.TESTS_FAILED  # the regression gate

    dom = open_page(pytester.path / "review.html", tmp_path)
    card = dom.card("test_a.py::test_drift")
    assert card["class"][:1] == ["card"] and "o-REGRESSED" in card["class"]
    assert "".join(card["tip"]).splitlines() == ["01: 1.00", "02: 0.50", "this run: 0.33"]
    ys = [float(p.split(",")[1]) for p in card["spark"].split()]
    assert len(ys) == 3 and ys[0] < ys[1] < ys[2]  # drawn going down
    said = words(card)
    assert 'appeared (contradicted): "Elon Musk founded Tesla." — scripted: Elon Musk founded Tesla' in said
    assert 'disappeared (was supported): "The first Tesla car was the Roadster."' in said
    assert "against the baseline: 1.00 -> 0.33 (-0.67, tolerance 0.05)" in said
    stable = dom.card("test_a.py::test_stable")
    assert "against the baseline" not in words(stable) and stable["spark"] is not None
    page_text = dom.words()
    assert "gate failed: baseline regression test_a.py::test_drift [faithfulness]" in page_text
    assert "03-broken.json: not a JSON report or baseline" in page_text


def test_under_xdist_the_controller_writes_one_page_of_every_worker_s_results(pytester, server, tmp_path) -> None:
    pytest.importorskip("xdist")
    run_suite(pytester, server, "--llm-cache-dir=cache", cache="use", test_a=SUITE)  # answers for the workers to replay
    result = pytester.runpytest_subprocess(
        "-n", "2", "-p", "no:cacheprovider", *judge_args(server, "replay"), "--llm-cache-dir=cache",
        "--llm-report-html=review.html", "--llm-report=report.json", timeout=300)
    result.assert_outcomes(passed=2, failed=2)
    dom = open_page(pytester.path / "review.html", tmp_path)
    report = json.loads((pytester.path / "report.json").read_text())
    assert sorted(c["id"] for c in dom.cards) == [f"a{i}" for i in range(4)]
    assert sorted(name(c) for c in dom.cards) == sorted(r["key"].removesuffix(" [faithfulness]").removesuffix(
        " [hallucination]") for r in report["results"])
    assert {name(c) for c in dom.cards} == {"test_a.py::test_good", "test_a.py::test_mixed",
                                            "test_a.py::test_half [half]", "test_a.py::test_markup"}
    assert f"{report['totals']['cache_hits']} cache hits" in dom.words()


# -- an agent's run: its question, its calls, each tool result with the claims resting on it ------

HOSTILE = "</script><img src=x><!-- <b>x</b>"  # a tool result, an argument and the question may hold markup
RUN_SUITE = HEADER + f"HOSTILE = {HOSTILE!r}\n" + '''
import json

CALLS = [("c1", "company_facts", {"name": "Zorblat Corp"}), ("c2", "office_location", {"name": "Zorblat Corp"}),
         ("c3", "staff_count", {"name": "Zorblat " + HOSTILE})]
RESULTS = {"c1": "Zorblat Corp was founded in 1999. " + HOSTILE, "c2": "Its office is on Mars.",
           "c3": "Error: the HR database is offline"}

def test_agent():
    calls = [{"id": i, "type": "function", "function": {"name": n, "arguments": json.dumps(a)}} for i, n, a in CALLS]
    run = [{"role": "user", "content": "Where is Zorblat Corp's office? " + HOSTILE},
           {"role": "assistant", "content": None, "tool_calls": calls},
           *({"role": "tool", "tool_call_id": i, "content": RESULTS[i]} for i, _, _ in CALLS),
           {"role": "assistant", "content": "Its office is on Mars. It was founded in 1999. Visitors get free coffee."}]
    assert_faithful(run, min_score=0.5)

def test_string():
    assert_faithful(GOOD, CTX)
'''


def test_an_agent_run_shows_its_question_its_calls_and_each_tool_result_with_the_claims_resting_on_it(
        pytester, server, tmp_path) -> None:
    server.facts(supported=["Its office is on Mars.", "It was founded in 1999.", *TESLA_FACTS["supported"]])
    pytester.makepyfile(test_a=RUN_SUITE)
    result = run(pytester, server, "--llm-report-html=review.html", "--llm-report=report.json")
    result.assert_outcomes(passed=2)
    report = {r["test_id"]: r["result"] for r in json.loads((pytester.path / "report.json").read_text())["results"]}
    assert report["test_a.py::test_agent"]["failed_tool_calls"] == [2]  # the page's data is the JSON report's
    assert report["test_a.py::test_string"]["failed_tool_calls"] == []
    raw = browse((pytester.path / "review.html").as_uri(), "--dump-dom", tmp=tmp_path)
    assert "<img" not in raw and "<b>x" not in raw  # the run's texts are text, never markup
    dom = Dom(raw)

    said = words(dom.card("test_a.py::test_agent"))
    passages = said.split("context: the tool results (3 passages) ")[1]
    assert said.index("question (agent run, openai-chat) Where is Zorblat Corp's office? " + HOSTILE) < said.index(
        'tool calls, in order company_facts(name="Zorblat Corp") office_location(name="Zorblat Corp") '
        f'staff_count(name="Zorblat {HOSTILE}") failed output Its office is on Mars.')
    # each passage, then the claims resting on it: claim 2 on passage 1, claim 1 on passage 2, claim 3 on none
    assert passages == (
        f'company_facts(name="Zorblat Corp") returned: Zorblat Corp was founded in 1999. 2 {HOSTILE} '
        "2 ✓ supported It was founded in 1999. "
        'office_location(name="Zorblat Corp") returned: Its office is on Mars. 1 1 ✓ supported Its office is on Mars. '
        f'staff_count(name="Zorblat {HOSTILE}") failed: Error: the HR database is offline '
        "claims resting on no passage 3 ✗ not in the context Visitors get free coffee.")

    string = words(dom.card("test_a.py::test_string"))  # a string's output: the page as before
    assert "context (3 passages)" in string
    assert not any(w in string for w in ("question", "tool calls", "tool results", "resting on"))


# -- a large run, and how the page looks ---------------------------------------------------------

def synthetic(n: int) -> Report:
    """n assertions as a RAG suite makes them: a context of three passages and an answer of five
    sentences each, every context its own, a fifth failing, each with three judge calls."""
    assessments = []
    for i in range(n):
        ctx = [f"Policy {i}: refunds are accepted within {i % 30 + 1} days of purchase with a receipt. Store credit "
               "is offered after that period, for up to ninety days. Sale items are final.",
               f"Order {i} ships from the warehouse in Leeds within two working days. Express delivery costs "
               "£4.99 and arrives the next working day if ordered before noon.",
               "Customer support answers by e-mail within one working day. Phone support is open on weekdays "
               "from 9:00 to 17:00, except public holidays."]
        sentences = [f"You can return order {i} within {i % 30 + 1} days if you keep the receipt.",
                     "After that you get store credit for up to ninety days.",
                     "Orders ship from Leeds within two working days.",
                     "Express delivery costs £4.99." if i % 5 else "Express delivery is free on every order.",
                     "Support replies by e-mail within one working day."]
        bad = i % 5 == 0
        verdicts = [Verdict(statement=s, verdict="no" if bad and j == 3 else "yes", words=[s],
                            evidence=ctx[1].split(". ")[1] if j == 3 else "",
                            reason=f"the context says so in passage {j % 3 + 1}" if not (bad and j == 3)
                            else "the context gives £4.99 for express delivery") for j, s in enumerate(sentences)]
        score = 0.8 if bad else 1.0
        calls = [JudgeCall(step=s, model="openai/gpt-4o-mini", cached=i % 2 == 0, latency_s=0.8, prompt_tokens=600,
                           completion_tokens=120, cost_usd=0.0002) for s in ("claims", "verdicts", "reason")]
        result = ScoreResult(scorer="faithfulness", run_id=str(i), score=score, output=" ".join(sentences),
                             reason=f"{score:.2f} — " + ("1 of 5 claims contradicted" if bad else "all 5 supported"),
                             context=ctx, claims=sentences, verdicts=verdicts, judge_calls=calls)
        assessments.append(Assessment(test_id=f"tests/test_support.py::test_answer[{i}]", result=result,
                                      threshold=0.9, passed=score >= 0.9))
    return Report(assessments=assessments, judge_errors={"tests/test_support.py::test_broken": "judge down"})


def test_a_thousand_assertions_stay_small_and_render_in_under_two_seconds(tmp_path) -> None:
    text = page.html(synthetic(1000), generated="synthetic")
    path = tmp_path / "big.html"
    path.write_text(text, encoding="utf-8")
    size = path.stat().st_size
    dom = open_page(path, tmp_path)
    rendered = float(dom.root["data-rendered-ms"] or "nan")
    print(f"1,000 assertions: {size / 1e6:.2f} MB, rendered {rendered:.0f} ms after navigation start")
    assert size < 5_000_000
    assert len(dom.cards) == 1001 and rendered < 2000
    assert words(dom.cards[0]) == "ERROR tests/test_support.py::test_broken judge down"
    assert sum("o-FAIL" in c["class"] for c in dom.cards[1:201]) == 200  # then the failing fifth
    assert all(len([m for m in c["marks"] if m[0] == "out"]) == 5 for c in dom.cards[1:])  # every claim found
    assert all([m[1:] for m in c["marks"] if m[0] == "ctx"] == [[c["class"][1] == "o-FAIL" and "contra" or "ok",
               "Express delivery costs £4.99 and arrives the next working day if ordered before noon."]]
               for c in dom.cards[1:])


LONG = """
@pytest.mark.parametrize("question", ["what-is-the-refund-policy-for-orders-shipped-outside-the-european-union"])
def test_long(question):
    assert_faithful("See https://example.com/support/orders/refunds/international/eu/policy-2024-final-version. "
                    + GOOD, CTX, label="a-label-without-any-spaces-to-break-at-in-a-narrow-column")
"""


def test_screenshots_at_desktop_and_phone_width_with_no_horizontal_scroll(pytester, server, tmp_path) -> None:
    """Headless chromium will not size a window below 500 px: the phone is a 390 px frame, whose page
    lays out (media queries included) at 390 px."""
    _, path = review_run(pytester, server, "--llm-min-mean-faithfulness=0.9", suite=SUITE + LONG)
    desktop, phone = tmp_path / "review-1280.png", tmp_path / "review-390.png"
    browse(path.as_uri(), f"--screenshot={desktop}", "--window-size=1280,900", "--hide-scrollbars", tmp=tmp_path)
    wrapper = path.parent / "phone.html"
    wrapper.write_text(PHONE.format(src=path.name), encoding="utf-8")
    browse(wrapper.as_uri(), f"--screenshot={phone}", "--window-size=390,844", "--hide-scrollbars", tmp=tmp_path)
    assert png_size(desktop) == (1280, 900) and png_size(phone) == (390, 844)
    # the frame's page is readable from the wrapper only with file access between files
    widths = re.search(r'data-widths="(\d+) (\d+)"',
                       browse(wrapper.as_uri(), "--dump-dom", "--allow-file-access-from-files", tmp=tmp_path))
    assert widths, "the frame's page did not load"
    scroll, client = int(widths.group(1)), int(widths.group(2))
    assert 360 <= client <= 390 and scroll <= client, (scroll, client)  # the frame's scrollbar aside


# -- built by hand: the verdicts' words and evidence, votes, notes, gates, search ------------------

KARGO_CTX = ["Standart kargo ücreti 49,90 TL'dir. 500 TL ve üzeri siparişlerde kargo ücretsizdir. "
             "Kapıda ödeme seçeneği 15 TL ek ücretlidir."]
KARGO_OUT = "Kargo ücreti 39,90 TL. Kapıda ödeme de mümkün. Kolay gelsin!"
NOTE = "Latin-script text checked more loosely than English"


def hand_built(gates: list[str] | None = None, checked: list[str] | None = None) -> Report:
    """Three assessments with the fields the scorer fills: a Turkish contradicted price, a German and
    a Greek answer; votes that a code rule overruled; one note on two scores."""
    kargo = ScoreResult(
        scorer="faithfulness", run_id="1", score=0.5, reason="0.50 — 1 of 2 claims supported", output=KARGO_OUT,
        context=KARGO_CTX, votes=3, notes=[NOTE], verdicts=[
            Verdict(statement="Kargo 39,90 TL.", verdict="no", reason="the context says 49,90 TL", words=["39,90 TL"],
                    evidence="Standart kargo ücreti 49,90 TL'dir.", samples=["no", "no", "no"]),
            Verdict(statement="Kapıda ödeme de mümkün.", verdict="yes", words=["Kapıda ödeme de mümkün."],
                    sentence=True, evidence="Kapıda ödeme seçeneği 15 TL ek ücretlidir.", samples=["yes"] * 3),
            Verdict(statement="Ali Bey kurdu.", verdict="unsure", reason="not in the context: it names “Ali”",
                    samples=["yes", "yes", "no"])])
    strasse = ScoreResult(scorer="faithfulness", run_id="2", score=1.0, reason="1.00", notes=[NOTE],
                          output="Der Laden liegt in der Hauptstraße 5.", context=["Hauptstraße 5, Köln."],
                          verdicts=[Verdict(statement="Hauptstraße 5", verdict="unsure", words=["Hauptstraße 5"])])
    greek = ScoreResult(scorer="faithfulness", run_id="3", score=1.0, reason="1.00", output="Η οδός είναι κλειστή.",
                        context=["Η οδός είναι κλειστή."],
                        verdicts=[Verdict(statement="Η οδός είναι κλειστή.", verdict="yes")])
    return Report(assessments=[
        Assessment(test_id="t.py::test_kargo", result=kargo, threshold=0.7, passed=False),
        Assessment(test_id="t.py::test_strasse", result=strasse, threshold=0.7, passed=True),
        Assessment(test_id="t.py::test_greek", result=greek, threshold=0.7, passed=True)],
        gate_failures=gates or [], gates_checked=checked or [])


def test_a_contradicted_number_marks_the_sentence_it_rests_on_and_a_rule_names_itself(tmp_path) -> None:
    path = tmp_path / "review.html"
    path.write_text(page.html(hand_built()), encoding="utf-8")
    dom = open_page(path, tmp_path)
    kargo = dom.card("t.py::test_kargo")
    assert [tuple(m) for m in kargo["marks"]] == [
        ("out", "contra", "39,90 TL"), ("out", "ok", "Kapıda ödeme de mümkün."),
        ("ctx", "contra", "Standart kargo ücreti 49,90 TL'dir."),  # not "500 TL ve üzeri ... ücretsizdir."
        ("ctx", "ok", "Kapıda ödeme seçeneği 15 TL ek ücretlidir.")]
    assert kargo["claims"] == [
        "1 ✗ contradicted Kargo 39,90 TL. votes agree 3/3 the context says 49,90 TL",
        "2 ✓ supported Kapıda ödeme de mümkün. votes agree 3/3 judged as its sentence",
        "3 ✗ not in the context Ali Bey kurdu. decided by a code rule, over 2 of 3 votes for supported "
        "no words of the output quoted: not marked not in the context: it names “Ali”"]
    said = dom.words()
    assert "votes agree 1/3" not in said and "lowest agreement 3/3" in said
    assert f"note (2 scores): {NOTE}" in said and not any(NOTE in words(c) for c in dom.cards)  # once, on no card
    assert "no gate configured" in said and "gates passed" not in said


def test_the_banner_says_which_gate_failed_or_which_passed(tmp_path) -> None:
    def banner(report: Report) -> str:
        path = tmp_path / "review.html"
        path.write_text(page.html(report), encoding="utf-8")
        text = open_page(path, tmp_path).words()
        return text[text.index("gate"):text.index("note (2 scores)")]

    passed = banner(hand_built(checked=["mean faithfulness ≥ 0.50 (mean 0.833 over 3 scores)"]))
    assert passed.startswith("gates passed: mean faithfulness ≥ 0.50 (mean 0.833 over 3 scores)")
    failed = banner(hand_built(gates=["mean faithfulness 0.833 is below the gate 0.90 over 3 scores"],
                               checked=["mean faithfulness ≥ 0.90 (mean 0.833 over 3 scores)"]))
    assert failed.startswith("gate failed: mean faithfulness 0.833 is below the gate 0.90") and "passed" not in failed


def test_filters_take_the_reports_verdict_names_and_search_folds_case_and_accents_in_every_script(
        tmp_path) -> None:
    path = tmp_path / "review.html"
    path.write_text(page.html(hand_built()), encoding="utf-8")

    def shown(fragment: str) -> list[str]:
        dom = open_page(path, tmp_path, fragment)
        return sorted(name(c).removeprefix("t.py::") for c in dom.cards if not c["hidden"])

    assert shown("#verdict=unsure") == ["test_kargo", "test_strasse"]  # the JSON report's word
    assert shown("#verdict=not%20in%20the%20context") == ["test_kargo", "test_strasse"]  # the page's
    assert shown("#verdict=no") == shown("#verdict=contradicted") == ["test_kargo"]
    assert shown("#q=KAPIDA") == shown("#q=kapida") == shown("#q=kap%C4%B1da") == ["test_kargo"]  # Turkish ı
    assert shown("#q=%C3%9CCRETS%C4%B0Z") == ["test_kargo"]  # ÜCRETSİZ: İ and Ü fold to i and u
    assert shown("#q=HAUPTSTRASSE") == shown("#q=hauptstra%C3%9Fe") == ["test_strasse"]  # ß and ss
    assert shown("#q=%CE%9F%CE%94%CE%9F%CE%A3") == ["test_greek"]  # ΟΔΟΣ finds οδός: final sigma, accent
    assert shown("#q=39%2C90%20tl") == ["test_kargo"] and shown("#q=mars") == []
