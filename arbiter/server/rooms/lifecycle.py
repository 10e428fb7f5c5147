"""One room per game on the current table's stack, and how the table's lifecycle events open,
close and restart them (CR 724, 726).

The main game's room has the match's id. A subgame's room is ``MATCH.GAME.N``: the match's id,
the game of the match, the subgame's game number on that table (the grammar is
arbiter/protocol/ids.py's). The id is derived, not counted, so replaying the log rebuilds the
same ids with nothing extra stored. A restarted game keeps its room (CR 724).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from arbiter.protocol import ids as room_ids
from arbiter.server.rules import Table
from arbiter.server.rules.game import Event

from .views import GameRoom

LIFECYCLE = ("subgame_started", "subgame_ended", "game_restarted", "game_over")


@dataclass(frozen=True)
class Change:
    """A lifecycle event, with the room it concerns."""

    kind: str  # subgame_started, subgame_ended or game_restarted
    data: dict[str, Any]
    room: str


class GameRooms:
    def __init__(self, match_id: str, *, spectator_key: int, history: int,
                 new_epoch: Callable[[], int],
                 on_open: Callable[[str], None], on_close: Callable[[str], None]) -> None:
        self.match_id = match_id
        self.spectator_key = spectator_key
        self.history = history
        self.new_epoch = new_epoch
        self.on_open = on_open  # a subgame room id now exists (the hub routes it to us)
        self.on_close = on_close
        self.rooms: dict[str, GameRoom] = {}
        self.ids: dict[int, str] = {}  # game number on the table -> room id
        self.match_game = 0

    def __iter__(self) -> Iterator[GameRoom]:
        return iter(self.rooms.values())

    def __getitem__(self, room_id: str) -> GameRoom:
        return self.rooms[room_id]

    def __contains__(self, room_id: object) -> bool:
        return room_id in self.rooms

    def get(self, room_id: str) -> GameRoom | None:
        return self.rooms.get(room_id)

    def of_game(self, number: int) -> GameRoom | None:
        rid = self.ids.get(number)
        return None if rid is None else self.rooms.get(rid)

    @property
    def main(self) -> GameRoom | None:
        return self.rooms.get(self.match_id)

    def subgame_ids(self) -> list[str]:
        return [r for r in self.rooms if r != self.match_id]

    def _room(self, rid: str, game: Any) -> GameRoom:
        return GameRoom(rid, game, spectator_key=self.spectator_key, history=self.history,
                        new_epoch=self.new_epoch)

    def in_order(self, table: Table | None) -> list[GameRoom]:
        """The rooms from the main game up to the innermost subgame."""
        if table is None:
            return []
        out = []
        for g in table.games:
            room = self.of_game(g.number)
            if room is not None:
                out.append(room)
        return out

    def install(self, table: Table, match_game: int, *, fresh: bool) -> None:
        """Open one room per game on ``table``'s stack. ``fresh``: a new table of the match,
        whose ids start afresh; otherwise (recovery) the ids that replaying the log tracked."""
        self.match_game = match_game
        if fresh:
            self.ids = {}
        for rid in self.subgame_ids():
            self.on_close(rid)
        main = self.main
        self.rooms = {}
        for g in table.games:
            found = self.ids.get(g.number, self.match_id if g is table.main else None)
            assert found is not None, "a subgame's room id is tracked from its start"
            rid = found
            if rid == self.match_id and main is not None:
                main.reset(g)
                room = main
            else:
                room = self._room(rid, g)
            self.rooms[rid] = room
            self.ids[g.number] = rid
            if rid != self.match_id:
                self.on_open(rid)

    def track(self, events: list[Event]) -> list[Change]:
        """Follow the table's lifecycle in the room ids (not the rooms themselves: replaying
        the log does only this)."""
        out = []
        for ev in events:
            if ev.kind == "subgame_started":
                rid = room_ids.subgame_room(self.match_id, self.match_game, ev.data["game"])
                self.ids[ev.data["game"]] = rid
                out.append(Change(ev.kind, ev.data, rid))
            elif ev.kind == "subgame_ended":
                rid = self.ids.pop(ev.data["game"], "")
                out.append(Change(ev.kind, ev.data, rid))
            elif ev.kind == "game_restarted":
                rid = self.ids.pop(ev.data["old_game"], self.match_id)
                self.ids[ev.data["game"]] = rid
                out.append(Change(ev.kind, ev.data, rid))
        return out

    def open(self, rid: str, game: Any) -> GameRoom:
        room = self._room(rid, game)
        self.rooms[rid] = room
        self.on_open(rid)
        return room

    def close(self, rid: str) -> None:
        self.rooms.pop(rid, None)
        self.on_close(rid)
