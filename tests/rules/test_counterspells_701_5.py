"""Countering a spell (CR 701.5), with M10's counterspells: a countered spell leaves the
stack for its owner's graveyard without resolving, and a counterspell whose target has left
the stack does nothing (CR 608.2b)."""

from __future__ import annotations

from .helpers import G, Scene
from .test_cards_m10_instants import decide


def _bolt_then(counter: str, lands: tuple[str, ...] = ("Island", "Island", "Wastes")) -> G:
    """Player 0 bolts player 1, who answers with ``counter`` aimed at the Bolt."""
    g = (Scene().battlefield(0, "Mountain").battlefield(1, *lands)
         .hand(0, "Lightning Bolt").hand(1, counter).start())
    g.cast(0, "Lightning Bolt", 1).pass_()
    g.cast(1, counter, g.obj("Lightning Bolt", "stack"))
    return g


def test_701_5a_a_countered_spell_goes_to_its_owners_graveyard_and_does_nothing() -> None:
    g = _bolt_then("Cancel").resolve()
    assert g.zone_names("graveyard", 0) == ["Lightning Bolt"]
    assert g.zone_names("graveyard", 1) == ["Cancel"]
    assert not g.game.stack and g.life(1) == 20
    assert any("Cancel counters Lightning Bolt" in line for line in g.log)
    # Its mana stays spent: the Mountain that paid for it is still tapped.
    assert g.obj("Mountain").tapped


def test_701_5a_a_countered_creature_spell_never_enters_the_battlefield() -> None:
    g = (Scene().battlefield(0, "Forest", "Forest").battlefield(1, "Island", "Wastes")
         .hand(0, "Grizzly Bears").hand(1, "Essence Scatter").start())
    g.choose("cast", "Cast Grizzly Bears").pass_()
    g.cast(1, "Essence Scatter", g.obj("Grizzly Bears", "stack")).resolve()
    assert not g.game.stack and not g.objs("Grizzly Bears", "battlefield")
    assert g.zone_names("graveyard", 0) == ["Grizzly Bears"]


def test_701_5a_a_countered_copy_of_a_spell_ceases_to_exist() -> None:
    # Player 1 copies player 0's Bolt with Twincast, then player 0 counters the copy.
    g = (Scene().battlefield(0, "Mountain", "Island", "Island", "Wastes")
         .battlefield(1, "Island", "Island").hand(0, "Lightning Bolt", "Cancel")
         .hand(1, "Twincast").start())
    g.cast(0, "Lightning Bolt", 1).pass_()
    g.cast(1, "Twincast", g.obj("Lightning Bolt", "stack")).resolve()
    g.target(0)  # the copy aims at player 0
    (copy,) = [o for o in g.game.stack if o.is_copy]
    g.cast(0, "Cancel", copy).resolve()
    assert copy.oid not in g.game.objects
    assert [o.name for o in g.game.stack] == ["Lightning Bolt"]
    assert "Lightning Bolt" not in g.zone_names("graveyard", 0)
    g.resolve()
    assert g.life(0) == 20 and g.life(1) == 17


def test_701_5_a_counterspell_can_be_countered() -> None:
    g = (Scene().battlefield(0, "Mountain", "Island", "Wastes")
         .battlefield(1, "Island", "Island", "Wastes").hand(0, "Lightning Bolt", "Negate")
         .hand(1, "Cancel").start())
    g.cast(0, "Lightning Bolt", 1).pass_()
    g.cast(1, "Cancel", g.obj("Lightning Bolt", "stack")).pass_()
    g.cast(0, "Negate", g.obj("Cancel", "stack")).resolve()
    assert g.zone_names("graveyard", 1) == ["Cancel"]
    g.resolve()
    assert g.life(1) == 17


def test_608_2b_a_counterspell_whose_target_has_left_the_stack_does_nothing() -> None:
    # Two counterspells at one Bolt: the later (on top) counters it; the first then has no
    # legal target left and does not resolve.
    g = (Scene().battlefield(0, "Mountain")
         .battlefield(1, "Island", "Island", "Island", "Wastes", "Wastes")
         .hand(0, "Lightning Bolt").hand(1, "Cancel", "Negate").start())
    g.cast(0, "Lightning Bolt", 1).pass_()
    g.cast(1, "Cancel", g.obj("Lightning Bolt", "stack"))
    g.cast(1, "Negate", g.obj("Lightning Bolt", "stack"))  # holding priority (CR 117.3c)
    g.resolve()
    assert g.zone_names("graveyard", 0) == ["Lightning Bolt"]
    g.resolve()
    assert any("Cancel has no legal targets left" in line for line in g.log)
    assert g.zone_names("graveyard", 1) == ["Negate", "Cancel"]
    assert not g.game.stack and g.life(1) == 20


def test_101_2_a_spell_that_cant_be_countered_stays_on_the_stack_and_resolves() -> None:
    g = (Scene().battlefield(0, "Forest", "Forest", "Wastes")
         .battlefield(1, "Island", "Island", "Wastes").hand(0, "Great Sable Stag")
         .hand(1, "Cancel").start())
    g.choose("cast", "Cast Great Sable Stag").pass_()
    g.cast(1, "Cancel", g.obj("Great Sable Stag", "stack")).resolve()  # a legal target
    assert [o.name for o in g.game.stack] == ["Great Sable Stag"]
    assert any("Great Sable Stag can't be countered" in line for line in g.log)
    g.resolve()
    assert g.obj("Great Sable Stag").controller == 0


def test_701_5_essence_scatter_may_not_target_a_noncreature_spell() -> None:
    g = (Scene().battlefield(0, "Mountain").battlefield(1, "Island", "Wastes")
         .hand(0, "Lightning Bolt").hand(1, "Essence Scatter").start())
    g.cast(0, "Lightning Bolt", 1).pass_()
    assert g.find("cast", "Cast Essence Scatter", player=1) is None


# --------------------------------------------------------------------------- bots


def test_the_heuristic_bot_counters_an_opponents_spell_but_never_its_own() -> None:
    g = (Scene().battlefield(0, "Mountain", "Island", "Island", "Wastes")
         .battlefield(1, "Mountain").hand(0, "Lightning Bolt", "Cancel")
         .hand(1, "Lightning Bolt").start())
    g.cast(0, "Lightning Bolt", 1)
    assert g.find("cast", "Cast Cancel", player=0) is not None  # it could, at its own Bolt
    assert decide(g).kind != "cast"
    g.pass_()
    g.cast(1, "Lightning Bolt", 0).pass_()  # the opponent's Bolt is on top of its own
    action = decide(g)
    assert (action.kind, action.label) == ("cast", "Cast Cancel")
    g.choose("cast", "Cast Cancel")
    assert g.game.objects[decide(g).ref[1]].controller == 1


def test_the_heuristic_bot_casts_essence_scatter_only_at_a_creature_spell() -> None:
    g = (Scene().battlefield(0, "Island", "Wastes").battlefield(1, "Mountain")
         .hand(0, "Essence Scatter").hand(1, "Lightning Bolt").at("main1", active=1).start())
    g.cast(1, "Lightning Bolt", 0).pass_()
    assert g.find("cast", "Cast Essence Scatter", player=0) is None
    assert decide(g).kind == "pass"
