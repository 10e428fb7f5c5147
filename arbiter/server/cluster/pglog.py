"""The durable log of a cluster, in PostgreSQL: the twin of the SQLite :class:`Store`.

It holds what must not be lost and what any node needs to rebuild any room: sessions, rooms,
seats, games and every accepted command, written from the typed records of
:mod:`arbiter.server.store.records`, one transaction per batch (group commit, as in
:mod:`arbiter.server.store.gate`). The schema and the triggers that fence a stale owner's
writes are in :mod:`.pgschema`, the SQL of a batch and of the rows read back in :mod:`.pgsql`,
and the ids handed out from the log's sequences in :mod:`.idpool` (docs/cluster.md,
"Fencing").

A claim raises a room's epoch with one compare-and-set statement; a write carries the epoch its
node believes it owns the room under, and PostgreSQL refuses a stale one (:class:`Fenced`).

A batch goes to the server as one message (one round trip), run as one implicit transaction:
once the message is in, the server finishes it whether or not the node is still there, so a
node that freezes or is cut off mid-batch never leaves rooms locked. A node that hangs inside a
transaction of its own (a claim, a test) is ended by the server after
``idle_in_transaction_timeout``; a claim waits at most ``lock_timeout`` for a writer
(:class:`RoomBusy`).

:class:`PgLog` is the synchronous core, one connection, for one thread at a time.
:class:`ClusterLog` is the trio side: a few connections, each call under a deadline, so the
event loop never blocks and an unreachable server is reported as :class:`LogUnavailable`
within a bounded time instead of hanging. Batches are written from the event loop through
libpq's non-blocking calls (:meth:`PgLog.send`), first waiting briefly for the answer without
giving the loop a turn (the inline wait, which a nearby server meets); every other call runs in
a worker thread.
"""

from __future__ import annotations

import contextlib
import datetime
import os
import select
import socket
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar

import psycopg
import trio
from psycopg import pq
from psycopg.conninfo import conninfo_to_dict

from arbiter.server.store.records import Record
from arbiter.server.store.rows import CommandRow, GameRow, RoomRow, SeatRow, StoredRoom

from .logmetrics import LogMetrics
from .pgschema import STALE_EPOCH, ensure_schema
from .pgsql import (
    SELECT_COMMAND,
    SELECT_GAME,
    SELECT_ROOM,
    SELECT_SEAT,
    batch_statements,
    command_row,
    game_row,
    name_text,
    room_row,
    seat_row,
)
from .write_retry import Probe


class Fenced(Exception):
    """The batch was refused, whole: these rooms were claimed by another node (a newer epoch)
    or do not exist. Drop them and write the rest again."""

    def __init__(self, rooms: Iterable[int], message: str = "") -> None:
        self.rooms = frozenset(rooms)
        super().__init__(message or f"stale epoch for room(s) {sorted(self.rooms)}")


class RoomBusy(Exception):
    """A claim waited ``lock_timeout`` for a writer that still holds the room's row (the old
    owner's transaction, or one the server has not yet ended): try again later."""

    def __init__(self, room: int) -> None:
        super().__init__(f"room {room} is held by a writer; claim it again later")
        self.room = room


class RowsExist(Exception):
    """A batch met rows already in the log under its keys (a command's number, a room's or a
    game's): it was written before (a try whose answer was lost), or a node that lost the
    room wrote it from a stale view, the primary key refusing it before the fencing trigger
    could. Nothing of the batch was written; its rooms must be rebuilt from the log."""


class LogUnavailable(Exception):
    """PostgreSQL could not be reached or did not answer in time. For a write,
    ``outcome_unknown`` says whether the batch may nevertheless have been committed (the
    answer was lost): the caller must then treat its rooms as unknown and rebuild them."""

    def __init__(self, message: str, *, outcome_unknown: bool = False) -> None:
        super().__init__(message)
        self.outcome_unknown = outcome_unknown


# A server process of PostgreSQL's: its process id and when it started.
Backend = tuple[int, datetime.datetime]


@dataclass(frozen=True)
class RoomOwner:
    """Who owns a room in the log, and under which epoch."""

    room: int
    owner: str
    epoch: int
    state: str


