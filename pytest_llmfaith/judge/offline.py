"""The port the offline judge plugs into: the judge core never imports pytest_llmfaith.local.

`pytest_llmfaith.local` implements it (`local.port.OFFLINE_JUDGE`) and the wiring plugs it in
(`pytest_llmfaith.wiring`, imported by the plugin, the command line and `pytest_llmfaith.Judge`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from pytest_llmfaith.errors import ConfigError

if TYPE_CHECKING:
    from pytest_llmfaith.judge.completion import Transport
    from pytest_llmfaith.judge.config import JudgeConfig

Announce = Callable[[str, float | None], None]  # the model starts loading (None) / is ready after s


class OfflineJudge(Protocol):
    def identity(self, model: str, replay: bool) -> str:
        """The model as it enters cache keys (its weights and the kernels that run them, not its
        name); no llama_cpp import. A replay runs no model, not even to choose kernels."""
        ...

    def replay_hint(self, key_model: str) -> str:
        """What a replay miss adds about the kernels in the key ("" when nothing)."""
        ...

    def transport(self, config: JudgeConfig, announce: Announce | None) -> Transport:
        """The way to the shared server on this machine (started when first needed), without
        litellm; `announce` is told when a model starts loading and when it is ready."""
        ...


_plugged: list[OfflineJudge] = []


def plug_in(offline: OfflineJudge) -> None:
    _plugged[:] = [offline]


def plugged_in(chosen: OfflineJudge | None = None) -> OfflineJudge:
    """`chosen` (a judge's own), else the one plugged in."""
    if chosen is not None:
        return chosen
    if not _plugged:
        raise ConfigError(
            "llmfaith: a local judge model needs the offline judge plugged in, and nothing did. "
            "Fix: import the judge as `from pytest_llmfaith import Judge` (which plugs it in), "
            "or pass Judge(..., offline=pytest_llmfaith.local.port.OFFLINE_JUDGE)."
        )
    return _plugged[0]
