"""Magic 2010 cards (arbiter/server/rules/cards/sets/m10.py), each played in a game: cast for
exactly its cost, and doing what its text says. The keywords they carry are tested rule by
rule in test_keywords_702.py and test_first_strike_510_4.py; here each card's own text."""

from __future__ import annotations

import pytest

from arbiter.server.rules.cards.catalog import card_data
from arbiter.server.rules.cards.pool import POOL, SECTIONS
from arbiter.server.rules.cards.sets import m10

from .helpers import G, Scene
from .test_cards_m10_instants import INSTANTS_CAST_HERE
from .test_cards_m10_spells import CAST_FOR_COST_HERE

LAND_FOR = {"W": "Plains", "U": "Island", "B": "Swamp", "R": "Mountain", "G": "Forest"}


def _lands(name: str) -> list[str]:
    """Lands that pay exactly ``name``'s mana cost."""
    cost = POOL[name].cost
    if cost is None:  # a land: nothing to pay
        return []
    return ["Wastes"] * cost.generic + [LAND_FOR[c] for c, n in cost.pips for _ in range(n)]


@pytest.mark.parametrize("name", [c.name for c in m10.CARDS
                                  if c.name not in CAST_FOR_COST_HERE
                                  and c.name not in INSTANTS_CAST_HERE])
def test_each_card_is_cast_for_exactly_its_cost(name: str) -> None:
    card = POOL[name]
    if card.is_("Land"):  # a land has no cost: it is played, never cast (CR 305.1, 305.9)
        g = Scene().hand(0, name).start()
        assert g.find("cast", f"Cast {name}") is None
        g.play_land(0, name)
        assert g.obj(name).controller == 0
        return
    lands = _lands(name)
    if lands:  # one land short: not castable
        g = Scene().battlefield(0, *lands[:-1]).hand(0, name).start()
        assert g.find("cast", f"Cast {name}") is None
    # "Enchant tapped creature" needs a tapped one (CR 702.5a).
    tapped = card.enchant is not None and card.enchant.where is not None and \
        bool(card.enchant.where.tapped)
    g = (Scene().battlefield(0, *lands).hand(0, name)
         .battlefield(1, "Grizzly Bears", tapped=tapped).start())
    if card.is_("Land"):  # no cost: it is played, never cast (CR 305.1)
        g.choose("play_land", name)
        assert g.obj(name).controller == 0
    elif card.enchant is not None:  # an Aura: it resolves onto its target
        g.cast(0, name)
        aim = g.find("target", "Grizzly Bears") or g.find("target")  # "Enchant land": a land
        assert aim is not None and aim.ref is not None
        g.choose("target", ref=aim.ref).resolve()
        if g.decision.kind == "land_type":  # Convincing Mirage: chosen as it enters
            g.choose("land_type")
        assert g.obj(name).attached_to == aim.ref[1]
    elif card.targets or not card.is_permanent_card:
        player_target = card.targets and card.targets[0].kind in ("player", "opponent")
        g.cast(0, name, *((1 if player_target else "Grizzly Bears",) if card.targets else ()))
        g.resolve()
        while g.decision.kind != "priority":  # choices its resolution asks: the first each
            g.choose(g.decision.actions[0].kind)
        assert g.zone_names("graveyard", 0)[-1:] == [name]  # the last card to get there
    else:
        g.cast(0, name).resolve()
        if g.decision.kind == "name_card":  # Pithing Needle: it names a card as it enters
            g.choose("name_card")
        if g.decision.kind == "copy":  # Clone: it may enter as a copy; here as itself, a 0/0
            g.choose("no_copy")
            assert g.zone_names("graveyard", 0) == [name]  # CR 704.5f
        elif not card.is_("Creature"):
            assert g.obj(name).controller == 0
        elif card.power is None:  # "*/*": Nightmare counts the one Swamp that paid for it
            assert g.view(1)[g.obj(name).oid]["pt"] == [1, 1]
        else:
            obj = g.obj(name)
            assert g.view(1)[obj.oid]["pt"] == [card.power, card.toughness]
    assert not any(g.game.players[0].mana.values())


def test_the_set_is_a_section_of_the_pool_and_served_by_the_catalog() -> None:
    assert SECTIONS["Magic 2010 (M10)"] is m10.CARDS
    assert all(POOL[c.name] is c for c in m10.CARDS)
    white_knight = card_data(POOL["White Knight"])
    assert white_knight["keywords"] == ["first strike", "protection from black"]
    assert white_knight["text"].startswith("First strike (This creature deals combat damage")


