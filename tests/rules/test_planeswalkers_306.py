"""Planeswalkers (CR 306) and loyalty abilities (CR 606), played with M10's planeswalkers:
loyalty counters as they enter, loyalty abilities at sorcery speed once a turn, their costs,
damage to planeswalkers from spells and in combat, and the state-based actions that end them."""

from __future__ import annotations

from arbiter.server.rules.characteristics import loyalty

from .helpers import G, Scene

MINUS = "\u2212"


def _loyalty(g: G, name: str) -> int:
    return loyalty(g.obj(name))


def test_306_5b_a_planeswalker_enters_with_its_printed_loyalty_in_counters() -> None:
    g = Scene().battlefield(0, "Island", "Island", "Island").hand(0, "Jace Beleren").start()
    g.cast(0, "Jace Beleren").resolve()
    jace = g.obj("Jace Beleren")
    assert jace.counters == {"loyalty": 3}
    assert g.view(1)[jace.oid]["k"] == {"loyalty": 3}  # what clients draw


def test_306_5c_loyalty_is_the_number_of_loyalty_counters() -> None:
    g = Scene().battlefield(0, "Jace Beleren").start()
    g.activate(0, "Jace Beleren", "+2")
    assert _loyalty(g, "Jace Beleren") == 5
    assert g.view(0)[g.obj("Jace Beleren").oid]["k"] == {"loyalty": 5}


def test_306_7_noncombat_damage_to_a_player_stays_with_that_player() -> None:
    g = (Scene().battlefield(0, "Mountain").hand(0, "Lightning Bolt")
         .battlefield(1, "Jace Beleren").start())
    g.cast(0, "Lightning Bolt", 1).resolve()
    # No redirection to the player's planeswalker is offered or made.
    assert g.life(1) == 17 and _loyalty(g, "Jace Beleren") == 3


def test_306_8_damage_to_a_planeswalker_removes_loyalty_counters() -> None:
    g = (Scene().battlefield(0, "Mountain").hand(0, "Lightning Bolt")
         .battlefield(1, "Chandra Nalaar").start())
    g.cast(0, "Lightning Bolt", "Chandra Nalaar").resolve()
    assert _loyalty(g, "Chandra Nalaar") == 3 and g.life(1) == 20
    assert g.obj("Chandra Nalaar").damage == 0  # damage is not marked on it (CR 120.3c)


def test_606_3_loyalty_abilities_only_at_sorcery_speed() -> None:
    g = (Scene().battlefield(0, "Jace Beleren", "Mountain").hand(0, "Lightning Bolt")
         .battlefield(1, "Grizzly Bears").start())
    assert g.find("activate", "Jace Beleren") is not None  # main phase, empty stack
    g.cast(0, "Lightning Bolt", "Grizzly Bears")
    assert g.find("activate", "Jace Beleren") is None  # the stack is not empty
    g.resolve()
    g.until("begin_combat", 0)
    assert g.find("activate", "Jace Beleren") is None  # not a main phase
    g.next_turn(1)
    g.pass_()  # player 1 passes in their main phase: player 0 has priority on their turn
    assert g.decision.player == 0 and g.find("activate", "Jace Beleren") is None


def test_606_3_one_loyalty_ability_per_permanent_each_turn() -> None:
    g = Scene().battlefield(0, "Jace Beleren", "Liliana Vess").start()
    g.activate(0, "Jace Beleren", "+2").resolve()
    assert g.find("activate", "Jace Beleren") is None  # none of its abilities, this turn
    assert g.find("activate", "Liliana Vess") is not None  # another planeswalker's may
    g.until("main2", 0)
    assert g.find("activate", "Jace Beleren") is None  # the whole turn
    g.next_turn(0)
    assert g.find("activate", "Jace Beleren") is not None  # again next turn


def test_606_4_the_cost_is_paid_in_loyalty_counters_as_it_is_activated() -> None:
    g = Scene().battlefield(0, "Liliana Vess").battlefield(1, "Hill Giant").start()
    g.activate(0, "Liliana Vess", f"{MINUS}2")
    assert _loyalty(g, "Liliana Vess") == 3  # paid, with the ability still on the stack
    assert g.game.stack