def _fenced(exc: psycopg.Error) -> Fenced | None:
    """:class:`Fenced` naming the rooms of an ``AR001`` error, or None for any other error."""
    if exc.sqlstate != STALE_EPOCH:
        return None
    detail = exc.diag.message_detail or ""
    return Fenced((int(x) for x in detail.split(",") if x), exc.diag.message_primary or str(exc))


# --------------------------------------------------------------------------- the sync core

class PgLog:
    """One connection to the log; every method runs in the calling thread (the trio side
    calls them in worker threads through :class:`ClusterLog`)."""

    def __init__(self, conninfo: str, *, node: str, connect_timeout: float = 5.0,
                 statement_timeout: float = 30.0, lock_timeout: float = 5.0,
                 idle_in_transaction_timeout: float = 10.0) -> None:
        self.node = node
        # Server-side limits, which hold even when this process is frozen: a transaction left
        # open by a hung node (holding FOR SHARE locks that block a claim) is ended by the
        # server after ``idle_in_transaction_timeout``.
        options = ("-c standard_conforming_strings=on "  # what pgsql.text_literal needs
                   f"-c statement_timeout={int(statement_timeout * 1000)} "
                   f"-c lock_timeout={int(lock_timeout * 1000)} "
                   f"-c idle_in_transaction_session_timeout="
                   f"{int(idle_in_transaction_timeout * 1000)}")
        given = conninfo_to_dict(conninfo).get("options")  # keep the operator's, ours last
        if given:
            options = f"{given} {options}"
        self.conn = psycopg.connect(conninfo, autocommit=True,
                                    connect_timeout=max(1, round(connect_timeout)),
                                    options=options, application_name=f"arbiter {node}")
        # The server process serving this connection, as pg_stat_activity names it (a process
        # id is reused, its start time tells them apart): a batch whose answer is lost may
        # still be running there, and is ended by this name (ClusterLog.end_lost_batches).
        row = self.conn.execute("SELECT pg_backend_pid(), backend_start FROM pg_stat_activity "
                                "WHERE pid = pg_backend_pid()").fetchone()
        assert row is not None
        self.backend: Backend = (int(row[0]), row[1])
        # The inline wait (send) polls the socket: poll, not select, since a node's sockets
        # run past select's 1,024.
        self._poll = select.poll()
        self._poll.register(self.conn.pgconn.socket, select.POLLIN)

    def close(self) -> None:
        self.conn.close()

    @property
    def broken(self) -> bool:
        return self.conn.broken or self.conn.closed

    def interrupt(self) -> None:
        """Make a call blocked in another thread on this connection fail now: shut the
        socket down (the kernel wakes the blocked poll), whatever the server is doing."""
        with contextlib.suppress(Exception):
            fd = os.dup(self.conn.pgconn.socket)
            with socket.socket(fileno=fd) as sock:
                sock.shutdown(socket.SHUT_RDWR)

    # ------------------------------------------------------------------ schema

    def ensure_schema(self) -> None:
        """See :func:`.pgschema.ensure_schema`."""
        ensure_schema(self.conn)

    # ------------------------------------------------------------------ writing

    def batch(self, records: Sequence[Record], epochs: Mapping[int, int]) -> bytes:
        """The SQL that writes ``records`` in one transaction, each record about a room under
        ``epochs[room]``, its parameters bound (by psycopg's client-side binding, with this
        connection's encoding): one simple-protocol message. Sent whole, it is one round trip
        and one implicit transaction that the server runs to its end once the message is in,
        committed or rolled back whole, so a node that freezes or loses the network mid-batch
        never leaves the server holding the rooms' locks while it waits for the rest. (The
        extended protocol would: the server runs an ``Execute`` as soon as it arrives, then
        waits for the ``Sync`` that ends the transaction with no timeout running.) Commands
        have their values written in by :func:`.pgsql.command_insert`; a batch of commands alone,
        the common one, never reaches psycopg's binding."""
        statements = batch_statements(records, epochs, self.node, time.time())
        if any(params for _, params in statements):  # (commands alone need no cursor)
            with psycopg.ClientCursor(self.conn) as cursor:
                parts = [cursor.mogrify(sql, params) if params else sql
                         for sql, params in statements]
        else:
            parts = [sql for sql, _ in statements]
        return ";\n".join(parts).encode(self.conn.info.encoding)

    def write(self, records: Sequence[Record], epochs: Mapping[int, int]) -> float:
        """Write ``records`` in one transaction (see :meth:`batch`), blocking this thread;
        return the seconds it took. Raises :class:`Fenced` (nothing written) when any room's
        epoch is stale."""
        if not records:
            return 0.0
        started = time.perf_counter()
        query = self.batch(records, epochs)
        try:
            with psycopg.ClientCursor(self.conn) as cursor:
                cursor.execute(query)
        except psycopg.Error as exc:
            raise _fenced(exc) or exc from None
        return time.perf_counter() - started

    async def send(self, query: bytes, inline: float = 0.0) -> bool:
        """Run ``query`` (from :meth:`batch`) on the event loop, without a worker thread:
        libpq's non-blocking calls, woken by trio when the socket is ready. A batch is the
        node's hot path, and a hop to a thread and back costs it more than the commit (the
        worker waits for the GIL while the event loop works, and the loop for the worker's
        wake-up). Raises :class:`Fenced`, or psycopg's error; when cancelled, the caller must
        close this connection (the server may still be running the batch).

        With ``inline`` > 0 it first waits up to that many seconds for the answer without
        giving the event loop a turn, as the embedded server's SQLite commit does: a nearby
        server answers within about a tenth of a millisecond, and an answer left for the event
        loop waits for its current turn (the other rooms' actions, several times as long)
        while every action in the batch waits for it. Returns whether the answer came in
        that time (otherwise the rest is awaited as usual)."""
        pgconn = self.conn.pgconn
        fd = pgconn.socket
        pgconn.send_query(query)
        while pgconn.flush():  # 1: part of the message is still in libpq's buffer
            await trio.lowlevel.wait_writable(fd)
        answered_inline = inline > 0 and self._answer_within(inline)
        error: psycopg.Error | None = None
        while True:  # one result per statement, then None
            while pgconn.is_busy():
                await trio.lowlevel.wait_readable(fd)
                pgconn.consume_input()
            result = pgconn.get_result()
            if result is None:
                break
            if result.status == pq.ExecStatus.FATAL_ERROR and error is None:
                error = psycopg.errors.error_from_result(result, self.conn.info.encoding)
        if error is not None:
            raise _fenced(error) or error
        return answered_inline

    def _answer_within(self, seconds: float) -> bool:
        """Block this thread until the whole answer is in, for at most ``seconds`` (poll's
        resolution is a millisecond: it may take up to one more)."""
        pgconn = self.conn.pgconn
        deadline = time.perf_counter() + seconds
        while pgconn.is_busy():
            left = deadline - time.perf_counter()
            if left <= 0 or not self._poll.poll(left * 1000):
                return False
            pgconn.consume_input()
        return True

    def claim(self, room: int, expected_epoch: int) -> int | None:
        """Take ``room`` over: raise its epoch by one if it is still ``expected_epoch`` (a
        compare-and-set). Returns the new epoch, or None when the room is missing, finished,
        or no longer at ``expected_epoch`` (another node claimed it). Raises
        :class:`RoomBusy` if a writer holds the room longer than ``lock_timeout``."""
        return self.claim_many({room: expected_epoch}).get(room)

    def claim_many(self, expected: Mapping[int, int]) -> dict[int, int]:
        """:meth:`claim` for many rooms (room -> expected epoch) in one statement, so one
        commit (one WAL flush with fsync on) for a whole claim batch of a failover. Returns
        the rooms claimed -> their new epoch; the others are missing, finished, or another
        node's now. The rows are locked in id order first, so two nodes claiming overlapping
        batches wait for each other instead of deadlocking. :class:`RoomBusy` (naming the
        batch's first room) when a writer holds one of them longer than ``lock_timeout``."""
        if not expected:
            return {}
        rooms = sorted(expected)
        try:
            rows = self.conn.execute(
                "WITH locked AS (SELECT id FROM rooms WHERE id = ANY(%s) ORDER BY id "
                "FOR UPDATE) "
                "UPDATE rooms SET epoch = rooms.epoch + 1, owner = %s "
                "FROM unnest(%s::bigint[], %s::bigint[]) AS c(id, epoch), locked "
                "WHERE rooms.id = c.id AND locked.id = c.id AND rooms.epoch = c.epoch "
                "AND rooms.state <> 'finished' RETURNING rooms.id, rooms.epoch",
                (rooms, self.node, rooms, [expected[r] for r in rooms])).fetchall()
        except psycopg.errors.LockNotAvailable:
            raise RoomBusy(rooms[0]) from None
        return {int(r[0]): int(r[1]) for r in rows}

    def allocate_ids(self, kind: str, count: int) -> list[int]:
        """``count`` fresh ids for rooms or games, unique across every node."""
        sequence = {"rooms": "room_ids", "games": "game_ids"}[kind]
        rows = self.conn.execute(
            f"SELECT nextval('{sequence}') FROM generate_series(1, %s)", (count,)).fetchall()
        return [int(r[0]) for r in rows]

    def end_backends(self, backends: Iterable[Backend], wait: float) -> bool:
        """End the server processes ``backends`` that are still there, waiting up to ``wait``
        seconds for each to be gone; True when none is left. A transaction they were running is
        rolled back, unless it had committed."""
        left = 0
        for pid, started in backends:
            row = self.conn.execute(
                "SELECT pg_terminate_backend(pid, %s) FROM pg_stat_activity "
                "WHERE pid = %s AND backend_start = %s",
                (max(1, int(wait * 1000)), pid, started)).fetchone()
            if row is not None and not row[0]:
                left += 1  # still there after the wait
        return left == 0

    # ------------------------------------------------------------------ reading

    def ping(self) -> None:
        self.conn.execute("SELECT 1")

    def written(self, probes: Sequence[Probe]) -> list[bool]:
        """Whether each row ``probes`` name is in the log (a batch whose answer was lost)."""
        where = {"commands": "game = %s AND n = %s AND epoch = %s", "rooms": "id = %s",
                 "games": "id = %s"}
        return [self.conn.execute(f"SELECT 1 FROM {p.table} WHERE {where[p.table]}",
                                  p.key).fetchone() is not None for p in probes]

    def owner(self, room: int) -> RoomOwner | None:
        row = self.conn.execute("SELECT id, owner, epoch, state FROM rooms WHERE id = %s",
                                (room,)).fetchone()
        return None if row is None else RoomOwner(*row)

    def owners_of(self, rooms: Sequence[int]) -> dict[int, RoomOwner]:
        """:meth:`owner` for many rooms in one query (a claim batch); unknown rooms absent."""
        return {r[0]: RoomOwner(*r) for r in self.conn.execute(
            "SELECT id, owner, epoch, state FROM rooms WHERE id = ANY(%s)", (list(rooms),))}

    def owners(self, *, unfinished: bool = True) -> list[RoomOwner]:
        sql = "SELECT id, owner, epoch, state FROM rooms"
        if unfinished:
            sql += " WHERE state <> 'finished'"
        return [RoomOwner(*r) for r in self.conn.execute(sql + " ORDER BY id")]

    def sessions(self) -> dict[str, str]:
        return {t: name_text(n)
                for t, n in self.conn.execute("SELECT token, name FROM sessions")}

    def session(self, token: str) -> str | None:
        """The name of the session with this token, if it exists."""
        row = self.conn.execute("SELECT name FROM sessions WHERE token = %s",
                                (token,)).fetchone()
        return None if row is None else name_text(row[0])

    def rooms(self, *, unfinished: bool = True) -> list[RoomRow]:
        sql = SELECT_ROOM + (" WHERE state <> 'finished'" if unfinished else "")
        return [room_row(r) for r in self.conn.execute(sql + " ORDER BY id")]

    def event_matches(self, event: int) -> list[int]:
        """The unfinished match rooms of ``event``'s rounds. Their link to it is in their
        settings (``of_event``, msgpack, opaque to SQL); they were created after it, so only
        the unfinished rooms numbered after it are read."""
        rows = self.conn.execute(SELECT_ROOM + " WHERE state <> 'finished' AND id > %s "
                                 "ORDER BY id", (event,))
        return [row.id for row in map(room_row, rows)
                if (row.config.get("of_event") or {}).get("id") == str(event)]

    def room(self, room: int) -> RoomRow | None:
        r = self.conn.execute(SELECT_ROOM + " WHERE id = %s", (room,)).fetchone()
        return None if r is None else room_row(r)

    def seats(self, room: int) -> list[SeatRow]:
        return [seat_row(r) for r in self.conn.execute(
            SELECT_SEAT + " WHERE room = %s ORDER BY seat", (room,))]

    def games(self, room: int) -> list[GameRow]:
        return [game_row(r) for r in self.conn.execute(
            SELECT_GAME + " WHERE room = %s ORDER BY number", (room,))]

    def game(self, game: int) -> GameRow | None:
        r = self.conn.execute(SELECT_GAME + " WHERE id = %s", (game,)).fetchone()
        return None if r is None else game_row(r)

    def all_games(self) -> list[GameRow]:
        return [game_row(r) for r in self.conn.execute(SELECT_GAME + " ORDER BY id")]

    def commands(self, game: int) -> list[CommandRow]:
        return [command_row(r) for r in self.conn.execute(
            SELECT_COMMAND + " WHERE game = %s ORDER BY n", (game,))]

    def stored_room(self, room: int) -> StoredRoom | None:
        """What a node needs to rebuild ``room`` (as ``Store.stored_rooms`` gives for each
        room), read in one snapshot so that no batch lands halfway through; None when the
        room is unknown or finished."""
        return self.stored_rooms([room]).get(room)

    def stored_rooms(self, rooms: Sequence[int]) -> dict[int, StoredRoom]:
        """:meth:`stored_room` for many rooms (a claim batch) in one snapshot and five
        queries, whatever their number: read one by one, a failover's thousand rooms cost
        some six thousand round trips and as many hops to a worker thread. Rooms unknown or
        finished are absent."""
        if not rooms:
            return {}
        wanted = list(rooms)
        with self.conn.transaction():
            self.conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
            rows = [room_row(r) for r in self.conn.execute(
                SELECT_ROOM + " WHERE id = ANY(%s) AND state <> 'finished'", (wanted,))]
            live = [row.id for row in rows]
            seats: dict[int, list[SeatRow]] = {room: [] for room in live}
            for r in self.conn.execute(SELECT_SEAT + " WHERE room = ANY(%s) ORDER BY room, seat",
                                       (live,)):
                seats[r[0]].append(seat_row(r))
            games: dict[int, list[GameRow]] = {room: [] for room in live}
            for r in self.conn.execute(SELECT_GAME + " WHERE room = ANY(%s) "
                                       "ORDER BY room, number", (live,)):
                games[r[1]].append(game_row(r))
            # Only the games still being played have their commands replayed.
            playing = [g[-1].id for g in games.values() if g and g[-1].result is None]
            commands: dict[int, list[CommandRow]] = {game: [] for game in playing}
            for r in self.conn.execute(SELECT_COMMAND + " WHERE game = ANY(%s) "
                                       "ORDER BY game, n", (playing,)):
                commands[r[0]].append(command_row(r))
            tokens = {s.session for room in live for s in seats[room]}
            for row in rows:  # an event's entrants are named by its commands
                if "event" in row.config and games[row.id]:
                    tokens.update(c.command.get("session") for c in
                                  commands.get(games[row.id][-1].id, ()))
            names = {t: name_text(n) for t, n in self.conn.execute(
                "SELECT token, name FROM sessions WHERE token = ANY(%s)",
                ([t for t in tokens if isinstance(t, str)],))}
            return {row.id: StoredRoom.read(row, seats[row.id], games[row.id],
                                            lambda game: commands.get(game, []), names.get)
                    for row in rows}


