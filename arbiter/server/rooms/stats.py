"""The core's counters, read by the transport for /metrics (the core imports nothing of the
transport's). Time is what the core is told; nothing here reads a clock."""

from __future__ import annotations

from collections import Counter, deque

RATE_WINDOW = 10  # seconds over which actions per second is averaged


class Stats:
    def __init__(self) -> None:
        self.actions_total = 0
        self._buckets: deque[list[int]] = deque()  # [second, actions in that second]
        self.errors: Counter[str] = Counter()  # error messages sent, by code
        self.internal_errors = 0
        self.view_repairs = 0
        self.policy_closes = 0  # connections the core closed for garbage or flooding
        self.games_started = 0
        self.games_finished = 0
        self.rooms_expired = 0  # waiting rooms nobody joined in time
        self.redirects = 0  # clients sent to another node of a cluster
        self.catalogs_sent = 0  # catalog replies (76 KB each: a client should keep its copy)

    def count_action(self, now: float) -> None:
        self.actions_total += 1
        second = int(now)
        if self._buckets and self._buckets[-1][0] == second:
            self._buckets[-1][1] += 1
        else:
            self._buckets.append([second, 1])
            while self._buckets and self._buckets[0][0] <= second - RATE_WINDOW:
                self._buckets.popleft()

    def actions_per_second(self, now: float) -> float:
        since = int(now) - RATE_WINDOW
        return sum(n for s, n in self._buckets if s > since) / RATE_WINDOW
