"""One task wakes rooms at their deadlines (grace periods, chess clocks, idle rooms).

A room says when it next wants waking with :meth:`Timers.schedule`; a later call for the same
room replaces the earlier deadline. Time is ``trio.current_time()``, so tests drive it with
``trio.testing.MockClock``.
"""

from __future__ import annotations

import heapq
import itertools
import math
from typing import Protocol

import trio


class Wakeable(Protocol):
    def on_timer(self, now: float) -> None: ...


class Timers:
    def __init__(self) -> None:
        self._heap: list[tuple[float, int, Wakeable]] = []
        self._wanted: dict[int, float] = {}  # id(room) -> its current deadline
        self._counter = itertools.count()
        self._changed = trio.Event()

    def schedule(self, room: Wakeable, deadline: float | None) -> None:
        """Wake ``room`` at ``deadline`` (None or inf: never) instead of any earlier request."""
        if deadline is None or math.isinf(deadline):
            self._wanted.pop(id(room), None)
            return
        if self._wanted.get(id(room)) == deadline:
            return
        self._wanted[id(room)] = deadline
        heapq.heappush(self._heap, (deadline, next(self._counter), room))
        if self._heap[0][2] is room:
            self._changed.set()

    async def run(self, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        task_status.started()
        while True:
            deadline = self._heap[0][0] if self._heap else math.inf
            with trio.move_on_at(deadline):
                await self._changed.wait()
            self._changed = trio.Event()
            now = trio.current_time()
            woken: set[int] = set()
            while self._heap and self._heap[0][0] <= now and id(self._heap[0][2]) not in woken:
                when, _, room = heapq.heappop(self._heap)
                if self._wanted.get(id(room)) != when:
                    continue  # superseded by a later schedule() call
                del self._wanted[id(room)]
                woken.add(id(room))  # once per pass, whatever the room asks for next
                room.on_timer(now)
