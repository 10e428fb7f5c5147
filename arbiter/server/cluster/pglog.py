"""The durable log of a cluster, in PostgreSQL: the twin of the SQLite :class:`Store`.

It holds what must not be lost and what any node needs to rebuild any room: sessions, rooms,
seats, games and every accepted command, written from the typed records of
:mod:`arbiter.server.store.records`, one transaction per batch (group commit, as in
:mod:`arbiter.server.store.gate`). Ids of rooms and games come from PostgreSQL sequences, so
they are unique across nodes.

Fencing (docs/cluster.md, "Fencing"). Every room row carries its owner node and an ``epoch``.
A node that takes a room over claims it with one compare-and-set statement that raises the
epoch by one. Every row a node writes for a room carries the epoch under which it believes it
owns the room, and PostgreSQL itself refuses a stale one:

- seats, games and commands have statement-level triggers that lock the rows of the rooms
  they touch ``FOR SHARE`` and raise ``AR001`` (naming the rooms) when an epoch differs;
- updating a room's row may leave its epoch as it is (an owner's write) or raise it by
  exactly one (a claim); lowering it (a stale owner's write) raises ``AR001``.

A claim's ``UPDATE`` needs a lock that conflicts with ``FOR SHARE``, so a claim and a stale
write cannot interleave: either the old owner's transaction took its locks first, and the claim
waits until it has committed (the new owner then replays those rows), or the claim came first,
and the old owner's transaction sees the new epoch and fails whole. A batch of several
statements also starts by checking all its rooms at once (same lock), so that :class:`Fenced`
names every stale room of the batch, not only those of the first statement that fails; a batch
of one statement (commands alone, the common case) leaves that to its trigger, which names
every stale room of its rows.

A batch goes to the server as one message (one round trip), run as one implicit transaction:
once the message is in, the server finishes it whether or not the node is still there, so a
node that freezes or is cut off mid-batch never leaves rooms locked. A node that hangs inside a
transaction of its own (a claim, a test) is ended by the server after
``idle_in_transaction_timeout``; a claim waits at most ``lock_timeout`` for a writer
(:class:`RoomBusy`). Names, which players choose, are kept as UTF-8 ``bytea``: PostgreSQL's
``text`` cannot hold a NUL, and one odd name must not fail a batch holding everyone's commands.

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
import os
import select
import socket
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import msgpack
import psycopg
import trio
from psycopg import pq
from psycopg.conninfo import conninfo_to_dict

from arbiter.server.store.records import (
    CommandAppended,
    GameFinished,
    GameStarted,
    Record,
    RoomCreated,
    RoomStateSet,
    SeatSet,
    SessionCreated,
    SessionForgotten,
)
from arbiter.server.store.rows import CommandRow, GameRow, RoomRow, SeatRow, StoredRoom

SCHEMA_VERSION = 1
STALE_EPOCH = "AR001"  # SQLSTATE of a refused stale write (ours: class AR is not PostgreSQL's)
EPOCH_JUMP = "AR002"  # an epoch raised by more than one claim: a bug, never a race
SCHEMA_LOCK = 0x4152_4249  # advisory lock held while a node creates or checks the schema

SCHEMA = """
CREATE TABLE IF NOT EXISTS arbiter_meta(
    key text PRIMARY KEY, value bigint NOT NULL);
CREATE TABLE IF NOT EXISTS sessions(
    token text PRIMARY KEY, name bytea NOT NULL, created double precision NOT NULL);
CREATE TABLE IF NOT EXISTS rooms(
    id bigint PRIMARY KEY, name bytea NOT NULL, config bytea NOT NULL, creator text,
    state text NOT NULL, created double precision NOT NULL,
    owner text NOT NULL, epoch bigint NOT NULL CHECK (epoch > 0));
CREATE INDEX IF NOT EXISTS rooms_unfinished ON rooms(id) WHERE state <> 'finished';
CREATE TABLE IF NOT EXISTS seats(
    room bigint NOT NULL, seat integer NOT NULL, token text, session text, name bytea,
    deck bytea, bot text, epoch bigint NOT NULL, PRIMARY KEY(room, seat));
