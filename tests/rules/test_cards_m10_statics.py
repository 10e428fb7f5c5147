"""Magic 2010's combat restrictions, requirements and static abilities, each card played in a
game and doing what its text says. The rules they rest on are tested rule by rule in
test_combat_requirements_508_509.py."""

from __future__ import annotations

from arbiter.server.rules.cards.decks import parse_deck_list
from arbiter.server.rules.cards.formats import COMMANDER, CONSTRUCTED, deck_problems
from arbiter.server.rules.cards.vocab import CANT_BLOCK
from arbiter.server.rules.characteristics import has_keyword

from .helpers import G, Scene


def _combat(scene: Scene) -> G:
    """At the declaration of attackers of player 0's turn."""
    return scene.at("begin_combat").start().pass_(2)


def _pt(g: G, name: str, controller: int | None = None) -> list[int]:
    return list(g.view(0)[g.obj(name, controller=controller).oid]["pt"])


def _blocks(g: G) -> set[tuple[str, str]]:
    return {(g.game.objects[a.obj].name, g.game.objects[a.ref[1]].name)
            for a in g.decision.actions if a.kind == "block" and a.ref is not None}


def test_rhox_pikemaster_gives_other_soldiers_first_strike() -> None:
    g = _combat(Scene().battlefield(0, "Rhox Pikemaster", "Veteran Armorsmith", "Grizzly Bears")
                .battlefield(1, "Runeclaw Bear"))
    armorsmith, bears = g.obj("Veteran Armorsmith"), g.obj("Grizzly Bears")
    assert has_keyword(g.game, armorsmith, "first strike")
    assert not has_keyword(g.game, bears, "first strike")  # a Bear, not a Soldier
    g.attack(("Veteran Armorsmith", 1)).pass_(2).block(1, ("Runeclaw Bear", "Veteran Armorsmith"))
    g.until("combat_damage")
    # Its 2 first-strike damage kill the 2/2 Bear before it strikes back.
    assert g.zone_names("graveyard", 1) == ["Runeclaw Bear"] and armorsmith.damage == 0


def test_silence_stops_the_opponents_spells_this_turn_only() -> None:
    g = (Scene().battlefield(0, "Plains", "Mountain").hand(0, "Silence", "Lightning Bolt")
         .battlefield(1, "Mountain").hand(1, "Lightning Bolt").start())
    g.cast(0, "Silence").pass_()  # 0 passes with Silence on the stack; 1 may still respond
    assert g.find("cast", "Cast Lightning Bolt", player=1) is not None
    g.pass_()  # Silence resolves
    g.pass_()  # 0 passes priority: 1 may not cast
    assert g.find("cast", "Cast Lightning Bolt", player=1) is None
    g.pass_()
    g.cast(0, "Lightning Bolt", 1).resolve()  # its caster is no opponent of their own
    assert g.life(1) == 17
    g.next_turn(1)
    assert g.find("cast", "Cast Lightning Bolt", player=1) is not None


def test_alluring_siren_makes_a_creature_attack_its_controller() -> None:
    g = (Scene().battlefield(0, "Grizzly Bears", "Runeclaw Bear")
         .battlefield(1, "Alluring Siren").at("main1", 1).start())
    g.next_turn(0, "upkeep").pass_()
    g.activate(1, "Alluring Siren", target="Grizzly Bears").resolve()
    g.until("declare_attackers", 0)
    assert g.find("done") is None  # the Bears must attack; the Runeclaw Bear may
    g.choose("attack", obj=g.obj("Grizzly Bears").oid)
    g.choose("done")
    assert g.obj("Grizzly Bears").attacking == ("p", 1)
    assert g.obj("Runeclaw Bear").attacking is None


def test_levitation_gives_its_controllers_creatures_flying() -> None:
    g = _combat(Scene().battlefield(0, "Levitation", "Grizzly Bears")
                .battlefield(1, "Runeclaw Bear"))
    assert has_keyword(g.game, g.obj("Grizzly Bears"), "flying")
    assert not has_keyword(g.game, g.obj("Runeclaw Bear"), "flying")
    g.attack(("Grizzly Bears", 1)).pass_(2)
    assert g.decision.kind == "priority"  # the Runeclaw Bear can't block a flier
    g.until("combat_damage")
    assert g.life(1) == 18


def test_merfolk_sovereign_pumps_other_merfolk_and_makes_one_unblockable() -> None:
    g = (Scene().battlefield(0, "Merfolk Sovereign", "Merfolk Sovereign")
         .battlefield(1, "Giant Spider").start())
    first, second = g.objs("Merfolk Sovereign", "battlefield")
    assert g.view(0)[first.oid]["pt"] == [3, 3]  # each gets +1/+1 from the other only
    g.choose("activate", obj=first.oid)
    assert {a.ref for a in g.decision.actions} == {
        ("o", first.oid), ("o", second.oid)}  # Merfolk only: not the Spider
    g.target(second).resolve()
    g.until("declare_attackers").attack((second, 1)).pass_(2)
    assert g.decision.kind == "priority"  # the Spider may not block it
    g.until("combat_damage")
    assert g.life(1) == 17


