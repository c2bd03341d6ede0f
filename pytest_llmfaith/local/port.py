"""The offline judge as the judge core sees it (judge/offline.py's port): a cache identity and a
transport to the shared server on this machine, which never imports litellm."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pytest_llmfaith.judge.config import JudgeConfig
    from pytest_llmfaith.judge.offline import Announce
    from pytest_llmfaith.local.local_transport import LocalTransport


class _OfflineJudge:
    def identity(self, model: str, replay: bool) -> str:
        from pytest_llmfaith.local.kernels import identity

        return identity(model, prove=not replay)

    def replay_hint(self, key_model: str) -> str:
        from pytest_llmfaith.local.kernels import replay_hint

        return replay_hint(key_model)

    def transport(self, config: JudgeConfig, announce: Announce | None) -> LocalTransport:
        from pytest_llmfaith.local.local_transport import LocalTransport

        return LocalTransport(config, announce)


OFFLINE_JUDGE = _OfflineJudge()
