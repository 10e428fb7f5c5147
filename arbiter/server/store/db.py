"""The durable game log in SQLite.

The rooms produce log records (:mod:`.records`) and never wait for the disk; the commit gate
(:mod:`.gate`) hands everything produced since the last batch to :meth:`Store.write`, one
transaction, and releases what those records caused to clients only after it returns. That is
group commit: the cost of a commit is shared by every command that arrived while the previous
one was being written.

The database is opened in WAL mode. With ``synchronous=NORMAL`` (the default) a committed
transaction survives the server process being killed at any moment (the WAL is in the operating
system's cache); ``synchronous=FULL`` also survives the machine losing power, at the price of an
fsync per batch.
"""

from __future__ import annotations

import fcntl
import os
import sqlite3
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import IO, Any

import msgpack

from .records import (
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
from .rows import CommandRow, GameRow, RoomRow, SeatRow, StoredRoom

SCHEMA = """
CREATE TABLE IF NOT EXISTS sessions(
    token TEXT PRIMARY KEY, name TEXT NOT NULL, created REAL NOT NULL);
CREATE TABLE IF NOT EXISTS rooms(
    id INTEGER PRIMARY KEY, name TEXT NOT NULL, config BLOB NOT NULL, creator TEXT,
    state TEXT NOT NULL, created REAL NOT NULL);
CREATE TABLE IF NOT EXISTS seats(
    room INTEGER NOT NULL, seat INTEGER NOT NULL, token TEXT, session TEXT, name TEXT,
    deck BLOB, bot TEXT, PRIMARY KEY(room, seat));
CREATE TABLE IF NOT EXISTS games(
    id INTEGER PRIMARY KEY, room INTEGER NOT NULL, number INTEGER NOT NULL,
    seed INTEGER NOT NULL, config BLOB NOT NULL, chooser INTEGER, started REAL NOT NULL,
    result BLOB, final_hash TEXT);
CREATE INDEX IF NOT EXISTS games_by_room ON games(room, number);
CREATE TABLE IF NOT EXISTS commands(
    game INTEGER NOT NULL, n INTEGER NOT NULL, command BLOB NOT NULL, hash TEXT,
    clocks BLOB, at REAL NOT NULL, PRIMARY KEY(game, n)) WITHOUT ROWID;
"""

DB_NAME = "arbiter.sqlite3"
LOCK_NAME = "arbiter.lock"


class StoreLocked(Exception):
    """Another server process holds this data directory."""


def _unpack(data: bytes | None) -> Any:
    if data is None:
        return None
    return msgpack.unpackb(data, raw=False, strict_map_key=False)


Pack = Callable[[Any], bytes]


def _opt(pack: Pack, value: Any) -> bytes | None:
    return None if value is None else pack(value)


# For each kind of record: its statement, and its parameters (given the record, the time and
# the store's packer: the same bytes as msgpack.packb(value, use_bin_type=True)).
_WRITERS: dict[type[Any], tuple[str, Callable[[Any, float, Pack], tuple[Any, ...]]]] = {
    SessionCreated: ("INSERT OR REPLACE INTO sessions(token, name, created) VALUES (?, ?, ?)",
                     lambda r, now, pack: (r.token, r.name, now)),
    SessionForgotten: ("DELETE FROM sessions WHERE token = ?", lambda r, now, pack: (r.token,)),
    RoomCreated: ("INSERT INTO rooms(id, name, config, creator, state, created) "
                  "VALUES (?, ?, ?, ?, 'waiting', ?)",
                  lambda r, now, pack: (r.room, r.name, pack(r.config), r.creator, now)),
    RoomStateSet: ("UPDATE rooms SET state = ? WHERE id = ?",
                   lambda r, now, pack: (r.state, r.room)),
    SeatSet: ("INSERT OR REPLACE INTO seats(room, seat, token, session, name, deck, bot) "
              "VALUES (?, ?, ?, ?, ?, ?, ?)",
              lambda r, now, pack: (r.room, r.seat, r.token, r.session, r.name,
                                    _opt(pack, r.deck), r.bot)),
    GameStarted: ("INSERT INTO games(id, room, number, seed, config, chooser, started) "
                  "VALUES (?, ?, ?, ?, ?, ?, ?)",
                  lambda r, now, pack: (r.game, r.room, r.number, r.seed, pack(r.config),
                                        r.chooser, now)),
    CommandAppended: ("INSERT INTO commands(game, n, command, hash, clocks, at) "
                      "VALUES (?, ?, ?, ?, ?, ?)",
                      lambda r, now, pack: (r.game, r.n, pack(r.command), r.hash,
                                            None if r.clocks is None else pack(r.clocks), now)),
    GameFinished: ("UPDATE games SET result = ?, final_hash = ? WHERE id = ?",
                   lambda r, now, pack: (pack(r.result), r.final_hash, r.game)),
}


class LogReader:
    """The log's rows, read on the connection ``db`` (the server's own, or a read-only one:
    store/archive.py)."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def next_id(self, table: str) -> int:
        assert table in ("rooms", "games")
        row = self.db.execute(f"SELECT COALESCE(MAX(id), 0) FROM {table}").fetchone()
        return int(row[0]) + 1

    def sessions(self) -> dict[str, str]:
        return {t: n for t, n in self.db.execute("SELECT token, name FROM sessions")}

    def rooms(self, *, unfinished: bool = True) -> list[RoomRow]:
        sql = "SELECT id, name, config, creator, state, created FROM rooms"
        if unfinished:
            sql += " WHERE state != 'finished'"
        return [RoomRow(r[0], r[1], _unpack(r[2]), r[3], r[4], r[5])
                for r in self.db.execute(sql + " ORDER BY id")]

    def room(self, room: int) -> RoomRow | None:
        r = self.db.execute("SELECT id, name, config, creator, state, created FROM rooms "
                            "WHERE id = ?", (room,)).fetchone()
        return None if r is None else RoomRow(r[0], r[1], _unpack(r[2]), r[3], r[4], r[5])

    def seats(self, room: int) -> list[SeatRow]:
        return [SeatRow(r[0], r[1], r[2], r[3], r[4], _unpack(r[5]), r[6])
                for r in self.db.execute(
                    "SELECT room, seat, token, session, name, deck, bot FROM seats "
                    "WHERE room = ? ORDER BY seat", (room,))]

    def _game(self, r: tuple[Any, ...]) -> GameRow:
        return GameRow(r[0], r[1], r[2], r[3], _unpack(r[4]), r[5], r[6], _unpack(r[7]), r[8])

    _GAME_COLUMNS = "id, room, number, seed, config, chooser, started, result, final_hash"

    def games(self, room: int) -> list[GameRow]:
        return [self._game(r) for r in self.db.execute(
            f"SELECT {self._GAME_COLUMNS} FROM games WHERE room = ? ORDER BY number", (room,))]

    def game(self, game: int) -> GameRow | None:
        r = self.db.execute(f"SELECT {self._GAME_COLUMNS} FROM games WHERE id = ?",
                            (game,)).fetchone()
        return None if r is None else self._game(r)

    def all_games(self) -> list[GameRow]:
        return [self._game(r) for r in self.db.execute(
            f"SELECT {self._GAME_COLUMNS} FROM games ORDER BY id")]

    def commands(self, game: int) -> Iterator[CommandRow]:
        for r in self.db.execute("SELECT game, n, command, hash, clocks, at FROM commands "
                                 "WHERE game = ? ORDER BY n", (game,)):
            yield CommandRow(r[0], r[1], _unpack(r[2]), r[3], _unpack(r[4]), r[5])

    def stored_rooms(self) -> Iterator[StoredRoom]:
        """Every unfinished room with what recovery needs to rebuild it."""
        known = self.sessions()
        for row in self.rooms(unfinished=True):
            yield StoredRoom.read(row, self.seats(row.id), self.games(row.id), self.commands,
                                  known.get)


class Store(LogReader):
    """One SQLite database. All methods run in the caller's thread; :meth:`write` may be
    called from a worker thread while nothing else touches the store."""

    def __init__(self, path: Path | str, *, synchronous: str = "NORMAL") -> None:
        if synchronous not in ("NORMAL", "FULL"):
            raise ValueError("synchronous must be NORMAL or FULL")
        self.path = Path(path)
        self.synchronous = synchronous
        # The log holds session and seat tokens and every hidden card of every game: only the
        # server's user may read it. SQLite gives its -wal and -shm files the database's mode.
        os.close(os.open(self.path, os.O_CREAT | os.O_WRONLY, 0o600))
        self.db = sqlite3.connect(str(self.path), isolation_level=None,
                                  check_same_thread=False)
        # A new log's pages are 1 KiB, not SQLite's default 4 KiB. A commit writes a WAL frame
        # (a page) for every page it changes, and the gate's batches hold commands of several
        # games, each on a leaf page of its own: about a frame per command. Smaller frames
        # are less to checksum, copy and write, and leave more of the CPU's cache to the room
        # core (docs/measurements.md, "the log's pages"). A log made before keeps its 4 KiB
        # pages: SQLite changes no page size of a database in WAL mode.
        self.db.execute("PRAGMA page_size=1024")
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute(f"PRAGMA synchronous={synchronous}")
        # No checkpoint inside a commit: SQLite runs one by itself in the commit that takes the
        # WAL past 1,000 pages, and it ends with an fsync of the database file, which on a
        # busy disk took 100-400 ms in the event loop's thread (at 4,000 players, every few
        # seconds: the latency tail). The server runs them in a worker thread instead
        # (:meth:`checkpoint`); the last connection to close checkpoints what is left.
        self.db.execute("PRAGMA wal_autocheckpoint=0")
        self.db.executescript(SCHEMA)
        self._migrate()
        # The store's own packer, reused: msgpack.packb makes one (and its buffer) per call,
        # and a command's record packs one or two values. Not shared with the event loop's
        # (codec.pack): write may run in a worker thread.
        self._pack: Pack = msgpack.Packer(use_bin_type=True).pack
        self.commits = 0
        self.commit_seconds = 0.0
        self.rows_written = 0
        self.checkpoints = 0
        self._checkpointer: sqlite3.Connection | None = None

    def _migrate(self) -> None:
        """Bring a log written by an earlier version up to this schema."""
        columns = {row[1] for row in self.db.execute("PRAGMA table_info(seats)")}
        if "bot" not in columns:  # server-run bots came with the catalog (protocol 1)
            self.db.execute("ALTER TABLE seats ADD COLUMN bot TEXT")

    @classmethod
    def open_dir(cls, data_dir: Path | str, **kwargs: Any) -> Store:
        """The log in ``data_dir``, for a server: one server per data directory (a second one
        would hand out the same room and game numbers), held by an exclusive lock on
        ``arbiter.lock`` that the operating system releases if the process dies."""
        d = Path(data_dir)
        d.mkdir(mode=0o700, parents=True, exist_ok=True)
        lock = open(d / LOCK_NAME, "a+b")  # noqa: SIM115 - held until close()
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            lock.close()
            raise StoreLocked(f"another server is using {d}") from None
        store = cls(d / DB_NAME, **kwargs)
        store._lock = lock
        return store

    _lock: IO[bytes] | None = None

    def checkpoint(self) -> tuple[int, int]:
        """Copy the transactions the WAL holds into the database file, on a connection of
        this method's own, so that it can run in a worker thread while the event loop goes
        on writing: a passive checkpoint never waits for the writer, it copies what is
        committed. With ``synchronous`` NORMAL the WAL is synced before the copy and the
        database file after it, as SQLite's own checkpoints do. Returns the WAL's frames and
        how many of them are now in the database file."""
        if self._checkpointer is None:
            self._checkpointer = sqlite3.connect(str(self.path), isolation_level=None,
                                                 check_same_thread=False)
            self._checkpointer.execute(f"PRAGMA synchronous={self.synchronous}")
        _busy, frames, copied = self._checkpointer.execute(
            "PRAGMA wal_checkpoint(PASSIVE)").fetchone()
        self.checkpoints += 1
        return int(frames), int(copied)

    def close(self) -> None:
        if self._checkpointer is not None:
            self._checkpointer.close()
            self._checkpointer = None
        self.db.close()
        if self._lock is not None:
            self._lock.close()  # releases the lock
            self._lock = None

    # ------------------------------------------------------------------ writing

    def write(self, records: Sequence[Record]) -> None:
        """Write ``records`` in one transaction; returns once it is committed. A failure
        leaves nothing of the batch written."""
        if not records:
            return
        started = time.perf_counter()
        now = time.time()
        pack = self._pack
        cur = self.db.cursor()
        cur.execute("BEGIN")
        try:
            i = 0
            while i < len(records):  # runs of one kind of record go in one executemany
                kind = type(records[i])
                j = i + 1
                while j < len(records) and type(records[j]) is kind:
                    j += 1
                sql, params = _WRITERS[kind]
                if j - i == 1:
                    cur.execute(sql, params(records[i], now, pack))
                else:
                    cur.executemany(sql, [params(r, now, pack) for r in records[i:j]])
                i = j
        except BaseException:
            cur.execute("ROLLBACK")
            raise
        cur.execute("COMMIT")
        self.commits += 1
        self.rows_written += len(records)
        self.commit_seconds += time.perf_counter() - started
