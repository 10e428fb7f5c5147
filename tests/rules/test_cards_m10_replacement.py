"""Magic 2010 cards with replacement and prevention effects and regeneration (CR 614, 615,
616, 701.15), each played in a game and doing what its text says."""

from __future__ import annotations

import pytest

from arbiter.server.rules.keywords import can_be_countered

from .helpers import G, Scene


def _opponent_has_priority(g: G) -> G:
    """Player 0 passes in their main phase, so player 1 may cast an instant."""
    g.pass_()
    assert g.decision.player == 1 and g.decision.kind == "priority"
    return g


def _attack(attacker: str, blocker: str | None, scene: Scene) -> G:
    """Player 0 attacks player 1 with ``attacker`` (blocked by ``blocker``); player 1 then has
    priority in the declare blockers step."""
    if blocker is not None:
        scene = scene.battlefield(1, blocker)
    g = scene.battlefield(0, attacker).at("begin_combat").start()
    g.pass_(2).attack((attacker, 1)).pass_(2)
    if blocker is not None:
        g.block(1, (blocker, attacker))
    else:
        g.no_blocks(1)
    g.pass_()
    assert g.decision.player == 1 and g.game.step == "declare_blockers"
    return g


# --------------------------------------------------------------------------- regeneration


def test_drudge_skeletons_regenerates_for_b() -> None:
    g = (Scene().battlefield(0, "Drudge Skeletons", "Swamp").battlefield(1, "Mountain")
         .hand(1, "Lightning Bolt").start())
    g.activate(0, "Drudge Skeletons: {B}: Regenerate Drudge Skeletons.").resolve()
    assert g.obj("Swamp").tapped
    _opponent_has_priority(g).cast(1, "Lightning Bolt", "Drudge Skeletons").resolve()
    skeletons = g.obj("Drudge Skeletons")
    assert skeletons.tapped and skeletons.damage == 0


def test_wall_of_bone_cant_attack_and_regenerates_for_b() -> None:
    g = Scene().battlefield(0, "Wall of Bone", "Grizzly Bears").at("begin_combat").start()
    g.pass_(2)
    assert g.decision.kind == "attackers"
    assert g.find("attack", obj=g.obj("Wall of Bone").oid) is None  # defender
    g = (Scene().battlefield(0, "Wall of Bone", "Swamp").battlefield(1, "Mountain", "Mountain")
         .hand(1, "Lightning Bolt", "Lightning Bolt").start())
    g.activate(0, "Wall of Bone: {B}: Regenerate Wall of Bone.").resolve()
    _opponent_has_priority(g).cast(1, "Lightning Bolt", "Wall of Bone").resolve()
    assert g.obj("Wall of Bone").damage == 3  # not lethal to a 1/4: the shield waits
    g.pass_()
    g.cast(1, "Lightning Bolt", "Wall of Bone").resolve()
    wall = g.obj("Wall of Bone")
    assert wall.damage == 0 and wall.tapped


def test_cudgel_troll_regenerates_for_g() -> None:
    g = _attack("Stampeding Rhino", "Cudgel Troll", Scene().battlefield(1, "Forest"))
    g.activate(1, "Cudgel Troll: {G}: Regenerate Cudgel Troll.").resolve()
    g.until("combat_damage")
    troll = g.obj("Cudgel Troll")
    assert troll.tapped and troll.damage == 0 and troll.blocking is None
    assert g.zone_names("graveyard", 0) == ["Stampeding Rhino"]  # the troll's 4 killed it


def test_regenerate_gives_target_creature_a_shield() -> None:
    g = (Scene().battlefield(0, "Forest", "Forest", "Grizzly Bears").hand(0, "Regenerate")
         .battlefield(1, "Mountain").hand(1, "Lightning Bolt").start())
    g.cast(0, "Regenerate", "Grizzly Bears").resolve()
    assert g.zone_names("graveyard", 0) == ["Regenerate"]
    _opponent_has_priority(g).cast(1, "Lightning Bolt", "Grizzly Bears").resolve()
    bears = g.obj("Grizzly Bears")
    assert bears.tapped and bears.damage == 0


# --------------------------------------------------------------------------- prevention


