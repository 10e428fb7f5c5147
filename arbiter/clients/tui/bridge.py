"""The trio SDK inside Textual's asyncio loop, by trio's guest mode.

Textual runs on asyncio; the SDK is trio. :func:`trio.lowlevel.start_guest_run` runs a trio
run *inside* the asyncio loop: trio's scheduler steps are callbacks on the host loop and its I/O
waits happen in a helper thread, so both libraries share the one thread and the app can read the
SDK's replica directly, with no locks and no copies. Events go from trio to the app as Textual
messages; the app's requests go to trio through the run's token.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

import trio

from arbiter.clients.sdk import Client, ConnectError, ConnectionLost, RequestError, open_client
from arbiter.clients.sdk import events as ev


@dataclass(frozen=True)
class Ready(ev.Event):
    """The SDK is connected (the first time), and has the server's catalog: the ready-made
    decks' names and the card data (docs/protocol.md, "catalog")."""

    decks: tuple[str, ...] = ()
    cards: dict[str, Any] | None = None


@dataclass(frozen=True)
class Failed(ev.Event):
    """The SDK could not connect, or stopped."""

    reason: str


@dataclass(frozen=True)
class Refused(ev.Event):
    """A request the person made was refused (or lost with the connection)."""

    what: str
    code: str
    message: str


@dataclass(frozen=True)
class Entered(ev.Event):
    """The person took a seat in (or began to watch) ``room``."""

    room: str
    seat: int | None
    created: bool = False  # the person made this room (and may fill it with bots)


class TrioBridge:
    def __init__(self, post: Callable[[ev.Event], Any], urls: str | Sequence[str], name: str,
                 **client_options: Any) -> None:
        self.post = post
        self.urls = urls  # one server, or the entry URLs of a cluster
        self.name = name
        self.client_options = client_options
        self.client: Client | None = None
        self._token: trio.lowlevel.TrioToken | None = None
        self._nursery: trio.Nursery | None = None
        self._done: asyncio.Future[None] | None = None

    def start(self) -> None:
        """Start the trio run as a guest of the running asyncio loop."""
        loop = asyncio.get_running_loop()
        self._done = loop.create_future()
        done = self._done

        def finished(outcome: Any) -> None:
            if not done.done():
                done.set_result(None)
            error = getattr(outcome, "error", None)
            if error is not None:
                self.post(Failed(f"{type(error).__name__}: {error}"))

        trio.lowlevel.start_guest_run(
            self._main, run_sync_soon_threadsafe=loop.call_soon_threadsafe,
            run_sync_soon_not_threadsafe=loop.call_soon, done_callback=finished,
            host_uses_signal_set_wakeup_fd=True)

    async def _main(self) -> None:
        self._token = trio.lowlevel.current_trio_token()
        async with trio.open_nursery() as nursery:
            self._nursery = nursery
            try:
                async with open_client(self.urls, self.name, **self.client_options) as client:
                    self.client = client
                    events = client.subscribe()
                    catalog = await client.catalog()
                    self.post(Ready(tuple(d["name"] for d in catalog["decks"]),
                                    catalog["cards"]))
                    async for event in events:
                        self.post(event)
            except ConnectError as exc:
                self.post(Failed(str(exc)))
            nursery.cancel_scope.cancel()

    def call(self, what: str, fn: Callable[[Client], Awaitable[Any]]) -> None:
        """Run ``fn(client)`` in the trio run; a refusal comes back as a :class:`Refused`."""
        token, nursery = self._token, self._nursery
        if token is None or nursery is None:
            self.post(Refused(what, "not_connected", "not connected yet"))
            return

        async def guarded() -> None:
            client = self.client
            if client is None:
                self.post(Refused(what, "not_connected", "not connected yet"))
                return
            try:
                await fn(client)
            except RequestError as exc:
                self.post(Refused(what, exc.code, exc.message))
            except ConnectionLost as exc:
                self.post(Refused(what, "connection_lost", str(exc)))

        token.run_sync_soon(nursery.start_soon, guarded)

    async def stop(self) -> None:
        """Close the connection and wait for the trio run to end."""
        token, nursery = self._token, self._nursery
        if token is not None and nursery is not None and self._done is not None \
                and not self._done.done():
            token.run_sync_soon(nursery.cancel_scope.cancel)
        if self._done is not None:
            await self._done
