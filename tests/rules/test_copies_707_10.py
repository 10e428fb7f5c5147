"""Copies of spells (CR 707.10) with Twincast ("Copy target instant or sorcery spell. You may
choose new targets for the copy.") and Hive Mind ("Whenever a player casts an instant or
sorcery spell, each other player copies that spell. Each of those players may choose new
targets for their copy."): a copy is controlled by the player who copied it, is not cast, has
the original's X and targets unless new ones are chosen (707.10c), and ceases to exist when it
leaves the stack (707.10a, 704.5e)."""

from __future__ import annotations

from arbiter.protocol.view_keys import copy_of, is_spell_copy, name, x_value

from .helpers import G, Scene


def _bolt_and_twincast(players: int = 2) -> G:
    g = (Scene(players).battlefield(0, "Mountain").battlefield(1, "Island", "Island")
         .hand(0, "Lightning Bolt").hand(1, "Twincast").battlefield(0, "Hill Giant").start())
    g.cast(0, "Lightning Bolt", 1).pass_()
    g.choose("cast", "Cast Twincast", player=1).target(g.obj("Lightning Bolt", "stack"))
    return g.resolve()


def test_707_10_the_copy_is_controlled_by_who_copied_it_and_is_not_cast() -> None:
    g = _bolt_and_twincast()
    assert g.decision.kind == "target" and g.decision.player == 1
    g.choose("target", "Keep")
    copy = g.game.stack[-1]
    assert copy.name == "Lightning Bolt" and copy.is_copy and copy.card is None
    assert copy.controller == 1 and copy.owner == 1
    assert copy.targets == [("p", 1)]
    # Not cast (CR 707.10): no cast is recorded for player 1 but Twincast.
    assert g.game.players[1].spells_cast == ["Twincast"]
    assert "cast" not in [e.kind for e in g.events if e.data.get("obj") == copy.oid]


def test_707_10c_the_copier_may_choose_new_legal_targets() -> None:
    g = _bolt_and_twincast()
    labels = g.labels()
    assert labels[0] == "Keep B"
    assert set(labels[1:]) == {"Target A", "Target Hill Giant"}
    g.target("Hill Giant").resolve_all()
    assert g.zone_names("graveyard", 0) == ["Hill Giant", "Lightning Bolt"]
    assert g.life(1) == 17


def test_707_10a_704_5e_a_copy_ceases_to_exist_when_it_leaves_the_stack() -> None:
    g = _bolt_and_twincast()
    g.target(0)
    copy = g.game.stack[-1]
    g.resolve()
    assert g.life(0) == 17
    assert copy.oid not in g.game.objects
    assert not any(o.is_copy for o in g.game.objects.values())
    assert g.zone_names("graveyard", 1) == ["Twincast"]  # no card for the copy anywhere


def test_707_10a_a_copy_whose_target_is_gone_leaves_no_trace() -> None:
    g = (Scene().battlefield(0, "Mountain", "Mountain").battlefield(1, "Island", "Island")
         .battlefield(1, "Hill Giant").hand(0, "Lightning Bolt", "Lightning Bolt")
         .hand(1, "Twincast").start())
    g.cast(0, "Lightning Bolt", "Hill Giant").pass_()
    g.choose("cast", "Cast Twincast", player=1).target(g.obj("Lightning Bolt", "stack"))
    g.resolve()
    g.choose("target", "Keep")  # the copy also at the Hill Giant
    g.resolve()  # the copy kills the Giant; the original then has no legal target
    assert g.zone_names("graveyard", 1) == ["Twincast", "Hill Giant"]
    g.resolve_all()
    assert not any(o.is_copy for o in g.game.objects.values())
    assert g.zone_names("graveyard", 0) == ["Lightning Bolt"]


def test_107_3a_707_10_a_copy_has_the_x_of_the_original() -> None:
    g = (Scene().battlefield(0, "Mountain", "Mountain", "Mountain", "Mountain")
         .battlefield(1, "Island", "Island").hand(0, "Fireball").hand(1, "Twincast").start())
    g.choose("cast", "Cast Fireball").choose("x", "X = 3").target(1)
    g.pass_()
    g.choose("cast", "Cast Twincast", player=1).target(g.obj("Fireball", "stack")).resolve()
    g.target(0)
    assert g.game.stack[-1].x == 3
    g.resolve_all()
    assert g.life(0) == 17 and g.life(1) == 17


