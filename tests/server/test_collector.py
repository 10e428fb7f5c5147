"""The server's garbage-collector management (arbiter/server/net/collector.py)."""

from __future__ import annotations

import gc
import weakref

import trio

from arbiter.server.net.collector import manage_collector
from arbiter.server.net.server import ServerConfig


class Node:
    other: object = None


async def test_survivors_are_frozen_and_frozen_cycles_are_still_reclaimed(
        autojump_clock: trio.testing.MockClock) -> None:
    try:
        async with trio.open_nursery() as nursery:
            nursery.start_soon(manage_collector, 1.0, 10.0)
            await trio.sleep(0.5)
            cycle = Node()
            cycle.other = cycle
            alive = weakref.ref(cycle)
            await trio.sleep(1.0)  # a freeze has happened since the cycle was made
            assert gc.get_freeze_count() > 0
            del cycle
            gc.collect()
            assert alive() is not None  # frozen: ordinary collections leave it alone
            await trio.sleep(10.0)  # the periodic full collection unfreezes and collects
            assert alive() is None
            nursery.cancel_scope.cancel()
    finally:
        gc.unfreeze()


async def test_the_young_generation_stays_short_while_old_objects_die(
        autojump_clock: trio.testing.MockClock) -> None:
    """CPython's young collections are triggered by allocations outnumbering deallocations,
    old objects' deaths included: in steady play (new long-lived objects made while old ones
    die) they hardly ever come, and the one that does walks everything made since the last
    (20-40 ms at 4,000 players). Frozen at the default rhythm, the young list stays short."""
    old = [[] for _ in range(30_000)]
    kept: list[list[int]] = []
    longest = 0
    try:
        async with trio.open_nursery() as nursery:
            nursery.start_soon(manage_collector, ServerConfig().gc_freeze_every, 600.0)
            for _ in range(100):  # one second, in steps of 10 ms
                for _ in range(200):
                    kept.append([])  # made, and kept
                    old.pop()  # an old one dies: the trigger's count stays where it was
                longest = max(longest, len(gc.get_objects(generation=0)))
                await trio.sleep(0.01)
            nursery.cancel_scope.cancel()
    finally:
        gc.unfreeze()
    assert longest < 6_000  # what a tenth of a second makes (2,000), and some
