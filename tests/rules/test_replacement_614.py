"""Replacement and prevention effects (CR 614, 615) and several of them meeting one event
(CR 616.1): the affected player chooses the order, and after each the rest are checked again."""

from __future__ import annotations

import random

from arbiter.bots import heuristic_strategy
from arbiter.server.rules.cards.catalog import cards

from .helpers import G, Scene


def _bolted_with(*answers: str, life: int = 20) -> G:
    """Player 1 casts Lightning Bolt at player 0; player 0 answers with ``answers`` (instants
    in hand, lands on the battlefield to pay), and the answers resolve. The bolt is next."""
    lands = {"Harm's Way": ["Plains"], "Safe Passage": ["Plains"] * 3,
             "Mending Hands": ["Plains"]}
    g = (Scene().battlefield(0, *[land for a in answers for land in lands[a]])
         .hand(0, *answers).life(0, life)
         .battlefield(1, "Mountain", "Grizzly Bears").hand(1, "Lightning Bolt").start())
    g.pass_()
    g.cast(1, "Lightning Bolt", 0).pass_()
    for name in answers:
        if name == "Harm's Way":
            g.cast(0, name, "Grizzly Bears").resolve()
            g.choose("choose_source", "Lightning Bolt")
        else:
            g.cast(0, name, *((0,) if name == "Mending Hands" else ())).resolve()
    assert g.game.stack[-1].name == "Lightning Bolt"
    return g


def test_614_1a_redirection_replaces_damage_to_you_with_damage_to_another() -> None:
    g = _bolted_with("Harm's Way")
    g.resolve()
    assert g.life(0) == 19
    assert g.zone_names("graveyard", 1)[-1] == "Grizzly Bears"


def test_614_6_the_modified_event_happens_instead_and_triggers_like_any() -> None:
    # Child of Night's combat damage is redirected to itself: it is still its combat damage,
    # so lifelink gains its controller 2 life (614.6), and nobody else is dealt any.
    g = (Scene().battlefield(0, "Child of Night").battlefield(1, "Plains").hand(1, "Harm's Way")
         .at("begin_combat").start())
    g.pass_(2).attack(("Child of Night", 1)).pass_(2)  # no creature can block
    g.pass_()
    g.cast(1, "Harm's Way", "Child of Night").resolve()
    g.choose("choose_source", "Child of Night")
    g.until("combat_damage")
    assert g.life(1) == 20 and g.life(0) == 22
    assert g.zone_names("graveyard", 0) == ["Child of Night"]


def test_615_1_prevented_damage_is_not_dealt_and_615_6_triggers_nothing() -> None:
    g = (Scene().battlefield(0, "Child of Night").battlefield(1, "Forest").hand(1, "Fog")
         .at("begin_combat").start())
    g.pass_(2).attack(("Child of Night", 1)).pass_(2)  # no creature can block
    g.pass_()
    g.cast(1, "Fog").resolve()
    g.until("end")
    assert g.life(1) == 20 and g.life(0) == 20  # no damage, so no lifelink


def test_615_6_a_shield_is_used_up_as_it_prevents() -> None:
    g = _bolted_with("Mending Hands")
    g.resolve()
    assert g.life(0) == 20  # 3 of the 4 prevented
    [shield] = [e for e in g.game.effects if e.kind == "prevent"]
    assert shield.amount == 1


def test_616_1_the_affected_player_chooses_which_effect_applies_first() -> None:
    g = _bolted_with("Harm's Way", "Safe Passage")
    g.resolve()
    d = g.decision
    assert d.kind == "replacement_order" and d.player == 0  # the bolt's target, not its caster
    assert sorted(a.label for a in d.actions) == [
        "Prevent all of it", "Redirect the next 2 damage to Grizzly Bears"]
    g.choose("replacement", "Redirect")
    # 2 went to the bears; Safe Passage was checked again (616.1f) and prevented the third.
    assert g.life(0) == 20
    assert "Grizzly Bears" in g.zone_names("graveyard", 1)


def test_616_1f_an_effect_that_no_longer_applies_is_not_applied() -> None:
    g = _bolted_with("Harm's Way", "Safe Passage")
    g.resolve()
    g.choose("replacement", "Prevent all")
    # Nothing is left to redirect (614.7a): the bears live and the shield is unused.
    assert g.life(0) == 20 and g.obj("Grizzly Bears").damage == 0
    [redirect] = [e for e in g.game.effects if e.kind == "redirect_from_source"]
    assert redirect.amount == 2