def test_707_10c_a_copy_keeps_the_number_of_targets_of_the_original() -> None:
    g = (Scene().battlefield(0, *("Mountain",) * 6).battlefield(1, "Island", "Island")
         .battlefield(1, "Hill Giant").hand(0, "Fireball").hand(1, "Twincast").start())
    g.choose("cast", "Cast Fireball").choose("x", "X = 4").target(1).target("Hill Giant")
    g.pass_()
    g.choose("cast", "Cast Twincast", player=1).target(g.obj("Fireball", "stack")).resolve()
    # One decision per target: the first to player 0, the second kept (the Hill Giant).
    g.target(0)
    assert g.labels()[0] == "Keep Hill Giant"
    g.choose("target", "Keep")
    assert g.game.stack[-1].targets == [("p", 0), ("o", g.obj("Hill Giant").oid)]
    g.resolve()
    assert g.life(0) == 18 and g.obj("Hill Giant").damage == 2


def test_707_10_hive_mind_copies_go_on_the_stack_in_apnap_order_and_are_not_cast() -> None:
    g = (Scene(3).battlefield(1, "Hive Mind").battlefield(0, "Mountain")
         .battlefield(2, "Island", "Island").hand(0, "Lightning Bolt").hand(2, "Twincast")
         .start())
    g.cast(0, "Lightning Bolt", 1)
    assert g.game.stack[-1].name == "Hive Mind"  # its trigger
    g.resolve()
    g.choose("target", "Keep", player=1)  # APNAP: player 1's copy first, then player 2's
    g.choose("target", "Keep", player=2)
    copies = [o for o in g.game.stack if o.is_copy]
    assert [c.controller for c in copies] == [1, 2]
    # Copies aren't cast (CR 707.10): Hive Mind didn't trigger for them.
    assert [o.name for o in g.game.stack] == ["Lightning Bolt"] * 3
    g.resolve_all()
    assert g.life(1) == 11


def test_707_10_hive_mind_twincast_is_cast_but_the_copy_it_makes_is_not() -> None:
    g = (Scene().battlefield(0, "Hive Mind", "Mountain").battlefield(1, "Island", "Island")
         .hand(0, "Lightning Bolt").hand(1, "Twincast").start())
    g.cast(0, "Lightning Bolt", 1).resolve()  # Hive Mind: player 1 copies the Bolt
    g.target(0)
    bolt = g.game.stack[0]
    g.pass_()
    g.choose("cast", "Cast Twincast", player=1).target(bolt)
    assert g.game.stack[-1].name == "Hive Mind"  # Twincast was cast: player 0 copies it
    g.resolve()
    g.choose("target", "Keep", player=0)  # the copy of Twincast also copies the first Bolt
    assert [o.name for o in g.game.stack] == ["Lightning Bolt", "Lightning Bolt", "Twincast",
                                              "Twincast"]
    g.resolve()
    g.choose("target", "Keep", player=0)
    # The Bolt copied by the copy of Twincast was not cast: no Hive Mind trigger on top.
    assert [o.name for o in g.game.stack] == ["Lightning Bolt", "Lightning Bolt", "Twincast",
                                              "Lightning Bolt"]
    assert g.game.stack[-1].controller == 0 and g.game.stack[-1].targets == [("p", 1)]


def test_800_4a_a_copy_leaves_the_game_with_the_player_who_copied_it() -> None:
    g = _bolt_and_twincast(players=3)
    g.target(0)
    copy = g.game.stack[-1]
    g.concede(1)
    assert copy.oid not in g.game.objects
    assert [o.name for o in g.game.stack] == ["Lightning Bolt"]
    g.resolve_all()
    assert g.life(0) == 20


def test_707_10_107_3a_the_views_tell_a_copy_of_a_spell_and_its_x() -> None:
    g = (Scene().battlefield(0, "Mountain", "Mountain", "Mountain", "Mountain")
         .battlefield(1, "Island", "Island").hand(0, "Fireball").hand(1, "Twincast").start())
    g.choose("cast", "Cast Fireball").choose("x", "X = 3").target(1)
    original = g.obj("Fireball", "stack")
    assert x_value(g.view(1)[original.oid]) == 3 and not is_spell_copy(g.view(1)[original.oid])
    g.pass_()
    g.choose("cast", "Cast Twincast", player=1).target(original).resolve()
    g.target(0)
    copy = g.game.stack[-1].oid
    assert is_spell_copy(g.view(0)[copy]) and x_value(g.view(0)[copy]) == 3


def test_707_2_the_views_tell_what_a_copy_of_a_creature_really_is() -> None:
    g = (Scene().battlefield(0, "Island", "Island", "Island", "Island")
         .battlefield(1, "Serra Angel").hand(0, "Clone").start())
    g.cast(0, "Clone").resolve()
    g.choose("copy", "Copy Serra Angel")
    clone = g.obj("Serra Angel", controller=0)
    entry = g.view(1)[clone.oid]
    assert name(entry) == "Serra Angel" and copy_of(entry) == "Clone"
    assert copy_of(g.view(1)[g.obj("Serra Angel", controller=1).oid]) is None
