"""The load tester's simulated players: SDK clients connected for a room or event slot, each
closed with the slot (its stack) and counted by the worker's recorder."""

from __future__ import annotations

import random
from contextlib import AsyncExitStack
from typing import TYPE_CHECKING

import trio

from arbiter.clients.sdk import Client, ConnectError, open_client

from .stats import Recorder

if TYPE_CHECKING:
    from .runner import LoadConfig


async def connect_all(stack: AsyncExitStack, config: LoadConfig, slot: int, rec: Recorder,
                      prefix: str, count: int, rng: random.Random, deadline: float
                      ) -> list[Client]:
    """``count`` connected clients for slot ``slot``, named ``{prefix}{slot}-{i}``."""
    return [await connect_one(stack, config, slot, rec, f"{prefix}{slot}-{i}", rng, deadline)
            for i in range(count)]


async def connect_one(stack: AsyncExitStack, config: LoadConfig, slot: int, rec: Recorder,
                      name: str, rng: random.Random, deadline: float) -> Client:
    """A connected client. The first connection is tried again every half second until the
    test's deadline: a server restarting while the load ramps up refuses connections for a
    moment (once connected, the SDK reconnects by itself)."""
    while True:
        try:
            client = await stack.enter_async_context(open_client(
                config.urls_of(slot), name, ping_interval=config.ping_interval,
                ping_timeout=config.ping_interval, rng=random.Random(rng.random())))
        except ConnectError:
            if trio.current_time() + 0.5 >= deadline:
                raise
            rec.interrupted += 1
            await trio.sleep(0.5)
            continue
        rec.connect(client)
        stack.callback(rec.disconnect)
        return client
