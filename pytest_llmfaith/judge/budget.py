"""The run's judge budget: at most N requests to the judge, or USD, for the whole run.

A request is admitted before it is sent, in one transaction shared by every process of the run,
so that four xdist workers cannot each see room for the last call. Cost reserves the dearest
price of the model so far: docs/cache-and-budget.md.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from pytest_llmfaith.errors import BudgetExceeded, JudgeError
from pytest_llmfaith.judge.run_state import SharedCounters, run_folder

if TYPE_CHECKING:
    from filelock import BaseFileLock

    from pytest_llmfaith.judge.backend import Announce, Backend, Completion, CompletionRequest, Transport

NANO = 1_000_000_000  # costs are counted in nano-dollars: the counters are integers
CALLS, SPENT, COMMITTED = "calls", "nano_usd", "nano_committed"  # committed: spent + reserved in flight
CALLS_OPTION = "--llm-max-judge-calls (ini llm_max_judge_calls, env LLMFAITH_MAX_JUDGE_CALLS)"
COST_OPTION = "--llm-max-cost (ini llm_max_cost, env LLMFAITH_MAX_COST)"


@dataclass
class Reservation:
    """What one admitted request holds until it is settled."""

    model: str
    held: int = 0  # nano-dollars reserved
    first_price: BaseFileLock | None = None  # held by the request that learns its model's price


class Budget:
    def __init__(self, run_dir: Path, max_calls: int | None, max_cost: float | None) -> None:
        self.run_dir = run_dir
        self.max_calls = max_calls
        self.max_cost = max_cost
        self.counters = SharedCounters(run_dir / "budget")

    def reserve(self, step: str, model: str) -> Reservation:
        """Admit one request before it is sent, or refuse it (BudgetExceeded) when the budget is spent."""
        reservation = Reservation(model)
        if self.max_cost is not None and self.counters.find(_price(model)) is None:
            reservation.first_price = self._first_price_lock(model)
            reservation.first_price.acquire()  # until a price is known, one request of the model at a time
        try:
            with self.counters.transaction():
                priced = self._admit(step, model, reservation)
        except BaseException:
            self._release(reservation)
            raise
        if priced:  # another request learnt the price while this one waited
            self._release(reservation)
        return reservation

    def settle(self, reservation: Reservation, cost: float | None, answered: bool) -> None:
        """Replace the reservation by the real price; an answered request litellm cannot price counts as free."""
        try:
            if self.max_cost is not None:
                nano = round(cost * NANO) if cost else 0
                with self.counters.transaction():
                    self.counters.add(COMMITTED, nano - reservation.held)
                    self.counters.add(SPENT, nano)
                    if answered:
                        dearest = self.counters.find(_price(reservation.model)) or 0
                        self.counters.set(_price(reservation.model), max(dearest, nano))
        finally:
            self._release(reservation)

    def summary(self) -> str:
        """What was sent, for the end-of-run summary; why it is not known, if its counters broke."""
        parts = []
        try:
            if self.max_calls is not None:
                parts.append(f"{self.counters.get(CALLS)} of {self.max_calls} new judge calls")
            if self.max_cost is not None:
                parts.append(f"${self.counters.get(SPENT) / NANO:.4f} of ${self.max_cost:g} "
                             "(calls of unknown price not counted)")
        except JudgeError:
            return f"llmfaith budget: not known: {self.counters.problem}"
        return "llmfaith budget: spent " + "; ".join(parts)

    def close(self) -> None:
        self.counters.close()

    # -- internals ------------------------------------------------------------------------
    def _admit(self, step: str, model: str, reservation: Reservation) -> bool:
        """Inside the transaction: refuse, or count the request and hold its reservation. True when
        the model's price is known."""
        calls = self.counters.get(CALLS)
        if self.max_calls is not None and calls >= self.max_calls:
            raise BudgetExceeded(_refusal(
                step, model, f"{calls} of --llm-max-judge-calls={self.max_calls} new judge calls made",
                CALLS_OPTION))
        if self.max_cost is not None:
            committed, limit = self.counters.get(COMMITTED), round(self.max_cost * NANO)
            if committed >= limit:
                spent = self.counters.get(SPENT)
                in_flight = f" (${(committed - spent) / NANO:.4f} of it reserved by requests in flight)" \
                    if committed > spent else ""
                raise BudgetExceeded(_refusal(
                    step, model, f"${committed / NANO:.4f} of --llm-max-cost={self.max_cost:g} USD spent{in_flight}",
                    COST_OPTION))
            price = self.counters.find(_price(model))
            reservation.held = price or 0
            self.counters.add(COMMITTED, reservation.held)
        self.counters.add(CALLS)
        return self.max_cost is None or price is not None

    def _first_price_lock(self, model: str) -> BaseFileLock:
        from filelock import FileLock

        return FileLock(run_folder(self.run_dir, "budget-locks") / f"{_price(model)}.lock")

    @staticmethod
    def _release(reservation: Reservation) -> None:
        if reservation.first_price is not None:
            reservation.first_price.release()
            reservation.first_price = None


class WithinBudget:
    """A backend whose transports keep within the run's budget."""

    def __init__(self, backend: Backend, budget: Budget, model: str) -> None:
        self.backend = backend
        self.traits = backend.traits
        self.budget = budget
        self.model = model

    def identity(self, replay: bool) -> str:
        return self.backend.identity(replay)

    def replay_hint(self, key_model: str) -> str:
        return self.backend.replay_hint(key_model)

    def transport(self, announce: Announce | None) -> Transport:
        return Budgeted(self.backend.transport(announce), self.budget, self.model)


class Budgeted:
    """A transport within the run's budget: every request (re-asks and votes too) admitted before it
    leaves the process, settled with its price when it returns (or fails)."""

    def __init__(self, transport: Transport, budget: Budget, model: str) -> None:
        self.transport = transport
        self.budget = budget
        self.model = model  # whose price a cost budget reserves

    def complete(self, request: CompletionRequest) -> Completion:
        reservation = self.budget.reserve(request.step, self.model)
        reply: Completion | None = None
        try:
            reply = self.transport.complete(request)
            return reply
        finally:
            self.budget.settle(reservation, reply.cost if reply else None, answered=reply is not None)

    def close(self) -> None:
        self.transport.close()


def _price(model: str) -> str:
    """The counter of a model's dearest request so far (nano-dollars); absent until one returned."""
    return "price-" + hashlib.sha256(model.encode()).hexdigest()[:16]


def _refusal(step: str, model: str, what: str, option: str) -> str:
    return (f"llmfaith: the judge budget of this run is spent ({what}); the new call at step "
            f"'{step}' (judge {model}) was refused. Answers already cached are still served. "
            f"Fix: raise the budget with {option}, or record the rest in another run.")
