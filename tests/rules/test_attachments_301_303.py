"""Auras and Equipment (CR 301.5, 303.4, 701.3, 702.5, 702.6, 704.5m-n): what each may be
attached to, how it gets there, and the state-based actions that take it off."""

from __future__ import annotations

from arbiter.server.rules.characteristics import is_type, power, toughness

from .helpers import G, Scene


def _pt(g: G, name: str) -> tuple[int, int]:
    o = g.obj(name)
    return power(g.game, o), toughness(g.game, o)


def _target_labels(g: G) -> list[str]:
    return sorted({a.label for a in g.options() if a.kind == "target"})


def test_303_4a_an_aura_spell_targets_what_its_enchant_ability_allows() -> None:
    g = (Scene().battlefield(0, "Island", "Island", "Island", "Island", "Grizzly Bears")
         .battlefield(1, "Mist Leopard", "Forest").hand(0, "Convincing Mirage", "Ice Cage")
         .start())
    g.cast(0, "Convincing Mirage")  # "Enchant land": lands only
    assert _target_labels(g) == ["Target Forest", "Target Island"]
    g.target("Forest").resolve().choose("land_type", "Island")
    g.cast(0, "Ice Cage")  # an Aura spell targets: shroud keeps Mist Leopard out (702.18a)
    assert _target_labels(g) == ["Target Grizzly Bears"]


def test_303_4a_an_aura_with_no_legal_target_cannot_be_cast() -> None:
    g = Scene().battlefield(0, "Plains", "Plains").hand(0, "Pacifism").start()
    assert g.find("cast", "Cast Pacifism") is None


def test_303_4f_an_aura_entering_uncast_chooses_its_host_without_targeting() -> None:
    # Mist Leopard has shroud, which stops targets, not being enchanted.
    g = (Scene().battlefield(0, *["Plains"] * 6).battlefield(1, "Mist Leopard")
         .graveyard(0, "Pacifism").hand(0, "Open the Vaults").start())
    g.cast(0, "Open the Vaults").resolve()
    assert [a.label for a in g.options(0)] == ["Enchant Mist Leopard"]
    g.choose("enchant")
    assert g.obj("Pacifism").attached_to == g.obj("Mist Leopard").oid


def test_303_4g_an_aura_with_nothing_it_may_enchant_stays_in_the_graveyard() -> None:
    # Protection from white: Pacifism can't enchant Black Knight (CR 702.16c).
    g = (Scene().battlefield(0, *["Plains"] * 6).battlefield(1, "Black Knight")
         .graveyard(0, "Pacifism").hand(0, "Open the Vaults").start())
    g.cast(0, "Open the Vaults").resolve()
    assert g.decision.kind == "priority"
    assert g.zone_names("graveyard", 0) == ["Pacifism", "Open the Vaults"]


def test_704_5m_an_aura_whose_creature_left_goes_to_the_graveyard() -> None:
    g = (Scene().battlefield(0, "Plains", "Plains", "Mountain").battlefield(1, "Grizzly Bears")
         .hand(0, "Pacifism", "Lightning Bolt").start())
    g.cast(0, "Pacifism", "Grizzly Bears").resolve()
    g.cast(0, "Lightning Bolt", "Grizzly Bears").resolve()
    assert g.zone_names("graveyard", 0) == ["Lightning Bolt", "Pacifism"]


def test_704_5m_an_aura_on_what_stops_being_a_creature_goes_to_the_graveyard() -> None:
    g = (Scene().battlefield(0, "Plains", "Plains", "Forest", "Forest")
         .hand(0, "Quickening Earth", "Pacifism").start())
    g.cast(0, "Quickening Earth", "Forest").resolve()
    land = next(o for o in g.objs("Forest") if is_type(g.game, o, "Creature"))
    g.cast(0, "Pacifism", land).resolve()
    assert g.obj("Pacifism").attached_to == land.oid
    g.next_turn(1)  # the land is no longer a creature after the cleanup step
    assert g.zone_names("graveyard", 0) == ["Quickening Earth", "Pacifism"]


def test_702_16c_an_aura_on_a_creature_that_gains_protection_goes_to_the_graveyard() -> None:
    g = (Scene().battlefield(0, "Swamp", "Swamp", "Swamp")
         .battlefield(1, "Grizzly Bears", "Plains", "Plains").hand(0, "Soul Bleed")
         .hand(1, "Shadow Ward").start())
    g.cast(0, "Soul Bleed", "Grizzly Bears").resolve()
    g.next_turn(1, "main1")
    g.cast(1, "Shadow Ward").resolve()  # creatures it controls: protection from black
    assert g.zone_names("graveyard", 0) == ["Soul Bleed"]


def test_301_5b_an_equipment_enters_unattached() -> None:
    g = (Scene().battlefield(0, "Wastes", "Wastes", "Grizzly Bears").hand(0, "Gorgon Flail")
         .start())
    g.cast(0, "Gorgon Flail").resolve()
    assert g.obj("Gorgon Flail").attached_to is None and _pt(g, "Grizzly Bears") == (2, 2)


