"""Reading finished games back for replays and match histories: one interface over both logs.

A replay or a history is read from the log, never from a room in memory (a finished match is
forgotten by the hub), so it needs I/O the room core cannot do. The core asks for it as an
effect (``Effects.reads``) and the server answers it with an :class:`Archive`: the embedded
server's over SQLite (:class:`StoreArchive`, a read-only connection of its own in a worker
thread, so that a replay never waits behind the commit gate nor stalls the event loop), a
cluster node's over PostgreSQL (``arbiter.server.cluster.archive``). Both run the same query
(:func:`finished_sql`), with their own placeholder.
"""

from __future__ import annotations

import itertools
import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, TypeVar

import msgpack
import trio

from .db import LogReader
from .rows import CommandRow, GameRow, RoomRow, SeatRow

T = TypeVar("T")


@dataclass(frozen=True)
class ArchivedGame:
    """A game of the log with what a replay needs around it: its room (for the room's
    ``spectators`` setting) and the room's seats (who held which seat)."""

    game: GameRow
    room: RoomRow | None
    seats: list[SeatRow]


@dataclass(frozen=True)
class FinishedGame:
    """One line of a match history: a finished game, its room's name and settings, and the
    seat the caller held in it (None in the server's list)."""

    game: GameRow
    room_name: str
    room_config: dict[str, Any]
    seat: int | None


class Archive(Protocol):
    async def archived(self, game: int) -> ArchivedGame | None:
        """The game ``game`` of the log, or None when there is none."""
        ...

    async def commands(self, game: int, limit: int) -> list[CommandRow]:
        """The game's first ``limit`` commands, in order."""
        ...

    async def finished(self, session: str | None, limit: int) -> list[FinishedGame]:
        """The last ``limit`` finished games, newest first: those in rooms where ``session``
        held a seat, or every game when ``session`` is None."""
        ...


GAME_COLUMNS = ("g.id, g.room, g.number, g.seed, g.config, g.chooser, g.started, g.result, "
                "g.final_hash")


def finished_sql(mine: bool, p: str) -> str:
    """The history's query; ``p`` is the driver's placeholder (``?`` or ``%s``). A caller's
    own games are found by the seats its session held (the seat rows of a finished match
    stay as they were when it ended)."""
    seat = (f"(SELECT s.seat FROM seats s WHERE s.room = g.room AND s.session = {p} "
            "ORDER BY s.seat LIMIT 1)") if mine else "NULL"
    where = f" AND {seat} IS NOT NULL" if mine else ""
    return (f"SELECT {GAME_COLUMNS}, r.name, r.config, {seat} FROM games g "
            f"JOIN rooms r ON r.id = g.room WHERE g.result IS NOT NULL{where} "
            f"ORDER BY g.id DESC LIMIT {p}")


def finished_params(session: str | None, limit: int) -> tuple[Any, ...]:
    return (session, session, limit) if session is not None else (limit,)


def unpack(data: bytes | None) -> Any:
    if data is None:
        return None
    return msgpack.unpackb(data, raw=False, strict_map_key=False)


def finished_row(r: Sequence[Any], name: Callable[[Any], str]) -> FinishedGame:
    """A row of :func:`finished_sql`; ``name`` reads the store's room name column."""
    game = GameRow(r[0], r[1], r[2], r[3], unpack(r[4]), r[5], r[6], unpack(r[7]), r[8])
    return FinishedGame(game, name(r[9]), unpack(r[10]) or {}, r[11])


class StoreArchive:
    """The embedded server's archive: the SQLite log at ``path``, read on a connection of
    its own (WAL lets it read while the server writes) in a worker thread, one call at a
    time."""

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        self._db: sqlite3.Connection | None = None
        self._one = trio.Lock()

    def _connect(self) -> sqlite3.Connection:
        if self._db is None:
            self._db = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True,
                                       check_same_thread=False)
        return self._db

    async def _run(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        async with self._one:
            return await trio.to_thread.run_sync(lambda: fn(self._connect()))

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None

    async def archived(self, game: int) -> ArchivedGame | None:
        def read(db: sqlite3.Connection) -> ArchivedGame | None:
            log = LogReader(db)
            row = log.game(game)
            if row is None:
                return None
            return ArchivedGame(row, log.room(row.room), log.seats(row.room))
        return await self._run(read)

    async def commands(self, game: int, limit: int) -> list[CommandRow]:
        return await self._run(
            lambda db: list(itertools.islice(LogReader(db).commands(game), limit)))

    async def finished(self, session: str | None, limit: int) -> list[FinishedGame]:
        sql = finished_sql(session is not None, "?")
        params = finished_params(session, limit)
        return await self._run(lambda db: [finished_row(r, str) for r in
                                           db.execute(sql, params)])
