"""Magic 2010 cards whose text is continuous effects in layers (CR 613): Auras that pump, lords,
a characteristic-defining ability, a copy, and the pump spells and abilities. Each is played
in a game and its text checked; the layers themselves are tested in test_layers_613.py."""

from __future__ import annotations

import pytest

from arbiter.server.rules.cards.vocab import FLYING, HASTE
from arbiter.server.rules.characteristics import has_keyword

from .helpers import G, Scene


def _pt(g: G, name: str, controller: int | None = None) -> list[int]:
    shown: list[int] = g.view(1)[g.obj(name, controller=controller).oid]["pt"]
    return shown


@pytest.mark.parametrize(("aura", "land", "pt"), [
    ("Holy Strength", "Plains", [3, 4]), ("Unholy Strength", "Swamp", [4, 3]),
    ("Oakenform", "Forest", [5, 5]), ("Weakness", "Swamp", [0, 1]),
])
def test_auras_change_the_enchanted_creature_while_attached(aura: str, land: str,
                                                            pt: list[int]) -> None:
    # "Enchanted creature gets +X/+Y": on an opponent's Grizzly Bears (2/2) as well.
    g = (Scene().battlefield(0, land, "Wastes", "Wastes").hand(0, aura, "Unsummon", "Island")
         .battlefield(1, "Grizzly Bears").start())
    g.cast(0, aura, "Grizzly Bears").resolve()
    assert _pt(g, "Grizzly Bears") == pt
    assert g.obj("Grizzly Bears").controller == 1


def test_weakness_kills_a_creature_with_one_toughness() -> None:
    g = Scene().battlefield(0, "Swamp").hand(0, "Weakness").battlefield(1, "Raging Goblin").start()
    g.cast(0, "Weakness", "Raging Goblin").resolve()
    # 1/1 - 2/1 is -1/0: the Goblin dies (CR 704.5f), then the Aura with nothing to enchant
    # (704.5m).
    assert g.zone_names("graveyard", 1) == ["Raging Goblin"]
    assert g.zone_names("graveyard", 0) == ["Weakness"]


def test_armored_ascension_counts_plains_and_gives_flying() -> None:
    g = (Scene().battlefield(0, "Plains", "Plains", "Plains", "Wastes", "Grizzly Bears")
         .hand(0, "Armored Ascension", "Plains").start())
    g.cast(0, "Armored Ascension", "Grizzly Bears").resolve()
    assert _pt(g, "Grizzly Bears") == [5, 5]
    assert has_keyword(g.game, g.obj("Grizzly Bears"), FLYING)
    g.play_land(0, "Plains")  # one more Plains you control: +1/+1 more
    assert _pt(g, "Grizzly Bears") == [6, 6]


def test_honor_of_the_pure_pumps_your_white_creatures_only() -> None:
    g = (Scene().battlefield(0, "Honor of the Pure", "Serra Angel", "Grizzly Bears")
         .battlefield(1, "White Knight").start())
    assert _pt(g, "Serra Angel") == [5, 5]
    assert _pt(g, "Grizzly Bears") == [2, 2]  # green
    assert _pt(g, "White Knight") == [2, 2]  # white, but not yours


def test_veteran_armorsmith_and_swordsmith_pump_the_other_soldiers() -> None:
    g = (Scene().battlefield(0, "Veteran Armorsmith", "Veteran Swordsmith", "Grizzly Bears")
         .battlefield(1, "Veteran Swordsmith").start())
    assert _pt(g, "Veteran Armorsmith") == [3, 3]  # +1/+0 from the Swordsmith, not itself
    assert _pt(g, "Veteran Swordsmith", controller=0) == [3, 3]
    assert _pt(g, "Veteran Swordsmith", controller=1) == [3, 2]  # not "you control"
    assert _pt(g, "Grizzly Bears") == [2, 2]  # no Soldier


