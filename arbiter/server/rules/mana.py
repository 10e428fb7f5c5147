"""Mana costs, mana pools and paying costs (CR 106, 107.4, 202, 601.2g-h).

A cost such as ``{3}{W}{W}`` is a :class:`ManaCost`: a generic amount plus a count of each
coloured (W, U, B, R, G) or colourless (C) symbol, and the number of {X} symbols (CR 107.3).
X is 0 everywhere but on the stack (CR 107.3g): the cost a caster pays is
``cost.with_x(value)``, the announced value in place of each {X} (CR 107.3a). Payment uses mana
already in the pool first and then activates untapped mana sources, chosen by
:func:`plan_payment`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

COLORS = ("W", "U", "B", "R", "G")
MANA_TYPES = ("W", "U", "B", "R", "G", "C")
# A source that adds one mana of any colour (Birds of Paradise): the payment picks the colour.
ANY_COLOR = "*"


def mana_choices(produces: str) -> tuple[str, ...]:
    """The mana types a source that adds ``produces`` may make: one type ("G"), one of two
    or more ("BR": {B} or {R}, CR 106.4), or any colour (``ANY_COLOR``)."""
    return COLORS if produces == ANY_COLOR else tuple(produces)


_SYMBOL = re.compile(r"\{([^}]+)\}")


@dataclass(frozen=True, slots=True)
class ManaCost:
    generic: int = 0
    pips: tuple[tuple[str, int], ...] = ()  # sorted (type, count) for W/U/B/R/G/C
    x: int = 0  # how many {X} symbols (CR 107.3): {X}{X}{R} has two

    @staticmethod
    def parse(text: str) -> ManaCost:
        """Parse ``{2}{U}{U}``; the empty string is a cost of nothing."""
        generic = xs = 0
        counts: dict[str, int] = {}
        pos = 0
        for m in _SYMBOL.finditer(text):
            if m.start() != pos:
                raise ValueError(f"malformed mana cost {text!r}")
            pos = m.end()
            sym = m.group(1)
            if sym.isdigit():
                generic += int(sym)
            elif sym == "X":
                xs += 1
            elif sym in MANA_TYPES:
                counts[sym] = counts.get(sym, 0) + 1
            else:
                raise ValueError(f"unsupported mana symbol {{{sym}}} in {text!r}")
        if pos != len(text):
            raise ValueError(f"malformed mana cost {text!r}")
        return ManaCost(generic, tuple(sorted(counts.items())), xs)

    @property
    def mana_value(self) -> int:
        """With X as 0 (CR 107.3g, 202.3e): the value everywhere but on the stack."""
        value = self.generic
        for _, n in self.pips:  # a loop, not sum() over a generator: asked for every cost
            value += n
        return value

    def with_x(self, value: int, color: str = "") -> ManaCost:
        """The cost to pay once X is announced: each {X} becomes {value} (CR 107.3a), or
        ``value`` mana of ``color`` when only that colour may be spent on X."""
        if not self.x:
            return self
        if not color:
            return ManaCost(self.generic + self.x * value, self.pips)
        counts = dict(self.pips)
        counts[color] = counts.get(color, 0) + self.x * value
        return ManaCost(self.generic, tuple(sorted((c, n) for c, n in counts.items() if n)))

    @property
    def colors(self) -> frozenset[str]:
        return frozenset(c for c, _ in self.pips if c in COLORS)

    def plus_generic(self, extra: int) -> ManaCost:
        return ManaCost(self.generic + extra, self.pips, self.x) if extra else self

    def minus_generic(self, less: int) -> ManaCost:
        """A cost reduction: generic mana only, never below nothing (CR 601.2f)."""
        return ManaCost(max(self.generic - less, 0), self.pips, self.x) if less else self

    def __str__(self) -> str:
        parts = ["{X}"] * self.x
        if self.generic or not (self.pips or self.x):
            parts.append(f"{{{self.generic}}}")
        for color in MANA_TYPES:
            parts.extend(f"{{{color}}}" for c, n in self.pips if c == color for _ in range(n))
        return "".join(parts)


@dataclass(frozen=True, slots=True)
class Payment:
    """How a cost gets paid: mana taken from the pool and sources to tap for mana."""

    from_pool: tuple[tuple[str, int], ...]
    sources: tuple[tuple[int, str], ...]  # (object id, mana type it adds)


def plan_payment(
    cost: ManaCost, pool: dict[str, int], sources: Sequence[tuple[int, str]], *,
    keep: dict[str, int] | None = None, last: frozenset[int] = frozenset(),
) -> Payment | None:
    """Choose a way to pay ``cost`` or return None when it cannot be paid.

    ``sources`` are the untapped mana abilities the payer may activate, each producing one mana
    of one type, of one of several (a dual land's "BR"), or of any colour (``ANY_COLOR``). Pool
    mana is spent first since it would empty at the end of the step anyway. Sources are chosen
    in the given order, so the caller controls which lands are preferred; a source with a
    choice is used after those without, any colour last, since it can pay for anything, and
    the payment names the colour it makes.

    The payer's preference (docs/rulings.md, "Which permanents pay"): ``last`` are sources
    used only when the others cannot pay (creatures, which could attack or block instead),
    and ``keep`` counts the mana of each type the rest of the payer's hand still needs, so
    generic mana comes first from the types with the most to spare. A preference never makes
    a payable cost unpayable: when the preferred way fails the plain one is taken.
    """
    if keep is None and not last:
        return _plan(cost, pool, sources, {}, last)
    plan = _plan(cost, pool, sources, keep or {}, last)
    return plan if plan is not None else _plan(cost, pool, sources, {}, frozenset())


def _plan(cost: ManaCost, pool: dict[str, int], sources: Sequence[tuple[int, str]],
          keep: dict[str, int], last: frozenset[int]) -> Payment | None:
    """:func:`plan_payment` for one preference (none: ``keep`` empty, ``last`` empty)."""
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
            # Sources of that one type first, then those with a choice, the widest last.
            matching = sorted((s for s in remaining if color in mana_choices(s[1])),
                              key=lambda s: (s[0] in last, len(mana_choices(s[1]))))
            if len(matching) < need:
                return None
            for s in matching[:need]:
                chosen.append((s[0], color))
                remaining.remove(s)
    need = cost.generic
    for color in MANA_TYPES:
        need = spend(color, need)
    if need:
        if len(remaining) < need:
            return None
        # Prefer colourless sources, then the colours with the most to spare among what is
        # left (beyond what the hand still needs), so the scarcest colours stay available.
        spare: dict[str, int] = {}
        for _, color in remaining:
            spare[color] = spare.get(color, 0) + 1
        for color, wanted in keep.items():
            if color in spare:
                spare[color] -= wanted
        ordered = sorted(
            remaining,
            key=lambda s: (s[0] in last, len(mana_choices(s[1])), s[1] != "C", -spare[s[1]],
                           remaining.index(s))
        )
        # For generic mana any type does; a source with a choice makes its first one.
        chosen.extend((s[0], mana_choices(s[1])[0]) for s in ordered[:need])
    return Payment(tuple(sorted(used_pool.items())), tuple(chosen))


def after_paying(cost: ManaCost, color: str, amount: int) -> ManaCost:
    """What is left of ``cost`` once ``amount`` mana of ``color`` is spent on it: on its
    ``color`` symbols first, the rest on generic mana (CR 601.2h), what is not needed staying
    unspent. The same order as :func:`plan_payment` spends the pool in."""
    counts = dict(cost.pips)
    on_pip = min(amount, counts.get(color, 0))
    if on_pip:
        counts[color] -= on_pip
    generic = max(cost.generic - (amount - on_pip), 0)
    return ManaCost(generic, tuple(sorted((c, n) for c, n in counts.items() if n)), cost.x)


# can_pay's answers by everything it is given: it is a pure function of the cost, the pool's
# content and the sources in order, so the key is sufficient whatever the plan does with
# them. The legal-action lists ask it of each card in hand again and again with the same
# sources (a pass, a new step); cleared when it grows large, as a bound on its memory.
_PAYABLE: dict[tuple[int, tuple[tuple[str, int], ...], int, tuple[tuple[str, int], ...],
                     tuple[tuple[int, str], ...]], bool] = {}
_PAYABLE_MOST = 1 << 16


def can_pay(cost: ManaCost, pool: dict[str, int], sources: Sequence[tuple[int, str]]) -> bool:
    """Whether :func:`plan_payment` finds a way (remembered by its inputs, ``_PAYABLE``)."""
    # The cost by its fields: a tuple hashes and compares without the dataclass's methods.
    key = (cost.generic, cost.pips, cost.x, tuple(sorted(pool.items())) if pool else (),
           tuple(sources))
    known = _PAYABLE.get(key)
    if known is None:
        if len(_PAYABLE) >= _PAYABLE_MOST:
            _PAYABLE.clear()
        known = _PAYABLE[key] = _can_pay(cost, pool, sources)
    return known


def _can_pay(cost: ManaCost, pool: dict[str, int], sources: Sequence[tuple[int, str]]
             ) -> bool:
    """Whether :func:`plan_payment` finds a way, without building it when it need not.

    The legal-action list asks this for every card in hand at every priority. When each
    source makes one type of mana (basic lands, most creatures) the greedy plan fails only
    where counting does: sources of different single types are disjoint, so each coloured
    pip needs its own pool mana and sources of that type, and generic mana takes whatever is
    left (CR 107.4, 601.2g-h); a source with a choice falls back on the plan itself."""
    total_pool = sum(pool.values())
    if cost.mana_value > total_pool + len(sources):
        return False
    single: dict[str, int] = {}
    for _, produces in sources:
        if len(produces) != 1 or produces == ANY_COLOR:
            return plan_payment(cost, pool, sources) is not None
        single[produces] = single.get(produces, 0) + 1
    for color, count in cost.pips:
        if pool.get(color, 0) + single.get(color, 0) < count:
            return False
    # The plan spends pool mana for generic only of the mana types; the rest from sources.
    return cost.mana_value <= sum(pool.get(c, 0) for c in MANA_TYPES) + len(sources)
