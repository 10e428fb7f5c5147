"""Shared pieces of the client tests: SDK clients against an in-process server, and the check
that a client's replica equals the engine's fresh snapshot of that viewer's view."""

from __future__ import annotations

import argparse
from typing import Any

import trio

from arbiter.clients.bots import bot_cmd
from arbiter.clients.sdk import Backoff, Client
from arbiter.server.net.server import ArbiterServer

from ..server.checks import assert_rooms_match


def bot_args(*argv: str) -> argparse.Namespace:
    """``arbiter bot``'s options, parsed from ``argv``."""
    parser = argparse.ArgumentParser()
    bot_cmd.add_arguments(parser)
    return parser.parse_args(list(argv))


def url(server: ArbiterServer) -> str:
    return f"ws://127.0.0.1:{server.port}/"


async def sdk_client(nursery: trio.Nursery, server: ArbiterServer, name: str, **options: Any
                     ) -> Client:
    """An SDK client with heartbeats off (time is virtual in these tests)."""
    return await client_at(nursery, url(server), name, **options)


async def client_at(nursery: trio.Nursery, urls: str | list[str], name: str, **options: Any
                    ) -> Client:
    """:func:`sdk_client` for any entry URLs."""
    options.setdefault("ping_interval", None)
    options.setdefault("ping_timeout", None)
    options.setdefault("strict", True)
    options.setdefault("backoff", Backoff(initial=0.05, jitter=0.0))
    client: Client = await nursery.start(Client(urls, name, **options).run)
    return client


def assert_replica_matches(server: ArbiterServer, client: Client) -> int:
    """Every open room the client follows equals a fresh engine snapshot for that viewer;
    returns the number of rooms checked."""
    return assert_rooms_match(server, client, client.name)
