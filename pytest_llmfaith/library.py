"""`pytest_llmfaith.Judge`, the judge for library use: the judge core with the backend its model
names (the offline judge for a local model, litellm in this process otherwise), as a run's judges
get theirs from the wiring."""

from __future__ import annotations

from pytest_llmfaith.judge import client
from pytest_llmfaith.judge.backend import Backend, JudgeConfig, Transport
from pytest_llmfaith.judge.cache import JudgeCache
from pytest_llmfaith.judge.progress import NO_PROGRESS, JudgeProgress
from pytest_llmfaith.judge.stores import Stores
from pytest_llmfaith.wiring import backend_for


class Judge(client.Judge):
    __doc__ = client.Judge.__doc__

    def __init__(self, config: JudgeConfig, cache: JudgeCache | None = None, transport: Transport | None = None,
                 *, stores: Stores | None = None, backend: Backend | None = None,
                 progress: JudgeProgress = NO_PROGRESS) -> None:
        super().__init__(config, cache, transport, stores=stores, backend=backend or backend_for(config),
                         progress=progress)