def test_616_1_effects_that_do_the_same_thing_are_not_asked_about() -> None:
    g = (Scene().battlefield(0, "Guardian Seraph", "Guardian Seraph")
         .battlefield(1, "Mountain").hand(1, "Lightning Bolt").start())
    g.pass_()
    g.cast(1, "Lightning Bolt", 0).resolve()
    assert g.decision.kind == "priority"
    assert g.life(0) == 19  # 615.10: each prevents 1


def test_616_1_the_heuristic_bot_keeps_its_shield_and_regenerates_in_danger() -> None:
    g = _bolted_with("Harm's Way", "Safe Passage")
    g.resolve()
    pick = heuristic_strategy(g.view(0), g.decision.to_wire(), random.Random(0), cards())
    assert g.decision.actions[pick].label == "Prevent all of it"
    # A creature blocking one that would kill it: the bot regenerates it.
    g = (Scene().battlefield(0, "Stampeding Rhino").battlefield(1, "Cudgel Troll", "Forest")
         .at("begin_combat").start())
    g.pass_(2).attack(("Stampeding Rhino", 1)).pass_(2).block(1, ("Cudgel Troll",
                                                                  "Stampeding Rhino"))
    g.pass_()
    pick = heuristic_strategy(g.view(1), g.decision.to_wire(), random.Random(0), cards())
    assert g.decision.actions[pick].label.startswith("Cudgel Troll: {G}: Regenerate")


def test_614_12_an_entering_replacement_looks_at_the_game_as_the_permanent_enters() -> None:
    # Drowned Catacomb's own ability modifies how it enters (614.12, 614.1d): with no Island
    # or Swamp then, it enters tapped; with one, untapped.
    g = Scene().hand(0, "Drowned Catacomb").battlefield(0, "Mountain").start()
    g.play_land(0, "Drowned Catacomb")
    assert g.obj("Drowned Catacomb").tapped
    assert "tapped" not in [e.kind for e in g.events]  # it entered so: it never became tapped
    g = Scene().hand(0, "Drowned Catacomb").battlefield(0, "Island").start()
    g.play_land(0, "Drowned Catacomb")
    assert not g.obj("Drowned Catacomb").tapped


def _shielded_hydra() -> G:
    """Protean Hydra (X = 3) with Mending Hands' shield on it; player 1 bolts it."""
    g = (Scene().battlefield(0, "Forest", "Wastes", "Wastes", "Wastes", "Plains")
         .hand(0, "Protean Hydra", "Mending Hands")
         .battlefield(1, "Mountain").hand(1, "Lightning Bolt").start())
    g.choose("cast", "Cast Protean Hydra").choose("x", "X = 3").resolve()
    g.cast(0, "Mending Hands", "Protean Hydra").resolve()
    g.pass_()
    g.cast(1, "Lightning Bolt", "Protean Hydra").resolve()
    d = g.decision
    assert d.kind == "replacement_order" and d.player == 0  # the Hydra's controller
    return g


def test_614_1c_a_permanent_enters_with_counters() -> None:
    g = (Scene().battlefield(0, "Forest", "Wastes", "Wastes").hand(0, "Protean Hydra").start())
    g.choose("cast", "Cast Protean Hydra").choose("x", "X = 2").resolve()
    hydra = g.obj("Protean Hydra")
    # It entered with them: never a 0/0 on the battlefield, so never put into a graveyard.
    assert hydra.counters == {"+1/+1": 2} and hydra.zone == "battlefield"


def test_616_1_choosing_the_shield_first_leaves_the_hydras_counters() -> None:
    g = _shielded_hydra()
    g.choose("replacement", "shield")
    hydra = g.obj("Protean Hydra")
    assert hydra.counters == {"+1/+1": 3} and hydra.damage == 0  # all 3 stopped by the shield
    [shield] = [e for e in g.game.effects if e.kind == "prevent"]
    assert shield.amount == 1


def test_616_1_choosing_the_hydras_own_prevention_first_keeps_the_shield() -> None:
    g = _shielded_hydra()
    g.choose("replacement", "remove +1/+1 counters")
    # All 3 prevented by it, its 3 counters gone: a 0/0, put into the graveyard (704.5f);
    # the shield never saw any damage (616.1f).
    assert g.zone_names("graveyard", 0)[-1] == "Protean Hydra"
    [shield] = [e for e in g.game.effects if e.kind == "prevent"]
    assert shield.amount == 4
