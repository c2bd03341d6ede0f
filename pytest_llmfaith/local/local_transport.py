"""The offline judge's backend (what a judge of a local model is handed) and its transport: each
request, the body every transport sends, to the shared server on 127.0.0.1 with the standard
library, never through litellm, whose import (5-7 s) every xdist worker would pay to talk to a
server of ours. The server is found or started on the first request (the one line that says a model
loads), and replaced once if it dies: a crash that repeats would only repeat again.
"""

from __future__ import annotations

import http.client
import json
import threading
import time

from pytest_llmfaith.errors import LocalJudgeUnavailable, LocalServerDied
from pytest_llmfaith.judge.backend import (
    Announce,
    Completion,
    CompletionRequest,
    JudgeConfig,
    Traits,
    chat_body,
    judge_failure,
    parse_completion,
)
from pytest_llmfaith.local.kernels import VARIANT_ENV, choose, identity, replay_hint
from pytest_llmfaith.local.launcher import ServerState, ensure_server_state, run_files, shutdown_server
from pytest_llmfaith.local.weights import LocalModel, resolve_local_model
from pytest_llmfaith.processes.loopback import exchange
from pytest_llmfaith.processes.service import Hold

# One server, answering one request at a time from its KV cache, at a local address that changes.
OFFLINE = Traits(api_base_in_key=False, one_at_a_time=True, timeout=600.0, verdicts="label", asks_in_turn=True)
SERVER_MODEL = "local"  # the server's one model, named as litellm named it ("openai/local")
NAME = "The offline judge server"
CRASH_FIX = ("a crash inside the llama.cpp runtime, most often a build for another CPU's "
             "instructions: rebuild llama-cpp-python portably (`make clean install` in a checkout "
             "of pytest-llmfaith; README, \"The offline judge\"), or, if the loading line named other "
             f"kernels than the portable ones, run those with {VARIANT_ENV}=portable; if it still crashes, "
             "report it with this log")
OTHER_FIX = ("it was stopped (e.g. `python -m pytest_llmfaith local stop`) or failed: its log says "
             "which; if it failed on its own, report it with this log")
# What litellm named an answer of each status; the fixes where a hosted judge's would mislead.
_KINDS = {400: "BadRequestError", 404: "NotFoundError", 500: "InternalServerError", 503: "ServiceUnavailableError"}
_HINTS = {
    "APIConnectionError": "the offline judge server runs but does not answer; `python -m pytest_llmfaith "
                          "local stop` ends it, and the next judge call starts another",
    "BadRequestError": "the offline judge server refused the request (see its message: a prompt longer than "
                       "its context window, a schema it cannot compile)",
}


