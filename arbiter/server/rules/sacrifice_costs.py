"""Costs that sacrifice a permanent of a kind ("Sacrifice a Goblin", CR 701.21): whether one
can be paid, and choosing what to sacrifice as it is paid (CR 601.2h by way of 602.2b)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .characteristics import subtypes
from .state import GRAVEYARD, REFRESH, Action, Decision, Obj

if TYPE_CHECKING:
    from .game import Flow, Game


def candidates(game: Game, pid: int, subtype: str) -> list[Obj]:
    """The permanents ``pid`` controls with ``subtype`` (through the layers: a creature
    made a Goblin by an effect counts), the source itself included."""
    return [o for o in game.permanents() if o.controller == pid
            and subtype in subtypes(game, o)]


def sacrifice(game: Game, pid: int, subtype: str, source: Obj) -> Flow:
    """Choose one of ``candidates`` and sacrifice it; False if none is left (or the player
    left), so the activation is undone."""
    while game.in_game(pid):
        options = candidates(game, pid, subtype)
        if not options:
            return False
        actions = [Action(i, "choose_card", f"Sacrifice {o.name}", obj=o.oid)
                   for i, o in enumerate(options)]
        answer = yield Decision("sacrifice", pid,
                                f"Choose a {subtype} to sacrifice for {source.name}", actions)
        if answer is REFRESH:
            continue
        victim = game.objects.get(answer.obj)
        if victim is None:
            continue
        game.move(victim, GRAVEYARD, cause="sacrifice")
        game.say(f"{game.name(pid)} sacrifices {victim.name}.")
        return True
    return False
