"""A pack of creatures and one creature dealing damage to each other (:class:`PackStrike`):
the pack is tapped, each member deals damage equal to its power to the target, and the target
deals damage equal to its power divided as its controller chooses among the pack. The
division is one decision per pack member (docs/architecture.md, "Decisions are single
choices"), offered as ``assign_damage`` amounts like combat's division."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .cards.vocab import PackStrike, Target
from .characteristics import is_type, power, subtypes, toughness
from .damage import deal_damage
from .state import BATTLEFIELD, REFRESH, Action, Decision, Obj

if TYPE_CHECKING:
    from collections.abc import Callable

    from .game import Flow, Game
    from .resolve import Ctx


def _pack_strike(ctx: Ctx, e: PackStrike) -> Flow:
    g = ctx.game
    targets = ctx.objects(Target(0))
    if not targets:
        return  # the target became illegal: the ability does nothing (CR 608.2b)
    prey = targets[0]
    pack = [o for o in g.permanents() if o.controller == ctx.controller and not o.tapped
            and is_type(g, o, "Creature") and e.subtype in subtypes(g, o)]
    for wolf in pack:
        g.set_tapped(wolf, True)
    # Damage is dealt while the ability resolves; nothing dies before it has finished
    # (state-based actions wait, CR 704.3), so every member and the target deal theirs.
    for wolf in pack:
        deal_damage(g, wolf, ("o", prey.oid), power(g, wolf), ctx.controller)
    left = power(g, prey) if prey.zone == BATTLEFIELD else 0
    if left <= 0 or not pack:
        return
    plan = yield from _divide(g, prey, pack, left)
    for wolf, n in plan:
        deal_damage(g, prey, ("o", wolf.oid), n, prey.controller)


def _divide(game: Game, prey: Obj, pack: list[Obj], left: int) -> Flow:
    """The target's controller divides ``left`` damage among ``pack`` ("any number of
    those", so a member may get none; the whole amount is divided: docs/rulings.md), one
    member at a time, the last getting the rest. The first amount offered is what is lethal to
    that member, as in combat (bots take it)."""
    plan: list[tuple[Obj, int]] = []
    for i, wolf in enumerate(pack):
        if left <= 0:
            break
        if i == len(pack) - 1:
            plan.append((wolf, left))
            break
        lethal = min(max(toughness(game, wolf) - wolf.damage, 0), left)
        amounts = [lethal, *(n for n in range(left + 1) if n != lethal)]
        actions = [Action(k, "amount", f"{n} to {wolf.name} (#{wolf.oid})", obj=wolf.oid,
                          index=n) for k, n in enumerate(amounts)]
        chosen = amounts[0]
        while game.in_game(prey.controller):
            answer = yield Decision(
                "assign_damage", prey.controller,
                f"{prey.name} has {left} damage left to divide: how much to {wolf.name}?",
                actions)
            if answer is REFRESH:
                continue
            chosen = int(answer.index)
            break
        plan.append((wolf, chosen))
        left -= chosen
    return plan


PACK_HANDLERS: dict[type, Callable[[Ctx, Any], Any]] = {PackStrike: _pack_strike}
