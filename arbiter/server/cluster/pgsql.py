"""The SQL of the log: the statements that write a batch of records, and the rows read back.

Pure: no connection, no clock (the time is given), so every choice here is tested without a
server (tests/cluster/test_pgsql.py). :class:`~.pglog.PgLog` binds the parameters and sends
the lot as one message.

A batch is written as few statements as it can be: each run of records of one kind is one
statement, so that the fencing triggers (:mod:`.pgschema`) fire once per statement, not once per
row. A batch of several statements first checks every room it touches at once
(``arbiter_fence``), so that a refusal names every stale room of the batch; a batch of one
self-fenced statement (commands alone, the common case) leaves that to its trigger, which names
every stale room of its rows.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import msgpack

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
from arbiter.server.store.rows import CommandRow, GameRow, RoomRow, SeatRow

Statement = tuple[str, Sequence[Any]]  # SQL and its parameters (none: values written in)

# Kinds of record written by one statement whose trigger checks (and names) every room of its
# rows: a batch of only one of these needs no separate arbiter_fence() call first (the common
# batch, commands alone, is then one statement).
SELF_FENCED = frozenset({SeatSet, GameStarted, CommandAppended})


# --------------------------------------------------------------------------- values

def pack(value: Any) -> bytes:
    data: bytes = msgpack.packb(value, use_bin_type=True)
    return data


def opt_pack(value: Any) -> bytes | None:
    return None if value is None else pack(value)


def unpack(data: bytes | None) -> Any:
    if data is None:
        return None
    return msgpack.unpackb(data, raw=False, strict_map_key=False)


def name_bytes(value: str | None) -> bytes | None:
    # Names come from players: PostgreSQL's text type cannot hold every string a player may
    # send (a NUL), and one bad name must not fail a batch that holds everyone's commands.
    return None if value is None else value.encode("utf-8", "surrogatepass")


def name_text(value: bytes) -> str:
    return bytes(value).decode("utf-8", "surrogatepass")


def opt_name_text(value: bytes | None) -> str | None:
    return None if value is None else name_text(value)


def bytea_literal(value: bytes | None) -> str:
    """A ``bytea`` literal in hex: nothing in it needs escaping."""
    return "NULL" if value is None else "'\\x" + value.hex() + "'"


def text_literal(value: str | None) -> str:
    """A ``text`` literal, its quotes doubled: exact only where ``standard_conforming_strings``
    is on (:class:`~.pglog.PgLog` sets it on its connections)."""
    if value is None:
        return "NULL"
    if "\x00" in value:
        raise ValueError("PostgreSQL's text cannot hold a NUL")
    return "'" + value.replace("'", "''") + "'"


# --------------------------------------------------------------------------- writing

def fenced_rooms(records: Sequence[Record]) -> set[int]:
    """The rooms whose epochs a batch must carry (every room a record names)."""
    return {r.room for r in records if not isinstance(r, SessionCreated | SessionForgotten)}


def batch_statements(records: Sequence[Record], epochs: Mapping[int, int], node: str,
                     now: float) -> list[Statement]:
    """The statements that write ``records`` (in order) for ``node`` at time ``now``, each
    record about a room under ``epochs[room]``. Raises ValueError when a room has no epoch."""
    rooms = fenced_rooms(records)
    missing = rooms - epochs.keys()
    if missing:
        raise ValueError(f"no epoch given for room(s) {sorted(missing)}")
    created = {r.room for r in records if isinstance(r, RoomCreated)}
    checked = sorted(rooms - created)  # a room created in this batch has nothing to check yet
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
        statements += run_statements(kind, records[i:j], epochs, node, now)
        i = j
    return statements


def _last_by(records: Sequence[Any], key: Callable[[Any], Any]) -> list[Any]:
    """The last record for each key, in order: one statement may touch a row only once, and
    within a run of one kind the later record supersedes the earlier."""
    latest = {key(r): r for r in records}
    return list(latest.values())


def _columns(rows: Sequence[Sequence[Any]], count: int) -> list[list[Any]]:
    return [[row[i] for row in rows] for i in range(count)]


def _insert(head: str, rows: Sequence[Sequence[Any]], tail: str = "") -> Statement:
    """``INSERT ... VALUES`` with a row of placeholders per record: one statement (so a
    statement trigger fires once for the lot), whose scalar parameters psycopg binds in C; the
    same rows as arrays (``unnest``) cost three times as much to bind, in Python."""
    placeholders = "(" + ", ".join(["%s"] * len(rows[0])) + ")"
    return (f"{head} VALUES {', '.join([placeholders] * len(rows))}{tail}",
            [value for row in rows for value in row])


def run_statements(kind: type[Any], run: Sequence[Any], epochs: Mapping[int, int], node: str,
                   now: float) -> list[Statement]:
    """The SQL for a run of records of one kind: one statement, so that a trigger fires once
    per statement, not once per row (updates go over arrays, ``unnest``)."""
    if kind is SessionCreated:
        return [_insert("INSERT INTO sessions(token, name, created)",
                        [(r.token, name_bytes(r.name), now)
                         for r in _last_by(run, lambda r: r.token)],
                        " ON CONFLICT (token) DO UPDATE SET name = EXCLUDED.name, "
                        "created = EXCLUDED.created")]
    if kind is SessionForgotten:
        return [("DELETE FROM sessions WHERE token = ANY(%s::text[])",
                 ([r.token for r in run],))]
    if kind is RoomCreated:
        return [_insert("INSERT INTO rooms(id, name, config, creator, state, created, owner, "
                        "epoch)",
                        [(r.room, name_bytes(r.name), pack(r.config), r.creator, "waiting", now,
                          node, epochs[r.room]) for r in run])]
    if kind is RoomStateSet:
        cols = _columns([(r.room, r.state, epochs[r.room])
                         for r in _last_by(run, lambda r: r.room)], 3)
        return [("UPDATE rooms SET state = u.s, epoch = u.e FROM unnest(%s::bigint[], "
                 "%s::text[], %s::bigint[]) AS u(i, s, e) WHERE rooms.id = u.i", cols)]
    if kind is SeatSet:
        return [_insert("INSERT INTO seats(room, seat, token, session, name, deck, bot, epoch)",
                        [(r.room, r.seat, r.token, r.session, name_bytes(r.name),
                          opt_pack(r.deck), r.bot, epochs[r.room])
                         for r in _last_by(run, lambda r: (r.room, r.seat))],
                        " ON CONFLICT (room, seat) DO UPDATE SET token = EXCLUDED.token, "
                        "session = EXCLUDED.session, name = EXCLUDED.name, "
                        "deck = EXCLUDED.deck, bot = EXCLUDED.bot, epoch = EXCLUDED.epoch")]
    if kind is GameStarted:
        return [_insert("INSERT INTO games(id, room, number, seed, config, chooser, started, "
                        "epoch)",
                        [(r.game, r.room, r.number, r.seed, pack(r.config), r.chooser, now,
                          epochs[r.room]) for r in run])]
    if kind is CommandAppended:
        return [(command_insert(run, epochs, now), ())]
    if kind is GameFinished:
        cols = _columns([(r.game, pack(r.result), r.final_hash, epochs[r.room])
                         for r in _last_by(run, lambda r: r.game)], 4)
        return [("UPDATE games SET result = u.r, final_hash = u.h, epoch = u.e "
                 "FROM unnest(%s::bigint[], %s::bytea[], %s::text[], %s::bigint[]) "
                 "AS u(i, r, h, e) WHERE games.id = u.i", cols)]
    raise TypeError(f"not a log record: {kind.__name__}")


def command_insert(run: Sequence[CommandAppended], epochs: Mapping[int, int], now: float
                   ) -> str:
    """The ``INSERT`` of a run of commands (most of every batch) with its values written in,
    by hand rather than by psycopg's client-side binding, whose query parsing and per-value
    dispatch cost the node about 11 us an action. Every value is an int (``%d``: nothing else
    formats), the time (a float's repr), bytes (:func:`bytea_literal`) or the state hash
    (:func:`text_literal`)."""
    at = repr(float(now))
    rows = ",".join(
        f"({r.game:d},{r.n:d},{r.room:d},{bytea_literal(pack(r.command))},"
        f"{text_literal(r.hash)},{bytea_literal(opt_pack(r.clocks))},{at},{epochs[r.room]:d})"
        for r in run)
    return "INSERT INTO commands(game, n, room, command, hash, clocks, at, epoch) VALUES " + rows


# --------------------------------------------------------------------------- reading

SELECT_ROOM = "SELECT id, name, config, creator, state, created FROM rooms"
SELECT_SEAT = "SELECT room, seat, token, session, name, deck, bot FROM seats"
SELECT_GAME = ("SELECT id, room, number, seed, config, chooser, started, result, final_hash "
               "FROM games")
SELECT_COMMAND = "SELECT game, n, command, hash, clocks, at FROM commands"


def room_row(r: Sequence[Any]) -> RoomRow:
    """A row of :data:`SELECT_ROOM`."""
    return RoomRow(r[0], name_text(r[1]), unpack(r[2]), r[3], r[4], r[5])


def seat_row(r: Sequence[Any]) -> SeatRow:
    """A row of :data:`SELECT_SEAT`."""
    return SeatRow(r[0], r[1], r[2], r[3], opt_name_text(r[4]), unpack(r[5]), r[6])


def game_row(r: Sequence[Any]) -> GameRow:
    """A row of :data:`SELECT_GAME`."""
    return GameRow(r[0], r[1], r[2], r[3], unpack(r[4]), r[5], r[6], unpack(r[7]), r[8])


def command_row(r: Sequence[Any]) -> CommandRow:
    """A row of :data:`SELECT_COMMAND`."""
    return CommandRow(r[0], r[1], unpack(r[2]), r[3], unpack(r[4]), r[5])
