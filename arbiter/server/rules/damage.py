"""Dealing damage (CR 120), with redirection and prevention (CR 614.9, 615) as limited by range
of influence (CR 801.13a-b), protection (702.16e), deathtouch (702.2b), infect (702.90),
lifelink (702.15) and commander damage (903.10a)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .cards.vocab import DEATHTOUCH, INFECT, LIFELINK
from .characteristics import is_type, source_has
from .keywords import protected_from
from .planechase import exempt
from .state import BATTLEFIELD, Obj, Ref
from .statics import prevented_from_opponents

if TYPE_CHECKING:
    from .game import Game


def _apply_redirection(game: Game, source: Obj, target: Ref, amount: int, controller: int,
                       combat: bool) -> int:
    for eff in game.effects:
        if eff.kind != "redirect" or eff.target != target or eff.amount <= 0 or amount <= 0:
            continue
        moved = min(eff.amount, amount)
        eff.amount -= moved
        amount -= moved
        dest = eff.redirect_to
        # CR 801.13a: the part of the new event that would reach outside the damage's
        # controller's range does nothing.
        if dest is not None and game.ref_in_range(controller, dest):
            deal_damage(game, source, dest, moved, controller, combat=combat, redirected=True)
    return amount


def _apply_prevention(game: Game, source: Obj, target: Ref, amount: int, combat: bool) -> int:
    if target[0] == "o":
        victim = game.objects.get(target[1])
        if victim is not None and protected_from(game, victim, source):
            return 0  # CR 702.16e: all of it, whatever other shields there are
    if game.global_sources and target[0] == "p":
        # "If a source an opponent controls would deal damage to you, prevent 1 of that damage."
        amount -= prevented_from_opponents(game, target[1], source.controller)
    for eff in game.effects:
        if amount <= 0:
            break
        if eff.kind == "prevent" and eff.target == target and eff.amount > 0:
            # CR 801.13b: a shield protects only recipients in its controller's range.
            if game.ref_in_range(eff.controller, target):
                stop = min(eff.amount, amount)
                eff.amount -= stop
                amount -= stop
        elif eff.kind == "prevent_combat" and combat:
            # CR 801.13b: neither source nor recipient named, so both must be in range.
            if (game.in_range(eff.controller, source.controller)
                    and game.ref_in_range(eff.controller, target)):
                amount = 0
    return amount


def deal_damage(game: Game, source: Obj, target: Ref, amount: int, controller: int, *,
                combat: bool = False, redirected: bool = False) -> int:
    """Deal ``amount`` damage from ``source`` to a player or permanent; returns damage dealt."""
    if amount <= 0:
        return 0
    if not game.ref_in_range(controller, target) and not exempt(source.defn):
        return 0  # CR 801.10 (planes are exempt, CR 901.13)
    if not redirected:
        amount = _apply_redirection(game, source, target, amount, controller, combat)
    amount = _apply_prevention(game, source, target, amount, combat)
    if amount <= 0:
        return 0
    infect = source_has(game, source, INFECT)
    if target[0] == "p":
        pid = target[1]
        if not game.in_game(pid):
            return 0
        if infect:
            game.add_poison(pid, amount)  # CR 702.90b
        else:
            game.lose_life(pid, amount)
        game.players[pid].damage_this_turn += amount
        if combat and source.is_commander and source.card is not None:
            cd = game.players[pid].commander_damage
            cd[source.card.cid] = cd.get(source.card.cid, 0) + amount  # CR 903.10a
            game.touch_player(pid)
    else:
        victim = game.objects.get(target[1])
        if victim is None or victim.zone != BATTLEFIELD or victim.phased_out:
            return 0
        if is_type(game, victim, "Planeswalker") and not is_type(game, victim, "Creature"):
            game.remove_counters(victim, "loyalty", amount)  # CR 120.3c
        elif infect:
            game.add_counters(victim, "-1/-1", amount)  # CR 702.90c
        else:
            game.mark_damage(victim, amount)
        if is_type(game, victim, "Creature") and source_has(game, source, DEATHTOUCH):
            victim.deathtouched = True  # CR 702.2b: destroyed at the next check (704.5h)
    if source_has(game, source, LIFELINK):
        # CR 702.15b: any damage, combat or not, from wherever the source is (702.15d).
        game.gain_life(source.controller, amount)
    if combat:
        data = {"source": source, "target": target, "amount": amount}
        if target[0] == "o":
            data["obj"] = game.objects.get(target[1])
        game.emit("combat_damage", **data)
    return amount
