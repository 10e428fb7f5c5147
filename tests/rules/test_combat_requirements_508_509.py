"""Restrictions and requirements on declaring attackers and blockers (CR 508.1c-d, 509.1a-c):
a declaration breaks no restriction and obeys as many requirements as any legal one could.
Declarations are single picks: a pick is offered only when a best legal declaration still
contains everything picked, "done" only for such a declaration (docs/rulings.md, "Attack and
block requirements and restrictions")."""

from __future__ import annotations

import random

from arbiter.bots import heuristic_strategy, random_strategy
from arbiter.server.rules.cards.catalog import cards
from arbiter.server.rules.cards.decks import parse_deck_list
from arbiter.server.rules.cards.formats import CONSTRUCTED, deck_problems
from arbiter.server.rules.requirements import Entrant, most_obeyed

from .helpers import G, Scene


def _attack_step(scene: Scene) -> G:
    return scene.at("begin_combat").start().pass_(2)


def _done(g: G, kind: str) -> G:
    """Finish a declaration that is still open (it closes by itself once nothing is left to
    add)."""
    if g.decision.kind == kind:
        g.choose("done")
    return g


def _attackers(g: G) -> set[str]:
    return {g.game.objects[a.obj].name for a in g.decision.actions if a.kind == "attack"}


def _blocks(g: G) -> set[tuple[str, str]]:
    return {(g.game.objects[a.obj].name, g.game.objects[a.ref[1]].name)
            for a in g.decision.actions if a.kind == "block" and a.ref is not None}


def test_508_1d_a_creature_that_attacks_each_combat_if_able_must_attack() -> None:
    g = _attack_step(Scene().battlefield(0, "Berserkers of Blood Ridge", "Grizzly Bears"))
    assert g.decision.kind == "attackers" and g.find("done") is None
    assert _attackers(g) == {"Berserkers of Blood Ridge", "Grizzly Bears"}
    # The Bears may join, but the declaration is finished only once the Berserkers attack.
    g.choose("attack", obj=g.obj("Grizzly Bears").oid)
    assert g.find("done") is None
    _done(g.choose("attack", obj=g.obj("Berserkers of Blood Ridge").oid), "attackers")
    assert g.obj("Berserkers of Blood Ridge").attacking == ("p", 1)


def test_508_1d_a_requirement_whose_creature_is_unable_asks_nothing() -> None:
    # Tapped, or summoning sick: not able, so no requirement (CR 508.1d "if able").
    g = (Scene().battlefield(0, "Berserkers of Blood Ridge", tapped=True)
         .battlefield(0, "Grizzly Bears").at("begin_combat").start().pass_(2))
    assert g.find("done") is not None and _attackers(g) == {"Grizzly Bears"}


def test_508_1d_attacks_you_if_able_is_obeyed_only_by_attacking_that_player() -> None:
    """In a three-player game, Alluring Siren's controller (1) makes player 0's Bears attack
    player 1: attacking player 2 obeys no requirement, so it is not offered."""
    g = (Scene(3).battlefield(0, "Grizzly Bears").battlefield(1, "Alluring Siren")
         .at("main1", 1).start())
    g.next_turn(2).next_turn(0, "upkeep").pass_()  # 0 passes in upkeep; 1 gets priority
    g.activate(1, "Alluring Siren", target="Grizzly Bears").resolve()
    g.until("declare_attackers", 0)
    bears = g.obj("Grizzly Bears").oid
    assert [a.ref for a in g.decision.actions if a.kind == "attack"] == [("p", 1)]
    assert g.find("done") is None
    _done(g.choose("attack", obj=bears), "attackers")
    assert g.obj("Grizzly Bears").attacking == ("p", 1)
    # The effect lasts this turn only (CR 514.2): next turn the Bears attack whom they like.
    g.next_turn(0).until("declare_attackers", 0)
    assert g.find("done") is not None
    assert {a.ref for a in g.decision.actions if a.kind == "attack"} == {("p", 1), ("p", 2)}


def test_508_1c_a_creature_that_cant_attack_alone_needs_another_attacker() -> None:
    g = _attack_step(Scene().battlefield(0, "Jackal Familiar").battlefield(1, "Plains"))
    assert g.decision.kind == "priority"  # alone, it has no legal attack: nothing is asked
    g = _attack_step(Scene().battlefield(0, "Jackal Familiar", "Grizzly Bears"))
    g.choose("attack", obj=g.obj("Jackal Familiar").oid)
    assert g.find("done") is None and _attackers(g) == {"Grizzly Bears"}
    _done(g.choose("attack", obj=g.obj("Grizzly Bears").oid), "attackers")
    assert g.obj("Jackal Familiar").attacking is not None


