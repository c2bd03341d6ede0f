"""End to end on the real runtime and weights (installed in CI by .ci/run).

Kept to a handful of short generations (well under a minute on 2 cores): the shared server
is started once and reused; the lifecycle tests use a private run folder so they never stop
a server another test (or xdist worker) is using.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from pytest_llmfaith.errors import LocalJudgeUnavailable
from pytest_llmfaith.local import LocalModel, ensure_server, shutdown_server
from pytest_llmfaith.local.launcher import run_files, runtime_identity
from pytest_llmfaith.local.runstate import RunFiles

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


def server_pids(files: RunFiles) -> list[int]:
    """Live server processes using this run folder and model, from /proc."""
    needles = (str(files.state.parent).encode(), files.state.stem.split("-")[1].encode(),
               files.runtime.encode())
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
        assert json.loads(response.read())["runtime"] == runtime_identity() == files.runtime
    assert "llama_cpp" not in sys.modules  # the client names the runtime without loading it


def test_private_server_lifecycle(real_model: LocalModel, model_dir: Path, monkeypatch) -> None:
    """Leases keep the server for every user; the last release or the idle timeout stops it."""
    monkeypatch.setenv("LLMFAITH_LOCAL_IDLE_TIMEOUT", "2")
    files = run_files(real_model)
    base = ensure_server(real_model)
    pid = files.read().pid
    assert ensure_server(real_model) == base
    assert files.live_clients() == [os.getpid()]

    other_user = subprocess.Popen(["sleep", "60"])  # stands for another xdist worker
    try:
        files.set_clients([os.getpid(), other_user.pid])
        shutdown_server(real_model)  # our release must not stop it under the other user
        assert files.live_clients() == [other_user.pid]
        time.sleep(3)  # longer than the idle timeout: the live lease keeps it up
        assert ensure_server(real_model) == base
        shutdown_server(real_model)
        assert files.read().pid == pid
    finally:
        other_user.kill()
        other_user.wait()
    shutdown_server(real_model)  # the last user's release stops it
    assert not files.state.exists()
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)
    shutdown_server(real_model)  # nothing running: a no-op

    # A client process that exits without releasing: its lease lapses, the idle timeout ends it.
    code = "from pytest_llmfaith.local import ensure_server, LocalModel; import sys; " \
           "ensure_server(LocalModel.model_validate_json(sys.argv[1]))"
    subprocess.run([sys.executable, "-c", code, real_model.model_dump_json()], check=True, timeout=120)
    deadline = time.monotonic() + 30
    while files.state.exists() and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not files.state.exists(), "the idle server did not stop by itself"
    assert any("serving on 127.0.0.1" in log.read_text() for log in files.log.parent.glob("*.log"))


def test_server_that_cannot_load_reports_its_log(
    real_model: LocalModel, model_dir: Path, tmp_path: Path
) -> None:
    broken = tmp_path / "broken.gguf"
    broken.write_bytes(b"GGUF" + b"\0" * 4096)
    model = LocalModel(path=broken, sha256="0" * 64, name="broken")
    with pytest.raises(LocalJudgeUnavailable, match="exited with code") as caught:
        ensure_server(model)
    assert f"cannot load {broken}" in str(caught.value)
