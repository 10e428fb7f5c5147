"""Keeping Python's cyclic garbage collector from stalling a busy server.

A server with thousands of connections holds millions of long-lived objects (games, views,
queues). CPython's automatic full collections walk all of them, and at 2,000 connections each
walk stopped the event loop for 100-465 ms, which is what decided the latency tail under load.
Freezing the survivors at a steady rhythm (``gc.freeze`` moves them to a generation the automatic
collector never walks) keeps those walks short. Cyclic garbage among frozen objects (a finished
table refers to its games and they to it) would then never be reclaimed, so once every
``full_every`` seconds everything is unfrozen and collected in one pass. See
docs/architecture.md for the measurements.

The rhythm is short (a tenth of a second by default) for the young collections' sake too.
CPython starts one when the allocations of tracked objects outnumber their deallocations by 700,
counting the deaths of old objects as well as of young ones. In steady play old objects die as
fast as new long-lived ones are made, so young collections came seldom, and each then walked
everything made since the last: 20-40 ms at 4,000 players, once a second or so. A freeze, which
costs nothing (the young list is spliced onto the frozen one), keeps that list short.
"""

from __future__ import annotations

import gc
import logging
import time

import trio

log = logging.getLogger("arbiter.gc")


async def manage_collector(freeze_every: float, full_every: float) -> None:
    gc.collect()
    gc.freeze()
    last_full = trio.current_time()
    while True:
        await trio.sleep(freeze_every)
        if trio.current_time() - last_full >= full_every:
            started = time.perf_counter()
            gc.unfreeze()
            found = gc.collect()
            gc.freeze()
            last_full = trio.current_time()
            log.info("full collection: %d unreachable objects in %.0f ms", found,
                     (time.perf_counter() - started) * 1000)
        else:
            gc.freeze()
