"""What a cluster node holds, and its lease and claim decisions (docs/cluster.md, "Failover and
handover").

Pure: no awaits, no clock, no Redis or PostgreSQL. :class:`~.node.ClusterNode` makes the calls,
feeds their answers in here and does what comes back, so every decision is tested with plain
values (tests/cluster/test_decisions.py):

- when the node beats (heartbeat, lease renewals, lobby entries): :class:`Beats`;
- which leases to take and renew, which rooms a renewal lost, which finished rooms to take off
  the directory, which lobby entries changed: :class:`Holdings`;
- which rooms to claim of those whose lease lapsed (a dead node's) or was handed over;
- what a write with an unknown outcome leaves to rebuild, and whether a rebuilt room is still
  this node's;
- after a Redis outage: which lapsed leases to take again (:meth:`Holdings.reassert`) and how
  long to wait before claiming other nodes' rooms (:class:`ClaimGrace`).
"""

from __future__ import annotations

import math
from collections.abc import Container, Iterable, Mapping, Sequence
from typing import Any

Summary = dict[str, Any]  # a room's lobby entry


class Beats:
    """When the node beats next: every ``period`` (a quarter lease: a node must so stall for
    three quarters of a lease before a lease lapses), counted from the start of the last beat,
    so that a slow beat (Redis answering late) does not stretch the time between renewals. A
    new room's lease and lobby entry do not wait for the next beat: the node cuts the wait
    short when a room is created."""

    def __init__(self, period: float) -> None:
        self.period = period
        self.last: float | None = None  # when the last beat started

    def wait(self, now: float) -> float:
        """Seconds until the next beat is due (0: now)."""
        if self.last is None:
            return 0.0
        return max(0.0, self.last + self.period - now)

    def beaten(self, now: float) -> None:
        """A beat starts at ``now``."""
        self.last = now


class ClaimGrace:
    """When this node may claim rooms whose lease lapsed, after its directory was away.

    While Redis is away no node renews, so every lease lapses, though every node still
    serves its rooms and holds their epochs in PostgreSQL. When Redis answers again, the
    rooms look due to every node at once; claiming them then would take live rooms from
    their live owners (their players closed with 1012, a replay each). Each owner takes its
    leases again at its first beat after the outage (:meth:`Holdings.reassert`), so a node
    whose directory came back (or answered so late that leases may have lapsed meanwhile)
    waits ``grace`` seconds before it claims: long enough for an owner's beat that was
    waiting on the outage to time out and beat again. A room still due after that has no
    live owner, and is claimed as usual."""

    def __init__(self, grace: float) -> None:
        self.grace = grace
        self.until: float | None = None  # no claims before this (None: claim at once)

    def back(self, now: float) -> None:
        """The directory answers again at ``now`` after failing or answering late."""
        self.until = now + self.grace

    def wait(self, now: float) -> float:
        """Seconds until claims may be made (0: now)."""
        if self.until is None or now >= self.until:
            return 0.0
        return self.until - now


