"""`pytest_llmfaith.Judge`, the judge for library use: the judge core, built the one way, with the
backend its model names when none is given (the offline judge for a local model, litellm otherwise)."""

from __future__ import annotations

from pytest_llmfaith.judge import client
from pytest_llmfaith.judge.backend import Backend, JudgeConfig
from pytest_llmfaith.wiring import backend_for


class Judge(client.Judge):
    __doc__ = client.Judge.__doc__

    def default_backend(self, config: JudgeConfig) -> Backend:
        return backend_for(config)
