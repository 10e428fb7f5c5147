"""A match's command path and its tables: a command goes to the engine, its record to the log
and what it changed to every viewer class, in that order; tables are started when every seat
is ready and after each game of the match, and the match ends with its last game.

Every command takes the one path, :meth:`Play.run`, whoever sends it: a player's request, a
room bot, a chess clock running out, a grace period ending. A refused command changes nothing:
the engine's :class:`~arbiter.protocol.errors.Refusal` goes on to the request's sender, and one
of the room's own commands is only logged.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from arbiter.protocol import requests as rq
from arbiter.protocol.errors import Code, Refusal
from arbiter.protocol.server_messages import Error, Result
from arbiter.server.rules import Table
from arbiter.server.rules.commands import Act, Command, Concede, DrawOffer, Penalty, to_record
from arbiter.server.rules.plain import config_to_wire
from arbiter.server.store.records import CommandAppended, GameFinished, GameStarted, RoomStateSet

from .fanout import Ack
from .lifecycle import LIFECYCLE
from .states import RoomState

if TYPE_CHECKING:
    from .match import MatchRoom
    from .peers import Peer
    from .views import GameRoom

log = logging.getLogger("arbiter.rooms")

WAITING, PLAYING, PAUSED = RoomState.WAITING, RoomState.PLAYING, RoomState.PAUSED


class Play:
    def __init__(self, match: MatchRoom) -> None:
        self.match = match
        self.ctx = match.ctx
        self.fanout = match.fanout
        self.table: Table | None = None  # the current table of the match
        self.game_id: int | None = None  # its game's number in the log
        self.commands = 0  # commands applied to the current table

    # ------------------------------------------------------------------ the game requests

    def game_room(self, rid: str) -> GameRoom:
        """The open room ``rid`` of this match (a subgame's room closes with its game)."""
        room = self.match.rooms.get(rid)
        if room is None:
            raise Refusal(Code.ROOM_CLOSED, f"room {rid} is closed")
        return room

    def _require_table(self) -> Table:
        if self.table is None or self.match.state == WAITING:
            raise Refusal(Code.WRONG_STATE, f"the match in room {self.match.id} has not started")
        return self.table

    def _running_room(self, table: Table, rid: str) -> GameRoom:
        """The room ``rid``, if its game is the one being played: game actions in a room
        paused under a subgame are refused (CR 726.1a); only concession goes through."""
        room = self.game_room(rid)
        if not table.finished and room.game is not table.top:
            top = self.match.rooms.ids.get(table.top.number, "?")
            raise Refusal(Code.ROOM_PAUSED,
                          f"room {room.id} is paused while the subgame in room {top} is "
                          "played (CR 726.1a); only concession is accepted here")
        return room

    def act(self, peer: Peer, req: rq.Act) -> None:
        table = self._require_table()
        seat = self.match.seat_or_refuse(peer)
        room = self._running_room(table, req.room)
        self.run(Act(seat.index, req.serial, req.action, req.manual is True),
                 Ack(peer, req.id, room.id, seat.index), acted=seat.index)

    def concede(self, peer: Peer, req: rq.Concede) -> None:
        self._require_table()
        seat = self.match.seat_or_refuse(peer)
        game = self.game_room(req.game).number if req.game is not None else None
        self.run(Concede(seat.index, game), Ack(peer, req.id, req.room, seat.index))

    def draw(self, peer: Peer, req: rq.Draw) -> None:
        table = self._require_table()
        seat = self.match.seat_or_refuse(peer)
        room = self._running_room(table, req.game if req.game is not None else req.room)
        self.run(DrawOffer(seat.index, req.op, room.number),
                 Ack(peer, req.id, room.id, seat.index))

    def judge(self, peer: Peer, req: rq.Judge) -> None:
        match = self.match
        table = self._require_table()
        if peer.session is None or peer.session.token != match.creator:
            raise Refusal(Code.NOT_JUDGE, "only the room's creator may give penalties")
        if req.seat >= len(match.seats):
            raise Refusal(Code.BAD_FIELD, f"room {match.id} has no seat {req.seat}")
        game = self.game_room(req.game).number if req.game is not None else table.main.number
        self.run(Penalty(req.seat, "judge", game), Ack(peer, req.id, None, None))

    # ------------------------------------------------------------------ the command path

    def run(self, cmd: Command, ack: Ack | None, *, acted: int | None = None) -> bool:
        """Apply ``cmd``; log it and publish what it changed. The engine's refusal goes on to
        the sender of a request (``ack``); one of the room's own commands is logged."""
        match = self.match
        table = self.table
        assert table is not None
        try:
            events = table.apply(cmd)
        except Refusal as exc:
            if ack is None:
                log.warning("room %s: %s refused: %s", match.id, cmd, exc)
                return False
            raise
        self.commands += 1
        # A subgame began or ended, a game restarted or ended: the state is hashed, and the
        # fan-out opens, closes or resets rooms.
        lifecycle = False
        for e in events:  # a loop, not any() over a generator: this runs every command
            if e.kind in LIFECYCLE:
                lifecycle = True
                break
        hashed = lifecycle or table.finished or self.commands % self.ctx.settings.hash_every == 0
        state_hash = table.state_hash() if hashed else None
        deadlines = match.deadlines
        clock = deadlines.clock  # most rooms play without chess clocks: no calls then
        clocks = None
        if clock is not None:
            deadlines.settle_clock(acted)
            clocks = clock.millis(self.ctx.now)
        assert self.game_id is not None
        self.ctx.out.log(CommandAppended(match.number, self.game_id, self.commands,
                                         record(cmd), state_hash, clocks))
        self.ctx.stats.count_action(self.ctx.now)
        acked = self.fanout.publish(table, events, ack, lifecycle=lifecycle)
        if table.finished:
            self._game_over()
        else:
            self.fanout.announce_decision(table)
            state = PAUSED if len(table.games) > 1 else PLAYING
            if state != match.state:
                match.set_state(state)
                match.room_update()
        if clock is not None:
            deadlines.send_clock()
        if ack is not None and not acked:
            match.ok(ack.peer, ack.request)
        deadlines.reschedule()
        return True

    # ------------------------------------------------------------------ tables

    def maybe_start(self) -> None:
        """The match starts once every seat is taken and has a deck."""
        match = self.match
        if match.state == WAITING and all(s.taken and s.deck is not None for s in match.seats):
            self._start_table(chooser=None)

    def _start_table(self, chooser: int | None) -> None:
        match = self.match
        s = match.settings
        score = match.score
        number = score.game + 1
        seed = (s.seed + number - 1) if s.seed is not None else self.ctx.entropy.bits(62)
        names = [seat.name or f"Seat {seat.index + 1}" for seat in match.seats]
        decks = [seat.deck for seat in match.seats]
        assert all(d is not None for d in decks)
        config = s.game_config(names, decks, chooser=chooser,  # type: ignore[arg-type]
                               first_game=number == 1)
        try:
            table = Table(config, seed)
        except Refusal as exc:
            # No request to answer: the last seat or deck came, and the engine refuses the
            # game they make. Everyone in the room hears why it does not start.
            self.fanout.broadcast(Error(exc.code, exc.message, None, match.id))
            return
        table.drain_events()
        score.game = number
        self.game_id = self.ctx.next_game_id()
        self.ctx.out.log(GameStarted(match.number, self.game_id, number, seed,
                                     config_to_wire(config), chooser))
        if number == 1:
            self.ctx.out.log(RoomStateSet(match.number, PLAYING.value))
            match.deadlines.start = None
        self._install(table, chooser, fresh=True)
        match.deadlines.start_clock()
        match.room_update()
        for room in match.rooms.in_order(table):
            self.fanout.snapshot_to(table, room, match.members())
        self.fanout.announce_decision(table)
        match.deadlines.send_clock()
        match.reschedule()
        self.ctx.stats.games_started += 1

    def _install(self, table: Table, chooser: int | None, *, fresh: bool) -> None:
        """Make ``table`` the match's current table, with one room per game on its stack."""
        match = self.match
        self.table = table
        self.commands = 0
        match.score.chooser = chooser
        if match.state == WAITING:
            match.set_state(PLAYING)  # (a recovered table may then be paused at once)
        match.set_state(PAUSED if len(table.games) > 1 else PLAYING)
        match.rooms.install(table, match.score.game, fresh=fresh)
        for seat in match.seats:
            if seat.session is not None:
                seat.session.played = True  # a history: the room table keeps it a share

    def resume(self, table: Table, game_id: int, chooser: int | None, commands: int,
               clocks: list[int] | None) -> None:
        """Carry on with ``table``, read back from the log with its ``commands`` replayed
        (rooms/recovery.py), as the match stood after the last of them."""
        self.game_id = game_id
        self._install(table, chooser, fresh=False)
        self.commands = commands
        self.match.deadlines.resume(clocks)
        if table.finished:
            self._game_over()
        self.match.reschedule()

    def _game_over(self) -> None:
        match = self.match
        table = self.table
        assert table is not None and table.result is not None and self.game_id is not None
        result = table.result.to_wire()
        self.ctx.out.log(GameFinished(match.number, self.game_id, result, table.state_hash()))
        score = match.score
        score.record(result)
        self.fanout.broadcast(Result(match.id, result, score.summary()))
        if match.deadlines.clock is not None:
            match.deadlines.settle_clock(None)
        self.ctx.stats.games_finished += 1
        if score.over:
            match.finish()
            return
        self._start_table(chooser=score.next_chooser(table.result))


def record(cmd: Command) -> dict[str, Any]:
    """The log's form of a command: ``commands.to_record``'s, built directly for the common
    case (``dataclasses.asdict`` costs more than applying a priority pass)."""
    if type(cmd) is Act:
        rec = {"kind": "act", "player": cmd.player, "serial": cmd.serial,
               "action": cmd.action}
        if cmd.manual:
            rec["manual"] = True
        return rec
    return to_record(cmd)
