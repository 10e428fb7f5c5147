"""What the room core asks the outside world to do: the effects of one input.

The core (the hub, the sessions and the rooms) never awaits, never reads a clock and never
touches a socket or a disk. Each input (a frame from a connection, a connection that closed, a
deadline that came) is handled start to end and returns one :class:`Effects`, which the
transport carries out in this order:

1. ``records``: log records, written durably (server/store) before anything below leaves;
2. ``frames``: bytes for connections, in order;
3. ``closes``: connections to close once their frames above have been sent;
4. ``deadlines``: when to wake each timer key (None: never), the latest word for a key wins;
5. ``lookups``: (a cluster node only) what the core needs to know before it can answer a
   frame: a session or a room that lives in the cluster but not here, or where to place a new
   room. The node finds out and hands the frame back with the answer (``Resolved``);
6. ``reads``: requests answered from the log alone (a replay, a match history): the server
   reads and answers them off the event loop (server/net/archive_reads.py).

Like wsproto's ``receive_data`` handing back events, this keeps the core a pure function of its
inputs and the time it is told, so tests drive it with plain values (tests/rooms).
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from arbiter.protocol.codec import pack
from arbiter.protocol.server_messages import ServerMessage, encode
from arbiter.server.store.records import Record

if TYPE_CHECKING:
    from .peers import Peer

# WebSocket close codes the core chooses (RFC 6455): a policy violation (garbage, flooding),
# no protocol version in common, and "come back" (a room this node served has moved).
POLICY_VIOLATION = 1008
PROTOCOL_ERROR = 1002
SERVICE_RESTART = 1012


class LookupKind(enum.Enum):
    """What a cluster node is asked to find out (docs/cluster.md, "Routing"). The core asks
    (rooms/routing.py) and the node answers (cluster/node.py), both by these names."""

    SESSION = "session"  # a token this node does not know: is it in the log?
    ROOM = "room"  # a match id that is not here: which node holds it?
    PLACE = "place"  # a new room: which node should it go to?
    LOBBY = "lobby"  # a room list: the other nodes' rooms


@dataclass(frozen=True)
class Lookup:
    """Something a cluster node must find out before the core answers ``frame`` from ``peer``
    (None: nothing to answer, only to redirect ``peer``); ``key`` is the token or match id
    (empty for a placement or the lobby)."""

    kind: LookupKind
    key: str
    peer: Peer
    frame: bytes | None
    # A followed room's lookup: where the client's replica stood (its hello's resume), so
    # that a room the node takes over meanwhile picks the client up from there.
    resume: dict[str, tuple[int, int]] | None = None


@dataclass
class Resolved:
    """What a cluster node found out for a frame's lookups, handed back with the frame.

    ``sessions``: tokens looked up (those found were restored into the hub first); ``rooms``:
    room id -> the URL of the node that owns it now, or None when no node has it (or it is
    here now: the node restored it); ``place``: the URL of the node a new room should go to,
    or None for this one, and then ``number``: the number set aside for it (a burst of
    creates may take every number a node has in hand: each waits for its own, never fails for
    want of one); ``lobby``: the hub's copy of the other nodes' rooms was read just now."""

    sessions: set[str] = field(default_factory=set)
    rooms: dict[str, str | None] = field(default_factory=dict)
    placed: bool = False
    place: str | None = None
    number: int | None = None
    lobby: bool = False

    def answers(self, kind: LookupKind, key: str) -> bool:
        """Whether this is the answer to a lookup of ``kind`` for ``key``: a frame handed back
        with its answer does not ask again."""
        match kind:
            case LookupKind.SESSION:
                return key in self.sessions
            case LookupKind.ROOM:
                return key in self.rooms
            case LookupKind.PLACE:
                return self.placed
            case LookupKind.LOBBY:
                return self.lobby


@dataclass(frozen=True)
class Read:
    """A request answered from the log (``replay``, ``history``) for ``peer``, whose session
    is ``session`` (what a replay shows depends on it: rooms/replays.py)."""

    peer: Peer
    request: Any
    session: str | None


class Effects:
    __slots__ = ("closes", "deadlines", "frames", "hold", "lookups", "reads", "records")

    def __init__(self, hold: Callable[[Sequence[Peer], bytes], Sequence[Peer]] | None = None
                 ) -> None:
        self.records: list[Record] = []
        self.frames: list[tuple[Sequence[Peer], bytes]] = []
        self.closes: list[tuple[Peer, int, str]] = []
        self.deadlines: dict[Hashable, float | None] = {}
        self.lookups: list[Lookup] = []
        self.reads: list[Read] = []
        # Takes the frames of connections that see their rooms late (rooms/delays.py) and
        # returns the peers the frame goes to now.
        self.hold = hold

    def log(self, record: Record) -> None:
        self.records.append(record)

    def send(self, peers: Sequence[Peer], frame: bytes) -> None:
        if peers and self.hold is not None:
            peers = self.hold(peers, frame)
        if peers:
            self.frames.append((peers, frame))

    def message(self, peers: Sequence[Peer], message: ServerMessage) -> None:
        """Encode ``message`` once and send the same bytes to every one of ``peers``."""
        if peers:
            self.send(peers, pack(encode(message)))

    def close(self, peer: Peer, code: int, reason: str) -> None:
        self.closes.append((peer, code, reason))

    def wake(self, key: Hashable, when: float | None) -> None:
        self.deadlines[key] = when

    def lookup(self, kind: LookupKind, key: str, peer: Peer, frame: bytes | None,
               resume: dict[str, tuple[int, int]] | None = None) -> None:
        self.lookups.append(Lookup(kind, key, peer, frame, resume))

    def __bool__(self) -> bool:
        return bool(self.records or self.frames or self.closes or self.deadlines
                    or self.lookups or self.reads)

    def __repr__(self) -> str:
        return (f"<Effects {len(self.records)} records, {len(self.frames)} frames, "
                f"{len(self.closes)} closes, {len(self.deadlines)} deadlines>")