class Holdings:
    """The rooms this node owns, and where each stands in the directory and the log."""

    def __init__(self) -> None:
        # Rooms this node owns -> the epoch it writes under. The writer reads the same dict
        # (a new room is owned at epoch 1 from its first record).
        self.epochs: dict[int, int] = {}
        self.leased: set[int] = set()  # rooms whose lease this node holds in the directory
        self.taking: set[int] = set()  # rooms being taken over or rebuilt just now
        self.reload: set[int] = set()  # rooms to rebuild from the log once it answers
        self.published: dict[int, Summary] = {}  # lobby entries as last published
        self.due_before: set[int] = set()  # rooms due at the last claim round (to_claim)

    def settled(self, room: int) -> bool:
        """Held, and not in the middle of being taken over or rebuilt."""
        return room in self.epochs and room not in self.taking

    def forget(self, room: int) -> None:
        """The room is not this node's any more (lost, fenced, finished, or gone)."""
        self.epochs.pop(room, None)
        self.leased.discard(room)
        self.published.pop(room, None)
        self.reload.discard(room)

    # ------------------------------------------------------------------ leases

    def to_acquire(self) -> dict[int, int]:
        """Rooms created here since the last beat: their leases to take (room -> epoch)."""
        return {room: self.epochs[room] for room in sorted(set(self.epochs) - self.leased)}

    def acquired(self, room: int) -> None:
        self.leased.add(room)

    def renewals(self) -> dict[int, int]:
        """Every lease the node holds (room -> epoch), renewed in one call each beat."""
        return {room: self.epochs[room] for room in self.leased}

    def lost(self, rooms: Iterable[int]) -> list[int]:
        """A renewal found these leases gone (lapsed while the node stalled, or taken by
        another node): the rooms are forgotten, and returned, in order, to be let go at once.
        Another node may be claiming them: this one must not write for them again (and the
        log would refuse it: their epoch is stale)."""
        gone = sorted(rooms)
        for room in gone:
            self.forget(room)
        return gone

    def reassert(self, lost: Iterable[int], owners: Mapping[int, tuple[str, int]],
                 node: str) -> tuple[list[int], list[int]]:
        """A renewal found the leases of ``lost`` gone, and the log says who owns each room
        (``owners``: room -> (owner, epoch), unfinished rooms only). Returns the rooms whose
        lease to take again, at the epoch this node writes under, and those to let go.

        A lease that lapsed is not a claim: a Redis outage longer than a lease lapses every
        lease of every node, while each node still holds its rooms' epochs in PostgreSQL,
        which is what fences writes (docs/cluster.md, "Redis away"). So a room the log still
        gives this node at its epoch is kept, its lease taken again; one that another node
        claimed (a higher epoch, another owner) or that is gone is let go."""
        keep, gone = [], []
        for room in sorted(lost):
            if owners.get(room) == (node, self.epochs.get(room)):
                keep.append(room)
            else:
                gone.append(room)
        return keep, gone

    def finished(self, open_rooms: Container[str], writing: bool) -> list[int]:
        """Leased rooms the core has dropped (their match ended): off the directory, so that
        nobody claims them. Not while a batch is being written (it may be their last), nor
        a room waiting to be rebuilt (the core let it go; the log still has it), nor a room
        being taken over or rebuilt: it is leased from its claim, so that the beat renews it
        however long its replay takes, and the core holds it only once the replay is done
        (issue 27.3: a beat in the middle of a replay deleted the lease it had just taken)."""
        if writing:
            return []
        return [room for room in sorted(self.leased)
                if str(room) not in open_rooms and room not in self.reload
                and room not in self.taking]

    def publications(self, summaries: Mapping[str, Summary]) -> list[tuple[int, Summary | None]]:
        """The lobby entries that changed since they were last published (None: take the
        room off the lobby), of leased rooms only (only a lease holder may publish)."""
        out = []
        for room in sorted(self.leased):
            summary = summaries.get(str(room))
            if summary != self.published.get(room):
                out.append((room, summary))
        return out

    def publish(self, room: int, summary: Summary | None) -> None:
        """``summary`` is what the lobby now says for ``room``."""
        if summary is None:
            self.published.pop(room, None)
        else:
            self.published[room] = summary

    # ------------------------------------------------------------------ claims

    def to_claim(self, due: Sequence[int], live_nodes: int, rank: int = 0) -> list[int]:
        """Of the rooms ``due`` (their lease lapsed, or was handed over), this node's share:
        the backlog split evenly between the live nodes, each taking its own part of the list
        (``rank``: its place among the live nodes by id), so that they claim different rooms
        at once instead of all contending for the first ones (with 25 nodes, a dead node's
        1,000 rooms would otherwise go 40 a round). A room that was due in the last round too
        is anyone's: a live node that does not claim its part (stalled, or slow to see the
        rooms) delays them by a round, never more. Rooms this node holds or is already taking
        are not claimed again: a renewal settles those."""
        share = math.ceil(len(due) / max(1, live_nodes))
        mine = due[rank * share:(rank + 1) * share]
        left = [room for room in due if room in self.due_before and room not in mine]
        self.due_before = set(due)
        return self.claimable((*mine, *left[:share]))

    def claimable(self, rooms: Iterable[int]) -> list[int]:
        """Of ``rooms``, those a claim may start on: neither held (a claim would raise the
        epoch of a room this node serves and replay it over the live one: issue 27.2) nor
        being taken or rebuilt already (that take is waited for, not raced)."""
        return [room for room in dict.fromkeys(rooms)
                if room not in self.epochs and room not in self.taking]

    def claimed(self, room: int, epoch: int) -> None:
        """The node took ``room`` over: it holds the lease and writes under ``epoch``."""
        self.epochs[room] = epoch
        self.leased.add(room)

    # ------------------------------------------------------------------ unknown outcomes

    def outcome_unknown(self, rooms: Iterable[int]) -> None:
        """A batch with these rooms' records may or may not have committed (its answer was
        lost): each that the node still holds is rebuilt from the log once it answers."""
        self.reload.update(room for room in rooms if room in self.epochs)

    def still_ours(self, room: int, owner: str | None, epoch: int | None, node: str) -> bool:
        """Before rebuilding ``room``: the log says ``owner`` owns it at ``epoch`` (None: the
        room is gone). It is still this node's only at the epoch it writes under; otherwise
        another node claimed it meanwhile, and it is forgotten."""
        if owner != node or epoch is None or epoch != self.epochs.get(room):
            self.forget(room)
            return False
        self.reload.discard(room)
        return True


def claim_batches(rooms: Sequence[int], size: int) -> list[list[int]]:
    """A round's share of due rooms cut into claim batches of at most ``size``, in the
    order given (the due list's: the longest due first). Each batch is taken in a few round
    trips whatever its size (:func:`~.ownership.take_over_many`); batches are small enough
    that the first rooms are served again soon and a failed batch costs little, and several
    are in flight at once, so that one batch's claim and read wait on the services while
    another's rooms are replayed."""
    step = max(1, size)
    return [list(rooms[i:i + step]) for i in range(0, len(rooms), step)]
