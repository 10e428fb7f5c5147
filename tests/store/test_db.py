"""The log: a batch of records is one transaction, written whole or not at all."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

import msgpack
import pytest

from arbiter.server.store.db import DB_NAME, Store, StoreLocked
from arbiter.server.store.records import (
    CommandAppended,
    GameFinished,
    GameStarted,
    RoomCreated,
    RoomStateSet,
    SeatSet,
    SessionCreated,
)


def test_rows_written_in_a_batch_read_back(tmp_path: Path) -> None:
    store = Store.open_dir(tmp_path)
    store.write([
        SessionCreated("tok", "Ann"), RoomCreated(1, "Room 1", {"seats": 2}, "tok"),
        SeatSet(1, 0, "seat-tok", "tok", "Ann", {"main": ["Forest"], "side": []}),
        GameStarted(1, 1, 1, 42, {"players": []}, None),
        CommandAppended(1, 1, 1, {"kind": "act", "player": 0, "serial": 1, "action": 0},
                        "h1", [1000, 2000]),
        CommandAppended(1, 1, 2, {"kind": "concede", "player": 1, "game": None}, None, None)])
    assert store.commits == 1 and store.rows_written == 6
    assert store.sessions() == {"tok": "Ann"}
    [room] = store.rooms()
    assert (room.id, room.config, room.creator, room.state) == (1, {"seats": 2}, "tok",
                                                                "waiting")
    [seat] = store.seats(1)
    assert seat.deck == {"main": ["Forest"], "side": []} and seat.token == "seat-tok"
    [game] = store.games(1)
    assert game.seed == 42 and game.result is None
    cmds = list(store.commands(1))
    assert [c.n for c in cmds] == [1, 2]
    assert cmds[0].hash == "h1" and cmds[0].clocks == [1000, 2000]
    store.write([GameFinished(1, 1, {"winners": [0]}, "final"), RoomStateSet(1, "finished")])
    assert store.rooms() == []
    assert store.game(1) is not None and store.game(1).final_hash == "final"  # type: ignore
    assert store.next_id("rooms") == 2 and store.next_id("games") == 2


def test_the_stored_blobs_are_the_bytes_msgpack_packb_makes(tmp_path: Path) -> None:
    # Store.write reuses one packer; logs written before (with packb per value) and after
    # must hold the same bytes for the same values, binary values as bin, not str.
    store = Store.open_dir(tmp_path)
    command = {"kind": "act", "player": 0, "serial": 1, "action": 0, "raw": b"\x00\xff"}
    deck = {"main": ["Forest"] * 3, "side": []}
    store.write([SeatSet(1, 0, "t", "s", "Ann", deck),
                 CommandAppended(1, 1, 1, command, None, [1, 2]),
                 CommandAppended(1, 1, 2, {"kind": "concede", "player": 1}, "h", None)])
    rows = store.db.execute("SELECT command, clocks FROM commands ORDER BY n").fetchall()
    assert rows == [(msgpack.packb(command, use_bin_type=True),
                     msgpack.packb([1, 2], use_bin_type=True)),
                    (msgpack.packb({"kind": "concede", "player": 1}, use_bin_type=True), None)]
    [(blob,)] = store.db.execute("SELECT deck FROM seats").fetchall()
    assert blob == msgpack.packb(deck, use_bin_type=True)


def test_the_log_is_in_wal_mode_and_a_write_is_visible_once_it_returns(
        tmp_path: Path) -> None:
    store = Store.open_dir(tmp_path)
    other = sqlite3.connect(tmp_path / DB_NAME)
    assert other.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert other.execute("SELECT COUNT(*) FROM sessions").fetchone()[0] == 0
    store.write([SessionCreated("tok", "Ann")])
    assert other.execute("SELECT COUNT(*) FROM sessions").fetchone()[0] == 1


def _page_size(path: Path) -> int:
    with closing(sqlite3.connect(path)) as db:
        return int(db.execute("PRAGMA page_size").fetchone()[0])


def test_a_new_log_has_small_pages_and_a_log_made_before_keeps_its_own(
        tmp_path: Path) -> None:
    """A commit writes a WAL frame, a whole page, for every page it changes (about one a
    command): a new log's pages are 1 KiB, a quarter of SQLite's default. A log made with
    4 KiB pages (by an earlier server) keeps them and goes on being written and read."""
    store = Store.open_dir(tmp_path / "new")
    store.write([RoomCreated(1, "Room 1", {}, None)])
    store.close()
    assert _page_size(tmp_path / "new" / DB_NAME) == 1024
    old = tmp_path / "old"
    old.mkdir()
    with closing(sqlite3.connect(old / DB_NAME)) as db:
        db.execute("PRAGMA page_size=4096")
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("CREATE TABLE t(x)")
    store = Store.open_dir(old)
    store.write([RoomCreated(1, "Room 1", {}, None), GameStarted(1, 1, 1, 42, {}, None),
                 CommandAppended(1, 1, 1, {"kind": "concede", "player": 1}, None, None)])
    assert [r.name for r in store.rooms()] == ["Room 1"]
    assert [c.command for c in store.commands(1)] == [{"kind": "concede", "player": 1}]
    store.close()
    assert _page_size(old / DB_NAME) == 4096


def test_commits_leave_checkpoints_to_the_server_thread(tmp_path: Path) -> None:
    """A commit never checkpoints (SQLite's own would end with an fsync in the event loop's
    thread, at 4,000 players 100-400 ms every few seconds); Store.checkpoint, which the server
    runs in a worker thread, copies everything committed into the database file."""
    store = Store.open_dir(tmp_path)
    wal = tmp_path / (DB_NAME + "-wal")
    big = {"kind": "act", "player": 0, "serial": 1, "action": 0, "pad": "x" * 700}
    for n in range(1, 1601):  # a page or more each: past the 1,000 pages SQLite would stop at
        store.write([CommandAppended(1, 1, n, big, None, None)])
    pages = wal.stat().st_size // 1024
    assert pages > 1500  # nothing was copied back: the WAL only grew
    frames, copied = store.checkpoint()
    assert frames == copied and frames > 1500 and store.checkpoints == 1
    store.write([CommandAppended(1, 1, 1601, big, None, None)])
    assert wal.stat().st_size // 1024 == pages  # checkpointed: the WAL starts over, not longer
    reader = sqlite3.connect(tmp_path / DB_NAME)
    assert reader.execute("SELECT COUNT(*) FROM commands").fetchone()[0] == 1601
    store.close()


def test_a_failed_batch_writes_nothing(tmp_path: Path) -> None:
    store = Store.open_dir(tmp_path)
    try:  # the same id twice: the batch must fail whole
        store.write([RoomCreated(1, "Room 1", {}, None),
                     RoomCreated(1, "Room 1 again", {}, None)])
    except sqlite3.IntegrityError:
        pass
    else:  # pragma: no cover
        raise AssertionError("a duplicate room id was accepted")
    assert store.rooms() == []
    assert Store(Path(store.path)).rooms() == []


def test_one_server_per_data_directory(tmp_path: Path) -> None:
    first = Store.open_dir(tmp_path)
    with pytest.raises(StoreLocked):
        Store.open_dir(tmp_path)
    Store(tmp_path / DB_NAME).close()  # reading the log (arbiter replay) needs no lock
    first.close()
    Store.open_dir(tmp_path).close()


def test_only_the_servers_user_may_read_the_log(tmp_path: Path) -> None:
    # Tokens and hidden cards are in it.
    store = Store.open_dir(tmp_path / "data")
    store.write([SessionCreated("tok", "Ann")])
    assert (tmp_path / "data").stat().st_mode & 0o777 == 0o700
    files = [p for p in (tmp_path / "data").iterdir() if p.name.startswith(DB_NAME)]
    assert {p.name for p in files} >= {DB_NAME, f"{DB_NAME}-wal", f"{DB_NAME}-shm"}
    assert all(p.stat().st_mode & 0o077 == 0 for p in files), {
        p.name: oct(p.stat().st_mode) for p in files}
    store.close()