def test_goblin_chieftain_pumps_and_hastens_the_other_goblins() -> None:
    g = (Scene().battlefield(0, "Mountain", "Mountain", "Wastes", "Goblin Chieftain")
         .hand(0, "Goblin Chieftain").battlefield(1, "Raging Goblin").summoning_sick().start())
    assert _pt(g, "Goblin Chieftain") == [2, 2]  # "other": not itself
    g.cast(0, "Goblin Chieftain").resolve()
    first, second = g.objs("Goblin Chieftain")
    assert _pt(g, "Raging Goblin") == [1, 1]  # an opponent's Goblin
    assert g.view(1)[second.oid]["pt"] == [3, 3] == g.view(1)[first.oid]["pt"]
    assert g.view(1)[second.oid]["kw"] == ["haste"]
    g.until("declare_attackers", 0)
    assert g.find("attack", obj=second.oid) is not None  # haste: it attacks at once
    assert has_keyword(g.game, second, HASTE)


def test_nightmare_flies_and_counts_your_swamps() -> None:
    lands = ["Swamp"] * 4 + ["Wastes"] * 2
    g = (Scene().battlefield(0, *lands).hand(0, "Nightmare", "Swamp")
         .battlefield(1, "Swamp", "Swamp").start())
    g.cast(0, "Nightmare").resolve()
    nightmare = g.obj("Nightmare")
    assert _pt(g, "Nightmare") == [4, 4]  # the opponent's Swamps don't count
    assert has_keyword(g.game, nightmare, FLYING)
    g.play_land(0, "Swamp")
    assert _pt(g, "Nightmare") == [5, 5]


def test_clone_enters_as_a_copy_of_a_creature_of_its_controllers_choice() -> None:
    g = (Scene().battlefield(0, "Island", "Wastes", "Wastes", "Wastes").hand(0, "Clone")
         .battlefield(1, "Serra Angel", "Grizzly Bears").start())
    g.cast(0, "Clone").resolve()
    assert g.decision.player == 0
    assert sorted(a.label for a in g.decision.actions) == [
        "Clone enters as itself", "Copy Grizzly Bears", "Copy Serra Angel"]
    g.choose("copy", "Copy Serra Angel")
    mine = g.obj("Serra Angel", controller=0)
    assert _pt(g, "Serra Angel", controller=0) == [4, 4]
    assert has_keyword(g.game, mine, FLYING)
    assert g.view(1)[mine.oid]["n"] == "Serra Angel"


def test_clone_copying_nightmare_counts_its_own_controllers_swamps() -> None:
    g = (Scene().battlefield(0, "Island", "Swamp", "Wastes", "Wastes").hand(0, "Clone")
         .battlefield(1, "Nightmare", "Swamp", "Swamp", "Swamp").start())
    assert _pt(g, "Nightmare", controller=1) == [3, 3]
    g.cast(0, "Clone").resolve().choose("copy", "Copy Nightmare")
    assert _pt(g, "Nightmare", controller=0) == [1, 1]


@pytest.mark.parametrize(("spell", "mana", "pt"), [
    ("Might of Oaks", ["Forest", "Wastes", "Wastes", "Wastes"], [9, 9]),
    ("Disorient", ["Island", "Wastes", "Wastes", "Wastes"], [-5, 2]),
])
def test_pump_spells_last_until_end_of_turn(spell: str, mana: list[str], pt: list[int]) -> None:
    g = (Scene().battlefield(0, *mana).hand(0, spell).battlefield(1, "Grizzly Bears").start())
    g.cast(0, spell, "Grizzly Bears").resolve()
    assert _pt(g, "Grizzly Bears") == pt
    g.next_turn(1)
    assert _pt(g, "Grizzly Bears") == [2, 2]


def test_disoriented_attacker_deals_no_damage() -> None:
    g = (Scene().battlefield(0, "Hill Giant").battlefield(1, "Island", *["Wastes"] * 3)
         .hand(1, "Disorient").at("begin_combat").start())
    g.pass_(2).attack(("Hill Giant", 1)).pass_()  # the attacker's player passes first
    g.cast(1, "Disorient", "Hill Giant").resolve()
    g.until("combat_damage")
    assert g.life(1) == 20  # power -4: no damage (CR 510.1a)


