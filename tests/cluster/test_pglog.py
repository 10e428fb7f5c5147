"""The durable log in a real PostgreSQL: the SQLite store's twin, ids unique across nodes, and
fencing that PostgreSQL itself enforces (docs/cluster.md, "Fencing")."""

from __future__ import annotations

import itertools
import os
import threading
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import psycopg
import pytest
import trio
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arbiter.server.cluster.idpool import IdPool, IdsExhausted
from arbiter.server.cluster.pglog import (
    INLINE_BACKOFF,
    ClusterLog,
    Fenced,
    PgLog,
    RoomBusy,
    RoomOwner,
    RowsExist,
)
from arbiter.server.net.metrics import render
from arbiter.server.store.db import Store
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

from .helpers import wait_for

DECK = {"main": ["Forest"] * 20, "side": []}


@pytest.fixture
async def log(dsn: str) -> AsyncIterator[ClusterLog]:
    async with ClusterLog(dsn, node="A") as log:
        yield log


@pytest.fixture
async def log_b(dsn: str, log: ClusterLog) -> AsyncIterator[ClusterLog]:
    """Another node on the same log (after ``log`` has created the schema)."""
    async with ClusterLog(dsn, node="B") as log_b:
        yield log_b


@pytest.fixture
def sync_logs(dsn: str) -> Iterator[Callable[..., PgLog]]:
    """Open :class:`PgLog` connections (closed at the end), for driving transactions by hand."""
    opened: list[PgLog] = []

    def open_log(node: str, **options: Any) -> PgLog:
        db = PgLog(dsn, node=node, **options)
        db.ensure_schema()
        opened.append(db)
        return db

    yield open_log
    for db in opened:
        db.close()


def _command(room: int, game: int, n: int) -> CommandAppended:
    return CommandAppended(room, game, n, {"kind": "act", "player": n % 2, "serial": n,
                                           "action": 0}, f"h{n}" if n % 2 else None,
                           [1000 * n, 2000] if n % 3 else None)


def _match(room: int, game: int) -> list[Record]:
    """A whole match's life in records, as the rooms produce them."""
    return [
        SessionCreated("tok-ann", "Ann"), SessionCreated("tok-bob", "Bob"),
        RoomCreated(room, f"Room {room}", {"seats": 2, "format": "standard"}, "tok-ann"),
        SeatSet(room, 0, "seat-0", "tok-ann", "Ann", None),
        SeatSet(room, 0, "seat-0", "tok-ann", "Ann", DECK),  # the later record wins
        SeatSet(room, 1, "seat-1", "tok-bob", "Bob", DECK),
        GameStarted(room, game, 1, 2**62, {"players": ["Ann", "Bob"]}, 1),
        RoomStateSet(room, "playing"),
        *[_command(room, game, n) for n in range(1, 8)],
    ]


def _ending(room: int, game: int) -> list[Record]:
    return [GameFinished(room, game, {"winners": [0], "reason": "concession"}, "final"),
            SeatSet(room, 1, None, None, None, None), RoomStateSet(room, "finished"),
            SessionForgotten("tok-bob")]


def _without_times(value: Any) -> Any:
    """Rows less the write times (each store stamps its own)."""
    if isinstance(value, list):
        return [_without_times(v) for v in value]
    for field in ("created", "started", "at"):
        if hasattr(value, field):
            value = replace(value, **{field: 0.0})
    return value


# --------------------------------------------------------------------------- the twin

async def test_every_record_kind_round_trips_as_in_the_sqlite_store(
        log: ClusterLog, tmp_path: Path) -> None:
    sqlite = Store.open_dir(tmp_path)
    [room] = await log.allocate_ids("rooms", 1)
    [game] = await log.allocate_ids("games", 1)
    batches = [_match(room, game), _ending(room, game)]
    for i, batch in enumerate(batches):
        await log.write(batch, {room: 1})
        sqlite.write(batch)
        if i == 0:  # mid-match, the room is unfinished in both
            assert _without_times(await log.rooms()) == _without_times(sqlite.rooms())
            assert await log.session("tok-bob") == "Bob"
        assert await log.sessions() == sqlite.sessions()
        assert _without_times(await log.rooms(unfinished=False)) == _without_times(
            sqlite.rooms(unfinished=False))
        assert await log.seats(room) == sqlite.seats(room)
        assert _without_times(await log.games(room)) == _without_times(sqlite.games(room))
        assert _without_times(await log.all_games()) == _without_times(sqlite.all_games())
        assert _without_times(await log.game(game)) == _without_times(sqlite.game(game))
        assert _without_times(await log.commands(game)) == _without_times(
            list(sqlite.commands(game)))
    assert await log.rooms() == []  # finished
    assert await log.session("tok-bob") is None and await log.session("tok-ann") == "Ann"
    assert await log.owner(room) == RoomOwner(room, "A", 1, "finished")
    seats = await log.seats(room)
    assert seats[0].deck == DECK and seats[1].token is None
    [row] = await log.games(room)
    assert row.seed == 2**62 and row.result == {"winners": [0], "reason": "concession"}
    assert [c.n for c in await log.commands(game)] == list(range(1, 8))
    one = await log.room(room)
    assert one is not None and one.config == {"seats": 2, "format": "standard"}
    assert await log.room(room + 1000) is None and await log.game(game + 1000) is None
    assert log.metrics.commits == 2
    assert log.metrics.rows_written == sum(len(b) for b in batches)
    sqlite.close()


