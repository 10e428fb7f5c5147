"""Sacrificing (CR 701.17): a permanent's controller moves it from the battlefield to its
owner's graveyard. It is not destroyed, so nothing that replaces destruction applies."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .cards.vocab import Sacrifice
from .characteristics import is_type
from .state import BATTLEFIELD, GRAVEYARD, REFRESH, Action, Decision, Obj

if TYPE_CHECKING:
    from .game import Flow, Game
    from .resolve import Ctx


def _sacrifice(ctx: Ctx, e: Sacrifice) -> None:
    g = ctx.game
    for o in ctx.objects(e.what):
        # CR 701.17a: only a permanent, and only one the ability's controller controls.
        if o.zone == BATTLEFIELD and o.controller == ctx.controller:
            g.move(o, GRAVEYARD, cause="sacrifice")
            g.say(f"{g.name(ctx.controller)} sacrifices {o.name}.")


SACRIFICE_HANDLERS: dict[type, Callable[[Ctx, Any], Any]] = {Sacrifice: _sacrifice}


def candidates(game: Game, pid: int, card_type: str) -> list[Obj]:
    """The permanents of ``card_type`` that ``pid`` could sacrifice (CR 701.17a)."""
    return [o for o in game.permanents() if o.controller == pid and is_type(game, o, card_type)]


def pay_sacrifice(game: Game, pid: int, ability: Obj, card_type: str) -> Flow:
    """Pay "Sacrifice a [type]" (CR 601.2h, 602.2b): the player picks which permanent as they
    pay, then sacrifices it. Returns False when they could not (they left the game)."""
    while game.in_game(pid):
        options = candidates(game, pid, card_type)
        if not options:
            return False
        actions = [Action(i, "sacrifice", f"Sacrifice {o.name}", obj=o.oid)
                   for i, o in enumerate(options)]
        answer = yield Decision("sacrifice", pid, f"Choose a {card_type.lower()} to sacrifice "
                                f"for {ability.name}", actions)
        if answer is REFRESH or answer.obj not in game.objects:
            continue
        victim = game.objects[answer.obj]
        game.move(victim, GRAVEYARD, cause="sacrifice")
        game.say(f"{game.name(pid)} sacrifices {victim.name}.")
        return True
    return False
