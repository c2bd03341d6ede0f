"""The travel-booking support agent of benchmarks/agent_answers.py, made with three SDKs' own
classes (travel.py: the OpenAI Agents SDK, LangGraph, Google GenAI), judged over real HTTP through
litellm by the scripted judge (tests/judge_server.py):
1. the three runs are one judge request: the benchmark's passages (one per tool result, the failed
   lookup included), its answer and question; the signed manage-URL reaches no judge request;
2. a judge that answers every question correctly passes every faithful answer and fails every
   unfaithful one at the hosted thresholds of docs/testing-agents.md (1.0 / 0.0), for each SDK;
3. one wrong judge answer (an unfaithful claim called supported, the narrow questions answered
   correctly) still fails an answer whose wrong part is a number or name no tool result writes."""

from __future__ import annotations

import json
from typing import Any

import pytest
from plugin_helpers import run as run_inner
from travel import CALLS as TOOL_CALLS
from travel import FAITHFUL, JWT, QUESTION, SDKS, UNFAITHFUL, chat_run

from pytest_llmfaith import Faithfulness, Hallucination, describe_run, final_answer, tool_results
from pytest_llmfaith.agent_runs import judged

MIN_FAITHFULNESS, MAX_HALLUCINATION = 1.0, 0.0  # docs/testing-agents.md, a hosted judge
CALLS = ['search_flights(origin="OSL", destination="BCN", date="2026-06-12")', 'get_booking(ref="QX7K2P")',
         'refund_policy(fare="Light")', 'get_booking(ref="ZZ9999")']
FAILED = 'get_booking(ref="ZZ9999") failed: Error: booking ZZ9999 not found'

# The correct judge. Its claims are the answer's sentences (judge_server's default), but for the
# greeting around a fact; a faithful claim is supported; an unfaithful one contradicted, or not in
# the tool results at all ("includes a free meal"); the names and numbers no tool result gives, in
# the forms the specifics question may name them, are "not given" (`unnamed`), all others given
# (OSL is Oslo, 2026-06-12 is 12 June).
GREETING = "Hi Ingrid! Your seat on SK4705 is 14C. Have a nice trip!"
NOT_MENTIONED = "SK4705 arrives at 11:05 and includes a free meal."
NEVER_WRITTEN = {  # an unfaithful answer whose wrong part no tool result writes: that part, its forms
    UNFAITHFUL[0]: ("149 EUR", ["149"]),
    UNFAITHFUL[2]: ("14 June", ["14"]),
    UNFAITHFUL[7]: ("12C", ["12C", "12c"]),
    UNFAITHFUL[8]: ("70 EUR", ["70"]),
    UNFAITHFUL[9]: ("15:45", ["15:45", "15"]),
    UNFAITHFUL[10]: ("Ingrid Berg", ["Ingrid Berg", "ingrid berg"]),
    UNFAITHFUL[13]: ("40 EUR", ["40"]),
    UNFAITHFUL[14]: ("Stockholm", ["Stockholm", "stockholm"]),
}
# 12C and 14 June: a seat code is a code, not a number (12C is not the 12 of 2026-06-12, nor the
# seat 14C a 14 in the tool results), so both are asked about.


def correct(answer: str) -> dict[str, Any]:
    """The correct judge's script for one answer (tests/judge_server.py's `facts`)."""
    unnamed = NEVER_WRITTEN.get(answer, ("", []))[1]
    if answer == GREETING:
        return {"claims": {answer: ["Your seat on SK4705 is 14C."]}, "supported": ["Your seat on SK4705 is 14C."],
                "not_facts": ["Hi Ingrid!", "Have a nice trip!"]}
    if answer in FAITHFUL:
        return {"supported": [answer]}
    return {"contradicted": [] if answer == NOT_MENTIONED else [answer], "unnamed": unnamed}


