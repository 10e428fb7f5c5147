"""What the evergreen keyword abilities forbid (CR 702): which creatures may block which
(flying and reach, intimidate, landwalk, protection), what spells and abilities may target
(hexproof, shroud, protection), whose damage protection prevents, and what can be destroyed
(indestructible).

The keywords that change how combat damage is dealt (first strike, double strike, deathtouch's
lethal damage, trample) are in combat_damage.py; what damage from a source with deathtouch or
lifelink does is in damage.py; defender, haste and vigilance are one test each where creatures
attack (combat.py, casting.py); flash where spells may be cast (casting.py).

:func:`protected_from` is the one question protection asks, whatever it protects against:
damage (702.16e), blocks (702.16f), targets (702.16b), and Auras and Equipment becoming or
staying attached (702.16c-d; sba.py asks it for Auras).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .cards.vocab import (
    CANT_BE_BLOCKED,
    CARD_TYPE,
    COLOR,
    EVENT_OBJECT,
    EVERYTHING,
    FLYING,
    HEXPROOF,
    INDESTRUCTIBLE,
    INTIMIDATE,
    REACH,
    SHROUD,
    BecomesTarget,
    CantBeBlocked,
    CantBeCountered,
    CounterUnlessPays,
    Landwalk,
    Protection,
    Triggered,
    Ward,
)
from .characteristics import colors, has_keyword, is_type, keywords_of, subtypes
from .replacement import regenerated
from .requirements import own_statics
from .state import GRAVEYARD, STACK, Obj, last_known

if TYPE_CHECKING:
    from .game import Game


def has_quality(game: Game, source: Obj, quality: Protection) -> bool:
    """Does ``source`` have the quality a protection ability names (CR 702.16a)? A card type or
    subtype counts wherever the source is: a creature spell is a creature source."""
    if quality.kind == EVERYTHING:
        return True  # CR 702.16j
    if quality.kind == COLOR:
        return quality.value in colors(game, source)
    if quality.kind == CARD_TYPE:
        return source.defn.is_(quality.value)
    return quality.value in subtypes(game, source)


def protected_from(game: Game, obj: Obj, source: Obj) -> bool:
    """Does ``obj`` have protection from a quality ``source`` has (CR 702.16)? ``source`` is
    whatever would damage, block, target, enchant or equip it: for a spell the spell itself,
    for an ability the object it comes from."""
    return any(has_quality(game, source, p) for p in keywords_of(game, obj, Protection))


def can_target(game: Game, target: Obj, source: Obj, controller: int) -> bool:
    """May a spell or ability that ``controller`` controls, coming from ``source``, target the
    permanent ``target``?"""
    if not (target.defn.keywords or game.continuous or game.global_sources):
        return True  # nothing could forbid it: the usual case, kept cheap
    if has_keyword(game, target, SHROUD):
        return False  # CR 702.18a: not by anyone
    if game.are_opponents(controller, target.controller) and has_keyword(game, target, HEXPROOF):
        return False  # CR 702.11b: not by its controller's opponents; its own side may
    return not protected_from(game, target, source)  # CR 702.16b


def evasion_allows(game: Game, attacker: Obj, blocker: Obj, defender: int | None) -> bool:
    """Do the attacker's evasion abilities and protections let ``blocker`` block it?
    ``defender`` is the attacker's defending player: the player it attacks, or the controller
    of the planeswalker it attacks (CR 802.2a, 805.10e), whose lands landwalk looks at."""
    if (has_keyword(game, attacker, FLYING) and not has_keyword(game, blocker, FLYING)
            and not has_keyword(game, blocker, REACH)):
        return False  # CR 702.9b, 702.17b
    if has_keyword(game, attacker, INTIMIDATE) and not (
            is_type(game, blocker, "Artifact") or colors(game, blocker) & colors(game, attacker)):
        return False  # CR 702.13b: an artifact creature or one sharing a colour
    walks = keywords_of(game, attacker, Landwalk)
    if walks and defender is not None and any(
            o.controller == defender and is_type(game, o, "Land")
            and w.land_type in subtypes(game, o)
            for w in walks for o in game.permanents()):
        return False  # CR 702.14c
    if not unblockable_allows(game, attacker, blocker):
        return False
    return not protected_from(game, attacker, blocker)  # CR 702.16f


def unblockable_allows(game: Game, attacker: Obj, blocker: Obj) -> bool:
    """"Can't be blocked [except by black creatures]", printed or for this turn (restrictions
    on blocks, CR 509.1b): may ``blocker`` block ``attacker``?"""
    if game.effects and any(e.kind == CANT_BE_BLOCKED and e.affected == attacker.oid
                            for e in game.effects):
        return False
    return all(st.except_colors and colors(game, blocker) & set(st.except_colors)
               for st in own_statics(game, attacker, CantBeBlocked))


def destroy(game: Game, obj: Obj, *, cause: str = "destroy", regen: bool = True) -> bool:
    """Destroy a permanent (CR 701.8): put it into its owner's graveyard, unless it is
    indestructible (CR 702.12b) or a regeneration shield replaces the destruction (701.15a;
    not when it "can't be regenerated", ``regen`` False). Every destruction goes through here:
    "destroy" effects and the state-based actions for lethal damage and deathtouch (704.5g-h).
    Returns whether it was destroyed."""
    if has_keyword(game, obj, INDESTRUCTIBLE):
        return False  # not destroyed at all, so no shield is used up
    if regen and (game.effects or obj.defn.statics) and regenerated(game, obj):
        return False
    game.move(obj, GRAVEYARD, cause=cause)
    return True


def can_be_countered(spell: Obj) -> bool:
    """May an effect counter ``spell``? Not one that says "This spell can't be countered"
    (CR 101.2: the "can't" wins; an effect that would counter it does nothing to it). Every
    effect that counters a spell asks this first."""
    return not any(isinstance(st, CantBeCountered) for st in spell.defn.statics)


def ward_triggers(game: Game, target: Obj, by: Obj) -> None:
    """CR 702.21a: each ward of a permanent an opponent's spell or ability targets triggers
    (702.21b: several wards, several triggers): "counter that spell or ability unless its
    controller pays [cost]". Only permanents with the keyword, read through the layers."""
    if not game.are_opponents(target.controller, by.controller):
        return
    for ward in keywords_of(game, target, Ward):
        ability = Triggered(BecomesTarget("self"), (CounterUnlessPays(EVENT_OBJECT, ward.cost),),
                            text=f"Counter that spell or ability unless its controller pays "
                                 f"{ward.cost}.")
        game.pending_triggers.append(Obj(
            oid=0, defn=target.defn, owner=target.controller, controller=target.controller,
            zone=STACK, zone_owner=None, ability=ability, ability_index=-4,
            source=last_known(target), event={"obj": by}))
