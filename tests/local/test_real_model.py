"""End to end on the real runtime and weights (installed in CI by .ci/run).

Kept to a handful of short generations (well under a minute on 2 cores): the shared server
is started once and reused; the lifecycle test uses a private run folder so it never stops
a server another test (or xdist worker) is using.
"""

from __future__ import annotations

import json
import os
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from pytest_llmfaith.errors import LocalJudgeUnavailable
from pytest_llmfaith.local.launcher import ServerState, ensure_server, run_files, runtime_identity, shutdown_server
from pytest_llmfaith.local.weights import LocalModel
from pytest_llmfaith.processes.service import ServiceFiles

NO_PROXY = urllib.request.build_opener(urllib.request.ProxyHandler({}))
VERDICT_SCHEMA = {
    "type": "object",
    "properties": {
        "verdict": {"type": "string", "enum": ["yes", "no", "unsure"]},
        "reason": {"type": "string"},
    },
    "required": ["verdict", "reason"],
    "additionalProperties": False,
}
SYSTEM = (
    "You check one claim against a context. Use only the context, never your own knowledge. "
    "verdict is yes if the context states the claim, no if the context contradicts it, "
    "unsure if the context does not mention it."
)
CONTEXT = "The team meeting is on Tuesday at 10:00 in room 4B. Anna chairs the meeting."