NAMES = ["Ann", "O'Brien \"the\" {Bold}, NULL", "back\\slash\\", "nul\x00byte", "ace \U0001f0a1",
         "'); DROP TABLE rooms; --", ""]


async def test_any_name_a_player_may_send_is_kept_as_sent(log: ClusterLog) -> None:
    # PostgreSQL's text cannot hold a NUL: one such name must not fail everyone's batch.
    await log.write([*[SessionCreated(f"tok{i}", name) for i, name in enumerate(NAMES)],
                     RoomCreated(1, NAMES[1], {"name": NAMES[5]}, "tok0"),
                     *[SeatSet(1, i, f"seat{i}", f"tok{i}", name, None)
                       for i, name in enumerate(NAMES)]], {1: 1})
    assert await log.sessions() == {f"tok{i}": name for i, name in enumerate(NAMES)}
    assert [s.name for s in await log.seats(1)] == NAMES
    [room] = await log.rooms()
    assert (room.name, room.config) == (NAMES[1], {"name": NAMES[5]})
    assert await log.session("tok3") == "nul\x00byte"


async def test_a_batch_of_commands_alone_reads_back_exactly_by_either_path(
        log: ClusterLog, dsn: str) -> None:
    """Commands alone, the common batch, have their values written into the SQL by our own
    code, not psycopg's: any command, hash and clocks come back exactly as written, from the
    event loop's path and the thread's alike, even where the operator's options turn standard
    strings off (the log turns them on for its own connections)."""
    await log.write([RoomCreated(1, "Room", {}, None), GameStarted(1, 1, 1, 7, {}, None)],
                    {1: 1})
    odd = [CommandAppended(1, 1, n, {"kind": "chat", "text": name, "raw": name.encode()},
                           f"h'{n}\\\\'; --", [n, -1, 2**40])
           for n, name in enumerate(NAMES, 1)]
    await log.write(odd[:3], {1: 1})
    db = PgLog(dsn + " options='-c standard_conforming_strings=off'", node="A")
    try:
        db.write(odd[3:], {1: 1})
    finally:
        db.close()
    assert [(c.n, c.command, c.hash, c.clocks) for c in await log.commands(1)] == [
        (r.n, r.command, r.hash, r.clocks) for r in odd]
    with pytest.raises(ValueError, match="NUL"):
        await log.write([replace(odd[0], n=99, hash="nul\x00")], {1: 1})
    assert len(await log.commands(1)) == len(odd)


class _Turns(trio.abc.Instrument):
    """Counts the times one task gave the event loop a turn (ended a step)."""

    def __init__(self, task: trio.lowlevel.Task) -> None:
        self.task = task
        self.given = 0

    def after_task_step(self, task: trio.lowlevel.Task) -> None:
        if task is self.task:
            self.given += 1


async def test_a_batch_goes_out_before_the_event_loop_runs_anything_else(
        log: ClusterLog, monkeypatch: pytest.MonkeyPatch) -> None:
    """A batch is on the path of every action in it: with a connection free, it is sent
    without first giving the event loop a turn, which would run everything else that is ready
    (on a node, rooms computing their next actions) before it. It checkpoints once sent, as
    it waits for the answer."""
    await log.write([RoomCreated(1, "Room", {}, None), GameStarted(1, 1, 1, 7, {}, None)],
                    {1: 1})
    turns = _Turns(trio.lowlevel.current_task())
    given_at_send: list[int] = []
    send = PgLog.send

    async def watched(db: PgLog, query: bytes, inline: float = 0.0) -> bool:
        given_at_send.append(turns.given)
        return await send(db, query, inline)

    monkeypatch.setattr(PgLog, "send", watched)
    log.inline_wait = 0  # (the answer is awaited on the event loop: see the next test)
    trio.lowlevel.add_instrument(turns)
    try:
        await log.write([_command(1, 1, 1)], {1: 1})
    finally:
        trio.lowlevel.remove_instrument(turns)
    assert given_at_send == [0]  # nothing ran before the batch went out
    assert turns.given >= 1  # and the write did checkpoint, waiting for the answer
    assert [c.n for c in await log.commands(1)] == [1]


