"""The server's garbage-collector management (arbiter/server/net/collector.py)."""

from __future__ import annotations

import gc
import weakref

import trio

from arbiter.server.net.collector import manage_collector


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
