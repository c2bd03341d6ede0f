"""How to reach a judge and how to ask it: one model shared by the judge and its transport.

The defaults of what is also an option are the options' (settings.OPTIONS): a library judge asks
as a pytest run would.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from pytest_llmfaith.settings import default


class JudgeConfig(BaseModel):
    """How to reach the judge. Everything except the key's *value* may end up in a cache key."""

    model: str
    api_base: str | None = default("llm_judge_api_base")
    api_key_env: str | None = default("llm_judge_api_key_env")
    timeout: float | None = default("llm_judge_timeout")  # None: 60 s, or 600 s for the local judge (requests queue)
    retries: int = default("llm_judge_retries")
    reasks: int = 2
    temperature: float = 0.0
    seed: int | None = None
    max_tokens: int | None = default("llm_judge_max_tokens")
    verdicts: Literal["auto", "all", "one", "label"] = default("llm_judge_verdicts")
    votes: int = Field(default=default("llm_judge_votes"), ge=1)
    votes_temperature: float = Field(default=default("llm_judge_votes_temperature"), gt=0)
    concurrency: int = default("llm_judge_concurrency")
    backoff_s: float = 0.5

    @property
    def is_local(self) -> bool:
        return self.model == "local" or self.model.startswith("local:")

    @property
    def request_timeout(self) -> float:
        return self.timeout or (600.0 if self.is_local else 60.0)

    def sampling(self, sample: int) -> tuple[float, int | None]:
        """Later samples get the votes temperature and their own seed, or a judge at temperature 0
        (or a server that seeds by default) gives the same answer N times."""
        if sample == 0:
            return self.temperature, self.seed
        return self.votes_temperature, (self.seed or 0) + sample

    @property
    def verdict_mode(self) -> Literal["all", "one", "label"]:
        """'auto': labels for the offline judge (faster and more accurate for a small model:
        benchmarks/README.md), one JSON call for a hosted one."""
        if self.verdicts == "auto":
            return "label" if self.is_local else "all"
        return self.verdicts
