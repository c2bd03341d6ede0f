"""What the relay and its clients share: the messages on the wire and the relay folder's files."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel

from pytest_llmfaith import errors
from pytest_llmfaith.judge.backend import Completion, CompletionRequest, JudgeConfig
from pytest_llmfaith.processes.service import ServiceFiles, ServiceState

WireT = TypeVar("WireT", bound=BaseModel)
TOKEN_HEADER = "X-LLMFaith-Relay-Token"
CLIENT_HEADER = "X-LLMFaith-Client"
RUN_HEADER = "X-LLMFaith-Run"
OWNER_HEADER = "X-LLMFaith-Run-Owner"  # the pid whose lease keeps the run attached: its state goes with it
FIX = ("--llm-judge-relay=off makes each process call the judge itself (the old way), and "
       "`python -m pytest_llmfaith relay status` shows the relays running")


class RelayRun(BaseModel):
    """What every process of a run needs to find its relay (xdist workers get it from the controller)."""

    directory: Path  # named for the environment that named the run; a process uses its own's (RelayClient._choose)
    run_id: str  # this run, in the relay's counters and per-run state
    owner_pid: int  # the run's first process: its lease keeps the relay up
    concurrency: int
    idle_timeout: float


class RelayState(ServiceState):
    """Written by the relay once it serves; read by the runs' processes."""

    token: str
    concurrency: int
    idle_timeout: float


class RelayCall(BaseModel):
    config: JudgeConfig
    request: CompletionRequest
    environment: str  # identity.environment_fingerprint of the asking process, at the call


def to_wire(message: BaseModel) -> bytes:
    """Standard-library JSON, not pydantic's: it carries a lone surrogate (broken decoding upstream),
    which pydantic's JSON refuses."""
    return json.dumps(message.model_dump(mode="json")).encode()


def from_wire(model: type[WireT], body: bytes | dict[str, object]) -> WireT:
    """`to_wire`'s message back (already parsed when `body` is a dict)."""
    return model.model_validate(json.loads(body) if isinstance(body, bytes) else body)


class RelayFailure(BaseModel):
    """A JudgeError raised in the relay, as the test must see it: same class, same message."""

    error: str  # the class name, in errors.py
    message: str
    kind: str = ""

    def exception(self) -> errors.LLMFaithError:
        cls = getattr(errors, self.error, None)
        if not (isinstance(cls, type) and issubclass(cls, errors.LLMFaithError)):
            cls = errors.JudgeError
        error = cls(self.message)
        if isinstance(error, errors.JudgeError):
            error.kind = self.kind
        return error


class RelayReply(BaseModel):
    completion: Completion | None = None
    failure: RelayFailure | None = None


class RunStats(BaseModel):
    requests: int = 0
    processes: int = 0
    litellm_imports: int = 0  # 1 for the run that started the relay, 0 for a run that found it warm


class RelayStats(BaseModel):
    """The relay's /health answer."""

    pid: int
    started_by: str  # the run id
    litellm_import_s: float
    requests: int
    attached: list[int]  # pids of the runs holding a lease
    runs: dict[str, RunStats]


def relay_files(directory: Path) -> ServiceFiles[RelayState]:
    """The relay's folder (mode 0700, its own: it removes it when it idles out): `lock`, `runs.json`
    (the leases of the runs attached), `relay.pid` (a relay being started), `relay.json` (its state,
    with the token) and `relay.<pid>.log`."""
    return ServiceFiles(RelayState, folder=directory, dir_mode=0o700, lock=directory / "lock",
                        leases=directory / "runs.json", starting=directory / "relay.pid",
                        state=directory / "relay.json", log=directory / "relay.log")
