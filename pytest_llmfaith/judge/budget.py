"""The run's judge budget: at most N requests to the judge, or USD, for the whole run.

A request is admitted before it is sent, in one transaction shared by every process of the run,
so that four xdist workers cannot each see room for the last call. Cost reserves the dearest
price of the model so far: docs/cache-and-budget.md.
"""

from __future__ import annotations

import hashlib
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from pytest_llmfaith.errors import BudgetExceeded, JudgeError
from pytest_llmfaith.judge.keyvalue import FILENAME, KeyValueFile
from pytest_llmfaith.judge.stores import run_folder

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
    """Its counters are integers in our key-value file in the run's folder, shared by every process
    of the run (xdist workers): a transaction is one step for all of them."""

    def __init__(self, run_dir: Path, max_calls: int | None, max_cost: float | None) -> None:
        self.run_dir = run_dir
        self.max_calls = max_calls
        self.max_cost = max_cost
        self.problem: str | None = None  # why the counters cannot be read, once they could not
        self._counters: KeyValueFile | None = None
        self._lock = threading.Lock()

    def reserve(self, step: str, model: str) -> Reservation:
        """Admit one request before it is sent, or refuse it (BudgetExceeded) when the budget is spent."""
        reservation = Reservation(model)
        if self.max_cost is not None and self._find(_price(model)) is None:
            from filelock import FileLock

            reservation.first_price = FileLock(run_folder(self.run_dir, "budget-locks") / f"{_price(model)}.lock")
            reservation.first_price.acquire()  # until a price is known, one request of the model at a time
        try:
            with self._counting(transaction=True) as counters:
                priced = self._admit(step, model, reservation, counters)
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
                with self._counting(transaction=True) as counters:
                    counters.add(COMMITTED, nano - reservation.held)
                    counters.add(SPENT, nano)
                    if answered:
                        price = _price(reservation.model)
                        counters.set(price, max(int(counters.get(price) or 0), nano))
        finally:
            self._release(reservation)

    def summary(self) -> str:
        """What was sent, for the end-of-run summary; why it is not known, if its counters broke."""
        parts = []
        try:
            if self.max_calls is not None:
                parts.append(f"{self._find(CALLS) or 0} of {self.max_calls} new judge calls")
            if self.max_cost is not None:
                parts.append(f"${(self._find(SPENT) or 0) / NANO:.4f} of ${self.max_cost:g} "
                             "(calls of unknown price not counted)")
        except JudgeError:
            return f"llmfaith budget: not known: {self.problem}"
        return "llmfaith budget: spent " + "; ".join(parts)

    def close(self) -> None:
        if self._counters is not None:
            self._counters.close()
            self._counters = None

    # -- internals ------------------------------------------------------------------------
    def _admit(self, step: str, model: str, reservation: Reservation, counters: KeyValueFile) -> bool:
        """Inside the transaction: refuse, or count the request and hold its reservation. True when
        the model's price is known."""
        calls = int(counters.get(CALLS) or 0)
        if self.max_calls is not None and calls >= self.max_calls:
            raise BudgetExceeded(_refusal(
                step, model, f"{calls} of --llm-max-judge-calls={self.max_calls} new judge calls made",
                CALLS_OPTION))
        if self.max_cost is not None:
            committed, limit = int(counters.get(COMMITTED) or 0), round(self.max_cost * NANO)
            if committed >= limit:
                spent = int(counters.get(SPENT) or 0)
                in_flight = f" (${(committed - spent) / NANO:.4f} of it reserved by requests in flight)" \
                    if committed > spent else ""
                raise BudgetExceeded(_refusal(
                    step, model, f"${committed / NANO:.4f} of --llm-max-cost={self.max_cost:g} USD spent{in_flight}",
                    COST_OPTION))
            price = counters.get(_price(model))
            reservation.held = int(price or 0)
            counters.add(COMMITTED, reservation.held)
        counters.add(CALLS, 1)
        return self.max_cost is None or price is not None

    def _find(self, name: str) -> int | None:
        """A counter, or None when it was never set."""
        with self._counting() as counters:
            value = counters.get(name)
        return None if value is None else int(value)

    @contextmanager
    def _counting(self, transaction: bool = False) -> Iterator[KeyValueFile]:
        """The counters, opened on first need; in a transaction (SQLite's BEGIN IMMEDIATE), what is
        checked stays true until what depends on it is written. A damaged file (something else wrote
        there, a failing disk) is a JudgeError naming it, so the call it counts is an ERROR, never a
        pass, nor a bare sqlite3 traceback."""
        path = self.run_dir / "budget" / FILENAME
        try:
            with self._lock:
                if self._counters is None:
                    self._counters = KeyValueFile.writing(run_folder(self.run_dir, "budget") / FILENAME)
            if not transaction:
                yield self._counters
                return
            with self._counters.transaction():
                yield self._counters
        except sqlite3.DatabaseError as err:
            self.problem = f"the run's shared counters {path} cannot be read ({err})"
            raise JudgeError(
                f"llmfaith: {self.problem}, so this judge call cannot be counted against the run's budget "
                "and is not made. Fix: run the tests again: each run has its own folder, removed at its end "
                f"(delete {self.run_dir} if a crashed run left it); if it happens again, something else writes "
                "there or the disk is failing.") from None

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
