"""Dealing damage (CR 120), with redirection and prevention (CR 614.9, 615) as limited by range
of influence (CR 801.13a-b), protection (702.16e), deathtouch (702.2b), infect (702.90),
lifelink (702.15) and commander damage (903.10a)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .attachments import prevents_noncombat_damage
from .cards.vocab import DEATHTOUCH, INFECT, LIFELINK, PreventDamageRemoveCounters
from .casting import describe_ref as describe
from .characteristics import is_type, source_has
from .keywords import protected_from
from .planechase import exempt
from .replacement import Option, apply_in_order, without_choices
from .state import BATTLEFIELD, Continuous, Obj, Ref
from .statics import prevent_one_sources

if TYPE_CHECKING:
    from .game import Flow, Game


@dataclass(slots=True)
class _Hit:
    """A damage event as the replacement and prevention effects modify it (CR 614.6, 615.6)."""

    source: Obj
    target: Ref
    amount: int
    controller: int
    combat: bool
    redirected: list[tuple[Ref, int]] = field(default_factory=list)


def _victim(game: Game, target: Ref) -> Obj | None:
    return game.objects.get(target[1]) if target[0] == "o" else None


def _affected(game: Game, target: Ref) -> int | None:
    """Who chooses the order of the effects (CR 616.1): the player dealt the damage, or the
    controller of the permanent."""
    if target[0] == "p":
        return target[1]
    victim = _victim(game, target)
    return victim.controller if victim is not None else None


def _covers(game: Game, eff: Continuous, target: Ref) -> bool:
    """Does a shield for "you and/or permanents (creatures) you control" cover ``target``?"""
    if target == ("p", eff.player):
        return True
    victim = _victim(game, target)
    return (victim is not None and victim.controller == eff.player
            and (eff.kind == "redirect_from_source" or is_type(game, victim, "Creature")))


def _redirect_option(game: Game, hit: _Hit, eff: Continuous) -> Option:
    def apply() -> None:
        moved = min(eff.amount, hit.amount)
        eff.amount -= moved
        hit.amount -= moved
        dest = eff.redirect_to
        # CR 801.13a: the part of the new event that would reach outside the damage's
        # controller's range does nothing.
        if dest is not None and game.ref_in_range(hit.controller, dest):
            hit.redirected.append((dest, moved))

    where = describe(game, eff.redirect_to) if eff.redirect_to is not None else "elsewhere"
    return Option(id(eff), f"Redirect the next {eff.amount} damage to {where}", apply,
                  spends=True)


def _shield_option(hit: _Hit, eff: Continuous) -> Option:
    def apply() -> None:
        stop = min(eff.amount, hit.amount)
        eff.amount -= stop
        hit.amount -= stop

    return Option(id(eff), f"Prevent the next {eff.amount} damage (a shield)", apply,
                  spends=True)


def _prevent_all(hit: _Hit, key: object, label: str) -> Option:
    def apply() -> None:
        hit.amount = 0

    return Option(key, label, apply)


def _prevent_one(hit: _Hit, src: Obj) -> Option:
    def apply() -> None:
        hit.amount -= 1  # CR 615.10: 1 of the damage of each event

    return Option(("static", src.oid), f"Prevent 1 of it ({src.name})", apply)


def _counters_instead(game: Game, hit: _Hit, victim: Obj, st: PreventDamageRemoveCounters
                      ) -> Option:
    def apply() -> None:
        n, hit.amount = hit.amount, 0
        if victim.oid in game.objects:
            game.remove_counters(victim, st.kind, n)  # CR 615.5: right after the prevention

    return Option(("static", victim.oid), f"Prevent it and remove {st.kind} counters "
                  f"({victim.name})", apply)


def _options(game: Game, hit: _Hit, redirectable: bool) -> list[Option]:
    """The replacement and prevention effects that would apply to ``hit`` now."""
    if hit.amount <= 0:
        return []  # CR 614.7a: no damage, nothing to replace
    out: list[Option] = []
    src, target = hit.source, hit.target
    for eff in game.effects:
        if eff.amount <= 0 and eff.kind in ("redirect", "redirect_from_source", "prevent"):
            continue
        if eff.kind in ("redirect", "redirect_from_source"):
            if redirectable and (eff.target == target if eff.kind == "redirect" else
                                 eff.affected == src.oid and _covers(game, eff, target)):
                out.append(_redirect_option(game, hit, eff))
        elif eff.kind == "prevent" and eff.target == target:
            # CR 801.13b: a shield protects only recipients in its controller's range.
            if game.ref_in_range(eff.controller, target):
                out.append(_shield_option(hit, eff))
        elif eff.kind == "prevent_combat" and hit.combat:
            # CR 801.13b: neither source nor recipient named, so both must be in range.
            if (game.in_range(eff.controller, src.controller)
                    and game.ref_in_range(eff.controller, target)):
                out.append(_prevent_all(hit, id(eff), "Prevent all combat damage"))
        elif eff.kind == "prevent_all_to" and _covers(game, eff, target):
            out.append(_prevent_all(hit, id(eff), "Prevent all of it"))
    if target[0] == "p" and game.global_sources:
        # "If a source an opponent controls would deal damage to you, prevent 1 of that damage."
        out.extend(_prevent_one(hit, s)
                   for s in prevent_one_sources(game, target[1], src.controller))
    victim = _victim(game, target)
    if victim is not None:
        out.extend(_counters_instead(game, hit, victim, st) for st in victim.defn.statics
                   if isinstance(st, PreventDamageRemoveCounters))
        if not hit.combat and game.global_sources and prevents_noncombat_damage(game, victim):
            # "Prevent all noncombat damage that would be dealt to equipped creature."
            out.append(_prevent_all(hit, ("noncombat", victim.oid),
                                    f"Prevent all noncombat damage to {victim.name}"))
    return out


def damage_flow(game: Game, source: Obj, target: Ref, amount: int, controller: int, *,
                combat: bool = False, redirected: bool = False) -> Flow:
    """Deal ``amount`` damage from ``source`` to a player or permanent, the replacement and
    prevention effects that apply to it applied in the order the affected player chooses
    (CR 616.1); returns the damage dealt to ``target`` itself."""
    if amount <= 0:
        return 0
    if not game.ref_in_range(controller, target) and not exempt(source.defn):
        return 0  # CR 801.10 (planes are exempt, CR 901.13)
    victim = _victim(game, target)
    if victim is not None and protected_from(game, victim, source):
        return 0  # CR 702.16e: all of it, before any shield sees it (docs/rulings.md)
    hit = _Hit(source, target, amount, controller, combat)
    yield from apply_in_order(game, _affected(game, target), f"{amount} damage from "
                              f"{source.name} to {describe(game, target)}",
                              lambda: _options(game, hit, not redirected))
    for dest, moved in hit.redirected:  # CR 614.6: the modified event happens instead
        yield from damage_flow(game, source, dest, moved, controller, combat=combat,
                               redirected=True)
    return _deal(game, source, target, hit.amount, combat)


def deal_damage(game: Game, source: Obj, target: Ref, amount: int, controller: int, *,
                combat: bool = False, redirected: bool = False) -> int:
    """:func:`damage_flow` where nobody can be asked: effects apply in timestamp order."""
    dealt: int = without_choices(damage_flow(game, source, target, amount, controller,
                                             combat=combat, redirected=redirected))
    return dealt


def _deal(game: Game, source: Obj, target: Ref, amount: int, combat: bool) -> int:
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
    data = {"source": source, "target": target, "amount": amount}
    if target[0] == "o":
        data["obj"] = game.objects.get(target[1])
    if combat:
        game.emit("combat_damage", **data)
    game.emit("damage", **data)  # "whenever ~ deals damage to ...", combat or not
    return amount
