"""Counters for /metrics, rendered in the Prometheus text exposition format (version 0.0.4)."""

from __future__ import annotations

from collections import Counter, deque

import trio

RATE_WINDOW = 10  # seconds over which actions per second is averaged


class Metrics:
    def __init__(self) -> None:
        self.actions_total = 0
        self._buckets: deque[list[int]] = deque()  # [second, actions in that second]
        self.errors: Counter[str] = Counter()
        self.internal_errors = 0
        self.view_repairs = 0
        self.slow_disconnects = 0
        self.policy_closes = 0
        self.games_started = 0
        self.games_finished = 0
        self.connections_total = 0
        self.sessions_expired = 0

    def count_action(self) -> None:
        self.actions_total += 1
        second = int(trio.current_time())
        if self._buckets and self._buckets[-1][0] == second:
            self._buckets[-1][1] += 1
        else:
            self._buckets.append([second, 1])
            while self._buckets and self._buckets[0][0] <= second - RATE_WINDOW:
                self._buckets.popleft()

    def actions_per_second(self, now: float) -> float:
        since = int(now) - RATE_WINDOW
        return sum(n for s, n in self._buckets if s > since) / RATE_WINDOW

    def count_error(self, code: str) -> None:
        self.errors[code] += 1


def render(samples: list[tuple[str, str, str, list[tuple[dict[str, str], float]]]]) -> str:
    """``samples``: (name, type, help, [(labels, value), ...]) for each metric family."""
    lines = []
    for name, kind, help_text, values in samples:
        lines.append(f"# HELP {name} {help_text}")
        lines.append(f"# TYPE {name} {kind}")
        for labels, value in values:
            label_text = ""
            if labels:
                inner = ",".join(f'{k}="{_escape(v)}"' for k, v in sorted(labels.items()))
                label_text = "{" + inner + "}"
            number = repr(float(value)) if isinstance(value, float) else str(value)
            lines.append(f"{name}{label_text} {number}")
    return "\n".join(lines) + "\n"


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace("\n", "\\n").replace('"', '\\"')
