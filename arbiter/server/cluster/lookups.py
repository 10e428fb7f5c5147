"""What a node answers when its core asks where a room is, and where a new room goes
(docs/cluster.md, "Routing").

Pure: :class:`RoomLookup` is the decision, step by step, given what the node holds
(:class:`~.leases.Holdings`) and what the directory says; :meth:`~.node.ClusterNode._where`
does each step (a read, a take, a pause) and tells it what came back. The answer is the URL
of the live node that holds the room, or None: here (held, or taken over just now) or nowhere
(finished, or never made). Never this node's own URL, nor a node the directory does not list
as alive: so redirects cannot loop, and nobody is sent to a dead address.

Another task of the node (the claim loop, another request) may take or rebuild the room while
a lookup waits on Redis or PostgreSQL, so every answer is weighed against what the node holds
*now*, after each step, a rebuild included: otherwise the node would call a room it is taking
(or still restoring) closed, or let go a lease it has just taken as if a previous run had left
it (tests/cluster/test_node_tasks.py, test_issue27_races.py).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .leases import Holdings

if TYPE_CHECKING:
    from .directory import Lease, NodeInfo


@dataclass(frozen=True)
class Here:
    """The room is this node's: the core answers from the room itself."""


@dataclass(frozen=True)
class Elsewhere:
    """The live node at ``url`` holds the room: the client is sent there."""

    url: str


@dataclass(frozen=True)
class Nowhere:
    """No node holds the room and none could take it: it is finished, or never was."""


@dataclass(frozen=True)
class GiveUp:
    """The room's holder has stopped beating and its lease has not lapsed within the lookup's
    patience: the client hears ``unavailable`` (another node takes the room soon)."""


@dataclass(frozen=True)
class Rebuild:
    """Held, but its last write's outcome is unknown: rebuild it from the log, then answer."""


@dataclass(frozen=True)
class AwaitTake:
    """Another task of this node is taking the room over or rebuilding it: wait for that to
    end, then look again."""


@dataclass(frozen=True)
class ReadLease:
    """Ask the directory who holds the room's lease (:meth:`RoomLookup.lease_read`)."""


@dataclass(frozen=True)
class Take:
    """Nobody holds the lease: take the room over (:meth:`RoomLookup.took`)."""


@dataclass(frozen=True)
class ReadState:
    """Nobody holds the lease and this node could not take the room: ask the log whether it
    is still open (:meth:`RoomLookup.state_read`). Finished or unknown, it is nowhere; open,
    another node's claim lost or failed and gave its lease back a moment ago (PostgreSQL
    away, a read of the logs that failed), and it is looked for again. Answering "nowhere"
    on the lease alone told players of a live room that it was closed (the chaos test)."""


@dataclass(frozen=True)
class ReleaseStale:
    """The lease names this node, yet this process does not hold the room: a lease taken by
    the node's previous run (killed between taking a lease and claiming the room, so that its
    restart did not find the room among its own). Release it at ``epoch`` and look again:
    the room is then unheld, and taken like any other."""

    epoch: int


@dataclass(frozen=True)
class ReadHolder:
    """Ask the directory whether ``node``, the lease's holder, is alive, and where
    (:meth:`RoomLookup.holder_read`)."""

    node: str


@dataclass(frozen=True)
class Pause:
    """The holder has stopped beating but its lease has not lapsed: wait ``seconds`` (the
    claim loop's period: the lease lapses on Redis's clock, not ours), then look again."""

    seconds: float


Step = (Here | Elsewhere | Nowhere | GiveUp | Rebuild | AwaitTake | ReadLease | Take
        | ReadState | ReleaseStale | ReadHolder | Pause)


class _At(enum.Enum):
    START = "start"  # nothing looked at yet
    LOOK = "look"  # look at what the node holds, then at the lease
    READING = "reading"  # the lease is being read
    LEASED = "leased"  # the lease was read
    TAKING = "taking"  # a take is under way
    TAKEN = "taken"  # the take succeeded
    RECHECK = "recheck"  # the take failed: did another node win it? the lease is read again
    RECHECKED = "rechecked"  # ... and was read
    STATE = "state"  # no lease after all: is the room still open in the log?
    STATE_READ = "state read"
    HOLDER = "holder"  # the holder's liveness is being read
    HOLDER_READ = "holder read"
    REBUILDING = "rebuilding"  # a Rebuild was asked
    ANSWERED = "answered"


