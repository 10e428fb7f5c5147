"""The commit gate: nothing a command causes reaches a client before the command is durable.

Rooms hand their log records to :meth:`CommitGate.log` and every outgoing frame to
:meth:`CommitGate.send` together with the connections it is for; neither waits. The gate's task
takes everything handed over so far, has its :class:`Writer` write the records in one
transaction, and only then passes the frames, in the order they were produced, to each
connection: all of a batch's frames for one connection in one ``deliver_all`` call, which never
blocks. Frames that follow no write (a room list, an error) ride along with the next batch and
keep their order relative to everything else.

A cluster node's writer may refuse some rooms' records (another node owns them now: fencing) or
fail to write the batch at all (PostgreSQL unreachable: :class:`WriteFailed`). Each frame
carries its *cause*, the rooms whose records were produced with it (:data:`NO_ROOM` for records
that name no room, sessions); a frame whose cause was refused or not written is dropped, never
sent, and the gate reports what it dropped to ``on_refused`` so that the node stops serving
those rooms. What those rooms queued while the batch was out is dropped with it: written after
records that were not, it would leave a hole in their logs. The embedded server's writer
(SQLite) refuses nothing, and every cause is empty.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Sequence
from typing import Protocol

import trio

from .db import Store
from .records import Record

log = logging.getLogger("arbiter.store")

NO_ROOM = 0  # in a cause: the frame came with records that name no room (a session's)
Cause = frozenset[int]
NO_CAUSE: Cause = frozenset()


class Sink(Protocol):
    def deliver_all(self, frames: Sequence[bytes]) -> None:
        """Take ``frames``, in order (never blocks)."""
        ...


class WriteFailed(Exception):
    """The writer could not make the batch durable (and may or may not have written it):
    everything the batch caused is dropped."""


class Writer(Protocol):
    async def write(self, records: Sequence[Record]) -> frozenset[int]:
        """Write ``records`` durably in one transaction; return the rooms whose records were
        refused (and left out), or raise :class:`WriteFailed`."""
        ...


class StoreWriter:
    """The embedded server's writer: the SQLite store, in a worker thread when every commit
    waits for the disk (synchronous=FULL), inline otherwise (a commit then costs less than the
    hop to a thread)."""

    def __init__(self, store: Store, *, threaded: bool = False) -> None:
        self.store = store
        self.threaded = threaded

    async def write(self, records: Sequence[Record]) -> frozenset[int]:
        if self.threaded:
            await trio.to_thread.run_sync(self.store.write, records)
        else:
            self.store.write(records)
        return NO_CAUSE


Batch = list[tuple[Iterable[Sink], bytes, Cause]]
# What a batch dropped: the rooms refused (or all of the batch's when it failed), the sinks
# that lost frames, and the failure if the whole write failed.
Refused = Callable[[frozenset[int], set[Sink], WriteFailed | None], None]


def causes(records: Sequence[Record]) -> Cause:
    """The cause to give the frames produced together with ``records``."""
    return frozenset(getattr(r, "room", NO_ROOM) for r in records)


class CommitGate:
    def __init__(self, writer: Writer, *,
                 on_batch: Callable[[int, int], None] | None = None,
                 on_refused: Refused | None = None) -> None:
        self.writer = writer
        self.on_batch = on_batch
        self.on_refused = on_refused
        self._frames: Batch = []
        self._records: list[Record] = []
        self._wake = trio.Event()
        self._writing: trio.Event | None = None  # set when the batch being written is done
        self.batches = 0
        self.dropped_frames = 0  # frames never sent because their records were not written

    def send(self, targets: Iterable[Sink], frame: bytes, cause: Cause = NO_CAUSE) -> None:
        """Deliver ``frame`` to each of ``targets`` once everything queued before is durable
        (and only if the records of ``cause`` were written)."""
        self._frames.append((targets, frame, cause))
        self._wake.set()

    def log(self, record: Record) -> None:
        """Write ``record`` with the next batch (before any frame handed over after it)."""
        self._records.append(record)
        self._wake.set()

    @property
    def pending(self) -> bool:
        """Something handed over is not yet written (or being written) and delivered."""
        return bool(self._records or self._frames) or self._writing is not None

    async def run(self, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        task_status.started()
        while True:
            if not (self._records or self._frames):
                await self._wake.wait()
                await trio.sleep(0)  # let the other tasks that are ready queue their work first
            # else: work came in while the last batch was being written; it is the next batch
            # already, and one more turn of the event loop would only add to its latency.
            self._wake = trio.Event()
            await self.flush()

    async def flush(self) -> None:
        """Write what is queued, then hand its frames on. A flush from another task (a server
        on its way out) first waits for the batch being written: that batch's outcome decides
        what of the queue may follow it."""
        while self._writing is not None:
            await self._writing.wait()
        frames, self._frames = self._frames, []
        records, self._records = self._records, []
        refused: frozenset[int] = NO_CAUSE
        failed: WriteFailed | None = None
        if records:
            self._writing = writing = trio.Event()
            try:
                refused = await self.writer.write(records)
            except WriteFailed as exc:
                failed = exc
                refused = causes(records)
            except BaseException:  # cancelled mid-write (the server is stopping): the batch
                self._drop_queued(causes(records))  # may or may not be written, so what
                raise  # its rooms queued since must not be (it could follow a hole)
            finally:
                self._writing = None
                writing.set()
        self.batches += 1
        if self.on_batch is not None:
            self.on_batch(len(records), len(frames))
        lost: set[Sink] = set()
        if refused:
            frames, lost = self._without(frames, refused)
            # What those rooms queued while the batch was out goes too: written after records
            # that were not, it would leave a hole in their logs.
            lost |= self._drop_queued(refused)
        # Each connection gets the batch's frames for it in one call, in their order: it
        # writes them at once (one system call for all, not one each).
        batches: dict[Sink, list[bytes]] = {}
        for targets, frame, _ in frames:
            for sink in targets:
                mine = batches.get(sink)
                if mine is None:
                    batches[sink] = [frame]
                else:
                    mine.append(frame)
        for sink, mine in batches.items():
            sink.deliver_all(mine)
        if refused:
            log.warning("a batch of %d records was %s; %d rooms refused", len(records),
                        "not written" if failed else "partly refused", len(refused))
            if self.on_refused is not None:
                self.on_refused(refused, lost, failed)

    def _drop_queued(self, rooms: frozenset[int]) -> set[Sink]:
        """Take the queued records of ``rooms`` and the frames they caused out of the queue;
        return who lost frames."""
        self._records = [r for r in self._records if getattr(r, "room", NO_ROOM) not in rooms]
        self._frames, lost = self._without(self._frames, rooms)
        return lost

    def _without(self, frames: Batch, rooms: frozenset[int]) -> tuple[Batch, set[Sink]]:
        """``frames`` less those caused by ``rooms`` (counted as dropped), and who lost them."""
        kept: Batch = []
        lost: set[Sink] = set()
        for targets, frame, cause in frames:
            if cause and not cause.isdisjoint(rooms):
                self.dropped_frames += 1
                lost.update(targets)
            else:
                kept.append((targets, frame, cause))
        return kept, lost
