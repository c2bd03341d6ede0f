"""XllamaEngine, the offline judge on prebuilt llama.cpp (xllamacpp) where no compiler is (issue 35.4).

Its rules without a model, on a stand-in xllamacpp module: what it asks the runtime for (one slot,
no prompt cache), the shape of its answers, its errors, the loop cut. Then on the real weights, one
server for the module, with xllamacpp installed from PyPI into a folder of its own (as an install
without a compiler gets it) and reached over HTTP: a label is the same bits whatever came before,
a schema's answer fits it, a bad request is a clear HTTP error.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
import types
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, NoReturn

import pytest

from pytest_llmfaith.errors import LocalJudgeUnavailable
from pytest_llmfaith.judge.question import schema_json
from pytest_llmfaith.local.engine import RepetitionError, fits
from pytest_llmfaith.local.launcher import ServerState, server_files
from pytest_llmfaith.local.prebuilt_engine import XllamaEngine
from pytest_llmfaith.local.weights import LocalModel, resolve_local_model
from pytest_llmfaith.processes.loopback import request_json
from pytest_llmfaith.processes.service import Service, ServiceFiles
from pytest_llmfaith.scorers.base import verdict_schemas

XLLAMACPP = "xllamacpp==2026.10.11549"
RUNTIME = "xllamacpp-test"  # the runtime our test server names in /health
NO_PROXY = urllib.request.build_opener(urllib.request.ProxyHandler({}))


# --- without a model: a stand-in for the xllamacpp module --------------------------------------

class FakeServer:
    """Answers each request with the next scripted answer: a dict, or a list of stream chunks."""

    def __init__(self, params: Any) -> None:
        self.params = params
        self.requests: list[dict[str, Any]] = []
        self.answers: list[Any] = []
        self.delivered = 0  # stream chunks the engine took before it stopped the stream

    def handle_chat_completions(self, request: dict[str, Any], callback: Callable[[Any], bool] | None = None) -> Any:
        self.requests.append(request)
        answer = self.answers.pop(0)
        if callback is None:
            return answer
        for self.delivered, chunk in enumerate(answer, start=1):
            if callback(chunk):
                break
        return None


@pytest.fixture
def fake_xllamacpp(monkeypatch: pytest.MonkeyPatch) -> None:
    """`import xllamacpp` finds this stand-in (sys.modules may hold any object)."""

    def params() -> types.SimpleNamespace:
        return types.SimpleNamespace(model=types.SimpleNamespace(), cpuparams=types.SimpleNamespace(),
                                     cpuparams_batch=types.SimpleNamespace(), cache_prompt=True, n_parallel=4)

    info = "CPU : SSE3 = 1 | AVX = 1 | AVX2 = 1 | AVX512 = 0 | F16C = 1 | FMA = 1 | OPENMP = 1 | "
    monkeypatch.setitem(sys.modules, "xllamacpp", types.SimpleNamespace(
        CommonParams=params, Server=FakeServer, get_system_info=lambda: info))


@pytest.fixture
def engine(fake_xllamacpp: None) -> XllamaEngine:
    return XllamaEngine(Path("/models/m.gguf"), 2048, 3)


def fake(engine: XllamaEngine) -> FakeServer:
    server = engine._server
    assert isinstance(server, FakeServer)
    return server


def test_it_asks_for_one_slot_without_a_prompt_cache(engine: XllamaEngine) -> None:
    params = fake(engine).params
    assert (params.n_parallel, params.cache_prompt, params.cache_ram_mib) == (1, False, 0)
    assert (params.model.path, params.n_ctx, params.fit_params) == ("/models/m.gguf", 2048, False)
    assert params.cpuparams.n_threads == params.cpuparams_batch.n_threads == 3
    assert params.warmup is False and params.use_jinja is True
    assert len(params.api_keys) == 1 and len(params.api_keys[0]) > 30  # its own HTTP port answers no one


def chat_answer(**extra: Any) -> dict[str, Any]:
    return {"id": "chatcmpl-x", "object": "chat.completion", "choices": [
        {"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": "ok"}}],
        "usage": {"prompt_tokens": 7, "completion_tokens": 1, "total_tokens": 8}, **extra}


def test_a_label_is_shaped_as_llama_engines(engine: XllamaEngine) -> None:
    top = [{"id": 1, "token": "yes", "bytes": list(b"yes"), "logprob": -0.25},
           {"id": 2, "token": "", "bytes": [0xE2, 0x80], "logprob": -2.5}]  # part of a character
    fake(engine).answers.append(chat_answer(
        choices=[{"index": 0, "finish_reason": "length", "message": {"role": "assistant", "content": "yes"},
                  "logprobs": {"content": [{**top[0], "top_logprobs": top}]}}],
        usage={"prompt_tokens": 40, "completion_tokens": 1, "total_tokens": 41},
        timings={"prompt_n": 40, "cache_n": 0}))
    answer = engine({"messages": [{"role": "user", "content": "q"}], "max_tokens": 1, "temperature": 0,
                     "logprobs": True, "top_logprobs": 50})
    sent = fake(engine).requests[0]
    assert (sent["top_logprobs"], sent["post_sampling_probs"], sent["cache_prompt"]) == (20, False, False)
    choice = answer["choices"][0]
    assert [(e["token"], e["logprob"]) for e in choice["logprobs"]["content"][0]["top_logprobs"]] == [
        ("yes", -0.25), ("\ufffd", -2.5)]
    assert choice["message"]["content"] == choice["logprobs"]["content"][0]["token"] == "yes"
    assert answer["usage"] == {"prompt_tokens": 40, "completion_tokens": 1, "total_tokens": 41,
                               "prompt_tokens_read": 40}


def test_a_label_needs_one_token(engine: XllamaEngine) -> None:
    with pytest.raises(ValueError, match="max_tokens=1"):
        engine({"messages": [{"role": "user", "content": "q"}], "max_tokens": 5, "logprobs": True})
    assert fake(engine).requests == []


def test_plain_requests_pass_their_sampling_on(engine: XllamaEngine) -> None:
    fake(engine).answers += [chat_answer(), chat_answer()]
    request = {"messages": [{"role": "user", "content": "q"}], "max_tokens": 9, "temperature": 0.7, "top_p": 0.9,
               "seed": 3, "stop": ["\n"]}
    assert engine(request)["choices"][0]["message"]["content"] == "ok"
    engine({**request, "response_format": {"type": "json_object"}})
    assert fake(engine).requests == [{**request, "cache_prompt": False},
                                     {**request, "response_format": {"type": "json_object"}, "cache_prompt": False}]


@pytest.mark.parametrize("code, error", [(400, ValueError), (500, RuntimeError)])
def test_its_errors_are_raised_with_its_message(engine: XllamaEngine, code: int, error: type[Exception]) -> None:
    fake(engine).answers.append({"error": {"code": code, "message": "request (9000 tokens) exceeds the context"}})
    with pytest.raises(error, match=r"request \(9000 tokens\) exceeds the context"):
        engine({"messages": [{"role": "user", "content": "q"}], "max_tokens": 5})


CLAIMS = {"type": "object", "properties": {"claims": {"type": "array", "items": {"type": "string"}}},
          "required": ["claims"]}


def stream(*pieces: str, usage: dict[str, int] | None = None) -> list[dict[str, Any]]:
    chunks: list[dict[str, Any]] = [{"id": "chatcmpl-s", "choices": [{"delta": {"content": piece}}],
                                     "timings": {"prompt_n": 30, "cache_n": 0}} for piece in pieces]
    chunks.append({"id": "chatcmpl-s", "choices": [{"delta": {}, "finish_reason": "stop"}]})
    return chunks + ([{"id": "chatcmpl-s", "choices": [], "usage": usage}] if usage else [])


def claims_request() -> dict[str, Any]:
    return {"messages": [{"role": "user", "content": "q"}], "max_tokens": 200, "temperature": 0,
            "response_format": {"type": "json_object", "schema": CLAIMS}}


def test_a_schema_is_generated_under_its_grammar(engine: XllamaEngine) -> None:
    fake(engine).answers.append(stream(' {"claims"', ': ["a"]}', usage={"prompt_tokens": 30, "completion_tokens": 2}))
    answer = engine(claims_request())
    sent = fake(engine).requests[0]
    assert sent["json_schema"] == CLAIMS and "response_format" not in sent and sent["stream"] is True
    assert answer["choices"][0] == {"index": 0, "finish_reason": "stop",
                                    "message": {"role": "assistant", "content": '{"claims": ["a"]}'}}
    assert answer["usage"] == {"prompt_tokens": 30, "completion_tokens": 2, "total_tokens": 32}


def test_a_greedy_loop_is_stopped_and_cut_after_its_last_whole_item(engine: XllamaEngine) -> None:
    looping = ['{"claims": ["Acme costs $8 a month.", ', *['"Each extra 100 GB costs $2.", '] * 6, '"x"]}']
    fake(engine).answers.append(stream(*looping))
    answer = engine(claims_request())
    assert fake(engine).delivered == 4  # stopped at the third copy, not at the end of the stream
    assert answer["id"].startswith("json-loop-cut-")
    assert json.loads(answer["choices"][0]["message"]["content"]) == {
        "claims": ["Acme costs $8 a month.", "Each extra 100 GB costs $2."]}
    assert answer["usage"] == {"prompt_tokens": 30, "completion_tokens": 4, "total_tokens": 34}


def test_a_loop_before_any_whole_item_is_an_error(engine: XllamaEngine) -> None:
    fake(engine).answers.append(stream('{"claims": "', *["per month, "] * 5))
    with pytest.raises(RepetitionError, match="repeated itself"):
        engine(claims_request())


def test_an_error_in_the_stream_is_raised(engine: XllamaEngine) -> None:
    fake(engine).answers.append([{"error": {"code": 400, "message": "exceeds the available context size"}}])
    with pytest.raises(ValueError, match="exceeds the available context size"):
        engine(claims_request())


def unavailable(reason: str) -> NoReturn:
    if os.environ.get("LLMFAITH_REQUIRE_LOCAL") == "1":
        pytest.fail(f"LLMFAITH_REQUIRE_LOCAL=1 but {reason}")
    pytest.skip(reason)


@pytest.fixture(scope="session")
def xllamacpp_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """xllamacpp installed from PyPI into a folder of its own, as --llama-cpp-path takes it."""
    folder = tmp_path_factory.mktemp("xllamacpp")
    command = [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--disable-pip-version-check",
               "--target", str(folder), XLLAMACPP]
    done = subprocess.run(command, capture_output=True, text=True, timeout=900, check=False)
    if done.returncode != 0:
        unavailable(f"pip could not install {XLLAMACPP} (no index or no wheel here?): {done.stderr.strip()[-600:]}")
    return folder


@pytest.fixture(scope="module")
def weights() -> LocalModel:
    """The installed default weights (llama-cpp-python is not needed: xllamacpp replaces it)."""
    try:
        return resolve_local_model("local")
    except LocalJudgeUnavailable as exc:
        unavailable(f"the offline judge's weights are not installed: {exc}")


@pytest.fixture(scope="module")
def xserver(weights: LocalModel, xllamacpp_folder: Path, tmp_path_factory: pytest.TempPathFactory
            ) -> Iterator[tuple[ServerState, ServiceFiles[ServerState]]]:
    """One server for the module, started by the kit the launcher uses, in a private run folder."""
    files = server_files(weights.sha256, tmp_path_factory.mktemp("xrun"), RUNTIME)

    def healthy(state: ServerState) -> bool:
        try:
            return request_json(state.port, "/health").get("runtime") == RUNTIME
        except (OSError, ValueError):
            return False

    arguments = ["--model", str(weights.path), "--sha256", weights.sha256, "--name", weights.name,
                 "--run-dir", str(files.state.parent), "--idle-timeout", "300", "--runtime", RUNTIME,
                 "--n-ctx", "4096", "--threads", "2",
                 "--engine", "xllamacpp", "--llama-cpp-path", str(xllamacpp_folder)]
    state = Service(files, "pytest_llmfaith.local.server", healthy, 300).find_or_start(os.getpid(), lambda: arguments)
    yield state, files

    def stop(live: ServerState) -> None:
        request_json(live.port, "/shutdown", method="POST")

    files.release(None, stop)


def post(state: ServerState, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(f"{state.api_base}/chat/completions", data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    with NO_PROXY.open(request, timeout=600) as response:
        answer: dict[str, Any] = json.loads(response.read())
        return answer


SYSTEM = "Du prüfst eine Aussage an einem Kontext. Antworte nur mit yes oder no."
GERMAN = ("Die Nordlicht Systems GmbH wurde 2011 in Hamburg gegründet. Das Unternehmen beschäftigt 400 Menschen, "
          "die meisten davon Ingenieure, und hat Büros in Hamburg und Lissabon.")


def label(state: ServerState, context: str, claim: str) -> tuple[list[tuple[str, float]], dict[str, Any]]:
    answer = post(state, {
        "model": "local", "temperature": 0, "max_tokens": 1, "logprobs": True, "top_logprobs": 5,
        "messages": [{"role": "system", "content": SYSTEM},
                     {"role": "user", "content": f"Kontext:\n{context}\n\nAussage: {claim}\nyes oder no?"}]})
    top = answer["choices"][0]["logprobs"]["content"][0]["top_logprobs"]
    return [(entry["token"], entry["logprob"]) for entry in top], answer["usage"]


def test_the_server_runs_xllamacpp_from_its_folder(xserver: tuple[ServerState, ServiceFiles[ServerState]],
                                                   xllamacpp_folder: Path) -> None:
    state, files = xserver
    assert request_json(state.port, "/health")["runtime"] == RUNTIME
    assert f"xllamacpp from {xllamacpp_folder}" in files.log_of(state.pid).read_text()


def test_a_label_is_the_same_bits_whatever_the_server_read_before(
        xserver: tuple[ServerState, ServiceFiles[ServerState]]) -> None:
    """Alone, after another context, after a shorter and a longer prompt sharing its prefix, and
    after them in another order: no prefix is reused, so nothing moves it."""
    state, _ = xserver
    claim = "Nordlicht beschäftigt 400 Menschen."
    others = {"unrelated": ("Paris ist die Hauptstadt Frankreichs.", "Paris liegt in Frankreich."),
              "shorter": (GERMAN[:90], "Nordlicht wurde 2011 gegründet."),
              "longer": (GERMAN + " Der Sitz ist in Hamburg.", claim)}
    fresh, usage = label(state, GERMAN, claim)
    assert fresh[0][0].lower() == "yes" and len(fresh) == 5
    assert all(b <= a < 0 for (_, a), (_, b) in zip(fresh, fresh[1:]))  # log-probabilities, best first
    assert 0.5 < sum(math.exp(lp) for _, lp in fresh) <= 1.0 + 1e-6  # of the whole vocabulary, not of the top 5
    assert usage["prompt_tokens_read"] == usage["prompt_tokens"] > 50  # read whole: nothing reused
    answers = {}
    for before in [["unrelated"], ["shorter"], ["longer"], ["longer", "shorter", "unrelated"]]:
        for other in before:
            label(state, *others[other])
        answers[" then ".join(before)], usage = label(state, GERMAN, claim)
        assert usage["prompt_tokens_read"] == usage["prompt_tokens"]
    assert {name: answer for name, answer in answers.items() if answer != fresh} == {}


VERDICT = verdict_schemas("T", ("yes", "no", "unsure"))[0]  # the judge's own schema for one verdict


def test_a_schema_request_answers_json_that_fits_it(xserver: tuple[ServerState, ServiceFiles[ServerState]]) -> None:
    state, _ = xserver
    schema = schema_json(VERDICT)
    answer = post(state, {
        "model": "local", "temperature": 0, "seed": 0, "max_tokens": 120,
        "messages": [{"role": "system", "content": "Judge the statement against the context: yes, no or unsure. "
                                                   "Give a reason of a few words."},
                     {"role": "user", "content": f"Context: {GERMAN}\nStatement: Nordlicht has an office in Madrid."}],
        "response_format": {"type": "json_schema", "json_schema": {"name": "verdict", "schema": schema}}})
    assert answer["choices"][0]["finish_reason"] == "stop"
    content = answer["choices"][0]["message"]["content"]
    assert fits(json.loads(content), schema, schema), content
    VERDICT.model_validate_json(content)
    usage = answer["usage"]
    assert usage["total_tokens"] == usage["prompt_tokens"] + usage["completion_tokens"] > usage["prompt_tokens"] > 50


@pytest.mark.parametrize("body, status, message", [
    ({"messages": [{"role": "user", "content": "Nordlicht " * 5000}], "max_tokens": 1},
     400, "exceeds the available context size"),  # xllamacpp's own check
    ({"messages": [{"role": "user", "content": "q"}], "max_tokens": 20,
      "response_format": {"type": "json_schema", "json_schema": {"schema": {"type": "bogus"}}}},
     400, "unrecognized type bogus"),  # its schema compiler's
    ({"messages": [{"role": "user", "content": "q"}], "max_tokens": 3, "logprobs": True}, 400, "max_tokens=1"),
])
def test_a_bad_request_is_a_clear_http_error(xserver: tuple[ServerState, ServiceFiles[ServerState]],
                                             body: dict[str, Any], status: int, message: str) -> None:
    state, _ = xserver
    with pytest.raises(urllib.error.HTTPError) as caught:
        post(state, body)
    error = json.loads(caught.value.read())["error"]
    assert (caught.value.code, error["code"], error["type"]) == (status, status, "invalid_request_error")
    assert message in error["message"]
    assert request_json(state.port, "/health")["status"] == "ok"  # and it still serves