class RoomLookup:
    """Where room ``room`` is, for the node ``node`` reachable at ``url``. A holder that has
    stopped beating is waited for (in pauses of ``pause`` seconds) for at most ``patience``
    seconds, from the first look at the directory: about until its lease lapses and this node
    takes the room."""

    def __init__(self, room: int, *, node: str, url: str, pause: float,
                 patience: float) -> None:
        self.room, self.node, self.url = room, node, url
        self.pause, self.patience = pause, patience
        self._at = _At.START
        self._since: float | None = None
        self._lease: Lease | None = None
        self._holder: NodeInfo | None = None
        self._open = False  # what the log said of the room (ReadState)

    def next(self, held: Holdings, now: float) -> Step:
        """What to do next, given what the node holds at ``now``."""
        room = self.room
        at = self._at
        if at is _At.START:
            self._at = _At.LOOK
            if held.settled(room):
                if room in held.reload:
                    # Rebuilding is the node's own business, not waiting on another node:
                    # it does not count against the patience.
                    self._at = _At.REBUILDING
                    return Rebuild()
                return self._answer(Here())
            return self.next(held, now)
        if at is _At.REBUILDING:
            # Look again rather than answer "here": another task of this node (the claim
            # loop) may be the one rebuilding it, still replaying, and a rebuild that found
            # the room another node's let it go (issue 27.1: "here" for a room the core did
            # not hold told a returning player it was closed).
            self._at = _At.LOOK
            return self.next(held, now)
        if at in (_At.LEASED, _At.HOLDER_READ) and (room in held.epochs
                                                      or room in held.taking):
            at = self._at = _At.LOOK  # taken meanwhile, by another task of ours
        if at is _At.LOOK:
            if room in held.taking:
                return AwaitTake()  # then look again
            if room in held.epochs:
                return self._answer(Here())
            if self._since is None:
                self._since = now
            elif now - self._since >= self.patience:
                return self._answer(GiveUp())
            self._at = _At.READING
            return ReadLease()
        if at is _At.LEASED:
            lease = self._lease
            if lease is None:
                self._at = _At.TAKING
                return Take()
            self._at = _At.LOOK
            if lease.node == self.node:
                return ReleaseStale(lease.epoch)
            self._at = _At.HOLDER
            return ReadHolder(lease.node)
        if at is _At.TAKEN:
            return self._answer(Here())
        if at is _At.RECHECK:
            return ReadLease()
        if at is _At.RECHECKED:
            if self._lease is None and not (room in held.epochs or room in held.taking):
                self._at = _At.STATE
                return ReadState()  # finished, never made, or let go a moment ago?
            self._at = _At.LOOK
            return self.next(held, now)
        if at is _At.STATE_READ:
            self._at = _At.LOOK
            if not self._open:
                return self._answer(Nowhere())
            return Pause(self.pause)  # then from the top, within the lookup's patience
        if at is _At.HOLDER_READ:
            holder = self._holder
            self._at = _At.LOOK
            if holder is None:
                return Pause(self.pause)  # the holder is silent
            # A holder at this node's own address (another id, the same URL) would send the
            # client back here: a loop. It is nowhere this node can send anyone.
            return self._answer(Elsewhere(holder.url) if holder.url != self.url else Nowhere())
        raise AssertionError(f"room {room}'s lookup is {at.value}: nothing to do next")

    def lease_read(self, lease: Lease | None) -> None:
        """The directory's answer to :class:`ReadLease`: the room's live lease, if any."""
        assert self._at in (_At.READING, _At.RECHECK), self._at
        self._lease = lease
        self._at = _At.LEASED if self._at is _At.READING else _At.RECHECKED

    def took(self, holds: bool) -> None:
        """The end of :class:`Take`: whether this node holds the room now."""
        assert self._at is _At.TAKING, self._at
        self._at = _At.TAKEN if holds else _At.RECHECK

    def state_read(self, open_: bool) -> None:
        """The log's answer to :class:`ReadState`: whether the room is there, unfinished."""
        assert self._at is _At.STATE, self._at
        self._open = open_
        self._at = _At.STATE_READ

    def holder_read(self, holder: NodeInfo | None) -> None:
        """The directory's answer to :class:`ReadHolder`: the holder if it is alive."""
        assert self._at is _At.HOLDER, self._at
        self._holder = holder
        self._at = _At.HOLDER_READ

    def _answer(self, step: Step) -> Step:
        self._at = _At.ANSWERED
        return step


def placement(best: NodeInfo | None, *, node: str, url: str, rooms: int) -> str | None:
    """Where a new room goes: the URL of ``best``, the least-loaded live node, unless that is
    this node or this node (holding ``rooms``) has at most one room more (None: here). Each
    redirect so goes to a node with fewer rooms than the last, which is what keeps a create
    from bouncing between nodes."""
    if best is None or best.id == node or best.url == url:
        return None
    if rooms <= best.rooms + 1:
        return None
    return best.url