def test_guardian_seraph_prevents_1_of_each_opponents_damage_to_you() -> None:
    g = (Scene().battlefield(0, "Guardian Seraph", "Prodigal Pyromancer")
         .battlefield(1, "Mountain", "Mountain").hand(1, "Lightning Bolt", "Lightning Bolt")
         .start())
    g.activate(0, "Prodigal Pyromancer", target=0).resolve()
    assert g.life(0) == 19  # its own controller's source: not prevented
    _opponent_has_priority(g).cast(1, "Lightning Bolt", 0).resolve()
    assert g.life(0) == 17  # 3 - 1
    g.pass_()
    g.cast(1, "Lightning Bolt", "Guardian Seraph").resolve()
    assert g.obj("Guardian Seraph").damage == 3  # damage to you only, not to the Seraph


def test_fog_prevents_all_combat_damage_this_turn() -> None:
    g = _attack("Child of Night", "Grizzly Bears",
                Scene().battlefield(1, "Forest").hand(1, "Fog").life(0, 10))
    g.cast(1, "Fog").resolve()
    g.until("end")
    # Nothing was dealt: the bears and the 2/1 live, and lifelink gained nothing (615.6).
    assert g.obj("Grizzly Bears").damage == 0 and g.obj("Child of Night").damage == 0
    assert g.life(0) == 10


def test_safe_passage_prevents_damage_to_you_and_your_creatures_only() -> None:
    g = _attack("Stampeding Rhino", "Grizzly Bears",
                Scene().battlefield(1, "Plains", "Plains", "Plains").hand(1, "Safe Passage"))
    g.cast(1, "Safe Passage").resolve()
    g.until("combat_damage")
    # The trampler's 4 (2 to the bears, 2 over) are prevented; the bears' 2 to it are not.
    assert g.obj("Grizzly Bears").damage == 0 and g.life(1) == 20
    assert g.obj("Stampeding Rhino").damage == 2


def test_harms_way_redirects_2_of_a_chosen_sources_damage() -> None:
    g = (Scene().battlefield(0, "Plains").hand(0, "Harm's Way")
         .battlefield(1, "Mountain", "Grizzly Bears").hand(1, "Lightning Bolt").start())
    _opponent_has_priority(g).cast(1, "Lightning Bolt", 0).pass_()
    g.cast(0, "Harm's Way", "Grizzly Bears")
    g.resolve()
    assert g.decision.kind == "choose_source" and g.decision.player == 0
    g.choose("choose_source", "Lightning Bolt")
    g.resolve()
    assert g.life(0) == 19  # 2 of the 3 went to the bears instead
    assert sorted(g.zone_names("graveyard", 1)) == ["Grizzly Bears", "Lightning Bolt"]


# --------------------------------------------------------------------------- lands

DUALS = {
    "Dragonskull Summit": ("Swamp", "Mountain", "BR"),
    "Drowned Catacomb": ("Island", "Swamp", "UB"),
    "Glacial Fortress": ("Plains", "Island", "WU"),
    "Rootbound Crag": ("Mountain", "Forest", "RG"),
    "Sunpetal Grove": ("Forest", "Plains", "GW"),
}


@pytest.mark.parametrize("name", sorted(DUALS))
def test_dual_land_enters_tapped_unless_you_control_one_of_its_types(name: str) -> None:
    first, second, _ = DUALS[name]
    other = next(land for land in ("Plains", "Island", "Swamp", "Mountain", "Forest")
                 if land not in (first, second))
    g = Scene().battlefield(0, other).battlefield(1, first, second).hand(0, name).start()
    g.play_land(0, name)
    assert g.obj(name).tapped  # the opponent's lands don't count
    for land in (first, second):
        g = Scene().battlefield(0, land).hand(0, name).start()
        g.play_land(0, name)
        assert not g.obj(name).tapped


@pytest.mark.parametrize("name", sorted(DUALS))
def test_dual_land_taps_for_either_of_its_colours(name: str) -> None:
    first, _, mana = DUALS[name]
    g = Scene().battlefield(0, first).hand(0, name).start()
    g.play_land(0, name)
    labels = [a.label for a in g.options(0) if a.kind == "mana" and a.obj == g.obj(name).oid]
    assert labels == [f"Tap {name} for {{{c}}}" for c in mana]
    g.choose("mana", f"Tap {name} for {{{mana[1]}}}")
    assert g.game.players[0].mana == {mana[1]: 1}


def test_dual_land_pays_the_colour_a_spell_needs() -> None:
    # {1}{B} from a Mountain and Dragonskull Summit: the Summit must make the {B}.
    g = Scene().battlefield(0, "Mountain", "Dragonskull Summit").hand(0, "Child of Night").start()
    assert not g.obj("Dragonskull Summit").tapped  # a Mountain was there as it entered
    g.cast(0, "Child of Night").resolve()
    assert g.obj("Child of Night").controller == 0
    assert all(o.tapped for o in g.game.battlefield if o.defn.is_("Land"))


