"""Regeneration (CR 701.15, 614.8): a shield that replaces the next destruction this turn, by
a destroy effect or by the state-based actions for lethal damage and deathtouch (704.5g-h)."""

from __future__ import annotations

from arbiter.server.rules.keywords import destroy
from arbiter.server.rules.replacement import REGENERATION, regenerate

from .helpers import G, Scene


def _skeletons(shields: int = 1, bolts: int = 1, scene: Scene | None = None) -> G:
    """Drudge Skeletons with ``shields`` regeneration shields made in player 0's main phase;
    then player 0 passes and player 1 (Mountains, ``bolts`` Lightning Bolts) has priority."""
    g = ((scene or Scene()).battlefield(0, "Drudge Skeletons", *["Swamp"] * shields)
         .battlefield(1, *["Mountain"] * bolts).hand(1, *["Lightning Bolt"] * bolts).start())
    for _ in range(shields):
        g.activate(0, "Drudge Skeletons").resolve()
    g.pass_()
    assert g.decision.player == 1
    return g


def test_701_15a_lethal_damage_destruction_is_replaced_by_regeneration() -> None:
    g = _skeletons()
    g.cast(1, "Lightning Bolt", "Drudge Skeletons").resolve()
    # CR 704.5g would destroy it; the shield replaces that (614.8): it stays, tapped, with no
    # damage marked on it.
    skeletons = g.obj("Drudge Skeletons")
    assert skeletons.damage == 0 and skeletons.tapped
    assert "Drudge Skeletons regenerates." in g.log
    assert g.zone_names("graveyard", 0) == []


def test_701_15a_a_shield_is_used_up_by_one_destruction() -> None:
    g = _skeletons(shields=1, bolts=2)
    g.cast(1, "Lightning Bolt", "Drudge Skeletons").resolve()
    g.pass_()  # player 0 passes again after the resolution
    g.cast(1, "Lightning Bolt", "Drudge Skeletons").resolve()
    assert g.zone_names("graveyard", 0) == ["Drudge Skeletons"]


def test_701_15a_two_shields_replace_two_destructions() -> None:
    g = _skeletons(shields=2, bolts=2)
    for _ in range(2):
        while g.decision.player != 1:
            g.pass_()
        g.cast(1, "Lightning Bolt", "Drudge Skeletons").resolve()
    assert g.obj("Drudge Skeletons").tapped
    assert g.log.count("Drudge Skeletons regenerates.") == 2


def test_701_15a_the_shield_lasts_only_this_turn() -> None:
    g = (Scene().battlefield(0, "Drudge Skeletons", "Swamp").battlefield(1, "Mountain")
         .hand(1, "Lightning Bolt").start())
    g.activate(0, "Drudge Skeletons").resolve()
    g.next_turn(1)
    g.cast(1, "Lightning Bolt", "Drudge Skeletons").resolve()
    assert g.zone_names("graveyard", 0) == ["Drudge Skeletons"]


def _blocked_and_shielded(attacker: str, blocker: str, land: str, shields: int = 1) -> G:
    """Player 0 attacks with ``attacker``; player 1 blocks with ``blocker`` and gives it
    ``shields`` regeneration shields (a ``land`` for each); then combat damage is dealt."""
    g = (Scene().battlefield(0, attacker).battlefield(1, blocker, *[land] * shields)
         .at("begin_combat").start())
    g.pass_(2).attack((attacker, 1)).pass_(2)
    g.block(1, (blocker, attacker))
    for _ in range(shields):
        g.pass_()
        g.activate(1, blocker).resolve()
    return g.until("combat_damage")


def test_701_15a_regenerated_blocker_is_removed_from_combat_and_attacker_stays_blocked() -> None:
    g = _blocked_and_shielded("Stampeding Rhino", "Wall of Bone", "Swamp")
    # 4 damage to the 1/4 wall: destroyed by 704.5g, regenerated instead.
    wall, rhino = g.obj("Wall of Bone"), g.obj("Stampeding Rhino")
    assert wall.damage == 0 and wall.tapped and wall.blocking is None
    assert rhino.blocked and g.life(1) == 20  # still blocked; trample assigned all to the wall


def test_701_15a_deathtouch_destruction_is_replaced_too() -> None:
    g = _blocked_and_shielded("Deadly Recluse", "Cudgel Troll", "Forest")
    # 1 deathtouch damage (704.5h) to the 4/3 troll, which regenerates; the spider dies.
    troll = g.obj("Cudgel Troll")
    assert troll.tapped and troll.damage == 0
    assert g.zone_names("graveyard", 0) == ["Deadly Recluse"]


def test_701_15c_cant_be_regenerated_destroys_through_a_shield() -> None:
    # Phage's trigger: "destroy that creature. It can't be regenerated." The wall has two
    # shields: 704.5g uses one, the trigger's destruction ignores the other.
    g = _blocked_and_shielded("Phage the Untouchable", "Wall of Bone", "Swamp", shields=2)
    g.resolve_all()
    assert g.zone_names("graveyard", 1) == ["Wall of Bone"]
    assert g.log.count("Wall of Bone regenerates.") == 1


def test_701_15_indestructible_is_not_regeneration_and_keeps_the_shield() -> None:
    g = Scene().battlefield(0, "Darksteel Myr").start()
    myr = g.obj("Darksteel Myr")
    regenerate(g.game, myr, 0)
    assert not destroy(g.game, myr)
    # CR 702.12b: not destroyed at all, so nothing was replaced and the shield is still there.
    assert not myr.tapped
    assert [e.amount for e in g.game.effects if e.kind == "regenerate"] == [1]


def test_701_15b_a_static_ability_regenerates_each_time_using_up_nothing() -> None:
    # A test-only 4/4 whose static ability regenerates it: two Lightning Bolts and a Doom
    # Blade, three destructions, each replaced; no shield is made or used up.
    g = (Scene().battlefield(0, "Rootbound Troll")
         .battlefield(1, *["Mountain"] * 2, "Swamp", "Swamp")
         .hand(1, "Lightning Bolt", "Lightning Bolt", "Doom Blade").start())
    g.pass_()
    g.cast(1, "Lightning Bolt", "Rootbound Troll")
    g.cast(1, "Lightning Bolt", "Rootbound Troll").resolve_all()  # 6 damage: lethal, 704.5g
    troll = g.obj("Rootbound Troll")
    assert troll.damage == 0 and troll.tapped
    g.pass_()
    g.cast(1, "Doom Blade", "Rootbound Troll").resolve()
    assert g.objs("Rootbound Troll", "battlefield")
    assert not any(e.kind == REGENERATION for e in g.game.effects)


def test_701_15b_it_does_not_regenerate_once_its_abilities_are_gone() -> None:
    g = (Scene().battlefield(0, "Rootbound Troll", "Island")
         .battlefield(1, "Swamp", "Swamp").hand(0, "Null Touch").hand(1, "Doom Blade").start())
    g.cast(0, "Null Touch", "Rootbound Troll").resolve()  # loses all abilities (layer 6)
    g.pass_()
    g.cast(1, "Doom Blade", "Rootbound Troll").resolve()
    assert "Rootbound Troll" in g.zone_names("graveyard", 0)
