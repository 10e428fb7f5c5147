"""The delay line of the all-seeing spectators: a room whose spectators see every hidden card
may show them the game some seconds late (``spectator_delay``, docs/protocol.md section 11), so
that a player who watches it from a second device learns the hands only after the moment they
mattered (docs/protocol.md section 7 says what this does and does not prevent).

Everything the core sends to such a connection, from the moment it starts watching, is held
back and released the delay later, in the order it was sent: the snapshot it gets when it
starts watching shows the game as it was then, and the deltas that follow bring it forward at
the pace the game went, so its replica stays consistent (sequence numbers and checksums are
those of the frames as sent). The answers to its own requests wait in the same line, which is
why a delayed spectator should watch from a connection of its own. A connection that stops
watching keeps its line until the frames in it are out, so that nothing overtakes them.

The hub hands every frame it sends through :meth:`DelayLines.hold` (``Effects.hold``) and wakes
the line at :data:`WAKE_KEY`; the frames come out as ordinary effects.
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Sequence
from typing import TYPE_CHECKING

from .effects import POLICY_VIOLATION, Effects

if TYPE_CHECKING:
    from .peers import Peer

WAKE_KEY = "delayed"  # the timer key under which held frames are released
MAX_HELD = 4096  # frames held for one connection; more and it is closed (it cannot be read)


class DelayLines:
    def __init__(self) -> None:
        self.watching: dict[Peer, dict[str, float]] = {}  # connection -> match id -> delay
        self.held: dict[Peer, int] = {}  # connection -> frames it has in the line
        self._last: dict[Peer, float] = {}  # when its last held frame comes out
        self._line: list[tuple[float, int, Peer, bytes]] = []  # (release at, order, to, frame)
        self._order = itertools.count()
        self.now = 0.0  # the time of the input being handled (set by the hub)
        self.out = Effects()  # ... and where its effects go

    def watch(self, peer: Peer, match: str, delay: float) -> None:
        """From now on ``peer`` sees ``match`` (and everything else) ``delay`` seconds late."""
        self.watching.setdefault(peer, {})[match] = delay

    def unwatch(self, peer: Peer, match: str) -> None:
        rooms = self.watching.get(peer)
        if rooms is not None:
            rooms.pop(match, None)
            if not rooms:
                del self.watching[peer]

    def gone(self, peer: Peer) -> None:
        """``peer``'s connection closed: what it had in the line is dropped on release."""
        self.watching.pop(peer, None)
        self.held.pop(peer, None)
        self._last.pop(peer, None)

    def hold(self, peers: Sequence[Peer], frame: bytes) -> Sequence[Peer]:
        """Keep ``frame`` back for those of ``peers`` who watch late (or still have frames in
        the line); return the others, to whom it goes now."""
        if not self.held and not self.watching:
            return peers
        late = [p for p in peers if p in self.watching or p in self.held]
        if not late:
            return peers
        for peer in late:
            rooms = self.watching.get(peer)
            due = max(self.now + (max(rooms.values()) if rooms else 0.0),
                      self._last.get(peer, self.now))
            count = self.held.get(peer, 0) + 1
            if count > MAX_HELD:
                self.out.close(peer, POLICY_VIOLATION, "too many frames held for a late view")
                self.gone(peer)
                continue
            self.held[peer] = count
            self._last[peer] = due
            heapq.heappush(self._line, (due, next(self._order), peer, frame))
        self.out.wake(WAKE_KEY, self._line[0][0])
        return [p for p in peers if p not in late]

    def release(self, now: float, out: Effects) -> None:
        """Send the frames whose time has come, in the order they were held."""
        while self._line and self._line[0][0] <= now:
            _, _, peer, frame = heapq.heappop(self._line)
            count = self.held.get(peer)
            if count is None:
                continue  # its connection has closed
            out.frames.append(([peer], frame))  # straight out: not through hold again
            if count > 1:
                self.held[peer] = count - 1
            else:
                del self.held[peer]
                self._last.pop(peer, None)
        out.wake(WAKE_KEY, self._line[0][0] if self._line else None)
