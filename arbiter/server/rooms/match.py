"""A match room: its seats and spectators, a best-of-N match of tables, and one room per game on
the current table's stack (the main room and its subgame rooms).

:class:`MatchRoom` is what the hub sees of a match: its state (``waiting``, ``playing``,
``paused``, ``finished``, along the edges of rooms/states.py), who is in it, and one method per
request addressed to it. The work is split by idea, one module each:

- rooms/seat_rules.py: who may take, hand over, leave and watch which seat;
- rooms/play.py: the command path (a command to the engine, its record to the log, what it
  changed to every viewer class) and the match's tables, started and ended;
- rooms/deadlines.py: what time does (chess clocks, grace periods, the bots' thinking, a
  waiting room's time);
- rooms/recovery.py: a match rebuilt from the log, its current table replayed.

Every change lands in the effects of the input being handled (``ctx.out``), which the
transport carries out: records first, frames after. Nothing here awaits or reads a clock: the
time is ``ctx.now``.
"""

from __future__ import annotations

from typing import Any

from arbiter.protocol import requests as rq
from arbiter.protocol.errors import Code, Refusal
from arbiter.protocol.server_messages import ChatLine, Ok, RoomUpdate
from arbiter.server.rules import Table
from arbiter.server.store.records import RoomStateSet

from .bots import RoomBots
from .clocks import ChessClock
from .context import RoomContext
from .deadlines import Deadlines
from .fanout import Fanout
from .lifecycle import GameRooms
from .peers import Peer
from .play import Play
from .scoring import MatchScore
from .seat_rules import SeatRules
from .seating import Seat, Seating
from .setup import RoomSettings
from .states import RoomState, room_transition
from .views import SPECTATOR_KEYS


