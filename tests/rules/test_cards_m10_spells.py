"""The Magic 2010 cards built on X costs, mana abilities, extra turns and copies of spells
(arbiter/server/rules/cards/sets/m10.py), each played in a game and doing what its text says.
The rules themselves are tested in test_x_costs_107_3.py, test_mana_abilities_605.py,
test_extra_turns_500_7.py and test_copies_707_10.py."""

from __future__ import annotations

import pytest

from arbiter.server.rules.cards.pool import POOL

from .helpers import G, Scene

# These are cast for exactly their cost here rather than in test_cards_m10.py, whose generic
# test knows neither X nor targets that are spells.
CAST_FOR_COST_HERE = {
    "Hive Mind": ("{5}{U}", []),
    "Mind Spring": ("{X}{U}{U}", []),
    "Time Warp": ("{3}{U}{U}", [0]),
    "Twincast": ("{U}{U}", []),
    "Consume Spirit": ("{X}{1}{B}", [1]),
    "Mind Shatter": ("{X}{B}{B}", [1]),
    "Earthquake": ("{X}{R}", []),
    "Fireball": ("{X}{R}", [1]),
    "Birds of Paradise": ("{G}", []),
    "Windstorm": ("{X}{G}", []),
    "Protean Hydra": ("{X}{G}", []),
}
LAND = {"W": "Plains", "U": "Island", "B": "Swamp", "R": "Mountain", "G": "Forest"}


def _lands(name: str, x: int = 0) -> list[str]:
    cost = POOL[name].cost
    assert cost is not None
    color = POOL[name].x_color
    extra = [LAND[color]] * x if color else ["Wastes"] * x
    return ["Wastes"] * cost.generic + [LAND[c] for c, n in cost.pips for _ in range(n)] + extra


def _cast(g: G, pid: int, name: str, x: int | None = None, *targets: object) -> G:
    g.choose("cast", f"Cast {name}", player=pid)
    if x is not None:
        g.choose("x", f"X = {x}")
    for t in targets:
        g.target(t)
    return g


@pytest.mark.parametrize("name", sorted(CAST_FOR_COST_HERE))
def test_each_card_is_cast_for_exactly_its_cost(name: str) -> None:
    text, targets = CAST_FOR_COST_HERE[name]
    card = POOL[name]
    assert str(card.cost) == text
    lands = _lands(name)
    if name == "Twincast":  # it needs a spell to copy
        g = (Scene().battlefield(0, *lands, "Mountain").hand(0, name, "Lightning Bolt")
             .start())
        g.cast(0, "Lightning Bolt", 1)
        g.choose("cast", "Cast Twincast").target(g.obj("Lightning Bolt", "stack"))
    else:
        g = Scene().battlefield(0, *lands[:-1]).hand(0, name).start()
        assert g.find("cast", f"Cast {name}") is None  # one land short
        g = Scene().battlefield(0, *lands).hand(0, name).start()
        _cast(g, 0, name, 0 if card.cost and card.cost.x else None, *targets)
    assert all(o.tapped for o in g.game.battlefield if o.defn.is_("Land"))
    assert not any(g.game.players[0].mana.values())
    assert g.obj(name, "stack").controller == 0


def test_fireball_deals_x_to_one_target() -> None:
    g = Scene().battlefield(0, *_lands("Fireball", 5), "Mountain").hand(0, "Fireball").start()
    _cast(g, 0, "Fireball", 5, 1)
    assert g.labels() == ["No more targets", "Also target A"]  # one more would cost {1}
    g.choose("done")
    g.resolve()
    assert g.life(1) == 15
    assert sum(not o.tapped for o in g.game.battlefield) == 1  # {5}{R} paid, one land left


def test_fireball_divides_x_evenly_rounded_down_and_costs_1_more_per_extra_target() -> None:
    g = (Scene().battlefield(0, *_lands("Fireball", 5), "Mountain", "Mountain")
         .battlefield(1, "Hill Giant", "Grizzly Bears").hand(0, "Fireball").start())
    _cast(g, 0, "Fireball", 5, 1)
    g.target("Hill Giant").target("Grizzly Bears")
    # Three targets: 5 + {R} + {2} for the two beyond the first is all eight lands.
    assert g.decision.kind == "priority"
    assert all(o.tapped for o in g.game.battlefield if o.controller == 0)
    g.resolve()
    # 5 / 3 = 1 each, rounded down.
    assert g.life(1) == 19
    assert g.obj("Hill Giant").damage == 1 and g.obj("Grizzly Bears").damage == 1


def test_fireball_offers_no_extra_target_it_could_not_pay_for() -> None:
    g = (Scene().battlefield(0, *_lands("Fireball", 4)).battlefield(1, "Grizzly Bears")
         .hand(0, "Fireball").start())
    _cast(g, 0, "Fireball", 4, 1)
    # All five lands go to {4}{R}: a second target would cost {1} more.
    assert g.decision.kind == "priority"
    g.resolve()
    assert g.life(1) == 16


