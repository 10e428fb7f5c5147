"""X costs (CR 107.3): the caster announces X while casting (CR 107.3a, 601.2b) as one pick
from the values they can pay for; X in the mana cost is paid as that many generic mana (or,
for "spend only black mana on X", that much black mana); while the spell is on the stack X is
the announced value, and anywhere else it is 0 (CR 107.3g)."""

from __future__ import annotations

from arbiter.server.rules.cards.pool import POOL
from arbiter.server.rules.mana import ManaCost

from .helpers import G, Scene


def _x_values(g: G) -> list[int]:
    assert g.decision.kind == "x"
    return [a.index for a in g.decision.actions]


def _cast_x(g: G, pid: int, name: str, x: int, *targets: object) -> G:
    g.choose("cast", f"Cast {name}", player=pid)
    g.choose("x", f"X = {x}")
    for t in targets:
        g.target(t)
    return g


def test_107_3_x_in_a_mana_cost_is_parsed_and_counts_as_0_off_the_stack() -> None:
    cost = ManaCost.parse("{X}{R}")
    assert cost.x == 1 and cost.mana_value == 1  # CR 107.3g: X is 0 outside the stack
    assert str(cost) == "{X}{R}"
    assert cost.with_x(4) == ManaCost.parse("{4}{R}")
    assert ManaCost.parse("{X}{1}{B}").with_x(2, "B") == ManaCost.parse("{1}{B}{B}{B}")
    assert POOL["Mind Spring"].cost is not None and POOL["Mind Spring"].cost.mana_value == 2


def test_107_3a_the_caster_chooses_x_among_the_values_they_can_pay() -> None:
    g = (Scene().battlefield(0, "Island", "Island", "Island", "Island", "Mountain")
         .hand(0, "Mind Spring").start())
    g.choose("cast", "Cast Mind Spring")
    # Five lands, {U}{U} fixed: X can be 0 to 3, no more.
    assert _x_values(g) == [0, 1, 2, 3]
    assert g.decision.to_wire()["actions"][3]["n"] == 3  # the wire names the value
    g.choose("x", "X = 3")
    spell = g.obj("Mind Spring", "stack")
    assert spell.x == 3  # CR 107.3a: on the stack X is the announced value
    assert all(o.tapped for o in g.game.battlefield)
    hand = len(g.game.hand(0))
    g.resolve()
    assert len(g.game.hand(0)) == hand + 3


def test_107_3a_mana_already_in_the_pool_counts_towards_x() -> None:
    g = Scene().battlefield(0, "Island", "Island", "Forest").hand(0, "Mind Spring").start()
    g.choose("mana", "Tap Forest")
    g.choose("cast", "Cast Mind Spring")
    assert _x_values(g) == [0, 1]
    g.choose("x", "X = 1").resolve()
    assert not g.game.players[0].mana


def test_107_3a_x_may_be_0() -> None:
    g = Scene().battlefield(0, "Island", "Island").hand(0, "Mind Spring").start()
    hand = len(g.game.hand(0))
    _cast_x(g, 0, "Mind Spring", 0).resolve()
    assert len(g.game.hand(0)) == hand - 1  # cast, drew nothing
    assert g.zone_names("graveyard", 0) == ["Mind Spring"]


def test_107_3_spend_only_black_mana_on_x() -> None:
    g = (Scene().battlefield(0, "Swamp", "Swamp", "Mountain", "Mountain", "Mountain")
         .hand(0, "Consume Spirit").life(0, 10).start())
    g.choose("cast", "Cast Consume Spirit")
    # {1}{B} leaves one Swamp for X: the Mountains can pay only the {1}.
    assert _x_values(g) == [0, 1]
    g.choose("x", "X = 1").target(1).resolve()
    assert g.life(1) == 19 and g.life(0) == 11


def test_107_3g_x_is_0_once_the_spell_has_left_the_stack() -> None:
    g = Scene().battlefield(0, "Mountain", "Mountain", "Mountain").hand(0, "Fireball").start()
    _cast_x(g, 0, "Fireball", 2, 1)
    assert g.obj("Fireball", "stack").x == 2
    g.resolve()
    assert g.life(1) == 18
    assert g.obj("Fireball", "graveyard").x == 0


def test_107_3a_601_2f_a_cost_reduction_applies_after_x_is_counted_in() -> None:
    # Hanna: "Spells you cast cost {1} less to cast." Fireball with X = 3 costs {3}{R}, less
    # {1}: three Mountains pay for it, so X can be 3 with three lands.
    g = (Scene(2, vanguard=True).vanguard(0, "Hanna").vanguard(1, "Tahngarth")
         .battlefield(0, "Mountain", "Mountain", "Mountain").hand(0, "Fireball").start())
    g.choose("cast", "Cast Fireball")
    assert _x_values(g) == [0, 1, 2, 3]
    g.choose("x", "X = 3").target(1).resolve()
    assert g.life(1) == 27 - 3  # Tahngarth's life modifier is +7