# --------------------------------------------------------------------------- Darksteel Colossus


def test_darksteel_colossus_tramples_and_is_indestructible() -> None:
    g = (Scene().battlefield(0, "Darksteel Colossus").battlefield(1, "Grizzly Bears")
         .at("begin_combat").start())
    g.pass_(2).attack(("Darksteel Colossus", 1)).pass_(2)
    g.block(1, ("Grizzly Bears", "Darksteel Colossus"))
    g.until("combat_damage")
    assert g.life(1) == 11  # 2 to the bears, 9 trample over
    # Lethal damage can't destroy it (704.5g, 702.12b).
    g = (Scene().battlefield(0, "Darksteel Colossus").battlefield(1, *["Mountain"] * 12)
         .hand(1, "Fireball").at("main1", 1).start())
    g.choose("cast", "Cast Fireball").choose("x", "X = 11").target("Darksteel Colossus")
    g.resolve()  # no mana left for a second target: it is cast at once
    colossus = g.obj("Darksteel Colossus")
    assert colossus.damage == 11 and "Darksteel Colossus" not in g.zone_names("library", 0)


def test_darksteel_colossus_discarded_is_shuffled_into_the_library_instead() -> None:
    g = (Scene().hand(1, "Darksteel Colossus").library(1, "Forest", "Forest", "Forest")
         .battlefield(0, "Swamp", "Swamp", "Swamp").hand(0, "Mind Shatter").start())
    g.choose("cast", "Cast Mind Shatter")
    g.choose("x", "X = 1").target(1).resolve()
    assert g.zone_names("graveyard", 1) == []
    assert sorted(g.zone_names("library", 1)) == ["Darksteel Colossus", "Forest", "Forest",
                                                  "Forest"]
    assert ("Darksteel Colossus is revealed and shuffled into its owner's library instead."
            in g.log)


def test_darksteel_colossus_milled_stays_in_the_library() -> None:
    g = (Scene().library(1, "Darksteel Colossus", "Forest", "Forest", "Forest")
         .battlefield(0, "Island", "Island", "Island", "Island", "Island")
         .hand(0, "Traumatize").start())
    g.cast(0, "Traumatize", 1).resolve()  # mills 2 of the 4
    assert g.zone_names("graveyard", 1) == ["Forest"]  # the other card milled
    assert sorted(g.zone_names("library", 1)) == ["Darksteel Colossus", "Forest", "Forest"]


# --------------------------------------------------------------------------- Great Sable Stag


def test_great_sable_stag_cant_be_countered() -> None:
    g = Scene().battlefield(0, "Forest", "Forest", "Forest", "Mountain").hand(
        0, "Great Sable Stag", "Lightning Bolt").start()
    g.cast(0, "Great Sable Stag")
    assert not can_be_countered(g.obj("Great Sable Stag", "stack"))
    g.cast(0, "Lightning Bolt", 1)
    assert can_be_countered(g.obj("Lightning Bolt", "stack"))
    g.resolve_all()
    assert g.obj("Great Sable Stag").controller == 0


def test_great_sable_stag_has_protection_from_blue_and_from_black() -> None:
    g = (Scene().battlefield(0, "Great Sable Stag", "Island", "Island", "Island", "Island",
                             "Swamp").battlefield(1, "Grizzly Bears")
         .hand(0, "Disorient", "Weakness").start())
    for spell in ("Disorient", "Weakness"):  # blue and black can't target or enchant it
        g.choose("cast", f"Cast {spell}")
        assert [a.label for a in g.options(0)] == ["Target Grizzly Bears"]
        g.target("Grizzly Bears").resolve()
    g = (Scene().battlefield(0, "Great Sable Stag").battlefield(1, "Black Knight", "Grizzly Bears")
         .at("begin_combat").start())
    g.pass_(2).attack(("Great Sable Stag", 1)).pass_(2)
    stag = g.obj("Great Sable Stag").oid
    assert g.find("block", obj=g.obj("Black Knight").oid, ref=("o", stag)) is None
    assert g.find("block", obj=g.obj("Grizzly Bears").oid, ref=("o", stag)) is not None


# --------------------------------------------------------------------------- Protean Hydra


def _hydra(x: int, *extra: str) -> G:
    """Player 0 casts Protean Hydra with X = ``x``; player 1 holds ``extra`` (and Mountains)."""
    g = (Scene().battlefield(0, "Forest", *["Wastes"] * x).hand(0, "Protean Hydra")
         .battlefield(1, *["Mountain"] * len(extra)).hand(1, *extra).start())
    g.choose("cast", "Cast Protean Hydra").choose("x", f"X = {x}").resolve()
    return g


