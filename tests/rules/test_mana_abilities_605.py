"""Mana abilities (CR 605): "{T}: Add {G}" and "{T}: Add one mana of any color" are mana
abilities (605.1a: no target, they add mana, not loyalty abilities); they are activated when a
player has priority or while paying a cost (605.3a) and never use the stack (605.3b). A
creature's {T} mana ability obeys summoning sickness (CR 302.6)."""

from __future__ import annotations

from .helpers import Scene


def test_605_1a_a_mana_ability_is_offered_as_mana_not_as_an_activated_ability() -> None:
    g = Scene().battlefield(0, "Llanowar Elves", "Birds of Paradise").start()
    kinds = {a.label: a.kind for a in g.decision.actions}
    assert kinds["Tap Llanowar Elves for {G}"] == "mana"
    assert all(kinds[f"Tap Birds of Paradise for {{{c}}}"] == "mana" for c in "WUBRG")
    assert "activate" not in kinds.values()


def test_605_3_605_3b_a_mana_ability_pays_its_cost_and_resolves_without_the_stack() -> None:
    # CR 605.3: activated like any ability (602.2), so its {T} cost is paid; 605.3b: but it
    # doesn't go on the stack.
    g = (Scene().battlefield(0, "Llanowar Elves").battlefield(1, "Mountain")
         .hand(1, "Lightning Bolt").start())
    g.pass_()
    g.cast(1, "Lightning Bolt", 0).pass_()
    assert g.decision.player == 0
    stack = [o.oid for o in g.game.stack]
    g.choose("mana", "Tap Llanowar Elves")
    # Nothing went on the stack, the mana is there now and player 0 still has priority.
    assert [o.oid for o in g.game.stack] == stack
    assert g.game.players[0].mana == {"G": 1} and g.obj("Llanowar Elves").tapped
    assert g.decision.player == 0 and g.decision.kind == "priority"


def test_605_3b_a_mana_ability_of_any_colour_adds_the_colour_chosen() -> None:
    g = Scene().battlefield(0, "Birds of Paradise").start()
    g.choose("mana", "Tap Birds of Paradise for {U}")
    assert g.game.players[0].mana == {"U": 1} and g.obj("Birds of Paradise").tapped
    assert g.find("mana") is None  # tapped: nothing more to add


def test_605_3a_mana_abilities_are_activated_while_paying_a_cost() -> None:
    g = Scene().battlefield(0, "Llanowar Elves", "Forest").hand(0, "Grizzly Bears").start()
    g.choose("cast", "Cast Grizzly Bears")
    assert g.obj("Llanowar Elves").tapped and g.obj("Forest").tapped
    assert not g.game.players[0].mana


def test_605_3a_any_colour_pays_the_coloured_part_of_a_cost() -> None:
    g = (Scene().battlefield(0, "Birds of Paradise", "Island", "Island", "Island", "Island")
         .hand(0, "Serra Angel").start())
    # {3}{W}{W}: only one white source, so not castable.
    assert g.find("cast", "Cast Serra Angel") is None
    g = (Scene().battlefield(0, "Birds of Paradise", "Plains", "Island", "Island", "Island")
         .hand(0, "Serra Angel").start())
    g.choose("cast", "Cast Serra Angel").resolve()
    assert g.obj("Serra Angel").controller == 0


def test_605_a_creatures_tap_mana_ability_obeys_summoning_sickness() -> None:
    # CR 302.6: a creature that came under its controller's control this turn can't use {T}
    # abilities, mana abilities included.
    g = Scene().battlefield(0, "Forest", "Forest").hand(0, "Llanowar Elves", "Grizzly Bears") \
        .start()
    g.cast(0, "Llanowar Elves").resolve()
    assert g.find("mana", "Tap Llanowar Elves") is None
    assert g.find("cast", "Cast Grizzly Bears") is None  # one Forest left: the Elves can't help
    g.next_turn(1).next_turn(0)
    assert g.find("mana", "Tap Llanowar Elves") is not None
    g = Scene().battlefield(0, "Forest").hand(0, "Birds of Paradise").start()
    g.cast(0, "Birds of Paradise").resolve()
    assert g.find("mana") is None