def test_702_6a_equip_targets_a_creature_you_control_only_as_a_sorcery() -> None:
    g = (Scene().battlefield(0, "Gorgon Flail", "Grizzly Bears", "Runeclaw Bear",
                             *["Wastes"] * 4, "Forest")
         .battlefield(1, "Giant Spider").hand(0, "Giant Growth").start())
    g.activate(0, "Gorgon Flail", "{2}")
    assert _target_labels(g) == ["Target Grizzly Bears", "Target Runeclaw Bear"]
    g.target("Grizzly Bears")
    # With the ability on the stack the stack is not empty: no second equip now.
    assert g.find("activate", "Gorgon Flail") is None
    g.resolve()
    assert _pt(g, "Grizzly Bears") == (3, 3)
    g.until("declare_attackers").attack(("Grizzly Bears", 1)).pass_(2).no_blocks(1)
    assert g.find("activate", "Gorgon Flail") is None  # combat: not a main phase


def test_701_3c_equip_moves_the_equipment_with_a_new_timestamp() -> None:
    g = (Scene().battlefield(0, "Gorgon Flail", "Grizzly Bears", "Runeclaw Bear",
                             *["Wastes"] * 4).start())
    g.activate(0, "Gorgon Flail", "{2}", target="Grizzly Bears").resolve()
    first = g.obj("Gorgon Flail").timestamp
    g.activate(0, "Gorgon Flail", "{2}", target="Runeclaw Bear").resolve()
    flail = g.obj("Gorgon Flail")
    assert flail.attached_to == g.obj("Runeclaw Bear").oid and flail.timestamp > first
    assert _pt(g, "Grizzly Bears") == (2, 2) and _pt(g, "Runeclaw Bear") == (3, 3)


def test_701_3b_equipping_the_creature_it_already_equips_does_nothing() -> None:
    g = (Scene().battlefield(0, "Gorgon Flail", "Grizzly Bears", *["Wastes"] * 4).start())
    g.activate(0, "Gorgon Flail", "{2}", target="Grizzly Bears").resolve()
    before = g.obj("Gorgon Flail").timestamp
    g.activate(0, "Gorgon Flail", "{2}", target="Grizzly Bears").resolve()
    assert g.obj("Gorgon Flail").timestamp == before and _pt(g, "Grizzly Bears") == (3, 3)


def test_704_5n_an_equipment_whose_creature_died_stays_unattached() -> None:
    g = (Scene().battlefield(0, "Gorgon Flail", "Grizzly Bears", "Wastes", "Wastes",
                             "Mountain", "Mountain")
         .hand(0, "Lightning Bolt").start())
    g.activate(0, "Gorgon Flail", "{2}", target="Grizzly Bears").resolve()
    flail = g.obj("Gorgon Flail")
    assert g.view(1)[flail.oid]["a"] == g.obj("Grizzly Bears").oid  # the view shows it
    g.cast(0, "Lightning Bolt", "Grizzly Bears").resolve()
    assert g.obj("Gorgon Flail").attached_to is None
    assert "a" not in g.view(1)[flail.oid]


def test_301_5c_an_equipment_comes_off_what_stops_being_a_creature() -> None:
    g = (Scene().battlefield(0, "Gorgon Flail", "Wastes", "Wastes", "Forest")
         .hand(0, "Quickening Earth").start())
    g.cast(0, "Quickening Earth", "Forest").resolve()
    forest = g.obj("Forest")
    g.activate(0, "Gorgon Flail", "{2}", target=forest).resolve()
    assert _pt(g, "Forest") == (4, 4)
    g.next_turn(1)
    assert g.obj("Gorgon Flail").attached_to is None  # stays on the battlefield (704.5n)


def test_301_5d_a_change_of_the_creatures_control_leaves_the_equipment_where_it_is() -> None:
    g = (Scene().battlefield(0, "Mountain", "Mountain", "Mountain")
         .battlefield(1, "Gorgon Flail", "Grizzly Bears", "Wastes", "Wastes")
         .hand(0, "Act of Treason").at("main1", active=1).start())
    g.activate(1, "Gorgon Flail", "{2}", target="Grizzly Bears").resolve()
    g.next_turn(0)
    g.cast(0, "Act of Treason", "Grizzly Bears").resolve()
    bears, flail = g.obj("Grizzly Bears"), g.obj("Gorgon Flail")
    assert bears.controller == 0 and flail.controller == 1 and flail.attached_to == bears.oid
    assert _pt(g, "Grizzly Bears") == (3, 3)
    assert g.find("activate", "Gorgon Flail", player=0) is None  # only its controller may