def post(base: str, path: str, body: dict) -> dict:
    request = urllib.request.Request(base + path, data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    with NO_PROXY.open(request, timeout=300) as response:
        return json.loads(response.read())


def verdict(base: str, claim: str) -> dict:
    answer = post(base, "/chat/completions", {
        "model": "local",
        "temperature": 0,
        "seed": 0,
        "max_tokens": 120,
        "messages": [{"role": "system", "content": SYSTEM},
                     {"role": "user", "content": f"Context:\n{CONTEXT}\n\nClaim: {claim}"}],
        "response_format": {"type": "json_schema",
                            "json_schema": {"name": "verdict", "schema": VERDICT_SCHEMA, "strict": True}},
    })
    assert answer["object"] == "chat.completion"
    usage = answer["usage"]
    assert usage["total_tokens"] == usage["prompt_tokens"] + usage["completion_tokens"] > 0
    return json.loads(answer["choices"][0]["message"]["content"])


def server_pids(files: ServiceFiles[ServerState]) -> list[int]:
    """Live server processes using this run folder, model and runtime, from /proc."""
    _, sha, runtime = files.state.stem.split("-", 2)  # server-<sha256>-<runtime>
    needles = (str(files.state.parent).encode(), sha.encode(), runtime.encode())
    pids = []
    for proc in Path("/proc").iterdir():
        try:
            cmdline = (proc / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        joined = b" ".join(cmdline)
        if b"pytest_llmfaith.local.server" in cmdline and all(n in joined for n in needles):
            pids.append(int(proc.name))
    return pids


@pytest.fixture(scope="module")
def shared_base(real_model: LocalModel) -> Iterator[str]:
    """The shared server's api base; our lease is released afterwards (others keep theirs)."""
    yield ensure_server(real_model)
    shutdown_server(real_model)


def test_real_model_answers_schema_valid_sensible_verdicts(shared_base: str) -> None:
    base = shared_base
    supported = verdict(base, "The meeting is on Tuesday.")
    contradicted = verdict(base, "The meeting is on Friday.")
    assert set(supported) == set(contradicted) == {"reason", "verdict"}
    assert supported["verdict"] == "yes"
    assert contradicted["verdict"] == "no"


TRASH = ["Deleted files stay in the trash for 30 days before they are removed permanently. Admins can empty "
         "the trash at any time from Settings > Storage.",
         "Restoring a file from the trash puts it back in its original folder. If the folder was deleted too, "
         "the file is restored to the root folder."]
NORDLICHT = ["Nordlicht Systems was founded in 2011 in Hamburg. The company employs 400 people, most of them "
             "engineers, and has offices in Hamburg and Lisbon.",
             "Its main product is a scheduling platform for hospitals. In 2023 it reported revenue of 38 million "
             "euros."]  # benchmarks/labelled/rag_written.jsonl, rag-000 and rag-008


@pytest.mark.parametrize("output, context, faithful", [
    # the two misses a new user reported (issue 14): a correct paraphrase, and 40 for 400
    ("Deleted files remain in the trash for 30 days, after which they are permanently removed.", TRASH, True),
    ("Nordlicht Systems employs 40 people, most of whom are engineers.", NORDLICHT, False),
])
def test_the_offline_judge_gets_the_misses_users_reported_right(real_model: LocalModel, shared_base: str,
                                                                 output: str, context: list[str],
                                                                 faithful: bool) -> None:
    from pytest_llmfaith import Faithfulness, Judge, JudgeCache, JudgeConfig

    judge = Judge(JudgeConfig(model=f"local:{real_model.path}"), JudgeCache(None, "off"))
    result = Faithfulness(judge).run(output, context)
    assert (result.score == 1.0) is faithful, result.reason


@pytest.mark.parametrize("output, sentence, states_fact", [
    # languages and greetings its worked examples (scorers/questions.py FACT_EXAMPLES) do not use
    ("Merhaba! Müze pazartesi günleri kapalıdır.", "Merhaba!", False),
    ("감사합니다! 배송은 3일 걸립니다.", "감사합니다!", False),
    ("Спасибо за вопрос! Доставка бесплатная.", "Спасибо за вопрос!", False),
    ("Xin chào! Cửa hàng mở cửa lúc 8 giờ.", "Xin chào!", False),
    ("Xin chào! Cửa hàng mở cửa lúc 8 giờ.", "Cửa hàng mở cửa lúc 8 giờ.", True),
    ("The museum is closed on Mondays.", "The museum is closed on Mondays.", True),
    ("Acme was founded by two engineers.", "Acme was founded by two engineers.", True),
])
def test_the_facts_question_tells_greetings_and_thanks_from_facts(real_model: LocalModel, shared_base: str,
                                                                   output: str, sentence: str,
                                                                   states_fact: bool) -> None:
    """Asked without worked examples, the offline judge said yes to greetings and thanks as often as
    to facts (benchmarks/HISTORY.md, round 13)."""
    from pytest_llmfaith import Judge, JudgeCache, JudgeConfig
    from pytest_llmfaith.scorers import questions

    judge = Judge(JudgeConfig(model=f"local:{real_model.path}"), JudgeCache(None, "off"))
    found, calls = questions.states_facts(judge, output, [(sentence, ())])
    assert found == [states_fact], calls


@pytest.mark.parametrize("output, context, faithful", [
    # a greeting or thanks beside a fact, in languages the worked examples do not use: the claims
    # step leaves it out (its worked example opens with "Hi!" and ends with thanks), so it never
    # fails a faithful answer... (a greeting it does list is judged: the safe side, scoring.md)
    ("감사합니다! 배송은 3일 걸립니다.", ["배송은 3일 걸립니다."], True),
    ("Dzień dobry! Sklep jest otwarty od 9 do 17.", ["Sklep jest otwarty od 9 do 17."], True),
    # ...and never passes a made-up one
    ("Merhaba! Müze salı günleri kapalıdır.", ["Müze pazartesi günleri kapalıdır."], False),
    ("Спасибо за вопрос! Доставка стоит 500 рублей.", ["Доставка бесплатная."], False),
])
def test_a_greeting_beside_a_fact_decides_nothing(real_model: LocalModel, shared_base: str, output: str,
                                                   context: list[str], faithful: bool) -> None:
    from pytest_llmfaith import Faithfulness, Judge, JudgeCache, JudgeConfig

    judge = Judge(JudgeConfig(model=f"local:{real_model.path}"), JudgeCache(None, "off"))
    result = Faithfulness(judge).run(output, context)
    assert (result.score == 1.0) is faithful, (result.claims, result.reason, result.notes)


def test_ensure_server_reuses_the_running_server(real_model: LocalModel, shared_base: str) -> None:
    first = ensure_server(real_model)
    assert first == shared_base
    started = time.monotonic()
    second = ensure_server(real_model)
    assert second == first
    assert time.monotonic() - started < 1.0
    files = run_files(real_model)
    state = files.read()
    assert state is not None and state.api_base == first
    assert server_pids(files) == [state.pid]
    with NO_PROXY.open(first.removesuffix("/v1") + "/health", timeout=5) as response:
        assert json.loads(response.read())["runtime"] == runtime_identity()
    assert files.state.stem.endswith(f"-{runtime_identity()}")
    assert "llama_cpp" not in sys.modules  # the client names the runtime without loading it


def test_private_server_lifecycle(real_model: LocalModel, model_dir: Path, machine_variant: str,
                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """The last lease given up stops the server (leases, idle exits and deaths are the kit's:
    tests/processes/)."""
    monkeypatch.setenv("LLMFAITH_LOCAL_VARIANT", machine_variant)
    files = run_files(real_model)
    base = ensure_server(real_model)
    pid = files.read().pid
    assert ensure_server(real_model) == base
    assert files.leases.live() == [os.getpid()]
    assert shutdown_server(real_model).pid == pid  # the last user's release stops it
    assert not files.state.exists()
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)
    assert shutdown_server(real_model) is None  # nothing running: a no-op
    assert any("serving on 127.0.0.1" in log.read_text() for log in files.log.parent.glob("*.log"))


def test_server_that_cannot_load_reports_its_log(
    real_model: LocalModel, model_dir: Path, tmp_path: Path, machine_variant: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LLMFAITH_LOCAL_VARIANT", machine_variant)
    broken = tmp_path / "broken.gguf"
    broken.write_bytes(b"GGUF" + b"\0" * 4096)
    model = LocalModel(path=broken, sha256="0" * 64, name="broken")
    with pytest.raises(LocalJudgeUnavailable, match="exited with code") as caught:
        ensure_server(model)
    assert f"cannot load {broken}" in str(caught.value)


DETERMINISM_SYSTEM = "Du prüfst eine Aussage an einem Kontext. Antworte nur mit yes oder no."
GERMAN = ("Die Nordlicht Systems GmbH wurde 2011 in Hamburg gegründet. Das Unternehmen beschäftigt 400 Menschen, "
          "die meisten davon Ingenieure, und hat Büros in Hamburg und Lissabon. Sein Hauptprodukt ist eine "
          "Planungsplattform für Krankenhäuser. Im Jahr 2023 meldete es einen Umsatz von 38 Millionen Euro.")


def label(base: str, context: str, claim: str) -> tuple[list[tuple[str, float]], dict]:
    """The top next-token logprobs for one claim, exactly as the server sent them, and its usage."""
    answer = post(base, "/chat/completions", {
        "model": "local", "temperature": 0, "max_tokens": 1, "logprobs": True, "top_logprobs": 5,
        "messages": [{"role": "system", "content": DETERMINISM_SYSTEM},
                     {"role": "user", "content": f"Kontext:\n{context}\n\nAussage: {claim}\nyes oder no?"}]})
    top = answer["choices"][0]["logprobs"]["content"][0]["top_logprobs"]
    return [(entry["token"], entry["logprob"]) for entry in top], answer["usage"]


def test_a_label_is_the_same_bits_whatever_the_server_read_before(shared_base: str) -> None:
    """Issue 25.6: the same request after a fresh start, after a request sharing a shorter or a
    longer prefix, after itself, and after several in another order."""
    claim = "Nordlicht beschäftigt 400 Menschen."
    others = {"unrelated": ("Paris ist die Hauptstadt Frankreichs.", "Paris liegt in Frankreich."),
              "same context": (GERMAN, "Nordlicht wurde 2012 gegründet."),
              "shorter": (GERMAN[:130], "Nordlicht hat Büros in Lissabon."),
              "longer": (GERMAN + " Der Sitz ist in Hamburg.", claim),
              "itself": (GERMAN, claim)}
    answers = {}
    for before in [*[[name] for name in others], ["longer", "same context", "shorter"]]:
        for other in before:
            label(shared_base, *others[other])
        answers[" then ".join(before)], _ = label(shared_base, GERMAN, claim)
    fresh = answers["unrelated"]
    assert fresh[0][0].lower() == "yes"
    assert {name: answer for name, answer in answers.items() if answer != fresh} == {}
    # its prefix comes from the cache: asked back to back
    assert_prefix_reused(shared_base, [others["same context"]], claim, fresh)


PREFIX_TRIES = 5


def assert_prefix_reused(shared_base: str, before: list[tuple[str, str]], claim: str, fresh: object) -> None:
    """Asked after `before`, the claim's label has the same bits and its context comes from the
    cache, in one of a few tries: another run may use the shared server in between (issue 35.5)."""
    for _ in range(PREFIX_TRIES):
        for asked in before:
            label(shared_base, *asked)
        answer, usage = label(shared_base, GERMAN, claim)
        assert answer == fresh
        if usage["prompt_tokens_read"] < usage["prompt_tokens"] / 2:
            return
    pytest.fail(f"the context was read again after {before} in each of {PREFIX_TRIES} tries")


def test_a_context_read_before_another_prompt_is_put_back_not_read_again(shared_base: str) -> None:
    """A suite's tests share a context, and other questions (does this sentence state a fact?)
    come between their verdicts: the context's prefix, kept aside, is put back with the same bits."""
    claim = "Nordlicht beschäftigt 400 Menschen."
    fresh, _ = label(shared_base, GERMAN, claim)
    assert_prefix_reused(shared_base, [(GERMAN, "Nordlicht wurde 2012 gegründet."),
                                       ("Paris ist die Hauptstadt Frankreichs.", "Paris liegt in Frankreich.")],
                         claim, fresh)


SUITE = """
import pytest

CONTEXT = [{context!r}]
OUTPUTS = {outputs!r}


@pytest.mark.parametrize("name", list(OUTPUTS))
def test_output(llm_judge, name):
    llm_judge.assert_faithful(OUTPUTS[name], CONTEXT, min_score=0.7)
"""


def test_the_same_scores_serial_under_xdist_and_in_another_order(real_model: LocalModel, shared_base: str,
                                                                 pytester: pytest.Pytester) -> None:
    """Issue 25.6: a run's layout (workers, order) never changes a score of the offline judge."""
    outputs = {"founded": "Nordlicht wurde 2011 in Hamburg gegründet und beschäftigt 400 Menschen.",
               "offices": "Nordlicht hat Büros in Hamburg und Madrid und meldete 2023 38 Millionen Euro Umsatz."}
    runs = []
    for order, args in [(outputs, ()), (outputs, ("-n", "2")), (dict(reversed(outputs.items())), ())]:
        pytester.makepyfile(test_de=SUITE.format(context=GERMAN, outputs=order))
        result = pytester.runpytest_subprocess(f"--llm-judge-model=local:{real_model.path}", "--llm-cache=off",
                                               "--llm-report=report.json", *args)
        report = json.loads((pytester.path / "report.json").read_text())
        runs.append({r["key"]: (r["result"]["score"], r["outcome"]) for r in report["results"]})
        assert len(runs[-1]) == 2, result.stdout.str()
    assert runs[0] == runs[1] == runs[2]
