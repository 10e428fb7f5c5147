"""One connection as the core sees it: who it is, what it follows, and what it may send.

The transport creates a :class:`Peer` for each connection and passes it with every input; the
core keeps its session rules here (the message rate, the count of malformed messages) so that
the transport only moves bytes. ``sink`` is the transport's own handle for sending to the
connection; the core never calls it, it only names peers in its effects.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from .states import PeerState, peer_transition

if TYPE_CHECKING:
    from .sessions import Session


class Sink(Protocol):
    def deliver_all(self, frames: Sequence[bytes]) -> None: ...


@dataclass(frozen=True)
class Limits:
    """What one connection may send (docs/protocol.md section 1, ``welcome.limits``)."""

    rate: float = 50.0  # messages per second, on average...
    burst: int = 200  # ...and in a burst
    garbage: float = 20.0  # malformed messages tolerated (one forgiven every 10 s)
    max_frame: int = 64 * 1024  # bytes; larger client messages get a too_large error
    queue: int = 256  # frames the transport buffers for a client that does not read


class Peer:
    __slots__ = ("_strikes", "_strikes_at", "_tokens", "_tokens_at", "address", "id", "rooms",
                 "session", "sink", "state", "version")

    _ids = itertools.count(1)

    def __init__(self, sink: Sink | Any, address: str, limits: Limits, now: float) -> None:
        self.id = next(self._ids)
        self.sink = sink
        self.address = address  # the remote address, without the port
        self.state = PeerState.HELLO_WAIT
        self.session: Session | None = None
        self.rooms: set[str] = set()  # match rooms this connection follows
        self.version: int | None = None
        self._tokens = float(limits.burst)
        self._tokens_at = now
        self._strikes = 0.0
        self._strikes_at = now

    def __repr__(self) -> str:
        return f"<Peer {self.id} {self.state}>"

    def move(self, state: PeerState) -> None:
        self.state = peer_transition(self.state, state)

    @property
    def reading(self) -> bool:
        return self.state in (PeerState.HELLO_WAIT, PeerState.ACTIVE)

    # ------------------------------------------------------------------ the message rate

    def allow(self, limits: Limits, now: float) -> bool:
        """Token bucket: may the client send one more message now?"""
        self._tokens = min(float(limits.burst),
                           self._tokens + (now - self._tokens_at) * limits.rate)
        self._tokens_at = now
        if self._tokens < 1:
            return False
        self._tokens -= 1
        return True

    def refund(self) -> None:
        """Give back the token of a message that does not count against the rate: a player
        answering their own decision is playing, not flooding (docs/protocol.md section 1)."""
        self._tokens += 1

    def charge(self, tokens: float) -> None:
        """Take ``tokens`` more for a message that cost the server more than most (a refused
        deck: docs/protocol.md section 1); the bucket may go below zero, and the connection
        then waits for it to refill as for any message."""
        self._tokens -= tokens

    def strike(self, limits: Limits, now: float) -> bool:
        """Count one malformed message; True when the client has sent too many."""
        self._strikes = max(0.0, self._strikes - (now - self._strikes_at) / 10) + 1
        self._strikes_at = now
        return self._strikes > limits.garbage
