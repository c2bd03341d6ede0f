"""The run's judge budget: at most N new judge calls, or USD, for the whole run.

The counters live in a temporary directory the controller makes and hands to its xdist workers
(cache.SharedCounters, atomic across processes), so the budget holds for the run, not per worker.
Only new calls count; cached answers never reach it.
"""

from __future__ import annotations

from pathlib import Path

from .cache import SharedCounters
from .errors import BudgetExceeded

NANO = 1_000_000_000  # costs are counted in nano-dollars: the counters are integers


class Budget:
    def __init__(self, directory: Path, max_calls: int | None, max_cost: float | None) -> None:
        self.max_calls = max_calls
        self.max_cost = max_cost
        self.counters = SharedCounters(directory)

    def reserve(self, step: str, model: str) -> None:
        """Count one new call before it is made; refuse it when the budget is spent."""
        spent_cost = self.counters.get("nano_usd") / NANO
        if self.max_cost is not None and spent_cost >= self.max_cost:
            raise BudgetExceeded(self._refusal(
                step, model, f"${spent_cost:.4f} of --llm-max-cost={self.max_cost:g} USD spent",
                "--llm-max-cost (ini llm_max_cost, env LLMFAITH_MAX_COST)"))
        if self.counters.add("calls") > (self.max_calls if self.max_calls is not None else float("inf")):
            self.counters.add("calls", -1)
            raise BudgetExceeded(self._refusal(
                step, model, f"{self.max_calls} of --llm-max-judge-calls={self.max_calls} new judge calls made",
                "--llm-max-judge-calls (ini llm_max_judge_calls, env LLMFAITH_MAX_JUDGE_CALLS)"))

    def spend(self, cost: float | None) -> None:
        if cost:
            self.counters.add("nano_usd", round(cost * NANO))

    def summary(self) -> str:
        """Spent vs budget, for the end-of-run summary."""
        parts = []
        if self.max_calls is not None:
            parts.append(f"{self.counters.get('calls')} of {self.max_calls} new judge calls")
        if self.max_cost is not None:
            parts.append(f"${self.counters.get('nano_usd') / NANO:.4f} of ${self.max_cost:g} "
                         "(calls of unknown price not counted)")
        return "llmfaith budget: spent " + "; ".join(parts)

    def close(self) -> None:
        self.counters.close()

    @staticmethod
    def _refusal(step: str, model: str, what: str, option: str) -> str:
        return (f"llmfaith: the judge budget of this run is spent ({what}); the new call at step "
                f"'{step}' (judge {model}) was refused. Answers already cached are still served. "
                f"Fix: raise the budget with {option}, or record the rest in another run.")
