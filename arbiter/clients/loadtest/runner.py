"""The load generator: rooms of simulated players (SDK clients driven by the heuristic bot) and
spectators, started over a ramp, playing match after match until the duration ends.

:func:`run_worker` runs one worker's share of the rooms in the current trio run, whatever its
clock: the command spreads workers over processes (``cmd.py``), and the test suite runs one
worker in-process against an in-process server under trio's MockClock.
"""

from __future__ import annotations

import random
from contextlib import AsyncExitStack
from dataclasses import asdict, dataclass
from typing import Any

import trio

from arbiter.bots.strategies import STRATEGIES
from arbiter.clients.bots.net import NetBot
from arbiter.clients.sdk import Client, ConnectError, ConnectionLost, RequestError
from arbiter.clients.sdk.urls import entry_urls

from .connect import connect_all
from .events import event_slot
from .stats import Aggregate, Recorder, summarize

DECKS = ("gruul-stompy", "azorius-skies", "boros-lifecycle", "quick-red", "quick-green")


@dataclass(frozen=True)
class LoadConfig:
    url: str  # one server, or a cluster's entry URLs comma-separated
    rooms: int = 8
    players_per_room: int = 2
    spectators: int = 0  # per room
    duration: float = 10.0  # seconds, counted from the start (the ramp included)
    think_ms: float = 100.0  # mean think time before each action (randomised ±50 %)
    ramp: float = 0.0  # seconds over which rooms start, evenly spread
    workers: int = 1
    strategy: str = "heuristic"
    seed: int = 0
    ping_interval: float | None = 20.0
    # Limited events instead of rooms (events.py): ``events`` events of ``event_seats``
    # simulated players each, every seat a player.
    events: int = 0
    event_seats: int = 8
    event_kind: str = "draft"
    event_rounds: int | None = None  # None: as many as the seats need
    event_best_of: int = 1
    pick_think_ms: float | None = None  # mean think time before each pick (None: think_ms)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def urls_of(self, slot: int) -> list[str]:
        """The entry URLs for room slot ``slot``'s clients: the list turned by one place per
        slot, so that the first connections spread over a cluster's entry nodes (where the
        rooms then live is the cluster's choice: the clients follow its redirects)."""
        urls = entry_urls(self.url)
        turn = slot % len(urls)
        return urls[turn:] + urls[:turn]

    def measured(self, elapsed: float) -> float:
        """The seconds the rates are over: the duration, or for events (which end when they
        finish, the duration being a cap) the time they took, if less."""
        return min(self.duration, elapsed) if self.events else self.duration

    @property
    def slots(self) -> int:
        """Rooms, or events when the test runs events."""
        return self.events or self.rooms

    def rooms_of(self, worker: int) -> list[int]:
        """The room (or event) slots worker ``worker`` runs (round robin, so the ramp spreads
        evenly)."""
        return [i for i in range(self.slots) if i % self.workers == worker]

    def start_of(self, slot: int) -> float:
        """When slot ``slot`` starts, in seconds after the test's start."""
        return self.ramp * slot / max(1, self.slots)


async def run_worker(config: LoadConfig, worker: int, recorder: Recorder) -> None:
    """Run this worker's rooms until ``config.duration`` has passed since ``recorder.start``;
    then close every connection."""
    deadline = recorder.start + config.duration
    slot_runner = event_slot if config.events else _room_slot
    async with trio.open_nursery() as nursery:
        for slot in config.rooms_of(worker):
            nursery.start_soon(slot_runner, config, slot, recorder, deadline)


async def _room_slot(config: LoadConfig, slot: int, rec: Recorder, deadline: float) -> None:
    rng = random.Random(config.seed * 100_003 + slot)
    await trio.sleep_until(rec.start + config.start_of(slot))
    async with AsyncExitStack() as stack:
        # Connecting is not cut short at the deadline: the clients' nurseries live in the
        # stack, and cancel scopes must nest inside them.
        try:
            players = await connect_all(stack, config, slot, rec, "p",
                                        config.players_per_room, rng, deadline)
            spectators = await connect_all(stack, config, slot, rec, "s", config.spectators,
                                           rng, deadline)
        except ConnectError:
            rec.error("connect")
            return
        with trio.move_on_at(deadline):
            while trio.current_time() < deadline:
                try:
                    await _one_match(config, slot, rec, players, spectators, rng)
                except RequestError as exc:
                    rec.error(exc.code)
                    await trio.sleep(0.5)  # do not spin on a persistent refusal
                except ConnectionLost:
                    # The server went away (a restart): the clients reconnect by themselves.
                    rec.interrupted += 1
                    await trio.sleep(0.5)


async def _one_match(config: LoadConfig, slot: int, rec: Recorder, players: list[Client],
                     spectators: list[Client], rng: random.Random) -> None:
    seats = config.players_per_room
    variant = "two_player" if seats == 2 else "free_for_all"
    room = await players[0].create({"seats": seats, "variant": variant,
                                    "name": f"load {slot}"})
    for s in spectators:
        await s.spectate(room)
    for i, p in enumerate(players):
        await p.join(room, i, deck=DECKS[(slot + i) % len(DECKS)])
    await rec.catalog.give(players)  # before the bots ask for it

    def on_act(latency: float) -> None:
        rec.action(trio.current_time(), latency)

    bots = [NetBot(p, STRATEGIES[config.strategy], random.Random(rng.random()),
                   think=config.think_ms / 1000, on_act=on_act) for p in players]
    try:
        async with trio.open_nursery() as nursery:
            for bot in bots:
                nursery.start_soon(bot.play, room)
    finally:
        for bot in bots:
            for code, n in bot.record.refused.items():
                rec.errors[code] = rec.errors.get(code, 0) + n
            rec.interrupted += bot.record.lost
    rec.games += 1
    for c in (*players, *spectators):
        await c.leave(room)


async def run_load(config: LoadConfig, progress: Any = None, interval: float = 1.0
                   ) -> tuple[dict[str, Any], Aggregate]:
    """Run every worker's share in this trio run (the clock is the run's, so a test can use
    MockClock); return the summary and the aggregate (its latency samples make the chart).
    ``progress(aggregate, elapsed)`` is called every ``interval`` seconds."""
    start = trio.current_time()
    recorders = [Recorder(start) for _ in range(config.workers)]
    agg = Aggregate()
    async with trio.open_nursery() as nursery:
        async def report() -> None:
            while True:
                await trio.sleep(interval)
                for w, r in enumerate(recorders):
                    agg.add(w, r.progress())
                if progress is not None:
                    progress(agg, trio.current_time() - start)

        nursery.start_soon(report)
        async with trio.open_nursery() as workers:
            for w, r in enumerate(recorders):
                workers.start_soon(run_worker, config, w, r)
        nursery.cancel_scope.cancel()
    for w, r in enumerate(recorders):
        agg.add(w, r.final())
    return summarize(agg, config.measured(trio.current_time() - start), config.to_dict()), agg
