"""A match room: its seats and spectators, a best-of-N match of tables, and one room per game on
the current table's stack (the main room and its subgame rooms).

Every change goes the same way: a command is applied to the table, its record is logged, and the
fan-out projects every affected room for every viewer class; all of it lands in the effects of
the input being handled (``ctx.out``), which the transport carries out: records first, frames
after. Nothing here awaits or reads a clock: the time is ``ctx.now``.
"""

from __future__ import annotations

import logging
from typing import Any

from arbiter.protocol import requests as rq
from arbiter.protocol.errors import Code, Refusal
from arbiter.protocol.server_messages import (
    ChatLine,
    Clock,
    Error,
    Joined,
    Ok,
    Result,
    RoomUpdate,
    SeatLost,
)
from arbiter.server.rules import Table
from arbiter.server.rules.commands import Act, Command, Concede, DrawOffer, Penalty, to_record
from arbiter.server.rules.plain import config_to_wire
from arbiter.server.rules.view import OMNISCIENT
from arbiter.server.store.records import (
    CommandAppended,
    GameFinished,
    GameStarted,
    RoomStateSet,
    SeatSet,
)

from .bots import RoomBot, RoomBots
from .clocks import ChessClock
from .context import RoomContext
from .fanout import Ack, Fanout
from .lifecycle import LIFECYCLE, GameRooms
from .peers import Peer
from .scoring import MatchScore
from .seating import Seat, Seating
from .setup import RoomSettings, deck_to_wire, parse_deck
from .states import RoomState, room_transition
from .views import SPECTATOR_KEYS, GameRoom

log = logging.getLogger("arbiter.rooms")

WAITING, PLAYING, PAUSED, FINISHED = (RoomState.WAITING, RoomState.PLAYING, RoomState.PAUSED,
                                      RoomState.FINISHED)


class RecoveryError(Exception):
    """A stored game does not replay to the state its log recorded."""


