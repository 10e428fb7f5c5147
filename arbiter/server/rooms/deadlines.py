"""What time does to a match: its chess clocks run, an empty seat's grace period ends, the
room's bots finish thinking, a room nobody came to (or that did not fill in time) closes.

The core reads no clock. A match names one deadline, the earliest of its own, under its id
(``Effects.wake``); the transport's timer wakes the hub then, and :meth:`Deadlines.on_timer`
does whatever has come due at ``ctx.now``. Each deadline here is a time or None (not set):

- ``idle``: the room was created, or its last seat was freed, and nobody has taken a seat since;
- ``start``: the match must have started by then (waiting rooms only);
- ``bot``: the room's bots answer then, after a think, as a person would;
- each seat's ``away_deadline``: its grace period (rooms/seat_rules.py sets it);
- the running chess clock's flag.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from arbiter.protocol.errors import Code
from arbiter.protocol.server_messages import Clock, Error
from arbiter.server.rules.commands import Concede, Penalty

from .clocks import ChessClock
from .states import RoomState

if TYPE_CHECKING:
    from .match import MatchRoom

WAITING, PLAYING, PAUSED, FINISHED = (RoomState.WAITING, RoomState.PLAYING, RoomState.PAUSED,
                                      RoomState.FINISHED)


class Deadlines:
    def __init__(self, match: MatchRoom) -> None:
        self.match = match
        self.ctx = ctx = match.ctx
        self.clock: ChessClock | None = None
        self._clock_changed = False
        self.idle: float | None = ctx.now + ctx.settings.grace
        self.start: float | None = ctx.now + ctx.settings.waiting_ttl
        self.bot: float | None = None

    # ------------------------------------------------------------------ chess clocks

    def start_clock(self) -> None:
        """A new table: every player's clock starts full (the room's settings), or none."""
        clock = self.match.settings.clock
        self.clock = ChessClock(len(self.match.seats), *clock) if clock is not None else None
        self.settle_clock(None)

    def settle_clock(self, acted: int | None) -> None:
        """After a command (``acted``: the seat that chose) or a game's end: charge the time
        to whoever was deciding and run the clock of whoever decides now."""
        if self.clock is None:
            return
        table = self.match.table
        running = None
        if table is not None and not table.finished and table.pending is not None:
            running = table.pending.player
        self._clock_changed = running != self.clock.running or acted is not None
        self.clock.settle(self.ctx.now, running, acted)

    def send_clock(self) -> None:
        if self.clock is None or not self._clock_changed:
            return
        self._clock_changed = False
        self.match.fanout.broadcast(Clock(self.match.id, self.clock.millis(self.ctx.now),
                                          self.clock.running))

    def _flag_clock(self) -> None:
        """CR 104.3k: the player whose time ran out loses the game."""
        match = self.match
        table = match.table
        assert self.clock is not None and table is not None
        flagged = self.clock.flag(self.ctx.now)
        if flagged is not None:
            if not (table.main.in_game(flagged)
                    and match.play.run(Penalty(flagged, "clock", table.main.number), None)):
                self.clock.settle(self.ctx.now, None, None)  # nobody left to flag: stop it

    # ------------------------------------------------------------------ waking

    def next_deadline(self) -> float | None:
        match = self.match
        deadlines = [s.away_deadline for s in match.seats if s.away_deadline is not None]
        for d in (self.idle, self.bot):
            if d is not None:
                deadlines.append(d)
        if match.state == WAITING and self.start is not None:
            deadlines.append(self.start)
        if self.clock is not None and match.state in (PLAYING, PAUSED):
            d = self.clock.deadline()
            if d is not None:
                deadlines.append(d)
        return min(deadlines) if deadlines else None

    def reschedule(self) -> None:
        """Ask to be woken at the match's next deadline (after every change to one)."""
        match = self.match
        if self.bot is None and match.bots.have_work():
            # The room's bots answer after a think, as a person would.
            self.bot = self.ctx.now + self.ctx.settings.bot_think
        self.ctx.out.wake(match.id, None if match.state == FINISHED and not match.members()
                          else self.next_deadline())

    def on_timer(self) -> None:
        """A deadline of the room's has come: a chess clock, an empty seat's grace period, a
        bot's think, a waiting room's time."""
        match = self.match
        if self.clock is not None and match.state in (PLAYING, PAUSED):
            self._flag_clock()
        self._seats_away()
        if self.bot is not None and self.bot <= self.ctx.now:
            self.bot = None
            match.bots.act()
        if match.state == WAITING:
            self._expire_waiting()
        self.reschedule()

    def _seats_away(self) -> None:
        match = self.match
        now = self.ctx.now
        for seat in match.seats:
            if seat.away_deadline is None or seat.away_deadline > now or seat.present:
                continue
            seat.away_deadline = None
            table = match.table
            if match.state == WAITING:
                match.seat_rules.free(seat)
            elif (match.state in (PLAYING, PAUSED) and table is not None
                  and table.main.in_game(seat.index)):
                # The table never waits on a departed player: concede for them (CR 104.3a).
                match.play.run(Concede(seat.index, table.main.number), None)

    def _expire_waiting(self) -> None:
        match = self.match
        now = self.ctx.now
        nobody = not any(s.taken for s in match.seats) and not match.seating.spectators
        idle = self.idle is not None and self.idle <= now and nobody
        late = self.start is not None and self.start <= now
        if idle or late:
            # Nobody came, or the match did not fill in time: the room goes away (its row
            # stays in the log, finished), anyone waiting in it is told, and dropping it
            # frees its seats' sessions.
            self.ctx.stats.rooms_expired += 1
            match.fanout.broadcast(Error(Code.ROOM_CLOSED, f"room {match.id} closed: its match "
                                         "did not start in time", None, match.id))
            for peer in match.members():
                peer.rooms.discard(match.id)
            match.seating.spectators.clear()
            for seat in match.seats:
                seat.peers.clear()
            match.finish()
        elif self.idle is not None and self.idle <= now:
            self.idle = None

    # ------------------------------------------------------------------ after a restart

    def hold_seats(self) -> None:
        """After a restart: every taken seat (but a bot's) gets a fresh grace period."""
        for seat in self.match.seats:
            if seat.taken and seat.bot is None:
                self.idle = None
                seat.away_deadline = self.ctx.now + self.ctx.settings.grace

    def resume(self, clocks: list[int] | None) -> None:
        """A table read back from the log is being played: the clocks go on with the time
        they had after its last command (the downtime is not charged), and every seat gets
        a fresh grace period."""
        self.start = None
        clock = self.match.settings.clock
        if clock is not None:
            self.clock = ChessClock(len(self.match.seats), *clock)
            if clocks is not None:
                self.clock.restore(clocks, self.ctx.now)
            self.settle_clock(None)
        self.idle = None
        self.hold_seats()