def test_phantom_warrior_cant_be_blocked() -> None:
    g = _combat(Scene().battlefield(0, "Phantom Warrior").battlefield(1, "Giant Spider"))
    g.attack(("Phantom Warrior", 1)).pass_(2)
    assert g.decision.kind == "priority"
    g.until("combat_damage")
    assert g.life(1) == 18


def test_serpent_of_the_endless_sea_counts_islands_and_needs_an_island_to_attack() -> None:
    serpent = "Serpent of the Endless Sea"
    g = _combat(Scene().battlefield(0, serpent, "Island", "Island", "Island")
                .battlefield(1, "Plains"))
    assert _pt(g, serpent) == [3, 3]
    assert g.decision.kind == "priority"  # the defending player has no Island: no attack
    g = _combat(Scene().battlefield(0, serpent, "Island", "Island").battlefield(1, "Island"))
    assert _pt(g, serpent) == [2, 2]  # the opponent's Island is not its controller's
    g.attack((serpent, 1)).until("combat_damage")
    assert g.life(1) == 18


def test_sleep_taps_a_players_creatures_and_keeps_them_tapped_one_untap_step() -> None:
    g = (Scene().battlefield(0, *("Island",) * 4).hand(0, "Sleep")
         .battlefield(1, "Grizzly Bears", "Giant Spider", "Forest").start())
    g.cast(0, "Sleep", 1).resolve()
    bears, spider, forest = g.obj("Grizzly Bears"), g.obj("Giant Spider"), g.obj("Forest")
    assert bears.tapped and spider.tapped and not forest.tapped
    g.next_turn(1)  # their untap step: the creatures stay tapped, the rest untaps
    assert bears.tapped and spider.tapped
    g.next_turn(0).next_turn(1)  # the effect is spent: the next untap step untaps them
    assert not bears.tapped and not spider.tapped


def test_dread_warlock_can_be_blocked_only_by_black_creatures() -> None:
    g = _combat(Scene().battlefield(0, "Dread Warlock")
                .battlefield(1, "Grizzly Bears", "Child of Night"))
    g.attack(("Dread Warlock", 1)).pass_(2)
    assert _blocks(g) == {("Child of Night", "Dread Warlock")}


def test_relentless_rats_grow_with_each_other_rats_and_fill_a_deck() -> None:
    g = Scene().battlefield(0, "Relentless Rats", "Relentless Rats").battlefield(
        1, "Relentless Rats").start()
    assert [g.view(0)[o.oid]["pt"] for o in g.objs("Relentless Rats")] == [[4, 4]] * 3
    lone = Scene().battlefield(0, "Relentless Rats", "Grizzly Bears").start()
    assert _pt(lone, "Relentless Rats") == [2, 2]
    # CR 100.2a: the four-copy limit does not apply to it (nor Commander's singleton).
    deck = parse_deck_list("20 Relentless Rats\n40 Swamp\n")
    assert deck_problems(deck, CONSTRUCTED) == []
    too_many = parse_deck_list("20 Relentless Rats\n5 Child of Night\n35 Swamp\n")
    assert [p.line.name for p in deck_problems(too_many, CONSTRUCTED) if p.line] == [
        "Child of Night"]
    commander = parse_deck_list("Commander: Relentless Rats\n40 Relentless Rats\n59 Swamp\n")
    assert not [p for p in deck_problems(commander, COMMANDER) if p.rule == "903.5b"]


def test_berserkers_of_blood_ridge_attack_each_combat() -> None:
    g = _combat(Scene().battlefield(0, "Berserkers of Blood Ridge"))
    assert g.find("done") is None
    g.attack(("Berserkers of Blood Ridge", 1)).until("combat_damage")
    assert g.life(1) == 16


def test_jackal_familiar_cant_attack_or_block_alone() -> None:
    g = _combat(Scene().battlefield(0, "Jackal Familiar").battlefield(1, "Jackal Familiar"))
    assert g.decision.kind == "priority"  # no attack: it would be alone
    g = _combat(Scene().battlefield(0, "Jackal Familiar", "Raging Goblin")
                .battlefield(1, "Jackal Familiar"))
    g.attack(("Jackal Familiar", 1), ("Raging Goblin", 1)).pass_(2)
    assert g.decision.kind == "priority"  # the defending Jackal would block alone
    g.until("combat_damage")
    assert g.life(1) == 17


def test_prized_unicorn_must_be_blocked_by_all_able() -> None:
    g = _combat(Scene().battlefield(0, "Prized Unicorn", "Grizzly Bears")
                .battlefield(1, "Runeclaw Bear", "Giant Spider"))
    g.attack(("Prized Unicorn", 1), ("Grizzly Bears", 1)).pass_(2)
    assert _blocks(g) == {("Runeclaw Bear", "Prized Unicorn"),
                          ("Giant Spider", "Prized Unicorn")}
    g.block(1, ("Runeclaw Bear", "Prized Unicorn"), ("Giant Spider", "Prized Unicorn"))
    g.until("combat_damage")
    assert g.zone_names("graveyard", 0) == ["Prized Unicorn"] and g.life(1) == 18


