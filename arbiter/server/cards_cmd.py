"""``arbiter cards``: the sets and their cards, as the server plays them.

    arbiter cards                 the sets, each with how many of its cards are playable
    arbiter cards --set M10       every card of the set, one a line, name first, in
                                  collector-number order: cost, type line, power/toughness
                                  or loyalty, rarity
    arbiter cards --set M10 --text
                                  the same, each followed by its Oracle text, indented

A card of a set's data that has no definition yet is marked "(not playable yet)": a deck
naming it is refused (``bad_deck``) with that card's name.
"""

from __future__ import annotations

import argparse
import sys

from arbiter.server.rules.cards.pool import lookup
from arbiter.server.rules.cards.sets import SETS, Printing, UnknownSet, printings


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--set", dest="set_code", metavar="CODE", default=None,
                        help=f"the set to list ({', '.join(sorted(SETS))})")
    parser.add_argument("--text", action="store_true", help="print each card's Oracle text")


def line(p: Printing) -> str:
    """One card: name first, then what a player looks for when building a deck."""
    stats = (f"{p.power}/{p.toughness}" if p.power else
             f"loyalty {p.loyalty}" if p.loyalty else "")
    fields = [p.name, p.cost, p.type_line, stats, p.rarity]
    out = "  ".join(f for f in fields if f)
    return out if lookup(p.name) is not None else f"{out}  (not playable yet)"


def run(args: argparse.Namespace) -> int:
    if args.set_code is None:
        for code, name in sorted(SETS.items()):
            cards = printings(code)
            playable = sum(1 for p in cards if lookup(p.name) is not None)
            print(f"{code}  {name}  {playable} of {len(cards)} cards playable")
        return 0
    try:
        cards = printings(args.set_code.upper())
    except UnknownSet as exc:
        print(f"arbiter cards: {exc.args[0]}", file=sys.stderr)
        return 2
    for p in cards:
        print(line(p))
        if args.text and p.text:
            for text_line in p.text.splitlines():
                print(f"    {text_line}")
    return 0
