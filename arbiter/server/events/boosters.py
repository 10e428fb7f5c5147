"""Boosters of a set, opened from a seeded generator.

A booster is drawn slot by slot from the set's card data (``cards/sets/CODE.tsv``, which
carries each card's rarity): the rare slot first (a mythic rare one time in ``mythic_one_in``,
else a rare), then the uncommons, the commons and the basic land. Within one rarity's slots a
booster never holds a card twice, as printed sheets do not repeat a card in one pack; across
boosters anything goes. Basic lands are not in the set's data, so the land slot picks one of
the five uniformly. Everything comes from the ``Rng`` passed in, in a fixed order of calls,
so an event's seed determines every booster it opens (and its log can be audited).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from types import MappingProxyType

from arbiter.protocol.errors import Code, Refusal
from arbiter.server.rules.cards.sets import SETS, printings
from arbiter.server.rules.rng import Rng

BASICS = ("Plains", "Island", "Swamp", "Mountain", "Forest")
COMMON, UNCOMMON, RARE, MYTHIC = "C", "U", "R", "M"


@dataclass(frozen=True)
class BoosterShape:
    """How many cards of each rarity a booster holds (Magic 2010's shape by default)."""

    commons: int = 10
    uncommons: int = 3
    rares: int = 1  # rare slots; each is a mythic rare one time in mythic_one_in
    mythic_one_in: int = 8
    basics: int = 1

    @property
    def size(self) -> int:
        return self.commons + self.uncommons + self.rares + self.basics


SHAPES: dict[str, BoosterShape] = {"M10": BoosterShape()}


@cache
def sheets(set_code: str) -> Mapping[str, tuple[str, ...]]:
    """The set's card names by rarity (C, U, R, M), in collector-number order."""
    if set_code not in SETS or set_code not in SHAPES:
        known = ", ".join(sorted(SHAPES))
        raise Refusal(Code.BAD_CONFIG, f"no boosters of set {set_code!r}; the sets with "
                                       f"boosters are {known}")
    out: dict[str, list[str]] = {COMMON: [], UNCOMMON: [], RARE: [], MYTHIC: []}
    for p in printings(set_code):
        out.setdefault(p.rarity, []).append(p.name)
    return MappingProxyType({rarity: tuple(names) for rarity, names in out.items()})


def _sample(names: tuple[str, ...], k: int, rng: Rng) -> list[str]:
    """``k`` different names, in the order drawn (a partial Fisher-Yates shuffle)."""
    if k > len(names):
        raise Refusal(Code.BAD_CONFIG, f"a booster needs {k} different cards of a rarity that "
                                       f"has {len(names)}")
    pool = list(names)
    for i in range(k):
        j = i + rng.below(len(pool) - i)
        pool[i], pool[j] = pool[j], pool[i]
    return pool[:k]


def open_booster(set_code: str, rng: Rng) -> list[str]:
    """One booster of ``set_code``: rare or mythic rare, uncommons, commons, basic land."""
    shape = SHAPES.get(set_code)
    by_rarity = sheets(set_code)  # refuses an unknown set
    assert shape is not None
    # Which rare slots are mythic is drawn first, so the slots of each rarity can be drawn
    # without repeating a card (a set without mythics has only rares there).
    mythics = sum(1 for _ in range(shape.rares)
                  if by_rarity[MYTHIC] and rng.below(shape.mythic_one_in) == 0)
    out = _sample(by_rarity[MYTHIC], mythics, rng)
    out += _sample(by_rarity[RARE], shape.rares - mythics, rng)
    out += _sample(by_rarity[UNCOMMON], shape.uncommons, rng)
    out += _sample(by_rarity[COMMON], shape.commons, rng)
    out += [BASICS[rng.below(len(BASICS))] for _ in range(shape.basics)]
    return out


def open_boosters(set_code: str, rng: Rng, count: int) -> list[list[str]]:
    """``count`` boosters of ``set_code``, opened one after another from ``rng``."""
    if count < 0:
        raise Refusal(Code.BAD_CONFIG, f"cannot open {count} boosters")
    return [open_booster(set_code, rng) for _ in range(count)]


def draft_boosters(set_code: str, rng: Rng, seats: int, rounds: int = 3
                   ) -> list[list[list[str]]]:
    """The packs of a booster draft, ``[round][seat]``: each round's packs are opened in seat
    order, round after round (the shape ``draft.Pod.new`` takes)."""
    return [open_boosters(set_code, rng, seats) for _ in range(rounds)]
