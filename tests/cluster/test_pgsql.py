"""The log's SQL, without a server: which statements a batch becomes, how values are written in,
and how rows come back (arbiter/server/cluster/pgsql.py). What only PostgreSQL can show (the
triggers refusing a stale epoch, a batch failing whole) is in test_pglog.py."""

from __future__ import annotations

import re

import msgpack
import pytest

from arbiter.server.cluster.pgsql import (
    batch_statements,
    bytea_literal,
    command_insert,
    command_row,
    game_row,
    name_bytes,
    name_text,
    room_row,
    seat_row,
    text_literal,
)
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

NOW = 1_700_000_000.25


def _command(room: int, game: int, n: int, hash_: str | None = None) -> CommandAppended:
    return CommandAppended(room, game, n, {"kind": "act", "serial": n, "action": 0}, hash_,
                           None)


def _verbs(records: list[Record], epochs: dict[int, int]) -> list[str]:
    """Each statement's first words: what it does, and to which table."""
    return [" ".join(sql.split()[:3]) for sql, _ in batch_statements(records, epochs, "A", NOW)]


def test_a_batch_of_commands_alone_is_one_statement_with_its_values_written_in() -> None:
    # The common batch: its trigger checks every room of its rows, so no arbiter_fence() call
    # goes first, and nothing is left for psycopg to bind.
    batch: list[Record] = [_command(1, 10, 1), _command(2, 20, 5, "h5"), _command(1, 10, 2)]
    [(sql, params)] = batch_statements(batch, {1: 3, 2: 7}, "A", NOW)
    assert params == ()
    assert sql.startswith("INSERT INTO commands(game, n, room, command, hash, clocks, at, epoch)")
    rows = re.findall(r"\((\d+),(\d+),(\d+),'\\x([0-9a-f]+)',([^,]+),NULL,([\d.]+),(\d+)\)", sql)
    assert [(g, n, room, h, at, e) for g, n, room, _, h, at, e in rows] == [
        ("10", "1", "1", "NULL", repr(NOW), "3"), ("20", "5", "2", "'h5'", repr(NOW), "7"),
        ("10", "2", "1", "NULL", repr(NOW), "3")]
    assert msgpack.unpackb(bytes.fromhex(rows[1][3])) == _command(2, 20, 5).command


def test_a_mixed_batch_first_checks_every_room_it_did_not_create() -> None:
    batch: list[Record] = [RoomCreated(5, "New", {}, None), SeatSet(5, 0, "s", None, "A", None),
                           _command(3, 30, 4), RoomStateSet(1, "paused")]
    statements = batch_statements(batch, {1: 2, 3: 9, 5: 1}, "A", NOW)
    sql, params = statements[0]
    assert sql == "SELECT arbiter_fence(%s::bigint[], %s::bigint[])"
    assert params == ([1, 3], [2, 9])  # room 5 is new in this batch: nothing to check yet
    assert len(statements) == 1 + 4


def test_a_batch_without_rooms_or_of_one_self_checked_kind_needs_no_separate_check() -> None:
    assert _verbs([SessionCreated("t", "Ann"), SessionForgotten("u")], {}) == [
        "INSERT INTO sessions(token,", "DELETE FROM sessions"]
    seats: list[Record] = [SeatSet(1, 0, "s", None, "A", None), SeatSet(2, 1, "s", None, "B", None)]
    assert _verbs(seats, {1: 1, 2: 1}) == ["INSERT INTO seats(room,"]
    finished: list[Record] = [GameFinished(1, 10, {"winners": [0]}, "h")]  # not self-checked
    assert _verbs(finished, {1: 1})[0] == "SELECT arbiter_fence(%s::bigint[], %s::bigint[])"


def test_each_run_of_one_kind_is_one_statement_in_the_batch_s_order() -> None:
    batch: list[Record] = [SessionCreated("a", "Ann"), SessionCreated("b", "Bob"),
                           RoomCreated(1, "Room", {}, "a"), SessionCreated("c", "Cid"),
                           GameStarted(1, 10, 1, 7, {}, None), _command(1, 10, 1),
                           _command(1, 10, 2)]
    assert _verbs(batch, {1: 1}) == [
        "INSERT INTO sessions(token,", "INSERT INTO rooms(id,", "INSERT INTO sessions(token,",
        "INSERT INTO games(id,", "INSERT INTO commands(game,"]


