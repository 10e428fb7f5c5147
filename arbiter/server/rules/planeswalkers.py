"""Loyalty abilities (CR 606): when one may be activated, and paying its cost.

Planeswalkers themselves need little elsewhere: a planeswalker enters with its printed
loyalty in loyalty counters (306.5b, ``Game._entered_battlefield``), its loyalty is the number
of those counters (306.5c, ``characteristics.loyalty``), damage to it removes them (306.8,
``damage.py``), 0 loyalty puts it into its owner's graveyard (704.5i, ``sba.py``), and it can
be attacked (306.6, ``combat.attack_targets``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .cards.vocab import Cost
from .state import Obj

if TYPE_CHECKING:
    from .game import Game


def loyalty_ready(game: Game, obj: Obj, cost: Cost) -> bool:
    """May a loyalty ability of ``obj`` with this cost be activated now? (Sorcery timing is
    the caller's test.) CR 606.3: once per permanent per turn; CR 606.6: a negative cost needs
    at least that many counters ("[-X]" can always remove 0)."""
    if obj.loyalty_turn == game.turn:
        return False
    return cost.loyalty is None or cost.loyalty >= 0 or obj.counter("loyalty") >= -cost.loyalty


def pay_loyalty(game: Game, obj: Obj, cost: Cost, x: int) -> None:
    """CR 606.4: the cost is putting on or removing loyalty counters; the turn is recorded for
    CR 606.3."""
    obj.loyalty_turn = game.turn
    change = -x if cost.loyalty_x else (cost.loyalty or 0)
    if change > 0:
        game.add_counters(obj, "loyalty", change)
    elif change < 0:
        game.remove_counters(obj, "loyalty", -change)
