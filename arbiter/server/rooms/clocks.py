"""Chess clocks: each player has a total time and gains an increment after each of their own
decisions; the clock of the player who must decide runs. When it runs out the room gives that
player a game loss (``Penalty(player, "clock")``, recorded as CR 104.3k)."""

from __future__ import annotations


class ChessClock:
    def __init__(self, seats: int, total: float, increment: float) -> None:
        self.remaining = [total] * seats
        self.increment = increment
        self.running: int | None = None
        self.since = 0.0

    def settle(self, now: float, running: int | None, acted: int | None) -> None:
        """Charge the time since the last change to the running player; give ``acted`` (who
        just made a decision) the increment; start ``running``'s clock."""
        if self.running is not None:
            self.remaining[self.running] = max(
                0.0, self.remaining[self.running] - (now - self.since))
        if acted is not None and acted == self.running:
            self.remaining[acted] += self.increment
        self.running = running
        self.since = now

    def deadline(self) -> float | None:
        if self.running is None:
            return None
        return self.since + self.remaining[self.running]

    def flag(self, now: float) -> int | None:
        """The player whose time has run out at ``now``, if any."""
        d = self.deadline()
        if d is not None and now >= d:
            return self.running
        return None

    def millis(self, now: float) -> list[int]:
        out = []
        for seat, left in enumerate(self.remaining):
            if seat == self.running:
                left = max(0.0, left - (now - self.since))
            out.append(int(left * 1000))
        return out

    def restore(self, millis: list[int], now: float) -> None:
        self.remaining = [m / 1000 for m in millis]
        self.since = now
