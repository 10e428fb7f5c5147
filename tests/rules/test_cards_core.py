"""Every card in the Basics, Creatures and combat, and Spells sections, played through the
engine."""

from __future__ import annotations

import pytest

from arbiter.server.rules.cards.pool import SECTIONS

from .helpers import Scene


@pytest.mark.parametrize("land,color", [("Plains", "W"), ("Island", "U"), ("Swamp", "B"),
                                        ("Mountain", "R"), ("Forest", "G"), ("Wastes", "C")])
def test_basic_lands_tap_for_their_mana(land: str, color: str) -> None:
    g = Scene().battlefield(0, land).start()
    g.choose("mana", f"Tap {land}")
    assert g.game.players[0].mana == {color: 1}
    assert g.obj(land).tapped
    g.pass_(2)  # the step ends and the mana empties (CR 500.4)
    assert g.game.players[0].mana == {}


def test_a_land_is_played_once_per_turn_as_a_special_action() -> None:
    g = Scene().hand(0, "Forest", "Mountain").hand(1, "Plains").start()
    g.choose("play_land", "Play Forest")
    assert g.zone_names("battlefield") == ["Forest"] and not g.game.stack
    assert g.find("play_land") is None  # one land per turn
    g.pass_()
    assert g.decision.player == 1 and g.find("play_land") is None  # not on another's turn


@pytest.mark.parametrize("bear", ["Runeclaw Bear", "Grizzly Bears"])
def test_bears_cost_1g_and_hit_for_two(bear: str) -> None:
    g = Scene().battlefield(0, "Forest", "Wastes").hand(0, bear).start()
    g.cast(0, bear).resolve()
    b = g.obj(bear)
    assert (b.defn.power, b.defn.toughness) == (2, 2)
    assert all(o.tapped for o in g.objs("Forest", "battlefield") + g.objs("Wastes", "battlefield"))
    g.until("declare_attackers", 0)
    assert g.decision.kind == "priority"  # summoning sick: it could not attack
    g.next_turn(0, "declare_attackers")
    g.attack((bear, 1)).until("combat_damage")
    assert g.life(1) == 18


def test_hill_giant_needs_three_generic_and_a_red() -> None:
    g = Scene().battlefield(0, "Mountain", "Forest", "Forest").hand(0, "Hill Giant").start()
    assert g.find("cast") is None  # three lands are not enough
    g2 = (Scene().battlefield(0, "Mountain", "Forest", "Forest", "Forest")
          .hand(0, "Hill Giant").start())
    g2.cast(0, "Hill Giant").resolve()
    assert g2.obj("Hill Giant").defn.toughness == 3


def test_assault_griffin_flies_over_ground_blockers() -> None:
    g = (Scene().battlefield(0, "Assault Griffin").battlefield(1, "Hill Giant")
         .at("begin_combat").start())
    g.pass_(2).attack(("Assault Griffin", 1))
    g.pass_(2)
    assert g.decision.kind == "priority"  # no legal block, so no blockers decision
    g.until("combat_damage")
    assert g.life(1) == 17


def test_serra_angel_attacks_without_tapping() -> None:
    g = (Scene().battlefield(0, "Serra Angel").battlefield(1, "Assault Griffin")
         .at("begin_combat").start())
    g.pass_(2).attack(("Serra Angel", 1))
    assert not g.obj("Serra Angel").tapped  # vigilance
    g.pass_(2)
    assert g.find("block", player=1) is not None  # a flyer may block it
    g.block(1, ("Assault Griffin", "Serra Angel"))
    g.until("combat_damage")
    assert g.zone_names("graveyard", 1) == ["Assault Griffin"]
    assert g.obj("Serra Angel").damage == 3


def test_llanowar_elves_makes_green_but_not_the_turn_it_arrives() -> None:
    g = Scene().battlefield(0, "Forest").hand(0, "Llanowar Elves", "Grizzly Bears").start()
    g.cast(0, "Llanowar Elves").resolve()
    assert g.find("mana", "Llanowar Elves") is None  # summoning sick (CR 302.6)
    g.next_turn(0)
    g.choose("mana", "Tap Llanowar Elves")
    assert g.game.players[0].mana == {"G": 1}
    g.cast(0, "Grizzly Bears").resolve()
    assert g.obj("Grizzly Bears")


