"""Countering a spell (CR 701.5): the word ``CounterSpell`` of the vocabulary.

A countered spell is moved off the stack to its owner's graveyard and never resolves (CR
701.5a), so none of its effects happen; a copy of a spell has no card and ceases to exist on
the way (CR 707.10a, 704.5e: ``Game.move`` drops it). Its mana stays spent. The target is
checked again as the counterspell resolves (CR 608.2b): a spell that has already left the
stack is no legal target, and the counterspell then does nothing. A spell that "can't be
countered" stays on the stack (CR 101.2; the static ``CantBeCountered``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .cards.vocab import CounterSpell, CounterUnlessPays
from .keywords import can_be_countered
from .mana import ManaCost
from .state import GRAVEYARD, STACK, Action, Obj

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from .game import Flow, Game
    from .resolve import Ctx


def counter(game: Game, spell: Obj, by: str) -> bool:
    """Counter ``spell`` (CR 701.5a); ``by`` names what counters it, for the log. Returns
    whether it was countered: only a spell still on the stack can be, and not one that
    can't be countered (CR 101.2: the effect does nothing to it)."""
    if spell.oid not in game.objects or spell.zone != STACK:
        return False
    if spell.is_ability:  # CR 701.5b: a countered ability leaves the stack, and that is all
        game.remove_object(spell)
        game.say(f"{by} counters {spell.name}'s ability.")
        return True
    if not can_be_countered(spell):
        game.say(f"{spell.name} can't be countered.")
        return False
    game.move(spell, GRAVEYARD, cause="countered")
    game.say(f"{by} counters {spell.name}.")
    return True


def _counter_spell(ctx: Ctx, e: CounterSpell) -> None:
    for spell in ctx.objects(e.what):
        counter(ctx.game, spell, ctx.obj.name)


def _counter_unless_pays(ctx: Ctx, e: CounterUnlessPays) -> Flow:
    """The spell's or ability's controller may pay; if they don't (or can't), it is
    countered (CR 702.21a: ward)."""
    from .casting import can_afford, pay_mana  # casting imports what resolves spells

    g = ctx.game
    cost = ManaCost.parse(e.cost)
    for target in ctx.objects(e.what):
        payer = target.controller
        if g.in_game(payer) and can_afford(g, payer, cost):
            answer = yield from ctx.choose(
                payer, "pay", f"Pay {e.cost} or {target.name} is countered ({ctx.source.name})",
                lambda: [Action(0, "yes", f"Pay {e.cost}"), Action(1, "no", "Don't pay")])
            if (answer is not None and answer.kind == "yes" and g.in_game(payer)
                    and pay_mana(g, payer, cost)):
                g.say(f"{g.name(payer)} pays {e.cost}.")
                continue
        counter(g, target, ctx.source.name)


COUNTER_HANDLERS: dict[type, Callable[[Ctx, Any], Any]] = {
    CounterSpell: _counter_spell, CounterUnlessPays: _counter_unless_pays}
