"""The commit gate: nothing a command causes reaches a client before the command is durable.

Rooms hand their log records to :meth:`CommitGate.log` and every outgoing frame to
:meth:`CommitGate.send` together with the connections it is for; neither waits. The gate's task
takes everything handed over so far, writes the records in one transaction, and only then passes
the frames, in the order they were produced, to each connection's own bounded queue (``deliver``
never blocks). Frames that follow no write (a room list, an error) ride along with the next batch
and keep their order relative to everything else.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from typing import Protocol

import trio

from .db import Store
from .records import Record

log = logging.getLogger("arbiter.store")


class Sink(Protocol):
    def deliver(self, frame: bytes) -> None: ...


Batch = list[tuple[Iterable[Sink], bytes]]


class CommitGate:
    def __init__(self, store: Store, *, threaded: bool = False,
                 on_batch: Callable[[int, int], None] | None = None) -> None:
        self.store = store
        self.threaded = threaded  # write batches in a worker thread (synchronous=FULL)
        self.on_batch = on_batch
        self._frames: Batch = []
        self._records: list[Record] = []
        self._wake = trio.Event()
        self.batches = 0

    def send(self, targets: Iterable[Sink], frame: bytes) -> None:
        """Deliver ``frame`` to each of ``targets`` once everything queued before is durable."""
        self._frames.append((targets, frame))
        self._wake.set()

    def log(self, record: Record) -> None:
        """Write ``record`` with the next batch (before any frame handed over after it)."""
        self._records.append(record)
        self._wake.set()

    @property
    def pending(self) -> bool:
        return bool(self._records or self._frames)

    async def run(self, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        task_status.started()
        while True:
            await self._wake.wait()
            await trio.sleep(0)  # let the other tasks that are ready queue their work first
            self._wake = trio.Event()
            await self.flush()

    async def flush(self) -> None:
        frames, self._frames = self._frames, []
        records, self._records = self._records, []
        if records:
            if self.threaded:
                await trio.to_thread.run_sync(self.store.write, records)
            else:
                self.store.write(records)
        self.batches += 1
        if self.on_batch is not None:
            self.on_batch(len(records), len(frames))
        for targets, frame in frames:
            for sink in targets:
                sink.deliver(frame)