async def test_a_nearby_servers_answer_is_taken_without_giving_the_event_loop_a_turn(
        log: ClusterLog) -> None:
    """An answer that comes within the inline wait is read at once, as the embedded server's
    SQLite commit is: left to the event loop it would wait for the loop's current turn (a
    node's other rooms computing) while every action in the batch waits for it."""
    log.inline_wait = 5.0  # far more than a local server needs, so that the test is not timed
    await log.write([RoomCreated(1, "Room", {}, None), GameStarted(1, 1, 1, 7, {}, None)],
                    {1: 1})
    turns = _Turns(trio.lowlevel.current_task())
    trio.lowlevel.add_instrument(turns)
    try:
        await log.write([_command(1, 1, 1)], {1: 1})
    finally:
        trio.lowlevel.remove_instrument(turns)
    assert turns.given == 0
    assert log.metrics.answered_inline >= 1
    assert "arbiter_pg_commits_answered_inline_total" in render(log.metrics.samples())
    assert [c.n for c in await log.commands(1)] == [1]


async def test_the_inline_wait_works_on_a_socket_past_select_s_limit(dsn: str) -> None:
    """A node holds thousands of client sockets, so its log's socket numbers run past 1,024,
    which ``select()`` cannot wait on: the inline wait must still work there."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < 1200:
        pytest.fail(f"this test needs 1,200 open files; the hard limit here is {hard}")
    if soft != resource.RLIM_INFINITY and soft < 1200:
        resource.setrlimit(resource.RLIMIT_NOFILE, (1200, hard))
    fillers = [os.open(os.devnull, os.O_RDONLY) for _ in range(1100)]
    try:
        async with ClusterLog(dsn, node="A", inline_wait=5.0) as log:
            await log.write([RoomCreated(1, "Room", {}, None),
                             GameStarted(1, 1, 1, 7, {}, None), _command(1, 1, 1)], {1: 1})
            assert min(db.conn.pgconn.socket for db in log._idle) > 1024
            assert log.metrics.answered_inline >= 1
            assert [c.n for c in await log.commands(1)] == [1]
    finally:
        for fd in fillers:
            os.close(fd)
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


async def test_an_inline_wait_missed_is_skipped_for_more_batches_each_time(
        log: ClusterLog, monkeypatch: pytest.MonkeyPatch) -> None:
    """A server that does not answer within the inline wait (far away, or busy) would only
    block the event loop: after each miss the next batches go without it, twice as many as
    after the last miss (at most INLINE_BACKOFF), and one answer in time makes every batch try
    again. No batch is lost by it: a missed answer is awaited as usual."""
    log.inline_wait = 5.0  # the set-up's answers come in time: no skips to start with
    await log.write([RoomCreated(1, "Room", {}, None), GameStarted(1, 1, 1, 7, {}, None)],
                    {1: 1})
    inline_before = log.metrics.answered_inline
    tried: list[bool] = []
    send = PgLog.send

    async def watched(db: PgLog, query: bytes, inline: float = 0.0) -> bool:
        tried.append(inline > 0)
        return await send(db, query, inline)

    monkeypatch.setattr(PgLog, "send", watched)
    n = 0

    async def batches(count: int) -> None:
        nonlocal n
        for _ in range(count):
            n += 1
            await log.write([_command(1, 1, n)], {1: 1})

    log.inline_wait = 1e-9  # always missed
    await batches(200)
    tries = [i for i, t in enumerate(tried) if t]
    assert [b - a - 1 for a, b in itertools.pairwise(tries)] == [
        1, 2, 4, 8, 16, 32, INLINE_BACKOFF, INLINE_BACKOFF]
    assert tries[-1] == 199  # so the next INLINE_BACKOFF batches skip it
    log.inline_wait = 5.0  # now every answer comes in time
    await batches(INLINE_BACKOFF + 3)
    assert tried[200:] == [False] * INLINE_BACKOFF + [True] * 3
    assert log.metrics.answered_inline - inline_before == 3
    assert [c.n for c in await log.commands(1)] == list(range(1, n + 1))


async def test_a_failed_batch_writes_nothing(log: ClusterLog) -> None:
    with pytest.raises(RowsExist):
        await log.write([SessionCreated("tok", "Ann"), RoomCreated(1, "Room 1", {}, None),
                         RoomCreated(1, "Room 1 again", {}, None)], {1: 1})
    assert await log.sessions() == {} and await log.rooms() == []
    assert log.metrics.commits == 0
    await log.write([RoomCreated(1, "Room 1", {}, None)], {1: 1})  # the log still works
    assert [r.id for r in await log.rooms()] == [1]


async def test_a_batch_must_give_every_rooms_epoch(log: ClusterLog) -> None:
    with pytest.raises(ValueError, match="no epoch given for room"):
        await log.write([RoomCreated(1, "Room 1", {}, None), RoomCreated(2, "Room 2", {}, None)],
                        {1: 1})


async def test_two_nodes_may_create_the_schema_at_once(empty_dsn: str) -> None:
    entered = []

    async def node(name: str) -> None:
        async with ClusterLog(empty_dsn, node=name) as log:
            entered.append(name)
            await log.ping()

    async with trio.open_nursery() as nursery:
        for name in ("A", "B", "C"):
            nursery.start_soon(node, name)
    assert sorted(entered) == ["A", "B", "C"]


def test_a_log_of_another_schema_version_is_refused(sync_logs: Callable[..., PgLog]) -> None:
    db = sync_logs("A")
    db.ensure_schema()  # again: nothing to do
    db.conn.execute("UPDATE arbiter_meta SET value = value + 1 WHERE key = 'schema'")
    with pytest.raises(RuntimeError, match="schema is version"):
        db.ensure_schema()


def test_the_operators_connection_options_are_kept(dsn: str) -> None:
    db = PgLog(dsn + " options='-c work_mem=7MB'", node="A", lock_timeout=3.0)
    try:
        assert db.conn.execute("SHOW work_mem").fetchone() == ("7MB",)
        assert db.conn.execute("SHOW lock_timeout").fetchone() == ("3s",)
    finally:
        db.close()


# --------------------------------------------------------------------------- ids

async def test_ids_are_unique_across_nodes(log: ClusterLog, log_b: ClusterLog) -> None:
    taken: dict[str, list[int]] = {"rooms": [], "games": []}

    async def allocate(node_log: ClusterLog, kind: str) -> None:
        for _ in range(10):
            taken[kind] += await node_log.allocate_ids(kind, 7)

    async with trio.open_nursery() as nursery:
        for node_log in (log, log_b):
            for kind in taken:
                nursery.start_soon(allocate, node_log, kind)
    for ids in taken.values():
        assert len(ids) == len(set(ids)) == 140


async def test_id_pools_hand_out_ids_without_waiting(log: ClusterLog, log_b: ClusterLog
                                                     ) -> None:
    pool_a = IdPool(log, "rooms", block=4, low_water=2)
    pool_b = IdPool(log_b, "rooms", block=4, low_water=2)
    with pytest.raises(IdsExhausted):
        pool_a.take()
    handed = []
    for _ in range(3):
        for pool in (pool_a, pool_b):
            if pool.low:
                await pool.refill()
            handed += [pool.take(), pool.take()]
    assert len(handed) == len(set(handed)) == 12
    assert pool_a.left >= 0 and not (pool_a.low and pool_a.left >= 2)
    while pool_b.left:
        handed.append(pool_b.take())
    handed.append(await pool_b.take_waiting())  # none in hand: it fetches a block first
    assert len(handed) == len(set(handed)) and pool_b.left == 3
    with pytest.raises(ValueError):
        IdPool(log, "seats")


# --------------------------------------------------------------------------- fencing

async def _room_with_game(log: ClusterLog, commands: int = 1) -> tuple[int, int]:
    [room] = await log.allocate_ids("rooms", 1)
    [game] = await log.allocate_ids("games", 1)
    await log.write([RoomCreated(room, "Room", {}, None),
                     GameStarted(room, game, 1, 7, {}, None),
                     *[_command(room, game, n) for n in range(1, commands + 1)]], {room: 1})
    return room, game


async def test_a_claim_raises_the_epoch_once(log: ClusterLog, log_b: ClusterLog) -> None:
    room, _ = await _room_with_game(log)
    assert await log_b.claim(room, 1) == 2
    assert await log.claim(room, 1) is None  # the compare-and-set lost: B was first
    assert await log.owner(room) == RoomOwner(room, "B", 2, "waiting")
    assert await log.claim(room, 2) == 3  # A takes it back, knowing the epoch
    assert await log_b.claim(room + 1000, 1) is None  # no such room
    await log.write([RoomStateSet(room, "finished")], {room: 3})
    assert await log_b.claim(room, 3) is None  # nothing to take over in a finished room
    assert (log_b.metrics.claims, log_b.metrics.claims_lost) == (1, 2)
    assert (log.metrics.claims, log.metrics.claims_lost) == (1, 1)


async def test_a_batch_meeting_rows_already_in_the_log_is_refused_whole(
        log: ClusterLog) -> None:
    # A second try of a batch whose answer was lost, or a stale node's command numbers: the
    # primary key refuses it before the fencing trigger runs. It must come out as RowsExist
    # (the node rebuilds the rooms), not as an error that ends the node's writing task.
    room, game = await _room_with_game(log, commands=2)
    with pytest.raises(RowsExist):
        await log.write([_command(room, game, 3), _command(room, game, 2)], {room: 1})
    assert [c.n for c in await log.commands(game)] == [1, 2]  # nothing of it written
    await log.write([_command(room, game, 3)], {room: 1})  # the log goes on


async def test_a_claim_batch_raises_each_epoch_once_in_one_statement(
        log: ClusterLog, log_b: ClusterLog) -> None:
    r1, _ = await _room_with_game(log)
    r2, _ = await _room_with_game(log)
    r3, _ = await _room_with_game(log)
    assert await log.claim(r2, 1) == 2  # r2 moved on meanwhile: B expects it at 1
    await log.write([RoomStateSet(r3, "finished")], {r3: 1})
    claimed = await log_b.claim_many({r1: 1, r2: 1, r3: 1, r3 + 1000: 1})
    assert claimed == {r1: 2}
    assert await log.owners_of([r1, r2, r3]) == {
        r1: RoomOwner(r1, "B", 2, "waiting"), r2: RoomOwner(r2, "A", 2, "waiting"),
        r3: RoomOwner(r3, "A", 1, "finished")}
    assert (log_b.metrics.claims, log_b.metrics.claims_lost) == (1, 3)
    assert await log_b.claim_many({}) == {}


async def test_a_stale_writers_batch_is_refused_whole_naming_every_stale_room(
        log: ClusterLog, log_b: ClusterLog) -> None:
    rooms = [await _room_with_game(log) for _ in range(3)]
    (r1, g1), (r2, g2), (r3, g3) = rooms
    assert await log_b.claim(r1, 1) == 2 and await log_b.claim(r2, 1) == 2
    epochs = {r1: 1, r2: 1, r3: 1}  # what A still believes
    batch: list[Record] = [SessionCreated("tok", "Ann"), _command(r3, g3, 2),
                           _command(r1, g1, 2), SeatSet(r2, 0, "t", None, "X", None),
                           GameFinished(r2, g2, {"winners": []}, "h")]
    with pytest.raises(Fenced) as refused:
        await log.write(batch, epochs)
    assert refused.value.rooms == {r1, r2}
    assert await log.sessions() == {} and len(await log.commands(g3)) == 1  # nothing written
    assert log.metrics.fenced_batches == 1 and log.metrics.commits == 3
    # The caller drops the fenced rooms and writes the rest.
    assert await log.write_dropping_fenced(batch, epochs) == {r1, r2}
    assert await log.sessions() == {"tok": "Ann"} and len(await log.commands(g3)) == 2
    assert len(await log.commands(g1)) == 1 and await log.seats(r2) == []
    game2 = await log.game(g2)
    assert game2 is not None and game2.result is None
    # The new owner writes under its epoch.
    await log_b.write([_command(r1, g1, 2), RoomStateSet(r1, "playing")], {r1: 2})
    assert len(await log.commands(g1)) == 2


async def test_a_batch_of_commands_alone_is_refused_naming_every_stale_room(
        log: ClusterLog, log_b: ClusterLog) -> None:
    # The common batch, commands alone, is one statement checked by its own trigger (no
    # arbiter_fence() call first): it must still be refused whole and name every stale room.
    (r1, g1), (r2, g2), (r3, g3) = [await _room_with_game(log) for _ in range(3)]
    assert await log_b.claim(r1, 1) == 2 and await log_b.claim(r3, 1) == 2
    batch: list[Record] = [_command(r1, g1, 2), _command(r2, g2, 2), _command(r3, g3, 2)]
    with pytest.raises(Fenced) as refused:
        await log.write(batch, {r1: 1, r2: 1, r3: 1})
    assert refused.value.rooms == {r1, r3}
    assert [len(await log.commands(g)) for g in (g1, g2, g3)] == [1, 1, 1]
    assert await log.write_dropping_fenced(batch, {r1: 1, r2: 1, r3: 1}) == {r1, r3}
    assert [len(await log.commands(g)) for g in (g1, g2, g3)] == [1, 2, 1]


# Statements that skip the batch's check, as a buggy or very old writer might: the triggers
# refuse them anyway. Each is run in a room at epoch 2, first under epoch 1, then under 2.
RAW_WRITES = {
    "insert a command": "INSERT INTO commands(game, n, room, command, at, epoch) "
                        "VALUES ({game}, 9, {room}, '\\x00', 0, {epoch})",
    "insert a seat": "INSERT INTO seats(room, seat, epoch) VALUES ({room}, 5, {epoch})",
    "insert a game": "INSERT INTO games(id, room, number, seed, config, started, epoch) "
                     "VALUES ({game} + 1, {room}, 2, 1, '\\x00', 0, {epoch})",
    "finish a game": "UPDATE games SET result = '\\x00', epoch = {epoch} WHERE id = {game}",
    "set a room's state": "UPDATE rooms SET state = 'paused', epoch = {epoch} "
                          "WHERE id = {room}",
}


@pytest.mark.parametrize("write", sorted(RAW_WRITES))
async def test_postgres_itself_refuses_a_stale_write(log: ClusterLog, log_b: ClusterLog,
                                                     dsn: str, write: str) -> None:
    room, game = await _room_with_game(log)
    assert await log_b.claim(room, 1) == 2
    with psycopg.connect(dsn, autocommit=True) as conn:
        with pytest.raises(psycopg.Error) as refused:
            conn.execute(RAW_WRITES[write].format(room=room, game=game, epoch=1).encode())
        assert refused.value.sqlstate == "AR001"
        conn.execute(RAW_WRITES[write].format(room=room, game=game, epoch=2).encode())


async def test_postgres_refuses_rows_for_a_room_it_does_not_have(log: ClusterLog, dsn: str
                                                                 ) -> None:
    with psycopg.connect(dsn, autocommit=True) as conn:
        with pytest.raises(psycopg.Error) as refused:
            conn.execute("INSERT INTO seats(room, seat, epoch) VALUES (12345, 0, 1)")
        assert refused.value.sqlstate == "AR001"


async def test_an_epoch_rises_only_by_one_claim(log: ClusterLog, dsn: str) -> None:
    room, _ = await _room_with_game(log)
    with psycopg.connect(dsn, autocommit=True) as conn:
        with pytest.raises(psycopg.Error) as refused:
            conn.execute("UPDATE rooms SET epoch = 3 WHERE id = %s", (room,))
        assert refused.value.sqlstate == "AR002"


def _blocked_by(monitor: psycopg.Connection[Any], waiter: PgLog, holder: PgLog) -> bool:
    row = monitor.execute("SELECT pg_blocking_pids(%s)",
                          (waiter.conn.info.backend_pid,)).fetchone()
    return row is not None and holder.conn.info.backend_pid in row[0]


class _InThread:
    """Run a call in a thread; keep its result or exception."""

    def __init__(self, call: Callable[[], Any]) -> None:
        self.result: Any = None
        self.error: BaseException | None = None

        def run() -> None:
            try:
                self.result = call()
            except BaseException as exc:
                self.error = exc

        self.thread = threading.Thread(target=run, daemon=True)
        self.thread.start()

    def join(self, timeout: float = 20.0) -> None:
        self.thread.join(timeout)
        assert not self.thread.is_alive(), "the call did not finish"


def _setup(sync_logs: Callable[..., PgLog]) -> tuple[PgLog, PgLog, int, int]:
    old, new = sync_logs("A"), sync_logs("B")
    room, game = old.allocate_ids("rooms", 1)[0], old.allocate_ids("games", 1)[0]
    old.write([RoomCreated(room, "Room", {}, None), GameStarted(room, game, 1, 7, {}, None)],
              {room: 1})
    return old, new, room, game


def test_a_write_that_locked_the_room_first_commits_and_the_claim_waits_for_it(
        sync_logs: Callable[..., PgLog], dsn: str) -> None:
    old, new, room, game = _setup(sync_logs)
    with psycopg.connect(dsn, autocommit=True) as monitor:
        with old.conn.transaction():  # the old owner's commit is slow: its locks are held
            old.write([_command(room, game, 1)], {room: 1})
            claim = _InThread(lambda: new.claim(room, 1))
            wait_for(lambda: _blocked_by(monitor, new, old), what="the claim to wait")
            assert claim.thread.is_alive()
        claim.join()
    assert claim.error is None and claim.result == 2
    # The new owner replays what the old one committed before it took over ...
    assert [c.n for c in new.commands(game)] == [1]
    # ... and the old owner can write no more.
    with pytest.raises(Fenced):
        old.write([_command(room, game, 2)], {room: 1})


def test_a_claim_that_came_first_fences_the_write_waiting_behind_it(
        sync_logs: Callable[..., PgLog], dsn: str) -> None:
    old, new, room, game = _setup(sync_logs)
    with psycopg.connect(dsn, autocommit=True) as monitor:
        with new.conn.transaction():  # the claim has run but not yet committed
            assert new.claim(room, 1) == 2
            write = _InThread(lambda: old.write([_command(room, game, 1)], {room: 1}))
            wait_for(lambda: _blocked_by(monitor, old, new), what="the write to wait")
            assert write.thread.is_alive()
        write.join()
    assert isinstance(write.error, Fenced) and write.error.rooms == {room}
    assert new.commands(game) == []
    assert new.owner(room) == RoomOwner(room, "B", 2, "waiting")


def test_a_hung_owner_cannot_hold_up_a_claim_for_long(sync_logs: Callable[..., PgLog]
                                                      ) -> None:
    old = sync_logs("A", idle_in_transaction_timeout=1.0)
    new = sync_logs("B")
    room, game = old.allocate_ids("rooms", 1)[0], old.allocate_ids("games", 1)[0]
    old.write([RoomCreated(room, "Room", {}, None), GameStarted(room, game, 1, 7, {}, None)],
              {room: 1})
    # The commit is what fails: the server has ended the session.
    with pytest.raises(psycopg.Error, match="idle-in-transaction"), old.conn.transaction():
        old.write([_command(room, game, 1)], {room: 1})
        # The old owner now hangs inside its transaction, holding its locks. The server
        # ends that session after the idle timeout, so the claim goes through.
        claim = _InThread(lambda: new.claim(room, 1))
        claim.join(timeout=10.0)
        assert claim.error is None and claim.result == 2
    assert old.broken
    assert new.commands(game) == []


def test_a_claim_waits_only_so_long_for_a_writer(sync_logs: Callable[..., PgLog]) -> None:
    old, _, room, game = _setup(sync_logs)
    new = sync_logs("B", lock_timeout=0.2)
    with old.conn.transaction():
        old.write([_command(room, game, 1)], {room: 1})
        with pytest.raises(RoomBusy):
            new.claim(room, 1)
    assert new.claim(room, 1) == 2  # the writer is done: the claim goes through


# --------------------------------------------------------------------------- metrics

async def test_commits_are_counted_and_timed_for_metrics(log: ClusterLog, log_b: ClusterLog
                                                         ) -> None:
    room, game = await _room_with_game(log, commands=3)
    await log.write([_command(room, game, 4)], {room: 1})
    assert await log_b.claim(room, 1) == 2
    with pytest.raises(Fenced):
        await log.write([_command(room, game, 5)], {room: 1})
    m = log.metrics
    assert (m.commits, m.rows_written, m.fenced_batches) == (2, 6, 1)
    assert 0 < m.commit_seconds_max <= m.commit_seconds
    text = render(m.samples())
    assert "arbiter_pg_commits_total 2\n" in text
    assert "arbiter_pg_rows_total 6\n" in text
    assert "arbiter_pg_fenced_batches_total 1\n" in text
    assert 'arbiter_pg_commits_by_latency_total{le="+Inf"} 2\n' in text
    assert 'arbiter_pg_commits_by_latency_total{le="5.0"} 2\n' in text


# --------------------------------------------------------------------------- the twin, at random

_example = itertools.count()


@st.composite
def _histories(draw: st.DrawFn) -> list[list[Record]]:
    """A valid history of records over two rooms (games, commands, seats, states, sessions
    coming and going), cut into batches at random: runs of one kind, repeated keys within a
    run, and every order the rooms could produce."""
    records: list[Record] = []
    games: dict[int, tuple[int, int]] = {}  # game -> (room, commands so far)
    finished: set[int] = set()
    tokens = ["ann", "bob", "cid"]
    name = st.text(st.characters(codec="utf-8"), max_size=6)
    for room in (1, 2):
        records.append(RoomCreated(room, draw(name), {"n": room}, draw(st.sampled_from(tokens))))
    for _ in range(draw(st.integers(5, 40))):
        kind = draw(st.sampled_from(["session", "forget", "seat", "state", "game", "command",
                                     "command", "command", "finish"]))
        room = draw(st.sampled_from([1, 2]))
        if kind == "session":
            records.append(SessionCreated(draw(st.sampled_from(tokens)), draw(name)))
        elif kind == "forget":
            records.append(SessionForgotten(draw(st.sampled_from(tokens))))
        elif kind == "seat":
            taken = draw(st.booleans())
            records.append(SeatSet(room, draw(st.integers(0, 2)),
                                   draw(st.sampled_from(["s1", "s2"])) if taken else None,
                                   draw(st.sampled_from(tokens)) if taken else None,
                                   draw(name) if taken else None,
                                   {"main": ["Forest"]} if taken else None,
                                   draw(st.sampled_from([None, "random"])) if taken else None))
        elif kind == "state":
            records.append(RoomStateSet(room, draw(st.sampled_from(
                ["waiting", "playing", "paused", "finished"]))))
        elif kind == "game":
            game = len(games) + 1
            games[game] = (room, 0)
            records.append(GameStarted(room, game, game, draw(st.integers(0, 2**62)), {}, None))
        else:
            open_games = [g for g in games if g not in finished]
            if not open_games:
                continue
            game = draw(st.sampled_from(open_games))
            owner, n = games[game]
            if kind == "command":
                games[game] = (owner, n + 1)
                records.append(_command(owner, game, n + 1))
            else:
                finished.add(game)
                records.append(GameFinished(owner, game, {"winners": [n % 2]}, f"h{n}"))
    cuts = sorted(draw(st.sets(st.integers(1, len(records) - 1), max_size=6)))
    return [records[a:b] for a, b in zip([0, *cuts], [*cuts, len(records)], strict=True)]


def _shifted(record: Record, rooms: int, games: int, tag: str) -> Record:
    """The record moved into an example's own ids, so examples share one database."""
    changes: dict[str, Any] = {}
    if hasattr(record, "room"):
        changes["room"] = record.room + rooms
    if hasattr(record, "game"):
        changes["game"] = record.game + games
    for field in ("token", "session", "creator"):
        if getattr(record, field, None) is not None:
            changes[field] = tag + getattr(record, field)
    return replace(record, **changes)


