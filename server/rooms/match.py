"""A match room: seats, spectators, a best-of-N match of tables, and one room per game on the
current table's stack (the main room and its subgame rooms).

Every change goes the same way: a command is applied to the table, queued on the durable log,
projected for every viewer class of every affected room, encoded once per class, and handed to
the commit gate, which releases the frames once the log batch is written. Nothing here awaits: a
room never waits on a socket, the disk or another room.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

import trio

from arbiter.protocol import messages as m
from arbiter.protocol.codec import pack
from arbiter.protocol.errors import Code
from arbiter.server.rules import Table
from arbiter.server.rules.cards.decks import DeckList
from arbiter.server.rules.commands import Act, Command, Concede, DrawOffer, Penalty, to_record
from arbiter.server.rules.errors import RulesError
from arbiter.server.rules.game import Event
from arbiter.server.store.records import (
    CommandAppended,
    GameFinished,
    GameStarted,
    RoomStateSet,
    SeatSet,
)

from .clocks import ChessClock
from .setup import RoomSettings, config_to_wire, deck_to_wire, parse_deck
from .views import SPECTATOR_KEYS, GameRoom

if TYPE_CHECKING:
    from .hub import Hub, Session

log = logging.getLogger("arbiter.rooms")

WAITING, PLAYING, PAUSED, FINISHED = "waiting", "playing", "paused", "finished"
LIFECYCLE = ("subgame_started", "subgame_ended", "game_restarted", "game_over")


class Peer(Protocol):
    """A connection, as rooms see it: something frames can be handed to, and who it is."""

    id: int
    session: Session | None
    rooms: set[str]

    def deliver(self, frame: bytes) -> None: ...


class Refusal(Exception):
    """A request refused by a room or the engine; the sender gets an error, nothing changed."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


@dataclass(eq=False)
class Seat:
    index: int
    token: str | None = None
    session: Session | None = None
    name: str | None = None
    deck: DeckList | None = None
    peers: set[Peer] = field(default_factory=set)
    away_deadline: float | None = None  # when an empty seat's grace period ends

    @property
    def taken(self) -> bool:
        return self.token is not None