def test_508_1c_cant_attack_unless_defending_player_controls_an_island() -> None:
    serpent = "Serpent of the Endless Sea"
    g = _attack_step(Scene().battlefield(0, serpent, "Island").battlefield(1, "Plains"))
    assert g.decision.kind == "priority"
    g = _attack_step(Scene().battlefield(0, serpent, "Island").battlefield(1, "Island"))
    g.attack((serpent, 1))
    assert g.obj(serpent).attacking == ("p", 1)


def test_509_1b_cant_be_blocked_and_cant_be_blocked_except_by_black_creatures() -> None:
    g = _attack_step(Scene().battlefield(0, "Phantom Warrior", "Dread Warlock")
                     .battlefield(1, "Grizzly Bears", "Child of Night"))
    g.attack(("Phantom Warrior", 1), ("Dread Warlock", 1)).pass_(2)
    assert _blocks(g) == {("Child of Night", "Dread Warlock")}


def test_509_1b_a_creature_that_cant_block_alone_needs_another_blocker() -> None:
    g = _attack_step(Scene().battlefield(0, "Grizzly Bears").battlefield(1, "Jackal Familiar"))
    g.attack(("Grizzly Bears", 1)).pass_(2)
    assert g.decision.kind == "priority"  # alone, it may not block: nothing is asked
    g = _attack_step(Scene().battlefield(0, "Grizzly Bears", "Runeclaw Bear")
                     .battlefield(1, "Jackal Familiar", "Giant Spider"))
    g.attack(("Grizzly Bears", 1), ("Runeclaw Bear", 1)).pass_(2)
    g.choose("block", obj=g.obj("Jackal Familiar").oid)
    assert g.find("done") is None and {b for b, _ in _blocks(g)} == {"Giant Spider"}
    _done(g.choose("block", obj=g.obj("Giant Spider").oid), "blockers")
    assert g.obj("Jackal Familiar").blocking is not None


def test_509_1c_all_creatures_able_to_block_it_do_so() -> None:
    """Prized Unicorn attacks beside the Bears: each untapped creature able to block the
    Unicorn must, so blocking the Bears is never offered, and the flier that could (Snapping
    Drake) is held to it as well; the tapped one is not able."""
    g = _attack_step(Scene().battlefield(0, "Prized Unicorn", "Grizzly Bears")
                     .battlefield(1, "Runeclaw Bear", "Snapping Drake")
                     .battlefield(1, "Giant Spider", tapped=True))
    g.attack(("Prized Unicorn", 1), ("Grizzly Bears", 1)).pass_(2)
    assert _blocks(g) == {("Runeclaw Bear", "Prized Unicorn"),
                          ("Snapping Drake", "Prized Unicorn")}
    assert g.find("done") is None
    g.choose("block", obj=g.obj("Runeclaw Bear").oid)
    assert g.find("done") is None
    _done(g.choose("block", obj=g.obj("Snapping Drake").oid), "blockers")
    unicorn = g.obj("Prized Unicorn").oid
    assert g.obj("Runeclaw Bear").blocking == unicorn == g.obj("Snapping Drake").blocking


def test_509_1c_requirements_yield_to_restrictions() -> None:
    """A creature that can't block alone has no legal block against a lone Unicorn: the most
    requirements obeyed is then none, and no block is demanded."""
    g = _attack_step(Scene().battlefield(0, "Prized Unicorn")
                     .battlefield(1, "Jackal Familiar"))
    g.attack(("Prized Unicorn", 1)).pass_(2)
    assert g.decision.kind == "priority" and g.obj("Jackal Familiar").blocking is None
    # With a second creature able to block, both must: that obeys two requirements.
    g = _attack_step(Scene().battlefield(0, "Prized Unicorn")
                     .battlefield(1, "Jackal Familiar", "Grizzly Bears"))
    g.attack(("Prized Unicorn", 1)).pass_(2)
    assert g.find("done") is None
    g.block(1, ("Jackal Familiar", "Prized Unicorn"), ("Grizzly Bears", "Prized Unicorn"))
    assert g.obj("Jackal Familiar").blocking == g.obj("Prized Unicorn").oid


