"""When a node tries a batch of its log again, and how it tells whether a batch whose answer was
lost was written (issue 27: a failed batch closed every follower of its rooms with 1012).

A batch that PostgreSQL did not take (unreachable, restarting, frozen for a moment) used to fail
at once: its rooms were let go and rebuilt, and every player following them was closed with
1012 though they had stayed connected. Now the node's writer holds the batch and tries it again
after a pause that doubles each time, for a bounded time (:class:`RetrySchedule`); meanwhile the
batch's frames wait (nothing it caused is sent before it is durable), the core refuses new
writes with ``unavailable``, and the followers of its rooms hear ``unavailable`` and keep their
connections. Only a batch still not written when the time is up fails as before.

A batch whose answer was lost may have committed. Before sending it again the node makes the
lost batch's fate final (``ClusterLog.end_lost_batches``: it committed, or never will, and
cannot land after a later batch). Sent again, a batch that did commit would meet its own rows:
sessions, seats and every update are written as upserts and assignments, which a second
time leaves as they are, but a new room, game or command is an insert its primary key refuses.
So a batch with such rows is looked for first, by a row of each room (:func:`probes`): all
found, the batch is durable and done; none, it never will be, and it is sent again; some
(a try written without rooms another node had claimed), the batch fails as before.

Pure: no clock, no I/O; times are numbers passed in (tests/cluster/test_decisions.py).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from arbiter.server.store.records import (
    CommandAppended,
    GameStarted,
    Record,
    RoomCreated,
)


@dataclass(frozen=True)
class Probe:
    """One row that only this batch writes: ``table`` ("commands", "rooms" or "games") and the
    key that finds it. A command's row is found at the epoch it was written under: after a
    claim the new owner writes the same (game, n) at a higher epoch."""

    table: str
    key: tuple[int, ...]


def probes(records: Sequence[Record], epochs: Mapping[int, int]) -> list[Probe]:
    """Rows that show whether the batch ``records`` (written under ``epochs``) committed: for
    each room with inserts, its first (a try may have been written without the rooms another
    node had claimed, so one room's row says nothing of another's). Empty when the batch
    inserts nothing a second try would collide with (sessions and seats are upserts, the rest
    assignments): then it is simply sent again. New rooms and games have numbers only this
    node handed out."""
    found: dict[int, Probe] = {}
    for r in records:
        if getattr(r, "room", None) in found:
            continue
        if isinstance(r, CommandAppended) and r.room in epochs:
            found[r.room] = Probe("commands", (r.game, r.n, epochs[r.room]))
        elif isinstance(r, RoomCreated):
            found[r.room] = Probe("rooms", (r.room,))
        elif isinstance(r, GameStarted):
            found[r.room] = Probe("games", (r.game,))
    return list(found.values())


class RetrySchedule:
    """The pauses between tries of one batch: ``first`` seconds, twice as long after each
    failure up to ``longest``, for at most ``budget`` seconds after the first failure. The
    bound matters: while a batch waits, every room of the node waits behind it (the gate
    writes one batch at a time), so a PostgreSQL that stays away must end in the old way
    (rooms let go, rebuilt once it answers) rather than hold them all."""

    def __init__(self, budget: float, first: float = 0.1, longest: float = 1.0) -> None:
        self.budget, self.first, self.longest = budget, first, longest
        self.failed_at: float | None = None  # when the batch first failed
        self.pause = 0.0

    def next(self, now: float) -> float | None:
        """The batch failed at ``now``: seconds to wait before the next try, or None when the
        budget is spent (the batch fails)."""
        if self.failed_at is None:
            self.failed_at = now
        self.pause = self.first if self.pause == 0.0 else min(self.longest, 2 * self.pause)
        if now + self.pause > self.failed_at + self.budget:
            return None
        return self.pause
