"""Continuous effects in layers (CR 613): each layer the engine applies, the order of sublayers,
timestamps and dependencies, effects that end, and objects that change zones. The effects come
from real cards (M10 and the pool) where one exists and from test-only cards otherwise
(arbiter/server/rules/cards/pool.py, LAYER_TEST_CARDS)."""

from __future__ import annotations

from arbiter.server.local import ViewKeeper
from arbiter.server.rules.cards.vocab import COLOR, FIRST_STRIKE, FLYING, VIGILANCE, Protection
from arbiter.server.rules.characteristics import colors, has_keyword, is_type
from arbiter.server.rules.view import snapshot

from .helpers import G, Scene

LANDS = ("Island", "Island", "Island", "Forest", "Forest", "Forest", "Mountain", "Plains",
         "Plains", "Swamp")


def _scene(*creatures: str, hand: tuple[str, ...] = (), lands: tuple[str, ...] = LANDS
           ) -> Scene:
    return Scene().battlefield(0, *lands, *creatures).hand(0, *hand)


def _pt(g: G, name: str, controller: int | None = None) -> list[int]:
    """Power and toughness as every player is shown them."""
    obj = g.obj(name, controller=controller)
    shown: list[int] = g.view(1)[obj.oid]["pt"]
    return shown


def _kw(g: G, name: str) -> list[str]:
    out: list[str] = g.view(1)[g.obj(name).oid].get("kw", [])
    return out


def _cast(g: G, target: str, *spells: str) -> None:
    """Player 0 casts each spell at ``target`` in turn, each resolving before the next."""
    for spell in spells:
        g.cast(0, spell, target).resolve()


def test_613_1_each_layer_applies_in_order_whatever_the_order_of_the_effects() -> None:
    # Giant Growth (layer 7c) first, then a colour change (layer 5), then losing all abilities
    # (layer 6): the outcome is that of applying 5, 6 and 7 in that order.
    g = _scene("Serra Angel", hand=("Giant Growth", "Azure Wash", "Null Touch")).start()
    _cast(g, "Serra Angel", "Giant Growth", "Azure Wash", "Null Touch")
    angel = g.obj("Serra Angel")
    assert _pt(g, "Serra Angel") == [7, 7]
    assert colors(g.game, angel) == {"U"}
    assert not has_keyword(g.game, angel, FLYING) and not has_keyword(g.game, angel, VIGILANCE)


def test_613_1a_a_copy_has_the_copiable_values_only() -> None:
    # CR 707.2: Clone copies Serra Angel as printed: not the pump, the counter, its tapped
    # status or its controller.
    g = (_scene(hand=("Giant Growth", "Growth Rune", "Clone"))
         .battlefield(1, "Serra Angel", tapped=True).start())
    _cast(g, "Serra Angel", "Giant Growth", "Growth Rune")
    assert _pt(g, "Serra Angel", controller=1) == [8, 8]
    g.cast(0, "Clone").resolve()
    assert g.decision.kind == "copy"
    g.choose("copy", obj=g.obj("Serra Angel").oid)
    copy = g.obj("Serra Angel", controller=0)
    assert copy.card is not None and copy.card.name == "Clone"
    assert _pt(g, "Serra Angel", controller=0) == [4, 4]
    assert not copy.tapped and not copy.counters
    assert has_keyword(g.game, copy, FLYING) and has_keyword(g.game, copy, VIGILANCE)


def test_613_1a_a_copy_that_changes_zones_is_its_own_card_again() -> None:
    # CR 400.7: the copy effect applied to the permanent, not to the card.
    g = (_scene(hand=("Clone", "Unsummon")).battlefield(1, "Hill Giant").start())
    g.cast(0, "Clone").resolve().choose("copy", obj=g.obj("Hill Giant").oid)
    assert [o.name for o in g.game.battlefield if o.controller == 0][-1] == "Hill Giant"
    g.cast(0, "Unsummon", g.obj("Hill Giant", controller=0)).resolve()
    assert "Clone" in g.zone_names("hand", 0)


def test_613_1b_control_effects_apply_in_timestamp_order_and_end() -> None:
    # Mind Control (player 0) and then Act of Treason (player 1, a later timestamp) on the same
    # creature: the later one wins while it lasts (CR 613.7); at end of turn control returns to
    # the Aura's controller, not to the owner.
    g = (_scene(hand=("Mind Control",), lands=("Island",) * 5)
         .battlefield(1, "Mountain", "Mountain", "Mountain", "Hill Giant")
         .hand(1, "Act of Treason").start())
    g.cast(0, "Mind Control", "Hill Giant").resolve()
    assert g.obj("Hill Giant").controller == 0
    g.next_turn(1)
    g.cast(1, "Act of Treason", "Hill Giant").resolve()
    assert g.obj("Hill Giant").controller == 1
    g.next_turn(0)
    assert g.obj("Hill Giant").controller == 0


