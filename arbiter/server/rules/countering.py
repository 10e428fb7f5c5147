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

from .cards.vocab import CounterSpell
from .keywords import can_be_countered
from .state import GRAVEYARD, STACK, Obj

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from .game import Game
    from .resolve import Ctx


def counter(game: Game, spell: Obj, by: str) -> bool:
    """Counter ``spell`` (CR 701.5a); ``by`` names what counters it, for the log. Returns
    whether it was countered: only a spell still on the stack can be, and not one that
    can't be countered (CR 101.2: the effect does nothing to it)."""
    if spell.oid not in game.objects or spell.zone != STACK or spell.is_ability:
        return False
    if not can_be_countered(spell):
        game.say(f"{spell.name} can't be countered.")
        return False
    game.move(spell, GRAVEYARD, cause="countered")
    game.say(f"{by} counters {spell.name}.")
    return True


def _counter_spell(ctx: Ctx, e: CounterSpell) -> None:
    for spell in ctx.objects(e.what):
        counter(ctx.game, spell, ctx.obj.name)


COUNTER_HANDLERS: dict[type, Callable[[Ctx, Any], Any]] = {CounterSpell: _counter_spell}
