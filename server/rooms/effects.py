"""What the room core asks the outside world to do: the effects of one input.

The core (the hub, the sessions and the rooms) never awaits, never reads a clock and never
touches a socket or a disk. Each input (a frame from a connection, a connection that closed, a
deadline that came) is handled start to end and returns one :class:`Effects`, which the
transport carries out in this order:

1. ``records``: log records, written durably (server/store) before anything below leaves;
2. ``frames``: bytes for connections, in order;
3. ``closes``: connections to close once their frames above have been sent;
4. ``deadlines``: when to wake each timer key (None: never), the latest word for a key wins.

Like wsproto's ``receive_data`` handing back events, this keeps the core a pure function of its
inputs and the time it is told, so tests drive it with plain values (tests/rooms).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING

from arbiter.protocol.codec import pack
from arbiter.protocol.server_messages import ServerMessage, encode
from arbiter.server.store.records import Record

if TYPE_CHECKING:
    from .peers import Peer

# WebSocket close codes the core chooses (RFC 6455): a policy violation (garbage, flooding),
# and no protocol version in common.
POLICY_VIOLATION = 1008
PROTOCOL_ERROR = 1002


class Effects:
    __slots__ = ("closes", "deadlines", "frames", "records")

    def __init__(self) -> None:
        self.records: list[Record] = []
        self.frames: list[tuple[Sequence[Peer], bytes]] = []
        self.closes: list[tuple[Peer, int, str]] = []
        self.deadlines: dict[Hashable, float | None] = {}

    def log(self, record: Record) -> None:
        self.records.append(record)

    def send(self, peers: Sequence[Peer], frame: bytes) -> None:
        if peers:
            self.frames.append((peers, frame))

    def message(self, peers: Sequence[Peer], message: ServerMessage) -> None:
        """Encode ``message`` once and send the same bytes to every one of ``peers``."""
        if peers:
            self.frames.append((peers, pack(encode(message))))

    def close(self, peer: Peer, code: int, reason: str) -> None:
        self.closes.append((peer, code, reason))

    def wake(self, key: Hashable, when: float | None) -> None:
        self.deadlines[key] = when

    def __bool__(self) -> bool:
        return bool(self.records or self.frames or self.closes or self.deadlines)

    def __repr__(self) -> str:
        return (f"<Effects {len(self.records)} records, {len(self.frames)} frames, "
                f"{len(self.closes)} closes, {len(self.deadlines)} deadlines>")
