"""Auras and Equipment: what each may be attached to, attaching, and the rules that act on
what is attached (CR 301.5, 303.4, 701.3, 702.5, 702.6, 704.5m-n).

An attached permanent records its host in ``Obj.attached_to``. Its "enchanted creature" and
"equipped creature" statics are global statics (the game keeps their sources in
``game.global_sources``), so each question below is a short loop over those sources, and a game
with none of them asks nothing.

The effects here (equip's attach, sacrifice, returning Auras from graveyards) are in
``ATTACH_HANDLERS``, which resolve.py adds to its own.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .cards.vocab import (
    BASIC_LAND_MANA,
    EACH_PLAYER,
    SELF,
    Attach,
    ChooseBasicLandType,
    EnchantedCant,
    PreventNoncombatDamageToEnchanted,
    ReturnAllFromGraveyards,
)
from .characteristics import is_type, subtypes
from .filters import matches
from .keywords import protected_from, ward_triggers
from .state import BATTLEFIELD, GRAVEYARD, Action, Obj

if TYPE_CHECKING:
    from .game import Flow, Game
    from .resolve import Ctx


def is_equipment(game: Game, obj: Obj) -> bool:
    """An artifact with the subtype Equipment (CR 301.5; one that lost it equips nothing,
    301.5c)."""
    return "Equipment" in subtypes(game, obj)


def can_enchant(game: Game, aura: Obj, host: Obj, controller: int | None = None) -> bool:
    """May ``aura`` be attached to ``host``, as its enchant ability and other effects say
    (CR 303.4, 702.5a)? Not a question of targeting: shroud and hexproof do not matter, but
    protection does (702.16c). ``controller``: the player it is or will be controlled by
    ("enchant creature you control", range of influence, CR 801.8)."""
    spec = aura.defn.enchant
    pid = aura.controller if controller is None else controller
    if spec is None or host.oid == aura.oid:  # CR 303.4d: never itself
        return False
    if host.zone != BATTLEFIELD or host.phased_out:
        return False
    if spec.kind in ("creature", "opponent_creature") and not is_type(game, host, "Creature"):
        return False
    if spec.kind == "opponent_creature" and not game.are_opponents(pid, host.controller):
        return False
    if spec.where is not None and not matches(game, host, spec.where, pid):
        return False
    if protected_from(game, host, aura):
        return False  # CR 702.16c
    return game.obj_in_range(pid, host)  # CR 801.8


def can_equip(game: Game, equipment: Obj, host: Obj) -> bool:
    """May ``equipment`` equip ``host`` (CR 301.5, 301.5c)? Only a creature on the battlefield,
    never itself; an Equipment that is a creature or no longer an Equipment equips nothing;
    protection forbids it (702.16d). Control of the creature matters only to the equip
    ability (301.5b, 301.5d)."""
    if host.oid == equipment.oid or host.zone != BATTLEFIELD or host.phased_out:
        return False
    if not is_type(game, host, "Creature") or is_type(game, equipment, "Creature"):
        return False
    if not is_equipment(game, equipment):
        return False
    return not protected_from(game, host, equipment)  # CR 702.16d


def host_of(game: Game, obj: Obj) -> Obj | None:
    return game.objects.get(obj.attached_to) if obj.attached_to is not None else None


def illegal_auras(game: Game) -> list[Obj]:
    """CR 704.5m: Auras attached to nothing or to something they can't enchant."""
    out = []
    for o in game.battlefield:
        if o.phased_out or not o.defn.is_aura:
            continue
        host = host_of(game, o)
        if host is None or not can_enchant(game, o, host):
            out.append(o)
    return out


def unattach_illegal_equipment(game: Game) -> bool:
    """CR 704.5n, 301.5c: an Equipment attached to something it can't equip becomes
    unattached and stays on the battlefield. Returns whether any did."""
    done = False
    for o in game.battlefield:
        if o.attached_to is None or o.phased_out or o.defn.is_aura:
            continue
        host = host_of(game, o)
        if host is None or not can_equip(game, o, host):
            detach(game, o)
            game.say(f"{o.name} becomes unattached.")
            done = True
    return done


def attach(game: Game, what: Obj, host: Obj) -> bool:
    """CR 701.3: attach ``what`` to ``host``. It does not move when ``host`` is not one it can
    be attached to, nor when it is already there (701.3b); moving it to a new host gives it a
    new timestamp (701.3c). Returns whether it moved."""
    legal = can_enchant(game, what, host) if what.defn.is_aura else can_equip(game, what, host)
    if not legal or what.attached_to == host.oid:
        return False
    what.attached_to = host.oid
    game.table.timestamp += 1
    what.timestamp = game.table.timestamp
    _changed(game, what)
    return True


def detach(game: Game, what: Obj) -> None:
    what.attached_to = None
    _changed(game, what)


def _changed(game: Game, what: Obj) -> None:
    game.touch(what)
    game.statics_changed()  # what it grants moves with it
    game.control_changed()  # and "you control enchanted creature" too


# --------------------------------------------------------------------------- statics


def _from_attached(game: Game, obj: Obj) -> list[Any]:
    """The statics of the Auras and Equipment attached to ``obj`` that are asked here."""
    if not game.global_sources:
        return []
    return [st for src in game.global_sources
            if src.attached_to == obj.oid and src.zone == BATTLEFIELD and not src.phased_out
            for st in src.defn.global_statics]


