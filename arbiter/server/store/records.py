"""What the rooms write to the durable log: one small value per kind of record, never changed.

Rooms produce records; a store writes a batch of them in one transaction (SQLite in the
embedded server, PostgreSQL in a cluster) and nothing a batch caused reaches a client before the
batch is committed. Records carry no wall-clock time (the room layer keeps none): the store
stamps them as it writes. Every record about a room names the room, so that a cluster node can
fence its writes with the epoch under which it owns that room (docs/cluster.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class SessionCreated:
    token: str
    name: str


@dataclass(frozen=True, slots=True)
class SessionForgotten:
    token: str


@dataclass(frozen=True, slots=True)
class RoomCreated:
    room: int
    name: str
    config: dict[str, Any]  # the "create" request's configuration, as sent
    creator: str | None  # the creating session's token


@dataclass(frozen=True, slots=True)
class RoomStateSet:
    room: int
    state: str  # waiting, playing, paused or finished


@dataclass(frozen=True, slots=True)
class SeatSet:
    """A seat's holder changed: its token, session, name or deck (None: the seat is free)."""

    room: int
    seat: int
    token: str | None
    session: str | None
    name: str | None
    deck: dict[str, Any] | None
    bot: str | None = None  # the strategy of a bot the server runs in the seat


@dataclass(frozen=True, slots=True)
class GameStarted:
    room: int
    game: int  # the game's id in the log (unique across rooms)
    number: int  # which game of the room's match, from 1
    seed: int
    config: dict[str, Any]  # the engine configuration, as plain data
    chooser: int | None  # CR 103.1: who chose the starting player


# Not frozen, though nothing changes one once made: one is made per command, and a frozen
# dataclass's __init__ sets each field through object.__setattr__, several times the cost.
@dataclass(slots=True)
class CommandAppended:
    room: int
    game: int
    n: int  # the command's number in its game, from 1
    command: dict[str, Any]  # the engine's record of the command (commands.to_record)
    hash: str | None  # the table's state hash after it, recorded now and then
    clocks: list[int] | None  # chess clocks after it, milliseconds per seat


@dataclass(frozen=True, slots=True)
class GameFinished:
    room: int
    game: int
    result: dict[str, Any]
    final_hash: str


Record = (SessionCreated | SessionForgotten | RoomCreated | RoomStateSet | SeatSet
          | GameStarted | CommandAppended | GameFinished)