class MatchRoom:
    def __init__(self, ctx: RoomContext, number: int, settings: RoomSettings,
                 creator: str | None, address: str | None) -> None:
        self.ctx = ctx
        self.number = number
        self.id = str(number)
        self.settings = settings
        self.creator = creator  # the creating session's token: the match's judge
        self.address = address  # the creator's connection address (for the waiting limit)
        self.seating = Seating(self.id, [spec.deck for spec in settings.seats])
        self.state = WAITING
        self.spectator_key = SPECTATOR_KEYS[settings.spectators]
        self.score = MatchScore(len(settings.seats), settings.best_of)
        self.rooms = GameRooms(self.id, spectator_key=self.spectator_key,
                               history=ctx.settings.history,
                               new_epoch=lambda: ctx.entropy.bits(31),
                               on_open=lambda rid: ctx.open_room(rid, self),
                               on_close=ctx.close_room)
        self.fanout = Fanout(ctx, self.seating, self.rooms)
        self.bots = RoomBots(ctx, self.seating, self.rooms, lambda: self.table, self._run)
        # The current table of the match.
        self.table: Table | None = None
        self.game_id: int | None = None
        self.commands = 0  # commands applied to the current table
        self.clock: ChessClock | None = None
        self._clock_changed = False
        # Deadlines: nobody has come yet; the match has not started in time; a bot must act.
        self.idle_deadline: float | None = ctx.now + ctx.settings.grace
        self.start_deadline: float | None = ctx.now + ctx.settings.waiting_ttl
        self.bot_deadline: float | None = None

    # ------------------------------------------------------------------ who is here

    @property
    def seats(self) -> list[Seat]:
        return self.seating.seats

    def members(self) -> list[Peer]:
        return self.seating.members()

    def _set_state(self, state: RoomState) -> None:
        self.state = room_transition(self.state, state)

    def _seat_or_refuse(self, peer: Peer) -> Seat:
        seat = self.seating.seat_of(peer)
        if seat is None or peer not in seat.peers:
            raise Refusal(Code.NOT_SEATED, f"you hold no seat in room {self.id}")
        return seat

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

    def _room_update(self, peers: list[Peer] | None = None) -> None:
        self.fanout.send(self.members() if peers is None else peers, self.summary())

    def _ok(self, peer: Peer, request: int) -> None:
        self.fanout.send([peer], Ok(request))

    # ------------------------------------------------------------------ seats

    def join(self, peer: Peer, req: rq.Join) -> None:
        session = peer.session
        assert session is not None
        current = self.seating.seat_of(peer)
        if req.token is not None:
            seat = self.seating.by_token(req.token)
            if seat is None:
                raise Refusal(Code.BAD_TOKEN, f"no seat in room {self.id} has that token")
            if current is not None and current is not seat:
                raise Refusal(Code.ALREADY_SEATED, f"you already hold seat {current.index}")
            if seat.bot is not None:
                raise Refusal(Code.SEAT_TAKEN, f"seat {seat.index} is played by a bot")
            if seat.session is not session:
                self._take_over(seat)
                seat.session = session
                session.seats[self.id] = seat.index
                self._store_seat(seat)
        elif current is not None:
            if req.seat is not None and req.seat != current.index:
                raise Refusal(Code.ALREADY_SEATED, f"you already hold seat {current.index}")
            seat = current
        else:
            seat = self._free_seat_for(req.seat)
            seat.token = self.ctx.entropy.token()
            seat.session = session
            seat.name = self.seating.unique_name(session.name, seat)
            session.seats[self.id] = seat.index
            self._store_seat(seat)
            self.idle_deadline = None
        self.ctx.sessions.matters(session, self.ctx.out)
        # Every connection of the session that follows this room now sees it from the seat
        # (and only from the seat: one view per room per connection).
        mine = {p for p in session.peers if self.id in p.rooms or p is peer}
        self.seating.spectators -= mine
        seat.peers |= mine
        seat.away_deadline = None
        self._played_from(seat, peer)
        self.fanout.send([peer], Joined(req.id, self.id, seat.index, seat.token))
        self._follow(peer)
        self._room_update()
        self.reschedule()
        self._maybe_start()

    def _free_seat_for(self, wanted: int | None) -> Seat:
        if self.state != WAITING:
            raise Refusal(Code.ROOM_FULL, f"room {self.id} has started; spectate instead, or "
                                          "rejoin your seat with its token")
        if wanted is not None:
            if wanted >= len(self.seats):
                raise Refusal(Code.BAD_FIELD, f"room {self.id} has seats 0 to "
                                              f"{len(self.seats) - 1}")
            seat = self.seats[wanted]
            if seat.taken:
                raise Refusal(Code.SEAT_TAKEN, f"seat {wanted} is taken")
            return seat
        free = self.seating.free()
        if not free:
            raise Refusal(Code.ROOM_FULL, f"room {self.id} has no free seat")
        return free[0]

    def _take_over(self, seat: Seat) -> None:
        """Someone presented ``seat``'s token from another session: the seat is theirs now.
        The previous holder's connections are told (``seat_lost``) and stop following."""
        previous = seat.session
        lost = [p for p in seat.peers if p.session is not previous or previous is not None]
        for other in lost:
            seat.peers.discard(other)
            other.rooms.discard(self.id)
        self.fanout.send(lost, SeatLost(self.id, seat.index))
        if previous is not None:
            previous.seats.pop(self.id, None)
            self.ctx.sessions.released(previous, self.ctx.now, self.ctx.out)
        seat.session = None

    def _played_from(self, seat: Seat, peer: Peer) -> None:
        """``peer`` plays ``seat``. In a room whose spectators see everything, nobody at a
        player's address may watch it as a spectator: they could be that player, looking at
        the opponents' hands (docs/protocol.md section 7). Spectators already watching from
        there stop."""
        seat.addresses.add(peer.address)
        if self.spectator_key != OMNISCIENT:
            return
        ghosts = [p for p in self.seating.spectators if p.address == peer.address]
        for ghost in ghosts:
            self.seating.spectators.discard(ghost)
            ghost.rooms.discard(self.id)
            if ghost.session is not None:
                ghost.session.spectating.discard(self.id)
                self.ctx.sessions.released(ghost.session, self.ctx.now, self.ctx.out)
        self.fanout.send(ghosts, Error(
            Code.SEATED_PLAYER, f"a player of room {self.id} plays from your address: its "
            "all-seeing view is closed to you", None, self.id))

    def _player_addresses(self) -> set[str]:
        return {a for seat in self.seats for a in seat.addresses}

    def _store_seat(self, seat: Seat) -> None:
        deck = None if seat.deck is None else deck_to_wire(seat.deck)
        session = None if seat.session is None else seat.session.token
        bot = None if seat.bot is None else seat.bot.strategy_name
        self.ctx.out.log(SeatSet(self.number, seat.index, seat.token, session, seat.name, deck,
                                 bot))

    def spectate(self, peer: Peer, req: rq.Spectate) -> None:
        seat = self.seating.seat_of(peer)
        if seat is None:
            self._may_spectate(peer)
            self.seating.spectators.add(peer)
            if peer.session is not None:
                peer.session.spectating.add(self.id)
                self.ctx.sessions.matters(peer.session, self.ctx.out)
        else:
            seat.peers.add(peer)
        self.fanout.send([peer], Joined(req.id, self.id, None if seat is None else seat.index,
                                        None if seat is None else seat.token))
        self._follow(peer)
        self._room_update()

    def _may_spectate(self, peer: Peer) -> None:
        if self.settings.spectators == "none":
            raise Refusal(Code.NO_SPECTATORS, f"room {self.id} does not allow spectators")
        if self.spectator_key == OMNISCIENT and peer.address in self._player_addresses():
            raise Refusal(Code.SEATED_PLAYER, f"a player of room {self.id} plays from your "
                                              "address; its spectators see every hidden card")

    def add_bot(self, peer: Peer, req: rq.AddBot) -> None:
        """Seat a bot the server runs (its creator, or anyone seated, may do it)."""
        if not (self.seating.player_of(peer) is not None
                or (peer.session is not None and peer.session.token == self.creator)):
            raise Refusal(Code.NOT_SEATED, f"only the creator or a player of room {self.id} "
                                           "may add bots")
        seat = self._free_seat_for(req.seat)
        deck = seat.deck
        if req.deck is not None:
            deck = parse_deck(req.deck, allow_test=self.settings.allow_test_cards)
            self.settings.check_deck(seat.index, deck, [s.deck for s in self.seats])
        elif deck is None:
            deck = self.settings.default_deck(seat.index, [s.deck for s in self.seats])
        strategy = req.strategy or "heuristic"
        seat.bot = RoomBot(strategy, self.ctx.entropy.bits(62))
        seat.token = self.ctx.entropy.token()
        seat.name = self.seating.unique_name(f"Bot ({strategy})", seat)
        seat.deck = deck
        self._store_seat(seat)
        self.idle_deadline = None
        self._ok(peer, req.id)
        self._room_update()
        self.reschedule()
        self._maybe_start()

    def submit_deck(self, peer: Peer, req: rq.SubmitDeck) -> None:
        seat = self._seat_or_refuse(peer)
        if self.state != WAITING:
            raise Refusal(Code.WRONG_STATE, "decks can be changed only before the match starts")
        spec = {"text": req.text} if req.text is not None else {"ready": req.ready}
        deck = parse_deck(spec, allow_test=self.settings.allow_test_cards)
        self.settings.check_deck(seat.index, deck, [s.deck for s in self.seats])
        seat.deck = deck
        self._store_seat(seat)
        self._ok(peer, req.id)
        self._room_update()
        self._maybe_start()

    def leave(self, peer: Peer, req: rq.Leave) -> None:
        seat = self.seating.seat_of(peer)
        self._ok(peer, req.id)
        if peer.session is not None:
            peer.session.spectating.discard(self.id)
        self.detach(peer)
        if seat is not None and self.state == WAITING and not seat.peers:
            self._free_seat(seat)

    def _free_seat(self, seat: Seat) -> None:
        session = seat.session
        seat.session = None
        if session is not None:
            session.seats.pop(self.id, None)
            self.ctx.sessions.released(session, self.ctx.now, self.ctx.out)
        seat.token = seat.name = None
        seat.away_deadline = None
        seat.bot = None
        seat.deck = self.settings.seats[seat.index].deck
        self._store_seat(seat)
        self._room_update()
        if not any(s.taken for s in self.seats):
            self.idle_deadline = self.ctx.now + self.ctx.settings.grace
        self.reschedule()

    def attach(self, peer: Peer, positions: dict[str, tuple[int, int]] | None) -> None:
        """A session holding a seat here (or spectating) came back on a new connection."""
        seat = self.seating.seat_of(peer)
        if seat is not None:
            seat.peers.add(peer)
            seat.away_deadline = None
            self._played_from(seat, peer)
        else:
            try:
                self._may_spectate(peer)
            except Refusal as exc:
                if peer.session is not None:
                    peer.session.spectating.discard(self.id)
                self.fanout.send([peer], Error(exc.code, exc.message, None, self.id))
                return
            self.seating.spectators.add(peer)
        self._follow(peer, positions)
        self._room_update()
        self.reschedule()

    def detach(self, peer: Peer) -> None:
        """A connection went away or left: its seat stays held for the grace period."""
        peer.rooms.discard(self.id)
        self.seating.spectators.discard(peer)
        for seat in self.seats:
            if peer in seat.peers:
                seat.peers.discard(peer)
                if not seat.present and seat.taken:
                    seat.away_deadline = self.ctx.now + self.ctx.settings.grace
        if self.state == FINISHED and not self.members():
            self.ctx.drop(self)
            return
        self._room_update()
        self.reschedule()

    def _follow(self, peer: Peer, positions: dict[str, tuple[int, int]] | None = None) -> None:
        peer.rooms.add(self.id)
        self._room_update([peer])
        self.fanout.follow(self.table, peer, positions)

    # ------------------------------------------------------------------ starting

    def _maybe_start(self) -> None:
        if self.state == WAITING and all(s.taken and s.deck is not None for s in self.seats):
            self._start_table(chooser=None)

    def _start_table(self, chooser: int | None) -> None:
        s = self.settings
        score = self.score
        number = score.game + 1
        seed = (s.seed + number - 1) if s.seed is not None else self.ctx.entropy.bits(62)
        names = [seat.name or f"Seat {seat.index + 1}" for seat in self.seats]
        decks = [seat.deck for seat in self.seats]
        assert all(d is not None for d in decks)
        config = s.game_config(names, decks, chooser=chooser,  # type: ignore[arg-type]
                               first_game=number == 1)
        try:
            table = Table(config, seed)
        except Refusal as exc:
            self.fanout.broadcast(Error(exc.code, exc.message, None, self.id))
            return
        table.drain_events()
        score.game = number
        self.game_id = self.ctx.next_game_id()
        self.ctx.out.log(GameStarted(self.number, self.game_id, number, seed,
                                     config_to_wire(config), chooser))
        if number == 1:
            self.ctx.out.log(RoomStateSet(self.number, PLAYING.value))
            self.start_deadline = None
        self._install(table, chooser, fresh=True)
        self.clock = ChessClock(len(self.seats), *s.clock) if s.clock is not None else None
        self._settle_clock(None)
        self._room_update()
        for room in self.rooms.in_order(table):
            self.fanout.snapshot_to(table, room, self.members())
        self.fanout.announce_decision(table)
        self._send_clock()
        self.reschedule()
        self.ctx.stats.games_started += 1

    def _install(self, table: Table, chooser: int | None, *, fresh: bool) -> None:
        """Make ``table`` the match's current table, with one room per game on its stack."""
        self.table = table
        self.commands = 0
        self.score.chooser = chooser
        if self.state == WAITING:
            self._set_state(PLAYING)  # (a recovered table may then be paused at once)
        self._set_state(PAUSED if len(table.games) > 1 else PLAYING)
        self.rooms.install(table, self.score.game, fresh=fresh)

    # ------------------------------------------------------------------ game requests

    def _game_room(self, rid: str) -> GameRoom:
        room = self.rooms.get(rid)
        if room is None:
            raise Refusal(Code.ROOM_CLOSED, f"room {rid} is closed")
        return room

    def _require_table(self) -> Table:
        if self.table is None or self.state == WAITING:
            raise Refusal(Code.WRONG_STATE, f"the match in room {self.id} has not started")
        return self.table

    def _running_room(self, table: Table, rid: str) -> GameRoom:
        """The room ``rid``, if its game is the one being played: game actions in a room
        paused under a subgame are refused (CR 726.1a); only concession goes through."""
        room = self._game_room(rid)
        if not table.finished and room.game is not table.top:
            top = self.rooms.ids.get(table.top.number, "?")
            raise Refusal(Code.ROOM_PAUSED,
                          f"room {room.id} is paused while the subgame in room {top} is "
                          "played (CR 726.1a); only concession is accepted here")
        return room

    def act(self, peer: Peer, req: rq.Act) -> None:
        table = self._require_table()
        seat = self._seat_or_refuse(peer)
        room = self._running_room(table, req.room)
        self._run(Act(seat.index, req.serial, req.action),
                  Ack(peer, req.id, room.id, seat.index), acted=seat.index)

    def concede(self, peer: Peer, req: rq.Concede) -> None:
        self._require_table()
        seat = self._seat_or_refuse(peer)
        game = self._game_room(req.game).number if req.game is not None else None
        self._run(Concede(seat.index, game), Ack(peer, req.id, req.room, seat.index))

    def draw(self, peer: Peer, req: rq.Draw) -> None:
        table = self._require_table()
        seat = self._seat_or_refuse(peer)
        room = self._running_room(table, req.game if req.game is not None else req.room)
        self._run(DrawOffer(seat.index, req.op, room.number),
                  Ack(peer, req.id, room.id, seat.index))

    def judge(self, peer: Peer, req: rq.Judge) -> None:
        table = self._require_table()
        if peer.session is None or peer.session.token != self.creator:
            raise Refusal(Code.NOT_JUDGE, "only the room's creator may give penalties")
        if req.seat >= len(self.seats):
            raise Refusal(Code.BAD_FIELD, f"room {self.id} has no seat {req.seat}")
        game = self._game_room(req.game).number if req.game is not None else table.main.number
        self._run(Penalty(req.seat, "judge", game), Ack(peer, req.id, None, None))

    def chat(self, peer: Peer, req: rq.Chat) -> None:
        if not self.seating.follows(peer):
            raise Refusal(Code.NOT_SEATED, f"you are not in room {self.id}")
        seat = self.seating.seat_of(peer)
        name = (seat.name if seat is not None else None) or (
            peer.session.name if peer.session is not None else "?")
        self._ok(peer, req.id)
        self.fanout.broadcast(ChatLine(req.room, name, None if seat is None else seat.index,
                                       req.text))

    def resync(self, peer: Peer, req: rq.Resync) -> None:
        if not self.seating.follows(peer):
            raise Refusal(Code.NOT_SEATED, f"you do not follow room {self.id}")
        room = self._game_room(req.room)
        if req.epoch is not None and req.seq is not None:
            frames = room.missed(room.class_for(self.seating.player_of(peer)), req.epoch,
                                 req.seq)
            if frames is not None:
                for frame in frames:
                    self.ctx.out.send([peer], frame)
                self.fanout.actions_to(self.table, room, [peer])
                self._ok(peer, req.id)
                return
        self.fanout.snapshot_to(self.table, room, [peer], req.id)

    # ------------------------------------------------------------------ the command path

    def _run(self, cmd: Command, ack: Ack | None, *, acted: int | None = None) -> bool:
        """Apply ``cmd``; log it and publish what it changed. The engine's refusal goes on to
        the sender of a request (``ack``); one of the room's own commands is logged."""
        table = self.table
        assert table is not None
        try:
            events = table.apply(cmd)
        except Refusal as exc:
            if ack is None:
                log.warning("room %s: %s refused: %s", self.id, cmd, exc)
                return False
            raise
        self.commands += 1
        lifecycle = any(e.kind in LIFECYCLE for e in events)
        every = self.ctx.settings.hash_every
        state_hash = (table.state_hash()
                      if table.finished or lifecycle or self.commands % every == 0 else None)
        self._settle_clock(acted)
        clocks = None if self.clock is None else self.clock.millis(self.ctx.now)
        assert self.game_id is not None
        self.ctx.out.log(CommandAppended(self.number, self.game_id, self.commands, record(cmd),
                                         state_hash, clocks))
        self.ctx.stats.count_action(self.ctx.now)
        acked = self.fanout.publish(table, events, ack)
        if table.finished:
            self._game_over()
        else:
            self.fanout.announce_decision(table)
            state = PAUSED if len(table.games) > 1 else PLAYING
            if state != self.state:
                self._set_state(state)
                self._room_update()
        self._send_clock()
        if ack is not None and not acked:
            self._ok(ack.peer, ack.request)
        self.reschedule()
        return True

    def _game_over(self) -> None:
        table = self.table
        assert table is not None and table.result is not None and self.game_id is not None
        result = table.result.to_wire()
        self.ctx.out.log(GameFinished(self.number, self.game_id, result, table.state_hash()))
        score = self.score
        score.record(result)
        self.fanout.broadcast(Result(self.id, result, score.summary()))
        if self.clock is not None:
            self._settle_clock(None)
        self.ctx.stats.games_finished += 1
        if score.over:
            self._finish()
            return
        self._start_table(chooser=score.next_chooser(table.result))

    def _finish(self) -> None:
        self._set_state(FINISHED)
        self.ctx.out.log(RoomStateSet(self.number, FINISHED.value))
        self._room_update()
        if not self.members():
            self.ctx.drop(self)

    # ------------------------------------------------------------------ time

    def _settle_clock(self, acted: int | None) -> None:
        if self.clock is None:
            return
        table = self.table
        running = None
        if table is not None and not table.finished and table.pending is not None:
            running = table.pending.player
        self._clock_changed = running != self.clock.running or acted is not None
        self.clock.settle(self.ctx.now, running, acted)

    def _send_clock(self) -> None:
        if self.clock is None or not self._clock_changed:
            return
        self._clock_changed = False
        self.fanout.broadcast(Clock(self.id, self.clock.millis(self.ctx.now),
                                    self.clock.running))

    def next_deadline(self) -> float | None:
        deadlines = [s.away_deadline for s in self.seats if s.away_deadline is not None]
        for d in (self.idle_deadline, self.bot_deadline):
            if d is not None:
                deadlines.append(d)
        if self.state == WAITING and self.start_deadline is not None:
            deadlines.append(self.start_deadline)
        if self.clock is not None and self.state in (PLAYING, PAUSED):
            d = self.clock.deadline()
            if d is not None:
                deadlines.append(d)
        return min(deadlines) if deadlines else None

    def reschedule(self) -> None:
        if self.bot_deadline is None and self.bots.have_work():
            # The room's bots answer after a think, as a person would.
            self.bot_deadline = self.ctx.now + self.ctx.settings.bot_think
        self.ctx.out.wake(self.id, None if self.state == FINISHED and not self.members()
                          else self.next_deadline())

    def on_timer(self) -> None:
        """A deadline of the room's has come: a chess clock, an empty seat's grace period, a
        bot's think, a waiting room's time."""
        if self.clock is not None and self.state in (PLAYING, PAUSED):
            self._flag_clock()
        self._seats_away()
        if self.bot_deadline is not None and self.bot_deadline <= self.ctx.now:
            self.bot_deadline = None
            self.bots.act()
        if self.state == WAITING:
            self._expire_waiting()
        self.reschedule()

    def _flag_clock(self) -> None:
        """CR 104.3k: the player whose time ran out loses the game."""
        table = self.table
        assert self.clock is not None and table is not None
        flagged = self.clock.flag(self.ctx.now)
        if flagged is not None:
            if not (table.main.in_game(flagged)
                    and self._run(Penalty(flagged, "clock", table.main.number), None)):
                self.clock.settle(self.ctx.now, None, None)  # nobody left to flag: stop it

    def _seats_away(self) -> None:
        now = self.ctx.now
        for seat in self.seats:
            if seat.away_deadline is None or seat.away_deadline > now or seat.present:
                continue
            seat.away_deadline = None
            if self.state == WAITING:
                self._free_seat(seat)
            elif (self.state in (PLAYING, PAUSED) and self.table is not None
                  and self.table.main.in_game(seat.index)):
                # The table never waits on a departed player: concede for them (CR 104.3a).
                self._run(Concede(seat.index, self.table.main.number), None)

    def _expire_waiting(self) -> None:
        now = self.ctx.now
        nobody = not any(s.taken for s in self.seats) and not self.seating.spectators
        idle = self.idle_deadline is not None and self.idle_deadline <= now and nobody
        late = self.start_deadline is not None and self.start_deadline <= now
        if idle or late:
            # Nobody came, or the match did not fill in time: the room goes away (its row
            # stays in the log, finished), anyone waiting in it is told, and dropping it
            # frees its seats' sessions.
            self.ctx.stats.rooms_expired += 1
            self.fanout.broadcast(Error(Code.ROOM_CLOSED, f"room {self.id} closed: its match "
                                        "did not start in time", None, self.id))
            for peer in self.members():
                peer.rooms.discard(self.id)
            self.seating.spectators.clear()
            for seat in self.seats:
                seat.peers.clear()
            self._finish()
        elif self.idle_deadline is not None and self.idle_deadline <= now:
            self.idle_deadline = None

    # ------------------------------------------------------------------ recovery

    def restore_game(self, table: Table, game_id: int, match_game: int, chooser: int | None,
                     commands: list[tuple[Command, str | None]], clocks: list[int] | None
                     ) -> None:
        """Rebuild the current table by replaying its commands, checking each recorded state
        hash (Determinism invariant); raise :class:`RecoveryError` on any mismatch."""
        table.drain_events()
        self.game_id = game_id
        self.score.game = match_game
        self.rooms.match_game = match_game
        self.table = table
        for n, (cmd, recorded) in enumerate(commands, start=1):
            try:
                events = table.apply(cmd)
            except Refusal as exc:
                raise RecoveryError(f"room {self.id}: command {n} ({cmd}) is refused on "
                                    f"replay: {exc}") from None
            self.rooms.track(events)
            if recorded is not None and recorded != table.state_hash():
                raise RecoveryError(f"room {self.id}: state hash differs after command {n}")
        self._install(table, chooser, fresh=False)
        self.commands = len(commands)
        self.start_deadline = None
        if self.settings.clock is not None:
            self.clock = ChessClock(len(self.seats), *self.settings.clock)
            if clocks is not None:
                self.clock.restore(clocks, self.ctx.now)
            self._settle_clock(None)
        self.idle_deadline = None
        self.hold_seats()
        if table.finished:
            self._game_over()
        self.reschedule()

    def hold_seats(self) -> None:
        """After a restart: every taken seat (but a bot's) gets a fresh grace period."""
        for seat in self.seats:
            if seat.taken and seat.bot is None:
                self.idle_deadline = None
                seat.away_deadline = self.ctx.now + self.ctx.settings.grace


def record(cmd: Command) -> dict[str, Any]:
    """The log's form of a command: ``commands.to_record``'s, built directly for the common
    case (``dataclasses.asdict`` costs more than applying a priority pass)."""
    if type(cmd) is Act:
        return {"kind": "act", "player": cmd.player, "serial": cmd.serial,
                "action": cmd.action}
    return to_record(cmd)
