"""Room and game ids for a node, handed out without waiting (the room layer is synchronous)
from blocks fetched ahead from the log's sequences (docs/cluster.md, "The log in PostgreSQL":
ids are unique across nodes because every block comes from one sequence).

:class:`IdStock` is the decision, pure: the ids in hand, which one goes next, and how many to
fetch (a block once fewer than ``low_water`` are left, else none). :class:`IdPool` carries it
out on trio: one fetch at a time, from any :class:`IdSource` (the cluster's log; a test's fake
on a mock clock).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from typing import Protocol

import trio

KINDS = ("rooms", "games")


class IdsExhausted(Exception):
    """No id left in hand: the pool was not refilled in time."""


class IdSource(Protocol):
    async def allocate_ids(self, kind: str, count: int) -> list[int]:
        """``count`` fresh ids of ``kind`` (rooms or games), never handed out before."""
        ...


class IdStock:
    """The ids in hand, in the order they were fetched."""

    def __init__(self, kind: str, *, block: int, low_water: int) -> None:
        if kind not in KINDS:
            raise ValueError("kind must be rooms or games")
        if not 0 < low_water <= block:  # a block must lift the stock above low water again
            raise ValueError(f"low_water must be in 1..block ({block}), not {low_water}")
        self.kind = kind
        self.block = block
        self.low_water = low_water
        self._ids: deque[int] = deque()

    @property
    def left(self) -> int:
        return len(self._ids)

    @property
    def low(self) -> bool:
        return len(self._ids) < self.low_water

    def wanted(self) -> int:
        """How many ids to fetch now: a block when the stock is low, else none (a refill
        that waited behind another finds the stock full and fetches nothing)."""
        return self.block if self.low else 0

    def add(self, ids: Iterable[int]) -> None:
        self._ids.extend(ids)

    def take(self) -> int:
        if not self._ids:
            raise IdsExhausted(f"no {self.kind} id in hand; refill the pool first")
        return self._ids.popleft()


class IdPool(IdStock):
    """An :class:`IdStock` that refills itself from ``source``. Call :meth:`refill` from a
    task whenever :attr:`low` says so."""

    def __init__(self, source: IdSource, kind: str, *, block: int = 32, low_water: int = 8
                 ) -> None:
        super().__init__(kind, block=block, low_water=low_water)
        self.source = source
        self._lock = trio.Lock()  # one fetch at a time: two would both fetch a block

    async def take_waiting(self) -> int:
        """An id, fetching a block first whenever none is in hand: for a caller that may
        wait (a create's lookup), so that a burst larger than a block waits, never fails."""
        while not self.left:
            await self.refill()
        return self.take()

    async def refill(self) -> None:
        async with self._lock:
            wanted = self.wanted()
            if wanted:
                self.add(await self.source.allocate_ids(self.kind, wanted))