def _combat(attacker: str, blocker: str | None = None, scene: Scene | None = None) -> G:
    g = (scene or Scene()).battlefield(0, attacker)
    if blocker is not None:
        g = g.battlefield(1, blocker)
    game = g.at("begin_combat").start()
    game.pass_(2).attack((attacker, 1)).pass_(2)
    if blocker is not None:
        game.block(1, (blocker, attacker))
    return game


def test_baneslayer_angel_flies_strikes_first_and_links_life() -> None:
    g = _combat("Baneslayer Angel", "Serra Angel", Scene().life(0, 10))
    g.until("combat_damage")
    # 5 first-strike damage kill the 4/4 Serra Angel before it strikes back; lifelink gains 5.
    assert g.zone_names("graveyard", 1) == ["Serra Angel"]
    assert g.obj("Baneslayer Angel").damage == 0 and g.life(0) == 15


def test_griffin_sentinel_flies_and_does_not_tap_to_attack() -> None:
    g = _combat("Griffin Sentinel", scene=Scene().battlefield(1, "Grizzly Bears"))
    assert not g.obj("Griffin Sentinel").tapped and g.decision.kind == "priority"
    g.until("combat_damage")
    assert g.life(1) == 19


@pytest.mark.parametrize(("striker", "blocker"), [("Razorfoot Griffin", "Snapping Drake"),
                                                   ("Viashino Spearhunter", "Runeclaw Bear")])
def test_first_strikers_kill_their_blockers_unharmed(striker: str, blocker: str) -> None:
    # 2 first-strike damage kill the 3/2 Drake (in the air: the Griffin flies) or the 2/2
    # Bear, which never deal theirs.
    g = _combat(striker, blocker)
    g.until("combat_damage")
    assert g.zone_names("graveyard", 1) == [blocker] and g.obj(striker).damage == 0


@pytest.mark.parametrize(("wall", "land", "pt"), [("Wall of Faith", "Plains", [0, 7]),
                                                  ("Wall of Fire", "Mountain", [2, 5])])
def test_walls_pump_themselves_until_end_of_turn(wall: str, land: str, pt: list[int]) -> None:
    g = Scene().battlefield(0, wall, land, land).start()
    for _ in range(2):
        g.activate(0, wall).resolve()
    assert g.view(1)[g.obj(wall).oid]["pt"] == pt
    g.next_turn(1)
    base = [POOL[wall].power, POOL[wall].toughness]
    assert g.view(1)[g.obj(wall).oid]["pt"] == base


def test_wall_of_fire_pumped_blocks_and_kills() -> None:
    g = (Scene().battlefield(0, "Grizzly Bears").battlefield(1, "Wall of Fire", "Mountain",
                                                             "Mountain")
         .at("begin_combat").start())
    g.pass_(2).attack(("Grizzly Bears", 1)).pass_(2).block(1, ("Wall of Fire", "Grizzly Bears"))
    g.pass_(1)
    g.activate(1, "Wall of Fire").resolve()
    g.pass_(1).activate(1, "Wall of Fire").resolve()
    g.until("combat_damage")
    assert g.zone_names("graveyard", 0) == ["Grizzly Bears"]


def test_white_knight_and_black_knight() -> None:
    scene = Scene().battlefield(1, "Black Knight", "Viashino Spearhunter")
    g = _combat("White Knight", scene=scene)
    assert {g.game.objects[a.obj].name for a in g.decision.actions
            if a.kind == "block"} == {"Viashino Spearhunter"}
    g.block(1, ("Viashino Spearhunter", "White Knight")).until("first_strike_damage")
    # Both strike first: 2 each, so both die in the first-strike step.
    assert g.zone_names("graveyard", 0) == ["White Knight"]
    assert g.zone_names("graveyard", 1) == ["Viashino Spearhunter"]


def test_air_elemental_and_snapping_drake_fly_over_the_ground() -> None:
    g = _combat("Air Elemental", scene=Scene().battlefield(1, "Grizzly Bears"))
    assert g.decision.kind == "priority"
    g.until("combat_damage")
    assert g.life(1) == 16
    g = _combat("Snapping Drake", scene=Scene().battlefield(1, "Grizzly Bears"))
    g.until("combat_damage")
    assert g.life(1) == 17


def test_bog_wraith_and_emerald_oryx_walk_through_their_lands() -> None:
    g = _combat("Bog Wraith", scene=Scene().battlefield(1, "Swamp", "Grizzly Bears"))
    g.until("combat_damage")
    assert g.life(1) == 17
    g = _combat("Emerald Oryx", scene=Scene().battlefield(1, "Forest", "Grizzly Bears"))
    g.until("combat_damage")
    assert g.life(1) == 18