class LocalTransport:
    """The judge's way to the offline judge's server (OfflineBackend makes it)."""

    def __init__(self, config: JudgeConfig, announce: Announce | None, idle_timeout: float | None = None) -> None:
        self.config = config
        self.idle_timeout = idle_timeout  # of a server it starts (OfflineBackend's)
        self.announce = announce  # (model and kernels, None) when a load starts; (..., seconds) when ready
        self.model: LocalModel | None = None
        self.hold: Hold[ServerState] = Hold(self._find, lambda pid: run_files(self._model()).log_of(pid))
        self._lock = threading.Lock()
        # At most --llm-judge-concurrency requests of this process at the server (it answers one at a
        # time), as litellm's throttle held them: a request waiting here does not spend its timeout.
        self._slots = threading.BoundedSemaphore(max(1, config.concurrency))
        self._timeout = OFFLINE.request_timeout(config)

    def complete(self, request: CompletionRequest) -> Completion:
        """As LiteLLMTransport: transient failures (no connection, a timeout, a 5xx) are tried again
        --llm-judge-retries times; a refused request is not."""
        step, cfg = request.step, self.config
        body = json.dumps(chat_body(request, SERVER_MODEL)).encode()  # the server enforces a schema (a grammar)
        attempt = 0
        while True:
            attempt += 1
            try:
                status, answer = self._send(body, step)
            except TimeoutError:
                kind, said = "Timeout", f"the offline judge server gave no answer within {self._timeout:g} s"
            except ConnectionError as err:  # the server runs but does not answer
                kind, said = "APIConnectionError", str(err)
            else:
                if status == 200:
                    return parse_completion(answer, cfg, request)
                kind, said = _KINDS.get(status, "APIError"), _said(answer)
                if status < 500:
                    raise judge_failure(cfg, step, kind, said, attempt, _HINTS.get(kind))
            if attempt > cfg.retries:
                raise judge_failure(cfg, step, kind, said, attempt, _HINTS.get(kind))
            time.sleep(min(cfg.backoff_s * 2.0 ** (attempt - 1), 30.0))

    def close(self) -> None:
        """Give up this process's lease on the server (the last one stops it)."""
        if self.model is not None:
            shutdown_server(self.model)

    def _send(self, body: bytes, step: str) -> tuple[int, bytes]:
        """One request to the server; again to its replacement if it died (once per run)."""
        while True:
            if self.hold.gave_up is not None:
                raise LocalServerDied(self.hold.gave_up)
            state = self.hold.current()
            try:
                with self._slots:
                    return exchange(state.port, "/v1/chat/completions", "POST",
                                    {"Content-Type": "application/json"}, body, timeout=self._timeout)
            except TimeoutError:
                raise
            except (OSError, http.client.HTTPException) as err:
                failure = f"{type(err).__name__}: {err}"
            # outside the handler: an error about a dead server chains no connection error
            if self.hold.lost(state, within=1.0) is None:
                raise ConnectionError(failure)
            self._replace(step)

    def _replace(self, step: str) -> None:
        with self._lock:
            if self.hold.replaced:
                self.hold.gave_up = self._message(step, "died again after its restart; it is not restarted again")
                raise LocalServerDied(self.hold.gave_up)
            try:
                self.hold.current()
            except LocalJudgeUnavailable as exc:
                raise LocalServerDied(self._message(step, f"died and could not be restarted: {exc}")) from None

    def _model(self) -> LocalModel:
        if self.model is None:
            self.model = resolve_local_model(self.config.model)
        return self.model

    def _find(self) -> ServerState:
        """The server, found or started; a start says so in one line, naming the kernels."""
        model, announce, started = self._model(), self.announce, time.monotonic()
        choice = choose(model.path)
        label = f"{model.name} ({choice.label()})"
        loading = False

        def starting() -> None:
            nonlocal loading
            loading = True
            if announce is not None:
                announce(label, None)

        state = ensure_server_state(model, starting=starting, choice=choice, idle_timeout=self.idle_timeout)
        if loading and announce is not None:
            announce(label, time.monotonic() - started)
        return state

    def _message(self, step: str, what: str) -> str:
        fix = self.hold.deaths[-1].fix(OTHER_FIX, crashed=CRASH_FIX, needs="the server needs about 2.4 GB; ")
        return f"llmfaith: at step '{step}', the offline judge {what}.\n{self.hold.told(NAME, fix)}."


def _said(answer: bytes) -> str:
    """The server's error message (its answers are OpenAI's error objects)."""
    try:
        return str(json.loads(answer)["error"]["message"])
    except (ValueError, KeyError, TypeError):
        return answer[:300].decode(errors="replace")


class OfflineBackend:
    traits = OFFLINE

    def __init__(self, config: JudgeConfig, idle_timeout: float | None = None) -> None:
        self.config = config
        # How long a server this run starts stays up after its last lease (--llm-idle-timeout);
        # None outside a run (a library judge): as the environment sets it (launcher.ensure_server_state).
        self.idle_timeout = idle_timeout

    def identity(self, replay: bool) -> str:
        return identity(self.config.model, prove=not replay)

    def replay_hint(self, key_model: str) -> str:
        return replay_hint(key_model)

    def transport(self, announce: Announce | None) -> LocalTransport:
        return LocalTransport(self.config, announce, self.idle_timeout)