CREATE TABLE IF NOT EXISTS games(
    id bigint PRIMARY KEY, room bigint NOT NULL, number integer NOT NULL,
    seed bigint NOT NULL, config bytea NOT NULL, chooser integer,
    started double precision NOT NULL, result bytea, final_hash text,
    epoch bigint NOT NULL);
CREATE INDEX IF NOT EXISTS games_by_room ON games(room, number);
CREATE TABLE IF NOT EXISTS commands(
    game bigint NOT NULL, n integer NOT NULL, room bigint NOT NULL, command bytea NOT NULL,
    hash text, clocks bytea, at double precision NOT NULL, epoch bigint NOT NULL,
    PRIMARY KEY(game, n));
CREATE SEQUENCE IF NOT EXISTS room_ids;
CREATE SEQUENCE IF NOT EXISTS game_ids;

-- Refuse the rows of a statement written under a stale epoch. The rooms are locked first,
-- FOR SHARE: a claim (an UPDATE of the room's row) must wait until this transaction ends, and
-- a claim that committed before is seen by the comparison that follows.
CREATE OR REPLACE FUNCTION arbiter_fence_rows() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    stale bigint[];
BEGIN
    PERFORM 1 FROM rooms WHERE id IN (SELECT room FROM new_rows) ORDER BY id FOR SHARE;
    SELECT array_agg(DISTINCT n.room ORDER BY n.room) INTO stale
      FROM new_rows n LEFT JOIN rooms r ON r.id = n.room
     WHERE r.epoch IS DISTINCT FROM n.epoch;
    IF stale IS NOT NULL THEN
        RAISE EXCEPTION USING ERRCODE = 'AR001', DETAIL = array_to_string(stale, ','),
            MESSAGE = format('stale epoch: room(s) %s belong to a newer epoch (%s)',
                             array_to_string(stale, ', '), TG_TABLE_NAME);
    END IF;
    RETURN NULL;
END $$;

-- A room's epoch stays (its owner writes) or rises by one (a claim); lowered, it is a stale
-- owner's write.
CREATE OR REPLACE FUNCTION arbiter_fence_room() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.epoch < OLD.epoch THEN
        RAISE EXCEPTION USING ERRCODE = 'AR001', DETAIL = OLD.id::text,
            MESSAGE = format('stale epoch: room %s is at epoch %s, the write was under %s',
                             OLD.id, OLD.epoch, NEW.epoch);
    ELSIF NEW.epoch > OLD.epoch + 1 THEN
        RAISE EXCEPTION USING ERRCODE = 'AR002', DETAIL = OLD.id::text,
            MESSAGE = format('room %s: epoch %s may only rise by one claim, not to %s',
                             OLD.id, OLD.epoch, NEW.epoch);
    END IF;
    RETURN NEW;
END $$;

-- The whole batch at once, before any write, so the error names every stale room.
CREATE OR REPLACE FUNCTION arbiter_fence(rooms_ bigint[], epochs_ bigint[])
RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    stale bigint[];
BEGIN
    PERFORM 1 FROM rooms WHERE id = ANY(rooms_) ORDER BY id FOR SHARE;
    SELECT array_agg(w.room ORDER BY w.room) INTO stale
      FROM unnest(rooms_, epochs_) AS w(room, epoch) LEFT JOIN rooms r ON r.id = w.room
     WHERE r.epoch IS DISTINCT FROM w.epoch;
    IF stale IS NOT NULL THEN
        RAISE EXCEPTION USING ERRCODE = 'AR001', DETAIL = array_to_string(stale, ','),
            MESSAGE = format('stale epoch: room(s) %s belong to a newer epoch',
                             array_to_string(stale, ', '));
    END IF;
END $$;

CREATE OR REPLACE TRIGGER rooms_fence BEFORE UPDATE OF epoch ON rooms
    FOR EACH ROW EXECUTE FUNCTION arbiter_fence_room();
"""
# Transition tables allow one event per trigger: an INSERT and an UPDATE trigger per table.
SCHEMA += "".join(
    f"CREATE OR REPLACE TRIGGER {table}_fence_{event.lower()} AFTER {event} ON {table} "
    f"REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT "
    f"EXECUTE FUNCTION arbiter_fence_rows();\n"
    for table in ("seats", "games", "commands") for event in ("INSERT", "UPDATE"))


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


class LogUnavailable(Exception):
    """PostgreSQL could not be reached or did not answer in time. For a write,
    ``outcome_unknown`` says whether the batch may nevertheless have been committed (the
    answer was lost): the caller must then treat its rooms as unknown and rebuild them."""

    def __init__(self, message: str, *, outcome_unknown: bool = False) -> None:
        super().__init__(message)
        self.outcome_unknown = outcome_unknown


@dataclass(frozen=True)
class RoomOwner:
    """Who owns a room in the log, and under which epoch."""

    room: int
    owner: str
    epoch: int
    state: str


def _pack(value: Any) -> bytes:
    data: bytes = msgpack.packb(value, use_bin_type=True)
    return data


def _opt_pack(value: Any) -> bytes | None:
    return None if value is None else _pack(value)


def _unpack(data: bytes | None) -> Any:
    if data is None:
        return None
    return msgpack.unpackb(data, raw=False, strict_map_key=False)


def _utf8(value: str | None) -> bytes | None:
    # Names come from players: PostgreSQL's text type cannot hold every string a player may
    # send (a NUL), and one bad name must not fail a batch that holds everyone's commands.
    return None if value is None else value.encode("utf-8", "surrogatepass")


def _text(value: bytes) -> str:
    return bytes(value).decode("utf-8", "surrogatepass")


def _opt_text(value: bytes | None) -> str | None:
    return None if value is None else _text(value)


def _last_by(records: Sequence[Any], key: Callable[[Any], Any]) -> list[Any]:
    """The last record for each key, in order: one statement may touch a row only once, and
    within a run of one kind the later record supersedes the earlier."""
    latest = {key(r): r for r in records}
    return list(latest.values())


def _columns(rows: Sequence[Sequence[Any]], count: int) -> list[list[Any]]:
    return [[row[i] for row in rows] for i in range(count)] if rows else [[] for _ in
                                                                           range(count)]


Statement = tuple[str, Sequence[Any]]  # SQL and its parameters (none: values written in)


def _insert(head: str, rows: Sequence[Sequence[Any]], tail: str = "") -> Statement:
    """``INSERT ... VALUES`` with a row of placeholders per record: one statement (so a
    statement trigger fires once for the lot), whose scalar parameters psycopg binds in C; the
    same rows as arrays (``unnest``) cost three times as much to bind, in Python."""
    placeholders = "(" + ", ".join(["%s"] * len(rows[0])) + ")"
    return (f"{head} VALUES {', '.join([placeholders] * len(rows))}{tail}",
            [value for row in rows for value in row])


def _statements(kind: type[Any], run: Sequence[Any], epochs: Mapping[int, int], node: str,
                now: float) -> list[Statement]:
    """The SQL for a run of records of one kind: one statement, so that a trigger fires once
    per statement, not once per row (updates go over arrays, ``unnest``)."""
    if kind is SessionCreated:
        return [_insert("INSERT INTO sessions(token, name, created)",
                        [(r.token, _utf8(r.name), now)
                         for r in _last_by(run, lambda r: r.token)],
                        " ON CONFLICT (token) DO UPDATE SET name = EXCLUDED.name, "
                        "created = EXCLUDED.created")]
    if kind is SessionForgotten:
        return [("DELETE FROM sessions WHERE token = ANY(%s::text[])",
                 ([r.token for r in run],))]
    if kind is RoomCreated:
        return [_insert("INSERT INTO rooms(id, name, config, creator, state, created, owner, "
                        "epoch)",
                        [(r.room, _utf8(r.name), _pack(r.config), r.creator, "waiting", now,
                          node, epochs[r.room]) for r in run])]
    if kind is RoomStateSet:
        cols = _columns([(r.room, r.state, epochs[r.room])
                         for r in _last_by(run, lambda r: r.room)], 3)
        return [("UPDATE rooms SET state = u.s, epoch = u.e FROM unnest(%s::bigint[], "
                 "%s::text[], %s::bigint[]) AS u(i, s, e) WHERE rooms.id = u.i", cols)]
    if kind is SeatSet:
        return [_insert("INSERT INTO seats(room, seat, token, session, name, deck, bot, epoch)",
                        [(r.room, r.seat, r.token, r.session, _utf8(r.name),
                          _opt_pack(r.deck), r.bot, epochs[r.room])
                         for r in _last_by(run, lambda r: (r.room, r.seat))],
                        " ON CONFLICT (room, seat) DO UPDATE SET token = EXCLUDED.token, "
                        "session = EXCLUDED.session, name = EXCLUDED.name, "
                        "deck = EXCLUDED.deck, bot = EXCLUDED.bot, epoch = EXCLUDED.epoch")]
    if kind is GameStarted:
        return [_insert("INSERT INTO games(id, room, number, seed, config, chooser, started, "
                        "epoch)",
                        [(r.game, r.room, r.number, r.seed, _pack(r.config), r.chooser, now,
                          epochs[r.room]) for r in run])]
    if kind is CommandAppended:
        return [(_command_insert(run, epochs, now), ())]
    if kind is GameFinished:
        cols = _columns([(r.game, _pack(r.result), r.final_hash, epochs[r.room])
                         for r in _last_by(run, lambda r: r.game)], 4)
        return [("UPDATE games SET result = u.r, final_hash = u.h, epoch = u.e "
                 "FROM unnest(%s::bigint[], %s::bytea[], %s::text[], %s::bigint[]) "
                 "AS u(i, r, h, e) WHERE games.id = u.i", cols)]
    raise TypeError(f"not a log record: {kind.__name__}")


def _command_insert(run: Sequence[CommandAppended], epochs: Mapping[int, int], now: float
                    ) -> str:
    """The ``INSERT`` of a run of commands (most of every batch) with its values written in,
    by hand rather than by psycopg's client-side binding, whose query parsing and per-value
    dispatch cost the node about 11 us an action. Every value is an int (``%d``: nothing else
    formats), the time (a float's repr), bytes (``'\\x...'``, hex: nothing to escape) or the
    state hash, text quoted by doubling its quotes, which is exact because the connection runs
    with ``standard_conforming_strings`` on (:class:`PgLog` sets it)."""
    at = repr(float(now))
    rows = ",".join(
        f"({r.game:d},{r.n:d},{r.room:d},{_bytea(_pack(r.command))},{_text_literal(r.hash)},"
        f"{_bytea(_opt_pack(r.clocks))},{at},{epochs[r.room]:d})" for r in run)
    return "INSERT INTO commands(game, n, room, command, hash, clocks, at, epoch) VALUES " + rows


def _bytea(value: bytes | None) -> str:
    return "NULL" if value is None else "'\\x" + value.hex() + "'"


def _text_literal(value: str | None) -> str:
    if value is None:
        return "NULL"
    if "\x00" in value:
        raise ValueError("PostgreSQL's text cannot hold a NUL")
    return "'" + value.replace("'", "''") + "'"


# Kinds of record written by one statement whose trigger checks (and names) every room of its
# rows: a batch of only one of these needs no separate arbiter_fence() call first (the common
# batch, commands alone, is then one statement).
SELF_FENCED = frozenset({SeatSet, GameStarted, CommandAppended})


def fenced_rooms(records: Sequence[Record]) -> set[int]:
    """The rooms whose epochs a batch must carry (every room a record names)."""
    return {r.room for r in records if not isinstance(r, SessionCreated | SessionForgotten)}


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
        options = ("-c standard_conforming_strings=on "  # what _command_insert's quoting needs
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
        """Create the tables, triggers and sequences unless they are there (every node does
        it at start; an advisory lock makes them take turns, and a node joining a running
        cluster finds the schema in place and touches no table)."""
        with self.conn.transaction():
            self.conn.execute("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_LOCK,))
            version = None
            if self.conn.execute("SELECT to_regclass('arbiter_meta')").fetchone() != (None,):
                row = self.conn.execute(
                    "SELECT value FROM arbiter_meta WHERE key = 'schema'").fetchone()
                version = None if row is None else int(row[0])
            if version is None:
                self.conn.execute(SCHEMA)
                self.conn.execute("INSERT INTO arbiter_meta(key, value) VALUES ('schema', %s)",
                                  (SCHEMA_VERSION,))
            elif version != SCHEMA_VERSION:
                raise RuntimeError(f"the log's schema is version {version}; this arbiter "
                                   f"knows version {SCHEMA_VERSION}")

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
        have their values written in by :func:`_command_insert`; a batch of commands alone,
        the common one, never reaches psycopg's binding."""
        rooms = fenced_rooms(records)
        missing = rooms - epochs.keys()
        if missing:
            raise ValueError(f"no epoch given for room(s) {sorted(missing)}")
        created = {r.room for r in records if isinstance(r, RoomCreated)}
        checked = sorted(rooms - created)
        now = time.time()
        kinds = {type(r) for r in records}
        statements: list[Statement] = []
        if checked and not (len(kinds) == 1 and kinds <= SELF_FENCED):
            statements.append(("SELECT arbiter_fence(%s::bigint[], %s::bigint[])",
                               (checked, [epochs[r] for r in checked])))
        i = 0
        while i < len(records):  # runs of one kind of record go in one statement
            kind = type(records[i])
            j = i + 1
            while j < len(records) and type(records[j]) is kind:
                j += 1
            statements += _statements(kind, records[i:j], epochs, self.node, now)
            i = j
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
        compare-and-set in one statement). Returns the new epoch, or None when the room is
        missing, finished, or no longer at ``expected_epoch`` (another node claimed it).
        Raises :class:`RoomBusy` if a writer holds the room longer than ``lock_timeout``."""
        try:
            row = self.conn.execute(
                "UPDATE rooms SET epoch = epoch + 1, owner = %s "
                "WHERE id = %s AND epoch = %s AND state <> 'finished' RETURNING epoch",
                (self.node, room, expected_epoch)).fetchone()
        except psycopg.errors.LockNotAvailable:
            raise RoomBusy(room) from None
        return None if row is None else int(row[0])

    def allocate_ids(self, kind: str, count: int) -> list[int]:
        """``count`` fresh ids for rooms or games, unique across every node."""
        sequence = {"rooms": "room_ids", "games": "game_ids"}[kind]
        rows = self.conn.execute(
            f"SELECT nextval('{sequence}') FROM generate_series(1, %s)", (count,)).fetchall()
        return [int(r[0]) for r in rows]

    # ------------------------------------------------------------------ reading

    def ping(self) -> None:
        self.conn.execute("SELECT 1")

    def owner(self, room: int) -> RoomOwner | None:
        row = self.conn.execute("SELECT id, owner, epoch, state FROM rooms WHERE id = %s",
                                (room,)).fetchone()
        return None if row is None else RoomOwner(*row)

    def owners(self, *, unfinished: bool = True) -> list[RoomOwner]:
        sql = "SELECT id, owner, epoch, state FROM rooms"
        if unfinished:
            sql += " WHERE state <> 'finished'"
        return [RoomOwner(*r) for r in self.conn.execute(sql + " ORDER BY id")]

    def sessions(self) -> dict[str, str]:
        return {t: _text(n) for t, n in self.conn.execute("SELECT token, name FROM sessions")}

    def session(self, token: str) -> str | None:
        """The name of the session with this token, if it exists."""
        row = self.conn.execute("SELECT name FROM sessions WHERE token = %s",
                                (token,)).fetchone()
        return None if row is None else _text(row[0])

    _ROOM = "SELECT id, name, config, creator, state, created FROM rooms"

    def rooms(self, *, unfinished: bool = True) -> list[RoomRow]:
        sql = self._ROOM + (" WHERE state <> 'finished'" if unfinished else "")
        return [self._room(r) for r in self.conn.execute(sql + " ORDER BY id")]

    def room(self, room: int) -> RoomRow | None:
        r = self.conn.execute(self._ROOM + " WHERE id = %s", (room,)).fetchone()
        return None if r is None else self._room(r)

    @staticmethod
    def _room(r: Sequence[Any]) -> RoomRow:
        return RoomRow(r[0], _text(r[1]), _unpack(r[2]), r[3], r[4], r[5])

    def seats(self, room: int) -> list[SeatRow]:
        return [SeatRow(r[0], r[1], r[2], r[3], _opt_text(r[4]), _unpack(r[5]), r[6])
                for r in self.conn.execute(
            "SELECT room, seat, token, session, name, deck, bot FROM seats WHERE room = %s "
            "ORDER BY seat", (room,))]

    _GAME = "SELECT id, room, number, seed, config, chooser, started, result, final_hash FROM games"

    @staticmethod
    def _game(r: Sequence[Any]) -> GameRow:
        return GameRow(r[0], r[1], r[2], r[3], _unpack(r[4]), r[5], r[6], _unpack(r[7]), r[8])

    def games(self, room: int) -> list[GameRow]:
        return [self._game(r) for r in self.conn.execute(
            self._GAME + " WHERE room = %s ORDER BY number", (room,))]

    def game(self, game: int) -> GameRow | None:
        r = self.conn.execute(self._GAME + " WHERE id = %s", (game,)).fetchone()
        return None if r is None else self._game(r)

    def all_games(self) -> list[GameRow]:
        return [self._game(r) for r in self.conn.execute(self._GAME + " ORDER BY id")]

    def commands(self, game: int) -> list[CommandRow]:
        return [CommandRow(r[0], r[1], _unpack(r[2]), r[3], _unpack(r[4]), r[5])
                for r in self.conn.execute(
                    "SELECT game, n, command, hash, clocks, at FROM commands WHERE game = %s "
                    "ORDER BY n", (game,))]

    def stored_room(self, room: int) -> StoredRoom | None:
        """What a node needs to rebuild ``room`` (as ``Store.stored_rooms`` gives for each
        room), read in one snapshot so that no batch lands halfway through; None when the
        room is unknown or finished."""
        with self.conn.transaction():
            self.conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
            row = self.room(room)
            if row is None or row.state == "finished":
                return None
            return StoredRoom.read(row, self.seats(room), self.games(room), self.commands,
                                   self.session)


# --------------------------------------------------------------------------- the trio facade

T = TypeVar("T")

# How long a batch may wait for its answer before giving the event loop a turn (seconds), and
# at most how many batches skip that wait after it was missed (ClusterLog).
INLINE_WAIT = 0.001
INLINE_BACKOFF = 64

# Upper bounds (seconds) of the commit latency histogram's buckets, for /metrics.
LATENCY_BUCKETS = (0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0)


@dataclass
class LogMetrics:
    commits: int = 0
    rows_written: int = 0
    commit_seconds: float = 0.0
    commit_seconds_max: float = 0.0
    fenced_batches: int = 0
    answered_inline: int = 0  # batches whose answer came within the inline wait
    failures: int = 0  # calls that raised LogUnavailable
    claims: int = 0
    claims_lost: int = 0

    def __post_init__(self) -> None:
        self.latency_counts = [0] * len(LATENCY_BUCKETS)

    def observe_commit(self, seconds: float, rows: int) -> None:
        self.commits += 1
        self.rows_written += rows
        self.commit_seconds += seconds
        self.commit_seconds_max = max(self.commit_seconds_max, seconds)
        for i, bound in enumerate(LATENCY_BUCKETS):
            if seconds <= bound:
                self.latency_counts[i] += 1

    def samples(self) -> list[tuple[str, str, str, list[tuple[dict[str, str], float]]]]:
        """Metric families in the shape :func:`arbiter.server.net.metrics.render` takes."""
        by_latency: list[tuple[dict[str, str], float]] = [
            ({"le": repr(b)}, n) for b, n in zip(LATENCY_BUCKETS, self.latency_counts,
                                                  strict=True)]
        by_latency.append(({"le": "+Inf"}, self.commits))
        return [
            ("arbiter_pg_commits_total", "counter", "Log batches committed to PostgreSQL.",
             [({}, self.commits)]),
            ("arbiter_pg_rows_total", "counter", "Log records written to PostgreSQL.",
             [({}, self.rows_written)]),
            ("arbiter_pg_commits_by_latency_total", "counter",
             "Commits that took at most le seconds (cumulative, as histogram buckets).",
             by_latency),
            ("arbiter_pg_commit_seconds_total", "counter", "Time spent committing the log.",
             [({}, round(self.commit_seconds, 6))]),
            ("arbiter_pg_commit_seconds_max", "gauge", "The slowest commit so far.",
             [({}, round(self.commit_seconds_max, 6))]),
            ("arbiter_pg_commits_answered_inline_total", "counter",
             "Batches whose answer came while the node waited for it without giving the "
             "event loop a turn (see docs/cluster.md).", [({}, self.answered_inline)]),
            ("arbiter_pg_fenced_batches_total", "counter",
             "Batches refused because a room had been claimed by another node.",
             [({}, self.fenced_batches)]),
            ("arbiter_pg_failures_total", "counter",
             "Log calls that failed because PostgreSQL was unreachable or too slow.",
             [({}, self.failures)]),
            ("arbiter_pg_claims_total", "counter", "Rooms claimed (epoch raised) in the log.",
             [({}, self.claims)]),
            ("arbiter_pg_claims_lost_total", "counter",
             "Claims that found the room at another epoch (another node was first).",
             [({}, self.claims_lost)]),
        ]


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

    async def claim(self, room: int, expected_epoch: int) -> int | None:
        """See :meth:`PgLog.claim`."""
        epoch = await self._call(lambda db: db.claim(room, expected_epoch))
        if epoch is None:
            self.metrics.claims_lost += 1
        else:
            self.metrics.claims += 1
        return epoch

    async def allocate_ids(self, kind: str, count: int) -> list[int]:
        return await self._call(lambda db: db.allocate_ids(kind, count))

    # ------------------------------------------------------------------ reading

    async def ping(self) -> None:
        """Raises :class:`LogUnavailable` unless PostgreSQL answers (for /healthz)."""
        await self._call(lambda db: db.ping())

    async def owner(self, room: int) -> RoomOwner | None:
        return await self._call(lambda db: db.owner(room))

    async def owners(self, *, unfinished: bool = True) -> list[RoomOwner]:
        return await self._call(lambda db: db.owners(unfinished=unfinished))

    async def sessions(self) -> dict[str, str]:
        return await self._call(lambda db: db.sessions())

    async def session(self, token: str) -> str | None:
        return await self._call(lambda db: db.session(token))

    async def rooms(self, *, unfinished: bool = True) -> list[RoomRow]:
        return await self._call(lambda db: db.rooms(unfinished=unfinished))

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


class IdsExhausted(Exception):
    """No id left in hand: the pool was not refilled in time."""


class IdPool:
    """Room or game ids handed out without waiting (the room layer is synchronous), from
    blocks fetched ahead from the log's sequence. Call :meth:`refill` from a task whenever
    :attr:`low` says so."""

    def __init__(self, log: ClusterLog, kind: str, *, block: int = 32, low_water: int = 8
                 ) -> None:
        if kind not in ("rooms", "games"):
            raise ValueError("kind must be rooms or games")
        self.log = log
        self.kind = kind
        self.block = block
        self.low_water = low_water
        self._ids: list[int] = []
        self._lock = trio.Lock()

    @property
    def left(self) -> int:
        return len(self._ids)

    @property
    def low(self) -> bool:
        return len(self._ids) < self.low_water

    def take(self) -> int:
        if not self._ids:
            raise IdsExhausted(f"no {self.kind} id in hand; refill the pool first")
        return self._ids.pop(0)

    async def take_waiting(self) -> int:
        """An id, fetching a block first whenever none is in hand: for a caller that may
        wait (a create's lookup), so that a burst larger than a block waits, never fails."""
        while not self._ids:
            await self.refill()
        return self.take()

    async def refill(self) -> None:
        async with self._lock:
            if self.low:
                self._ids += await self.log.allocate_ids(self.kind, self.block)
