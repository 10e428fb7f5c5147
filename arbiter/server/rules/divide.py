"""Abilities that divide an amount among any number of targets (CR 601.2d by way of 603.3d):
Bogardan Hellkite's "5 damage divided as you choose among any number of targets". After the
ability's first target, more are chosen one at a time (each a different player or object, CR
115.3) until the controller is done or there are as many targets as the amount (each gets at
least 1); then the division is announced as a spell's is (division.py). The amount is read by
``DividedAsYouChoose`` as the ability resolves.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .cards.vocab import Activated, TargetSpec, Triggered
from .casting import choose_more_targets
from .division import choose_division, divided_total
from .state import Obj

if TYPE_CHECKING:
    from .game import Flow, Game


def target_specs(ab: Activated | Triggered, count: int) -> tuple[TargetSpec, ...]:
    """An ability's target specs, the last repeated for each target beyond them when it
    divides among any number of targets."""
    specs = ab.targets
    if specs and count > len(specs) and divided_total(ab.effects) is not None:
        return (*specs, *(specs[-1],) * (count - len(specs)))
    return specs


def choose_more_and_divide(game: Game, obj: Obj, ab: Activated | Triggered) -> Flow:
    """After the first targets of ``obj`` (an ability on the stack) are chosen: the rest and
    the division, when its effects divide. False if the controller left meanwhile."""
    total = divided_total(ab.effects)
    if total is None or not ab.targets:
        return True
    if not (yield from choose_more_targets(game, obj, ab.targets[-1], most=total)):
        return False
    return (yield from choose_division(game, obj, total))