def test_panic_attack_stops_up_to_three_creatures_from_blocking() -> None:
    g = (Scene().battlefield(0, "Grizzly Bears", "Mountain", "Mountain", "Mountain")
         .hand(0, "Panic Attack")
         .battlefield(1, "Runeclaw Bear", "Giant Spider", "Child of Night", "Snapping Drake")
         .start())
    g.cast(0, "Panic Attack")
    assert g.find("done") is not None  # "up to": none is a legal choice (CR 601.2c)
    for name in ("Runeclaw Bear", "Giant Spider", "Child of Night"):
        g.target(name)
    assert g.decision.kind == "priority"  # three: no more are asked for
    g.resolve().until("declare_attackers").attack(("Grizzly Bears", 1)).pass_(2)
    assert _blocks(g) == {("Snapping Drake", "Grizzly Bears")}
    g.no_blocks(1).until("combat_damage")
    assert g.life(1) == 18
    g.next_turn(1)  # "this turn" only: the cleanup step ended it (CR 514.2)
    assert not [e for e in g.game.effects if e.kind == CANT_BLOCK]


def test_panic_attack_with_no_targets_resolves() -> None:
    g = (Scene().battlefield(0, "Mountain", "Mountain", "Mountain").hand(0, "Panic Attack")
         .battlefield(1, "Runeclaw Bear").start())
    g.cast(0, "Panic Attack").choose("done").resolve()
    assert g.zone_names("graveyard", 0) == ["Panic Attack"]
    assert "Panic Attack resolves." in g.log


def test_pithing_needle_stops_the_named_cards_activated_abilities_but_not_mana() -> None:
    g = (Scene().battlefield(0, "Wastes").hand(0, "Pithing Needle")
         .battlefield(1, "Prodigal Pyromancer", "Birds of Paradise", "Wall of Fire",
                      "Mountain").start())
    g.cast(0, "Pithing Needle").resolve()
    assert g.decision.kind == "name_card"
    # The names of permanents with abilities it would stop come first (not the Birds: a mana
    # ability); any card may be named.
    assert g.labels()[:2] == ["Prodigal Pyromancer", "Wall of Fire"]
    assert "Lightning Bolt" in g.labels()
    g.choose("name_card", "Prodigal Pyromancer")
    needle = g.obj("Pithing Needle")
    assert needle.chosen_name == "Prodigal Pyromancer"
    assert g.view(1)[needle.oid]["nm"] == "Prodigal Pyromancer"
    g.next_turn(1)
    assert g.find("activate", "Prodigal Pyromancer", player=1) is None
    assert g.find("activate", "Wall of Fire", player=1) is not None  # another name
    # Birds' mana ability is untouched by a Needle naming them (CR 605.1a).
    g2 = (Scene().battlefield(0, "Wastes").hand(0, "Pithing Needle")
          .battlefield(1, "Birds of Paradise").hand(1, "Raging Goblin").at("main1", 1).start())
    g2.next_turn(0)
    g2.cast(0, "Pithing Needle").resolve().choose("name_card", "Birds of Paradise")
    g2.next_turn(1)
    g2.cast(1, "Raging Goblin")  # paid with the Birds' mana
    assert g2.game.stack[-1].name == "Raging Goblin"


def test_palace_guard_blocks_any_number_and_divides_its_damage() -> None:
    g = _combat(Scene().battlefield(0, "Grizzly Bears", "Raging Goblin")
                .battlefield(1, "Palace Guard"))
    g.attack(("Grizzly Bears", 1), ("Raging Goblin", 1)).pass_(2)
    g.block(1, ("Palace Guard", "Grizzly Bears"), ("Palace Guard", "Raging Goblin"))
    guard = g.obj("Palace Guard")
    assert {guard.blocking, *guard.also_blocking} == {g.obj("Grizzly Bears").oid,
                                                     g.obj("Raging Goblin").oid}
    assert g.view(0)[guard.oid]["bx"] == list(guard.also_blocking)
    while g.decision.kind == "priority":
        g.pass_()
    # CR 510.1d: the Guard's controller divides its 1 damage among the creatures it blocks.
    assert (g.decision.kind, g.decision.player) == ("assign_damage", 1)
    g.choose("amount", "0 to Grizzly Bears")
    g.until("main2")
    assert g.life(1) == 20  # both attackers were blocked
    assert g.zone_names("graveyard", 0) == ["Raging Goblin"]
    assert g.zone_names("graveyard", 1) == []  # 3 damage: the 1/4 survives


def test_509_1c_palace_guard_must_block_every_prized_unicorn() -> None:
    g = _combat(Scene().battlefield(0, "Prized Unicorn", "Prized Unicorn")
                .battlefield(1, "Palace Guard"))
    u1, u2 = g.objs("Prized Unicorn", "battlefield")
    g.attack((u1, 1), (u2, 1)).pass_(2)
    g.choose("block", ref=("o", u1.oid))
    assert g.find("done") is None  # it can block the other too, so it must
    g.choose("block", ref=("o", u2.oid))
    assert g.obj("Palace Guard").also_blocking == (u2.oid,)