def test_613_1b_a_creature_that_changes_control_is_summoning_sick() -> None:
    # CR 302.6: it hasn't been under its new controller's control continuously since the
    # turn began, so it can't attack (Act of Treason's haste is what lets it).
    g = (_scene(hand=("Mind Control",), lands=("Island",) * 5)
         .battlefield(1, "Hill Giant").start())
    g.cast(0, "Mind Control", "Hill Giant").resolve()
    g.until("declare_attackers", 0)
    assert g.find("attack", obj=g.obj("Hill Giant").oid) is None
    g.next_turn(0, "declare_attackers")
    assert g.find("attack", obj=g.obj("Hill Giant").oid) is not None


def test_613_1e_a_colour_change_applies_before_effects_that_read_colour() -> None:
    # Honor of the Pure reaches white creatures; Serra Angel made blue (layer 5) is no longer
    # one when layer 7c is applied.
    g = _scene("Honor of the Pure", "Serra Angel", hand=("Azure Wash",)).start()
    assert _pt(g, "Serra Angel") == [5, 5]
    g.cast(0, "Azure Wash", "Serra Angel").resolve()
    assert _pt(g, "Serra Angel") == [4, 4]


def test_613_1f_abilities_added_then_removed() -> None:
    # Kindled Fury, then Null Touch: layer 6 in timestamp order removes the printed and the
    # granted keywords; Kindled Fury's +1/+0 is no ability and stays (layer 7c).
    g = _scene("Serra Angel", hand=("Kindled Fury", "Null Touch")).start()
    g.cast(0, "Kindled Fury", "Serra Angel").resolve()
    assert _kw(g, "Serra Angel") == ["first strike"]
    g.cast(0, "Null Touch", "Serra Angel").resolve()
    angel = g.obj("Serra Angel")
    assert not any(has_keyword(g.game, angel, k) for k in (FLYING, VIGILANCE, FIRST_STRIKE))
    assert _kw(g, "Serra Angel") == [] and _pt(g, "Serra Angel") == [5, 4]


def test_613_7_a_later_effect_applies_after_an_earlier_one_in_its_layer() -> None:
    # Null Touch first, then Kindled Fury: the later grant survives the earlier removal.
    g = _scene("Serra Angel", hand=("Null Touch", "Kindled Fury")).start()
    _cast(g, "Serra Angel", "Null Touch", "Kindled Fury")
    angel = g.obj("Serra Angel")
    assert has_keyword(g.game, angel, FIRST_STRIKE)
    assert not has_keyword(g.game, angel, FLYING)


def test_613_8_an_effect_waits_for_the_effect_it_depends_on() -> None:
    # The Banner ("creatures you control with flying have first strike") is older than
    # Updraft's flying, but what it applies to depends on it (CR 613.8a), so Updraft applies
    # first and the Bears get first strike.
    g = _scene("Sky Duelists' Banner", "Grizzly Bears", hand=("Updraft",)).start()
    bears = g.obj("Grizzly Bears")
    assert not has_keyword(g.game, bears, FIRST_STRIKE)
    g.cast(0, "Updraft", "Grizzly Bears").resolve()
    assert has_keyword(g.game, bears, FLYING) and has_keyword(g.game, bears, FIRST_STRIKE)
    assert _kw(g, "Grizzly Bears") == ["first strike", "flying"]


def test_613_8_losing_all_abilities_ends_a_static_ability_of_the_same_layer() -> None:
    # Skyward Captain gives the others flying. Null Touch on the Captain is later, but applying
    # it changes whether the Captain's effect exists, so it applies first (CR 613.8a).
    g = _scene("Skyward Captain", "Grizzly Bears", hand=("Null Touch",)).start()
    bears = g.obj("Grizzly Bears")
    assert has_keyword(g.game, bears, FLYING)
    g.cast(0, "Null Touch", "Skyward Captain").resolve()
    assert not has_keyword(g.game, bears, FLYING)
    g.next_turn(1)  # Null Touch ends at cleanup (CR 514.2): the Captain's ability is back
    assert has_keyword(g.game, g.obj("Grizzly Bears"), FLYING)


