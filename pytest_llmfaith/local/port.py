"""The offline judge as the judge core sees it (judge/offline.py's port): a cache identity and a
transport to the shared server on this machine."""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

from pytest_llmfaith.judge.endpoint import bypass_proxy_for_loopback
from pytest_llmfaith.judge.offline import Announce
from pytest_llmfaith.judge.transport import LiteLLMTransport, Transport
from pytest_llmfaith.local.kernels import identity, replay_hint
from pytest_llmfaith.local.launcher import shutdown_server
from pytest_llmfaith.local.models import LocalModel, resolve_local_model

if TYPE_CHECKING:
    from pytest_llmfaith.judge.config import JudgeConfig
    from pytest_llmfaith.local.watch import ServerWatch

SERVER_MODEL = "openai/local"  # litellm's name for the server's one model


class LocalEndpoint:
    """The shared server, found (or started) on the first request; replaced once if it died."""

    def __init__(self, config: JudgeConfig, announce: Announce | None) -> None:
        self.config = config
        self.announce = announce
        self._model: LocalModel | None = None
        self._server: ServerWatch | None = None
        self._api_base: str | None = None
        self._lock = threading.Lock()

    def target(self) -> tuple[str, str | None, str | None]:
        if self._api_base is None:
            with self._lock:
                if self._api_base is None:
                    from pytest_llmfaith.local.watch import ServerWatch

                    self._model = resolve_local_model(self.config.model)
                    self._server = ServerWatch(self._model, announce=self.announce)
                    self._api_base = self._server.api_base()
                    bypass_proxy_for_loopback(self._api_base)
        return SERVER_MODEL, self._api_base, "local"

    def replacement(self, step: str) -> str | None:
        base = self._server.replace_if_dead(step) if self._server is not None else None
        if base is not None:
            self._api_base = base
        return base

    def close(self) -> None:
        if self._model is not None:
            shutdown_server(self._model)


class _OfflineJudge:
    def identity(self, model: str, replay: bool) -> str:
        return identity(model, prove=not replay)

    def replay_hint(self, key_model: str) -> str:
        return replay_hint(key_model)

    def transport(self, config: JudgeConfig, announce: Announce | None) -> Transport:
        return LiteLLMTransport(config, endpoint=LocalEndpoint(config, announce))


OFFLINE_JUDGE = _OfflineJudge()