# --------------------------------------------------------------------------- the trio facade

T = TypeVar("T")

# How long a batch may wait for its answer before giving the event loop a turn (seconds), and
# at most how many batches skip that wait after it was missed (ClusterLog).
INLINE_WAIT = 0.001
INLINE_BACKOFF = 64

@dataclass
class _Call:
    """One call's connection, shared between the trio task and its worker thread."""

    db: PgLog | None
    done: bool = False  # the worker thread has finished with the connection
    abandoned: bool = False  # the trio side gave up waiting for it


class ClusterLog:
    """The log for trio code. Up to ``connections`` calls run at once, each on its own
    connection in a worker thread; each call is bounded by ``timeout`` seconds, after which
    its connection is cut and :class:`LogUnavailable` raised. Broken connections are replaced
    on the next call, so the log works again as soon as PostgreSQL is back.

    Use as ``async with ClusterLog(...) as log:`` (creates the schema if needed)."""

    def __init__(self, conninfo: str, *, node: str, connections: int = 3,
                 timeout: float = 10.0, connect_timeout: float = 5.0,
                 lock_timeout: float = 5.0, idle_in_transaction_timeout: float = 10.0,
                 inline_wait: float = INLINE_WAIT) -> None:
        self.conninfo = conninfo
        self.node = node
        self.timeout = timeout
        self.connect_timeout = connect_timeout
        self.lock_timeout = lock_timeout
        self.idle_in_transaction_timeout = idle_in_transaction_timeout
        self.metrics = LogMetrics()
        self._idle: list[PgLog] = []
        self._slots = trio.Semaphore(connections)
        self._closed = False
        self._lost: set[Backend] = set()  # server processes of batches whose answer was lost
        # A batch first waits up to inline_wait for its answer without giving the event loop a
        # turn (PgLog.send). An answer that misses it means a far or busy server, for which
        # waiting blocks the loop for nothing: the next batches skip the inline wait, twice as
        # many after each miss (up to INLINE_BACKOFF), and it is tried again after them.
        self.inline_wait = inline_wait
        self._inline_skip = 0  # batches still to send without the inline wait
        self._inline_backoff = 0  # how many the last miss skipped

    async def __aenter__(self) -> ClusterLog:
        await self._call(lambda db: db.ensure_schema())
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        self._closed = True
        idle, self._idle = self._idle, []
        for db in idle:
            await trio.to_thread.run_sync(db.close)

    @contextlib.contextmanager
    def _bounded(self, broken: Callable[[], bool], *, outcome_unknown: bool) -> Iterator[None]:
        """Within the log's deadline; a deadline passed, or a connection that failed or that
        the server ended (a restart, an idle timeout while this process was frozen), becomes
        :class:`LogUnavailable`. Other errors are bugs, and go on as they are."""
        try:
            with trio.fail_after(self.timeout):
                yield
        except trio.TooSlowError:
            self.metrics.failures += 1
            raise LogUnavailable(f"PostgreSQL did not answer within {self.timeout:g} s",
                                 outcome_unknown=outcome_unknown) from None
        except psycopg.Error as exc:
            if not (isinstance(exc, psycopg.OperationalError) or broken()):
                raise
            self.metrics.failures += 1
            raise LogUnavailable(f"PostgreSQL unreachable: {exc}".strip(),
                                 outcome_unknown=outcome_unknown) from exc

    async def _call(self, fn: Callable[[PgLog], T]) -> T:
        """``fn`` on a connection of its own, in a worker thread (it never changes the log in
        a way a lost answer would leave unknown: writes go through :meth:`write`)."""
        if self._closed:
            raise LogUnavailable("the log is closed")
        async with self._slots:
            call = _Call(self._idle.pop() if self._idle else None)

            def work() -> T:
                try:
                    if call.db is None:
                        call.db = PgLog(
                            self.conninfo, node=self.node, connect_timeout=self.connect_timeout,
                            statement_timeout=self.timeout, lock_timeout=self.lock_timeout,
                            idle_in_transaction_timeout=self.idle_in_transaction_timeout)
                    if call.abandoned:  # connected too late: the caller has moved on, and a
                        raise LogUnavailable("given up")  # write must not land after that
                    return fn(call.db)
                finally:
                    call.done = True
                    if call.db is not None and (call.abandoned or call.db.broken):
                        call.db.close()  # nobody will use it again

            try:
                with self._bounded(lambda: call.db is not None and call.db.broken,
                                   outcome_unknown=False):
                    result = await trio.to_thread.run_sync(work, abandon_on_cancel=True)
            finally:
                if not call.done:  # given up on (timeout or cancelled): the thread goes on
                    call.abandoned = True
                    if call.db is not None:
                        call.db.interrupt()  # so that it ends now, and its connection too
            if call.db is not None and not call.db.broken:
                if self._closed:  # closed while this call ran
                    await trio.to_thread.run_sync(call.db.close)
                else:
                    self._idle.append(call.db)
            return result

    # ------------------------------------------------------------------ writing

    async def write(self, records: Sequence[Record], epochs: Mapping[int, int]) -> None:
        """Commit ``records`` in one transaction; returns once committed. Raises
        :class:`Fenced` (nothing written) or :class:`LogUnavailable`.

        The batch runs on the event loop (:meth:`PgLog.send`) over an idle connection; only
        opening a connection, when none is idle, goes to a worker thread."""
        if not records:
            return
        batch = list(records)
        while True:
            if self._closed:
                raise LogUnavailable("the log is closed")
            # A free slot is taken without a checkpoint: this batch is on the path of every
            # action in it, and a turn of the event loop here would send it only after every
            # other task that is ready has run (a node's rooms computing their next actions).
            # The send below checkpoints as it waits for the answer.
            try:
                self._slots.acquire_nowait()
            except trio.WouldBlock:
                await self._slots.acquire()
            try:
                if self._idle:
                    seconds = await self._send(self._idle.pop(), batch, epochs)
                    break
            except psycopg.errors.UniqueViolation as exc:
                raise RowsExist(str(exc).strip()) from exc
            finally:
                self._slots.release()
            await self._call(lambda db: None)  # open a connection; it waits, idle, for us
        self.metrics.observe_commit(seconds, len(batch))

    async def _send(self, db: PgLog, batch: list[Record], epochs: Mapping[int, int]) -> float:
        started = time.perf_counter()
        try:
            query = db.batch(batch, epochs)
        except BaseException:
            self._idle.append(db)  # nothing was sent: the connection is as it was
            raise
        answered = False  # the server has answered the whole batch (the connection may serve)
        try:
            with self._bounded(lambda: db.broken, outcome_unknown=True):
                try:
                    inline = self._inline_budget()
                    in_time = await db.send(query, inline)
                    if inline:
                        self._inline_outcome(in_time)
                except Exception as exc:  # a refusal comes once the whole answer is in
                    answered = isinstance(exc, Fenced) or (
                        isinstance(exc, psycopg.Error)
                        and not isinstance(exc, psycopg.OperationalError))
                    raise
                answered = True
        except Fenced:
            self.metrics.fenced_batches += 1
            raise
        finally:
            if answered and not db.broken and not self._closed:
                self._idle.append(db)
            else:  # timed out, cancelled or broken mid-batch: nobody may use it again
                # Its server process may still be running the batch (a frozen server runs it
                # when it thaws, before it notices the connection is gone): ended before
                # anything is read back (end_lost_batches), or a room rebuilt from the log
                # would meet that batch's commands after it had written its own.
                self._lost.add(db.backend)
                db.close()
        return time.perf_counter() - started

    def _inline_budget(self) -> float:
        """How long the next batch may wait for its answer inline (0: not at all)."""
        if self._inline_skip:
            self._inline_skip -= 1
            return 0.0
        return self.inline_wait

    def _inline_outcome(self, in_time: bool) -> None:
        if in_time:
            self.metrics.answered_inline += 1
            self._inline_backoff = 0
        else:
            self._inline_backoff = min(INLINE_BACKOFF, max(1, 2 * self._inline_backoff))
            self._inline_skip = self._inline_backoff

    async def write_dropping_fenced(self, records: Sequence[Record],
                                    epochs: Mapping[int, int]) -> frozenset[int]:
        """Commit ``records`` less those of rooms that turn out to be fenced; return those
        rooms (whose records were dropped, and which this node must stop serving)."""
        fenced: set[int] = set()
        batch = list(records)
        while batch:
            try:
                await self.write(batch, epochs)
                break
            except Fenced as exc:
                if not exc.rooms - fenced:  # pragma: no cover - the database named nothing new
                    raise
                fenced |= exc.rooms
                batch = [r for r in batch if getattr(r, "room", None) not in fenced]
        return frozenset(fenced)

    async def end_lost_batches(self) -> None:
        """Make the outcome of every batch whose answer was lost final: end the server
        processes that may still be running one (each committed it or never will). A room
        rebuilt at the epoch it was written under must read its log only after this: the
        epoch fences another node's claim against such a batch, but not the same node's own
        next batch, which would number its commands after what it read and meet the lost
        batch's commands (the same numbers) when that commits. Raises
        :class:`LogUnavailable` while the server cannot be asked or such a process outlives
        the wait; the next call tries again."""
        lost = set(self._lost)
        if not lost:
            return
        wait = self.timeout / (2 * len(lost))  # each waited for in turn, within the deadline
        if not await self._call(lambda db: db.end_backends(lost, wait)):
            raise LogUnavailable("a batch whose answer was lost is still running in PostgreSQL")
        self._lost -= lost

    async def claim(self, room: int, expected_epoch: int) -> int | None:
        """See :meth:`PgLog.claim`."""
        epoch = await self._call(lambda db: db.claim(room, expected_epoch))
        if epoch is None:
            self.metrics.claims_lost += 1
        else:
            self.metrics.claims += 1
        return epoch

    async def claim_many(self, expected: Mapping[int, int]) -> dict[int, int]:
        """See :meth:`PgLog.claim_many`."""
        claimed = await self._call(lambda db: db.claim_many(expected))
        self.metrics.claims += len(claimed)
        self.metrics.claims_lost += len(expected) - len(claimed)
        return claimed

    async def allocate_ids(self, kind: str, count: int) -> list[int]:
        return await self._call(lambda db: db.allocate_ids(kind, count))

    # ------------------------------------------------------------------ reading

    async def ping(self) -> None:
        """Raises :class:`LogUnavailable` unless PostgreSQL answers (for /healthz)."""
        await self._call(lambda db: db.ping())

    async def written(self, probes: Sequence[Probe]) -> list[bool]:
        return await self._call(lambda db: db.written(probes))

    async def owner(self, room: int) -> RoomOwner | None:
        return await self._call(lambda db: db.owner(room))

    async def owners_of(self, rooms: Sequence[int]) -> dict[int, RoomOwner]:
        return await self._call(lambda db: db.owners_of(rooms))

    async def owners(self, *, unfinished: bool = True) -> list[RoomOwner]:
        return await self._call(lambda db: db.owners(unfinished=unfinished))

    async def sessions(self) -> dict[str, str]:
        return await self._call(lambda db: db.sessions())

    async def session(self, token: str) -> str | None:
        return await self._call(lambda db: db.session(token))

    async def rooms(self, *, unfinished: bool = True) -> list[RoomRow]:
        return await self._call(lambda db: db.rooms(unfinished=unfinished))

    async def event_matches(self, event: int) -> list[int]:
        return await self._call(lambda db: db.event_matches(event))

    async def room(self, room: int) -> RoomRow | None:
        return await self._call(lambda db: db.room(room))

    async def seats(self, room: int) -> list[SeatRow]:
        return await self._call(lambda db: db.seats(room))

    async def games(self, room: int) -> list[GameRow]:
        return await self._call(lambda db: db.games(room))

    async def game(self, game: int) -> GameRow | None:
        return await self._call(lambda db: db.game(game))

    async def all_games(self) -> list[GameRow]:
        return await self._call(lambda db: db.all_games())

    async def commands(self, game: int) -> list[CommandRow]:
        return await self._call(lambda db: db.commands(game))

    async def stored_room(self, room: int) -> StoredRoom | None:
        return await self._call(lambda db: db.stored_room(room))

    async def stored_rooms(self, rooms: Sequence[int]) -> dict[int, StoredRoom]:
        return await self._call(lambda db: db.stored_rooms(rooms))