def test_earthquake_hits_each_creature_without_flying_and_each_player() -> None:
    g = (Scene().battlefield(0, *_lands("Earthquake", 2), "Serra Angel")
         .battlefield(1, "Grizzly Bears", "Hill Giant").hand(0, "Earthquake").start())
    _cast(g, 0, "Earthquake", 2).resolve()
    assert g.life(0) == 18 and g.life(1) == 18
    assert g.zone_names("graveyard", 1) == ["Grizzly Bears"]
    assert g.obj("Hill Giant").damage == 2 and g.obj("Serra Angel").damage == 0


def test_windstorm_hits_each_creature_with_flying_only() -> None:
    g = (Scene().battlefield(0, *_lands("Windstorm", 4), "Grizzly Bears")
         .battlefield(1, "Serra Angel", "Birds of Paradise").hand(0, "Windstorm").start())
    _cast(g, 0, "Windstorm", 4).resolve()
    assert sorted(g.zone_names("graveyard", 1)) == ["Birds of Paradise", "Serra Angel"]
    assert g.obj("Grizzly Bears").damage == 0 and g.life(1) == 20


def test_mind_spring_draws_x() -> None:
    g = Scene().battlefield(0, *_lands("Mind Spring", 3)).hand(0, "Mind Spring").start()
    _cast(g, 0, "Mind Spring", 3).resolve()
    assert len(g.game.hand(0)) == 3


def test_consume_spirit_drains_x_paid_in_black() -> None:
    g = (Scene().battlefield(0, *_lands("Consume Spirit", 3)).hand(0, "Consume Spirit")
         .life(0, 5).start())
    _cast(g, 0, "Consume Spirit", 3, 1).resolve()
    assert g.life(1) == 17 and g.life(0) == 8


def test_mind_shatter_makes_the_target_player_discard_x_at_random() -> None:
    hand = ("Hill Giant", "Grizzly Bears", "Serra Angel", "Lightning Bolt")
    kept = set()
    for seed in range(6):
        g = (Scene().battlefield(0, *_lands("Mind Shatter", 3)).hand(0, "Mind Shatter")
             .hand(1, *hand).start(seed))
        _cast(g, 0, "Mind Shatter", 3, 1)
        assert g.decision.kind == "priority"  # nobody chooses: the cards are picked at random
        g.resolve()
        assert len(g.game.hand(1)) == 1 and len(g.game.graveyard(1)) == 3
        kept.add(g.zone_names("hand", 1)[0])
    assert len(kept) > 1  # which card stays varies with the seed
    g = (Scene().battlefield(0, *_lands("Mind Shatter", 3)).hand(0, "Mind Shatter")
         .hand(1, "Hill Giant").start())
    _cast(g, 0, "Mind Shatter", 3, 1).resolve()  # more than they have: the whole hand
    assert g.game.hand(1) == [] and g.zone_names("graveyard", 1) == ["Hill Giant"]


def test_birds_of_paradise_flies_and_taps_for_any_colour() -> None:
    g = Scene().battlefield(0, "Birds of Paradise").hand(0, "Lightning Bolt").start()
    labels = [a.label for a in g.decision.actions if a.kind == "mana"]
    assert labels == [f"Tap Birds of Paradise for {{{c}}}" for c in "WUBRG"]
    g.cast(0, "Lightning Bolt", 1).resolve()  # paid in red by the Birds
    assert g.life(1) == 17 and g.obj("Birds of Paradise").tapped
    assert "flying" in POOL["Birds of Paradise"].keywords


def test_time_warp_gives_the_target_player_the_next_turn() -> None:
    g = Scene().battlefield(0, *_lands("Time Warp")).hand(0, "Time Warp").start()
    _cast(g, 0, "Time Warp", None, 0).resolve()
    g.next_turn(0)
    assert g.game.active == 0 and g.game.turn == 2


def test_twincast_copies_a_spell_with_a_new_target() -> None:
    g = (Scene().battlefield(0, "Mountain").battlefield(1, "Island", "Island", "Hill Giant")
         .hand(0, "Lightning Bolt").hand(1, "Twincast").start())
    g.cast(0, "Lightning Bolt", 1).pass_()
    g.choose("cast", "Cast Twincast", player=1).target(g.obj("Lightning Bolt", "stack"))
    g.resolve()
    g.target(0)  # the copy's new target: the Bolt's caster
    g.resolve_all()
    assert g.life(0) == 17 and g.life(1) == 17


def test_hive_mind_gives_each_other_player_a_copy() -> None:
    g = (Scene(3).battlefield(2, "Hive Mind").battlefield(0, "Mountain")
         .hand(0, "Lightning Bolt").start())
    g.cast(0, "Lightning Bolt", 2).resolve()  # the trigger resolves: players 1 and 2 copy it
    g.target(0)  # player 1's copy: at the caster instead
    g.choose("target", "Keep")  # player 2's copy keeps targeting player 2
    g.resolve_all()
    assert g.life(0) == 17 and g.life(1) == 20 and g.life(2) == 14
