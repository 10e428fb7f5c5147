"""The commit gate: effects reach clients only after the commands causing them are durable
(Durability invariant), in the order they were produced, and commits are grouped."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from pathlib import Path

import trio
import trio.testing

from arbiter.server.store.db import DB_NAME, Store
from arbiter.server.store.gate import NO_ROOM, CommitGate, StoreWriter, WriteFailed, causes
from arbiter.server.store.records import CommandAppended, Record, SessionCreated


class Sink:
    def __init__(self, path: Path) -> None:
        self.db = sqlite3.connect(path)
        self.seen: list[tuple[bytes, int]] = []

    def deliver_all(self, frames: Sequence[bytes]) -> None:
        # How many commands another process would find in the log at this moment.
        durable = self.db.execute("SELECT COUNT(*) FROM commands").fetchone()[0]
        self.seen += [(frame, durable) for frame in frames]


async def test_frames_wait_for_their_commands_to_be_committed(tmp_path: Path,
                                                              autojump_clock: object) -> None:
    store = Store.open_dir(tmp_path)
    gate = CommitGate(StoreWriter(store))
    sink = Sink(tmp_path / DB_NAME)
    async with trio.open_nursery() as nursery:
        await nursery.start(gate.run)
        for n in range(1, 4):  # three commands from three rooms in one scheduling round
            gate.log(CommandAppended(n, n, 1, {"kind": "act"}, None, None))
            gate.send([sink], b"effect %d" % n)
        gate.send([sink], b"a reply that follows them")
        assert sink.seen == []  # nothing leaves before the commit
        await trio.testing.wait_all_tasks_blocked()
        assert sink.seen == [(b"effect 1", 3), (b"effect 2", 3), (b"effect 3", 3),
                             (b"a reply that follows them", 3)]
        assert store.commits == 1  # one transaction for the whole group
        gate.send([sink], b"nothing to write")
        await trio.testing.wait_all_tasks_blocked()
        assert sink.seen[-1] == (b"nothing to write", 3) and store.commits == 1
        nursery.cancel_scope.cancel()


async def test_a_threaded_gate_groups_what_arrives_during_a_write(
        tmp_path: Path, autojump_clock: object) -> None:
    store = Store.open_dir(tmp_path, synchronous="FULL")
    gate = CommitGate(StoreWriter(store, threaded=True))
    sink = Sink(tmp_path / DB_NAME)
    done = trio.Event()
    deliver = sink.deliver_all

    def counting(frames: Sequence[bytes]) -> None:
        deliver(frames)
        if len(sink.seen) == 50:
            done.set()

    sink.deliver_all = counting  # type: ignore[method-assign]
    async with trio.open_nursery() as nursery:
        await nursery.start(gate.run)
        for n in range(1, 51):
            gate.log(_step(n))
            gate.send([sink], b"%d" % n)
            if n % 10 == 0:
                await trio.sleep(0)
        await done.wait()
        nursery.cancel_scope.cancel()
    assert [f for f, _ in sink.seen] == [b"%d" % n for n in range(1, 51)]
    assert all(durable >= int(f) for f, durable in sink.seen)
    assert store.commits < 50


class Refusing:
    """A writer as a cluster node's is: it refuses the rooms another node owns, or fails."""

    def __init__(self, refuse: frozenset[int] = frozenset(), fail: bool = False) -> None:
        self.refuse, self.fail = refuse, fail
        self.written: list[Record] = []

    async def write(self, records: Sequence[Record]) -> frozenset[int]:
        if self.fail:
            raise WriteFailed("the log is unreachable")
        refused = frozenset(getattr(r, "room", NO_ROOM) for r in records) & self.refuse
        self.written += [r for r in records if getattr(r, "room", NO_ROOM) not in refused]
        return refused


class Frames:
    def __init__(self) -> None:
        self.seen: list[bytes] = []

    def deliver_all(self, frames: Sequence[bytes]) -> None:
        self.seen += frames


def _command(room: int) -> CommandAppended:
    return CommandAppended(room, room, 1, {"kind": "act"}, None, None)


async def test_frames_caused_by_refused_records_never_leave(autojump_clock: object) -> None:
    writer = Refusing(refuse=frozenset({2}))
    reports: list[tuple[frozenset[int], set[object], object]] = []
    gate = CommitGate(writer, on_refused=lambda rooms, lost, failed:
                      reports.append((rooms, set(lost), failed)))
    ann, bob = Frames(), Frames()
    for room, sink in ((1, ann), (2, bob)):
        records = [_command(room)]
        for r in records:
            gate.log(r)
        gate.send([sink], b"room %d moved" % room, causes(records))
    gate.send([bob], b"an error that wrote nothing")
    await gate.flush()
    assert ann.seen == [b"room 1 moved"]
    assert bob.seen == [b"an error that wrote nothing"]  # room 2's effect was never sent
    assert writer.written == [_command(1)]
    assert reports == [(frozenset({2}), {bob}, None)] and gate.dropped_frames == 1


async def test_a_failed_write_drops_everything_it_caused(autojump_clock: object) -> None:
    reports: list[tuple[frozenset[int], object]] = []
    gate = CommitGate(Refusing(fail=True),
                      on_refused=lambda rooms, lost, failed: reports.append((rooms, failed)))
    sink = Frames()
    records: list[Record] = [SessionCreated("tok", "Ann"), _command(7)]
    for r in records:
        gate.log(r)
    gate.send([sink], b"welcome and the room's delta", causes(records))
    gate.send([sink], b"a room list")
    await gate.flush()
    assert sink.seen == [b"a room list"]
    assert reports[0][0] == frozenset({NO_ROOM, 7})
    assert isinstance(reports[0][1], WriteFailed)


