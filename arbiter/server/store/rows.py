"""What the log gives back: one plain value per stored row, the same for every store (SQLite
in the embedded server, PostgreSQL in a cluster). Recovery rebuilds rooms from these."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class RoomRow:
    id: int
    name: str
    config: dict[str, Any]
    creator: str | None
    state: str
    created: float


@dataclass(frozen=True)
class SeatRow:
    room: int
    seat: int
    token: str | None
    session: str | None
    name: str | None
    deck: dict[str, Any] | None
    bot: str | None = None  # the strategy of a bot the server runs in the seat


@dataclass(frozen=True)
class GameRow:
    id: int
    room: int
    number: int
    seed: int
    config: dict[str, Any]
    chooser: int | None
    started: float
    result: dict[str, Any] | None
    final_hash: str | None


@dataclass(frozen=True)
class CommandRow:
    game: int
    n: int
    command: dict[str, Any]
    hash: str | None
    clocks: list[int] | None
    at: float


@dataclass(frozen=True)
class StoredRoom:
    """Everything needed to rebuild one unfinished room: its row, its seats, its games (the
    last one unfinished if a game is being played) and that game's commands."""

    room: RoomRow
    seats: list[SeatRow]
    games: list[GameRow]
    commands: list[CommandRow] = field(default_factory=list)
    sessions: dict[str, str] = field(default_factory=dict)  # its seat holders: token -> name

    @classmethod
    def read(cls, room: RoomRow, seats: list[SeatRow], games: list[GameRow],
             commands_of: Callable[[int], Iterable[CommandRow]],
             name_of: Callable[[str], str | None]) -> StoredRoom:
        """Assemble a room from its rows, whichever store gave them: the commands are those
        of its last game if that is still being played, the sessions those of its seats'
        holders that the store still knows. An event has no seat rows: its entrants are the
        sessions its commands name (``join``, and ``seat`` for a seat taken up from another
        session), so that a cluster node taking it over knows them."""
        current = games[-1] if games and games[-1].result is None else None
        commands = list(commands_of(current.id)) if current is not None else []
        named = [s.session for s in seats]
        if "event" in room.config:
            named += [c.command.get("session") for c in commands]
        holders: dict[str, str] = {}
        for token in named:
            if isinstance(token, str) and token not in holders:
                name = name_of(token)
                if name is not None:
                    holders[token] = name
        return cls(room, seats, games, commands, holders)