def every_correct() -> dict[str, Any]:
    """One script for all 30 answers (no answer's script touches another's)."""
    merged: dict[str, Any] = {"claims": {}, "supported": [], "contradicted": [], "not_facts": [], "unnamed": []}
    for answer in FAITHFUL + UNFAITHFUL:
        for key, value in correct(answer).items():
            merged[key] = {**merged[key], **value} if key == "claims" else merged[key] + value
    return merged


def scores(make_judge: Any, run: Any) -> tuple[float, float]:
    """The faithfulness and hallucination scores of a run's answer against its tool results, by
    the scorers over HTTP (as assert_faithful / assert_not_hallucinated score a run)."""
    scored = judged(run)
    return (Faithfulness(make_judge()).run(scored.output, scored.context, input=scored.input).score,
            Hallucination(make_judge()).run(scored.output, scored.context, input=scored.input).score)


def passes(faithfulness: float, hallucination: float) -> bool:
    return faithfulness >= MIN_FAITHFULNESS and hallucination <= MAX_HALLUCINATION


def cases(answers: list[str], kind: str) -> list[Any]:
    return [pytest.param(sdk, answer, id=f"{sdk}-{kind}-{i:02}: {answer[:40]}")
            for sdk in SDKS for i, answer in enumerate(answers)]


# -- 1. three SDKs, one judge request ----------------------------------------------------------

def benchmark_passages() -> list[str]:
    """The passages docs/testing-agents.md promises for the benchmark's tool calls: JSON sorted and
    indented, text as text, the error text as a failure."""
    passages = []
    for call, (_, _, result) in zip(CALLS, TOOL_CALLS):
        if isinstance(result, dict):
            passages.append(f"{call} returned:\n{json.dumps(result, sort_keys=True, indent=2)}")
        else:
            passages.append(f"{call} {'failed' if result.startswith('Error: ') else 'returned'}: {result}")
    return passages


@pytest.mark.parametrize("sdk", SDKS)
def test_every_sdk_gives_the_benchmark_runs_passages_answer_and_question(sdk: str) -> None:
    answer = FAITHFUL[7]  # "I could not find a booking ZZ9999.": the failed call is its evidence
    run, benchmark = SDKS[sdk](answer), chat_run(answer)
    passages = tool_results(run)
    assert passages == benchmark_passages() == tool_results(benchmark)  # one a tool result, the list one too
    assert passages[3] == FAILED  # the error's message, as the benchmark's tool wrote it
    assert final_answer(run) == answer
    scored = judged(run)
    assert (scored.format, scored.input, scored.tool_calls, scored.failed_calls) == (sdk, QUESTION, CALLS, [3])
    assert scored.model_dump(exclude={"format"}) == judged(benchmark).model_dump(exclude={"format"})


@pytest.mark.parametrize("sdk", SDKS)
def test_the_signed_manage_url_is_returned_as_is_but_shown_and_sent_redacted(sdk: str) -> None:
    """tool_results hands the tool's data back as it is (the JWT in it); what a person or the judge
    sees is redacted: describe_run, and every request (next test)."""
    run = SDKS[sdk](FAITHFUL[2])
    assert f'"manage_url": "https://book.example.com/manage?token={JWT}"' in tool_results(run)[1]
    shown = describe_run(run)
    assert JWT not in shown and "manage?token=[secret 1]" in shown


def test_the_three_sdk_runs_are_the_same_judge_requests_without_the_jwt(server, make_judge) -> None:
    answer = FAITHFUL[2]
    server.facts(**correct(answer))
    sent = {}
    for sdk, make in SDKS.items():
        first = len(server.requests)
        assert scores(make_judge, make(answer)) == (1.0, 0.0)
        sent[sdk] = [json.dumps(r["body"], sort_keys=True) for r in server.requests[first:]]
    requests = sent["openai-agents"]
    assert len(requests) == 4 and sent == {sdk: requests for sdk in SDKS}  # claims + verdicts, per scorer
    verdicts = [json.dumps(r["body"]) for r in server.calls("verdicts")]
    assert len(verdicts) == 2 * 3 and all(json.dumps(FAILED)[1:-1] in body for body in verdicts)
    assert all(JWT not in body for body in requests) and all("manage?token=[secret 1]" in body for body in verdicts)


