"""The run's judge relay as one of its processes holds it, from first need to the end of the run:
which relay the run uses (its run info, made by the run's first process and handed to its xdist
workers), why `auto` runs none here, this process's client, the early start, the deaths it saw, the
summary lines and the detach. Light at import: the xdist controller makes one in every run.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from pytest_llmfaith.settings import Settings

if TYPE_CHECKING:
    from pytest_llmfaith.relay.relay_client import RelayClient


class RunRelay:
    """The run's relay, for one process: handed the run info by the xdist controller (`run`), or,
    in the run's first process (`owns`), made on first need and detached at the end."""

    def __init__(self, settings: Settings, run: dict[str, Any] | None = None, owns: bool = False) -> None:
        self.settings = settings
        self.run = run  # a RelayRun as JSON
        self.owns = owns
        self.off: str | None = None  # why `auto` runs no relay here (identity.why_no_relay), once asked
        self._client: RelayClient | None = None

    def run_info(self) -> dict[str, Any] | None:
        """Made on first need: its identity costs a metadata look-up and hashing the environment,
        which a serial suite that never calls the judge must not pay. Under `auto`, wherever the
        relay cannot run safely, for any reason, there is none: the run is judged in its processes,
        and says why in one line. Under `on` the relay's client refuses, with the same reason."""
        if self.run is None and self.owns:
            from pytest_llmfaith.relay.identity import new_relay_run, why_no_relay

            why = why_no_relay() if self.settings.judge_relay == "auto" else None
            if why is not None:
                self.off, self.owns = why, False
                return None
            self.run = new_relay_run(self.settings)
        return self.run

    def attached(self) -> bool:
        """Whether a process of this run leased the run's relay (it needed a judge call): only then
        has the run a relay to report and a lease to give up."""
        if self.run is None:
            return False
        from pytest_llmfaith.relay.identity import leased

        return bool(leased(Path(self.run["directory"]), self.run["owner_pid"]))

    def deaths(self) -> list[tuple[int, str, bool]]:
        """The run's relays this process saw die, (pid, how, True), and how the processes it started
        ended (False): only the one that started a relay can read its exit status, and under xdist it
        may not be the worker that saw it die. For the run's summary, which the controller writes."""
        if self._client is None:
            return []
        from pytest_llmfaith.processes.children import ended_children

        return [*((death.pid, death.how, True) for death in self._client.hold.deaths),
                *((pid, how, False) for pid, how in ended_children())]

    def client(self) -> RelayClient | None:
        """This process's client of the run's judge relay; None when the run has none."""
        run = self.run_info() if self._client is None else None
        if run is not None:
            from pytest_llmfaith.relay.relay_client import RelayClient
            from pytest_llmfaith.relay.wire import RelayRun

            self._client = RelayClient(RelayRun.model_validate(run))
        return self._client

    def prewarm(self) -> None:
        """Start the relay early only when calls will reach the judge, so litellm's import overlaps the
        tests; a cached or replayed run starts nothing, nor does a run without a relay."""
        if self.run is None and not self.owns:
            return
        s = self.settings
        calls = s.cache in ("off", "refresh") or (s.cache == "use" and s.recordings is None
                                                   and not s.cache_dir.exists())
        if calls and (client := self.client()) is not None:
            client.prewarm()

    def notes(self, seen: list[tuple[int, str, bool]], judged: bool) -> list[str]:
        """The run's summary lines of its relay, by the controller: what served the run and what died
        (`seen`: the deaths its xdist workers saw, beside this process's), or why `auto` ran none."""
        if self.attached():  # a process of this run needed the relay
            from pytest_llmfaith.relay.relay_command import summary
            from pytest_llmfaith.relay.wire import RelayRun

            return list(filter(None, [summary(RelayRun.model_validate(self.run), [*seen, *self.deaths()])]))
        if self.off is not None and judged:
            from pytest_llmfaith.relay.identity import off_note

            return [off_note(self.off)]
        return []

    def close(self) -> None:
        """The run's first process gives up the run's lease: the relay then idles out."""
        if self.owns and self.attached():
            from pytest_llmfaith.relay.relay_client import detach
            from pytest_llmfaith.relay.wire import RelayRun

            detach(RelayRun.model_validate(self.run))
