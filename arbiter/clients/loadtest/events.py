"""Whole Limited events under load (``arbiter loadtest --events N``): each event slot connects
``event_seats`` simulated players; the first hosts the event (every seat a player: no server
bots), all enter it, the host starts it, and each plays it to its end as ``arbiter bot``
does (an :class:`~arbiter.clients.bots.event_bot.EventBot`: the Limited core's picks and deck,
the heuristic bot in each round's match). Each pick's latency (to its ``ok`` and to the next
``event`` state) and the event's time from its start to its end are recorded.

An event not finished by the test's deadline counts as an error (``event_unfinished``): its
figures would be of a part of an event, and the duration is a cap, not the measure.
"""

from __future__ import annotations

import random
from contextlib import AsyncExitStack
from typing import TYPE_CHECKING, Any

import trio

from arbiter.bots.strategies import STRATEGIES
from arbiter.clients.bots.event_bot import EventBot
from arbiter.clients.sdk import Client, ConnectError, ConnectionLost, RequestError

from .connect import connect_all
from .stats import Recorder

if TYPE_CHECKING:
    from .runner import LoadConfig


def event_settings(config: LoadConfig, slot: int) -> dict[str, Any]:
    """The event slot ``slot`` hosts (docs/protocol.md section 15)."""
    settings: dict[str, Any] = {"kind": config.event_kind, "seats": config.event_seats,
                                "best_of": config.event_best_of, "bots": False,
                                "name": f"load event {slot}"}
    if config.event_rounds is not None:
        settings["rounds"] = config.event_rounds
    return settings


async def event_slot(config: LoadConfig, slot: int, rec: Recorder, deadline: float) -> None:
    rng = random.Random(config.seed * 100_003 + slot)
    await trio.sleep_until(rec.start + config.start_of(slot))
    async with AsyncExitStack() as stack:
        try:
            players = await connect_all(stack, config, slot, rec, "e", config.event_seats, rng,
                                        deadline)
        except ConnectError:
            rec.error("connect")
            return
        finished = False
        with trio.move_on_at(deadline):
            # The players run in a nursery: what one of them met comes out grouped.
            try:
                await _one_event(config, slot, rec, players, rng)
                finished = True
            except* RequestError as refused:
                for exc in _leaves(refused):
                    rec.error(getattr(exc, "code", "refused"))
            except* ConnectionLost:
                rec.interrupted += 1
        if not finished:
            rec.error("event_unfinished")


def _leaves(group: BaseExceptionGroup[BaseException]) -> list[BaseException]:
    out: list[BaseException] = []
    for exc in group.exceptions:
        out += _leaves(exc) if isinstance(exc, BaseExceptionGroup) else [exc]
    return out


async def _one_event(config: LoadConfig, slot: int, rec: Recorder, players: list[Client],
                     rng: random.Random) -> None:
    host = players[0]
    event = await host.create_event(event_settings(config, slot))
    for p in players:
        await p.join(event)
    await rec.catalog.give(players)  # before the bots ask for it
    pick_ms = config.think_ms if config.pick_think_ms is None else config.pick_think_ms
    bots = [EventBot(p, STRATEGIES[config.strategy], random.Random(rng.random()),
                     think=config.think_ms / 1000, pick_think=pick_ms / 1000, on_pick=rec.pick,
                     on_act=lambda latency: rec.action(trio.current_time(), latency))
            for p in players]
    started = trio.current_time()
    try:
        async with trio.open_nursery() as nursery:
            for bot in bots:
                nursery.start_soon(bot.run, event)
            await host.start_event(event)
    finally:
        for bot in bots:
            for code, n in bot.record.refused.items():
                rec.errors[code] = rec.errors.get(code, 0) + n
        rec.games += sum(bot.record.matches for bot in bots) // 2  # two players a match
    rec.event_finished(trio.current_time() - started)
    for p in players:
        await p.leave(event)