# -- 2. a correct judge: faithful answers pass, unfaithful ones fail -----------------------------

@pytest.mark.parametrize(("sdk", "answer"), cases(FAITHFUL, "faithful"))
def test_a_correct_judge_passes_every_faithful_answer(server, make_judge, sdk: str, answer: str) -> None:
    server.facts(**correct(answer))
    assert scores(make_judge, SDKS[sdk](answer)) == (1.0, 0.0)


@pytest.mark.parametrize(("sdk", "answer"), cases(UNFAITHFUL, "unfaithful"))
def test_a_correct_judge_fails_every_unfaithful_answer(server, make_judge, sdk: str, answer: str) -> None:
    server.facts(**correct(answer))
    faithfulness, hallucination = scores(make_judge, SDKS[sdk](answer))
    assert not passes(faithfulness, hallucination) and (faithfulness, hallucination) == (0.0, 1.0)


INNER = """
import functools
import pytest
import travel
from pytest_llmfaith import assert_faithful, assert_not_hallucinated

CASES = [(sdk, kind, i, answer) for sdk in travel.SDKS
         for kind, answers in (("faithful", travel.FAITHFUL), ("unfaithful", travel.UNFAITHFUL))
         for i, answer in enumerate(answers)]
run_of = functools.cache(lambda sdk, answer: travel.SDKS[sdk](answer))
each = pytest.mark.parametrize(("sdk", "answer"), [(s, a) for s, _, _, a in CASES],
                               ids=[f"{s}-{k}-{i:02}" for s, k, i, _ in CASES])

@each
def test_faithful(sdk, answer):
    assert_faithful(run_of(sdk, answer), min_score=1.0)

@each
def test_not_hallucinated(sdk, answer):
    assert_not_hallucinated(run_of(sdk, answer), max_score=0.0)
"""


@pytest.mark.usefixtures("litellm_warmed_up", "clean_env")
def test_in_a_pytest_run_faithful_answers_pass_unfaithful_fail_and_sdks_share_the_cache(pytester, server) -> None:
    server.facts(**every_correct())
    pytester.makepyfile(test_travel=INNER)
    result = run_inner(pytester, server, "--llm-report=report.json", "-p", "no:randomly", cache="use")
    result.assert_outcomes(passed=2 * 3 * len(FAITHFUL), failed=2 * 3 * len(UNFAITHFUL))
    outcomes = {r["test_id"].split("::")[1]: r for r in json.loads((pytester.path / "report.json").read_text())[
        "results"]}
    assert len(outcomes) == 180
    for test_id, entry in outcomes.items():
        sdk, kind = test_id.split("[")[1].rsplit("-", 2)[:2]
        result_ = entry["result"]
        assert (result_["agent_run"], result_["tool_calls"], result_["failed_tool_calls"]) == (sdk, CALLS, [3])
        assert entry["passed"] == (kind == "faithful"), (test_id, result_["score"])
        # the first SDK's runs asked; the same answer's run by another SDK is the same request: cached
        assert result_["judge_calls"] and (sdk == "openai-agents" or all(c["cached"] for c in result_["judge_calls"]))
    asked = [c for entry in outcomes.values() for c in entry["result"]["judge_calls"] if not c["cached"]]
    assert len(server.requests) == len(asked) >= len(FAITHFUL) + len(UNFAITHFUL)
    written = (pytester.path / "report.json").read_text() + result.stdout.str()
    assert JWT not in written and all(JWT not in json.dumps(r["body"]) for r in server.requests)


# -- 3. one wrong judge answer ------------------------------------------------------------------

def wrong_judge_cases() -> list[Any]:
    params = []
    for sdk in SDKS:
        for answer, (part, _) in NEVER_WRITTEN.items():
            params.append(pytest.param(sdk, answer, id=f"{sdk}: {part}"))
    return params