class MatchRoom:
    def __init__(self, ctx: RoomContext, number: int, settings: RoomSettings,
                 creator: str | None, address: str | None) -> None:
        self.ctx = ctx
        self.number = number
        self.id = str(number)
        self.settings = settings
        self.creator = creator  # the creating session's token: the match's judge
        self.address = address  # the creator's connection address (for the waiting limit)
        self.newcomer = False  # created by a session that had never played here (hub.py)
        # Sessions that presented the all-seeing spectators' invitation (rooms/seat_rules.py).
        self.invited: set[str] = set()
        self.seating = Seating(self.id, [spec.deck for spec in settings.seats])
        self.state = RoomState.WAITING
        self.spectator_key = SPECTATOR_KEYS[settings.spectators]
        self.score = MatchScore(len(settings.seats), settings.best_of)
        self.rooms = GameRooms(self.id, spectator_key=self.spectator_key,
                               history=ctx.settings.history,
                               new_epoch=lambda: ctx.entropy.bits(31),
                               on_open=lambda rid: ctx.open_room(rid, self),
                               on_close=ctx.close_room)
        self.fanout = Fanout(ctx, self.seating, self.rooms)
        self.seat_rules = SeatRules(self)
        self.play = Play(self)
        self.deadlines = Deadlines(self)
        self.bots = RoomBots(ctx, self.seating, self.rooms, lambda: self.table, self.play.run)

    # ------------------------------------------------------------------ who is here, and what

    @property
    def seats(self) -> list[Seat]:
        return self.seating.seats

    def members(self) -> list[Peer]:
        return self.seating.members()

    @property
    def table(self) -> Table | None:
        """The current table of the match (None before it starts)."""
        return self.play.table

    @property
    def game_id(self) -> int | None:
        return self.play.game_id

    @property
    def commands(self) -> int:
        """Commands applied to the current table."""
        return self.play.commands

    @property
    def clock(self) -> ChessClock | None:
        return self.deadlines.clock

    def seat_or_refuse(self, peer: Peer) -> Seat:
        """The seat ``peer`` plays from, for a request that needs one."""
        seat = self.seating.seat_of(peer)
        if seat is None or peer not in seat.peers:
            raise Refusal(Code.NOT_SEATED, f"you hold no seat in room {self.id}")
        return seat

    @property
    def held_for_creator(self) -> bool:
        """Whether this room counts against its creator's caps on rooms (per session and per
        address, hub.py): while it waits for players, and while only the server's bots play
        in it. A room filled with bots starts at once, so without the second clause a loop of
        create, bot, bot, leave filled the room table from one address (issue 27, item 10)."""
        if self.state == RoomState.WAITING:
            return True
        return self.state != RoomState.FINISHED and all(s.bot is not None for s in self.seats)

    def summary(self) -> RoomUpdate:
        s = self.settings
        seats = []
        for seat in self.seats:
            entry: dict[str, Any] = {"n": seat.name, "c": seat.present, "d": seat.deck is not None}
            if seat.bot is not None:
                entry["b"] = True
            seats.append(entry)
        return RoomUpdate(
            self.id, s.name, self.state.value, s.variant, seats, s.spectators,
            len(self.seating.spectators), s.best_of, self.score.game, list(self.score.wins),
            None if s.clock is None else {"total": s.clock[0], "inc": s.clock[1]},
            self.rooms.subgame_ids())

    def room_update(self, peers: list[Peer] | None = None) -> None:
        self.fanout.send(self.members() if peers is None else peers, self.summary())

    def ok(self, peer: Peer, request: int) -> None:
        self.fanout.send([peer], Ok(request))

    # ------------------------------------------------------------------ the match's state

    def set_state(self, state: RoomState) -> None:
        self.state = room_transition(self.state, state)

    def finish(self) -> None:
        """The match is over (its last game ended, or it never started in time)."""
        self.set_state(RoomState.FINISHED)
        self.ctx.out.log(RoomStateSet(self.number, RoomState.FINISHED.value))
        self.ctx.finished(self)
        self.room_update()
        if not self.members():
            self.ctx.drop(self)

    # ------------------------------------------------------------------ requests (hub.py)

    def join(self, peer: Peer, req: rq.Join) -> None:
        self.seat_rules.join(peer, req)

    def spectate(self, peer: Peer, req: rq.Spectate) -> None:
        self.seat_rules.spectate(peer, req)

    def add_bot(self, peer: Peer, req: rq.AddBot) -> None:
        self.seat_rules.add_bot(peer, req)

    def submit_deck(self, peer: Peer, req: rq.SubmitDeck) -> None:
        self.seat_rules.submit_deck(peer, req)

    def leave(self, peer: Peer, req: rq.Leave) -> None:
        self.seat_rules.leave(peer, req)

    def act(self, peer: Peer, req: rq.Act) -> None:
        self.play.act(peer, req)

    def concede(self, peer: Peer, req: rq.Concede) -> None:
        self.play.concede(peer, req)

    def draw(self, peer: Peer, req: rq.Draw) -> None:
        self.play.draw(peer, req)

    def judge(self, peer: Peer, req: rq.Judge) -> None:
        self.play.judge(peer, req)

    def chat(self, peer: Peer, req: rq.Chat) -> None:
        if not self.seating.follows(peer):
            raise Refusal(Code.NOT_SEATED, f"you are not in room {self.id}")
        seat = self.seating.seat_of(peer)
        name = (seat.name if seat is not None else None) or (
            peer.session.name if peer.session is not None else "?")
        self.ok(peer, req.id)
        self.fanout.broadcast(ChatLine(req.room, name, None if seat is None else seat.index,
                                       req.text))

    def resync(self, peer: Peer, req: rq.Resync) -> None:
        if not self.seating.follows(peer):
            raise Refusal(Code.NOT_SEATED, f"you do not follow room {self.id}")
        room = self.play.game_room(req.room)
        if req.epoch is not None and req.seq is not None:
            frames = room.missed(room.class_for(self.seating.player_of(peer)), req.epoch,
                                 req.seq, peer.version)
            if frames is not None:
                for frame in frames:
                    self.ctx.out.send([peer], frame)
                self.fanout.actions_to(self.table, room, [peer])
                self.ok(peer, req.id)
                return
        self.fanout.snapshot_to(self.table, room, [peer], req.id)

    # ------------------------------------------------------------------ connections and time

    def attach(self, peer: Peer, positions: dict[str, tuple[int, int]] | None) -> None:
        """A session holding a seat here (or spectating) came back on a new connection."""
        self.seat_rules.attach(peer, positions)

    def detach(self, peer: Peer) -> None:
        """A connection went away or left: its seat stays held for the grace period."""
        self.seat_rules.detach(peer)

    def reschedule(self) -> None:
        self.deadlines.reschedule()

    def on_timer(self) -> None:
        self.deadlines.on_timer()
