"""The sets: each is a card-data file and a module of definitions.

``CODE.tsv`` is the set's card data as published (collector number, rarity, name, mana cost,
type line, power, toughness, loyalty, Oracle text; one card a line, tab-separated, ``\\n`` for
a line break in the text). It is what players read and what Limited events need (rarity for
boosters); the engine never reads a card's behaviour from it. ``code.py`` holds the
definitions written in the vocabulary (cards/vocab.py). A test holds each definition to its
card data, so the two cannot drift apart.

The next set is two new files here and one line in :data:`SETS`.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from functools import cache
from importlib import resources

SETS: dict[str, str] = {"M10": "Magic 2010"}  # code -> name


@dataclass(frozen=True, slots=True)
class Printing:
    """One card of a set, as its card-data file has it."""

    number: int
    rarity: str  # C, U, R or M
    name: str
    cost: str  # "{2}{W}{W}"; "" for lands
    type_line: str  # "Legendary Planeswalker — Ajani"
    power: str  # "" when not a creature; "*" when an ability defines it
    toughness: str
    loyalty: str
    text: str  # Oracle text, line breaks as "\n"


class UnknownSet(LookupError):
    pass


@cache
def printings(code: str) -> tuple[Printing, ...]:
    """A set's cards in collector-number order (basic lands are not in the file)."""
    if code not in SETS:
        raise UnknownSet(f"unknown set {code!r}; the sets are {', '.join(sorted(SETS))}")
    data = resources.files(__package__).joinpath(f"{code}.tsv").read_text(encoding="utf-8")
    rows = csv.DictReader(data.splitlines(), delimiter="\t", quoting=csv.QUOTE_NONE)
    return tuple(Printing(int(r["number"]), r["rarity"], r["name"], r["mana_cost"],
                          r["type_line"], r["power"], r["toughness"], r["loyalty"],
                          r["oracle_text"].replace("\\n", "\n"))
                 for r in rows)
