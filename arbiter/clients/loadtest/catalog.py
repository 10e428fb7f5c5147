"""The catalog a load-test worker's simulated players share."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import trio

if TYPE_CHECKING:
    from arbiter.clients.sdk import Client


class SharedCatalog:
    """The catalog, fetched by the first simulated player of a worker that needs it and kept
    by the others (:meth:`Client.keep_catalog`). It is the same for every client of a server,
    and clients are told to keep theirs (docs/protocol.md, "The catalog"), so a player who
    comes back has it already. Fetched by each of them, a 4,000-player ramp made the server
    send, and the load generator decode, 4,000 copies of the same 76 KB (2.5 ms of the
    generator's CPU each): a cost of the test, not of the players it simulates."""

    def __init__(self) -> None:
        self._catalog: dict[str, Any] | None = None
        self._lock = trio.Lock()

    async def give(self, clients: list[Client]) -> None:
        """Have each of ``clients`` hold the catalog (fetched first if nobody has yet)."""
        for client in clients:
            async with self._lock:  # the ramp's first rooms start together: one fetch
                if self._catalog is None:
                    self._catalog = await client.catalog()
            client.keep_catalog(self._catalog)