def test_509_1c_the_most_requirements_with_a_lone_creature_that_may_not_go_alone() -> None:
    # Counting alone: one creature that must not go alone and obeys most, one that may.
    lone, other = Entrant(2, True, False), Entrant(1, False, False)
    assert most_obeyed([lone]) == 0
    assert most_obeyed([lone, other]) == 3
    assert most_obeyed([lone, other], limit=1) == 1
    assert most_obeyed([Entrant(0, True, True)]) is None
    assert most_obeyed([Entrant(0, True, True)], others=1) == 0


def _brute_force(entrants: list[Entrant], others: int, limit: int | None) -> int | None:
    """Every subset of the free entrants joined to the fixed ones: the most obeyed by a legal
    one (nobody alone-restricted alone, no more than ``limit``)."""
    fixed = [e for e in entrants if e.fixed]
    free = [e for e in entrants if not e.fixed]
    best: int | None = None
    for mask in range(1 << len(free)):
        chosen = fixed + [e for i, e in enumerate(free) if mask >> i & 1]
        count = others + len(chosen)
        if limit is not None and count > limit:
            continue
        if count == 1 and chosen and chosen[0].alone:
            continue
        score = sum(e.best for e in chosen)
        best = score if best is None else max(best, score)
    return best


def test_509_1c_most_obeyed_is_the_best_of_every_declaration() -> None:
    """The sort in most_obeyed agrees with trying every declaration."""
    rng = random.Random(7)
    for _ in range(400):
        entrants = [Entrant(rng.randrange(3), rng.random() < 0.4, rng.random() < 0.2)
                    for _ in range(rng.randrange(6))]
        others = rng.choice((0, 0, 1))
        limit = rng.choice((None, None, 1, 2))
        assert most_obeyed(entrants, others, limit) == _brute_force(entrants, others, limit)


def test_the_bots_finish_declarations_under_requirements() -> None:
    """Both bots, choosing among the offered picks only, end every declaration: each pick
    leads to a legal declaration, so neither can loop or get stuck (CR 508.1d, 509.1c)."""
    for strategy in (heuristic_strategy, random_strategy):
        for seed in range(6):
            g = _attack_step(Scene().battlefield(0, "Prized Unicorn", "Jackal Familiar",
                                                 "Berserkers of Blood Ridge")
                             .battlefield(1, "Jackal Familiar", "Grizzly Bears",
                                          "Runeclaw Bear"))
            rng = random.Random(seed)
            for _ in range(30):
                d = g.decision
                if g.game.step == "combat_damage" or g.table.finished:
                    break
                assert d.actions
                pick = strategy(g.view(d.player), d.to_wire(), rng, cards())
                g.table.act(d.player, d.serial, d.actions[pick].id)
                g._collect()
            assert g.game.step == "combat_damage"
            assert "Berserkers of Blood Ridge attacks B." in g.log  # the requirement held


def test_509_1a_a_creature_that_can_block_any_number_blocks_each_attacker_once() -> None:
    g = _attack_step(Scene().battlefield(0, "Grizzly Bears", "Runeclaw Bear", "Raging Goblin")
                     .battlefield(1, "Palace Guard", "Giant Spider"))
    g.attack(("Grizzly Bears", 1), ("Runeclaw Bear", 1), ("Raging Goblin", 1)).pass_(2)
    guard = g.obj("Palace Guard")
    g.choose("block", obj=guard.oid, ref=("o", g.obj("Grizzly Bears").oid))
    # Again for the others, never twice for the same one; the Spider still blocks one at most.
    assert {a for b, a in _blocks(g) if b == "Palace Guard"} == {"Runeclaw Bear",
                                                                 "Raging Goblin"}
    g.choose("block", obj=guard.oid, ref=("o", g.obj("Raging Goblin").oid))
    g.choose("block", obj=g.obj("Giant Spider").oid, ref=("o", g.obj("Grizzly Bears").oid))
    assert {a for b, a in _blocks(g) if b == "Giant Spider"} == set()
    _done(g, "blockers")
    bears, goblin = g.obj("Grizzly Bears"), g.obj("Raging Goblin")
    assert (guard.blocking, guard.also_blocking) == (bears.oid, (goblin.oid,))
    assert bears.blocked and goblin.blocked and not g.obj("Runeclaw Bear").blocked


def test_100_2a_a_card_may_lift_the_four_copy_limit_for_itself() -> None:
    assert deck_problems(parse_deck_list("24 Relentless Rats\n36 Swamp\n"), CONSTRUCTED) == []
    problems = deck_problems(parse_deck_list("5 Child of Night\n55 Swamp\n"), CONSTRUCTED)
    assert [p.rule for p in problems] == ["100.2a"]