def test_613_4a_characteristic_defining_abilities_apply_first() -> None:
    lands = ("Swamp", "Swamp", "Swamp", "Island", "Island", "Forest")
    g = _scene("Nightmare", hand=("Shrinking Hex", "Giant Growth"), lands=lands).start()
    assert _pt(g, "Nightmare") == [3, 3]  # 7a: the number of Swamps
    g.cast(0, "Shrinking Hex", "Nightmare").resolve()
    assert _pt(g, "Nightmare") == [1, 1]  # 7b sets it over 7a
    g.cast(0, "Giant Growth", "Nightmare").resolve()
    assert _pt(g, "Nightmare") == [4, 4]


def test_613_4b_an_effect_sets_power_and_toughness() -> None:
    g = _scene("Serra Angel", hand=("Shrinking Hex",)).start()
    g.cast(0, "Shrinking Hex", "Serra Angel").resolve()
    assert _pt(g, "Serra Angel") == [1, 1] and _kw(g, "Serra Angel") == []
    g.next_turn(1)
    assert _pt(g, "Serra Angel") == [4, 4]  # until end of turn only


def test_613_4c_modifications_apply_after_setting() -> None:
    # Giant Growth is older than Shrinking Hex, but 7c comes after 7b: 1/1 + 3/3; counters
    # modify in 7c too (CR 122.1a).
    g = _scene("Serra Angel", hand=("Giant Growth", "Shrinking Hex", "Growth Rune")).start()
    _cast(g, "Serra Angel", "Giant Growth", "Shrinking Hex")
    assert _pt(g, "Serra Angel") == [4, 4]
    g.cast(0, "Growth Rune", "Serra Angel").resolve()
    assert _pt(g, "Serra Angel") == [5, 5]


def test_613_4_switching_comes_after_every_modification() -> None:
    # 2/2 with Holy Strength (+1/+2) is 3/4; switched, 4/3; Giant Growth afterwards still
    # applies before the switch (7c before 7d): 2+1+3 / 2+2+3 = 6/7, switched 7/6.
    g = _scene("Grizzly Bears", hand=("Holy Strength", "Inversion Trick", "Giant Growth"),
               lands=("Plains", "Island", "Forest")).start()
    _cast(g, "Grizzly Bears", "Holy Strength", "Inversion Trick")
    assert _pt(g, "Grizzly Bears") == [4, 3]
    g.cast(0, "Giant Growth", "Grizzly Bears").resolve()
    assert _pt(g, "Grizzly Bears") == [7, 6]


def test_613_4c_static_and_resolved_modifications_add_up_and_resolved_ones_end() -> None:
    g = _scene("Grizzly Bears", hand=("Unholy Strength", "Giant Growth"),
               lands=("Swamp", "Forest")).start()
    _cast(g, "Grizzly Bears", "Unholy Strength", "Giant Growth")
    assert _pt(g, "Grizzly Bears") == [7, 6]
    g.next_turn(1)
    assert _pt(g, "Grizzly Bears") == [4, 3]  # the Aura's lasts as long as it is attached


def test_400_7_effects_do_not_follow_an_object_to_another_zone() -> None:
    # Giant Growth applied to the Bears on the battlefield; returned to hand and cast again,
    # they are a new object that no effect names.
    g = _scene("Grizzly Bears", hand=("Giant Growth", "Unsummon")).start()
    _cast(g, "Grizzly Bears", "Giant Growth", "Unsummon")
    g.cast(0, "Grizzly Bears").resolve()
    assert _pt(g, "Grizzly Bears") == [2, 2]


def test_613_views_follow_characteristics_changed_at_a_distance() -> None:
    # A Swamp entering changes Nightmare (7a) without touching it: the views kept from dirty
    # keys must still show the new power and toughness.
    g = (_scene("Nightmare", lands=("Swamp",)).hand(0, "Swamp").start())
    keeper = ViewKeeper(g.table, [0, 1])
    keeper.refresh()
    g.play_land(0, "Swamp")
    keeper.refresh()
    nightmare = g.obj("Nightmare").oid
    assert keeper.views[1][nightmare]["pt"] == [2, 2]
    assert keeper.views[1] == snapshot(g.game, 1)



