"""The offline judge as a judge's backend (judge/backend.py): a cache identity and a transport to
the shared server on this machine, which never imports litellm."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pytest_llmfaith.judge.backend import Announce
    from pytest_llmfaith.judge.config import JudgeConfig
    from pytest_llmfaith.local.local_transport import LocalTransport


class OfflineBackend:
    def __init__(self, config: JudgeConfig, idle_timeout: float | None = None) -> None:
        self.config = config
        # How long a server this run starts stays up after its last lease (--llm-idle-timeout);
        # None outside a run (a library judge): as the environment sets it (launcher.ensure_server_state).
        self.idle_timeout = idle_timeout

    def identity(self, replay: bool) -> str:
        from pytest_llmfaith.local.kernels import identity

        return identity(self.config.model, prove=not replay)

    def replay_hint(self, key_model: str) -> str:
        from pytest_llmfaith.local.kernels import replay_hint

        return replay_hint(key_model)

    def transport(self, announce: Announce | None) -> LocalTransport:
        from pytest_llmfaith.local.local_transport import LocalTransport

        return LocalTransport(self.config, announce, self.idle_timeout)