class Held:
    """A writer whose every write waits until the test lets it finish, or fail: a cluster
    node's PostgreSQL round trip, slowed down to be watched."""

    def __init__(self) -> None:
        self.out: list[tuple[list[Record], trio.Event]] = []  # writes begun, not yet finished
        self.failing: set[int] = set()  # the writes (by number) that will fail
        self.begun = 0
        self.written: list[Record] = []

    async def write(self, records: Sequence[Record]) -> frozenset[int]:
        number = self.begun
        self.begun += 1
        release = trio.Event()
        self.out.append((list(records), release))
        await release.wait()
        if number in self.failing:
            raise WriteFailed("the log is unreachable")
        self.written += records
        return frozenset()

    def rooms_out(self) -> list[set[int]]:
        return [{getattr(r, "room", NO_ROOM) for r in records} for records, _ in self.out]

    async def finish(self, index: int) -> None:
        _, release = self.out.pop(index)
        release.set()
        await trio.testing.wait_all_tasks_blocked()


def _queue(gate: CommitGate, records: list[Record], sink: Frames, frame: bytes) -> None:
    for r in records:
        gate.log(r)
    gate.send([sink], frame, causes(records))


def _step(n: int) -> CommandAppended:
    """Room 1's ``n``-th command."""
    return CommandAppended(1, 1, n, {"kind": "act"}, None, None)


async def _one_out_one_queued(gate: CommitGate, sink: Frames) -> None:
    """Room 1's first command goes out (the writer holds it); its second waits in the queue."""
    _queue(gate, [_step(1)], sink, b"1: 1")
    await trio.testing.wait_all_tasks_blocked()
    _queue(gate, [_step(2)], sink, b"1: 2")


async def test_a_failed_write_takes_its_rooms_queued_records_with_it(autojump_clock: object
                                                                     ) -> None:
    """Records a room queued while its batch was out must not be written after that batch
    failed: the room's log would have a hole (its commands k+1.. without k)."""
    writer = Held()
    writer.failing = {0}
    reports: list[tuple[frozenset[int], set[object]]] = []
    gate = CommitGate(writer, on_refused=lambda rooms, lost, failed:
                      reports.append((rooms, set(lost))))
    ann, bob = Frames(), Frames()
    async with trio.open_nursery() as nursery:
        await nursery.start(gate.run)
        await _one_out_one_queued(gate, ann)
        _queue(gate, [_command(2)], bob, b"room 2 moved")
        await writer.finish(0)  # fails
        assert reports == [(frozenset({1}), {ann})]
        await writer.finish(0)
        assert writer.written == [_command(2)]  # room 1's second command was not written
        assert ann.seen == [] and bob.seen == [b"room 2 moved"]
        assert gate.dropped_frames == 2
        nursery.cancel_scope.cancel()


async def test_a_write_cut_off_mid_way_takes_its_rooms_queued_records_with_it(
        autojump_clock: object) -> None:
    writer = Held()
    gate = CommitGate(writer)
    sink = Frames()
    async with trio.open_nursery() as nursery:
        await nursery.start(gate.run)
        await _one_out_one_queued(gate, sink)
        _queue(gate, [_command(2)], sink, b"room 2 moved")
        nursery.cancel_scope.cancel()  # the server stops with room 1's first batch out
    writer.out.clear()
    async with trio.open_nursery() as nursery:
        nursery.start_soon(gate.flush)  # as the server does on its way out
        await trio.testing.wait_all_tasks_blocked()
        assert writer.rooms_out() == [{2}]
        await writer.finish(0)
    assert writer.written == [_command(2)] and sink.seen == [b"room 2 moved"]


async def test_a_batch_being_written_is_pending_with_nothing_queued_behind_it(
        autojump_clock: object) -> None:
    """A node lets a finished room go only once nothing of it is pending: the batch out
    counts even when the queue behind it is empty."""
    writer = Held()
    gate = CommitGate(writer)
    sink = Frames()
    async with trio.open_nursery() as nursery:
        await nursery.start(gate.run)
        _queue(gate, [_step(1)], sink, b"1: 1")
        await trio.testing.wait_all_tasks_blocked()
        assert writer.rooms_out() == [{1}] and gate.pending  # out, and nothing queued
        await writer.finish(0)
        await trio.testing.wait_all_tasks_blocked()
        assert not gate.pending and sink.seen == [b"1: 1"]
        nursery.cancel_scope.cancel()


async def test_a_flush_from_another_task_waits_for_the_batch_being_written(
        autojump_clock: object) -> None:
    """A server on its way out flushes while the gate's own task may be writing: the queue is
    taken only once that batch's outcome is known (here, a failure that drops room 1)."""
    writer = Held()
    writer.failing = {0}
    gate = CommitGate(writer)
    sink = Frames()
    async with trio.open_nursery() as nursery:
        await nursery.start(gate.run)
        await _one_out_one_queued(gate, sink)
        nursery.start_soon(gate.flush)
        await trio.testing.wait_all_tasks_blocked()
        assert writer.rooms_out() == [{1}] and gate.pending  # the flush waits
        await writer.finish(0)  # fails
        assert writer.out == [] and not gate.pending
        nursery.cancel_scope.cancel()
    assert writer.written == [] and sink.seen == []