def hosts(game: Game) -> set[int]:
    """The objects something with a static ability is attached to: the only ones
    :func:`cant` and the other questions below can answer yes for (a superset: phasing and
    zones are checked there)."""
    return {src.attached_to for src in game.global_sources if src.attached_to is not None}


def cant(game: Game, obj: Obj, what: str) -> bool:
    """Does something attached to ``obj`` say it can't ``what`` ("attack", "block",
    "activate": its activated abilities, CR 602.5; "untap" during its controller's untap
    step, CR 502.3; "be_blocked")?"""
    return any(isinstance(st, EnchantedCant) and getattr(st, what)
               for st in _from_attached(game, obj))


def prevents_noncombat_damage(game: Game, victim: Obj) -> bool:
    """"Prevent all noncombat damage that would be dealt to equipped creature" (CR 615)."""
    return any(isinstance(st, PreventNoncombatDamageToEnchanted)
               for st in _from_attached(game, victim))


# --------------------------------------------------------------------------- becoming a target


def announce_targets(game: Game, obj: Obj) -> None:
    """A spell was cast, or an ability activated or put on the stack, with its targets: each
    permanent among them "becomes the target" of it (CR 601.2i, 602.2b, 603.3d), once however
    many times it was chosen (docs/rulings.md)."""
    seen: set[int] = set()
    for ref in obj.targets:
        if ref[0] != "o" or ref[1] in seen:
            continue
        seen.add(ref[1])
        target = game.objects.get(ref[1])
        if target is not None and target.zone == BATTLEFIELD:
            game.emit("becomes_target", obj=target, by=obj, player=obj.controller)
            ward_triggers(game, target, obj)



# --------------------------------------------------------------------------- entering


Chooser = Callable[[int, str, str, Callable[[], list[Action]]], "Flow"]


def choose_land_type(game: Game, obj: Obj, choose: Chooser) -> Flow:
    """"As ~ enters, choose a basic land type" (CR 614.12, 305.6): its controller picks one of
    the five (``choose(player, kind, prompt, build)`` asks); the choice stays with the
    permanent."""
    if not any(isinstance(st, ChooseBasicLandType) for st in obj.defn.statics):
        return
    types = list(BASIC_LAND_MANA)
    answer = yield from choose(
        obj.controller, "land_type", f"Choose a basic land type for {obj.name}",
        lambda: [Action(i, "land_type", t, obj=obj.oid, index=i) for i, t in enumerate(types)])
    if answer is None:
        return  # its controller left while choosing (800.4a): the permanent left with them
    obj.chosen = types[answer.index]
    game.touch(obj)
    game.statics_changed()
    game.say(f"{game.name(obj.controller)} chooses {obj.chosen} for {obj.name}.")


def enchant_choices(game: Game, aura: Obj, controller: int) -> list[Obj]:
    """What an Aura entering without being cast may enchant (CR 303.4f)."""
    return [o for o in game.battlefield if can_enchant(game, aura, o, controller)]


# --------------------------------------------------------------------------- effects


def _attach(ctx: Ctx, e: Attach) -> None:
    me = ctx.objects(SELF)
    hosts = ctx.objects(e.to)
    if not me or not hosts:
        return
    host = hosts[0]
    if attach(ctx.game, me[0], host):
        ctx.game.say(f"{me[0].name} is attached to {host.name}.")


def _return_all(ctx: Ctx, e: ReturnAllFromGraveyards) -> Flow:
    """Every matching card in every graveyard enters at once under its owner's control (or
    the controller's, with ``yours``: CR 110.2a). Each Aura's owner first chooses what it
    will enchant among the permanents already there (the
    cards entering with it are not yet permanents); an Aura with no legal choice stays in the
    graveyard (CR 303.4f-g, docs/rulings.md)."""
    g = ctx.game
    # CR 801.10: under limited range of influence, only the graveyards of players in range.
    owners = ctx.players(EACH_PLAYER)
    cards = [o for p in owners for o in g.graveyard(p) if e.filter.matches(o.defn)]
    hosts: dict[int, int] = {}
    for aura in (o for o in cards if o.defn.is_aura):
        answer = yield from ctx.choose(aura.owner, "enchant",
                                       f"Choose what {aura.name} enchants", _options(g, aura))
        if answer is not None and answer.ref is not None:
            hosts[aura.oid] = answer.ref[1]
    for card in cards:
        if card.oid not in g.objects or card.zone != GRAVEYARD:
            continue
        if card.defn.is_aura and card.oid not in hosts:
            continue  # CR 303.4g: it stays where it is
        new = g.put_onto_battlefield(card, ctx.controller if e.yours else card.owner,
                                     cause="return")
        if new is None:
            continue
        host = g.objects.get(hosts.get(card.oid, -1))
        if host is not None:
            new.attached_to = host.oid
            _changed(g, new)
        yield from choose_land_type(g, new, ctx.choose)
        if new.oid not in g.objects:
            continue  # its controller left while choosing: it left with them (800.4a)
        g.say(f"{new.name} returns to the battlefield under {g.name(new.controller)}'s control.")


def _options(game: Game, aura: Obj) -> Callable[[], list[Action]]:
    def build() -> list[Action]:
        return [Action(i, "enchant", f"Enchant {h.name}", obj=aura.oid, ref=("o", h.oid))
                for i, h in enumerate(enchant_choices(game, aura, aura.owner))]
    return build


ATTACH_HANDLERS: dict[type, Any] = {
    Attach: _attach,
    ReturnAllFromGraveyards: _return_all,
}
