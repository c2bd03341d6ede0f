"""What a judge sends through, handed to it whole (`Judge(config, stores=..., backend=...)`): the
model as cache keys name it, what a replay miss adds, and the transport, made on the first
uncached call. Three kinds, each built for one config: hosted (litellm in this process,
judge/transport.py), the run's relay (relay/relay_client.py) and the offline judge
(local/local_transport.py). The judge core never imports the last two: the wiring builds them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from pytest_llmfaith.judge.completion import Transport

Announce = Callable[[str, float | None], None]  # the model starts loading (None) / is ready after s


class Backend(Protocol):
    def identity(self, replay: bool) -> str:
        """The model as it enters cache keys (for the offline judge, its weights and the kernels
        that run them, not its name). A replay runs no model, not even to choose kernels."""
        ...

    def replay_hint(self, key_model: str) -> str:
        """What a replay miss adds about the model in the key ("" when nothing)."""
        ...

    def transport(self, announce: Announce | None) -> Transport:
        """The way to the model; `announce` is told when a model starts loading and when it is
        ready (the offline judge's server)."""
        ...
