"""One task wakes the core at the deadlines it asks for (grace periods, chess clocks, waiting
rooms, server-run bots, sessions to forget).

The core names each deadline by a key (``Effects.deadlines``); a later word for the same key
replaces the earlier one. Time is ``trio.current_time()``, so tests drive it with
``trio.testing.MockClock``.
"""

from __future__ import annotations

import heapq
import itertools
import math
from collections.abc import Callable, Hashable

import trio


class Timers:
    def __init__(self) -> None:
        self._heap: list[tuple[float, int, Hashable]] = []
        self._wanted: dict[Hashable, float] = {}  # key -> its current deadline
        self._counter = itertools.count()
        self._changed = trio.Event()

    def schedule(self, key: Hashable, deadline: float | None) -> None:
        """Wake ``key`` at ``deadline`` (None or inf: never) instead of any earlier request."""
        if deadline is None or math.isinf(deadline):
            self._wanted.pop(key, None)
            return
        if self._wanted.get(key) == deadline:
            return
        self._wanted[key] = deadline
        heapq.heappush(self._heap, (deadline, next(self._counter), key))
        if self._heap[0][2] == key:
            self._changed.set()

    def pending(self, key: Hashable) -> float | None:
        return self._wanted.get(key)

    async def run(self, wake: Callable[[Hashable, float], None],
                  task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        """Call ``wake(key, now)`` for each key whose deadline has come, once per pass."""
        task_status.started()
        while True:
            deadline = self._heap[0][0] if self._heap else math.inf
            with trio.move_on_at(deadline):
                await self._changed.wait()
            self._changed = trio.Event()
            now = trio.current_time()
            woken: set[Hashable] = set()
            while self._heap and self._heap[0][0] <= now and self._heap[0][2] not in woken:
                when, _, key = heapq.heappop(self._heap)
                if self._wanted.get(key) != when:
                    continue  # superseded by a later schedule() call
                del self._wanted[key]
                woken.add(key)  # once per pass, whatever the core asks for next
                wake(key, now)