def test_glistener_elf_gives_poison_and_minus_counters() -> None:
    g = (Scene().battlefield(0, "Glistener Elf").battlefield(1, "Hill Giant")
         .at("begin_combat").start())
    g.pass_(2).attack(("Glistener Elf", 1)).pass_(2).no_blocks(1).until("combat_damage")
    assert g.poison(1) == 1 and g.life(1) == 20
    g.next_turn(0, "declare_attackers")
    g.attack(("Glistener Elf", 1)).pass_(2).block(1, ("Hill Giant", "Glistener Elf"))
    g.until("combat_damage")
    giant = g.obj("Hill Giant")
    assert giant.counters == {"-1/-1": 1} and giant.damage == 0


def test_plague_stinger_is_a_flying_infect_creature() -> None:
    g = (Scene().battlefield(0, "Plague Stinger").battlefield(1, "Grizzly Bears")
         .at("begin_combat").start())
    g.pass_(2).attack(("Plague Stinger", 1)).pass_(2)
    assert g.find("block") is None or g.decision.kind == "priority"
    g.until("combat_damage")
    assert g.poison(1) == 1 and g.life(1) == 20


def test_breezekeeper_phases_out_and_back_in() -> None:
    g = Scene().battlefield(0, "Breezekeeper").at("end", 1).start()
    g.until("upkeep", 0)
    bk = g.obj("Breezekeeper")
    assert bk.phased_out  # phased out in its controller's untap step (CR 702.26a)
    assert g.view(1).get(bk.oid, {}).get("x") == 1
    g.until("upkeep", 1)
    assert g.obj("Breezekeeper").phased_out  # treated as though it doesn't exist meanwhile
    g.until("upkeep", 0)
    assert not g.obj("Breezekeeper").phased_out


def test_isamaru_is_legendary() -> None:
    assert SECTIONS["Creatures and combat"][-1].legendary
    g = Scene().battlefield(0, "Plains").hand(0, "Isamaru, Hound of Konda").start()
    g.cast(0, "Isamaru, Hound of Konda").resolve()
    assert g.obj("Isamaru, Hound of Konda").defn.power == 2


def test_lightning_bolt_deals_three_to_any_target() -> None:
    g = (Scene().battlefield(0, "Mountain", "Mountain", "Mountain")
         .hand(0, "Lightning Bolt", "Lightning Bolt", "Lightning Bolt")
         .battlefield(1, "Grizzly Bears", "Karn Liberated", counters={"loyalty": 6}).start())
    g.cast(0, "Lightning Bolt", 1).resolve()
    assert g.life(1) == 17
    g.cast(0, "Lightning Bolt", "Grizzly Bears").resolve()
    assert g.zone_names("graveyard", 1) == ["Grizzly Bears"]
    g.cast(0, "Lightning Bolt", "Karn Liberated").resolve()
    assert g.obj("Karn Liberated").counters["loyalty"] == 3


def test_lava_axe_hits_players_and_planeswalkers_only() -> None:
    g = (Scene().battlefield(0, *["Mountain"] * 5).hand(0, "Lava Axe")
         .battlefield(1, "Hill Giant").start())
    g.choose("cast", "Cast Lava Axe")
    targets = {a.ref for a in g.options()}
    assert targets == {("p", 0), ("p", 1)}  # no creature is a legal target
    g.target(1).resolve()
    assert g.life(1) == 15


def test_angels_mercy_gains_seven() -> None:
    g = (Scene().battlefield(0, "Plains", "Plains", "Wastes", "Wastes").hand(0, "Angel's Mercy")
         .at("end", 1).start())
    g.pass_()  # player 1 (active) passes; player 0 may cast an instant on their turn
    g.cast(0, "Angel's Mercy").resolve()
    assert g.life(0) == 27


def test_divination_draws_two() -> None:
    g = (Scene().battlefield(0, "Island", "Wastes", "Wastes").hand(0, "Divination")
         .library(0, "Hill Giant", "Serra Angel", "Forest").start())
    g.cast(0, "Divination").resolve()
    assert g.zone_names("hand", 0) == ["Hill Giant", "Serra Angel"]
    assert g.zone_names("library", 0) == ["Forest"]


