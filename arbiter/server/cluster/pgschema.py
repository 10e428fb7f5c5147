"""The log's schema in PostgreSQL: its tables, sequences and the triggers that fence stale
writes (docs/cluster.md, "The log in PostgreSQL" and "Fencing").

Every room row carries its owner node and an ``epoch``; every row a node writes for a room
carries the epoch under which it believes it owns the room, and PostgreSQL itself refuses a
stale one:

- seats, games and commands have statement-level triggers that lock the rows of the rooms
  they touch ``FOR SHARE`` and raise ``AR001`` (naming the rooms) when an epoch differs;
- updating a room's row may leave its epoch as it is (an owner's write) or raise it by
  exactly one (a claim); lowering it (a stale owner's write) raises ``AR001``.

A claim's ``UPDATE`` needs a lock that conflicts with ``FOR SHARE``, so a claim and a stale
write cannot interleave: either the old owner's transaction took its locks first, and the claim
waits until it has committed (the new owner then replays those rows), or the claim came first,
and the old owner's transaction sees the new epoch and fails whole. ``arbiter_fence()`` checks
all the rooms of a batch at once (same lock), so that the error names every stale room of the
batch, not only those of the first statement that fails.

Names, which players choose, are kept as UTF-8 ``bytea``: PostgreSQL's ``text`` cannot hold a
NUL, and one odd name must not fail a batch holding everyone's commands.
"""

from __future__ import annotations

from typing import Any

import psycopg

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


def ensure_schema(conn: psycopg.Connection[Any]) -> None:
    """Create the tables, triggers and sequences unless they are there (every node does it at
    start; an advisory lock makes them take turns, and a node joining a running cluster finds
    the schema in place and touches no table). Raises RuntimeError for a log written by
    another schema version. ``conn`` must be in autocommit mode: this is one transaction."""
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_LOCK,))
        version = None
        if conn.execute("SELECT to_regclass('arbiter_meta')").fetchone() != (None,):
            row = conn.execute("SELECT value FROM arbiter_meta WHERE key = 'schema'").fetchone()
            version = None if row is None else int(row[0])
        if version is None:
            conn.execute(SCHEMA)
            conn.execute("INSERT INTO arbiter_meta(key, value) VALUES ('schema', %s)",
                         (SCHEMA_VERSION,))
        elif version != SCHEMA_VERSION:
            raise RuntimeError(f"the log's schema is version {version}; this arbiter knows "
                               f"version {SCHEMA_VERSION}")
