"""Mana costs, mana pools and paying costs (CR 106, 107.4, 202, 601.2g-h).

A cost such as ``{3}{W}{W}`` is a :class:`ManaCost`: a generic amount plus a count of each
coloured (W, U, B, R, G) or colourless (C) symbol. Payment uses mana already in the pool first
and then activates untapped mana sources, chosen by :func:`plan_payment`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

COLORS = ("W", "U", "B", "R", "G")
MANA_TYPES = ("W", "U", "B", "R", "G", "C")
_SYMBOL = re.compile(r"\{([^}]+)\}")


@dataclass(frozen=True, slots=True)
class ManaCost:
    generic: int = 0
    pips: tuple[tuple[str, int], ...] = ()  # sorted (type, count) for W/U/B/R/G/C

    @staticmethod
    def parse(text: str) -> ManaCost:
        """Parse ``{2}{U}{U}``; the empty string is a cost of nothing."""
        generic = 0
        counts: dict[str, int] = {}
        pos = 0
        for m in _SYMBOL.finditer(text):
            if m.start() != pos:
                raise ValueError(f"malformed mana cost {text!r}")
            pos = m.end()
            sym = m.group(1)
            if sym.isdigit():
                generic += int(sym)
            elif sym in MANA_TYPES:
                counts[sym] = counts.get(sym, 0) + 1
            else:
                raise ValueError(f"unsupported mana symbol {{{sym}}} in {text!r}")
        if pos != len(text):
            raise ValueError(f"malformed mana cost {text!r}")
        return ManaCost(generic, tuple(sorted(counts.items())))

    @property
    def mana_value(self) -> int:
        return self.generic + sum(n for _, n in self.pips)

    @property
    def colors(self) -> frozenset[str]:
        return frozenset(c for c, _ in self.pips if c in COLORS)

    def plus_generic(self, extra: int) -> ManaCost:
        return ManaCost(self.generic + extra, self.pips) if extra else self

    def minus_generic(self, less: int) -> ManaCost:
        """A cost reduction: generic mana only, never below nothing (CR 601.2f)."""
        return ManaCost(max(self.generic - less, 0), self.pips) if less else self

    def __str__(self) -> str:
        parts = [f"{{{self.generic}}}"] if self.generic or not self.pips else []
        for color in MANA_TYPES:
            parts.extend(f"{{{color}}}" for c, n in self.pips if c == color for _ in range(n))
        return "".join(parts)


@dataclass(frozen=True, slots=True)
class Payment:
    """How a cost gets paid: mana taken from the pool and sources to tap for mana."""

    from_pool: tuple[tuple[str, int], ...]
    sources: tuple[tuple[int, str], ...]  # (object id, mana type it adds)


def plan_payment(
    cost: ManaCost, pool: dict[str, int], sources: list[tuple[int, str]]
) -> Payment | None:
    """Choose a way to pay ``cost`` or return None when it cannot be paid.

    ``sources`` are the untapped mana abilities the payer may activate, each producing one mana
    of one type (every source in the card pool is of that kind). Pool mana is spent first since
    it would empty at the end of the step anyway. Sources are chosen in the given order, so the
    caller controls which lands are preferred.
    """
    left = dict(pool)
    used_pool: dict[str, int] = {}
    chosen: list[tuple[int, str]] = []
    remaining = list(sources)

    def spend(color: str, need: int) -> int:
        """Take up to ``need`` of ``color`` from the pool; return what is still needed."""
        take = min(need, left.get(color, 0))
        if take:
            left[color] -= take
            used_pool[color] = used_pool.get(color, 0) + take
        return need - take

    for color, count in cost.pips:
        need = spend(color, count)
        if need:
            matching = [s for s in remaining if s[1] == color]
            if len(matching) < need:
                return None
            for s in matching[:need]:
                chosen.append(s)
                remaining.remove(s)
    need = cost.generic
    for color in MANA_TYPES:
        need = spend(color, need)
    if need:
        if len(remaining) < need:
            return None
        # Prefer colourless sources, then the colours most plentiful among what is left, so the
        # scarcest colours stay available for later spells.
        plenty: dict[str, int] = {}
        for _, color in remaining:
            plenty[color] = plenty.get(color, 0) + 1
        ordered = sorted(
            remaining, key=lambda s: (s[1] != "C", -plenty[s[1]], remaining.index(s))
        )
        chosen.extend(ordered[:need])
    return Payment(tuple(sorted(used_pool.items())), tuple(chosen))


def can_pay(cost: ManaCost, pool: dict[str, int], sources: list[tuple[int, str]]) -> bool:
    total_pool = sum(pool.values())
    if cost.mana_value > total_pool + len(sources):
        return False
    return plan_payment(cost, pool, sources) is not None
