"""Client-side bookkeeping of the rooms a connection follows: views, sequence numbers,
checksums and legal actions. Feed it every decoded server message in order; it tells you which
rooms need a ``resync`` (a gap in the sequence, or a checksum that does not match).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .errors import Refusal
from .server_messages import Actions, Closed, Delta, Result, ServerMessage, Snapshot
from .views import ViewState, checksum


@dataclass
class RoomView:
    room: str
    epoch: int
    seq: int
    state: ViewState
    actions: dict[str, Any] | None = None  # the latest legal actions, while they are current
    result: dict[str, Any] | None = None  # set when the room's game (or subgame) ended
    closed: bool = False
    stale: bool = False  # waiting for a snapshot after a gap or a checksum mismatch
    deltas: int = 0

    @property
    def view(self) -> dict[Any, Any]:
        return self.state.view


@dataclass
class Tracker:
    rooms: dict[str, RoomView] = field(default_factory=dict)
    mismatches: int = 0  # checksum or sequence problems seen (each leads to a resync)

    def feed(self, msg: ServerMessage) -> str | None:
        """Process one server message; return a room id that needs a resync, if any."""
        if isinstance(msg, Snapshot):
            state = ViewState(msg.view)
            rv = RoomView(msg.room, msg.epoch, msg.seq, state)
            old = self.rooms.get(msg.room)
            if old is not None and not old.closed:
                rv.deltas = old.deltas
            self.rooms[msg.room] = rv
            if state.checksum != msg.checksum or checksum(state.view) != msg.checksum:
                return self._stale(rv)
            return None
        if isinstance(msg, Delta):
            return self._delta(msg)
        if isinstance(msg, Actions | Closed | Result):
            known = self.rooms.get(msg.room)
            if known is None:
                return None
            if isinstance(msg, Actions):
                known.actions = msg.decision
            elif isinstance(msg, Closed):
                known.closed = True
                known.actions = None
                known.result = msg.result
            else:
                known.result = msg.result
        return None

    def _delta(self, msg: Delta) -> str | None:
        rv = self.rooms.get(msg.room)
        if rv is None or rv.stale or msg.seq <= rv.seq:
            return None  # not followed, waiting for a snapshot, or a duplicate
        if msg.seq != rv.seq + 1:
            return self._stale(rv)
        try:
            rv.state.apply(msg.ops)
        except Refusal:
            return self._stale(rv)
        rv.seq = msg.seq
        rv.deltas += 1
        if any(op[1] == "w" for op in msg.ops):
            rv.actions = None
        if msg.actions is not None:
            rv.actions = msg.actions
        if rv.state.checksum != msg.checksum:
            return self._stale(rv)
        return None

    def acted(self, room: str, serial: int) -> None:
        """The client answered decision ``serial`` in ``room``: its actions are used up (the
        next decision's come with a later delta or "a" message)."""
        rv = self.rooms.get(room)
        if rv is not None and rv.actions is not None and rv.actions.get("serial") == serial:
            rv.actions = None

    def _stale(self, rv: RoomView) -> str:
        rv.stale = True
        rv.actions = None
        self.mismatches += 1
        return rv.room

    def positions(self) -> dict[str, tuple[int, int]]:
        """Where each open room stands, for ``hello``'s ``resume`` field after a reconnect."""
        return {r: (rv.epoch, rv.seq) for r, rv in self.rooms.items()
                if not rv.closed and not rv.stale}