def test_602_5_a_creature_whose_abilities_cannot_be_activated_makes_no_mana() -> None:
    g = (Scene().battlefield(0, "Island", "Island").battlefield(1, "Llanowar Elves")
         .hand(0, "Ice Cage").start())
    g.cast(0, "Ice Cage", "Llanowar Elves").resolve()
    g.next_turn(1)
    assert g.find("mana", "Llanowar Elves", player=1) is None


def test_800_4a_an_aura_leaves_with_the_player_who_owns_it() -> None:
    g = (Scene(3).battlefield(0, "Plains", "Plains").battlefield(1, "Grizzly Bears")
         .hand(0, "Pacifism").start())
    g.cast(0, "Pacifism", "Grizzly Bears").resolve()
    g.concede(0)
    assert not g.objs("Pacifism", "battlefield")
    g.until("declare_attackers", 1)
    assert g.find("attack", obj=g.obj("Grizzly Bears").oid) is not None



def test_707_10c_a_copy_whose_new_target_is_a_permanent_makes_it_become_a_target() -> None:
    g = (Scene().battlefield(0, "Mountain", "Island", "Island")
         .battlefield(1, "Illusionary Servant").hand(0, "Lightning Bolt", "Twincast").start())
    g.cast(0, "Lightning Bolt", 1)
    g.cast(0, "Twincast", g.game.stack[-1]).resolve()
    g.choose("target", "Target Illusionary Servant")  # the copy's new target
    g.resolve()  # the Servant's trigger, put on the stack above the copy
    assert g.zone_names("graveyard", 1) == ["Illusionary Servant"]


def test_301_5a_what_equipped_creature_means_follows_the_equipment() -> None:
    g = (Scene().battlefield(0, "Whispersilk Cloak", "Grizzly Bears", "Runeclaw Bear",
                             *["Wastes"] * 4).start())
    g.activate(0, "Whispersilk Cloak", "{2}", target="Grizzly Bears").resolve()
    bears, runeclaw = g.obj("Grizzly Bears"), g.obj("Runeclaw Bear")
    assert g.view(1)[bears.oid]["kw"] == ["shroud"] and "kw" not in g.view(1)[runeclaw.oid]
    g.activate(0, "Whispersilk Cloak", "{2}", target="Runeclaw Bear").resolve()
    assert "kw" not in g.view(1)[bears.oid] and g.view(1)[runeclaw.oid]["kw"] == ["shroud"]


def test_614_12_305_7_a_land_type_chosen_as_the_aura_enters_applies_at_once() -> None:
    g = (Scene().battlefield(0, "Island", "Island", "Forest").hand(0, "Convincing Mirage")
         .start())
    g.cast(0, "Convincing Mirage", "Forest").resolve()
    assert g.decision.kind == "land_type" and len(g.options(0)) == 5  # CR 305.6
    g.choose("land_type", "Mountain")
    mirage, forest = g.obj("Convincing Mirage"), g.obj("Forest")
    assert g.view(1)[mirage.oid]["ch"] == "Mountain"
    # Its own "{T}: Add {G}" is gone; it has the Mountain's "{T}: Add {R}" (CR 305.7).
    assert g.find("mana", "Tap Forest for {R}") is not None
    assert g.find("mana", "Tap Forest for {G}") is None
    assert forest.oid == mirage.attached_to


def test_726_1a_auras_and_equipment_stay_attached_while_a_subgame_is_played() -> None:
    g = (Scene().battlefield(0, *["Plains"] * 6, "Gorgon Flail", "Grizzly Bears")
         .battlefield(1, "Hill Giant").hand(0, "Pacifism", "Shahrazad")
         .start())
    g.cast(0, "Pacifism", "Hill Giant").resolve()
    g.activate(0, "Gorgon Flail", "{2}", target="Grizzly Bears").resolve()
    main = g.main
    g.cast(0, "Shahrazad")
    while g.table.top is main:
        g.pass_()
    g.keep_hands().concede(1)  # the subgame ends; the main game resumes (CR 726.5)
    assert g.table.top is main
    assert g.obj("Pacifism").attached_to == g.obj("Hill Giant").oid
    assert g.obj("Gorgon Flail").attached_to == g.obj("Grizzly Bears").oid
    assert _pt(g, "Grizzly Bears") == (3, 3)


def test_801_10_open_the_vaults_returns_only_from_graveyards_in_range() -> None:
    # Five players, range 1: players 1 and 4 are in 0's range, 2 and 3 are not.
    g = (Scene(5, range_of_influence=1).battlefield(0, *["Plains"] * 6)
         .graveyard(1, "Ornithopter").graveyard(2, "Gorgon Flail").graveyard(4, "Coat of Arms")
         .hand(0, "Open the Vaults").start())
    g.cast(0, "Open the Vaults").resolve()
    assert g.obj("Ornithopter").controller == 1 and g.obj("Coat of Arms").controller == 4
    assert g.zone_names("graveyard", 2) == ["Gorgon Flail"]
