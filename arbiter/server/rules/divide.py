"""Damage divided as its controller chooses among any number of targets (CR 601.2d): after the
first target, more are chosen one at a time (each a different player or object, CR 115.3) until
the controller is done or the limit is reached, then the division is announced, one decision
per target but the last, which gets what is left. Each target gets at least 1, so there are
never more targets than damage. On resolution each target still legal is dealt its share; an
illegal one's share is not dealt to anyone (CR 608.2b).

Triggered abilities choose them as they are put on the stack (CR 603.3d applies the spell
rules, 601.2c-d, to them). :func:`choose_more_and_divide` takes any spell or ability on the
stack; no activated ability in the pool divides yet, so activating does not call it (casting.py
could not import this module, which imports it), and a spell that divides would call it from
``cast_spell`` after its first targets.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .cards.vocab import Activated, DividedDamage, Target, TargetSpec, Triggered
from .casting import choose_more_targets, describe_ref
from .damage import deal_damage
from .state import REFRESH, Action, Decision, Obj

if TYPE_CHECKING:
    from .game import Flow, Game
    from .resolve import Ctx


def divided(effects: tuple[Any, ...]) -> DividedDamage | None:
    return next((e for e in effects if isinstance(e, DividedDamage)), None)


def target_specs(ab: Activated | Triggered, count: int) -> tuple[TargetSpec, ...]:
    """An ability's target specs, the last repeated for each target beyond them when it
    divides among any number of targets."""
    specs = ab.targets
    if specs and count > len(specs) and divided(ab.effects) is not None:
        return (*specs, *(specs[-1],) * (count - len(specs)))
    return specs


def choose_more_and_divide(game: Game, obj: Obj, specs: tuple[TargetSpec, ...],
                           e: DividedDamage | None) -> Flow:
    """After the first targets of ``obj`` (a spell or an ability on the stack) are chosen:
    the rest and the division, when ``e`` divides. False if the controller left meanwhile."""
    if e is None or not specs:
        return True
    pid = obj.controller
    most = min(e.most or e.amount, e.amount)  # each target gets at least 1
    if not (yield from choose_more_targets(game, obj, specs[-1], most=most)):
        return False
    shares = yield from _division(game, obj, e.amount)
    if shares is None:
        return False
    obj.divided = shares
    game.touch(obj)
    game.say(f"{game.name(pid)} divides {e.amount} damage: " + ", ".join(
        f"{n} to {describe_ref(game, r)}" for r, n in zip(obj.targets, shares, strict=True))
        + ".")
    return True


def _division(game: Game, obj: Obj, amount: int) -> Flow:
    """Each target's share, at least 1 each (CR 601.2d): one decision per target but the
    last. None if the controller left the game meanwhile."""
    pid = obj.controller
    shares: list[int] = []
    n = len(obj.targets)
    for i, ref in enumerate(obj.targets[:-1]):
        left = amount - sum(shares)
        most = left - (n - i - 1)  # the targets after this one need 1 each
        while True:
            if not game.in_game(pid):
                return None
            actions = [Action(k, "share", f"{v} to {describe_ref(game, ref)}", obj=obj.oid,
                              ref=ref, index=v) for k, v in enumerate(range(1, most + 1))]
            answer = yield Decision("divide", pid, f"How much of {obj.name}'s {amount} damage "
                                    f"goes to {describe_ref(game, ref)}?", actions)
            if answer is REFRESH:
                continue
            shares.append(answer.index)
            break
    return [*shares, amount - sum(shares)] if n else []


def _divided_damage(ctx: Ctx, e: DividedDamage) -> None:
    """Each target still legal is dealt its share (CR 608.2b)."""
    g = ctx.game
    src = ctx.source if ctx.obj.is_ability else ctx.obj
    shares = ctx.obj.divided or [e.amount]  # never divided: a single target gets it all
    for i, ref in enumerate(ctx.targets):
        if ref is None or i >= len(shares):
            continue
        for r in ctx.refs(Target(i)):
            dealt = deal_damage(g, src, r, shares[i], ctx.controller)
            if dealt:
                g.say(f"{src.name} deals {dealt} damage to {describe_ref(g, r)}.")


DIVIDE_HANDLERS: dict[type, Callable[[Ctx, Any], Any]] = {DividedDamage: _divided_damage}
