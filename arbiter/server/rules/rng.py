"""A small deterministic random number generator held inside the game state.

The engine never touches the global ``random`` module: every shuffle and random choice comes
from an :class:`Rng` that lives in the state, so a game is a pure function of its configuration,
seed and commands. SplitMix64 is used because its whole state is one integer (cheap to hash and
to record) and its output is identical on every platform and Python version.
"""

from __future__ import annotations

from typing import TypeVar

_MASK = (1 << 64) - 1
T = TypeVar("T")


class Rng:
    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK

    def next64(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in ``range(n)`` (rejection sampling, no modulo bias)."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next64()
            if x < limit:
                return x % n

    def choice(self, items: list[T]) -> T:
        return items[self.below(len(items))]

    def shuffle(self, items: list[T]) -> None:
        """Fisher-Yates shuffle in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def fork(self) -> Rng:
        """A child generator (for a subgame or a restarted game) derived from this one."""
        return Rng(self.next64())
