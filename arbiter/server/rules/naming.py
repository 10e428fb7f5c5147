"""Naming a card (CR 614.12b: "as ~ enters, choose a card name") and what a chosen name
stops: activated abilities of sources with that name, mana abilities excepted (Pithing
Needle).

The name is one pick from a list: every card name a deck could hold (the pool's traditional,
nontoken, non-test cards), with the names of permanents on the battlefield whose activated
abilities would be stopped first, so the first option is a sensible one.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from .cards.pool import POOL
from .cards.vocab import Activated, ChooseCardName, NamedCantBeActivated
from .state import Action, Obj

if TYPE_CHECKING:
    from .game import Flow, Game

Chooser = Callable[[int, str, str, Callable[[], list[Action]]], "Flow"]

_NAMEABLE = sorted(n for n, c in POOL.items()
                   if not (c.token or c.test_only or c.supplementary))


def choose_name(pid: int, names: Callable[[], list[str]], choose: Chooser,
                prompt: str = "Choose a card name", source: int | None = None) -> Flow:
    """The one way a player names a card: a ``name_card`` decision with one action per name
    of ``names()`` (read again after a refresh), the name its label. Returns the name, or
    None if nobody could choose (the player left)."""
    offered: list[str] = []

    def options() -> list[Action]:
        offered[:] = names()
        return [Action(i, "name_card", n, obj=source, index=i) for i, n in enumerate(offered)]

    answer = yield from choose(pid, "name_card", prompt, options)
    return offered[answer.index] if answer is not None else None


def name_choice(game: Game, spell: Obj, choose: Chooser) -> Flow:
    """As a permanent spell with "choose a card name" resolves, its controller names a card;
    returns the name, or "" when it has no such ability (or nobody could choose)."""
    if not any(isinstance(s, ChooseCardName) for s in spell.defn.statics):
        return ""
    active = sorted({o.name for o in game.battlefield if o.name in POOL
                     and any(isinstance(a, Activated) for a in o.defn.abilities)})
    names = active + [n for n in _NAMEABLE if n not in active]
    name = yield from choose_name(spell.controller, lambda: names, choose,
                                  f"{spell.name}: choose a card name", spell.oid)
    if name is None:
        return ""
    game.say(f"{game.name(spell.controller)} names {name}.", "name",
             player=spell.controller, obj=spell.oid)
    return str(name)


def activation_stopped(game: Game, obj: Obj) -> bool:
    """Is ``obj`` a source whose activated abilities can't be activated (mana abilities are
    :class:`ManaAbility`, never asked about here)?"""
    name = obj.name  # a source without a chosen name stops nothing: asked first, it's cheap
    return any(src.chosen_name == name and not src.phased_out
               and any(isinstance(st, NamedCantBeActivated) for st in src.defn.global_statics)
               for src in game.global_sources)
