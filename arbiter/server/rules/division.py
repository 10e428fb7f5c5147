"""Dividing an amount among targets as the caster chooses (CR 601.2d): "3 damage divided as
you choose among one, two, or three targets", "5 damage divided as you choose among any number
of targets".

The division is announced while casting, after the targets (601.2c) and before the cost is
worked out (601.2f); each target gets at least 1 (601.2d), so a spell dividing N takes at most N
targets. Every decision is one pick from a short list (docs/architecture.md): for each target
but the last, how much it gets, from 1 to what leaves at least 1 for each target after it; the
last target gets the rest. The shares are kept on the spell (``Obj.division``, in target order)
and read as it resolves by the amount ``DividedAsYouChoose``: a target that has become illegal
gets nothing and the others keep their shares (608.2b). Triggered abilities that divide can use
:func:`choose_division` the same way as their targets are chosen.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from .cards.vocab import Damage, DividedAsYouChoose
from .state import REFRESH, Action, Decision, Obj, Ref

if TYPE_CHECKING:
    from .game import Flow, Game


def divided_total(effects: Iterable[Any]) -> int | None:
    """The amount a spell's or ability's effects divide among its targets, if they do."""
    for e in effects:
        if isinstance(e, Damage) and isinstance(e.amount, DividedAsYouChoose):
            return e.amount.total
    return None


def _name(game: Game, ref: Ref) -> str:
    if ref[0] == "p":
        return game.name(ref[1])
    obj = game.objects.get(ref[1])
    return obj.name if obj is not None else "(gone)"


def choose_division(game: Game, obj: Obj, total: int) -> Flow:
    """Ask ``obj``'s controller how to divide ``total`` among its targets; returns False if
    that cannot be done (more targets than ``total``) or the controller left meanwhile."""
    pid = obj.controller
    targets = list(obj.targets)
    if not targets or len(targets) > total:
        return False
    shares: list[int] = []
    left = total
    for i, ref in enumerate(targets[:-1]):
        most = left - (len(targets) - 1 - i)  # at least 1 for each target after this one
        while True:
            if not game.in_game(pid):
                return False
            actions = [Action(k, "amount", f"{n} to {_name(game, ref)}", obj=obj.oid, ref=ref,
                              index=n) for k, n in enumerate(range(1, most + 1))]
            answer = yield Decision("divide", pid, f"How much of {total} for {_name(game, ref)}"
                                    f" ({obj.name})?", actions)
            if answer is not REFRESH:
                break
        shares.append(answer.index)
        left -= answer.index
    shares.append(left)
    obj.division = tuple(shares)
    game.touch(obj)
    if len(targets) > 1:
        game.say(f"{game.name(pid)} divides {total} among the targets of {obj.name}: "
                 + ", ".join(f"{n} to {_name(game, r)}" for n, r in zip(shares, targets,
                                                                       strict=True)) + ".")
    return True


def share(obj: Obj, recipient: Ref | None) -> int:
    """What ``recipient`` gets of the division announced for ``obj``: its share if it was
    one of the targets, else nothing."""
    if recipient is None or recipient not in obj.targets:
        return 0
    i = obj.targets.index(recipient)
    return obj.division[i] if i < len(obj.division) else 0