class MatchRoom:
    def __init__(self, hub: Hub, number: int, settings: RoomSettings, creator: str | None
                 ) -> None:
        self.hub = hub
        self.number = number
        self.id = str(number)
        self.settings = settings
        self.creator = creator
        self.seats = [Seat(i, deck=spec.deck) for i, spec in enumerate(settings.seats)]
        self.spectators: set[Peer] = set()
        self.state = WAITING
        self.spectator_key = SPECTATOR_KEYS[settings.spectators]
        # The current table of the match and its rooms.
        self.table: Table | None = None
        self.game_id: int | None = None
        self.match_game = 0  # 1-based number of the current game of the match
        self.commands = 0  # commands applied to the current table
        self.chooser: int | None = None  # CR 103.1: who chose the starting player this game
        self.results: list[dict[str, Any]] = []
        self.wins = [0] * len(self.seats)
        self.room_ids: dict[int, str] = {}  # game number on the table -> room id
        self.rooms: dict[str, GameRoom] = {}
        self.clock: ChessClock | None = None
        self._clock_changed = False
        self.idle_deadline: float | None = trio.current_time() + hub.settings.grace

    # ------------------------------------------------------------------ who is here

    @property
    def main_room(self) -> GameRoom | None:
        return self.rooms.get(self.id)

    def members(self) -> list[Peer]:
        out = list(self.spectators)
        for seat in self.seats:
            out.extend(seat.peers)
        return out

    def seat_of(self, peer: Peer) -> Seat | None:
        session = peer.session
        if session is None:
            return None
        index = session.seats.get(self.id)
        return None if index is None else self.seats[index]

    def _seat_or_refuse(self, peer: Peer) -> Seat:
        seat = self.seat_of(peer)
        if seat is None or peer not in seat.peers:
            raise Refusal(Code.NOT_SEATED, f"you hold no seat in room {self.id}")
        return seat

    def class_peers(self, room: GameRoom, key: int) -> list[Peer]:
        if key >= 0:
            return list(self.seats[key].peers)
        out = list(self.spectators)
        for seat in self.seats:
            if seat.index not in room.classes:
                out.extend(seat.peers)
        return out

    def player_of(self, peer: Peer) -> int | None:
        seat = self.seat_of(peer)
        return seat.index if seat is not None and peer in seat.peers else None

    # ------------------------------------------------------------------ sending

    def _send(self, peers: Iterable[Peer], message: dict[str, Any]) -> None:
        targets = list(peers)
        if targets:
            self.hub.gate.send(targets, pack(message))

    def _broadcast(self, message: dict[str, Any]) -> None:
        self._send(self.members(), message)

    def summary(self) -> dict[str, Any]:
        return {
            "r": self.id, "name": self.settings.name, "state": self.state,
            "variant": self.settings.variant,
            "seats": [{"n": s.name, "c": bool(s.peers), "d": s.deck is not None}
                      for s in self.seats],
            "spectators": self.settings.spectators, "watching": len(self.spectators),
            "best_of": self.settings.best_of, "game": self.match_game, "wins": list(self.wins),
            "clock": (None if self.settings.clock is None else
                      {"total": self.settings.clock[0], "inc": self.settings.clock[1]}),
            "rooms": [r for r in self.rooms if r != self.id],
        }

    def _room_update(self, peers: Iterable[Peer] | None = None) -> None:
        message = {"t": "room", **self.summary()}
        self._send(self.members() if peers is None else peers, message)

    def _snapshot_to(self, room: GameRoom, peers: Iterable[Peer],
                     request_id: int | None = None) -> None:
        """Send ``room``'s snapshot to each of ``peers`` (one encoding per class)."""
        by_class: dict[int, list[Peer]] = {}
        for peer in peers:
            by_class.setdefault(room.class_for(self.player_of(peer)).key, []).append(peer)
        for key, targets in by_class.items():
            cls = room.classes[key]
            repair = room.verify(cls)
            if repair:
                self.hub.metrics.view_repairs += 1
                room.encode_delta(cls, repair)
                self._deliver(self.class_peers(room, key), room.last_frame(cls))
            self.hub.gate.send(targets, pack(room.snapshot_message(cls, request_id)))
            self._actions_to(room, targets)

    def _deliver(self, peers: list[Peer], frame: bytes) -> None:
        if peers:
            self.hub.gate.send(peers, frame)

    def _actions_to(self, room: GameRoom, peers: Iterable[Peer]) -> None:
        """The pending decision's legal actions, to those of ``peers`` who must decide."""
        table = self.table
        d = table.pending if table is not None else None
        if d is None or d.game != room.number:
            return
        deciders = [p for p in peers if self.player_of(p) == d.player]
        if deciders:
            room.actions_serial = d.serial
            self._send(deciders, {"t": "a", "r": room.id, "d": d.to_wire()})

    def _send_actions(self) -> None:
        """Announce the pending decision to its player, unless that is already done."""
        table = self.table
        d = table.pending if table is not None else None
        if d is None:
            return
        room = self.rooms.get(self.room_ids.get(d.game, ""))
        if room is not None and room.actions_serial != d.serial:
            self._actions_to(room, self.seats[d.player].peers)

    def _follow(self, peer: Peer, positions: dict[str, tuple[int, int]] | None = None) -> None:
        """Bring a peer that (re)joins up to date on every room of the match: the deltas it
        missed where the history still has them, a snapshot otherwise."""
        peer.rooms.add(self.id)
        self._room_update([peer])
        for room in self._rooms_in_order():
            pos = (positions or {}).get(room.id)
            frames = None
            if pos is not None:
                frames = room.missed(room.class_for(self.player_of(peer)), *pos)
            if frames is None:
                self._snapshot_to(room, [peer])
            else:
                for frame in frames:
                    self.hub.gate.send([peer], frame)
                self._actions_to(room, [peer])

    def _rooms_in_order(self) -> list[GameRoom]:
        if self.table is None:
            return []
        return [self.rooms[self.room_ids[g.number]] for g in self.table.games
                if self.room_ids.get(g.number) in self.rooms]

    # ------------------------------------------------------------------ seats

    def join(self, peer: Peer, req: m.Join) -> None:
        session = peer.session
        assert session is not None
        current = self.seat_of(peer)
        if req.token is not None:
            seat = next((s for s in self.seats if s.token == req.token), None)
            if seat is None:
                raise Refusal(Code.BAD_TOKEN, f"no seat in room {self.id} has that token")
            if current is not None and current is not seat:
                raise Refusal(Code.ALREADY_SEATED, f"you already hold seat {current.index}")
            if seat.session is not session:
                if seat.session is not None:
                    self._unseat_session(seat)
                seat.session = session
                session.seats[self.id] = seat.index
                self._store_seat(seat)
        elif current is not None:
            if req.seat is not None and req.seat != current.index:
                raise Refusal(Code.ALREADY_SEATED, f"you already hold seat {current.index}")
            seat = current
        else:
            if self.state != WAITING:
                raise Refusal(Code.ROOM_FULL, f"room {self.id} has started; spectate instead, "
                                              "or rejoin your seat with its token")
            free = [s for s in self.seats if not s.taken]
            if req.seat is not None:
                if req.seat >= len(self.seats):
                    raise Refusal(Code.BAD_FIELD, f"room {self.id} has seats 0 to "
                                                  f"{len(self.seats) - 1}")
                seat = self.seats[req.seat]
                if seat.taken:
                    raise Refusal(Code.SEAT_TAKEN, f"seat {req.seat} is taken")
            elif free:
                seat = free[0]
            else:
                raise Refusal(Code.ROOM_FULL, f"room {self.id} has no free seat")
            seat.token = secrets.token_urlsafe(18)
            seat.session = session
            seat.name = self._unique_name(session.name, seat)
            session.seats[self.id] = seat.index
            self._store_seat(seat)
            self.idle_deadline = None
        for other in list(seat.peers):
            if other.session is not session:
                seat.peers.discard(other)
        # Every connection of the session that follows this room now sees it from the seat
        # (and only from the seat: one view per room per connection).
        mine = {p for p in session.peers if self.id in p.rooms or p is peer}
        self.spectators -= mine
        seat.peers |= mine
        seat.away_deadline = None
        self._send([peer], {"t": "joined", "i": req.i, "r": self.id, "seat": seat.index,
                            "token": seat.token})
        self._follow(peer)
        self._room_update()
        self.reschedule()
        self._maybe_start()

    def _unique_name(self, name: str, seat: Seat) -> str:
        taken = {s.name for s in self.seats if s is not seat and s.taken}
        candidate, n = name, 2
        while candidate in taken:
            candidate = f"{name} ({n})"
            n += 1
        return candidate

    def _unseat_session(self, seat: Seat) -> None:
        session = seat.session
        seat.session = None
        if session is not None:
            session.seats.pop(self.id, None)
            self.hub.released(session)

    def _store_seat(self, seat: Seat) -> None:
        deck = None if seat.deck is None else deck_to_wire(seat.deck)
        session = None if seat.session is None else seat.session.token
        self.hub.gate.log(SeatSet(self.number, seat.index, seat.token, session, seat.name, deck))

    def spectate(self, peer: Peer, req: m.Spectate) -> None:
        if self.settings.spectators == "none" and self.seat_of(peer) is None:
            raise Refusal(Code.NO_SPECTATORS, f"room {self.id} does not allow spectators")
        seat = self.seat_of(peer)
        if seat is not None:
            seat.peers.add(peer)
        else:
            self.spectators.add(peer)
            if peer.session is not None:
                peer.session.spectating.add(self.id)
        self._send([peer], {"t": "joined", "i": req.i, "r": self.id,
                            "seat": None if seat is None else seat.index,
                            "token": None if seat is None else seat.token})
        self._follow(peer)

    def submit_deck(self, peer: Peer, req: m.SubmitDeck) -> None:
        seat = self._seat_or_refuse(peer)
        if self.state != WAITING:
            raise Refusal(Code.WRONG_STATE, "decks can be changed only before the match starts")
        spec = {"text": req.text} if req.text is not None else {"ready": req.ready}
        deck = parse_deck(spec, allow_test=self.settings.allow_test_cards)
        self.settings.check_deck(seat.index, deck, [s.deck for s in self.seats])
        seat.deck = deck
        self._store_seat(seat)
        self._send([peer], {"t": "ok", "i": req.i})
        self._room_update()
        self._maybe_start()

    def leave(self, peer: Peer, req: m.Leave) -> None:
        seat = self.seat_of(peer)
        self._send([peer], {"t": "ok", "i": req.i})
        if peer.session is not None:
            peer.session.spectating.discard(self.id)
        self.detach(peer)
        if seat is not None and self.state == WAITING and not seat.peers:
            self._free_seat(seat)

    def _free_seat(self, seat: Seat) -> None:
        self._unseat_session(seat)
        seat.token = None
        seat.name = None
        seat.away_deadline = None
        seat.deck = self.settings.seats[seat.index].deck
        self._store_seat(seat)
        self._room_update()
        if not any(s.taken for s in self.seats):
            self.idle_deadline = trio.current_time() + self.hub.settings.grace
        self.reschedule()

    def attach(self, peer: Peer, positions: dict[str, tuple[int, int]] | None) -> None:
        """A session holding a seat here (or spectating) came back on a new connection."""
        seat = self.seat_of(peer)
        if seat is not None:
            seat.peers.add(peer)
            seat.away_deadline = None
        elif self.settings.spectators != "none":
            self.spectators.add(peer)
        else:
            return
        self._follow(peer, positions)
        self._room_update()
        self.reschedule()

    def detach(self, peer: Peer) -> None:
        """A connection went away or left: the seat stays held for the grace period."""
        peer.rooms.discard(self.id)
        self.spectators.discard(peer)
        for seat in self.seats:
            if peer in seat.peers:
                seat.peers.discard(peer)
                if not seat.peers and seat.taken:
                    seat.away_deadline = trio.current_time() + self.hub.settings.grace
        if self.state == FINISHED and not self.members():
            self.hub.drop(self)
            return
        self._room_update()
        self.reschedule()

    # ------------------------------------------------------------------ starting

    def _maybe_start(self) -> None:
        if self.state == WAITING and all(s.taken and s.deck is not None for s in self.seats):
            self._start_table(chooser=None)

    def _start_table(self, chooser: int | None) -> None:
        s = self.settings
        self.match_game += 1
        seed = (s.seed + self.match_game - 1) if s.seed is not None else secrets.randbits(62)
        names = [seat.name or f"Seat {seat.index + 1}" for seat in self.seats]
        decks = [seat.deck for seat in self.seats]
        assert all(d is not None for d in decks)
        config = s.game_config(names, decks, chooser=chooser,  # type: ignore[arg-type]
                               first_game=self.match_game == 1)
        try:
            table = Table(config, seed)
        except RulesError as exc:
            self.match_game -= 1
            self._broadcast(m.error(exc.code.value, exc.message, None, self.id))
            return
        table.drain_events()
        self.room_ids = {}
        self.game_id = self.hub.next_game_id()
        self.hub.gate.log(GameStarted(self.number, self.game_id, self.match_game, seed,
                                      config_to_wire(config), chooser))
        if self.match_game == 1:
            self.hub.gate.log(RoomStateSet(self.number, PLAYING))
        self._install(table, chooser)
        self.clock = ChessClock(len(self.seats), *s.clock) if s.clock is not None else None
        self._settle_clock(None)
        self._room_update()
        for room in self._rooms_in_order():
            self._snapshot_to(room, self.members())
        self._send_actions()
        self._send_clock()
        self.reschedule()
        self.hub.metrics.games_started += 1

    def _install(self, table: Table, chooser: int | None) -> None:
        """Make ``table`` the match's current table, with one room per game on its stack."""
        self.table = table
        self.commands = 0
        self.chooser = chooser
        self.state = PAUSED if len(table.games) > 1 else PLAYING
        history = self.hub.settings.history
        for rid in list(self.rooms):
            if rid != self.id:
                self.hub.unregister(rid)
        main = self.main_room
        self.rooms = {}
        for g in table.games:
            found = self.room_ids.get(g.number, self.id if g is table.main else None)
            assert found is not None
            rid = found
            if rid == self.id and main is not None:
                main.reset(g)
                room = main
            else:
                room = GameRoom(rid, g, spectator_key=self.spectator_key, history=history)
            self.rooms[rid] = room
            self.room_ids[g.number] = rid
            if rid != self.id:
                self.hub.register(rid, self)

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
            top = self.room_ids.get(table.top.number, "?")
            raise Refusal(Code.ROOM_PAUSED,
                          f"room {room.id} is paused while the subgame in room {top} is "
                          "played (CR 726.1a); only concession is accepted here")
        return room

    def act(self, peer: Peer, req: m.Act) -> None:
        table = self._require_table()
        seat = self._seat_or_refuse(peer)
        room = self._running_room(table, req.r)
        self._run(Act(seat.index, req.s, req.a), peer=peer, request_id=req.i, ack_room=room.id,
                  acted=seat.index)

    def concede(self, peer: Peer, req: m.Concede) -> None:
        self._require_table()
        seat = self._seat_or_refuse(peer)
        game = self._game_room(req.g).number if req.g is not None else None
        self._run(Concede(seat.index, game), peer=peer, request_id=req.i, ack_room=req.r)

    def draw(self, peer: Peer, req: m.Draw) -> None:
        table = self._require_table()
        seat = self._seat_or_refuse(peer)
        room = self._running_room(table, req.g if req.g is not None else req.r)
        self._run(DrawOffer(seat.index, req.op, room.number), peer=peer, request_id=req.i,
                  ack_room=room.id)

    def judge(self, peer: Peer, req: m.Judge) -> None:
        table = self._require_table()
        if peer.session is None or peer.session.token != self.creator:
            raise Refusal(Code.NOT_JUDGE, "only the room's creator may give penalties")
        if req.seat >= len(self.seats):
            raise Refusal(Code.BAD_FIELD, f"room {self.id} has no seat {req.seat}")
        game = self._game_room(req.g).number if req.g is not None else table.main.number
        self._run(Penalty(req.seat, "judge", game), peer=peer, request_id=req.i,
                  ack_room=None)

    def chat(self, peer: Peer, req: m.Chat) -> None:
        seat = self.seat_of(peer)
        if peer not in self.members():
            raise Refusal(Code.NOT_SEATED, f"you are not in room {self.id}")
        name = (seat.name if seat is not None else None) or (
            peer.session.name if peer.session is not None else "?")
        self._send([peer], {"t": "ok", "i": req.i})
        self._broadcast({"t": "chat", "r": req.r, "from": name,
                         "seat": None if seat is None else seat.index, "text": req.text})

    def resync(self, peer: Peer, req: m.Resync) -> None:
        if peer not in self.members():
            raise Refusal(Code.NOT_SEATED, f"you do not follow room {self.id}")
        room = self._game_room(req.r)
        if req.e is not None and req.q is not None:
            frames = room.missed(room.class_for(self.player_of(peer)), req.e, req.q)
            if frames is not None:
                for frame in frames:
                    self.hub.gate.send([peer], frame)
                self._actions_to(room, [peer])
                self._send([peer], {"t": "ok", "i": req.i})
                return
        self._snapshot_to(room, [peer], req.i)

    # ------------------------------------------------------------------ the command path

    def _run(self, cmd: Command, *, peer: Peer | None = None, request_id: int | None = None,
             ack_room: str | None = None, acted: int | None = None) -> bool:
        table = self.table
        assert table is not None
        try:
            events = table.apply(cmd)
        except RulesError as exc:
            if peer is None:
                log.warning("room %s: %s refused: %s", self.id, cmd, exc)
                return False
            raise Refusal(exc.code.value, exc.message) from None
        self.commands += 1
        lifecycle = any(e.kind in LIFECYCLE for e in events)
        every = self.hub.settings.hash_every
        state_hash = (table.state_hash()
                      if table.finished or lifecycle or self.commands % every == 0 else None)
        self._settle_clock(acted)
        clocks = None if self.clock is None else self.clock.millis(trio.current_time())
        assert self.game_id is not None
        self.hub.gate.log(CommandAppended(self.number, self.game_id, self.commands, record(cmd),
                                          state_hash, clocks))
        self.hub.metrics.count_action()
        self._publish(events, peer, request_id, ack_room)
        return True

    def _track(self, events: list[Event]) -> list[tuple[str, dict[str, Any], str]]:
        """Follow the table's lifecycle in the room ids: a subgame gets a room id of its own
        (the match's id, the game of the match, the subgame's game number), a restarted game
        keeps its room (CR 724)."""
        out = []
        for ev in events:
            if ev.kind == "subgame_started":
                rid = f"{self.id}.{self.match_game}.{ev.data['game']}"
                self.room_ids[ev.data["game"]] = rid
                out.append((ev.kind, ev.data, rid))
            elif ev.kind == "subgame_ended":
                rid = self.room_ids.pop(ev.data["game"], "")
                out.append((ev.kind, ev.data, rid))
            elif ev.kind == "game_restarted":
                rid = self.room_ids.pop(ev.data["old_game"], self.id)
                self.room_ids[ev.data["game"]] = rid
                out.append((ev.kind, ev.data, rid))
        return out

    def _publish(self, events: list[Event], peer: Peer | None, request_id: int | None,
                 ack_room: str | None) -> None:
        table = self.table
        assert table is not None
        fresh: list[str] = []  # rooms that get a snapshot instead of a delta
        on_stack = {g.number: g for g in table.games}
        # Each log line goes to the room of the game it happened in, looked up before the
        # lifecycle events below change the room ids. A new subgame's or restarted game's own
        # lines reach its room in the snapshot that opens it.
        lines: dict[str, list[str]] = {}
        for ev in events:
            rid = self.room_ids.get(ev.game)
            if rid is not None:
                lines.setdefault(rid, []).append(ev.text)
        for kind, data, rid in self._track(events):
            if kind == "subgame_started":
                parent = self.room_ids.get(data["parent"], self.id)
                game = on_stack.get(data["game"])
                if game is not None:
                    self.rooms[rid] = GameRoom(rid, game, spectator_key=self.spectator_key,
                                               history=self.hub.settings.history)
                    self.hub.register(rid, self)
                    fresh.append(rid)
                self._broadcast({"t": "opened", "r": rid, "parent": parent, "g": data["game"],
                                 "depth": data["depth"], "players": data["players"]})
                self._broadcast({"t": "paused", "r": parent, "sub": rid})
            elif kind == "subgame_ended":
                parent = self.room_ids.get(data["parent"], self.id)
                self.rooms.pop(rid, None)
                self.hub.unregister(rid)
                if rid in fresh:
                    fresh.remove(rid)
                self._broadcast({"t": "closed", "r": rid, "parent": parent,
                                 "res": data["result"].to_wire()})
                if table.games and self.room_ids.get(table.top.number) == parent:
                    self._broadcast({"t": "resumed", "r": parent})
            elif kind == "game_restarted":
                room = self.rooms.get(rid)
                game = on_stack.get(data["game"])
                if room is not None and game is not None:
                    room.reset(game)
                    if rid not in fresh:
                        fresh.append(rid)
                self._broadcast({"t": "restarted", "r": rid, "g": data["game"],
                                 "old": data["old_game"], "starting": data["starting_player"]})
        acked = False
        actor = self.player_of(peer) if peer is not None else None
        # The next decision's legal actions ride in the decider's delta when there is one.
        d = table.pending
        decision_room = self.room_ids.get(d.game) if d is not None else None
        if d is not None and decision_room in self.rooms and \
                self.rooms[decision_room].actions_serial == d.serial:
            d = None  # already announced
        for rid, room in list(self.rooms.items()):
            if rid in fresh:
                continue
            said = lines.get(rid)
            changes = room.project()
            if said:
                # A log line is news for everyone in the room, even for a class whose view
                # did not change (a mulligan leaves the hand count where it was).
                for key in room.classes:
                    changes.setdefault(key, [])
            for key, ops in changes.items():
                cls = room.classes[key]
                msg = room.encode_delta(cls, ops, said)
                targets = self.class_peers(room, key)
                if d is not None and rid == decision_room and key == d.player:
                    msg["a"] = d.to_wire()
                    room.actions_serial = d.serial
                    d = None
                if (peer is not None and request_id is not None and not acked
                        and rid == ack_room and key == actor and peer in targets):
                    # The acting connection's copy of its delta acknowledges its request.
                    targets.remove(peer)
                    self.hub.gate.send([peer], pack({**msg, "i": request_id}))
                    acked = True
                if targets:
                    self._deliver(targets, pack(msg) if "a" in msg else room.last_frame(cls))
        for rid in fresh:
            self._snapshot_to(self.rooms[rid], self.members())
        if table.finished:
            self._game_over()
        else:
            self._send_actions()
            state = PAUSED if len(table.games) > 1 else PLAYING
            if state != self.state:
                self.state = state
                self._room_update()
        self._send_clock()
        if peer is not None and request_id is not None and not acked:
            self._send([peer], {"t": "ok", "i": request_id})
        self.reschedule()

    def _game_over(self) -> None:
        table = self.table
        assert table is not None and table.result is not None and self.game_id is not None
        result = table.result.to_wire()
        self.hub.gate.log(GameFinished(self.number, self.game_id, result, table.state_hash()))
        self.results.append(result)
        for w in table.result.winners:
            self.wins[w] += 1
        need = self.settings.best_of // 2 + 1
        over = max(self.wins) >= need or self.match_game >= self.settings.best_of
        self._broadcast({"t": "result", "r": self.id, "res": result,
                         "m": {"game": self.match_game, "best_of": self.settings.best_of,
                               "wins": list(self.wins), "over": over}})
        if self.clock is not None:
            self._settle_clock(None)
        if over:
            self.state = FINISHED
            self.hub.gate.log(RoomStateSet(self.number, FINISHED))
            self._room_update()
            self.hub.metrics.games_finished += 1
            if not self.members():
                self.hub.drop(self)
            return
        self.hub.metrics.games_finished += 1
        self._start_table(chooser=self._next_chooser(table))

    def _next_chooser(self, table: Table) -> int | None:
        """CR 103.1: the loser of the previous game chooses who takes the first turn; after a
        draw, whoever chose last time chooses again."""
        result = table.result
        assert result is not None
        if not result.winners:
            return self.chooser
        losers = sorted((o for o in result.outcomes if o.outcome == "lost"),
                        key=lambda o: o.turn)
        return losers[0].player if losers else self.chooser

    # ------------------------------------------------------------------ time

    def _settle_clock(self, acted: int | None) -> None:
        if self.clock is None:
            return
        table = self.table
        running = None
        if table is not None and not table.finished and table.pending is not None:
            running = table.pending.player
        self._clock_changed = running != self.clock.running or acted is not None
        self.clock.settle(trio.current_time(), running, acted)

    def _send_clock(self) -> None:
        if self.clock is None or not self._clock_changed:
            return
        self._clock_changed = False
        self._broadcast({"t": "clock", "r": self.id,
                         "k": self.clock.millis(trio.current_time()),
                         "p": self.clock.running})

    def reschedule(self) -> None:
        if self.hub.matches.get(self.id) is not self:
            self.hub.timers.schedule(self, None)  # dropped
            return
        deadlines = [s.away_deadline for s in self.seats if s.away_deadline is not None]
        if self.idle_deadline is not None:
            deadlines.append(self.idle_deadline)
        if self.clock is not None and self.state in (PLAYING, PAUSED):
            d = self.clock.deadline()
            if d is not None:
                deadlines.append(d)
        self.hub.timers.schedule(self, min(deadlines) if deadlines else None)

    def on_timer(self, now: float) -> None:
        try:
            self._on_timer(now)
        except Exception:  # a timer must never take the server down
            log.exception("room %s: timer handling failed", self.id)
            self.hub.metrics.internal_errors += 1
        self.reschedule()

    def _on_timer(self, now: float) -> None:
        table = self.table
        if self.clock is not None and self.state in (PLAYING, PAUSED) and table is not None:
            flagged = self.clock.flag(now)
            if flagged is not None:
                if not (table.main.in_game(flagged)
                        and self._run(Penalty(flagged, "clock", table.main.number))):
                    self.clock.settle(now, None, None)  # nobody left to flag: stop the clock
        for seat in self.seats:
            if seat.away_deadline is None or seat.away_deadline > now or seat.peers:
                continue
            seat.away_deadline = None
            if self.state == WAITING:
                self._free_seat(seat)
            elif (self.state in (PLAYING, PAUSED) and table is not None
                  and table.main.in_game(seat.index)):
                # The table never waits on a departed player: concede for them (CR 104.3a).
                self._run(Concede(seat.index, table.main.number))
        if self.idle_deadline is not None and self.idle_deadline <= now:
            self.idle_deadline = None
            if (self.state == WAITING and not any(s.taken for s in self.seats)
                    and not self.spectators):
                # Nobody came: the room goes away (its row stays in the log, finished).
                self.state = FINISHED
                self.hub.gate.log(RoomStateSet(self.number, FINISHED))
                self.hub.drop(self)

    # ------------------------------------------------------------------ recovery

    def restore_game(self, table: Table, game_id: int, match_game: int,
                     chooser: int | None, commands: list[tuple[Command, str | None]],
                     clocks: list[int] | None) -> None:
        """Rebuild the current table by replaying its commands, checking each recorded state
        hash (Determinism invariant); raise RecoveryError on any mismatch."""
        table.drain_events()
        self.game_id = game_id
        self.match_game = match_game
        self.table = table
        for n, (cmd, recorded) in enumerate(commands, start=1):
            try:
                events = table.apply(cmd)
            except RulesError as exc:
                raise RecoveryError(f"room {self.id}: command {n} ({cmd}) is refused on "
                                    f"replay: {exc}") from None
            self._track(events)
            if recorded is not None and recorded != table.state_hash():
                raise RecoveryError(f"room {self.id}: state hash differs after command {n}")
        self._install(table, chooser)
        self.commands = len(commands)
        if self.settings.clock is not None:
            self.clock = ChessClock(len(self.seats), *self.settings.clock)
            if clocks is not None:
                self.clock.restore(clocks, trio.current_time())
            self._settle_clock(None)
        self.idle_deadline = None
        now = trio.current_time()
        for seat in self.seats:
            if seat.taken:
                seat.away_deadline = now + self.hub.settings.grace
        if table.finished:
            self._game_over()
        self.reschedule()


def record(cmd: Command) -> dict[str, Any]:
    """The log's form of a command: ``commands.to_record``'s, built directly for the common
    case (``dataclasses.asdict`` costs more than applying a priority pass)."""
    if type(cmd) is Act:
        return {"kind": "act", "player": cmd.player, "serial": cmd.serial,
                "action": cmd.action}
    return to_record(cmd)


class RecoveryError(Exception):
    """A stored game does not replay to the state its log recorded."""