def test_child_of_night_gains_what_it_deals() -> None:
    g = _combat("Child of Night", scene=Scene().life(0, 5))
    g.until("combat_damage")
    assert (g.life(0), g.life(1)) == (7, 18)


def test_kindled_fury_gives_plus_one_and_first_strike_until_end_of_turn() -> None:
    g = Scene().battlefield(0, "Mountain", "Grizzly Bears").hand(0, "Kindled Fury").start()
    g.cast(0, "Kindled Fury", "Grizzly Bears").resolve()
    bears = g.obj("Grizzly Bears").oid
    assert g.view(1)[bears]["pt"] == [3, 2] and g.view(1)[bears]["kw"] == ["first strike"]
    g.next_turn(1)
    assert g.view(1)[bears]["pt"] == [2, 2] and "kw" not in g.view(1)[bears]


def test_giant_growth_gives_plus_three_until_end_of_turn() -> None:
    g = _combat("Grizzly Bears", "Hill Giant",
                Scene().battlefield(0, "Forest").hand(0, "Giant Growth"))
    g.cast(0, "Giant Growth", "Grizzly Bears").resolve()
    g.until("combat_damage")
    assert g.zone_names("graveyard", 1) == ["Hill Giant"] and g.obj("Grizzly Bears")


def test_lightning_elemental_and_raging_goblin_attack_at_once() -> None:
    lands = ["Mountain"] * 5
    g = (Scene().battlefield(0, *lands).hand(0, "Lightning Elemental", "Raging Goblin")
         .start())
    g.cast(0, "Lightning Elemental").resolve().cast(0, "Raging Goblin").resolve()
    g.until("declare_attackers")
    g.attack(("Lightning Elemental", 1), ("Raging Goblin", 1)).until("combat_damage")
    assert g.life(1) == 15


def test_prodigal_pyromancer_pings_any_target() -> None:
    g = (Scene().battlefield(0, "Prodigal Pyromancer")
         .battlefield(1, "Karn Liberated", counters={"loyalty": 6}).start())
    g.activate(0, "Prodigal Pyromancer", target=1).resolve()
    assert g.life(1) == 19 and g.obj("Prodigal Pyromancer").tapped
    assert g.find("activate", "Prodigal Pyromancer") is None  # {T}: once a turn
    g.next_turn(0)
    g.activate(0, "Prodigal Pyromancer", target="Karn Liberated").resolve()
    assert g.obj("Karn Liberated").counters["loyalty"] == 5


def test_shivan_dragon_firebreathes() -> None:
    g = _combat("Shivan Dragon", scene=Scene().battlefield(0, "Mountain", "Mountain"))
    g.activate(0, "Shivan Dragon").resolve().activate(0, "Shivan Dragon").resolve()
    g.until("combat_damage")
    assert g.life(1) == 13


def test_deadly_recluse_and_giant_spider_reach_up() -> None:
    g = _combat("Air Elemental", "Deadly Recluse")
    g.until("combat_damage")
    assert g.zone_names("graveyard", 0) == ["Air Elemental"]  # deathtouch
    g = _combat("Air Elemental", "Giant Spider")
    g.until("combat_damage")
    assert g.zone_names("graveyard", 1) == ["Giant Spider"] and g.obj("Air Elemental")


def test_kalonian_behemoth_and_mist_leopard_cannot_be_targeted() -> None:
    g = (Scene().battlefield(0, "Kalonian Behemoth", "Mist Leopard", "Mountain")
         .hand(0, "Lightning Bolt").start())
    g.cast(0, "Lightning Bolt")
    targets = {a.ref for a in g.decision.actions}
    assert targets == {("p", 0), ("p", 1)}


def test_stampeding_rhino_tramples_over() -> None:
    g = _combat("Stampeding Rhino", "Runeclaw Bear")
    g.pass_(2)
    g.choose("amount", "2 to Runeclaw Bear")
    assert g.life(1) == 18


def test_ornithopter_blocks_flyers_and_deals_no_damage() -> None:
    g = _combat("Ornithopter", scene=Scene())
    g.until("combat_damage")
    assert g.life(1) == 20  # 0 power: no combat damage (CR 510.1a)
    g = _combat("Snapping Drake", "Ornithopter")
    g.until("combat_damage")
    assert g.zone_names("graveyard", 1) == ["Ornithopter"]