@pytest.mark.parametrize(("creature", "land", "pt"), [
    ("Looming Shade", "Swamp", [3, 3]), ("Fiery Hellhound", "Mountain", [4, 2]),
])
def test_pump_abilities_stack_for_each_activation(creature: str, land: str,
                                                  pt: list[int]) -> None:
    g = Scene().battlefield(0, land, land, creature).start()
    g.activate(0, creature).resolve()
    g.activate(0, creature).resolve()
    assert _pt(g, creature) == pt


def test_glorious_charge_pumps_the_creatures_you_control_as_it_resolves() -> None:
    # CR 611.2c: the creatures are fixed as it resolves; one entering later is not pumped.
    g = (Scene().battlefield(0, "Plains", "Wastes", "Forest", "Wastes", "Grizzly Bears")
         .hand(0, "Glorious Charge", "Runeclaw Bear").battlefield(1, "Hill Giant").start())
    g.cast(0, "Glorious Charge").resolve()
    assert _pt(g, "Grizzly Bears") == [3, 3] and _pt(g, "Hill Giant") == [3, 3]
    g.cast(0, "Runeclaw Bear").resolve()
    assert _pt(g, "Runeclaw Bear") == [2, 2]
    g.next_turn(1)
    assert _pt(g, "Grizzly Bears") == [2, 2]


def test_overrun_pumps_and_gives_trample_until_end_of_turn() -> None:
    g = (Scene().battlefield(0, "Forest", "Forest", "Forest", "Wastes", "Wastes",
                             "Grizzly Bears")
         .hand(0, "Overrun").battlefield(1, "Runeclaw Bear").start())
    g.cast(0, "Overrun").resolve()
    assert _pt(g, "Grizzly Bears") == [5, 5] and _pt(g, "Runeclaw Bear") == [2, 2]
    assert g.view(1)[g.obj("Grizzly Bears").oid]["kw"] == ["trample"]
    g.until("declare_attackers", 0)
    g.attack(("Grizzly Bears", 1)).pass_(2).block(1, ("Runeclaw Bear", "Grizzly Bears"))
    g.until("combat_damage")
    assert g.life(1) == 17  # 5 trample damage: 2 to the blocker, 3 over it


def test_coat_of_arms_counts_creatures_sharing_a_type() -> None:
    # Veteran Armorsmith and Swordsmith share Human and Soldier (one each), White Knight is a
    # Human too: each of the three gets +2/+2 from the other two; Grizzly Bears (a Bear) get
    # nothing; the opponent's Human counts as well.
    g = (Scene().battlefield(0, "Coat of Arms", "Veteran Armorsmith", "Veteran Swordsmith",
                             "Grizzly Bears")
         .battlefield(1, "White Knight").start())
    assert _pt(g, "Grizzly Bears") == [2, 2]
    assert _pt(g, "White Knight") == [4, 4]
    assert _pt(g, "Veteran Armorsmith") == [5, 5]  # 2/3, +1/+0 Swordsmith, +2/+2
    assert _pt(g, "Veteran Swordsmith") == [5, 5]  # 3/2, +0/+1 Armorsmith, +2/+2


def test_clone_copies_only_creatures_within_its_controllers_range() -> None:
    # CR 801.2d: with range of influence 1 in a five-player game, player 0 reaches players 4
    # and 1, not player 2's Serra Angel.
    g = (Scene(5, range_of_influence=1)
         .battlefield(0, "Island", "Wastes", "Wastes", "Wastes").hand(0, "Clone")
         .battlefield(1, "Grizzly Bears").battlefield(2, "Serra Angel").start())
    g.cast(0, "Clone").resolve()
    assert sorted(a.label for a in g.decision.actions) == [
        "Clone enters as itself", "Copy Grizzly Bears"]
