"""Client-side bookkeeping of the rooms a connection follows: views, sequence numbers,
checksums and legal actions. Feed it every decoded server message in order; it tells you which
rooms need a ``resync`` (a gap in the sequence, or a checksum that does not match).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .errors import ProtocolError
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

    def feed(self, msg: dict[Any, Any]) -> str | None:
        """Process one server message; return a room id that needs a resync, if any."""
        kind = msg.get("t")
        room = msg.get("r")
        if kind == "s":
            state = ViewState(msg["v"])
            rv = RoomView(str(room), int(msg["e"]), int(msg["q"]), state)
            old = self.rooms.get(str(room))
            if old is not None and not old.closed:
                rv.deltas = old.deltas
            self.rooms[str(room)] = rv
            if state.checksum != msg["c"] or checksum(state.view) != msg["c"]:
                return self._stale(rv)
            return None
        if not isinstance(room, str):
            return None
        rv2 = self.rooms.get(room)
        if rv2 is None:
            return None
        if kind == "d":
            if rv2.stale or msg["q"] <= rv2.seq:
                return None
            if msg["q"] != rv2.seq + 1:
                return self._stale(rv2)
            try:
                rv2.state.apply(msg["o"])
            except ProtocolError:
                return self._stale(rv2)
            rv2.seq = int(msg["q"])
            rv2.deltas += 1
            if any(op[1] == "w" for op in msg["o"]):
                rv2.actions = None
            if "a" in msg:
                rv2.actions = msg["a"]
            if rv2.state.checksum != msg["c"]:
                return self._stale(rv2)
        elif kind == "a":
            rv2.actions = msg["d"]
        elif kind == "closed":
            rv2.closed = True
            rv2.actions = None
            rv2.result = msg["res"]
        elif kind == "result":
            rv2.result = msg["res"]
        return None

    def acted(self, room: str, serial: int) -> None:
        """The client answered decision ``serial`` in ``room``: its actions are used up (the
        next decision's arrive in a new "a" message, after the acknowledging delta)."""
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