@pytest.mark.parametrize(("sdk", "answer"), wrong_judge_cases())
def test_one_wrong_judge_answer_does_not_pass_a_number_or_name_no_tool_result_writes(server, make_judge, sdk: str,
                                                                                     answer: str) -> None:
    """The verdict wrongly says supported; the specifics question, asked where the answer writes a
    name or number the tool results do not, is answered correctly (not given)."""
    server.facts(supported=[answer], unnamed=NEVER_WRITTEN[answer][1])
    faithfulness, hallucination = scores(make_judge, SDKS[sdk](answer))
    assert not passes(faithfulness, hallucination) and (faithfulness, hallucination) == (0.0, 1.0)


@pytest.mark.parametrize("scorer", [Faithfulness, Hallucination], ids=["faithfulness", "hallucination"])
@pytest.mark.parametrize("verdicts", ["all", "label"])
@pytest.mark.parametrize("answer", list(NEVER_WRITTEN), ids=[part for part, _ in NEVER_WRITTEN.values()])
def test_no_single_wrong_judge_answer_anywhere_passes_an_answer_no_tool_result_backs(server, make_judge, verdicts,
                                                                                     scorer, answer) -> None:
    """Every answer the judge gives for the assertion (each claim listed, left out; each verdict,
    narrow answer or label, turned round) made wrong in turn, over HTTP: none passes it."""
    server.facts(**correct(answer))
    scored = judged(chat_run(answer))
    line = MIN_FAITHFULNESS if scorer is Faithfulness else MAX_HALLUCINATION

    def passes() -> bool:
        return scorer(make_judge(verdicts=verdicts)).run(scored.output, scored.context).score == line

    assert server.wrong_answers_that_pass(passes) == []


# an unfaithful answer whose every name and number a tool result writes, but never together: one
# flight's value given to the other, a passenger on the other flight, the cheapest flight at the
# price another flight's is below, or without its price, a comparison the prices or times go the
# other way of; what the judge is asked about
SWAPPED = {
    "SK4705 costs 142 EUR.": ["142"],
    "The cheapest flight is SK4705 at 189 EUR.": ["189"],
    "The cheapest flight is SK4705.": ["SK4705"],
    "SK4705 is cheaper than DY1872.": ["cheaper"],
    "DY1872 leaves earlier than SK4705.": ["earlier"],
    "DY1872 has 0 stops.": ["0"],
    "DY1872 leaves at 07:10.": ["dy1872"],
    "Ingrid Dahl is booked on DY1872.": ["dy1872"],
}


@pytest.mark.parametrize("sdk", SDKS)
@pytest.mark.parametrize("answer", list(SWAPPED))
def test_one_wrong_judge_answer_does_not_pass_a_value_of_another_record(server, make_judge, sdk: str,
                                                                       answer: str) -> None:
    """The verdict wrongly says supported; every name and number is written, but the value only in
    another flight's record, so the judge is asked whether the results give it for this one: no."""
    server.facts(supported=[answer], unnamed=SWAPPED[answer])
    faithfulness, hallucination = scores(make_judge, SDKS[sdk](answer))
    assert (faithfulness, hallucination) == (0.0, 1.0)


@pytest.mark.parametrize("scorer", [Faithfulness, Hallucination], ids=["faithfulness", "hallucination"])
@pytest.mark.parametrize("verdicts", ["all", "label"])
@pytest.mark.parametrize("answer", list(SWAPPED))
def test_no_single_wrong_judge_answer_anywhere_passes_a_value_of_another_record(server, make_judge, verdicts,
                                                                               scorer, answer) -> None:
    server.facts(contradicted=[answer], unnamed=SWAPPED[answer])
    scored = judged(chat_run(answer))
    line = MIN_FAITHFULNESS if scorer is Faithfulness else MAX_HALLUCINATION

    def passes() -> bool:
        return scorer(make_judge(verdicts=verdicts)).run(scored.output, scored.context).score == line

    assert server.wrong_answers_that_pass(passes) == []