def test_traumatize_mills_half_rounded_down() -> None:
    g = (Scene().battlefield(0, "Island", "Island", *["Wastes"] * 3).hand(0, "Traumatize")
         .library(1, *["Forest"] * 7).start())
    g.cast(0, "Traumatize", 1).resolve()
    assert len(g.game.library(1)) == 4 and len(g.game.graveyard(1)) == 3


def test_glimpse_the_unthinkable_mills_ten() -> None:
    g = (Scene().battlefield(0, "Island", "Swamp").hand(0, "Glimpse the Unthinkable")
         .library(1, *["Forest"] * 12).start())
    g.cast(0, "Glimpse the Unthinkable", 1).resolve()
    assert len(g.game.library(1)) == 2 and len(g.game.graveyard(1)) == 10


def test_act_of_treason_borrows_untaps_and_hastes_until_end_of_turn() -> None:
    g = (Scene().battlefield(0, "Mountain", "Wastes", "Wastes").hand(0, "Act of Treason")
         .battlefield(1, "Hill Giant", tapped=True).start())
    g.cast(0, "Act of Treason", "Hill Giant").resolve()
    giant = g.obj("Hill Giant")
    assert giant.controller == 0 and not giant.tapped
    g.until("declare_attackers", 0)
    g.attack(("Hill Giant", 1)).until("combat_damage")  # haste lets it attack now
    assert g.life(1) == 17
    g.until("upkeep", 1)
    assert g.obj("Hill Giant").controller == 1  # control returns at end of turn


def test_mind_control_steals_while_attached() -> None:
    g = (Scene().battlefield(0, *["Island"] * 5).hand(0, "Mind Control")
         .battlefield(1, "Serra Angel").start())
    g.cast(0, "Mind Control", "Serra Angel").resolve()
    angel = g.obj("Serra Angel")
    assert angel.controller == 0 and g.obj("Mind Control").attached_to == angel.oid
    g.next_turn(1).next_turn(0)
    assert g.obj("Serra Angel").controller == 0  # still ours: no duration


def test_bribery_puts_an_opponents_creature_onto_our_battlefield() -> None:
    g = (Scene().battlefield(0, *["Island"] * 5).hand(0, "Bribery")
         .library(1, "Forest", "Serra Angel", "Forest", "Hill Giant").start())
    g.cast(0, "Bribery", 1)
    g.resolve()
    d = g.decision
    assert (d.kind, d.player) == ("search", 0)
    assert sorted(a.label for a in d.actions) == [
        "Find nothing", "Put Hill Giant onto the battlefield",
        "Put Serra Angel onto the battlefield"]
    g.choose("choose_card", "Serra Angel")
    angel = g.obj("Serra Angel")
    assert (angel.owner, angel.controller) == (1, 0)
    assert len(g.game.library(1)) == 3


def test_blessed_wind_sets_a_life_total_up_or_down() -> None:
    g = (Scene().battlefield(0, *["Plains"] * 18).hand(0, "Blessed Wind", "Blessed Wind")
         .life(0, 7).life(1, 26).start())
    g.cast(0, "Blessed Wind", 0).resolve()
    assert g.life(0) == 20
    g.cast(0, "Blessed Wind", 1).resolve()
    assert g.life(1) == 20 and "B's life total becomes 20." in g.log


def test_every_card_in_these_sections_is_covered_above() -> None:
    tested = {"Plains", "Island", "Swamp", "Mountain", "Forest", "Wastes", "Runeclaw Bear",
              "Grizzly Bears", "Hill Giant", "Assault Griffin", "Serra Angel", "Llanowar Elves",
              "Glistener Elf", "Plague Stinger", "Breezekeeper", "Isamaru, Hound of Konda",
              "Lightning Bolt", "Lava Axe", "Angel's Mercy", "Divination", "Traumatize",
              "Glimpse the Unthinkable", "Act of Treason", "Mind Control", "Bribery",
              "Blessed Wind"}
    in_sections = {c.name for s in ("Basics", "Creatures and combat", "Spells")
                   for c in SECTIONS[s]}
    assert in_sections == tested
