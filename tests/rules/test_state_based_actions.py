"""State-based actions (CR 704.3, 704.5) and objects changing zones (CR 400.7)."""

from __future__ import annotations

from .helpers import Scene


def test_704_5a_a_player_at_zero_life_loses_when_sbas_are_checked() -> None:
    g = Scene().battlefield(0, "Mountain").hand(0, "Lightning Bolt").life(1, 3).start()
    g.cast(0, "Lightning Bolt", 1)
    assert g.life(1) == 3 and g.in_game(1)  # nothing yet: the Bolt is on the stack
    g.resolve()
    assert g.outcome(1) == ("lost", "life") and g.rule_of(1) == "104.3b"
    assert g.outcome(0) == ("won", "opponents_left")


def test_704_5b_drawing_from_an_empty_library_loses_at_the_next_check() -> None:
    g = (Scene().library(0, "Island").battlefield(0, "Island", "Island", "Island")
         .hand(0, "Divination").start())
    g.cast(0, "Divination").resolve()
    assert g.outcome(0) == ("lost", "decking") and g.rule_of(0) == "104.3c"


def test_704_5b_an_empty_library_alone_does_not_lose() -> None:
    g = Scene().library(0).start()
    assert g.in_game(0)
    g.until("end", 0)
    assert g.in_game(0)  # only an attempted draw loses


def test_704_5c_ten_poison_counters_lose() -> None:
    g = (Scene().battlefield(0, "Glistener Elf").poison(1, 9).at("begin_combat").start())
    g.pass_(2).attack(("Glistener Elf", 1))
    g.until("combat_damage")
    assert g.poison(1) == 10
    assert g.outcome(1) == ("lost", "poison") and g.rule_of(1) == "104.3d"


def test_704_5d_a_token_outside_the_battlefield_ceases_to_exist() -> None:
    g = (Scene().battlefield(0, "Genesis Chamber", "Forest", "Forest", "Mountain")
         .hand(0, "Grizzly Bears", "Lightning Bolt").start())
    g.cast(0, "Grizzly Bears").resolve()
    g.resolve()  # the Genesis Chamber trigger
    myr = g.obj("Myr")
    g.cast(0, "Lightning Bolt", myr).resolve()
    assert g.objs("Myr") == []  # not in the graveyard, nowhere


def test_704_5f_a_creature_with_zero_toughness_dies() -> None:
    g = (Scene().battlefield(0, "Glistener Elf").battlefield(1, "Llanowar Elves")
         .at("begin_combat").start())
    g.pass_(2).attack(("Glistener Elf", 1))
    g.pass_(2).block(1, ("Llanowar Elves", "Glistener Elf"))
    g.until("combat_damage")
    # Infect gave the 1/1 Elves a -1/-1 counter: toughness 0, so it is put into the graveyard.
    assert g.zone_names("graveyard", 1) == ["Llanowar Elves"]
    assert g.zone_names("graveyard", 0) == ["Glistener Elf"]  # Elves dealt it 1 damage


def test_704_5g_lethal_damage_destroys_a_creature() -> None:
    g = (Scene().battlefield(0, "Mountain").hand(0, "Lightning Bolt")
         .battlefield(1, "Hill Giant", "Grizzly Bears").start())
    g.cast(0, "Lightning Bolt", "Hill Giant").resolve()
    assert g.zone_names("graveyard", 1) == ["Hill Giant"]
    assert g.obj("Grizzly Bears").damage == 0


def test_704_5g_damage_below_toughness_wears_off_at_cleanup() -> None:
    g = (Scene().battlefield(0, "Mountain").hand(0, "Lightning Bolt")
         .battlefield(1, "Breezekeeper").start())
    g.cast(0, "Lightning Bolt", "Breezekeeper").resolve()
    assert g.obj("Breezekeeper").damage == 3
    g.until("upkeep", 1)
    assert g.obj("Breezekeeper").damage == 0


def test_704_5i_a_planeswalker_with_no_loyalty_is_put_into_the_graveyard() -> None:
    g = (Scene().battlefield(0, "Karn Liberated", counters={"loyalty": 3})
         .battlefield(1, "Hill Giant").start())
    g.activate(0, "Karn Liberated", "\u22123", target="Hill Giant")
    # Paying the -3 leaves Karn at 0: it dies before its ability resolves.
    assert g.zone_names("graveyard", 0) == ["Karn Liberated"]
    g.resolve()
    assert g.zone_names("exile") == ["Hill Giant"]


def test_704_5j_the_legend_rule_keeps_one_of_two_same_named_legends() -> None:
    g = (Scene().battlefield(0, "Isamaru, Hound of Konda", "Plains")
         .hand(0, "Isamaru, Hound of Konda").start())
    old = g.obj("Isamaru, Hound of Konda")
    g.cast(0, "Isamaru, Hound of Konda")
    g.pass_(2)
    assert g.decision.kind == "legend_rule" and g.decision.player == 0
    g.choose("choose_card", obj=old.oid)
    assert [o.oid for o in g.objs("Isamaru, Hound of Konda", "battlefield")] == [old.oid]
    assert g.zone_names("graveyard", 0) == ["Isamaru, Hound of Konda"]


def test_704_5m_an_aura_on_nothing_goes_to_the_graveyard() -> None:
    g = (Scene().battlefield(0, *["Island"] * 5, "Mountain").hand(0, "Mind Control")
         .hand(0, "Lightning Bolt").battlefield(1, "Grizzly Bears").start())
    g.cast(0, "Mind Control", "Grizzly Bears").resolve()
    assert g.obj("Grizzly Bears").controller == 0
    g.cast(0, "Lightning Bolt", "Grizzly Bears").resolve()
    # The Bolt finishes resolving first; then the Bears die, and only then is the Aura
    # attached to nothing.
    assert g.zone_names("graveyard", 0) == ["Lightning Bolt", "Mind Control"]
    assert g.zone_names("graveyard", 1) == ["Grizzly Bears"]


def test_400_7_a_card_that_changes_zones_is_a_new_object() -> None:
    g = (Scene().battlefield(0, "Mountain").hand(0, "Lightning Bolt")
         .battlefield(1, "Island", "Grizzly Bears").hand(1, "Unsummon").start())
    bears = g.obj("Grizzly Bears")
    g.cast(0, "Lightning Bolt", bears)
    g.pass_()  # player 1 gets priority and responds
    g.cast(1, "Unsummon", bears).resolve()
    in_hand = g.obj("Grizzly Bears", zone="hand")
    assert in_hand.oid != bears.oid and in_hand.card is bears.card
    g.resolve()
    # The Bolt's target became a new object: the only target is illegal, it does nothing.
    assert "Lightning Bolt has no legal targets left and does not resolve." in g.log
    assert g.life(1) == 20 and g.obj("Grizzly Bears", zone="hand").damage == 0


def test_704_3_sbas_repeat_until_none_apply_before_priority() -> None:
    # Bolt kills the Bears, which leaves Mind Control attached to nothing: one check after
    # another before anyone gets priority.
    g = (Scene().battlefield(0, *["Island"] * 5, "Mountain").hand(0, "Mind Control")
         .hand(0, "Lightning Bolt").battlefield(1, "Grizzly Bears").start())
    g.cast(0, "Mind Control", "Grizzly Bears").resolve()
    g.cast(0, "Lightning Bolt", "Grizzly Bears").resolve()
    assert g.decision.kind == "priority"
    assert g.objs("Mind Control", "battlefield") == []