def test_within_a_run_the_later_record_for_a_row_wins() -> None:
    # One statement may touch a row only once (ON CONFLICT would refuse it otherwise).
    seats: list[Record] = [SeatSet(1, 0, "s0", "t", "Ann", None),
                           SeatSet(1, 1, "s1", "u", "Bob", None),
                           SeatSet(1, 0, "s0", "t", "Ann", {"main": ["Forest"]})]
    [(sql, params)] = batch_statements(seats, {1: 4}, "A", NOW)
    assert sql.count("(%s, %s, %s, %s, %s, %s, %s, %s)") == 2
    assert list(params)[:8] == [1, 0, "s0", "t", b"Ann",
                                msgpack.packb({"main": ["Forest"]}), None, 4]
    states: list[Record] = [RoomStateSet(1, "playing"), RoomStateSet(2, "playing"),
                            RoomStateSet(1, "finished")]
    [_, (_, columns)] = batch_statements(states, {1: 2, 2: 3}, "A", NOW)
    assert list(columns) == [[1, 2], ["finished", "playing"], [2, 3]]


def test_a_new_room_is_written_with_its_creator_node_and_epoch() -> None:
    [(sql, params)] = batch_statements([RoomCreated(8, "Room", {"seats": 2}, "tok")], {8: 1},
                                       "node-A", NOW)
    assert sql.startswith("INSERT INTO rooms(id, name, config, creator, state, created, owner, "
                          "epoch) VALUES (%s, %s, %s, %s, %s, %s, %s, %s)")
    assert list(params) == [8, b"Room", msgpack.packb({"seats": 2}), "tok", "waiting", NOW,
                            "node-A", 1]


def test_a_batch_must_carry_every_room_s_epoch() -> None:
    with pytest.raises(ValueError, match=r"no epoch given for room\(s\) \[2, 3\]"):
        batch_statements([_command(1, 1, 1), _command(2, 2, 1), SeatSet(3, 0, None, None, None,
                                                                         None)], {1: 1}, "A", NOW)


def test_only_log_records_become_sql() -> None:
    class Stray:
        room = 1

    with pytest.raises(TypeError, match="not a log record: Stray"):
        batch_statements([Stray()], {1: 1}, "A", NOW)  # type: ignore[list-item]


def test_values_written_into_the_sql_cannot_break_out_of_their_literal() -> None:
    assert text_literal(None) == "NULL"
    assert text_literal("it's") == "'it''s'"
    assert text_literal("'); DROP TABLE rooms; --") == "'''); DROP TABLE rooms; --'"
    assert text_literal("back\\slash") == "'back\\slash'"  # standard strings: kept as is
    with pytest.raises(ValueError, match="NUL"):
        text_literal("nul\x00")
    assert bytea_literal(None) == "NULL"
    assert bytea_literal(b"\x00'\\") == "'\\x00275c'"
    sql = command_insert([_command(1, 1, 1, "h'1\\")], {1: 1}, NOW)
    assert ",'h''1\\'," in sql


def test_any_name_a_player_may_send_round_trips_through_bytea() -> None:
    for name in ["Ann", "nul\x00byte", "ace \U0001f0a1", "lone \ud800 surrogate", ""]:
        encoded = name_bytes(name)
        assert encoded is not None and name_text(encoded) == name
    assert name_bytes(None) is None


def test_rows_read_back_decode_names_and_packed_values() -> None:
    config = msgpack.packb({"seats": 2})
    assert room_row((1, b"Room \xf0\x9f\x82\xa1", config, "tok", "waiting", 5.0)) == RoomRow(
        1, "Room \U0001f0a1", {"seats": 2}, "tok", "waiting", 5.0)
    assert seat_row((1, 0, "s", "tok", None, None, "random")) == SeatRow(
        1, 0, "s", "tok", None, None, "random")
    assert game_row((10, 1, 1, 7, config, None, 5.0, None, None)) == GameRow(
        10, 1, 1, 7, {"seats": 2}, None, 5.0, None, None)
    assert command_row((10, 3, msgpack.packb({"k": 1}), "h", msgpack.packb([1, 2]), 6.0)
                       ) == CommandRow(10, 3, {"k": 1}, "h", [1, 2], 6.0)
