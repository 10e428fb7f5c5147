"""A cluster node's :class:`~arbiter.server.store.archive.Archive`: replays and match histories
read from the PostgreSQL log, which holds every node's games, so any node answers for any game.

Reads go through :class:`~.pglog.ClusterLog`'s worker connections under its deadline (a log
that does not answer in time is an ``unavailable`` answer, never a hung connection). The rows
are those of the SQLite archive, read by the same query (``finished_sql``); only the placeholder
and the way names are stored (``bytea``, :func:`~.pgsql.name_text`) differ.
"""

from __future__ import annotations

from arbiter.server.store.archive import (
    ArchivedGame,
    FinishedGame,
    finished_params,
    finished_row,
    finished_sql,
)
from arbiter.server.store.rows import CommandRow

from .pglog import ClusterLog, PgLog
from .pgsql import SELECT_COMMAND, command_row, name_text


class PgArchive:
    def __init__(self, log: ClusterLog) -> None:
        self.log = log

    async def archived(self, game: int) -> ArchivedGame | None:
        def read(db: PgLog) -> ArchivedGame | None:
            row = db.game(game)
            if row is None:
                return None
            return ArchivedGame(row, db.room(row.room), db.seats(row.room))
        return await self.log._call(read)

    async def commands(self, game: int, limit: int) -> list[CommandRow]:
        def read(db: PgLog) -> list[CommandRow]:
            return [command_row(r) for r in db.conn.execute(
                SELECT_COMMAND + " WHERE game = %s ORDER BY n LIMIT %s", (game, limit))]
        return await self.log._call(read)

    async def finished(self, session: str | None, limit: int) -> list[FinishedGame]:
        sql = finished_sql(session is not None, "%s")
        params = finished_params(session, limit)
        return await self.log._call(lambda db: [finished_row(r, name_text) for r in
                                                db.conn.execute(sql, params)])