@settings(max_examples=40, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(history=_histories())
def test_any_history_reads_back_as_from_the_sqlite_store(
        dsn: str, tmp_path: Path, history: list[list[Record]]) -> None:
    n = next(_example)
    tag, rooms, games = f"x{n}-", 10 * n, 1000 * n
    db = PgLog(dsn, node="A")
    db.ensure_schema()
    sqlite = Store(tmp_path / f"twin{n}.sqlite3")
    try:
        for batch in history:
            moved = [_shifted(r, rooms, games, tag) for r in batch]
            db.write(moved, {rooms + 1: 1, rooms + 2: 1})
            sqlite.write(moved)
        assert {t: v for t, v in db.sessions().items() if t.startswith(tag)} == sqlite.sessions()
        mine = [r for r in db.rooms(unfinished=False) if rooms < r.id <= rooms + 2]
        assert _without_times(mine) == _without_times(sqlite.rooms(unfinished=False))
        for room in (rooms + 1, rooms + 2):
            assert db.seats(room) == sqlite.seats(room)
            assert _without_times(db.games(room)) == _without_times(sqlite.games(room))
        for game in sqlite.all_games():
            assert _without_times(db.commands(game.id)) == _without_times(
                list(sqlite.commands(game.id)))
        # A claim batch reads its rooms' logs at once: the same as one by one.
        both = [rooms + 1, rooms + 2, rooms + 3]  # the third is never created
        one_by_one = {room: db.stored_room(room) for room in both}
        assert db.stored_rooms(both) == {room: stored for room, stored in one_by_one.items()
                                         if stored is not None}
    finally:
        sqlite.close()
        db.close()