def test_protean_hydra_enters_with_x_counters() -> None:
    g = _hydra(3)
    hydra = g.obj("Protean Hydra")
    assert hydra.counters == {"+1/+1": 3}
    assert g.view(1)[hydra.oid]["pt"] == [3, 3]


def test_protean_hydra_prevents_damage_and_loses_counters_then_grows_at_end_step() -> None:
    g = _hydra(4, "Lightning Bolt")
    g.pass_()
    g.cast(1, "Lightning Bolt", "Protean Hydra").resolve()
    hydra = g.obj("Protean Hydra")
    # The 3 damage is prevented and 3 counters removed (615.5); the last ability triggers
    # once per counter.
    assert hydra.damage == 0 and hydra.counters == {"+1/+1": 1}
    assert [o.name for o in g.game.stack] == ["Protean Hydra"] * 3
    g.resolve_all()
    assert hydra.counters == {"+1/+1": 1}  # not yet: at the beginning of the next end step
    g.until("end")
    g.resolve_all()
    assert g.obj("Protean Hydra").counters == {"+1/+1": 7}  # 1 + 2 for each of the 3


def test_protean_hydra_with_too_few_counters_dies() -> None:
    g = _hydra(2, "Lightning Bolt")
    g.pass_()
    g.cast(1, "Lightning Bolt", "Protean Hydra").resolve()
    # 2 counters removed (all it had): a 0/0 is put into the graveyard (704.5f).
    assert g.zone_names("graveyard", 0) == ["Protean Hydra"]
    g.resolve_all()
    g.until("end")
    assert g.decision.kind == "priority"  # the delayed triggers do nothing to a card gone
    assert g.zone_names("graveyard", 0) == ["Protean Hydra"]


# --------------------------------------------------------------------------- Djinn of Wishes


def _djinn(*library: str, counters: int = 3, lands: int = 4) -> G:
    return (Scene().battlefield(0, "Djinn of Wishes", counters={"wish": counters})
            .battlefield(0, *["Island"] * lands).library(0, *library, "Wastes").start())


def test_djinn_of_wishes_enters_with_three_wish_counters() -> None:
    g = (Scene().battlefield(0, "Island", "Island", "Island", "Island", "Island")
         .hand(0, "Djinn of Wishes").start())
    g.cast(0, "Djinn of Wishes").resolve()
    assert g.obj("Djinn of Wishes").counters == {"wish": 3}


def test_djinn_of_wishes_casts_the_top_card_without_paying_its_mana_cost() -> None:
    g = _djinn("Lightning Bolt")
    g.activate(0, "Djinn of Wishes").resolve()
    assert g.obj("Djinn of Wishes").counters == {"wish": 2}  # the cost removed one
    assert "A reveals Lightning Bolt from the top of their library." in g.log
    g.choose("yes", "Play Lightning Bolt without paying its mana cost")
    g.target(1).resolve()
    assert g.life(1) == 17
    assert g.zone_names("graveyard", 0) == ["Lightning Bolt"]


def test_djinn_of_wishes_exiles_the_card_not_played() -> None:
    g = _djinn("Grizzly Bears")
    g.activate(0, "Djinn of Wishes").resolve()
    g.choose("no", "Exile Grizzly Bears")
    assert g.zone_names("exile") == ["Grizzly Bears"]
    assert g.zone_names("library", 0) == ["Wastes"]


def test_djinn_of_wishes_plays_a_land_only_with_a_land_play_left() -> None:
    g = _djinn("Forest", "Mountain", lands=8)
    g.activate(0, "Djinn of Wishes").resolve()
    g.choose("yes", "Play Forest")
    assert g.obj("Forest").controller == 0 and g.game.lands_played[0] == 1
    g.activate(0, "Djinn of Wishes").resolve()
    assert g.labels() == ["Exile Mountain"]  # the turn's land play is used (305.2)
    g.choose("no")
    assert g.zone_names("exile") == ["Mountain"]


def test_djinn_of_wishes_x_is_0_when_cast_free_and_needs_a_wish_counter() -> None:
    g = _djinn("Mind Spring", counters=1)
    g.activate(0, "Djinn of Wishes").resolve()
    g.choose("yes").resolve()  # no X to announce: it is 0 (107.3b), so it draws nothing
    assert g.zone_names("hand", 0) == [] and g.zone_names("graveyard", 0) == ["Mind Spring"]
    assert g.find("activate") is None  # no wish counter left to remove