def test_606_6_a_negative_cost_needs_that_many_counters() -> None:
    g = Scene().battlefield(0, "Liliana Vess", counters={"loyalty": 7}).start()
    assert g.find("activate", f"Liliana Vess: {MINUS}8") is None
    assert g.find("activate", f"Liliana Vess: {MINUS}2") is not None


def test_606_4_a_minus_x_cost_can_remove_every_counter_and_no_more() -> None:
    g = (Scene().battlefield(0, "Chandra Nalaar", counters={"loyalty": 2})
         .battlefield(1, "Grizzly Bears").start())
    g.choose("activate", f"Chandra Nalaar: {MINUS}X")
    assert [a.label for a in g.options(0)] == ["X = 0", "X = 1", "X = 2"]
    g.choose("x", "X = 2").target("Grizzly Bears")
    # CR 704.5i: at 0 loyalty Chandra is gone before her ability resolves; it still does.
    assert g.zone_names("graveyard", 0) == ["Chandra Nalaar"]
    g.resolve()
    assert g.zone_names("graveyard", 1) == ["Grizzly Bears"]


def test_704_5i_a_planeswalker_dealt_its_loyalty_in_damage_dies() -> None:
    g = (Scene().battlefield(0, "Mountain").hand(0, "Lightning Bolt")
         .battlefield(1, "Jace Beleren").start())
    g.cast(0, "Lightning Bolt", "Jace Beleren").resolve()
    assert g.zone_names("graveyard", 1) == ["Jace Beleren"]


def test_704_5j_the_legend_rule_applies_to_planeswalkers() -> None:
    g = (Scene().battlefield(0, "Jace Beleren", "Island", "Island", "Island")
         .hand(0, "Jace Beleren").start())
    old = g.obj("Jace Beleren")
    g.activate(0, "Jace Beleren", "+2").resolve()
    g.cast(0, "Jace Beleren")
    g.pass_(2)
    assert g.decision.kind == "legend_rule" and g.decision.player == 0
    g.choose("choose_card", obj=old.oid)
    assert [o.oid for o in g.objs("Jace Beleren", "battlefield")] == [old.oid]
    assert _loyalty(g, "Jace Beleren") == 5
    assert g.zone_names("graveyard", 0) == ["Jace Beleren"]


def test_704_5j_two_players_may_each_control_the_same_planeswalker() -> None:
    g = (Scene().battlefield(0, "Island", "Island", "Island").hand(0, "Jace Beleren")
         .battlefield(1, "Jace Beleren").start())
    g.cast(0, "Jace Beleren").resolve()
    assert len(g.objs("Jace Beleren", "battlefield")) == 2  # one each: no legend rule


def test_508_1b_a_creature_may_attack_a_planeswalker_and_its_damage_removes_loyalty() -> None:
    g = (Scene().battlefield(0, "Hill Giant").battlefield(1, "Chandra Nalaar")
         .at("begin_combat").start())
    g.pass_(2)
    chandra = g.obj("Chandra Nalaar")
    refs = {a.ref for a in g.options(0) if a.kind == "attack"}
    assert refs == {("p", 1), ("o", chandra.oid)}
    g.attack(("Hill Giant", "Chandra Nalaar"))
    g.until("combat_damage")
    assert _loyalty(g, "Chandra Nalaar") == 3 and g.life(1) == 20


def test_508_1b_an_attacked_planeswalker_is_defended_by_blocking_as_usual() -> None:
    g = (Scene().battlefield(0, "Hill Giant").battlefield(1, "Jace Beleren", "Grizzly Bears")
         .at("begin_combat").start())
    g.pass_(2).attack(("Hill Giant", "Jace Beleren"))
    g.pass_(2).block(1, ("Grizzly Bears", "Hill Giant"))
    g.until("combat_damage")
    assert _loyalty(g, "Jace Beleren") == 3
    assert g.zone_names("graveyard", 1) == ["Grizzly Bears"]


def test_704_5i_combat_damage_can_kill_a_planeswalker() -> None:
    g = (Scene().battlefield(0, "Shivan Dragon").battlefield(1, "Ajani Goldmane")
         .at("begin_combat").start())
    g.pass_(2).attack(("Shivan Dragon", "Ajani Goldmane"))
    g.until("combat_damage")
    assert g.zone_names("graveyard", 1) == ["Ajani Goldmane"] and g.life(1) == 20