def test_613_an_ability_whose_source_left_uses_its_last_layered_characteristics() -> None:
    # CR 608.2h: Prodigal Pyromancer, given deathtouch by Venom Draught, is killed with its
    # ability on the stack; the ability's damage still comes from a source with deathtouch.
    g = (Scene().battlefield(0, "Swamp", "Mountain", "Prodigal Pyromancer")
         .hand(0, "Venom Draught", "Lightning Bolt").battlefield(1, "Hill Giant").start())
    g.cast(0, "Venom Draught", "Prodigal Pyromancer").resolve()
    g.activate(0, "Prodigal Pyromancer", target="Hill Giant")
    g.cast(0, "Lightning Bolt", "Prodigal Pyromancer").resolve()
    assert "Prodigal Pyromancer" in g.zone_names("graveyard", 0)
    g.resolve()
    assert "Hill Giant" in g.zone_names("graveyard", 1)


def test_613_1d_a_type_change_applies_before_effects_that_read_types() -> None:
    # Grizzly Bears made a Goblin (layer 4) are among Goblin Chieftain's "other Goblin
    # creatures you control" when layers 6 and 7c are applied: +1/+1 and haste.
    g = _scene("Goblin Chieftain", "Grizzly Bears", hand=("Kinship Mask",)).start()
    assert _pt(g, "Grizzly Bears") == [2, 2]
    _cast(g, "Grizzly Bears", "Kinship Mask")
    assert _pt(g, "Grizzly Bears") == [3, 3] and _kw(g, "Grizzly Bears") == ["haste"]
    g.next_turn(1)
    assert _pt(g, "Grizzly Bears") == [2, 2]



def test_613_1d_a_land_that_becomes_a_creature_is_one_everywhere_until_the_effect_ends() -> None:
    # Layer 4 adds the card type: the land is then a creature to targeting, to combat, to the
    # state-based actions and to the views, and stops being one at end of turn (CR 514.2).
    g = (Scene().battlefield(0, "Forest", "Forest", "Mountain")
         .hand(0, "Quickening Earth", "Lightning Bolt").at("main1").start())
    forest = g.obj("Forest")
    assert g.find("cast", "Cast Lightning Bolt") is not None
    g.cast(0, "Quickening Earth", forest).resolve()
    assert is_type(g.game, forest, "Creature") and is_type(g.game, forest, "Land")
    assert g.view(1)[forest.oid]["pt"] == [3, 3]
    g.next_turn(0, "end")
    g.step_on()
    assert not is_type(g.game, forest, "Creature") and "pt" not in g.view(1)[forest.oid]


def test_613_1d_an_animated_land_dies_to_lethal_damage_like_any_creature() -> None:
    g = (Scene().battlefield(0, "Forest", "Mountain", "Mountain")
         .hand(0, "Quickening Earth", "Lightning Bolt").start())
    forest = g.obj("Forest")
    g.cast(0, "Quickening Earth", forest).resolve()
    g.cast(0, "Lightning Bolt", forest).resolve()  # CR 704.5g: 3 damage, toughness 3
    assert "Forest" in g.zone_names("graveyard", 0)


def test_115_a_target_filter_admits_only_what_it_names() -> None:
    # "Target land": creatures and players are no choice; the Forest and the Mountains are.
    g = (Scene().battlefield(0, "Forest", "Grizzly Bears").battlefield(1, "Mountain")
         .hand(0, "Quickening Earth").start())
    g.choose("cast", "Cast Quickening Earth")
    labels = g.labels()
    assert any("Forest" in x for x in labels) and any("Mountain" in x for x in labels)
    assert not any("Grizzly Bears" in x or "Player" in x for x in labels)


def test_613_1c_a_text_changing_effect_rewrites_the_colour_word_of_protection() -> None:
    # White Knight has protection from black: Doom Blade (black) can't target it. Its text
    # changed, "black" read as "red" (layer 3, CR 612.2), it has protection from red instead:
    # Doom Blade can, Lightning Bolt (red) can't.
    g = (Scene().battlefield(0, "Island", "Swamp", "Swamp", "Mountain")
         .battlefield(1, "White Knight").hand(0, "Hue Twist", "Doom Blade", "Lightning Bolt")
         .start())
    knight = g.obj("White Knight")
    assert has_keyword(g.game, knight, Protection(COLOR, "B"))
    g.cast(0, "Hue Twist", knight).resolve()
    assert has_keyword(g.game, knight, Protection(COLOR, "R"))
    assert not has_keyword(g.game, knight, Protection(COLOR, "B"))
    g.cast(0, "Doom Blade", knight).resolve()
    assert "White Knight" in g.zone_names("graveyard", 1)
