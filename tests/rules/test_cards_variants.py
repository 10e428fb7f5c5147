"""Every plane, phenomenon and scheme played through the engine (the vanguards are in
test_vanguard_902.py): what its Oracle text says happens."""

from __future__ import annotations

from arbiter.server.rules.view import SPECTATOR

from .helpers import G, Scene, seed_rolling

FILLER = ("Goldmeadow", "Lethe Lake", "Krosa")


def _plane(name: str, *faces: str, players: int = 2, **setup: object) -> Scene:
    s = Scene(players, planechase=True, **setup).plane(0, name)
    for p in range(players):
        s.planar_deck(p, *[n for n in FILLER if n != name])
    return s


def _chaos(scene: Scene) -> G:
    """Start ``scene`` with a seed that rolls chaos first, and roll it."""
    g = scene.start(seed_rolling("chaos"))
    assert g.roll() == "chaos"
    return g


def _encounter(name: str, scene: Scene) -> G:
    """Player 0 planeswalks (a Planeswalker roll) to the phenomenon ``name``."""
    scene.planar_deck(0, name, "Lethe Lake")
    g = scene.start(seed_rolling("planeswalker"))
    assert g.roll() == "planeswalker"
    g.resolve()
    assert g.plane() == name
    return g


def _scheme(name: str, *, players: int = 3) -> Scene:
    """Player 0 is the archenemy, about to set ``name`` in motion (upkeep, then main)."""
    return (Scene(players, variant="archenemy").archenemy(0)
            .scheme_deck(0, name, "Look Skyward and Despair").at("upkeep", 0))


def _set_in_motion(g: G) -> G:
    """On to the archenemy's precombat main phase, where the scheme is set in motion (and its
    targets, if any, chosen)."""
    while g.decision.kind != "target" and not (g.game.step == "main1"
                                               and g.decision.kind == "priority"):
        g.step_on()
    return g


# --------------------------------------------------------------------------- planes


def test_academy_at_tolaria_west() -> None:
    g = _plane("Academy at Tolaria West").hand(0, "Lightning Bolt").at("end", 0).start()
    assert not g.game.stack  # a card in hand: the intervening "if" isn't met
    g = _plane("Academy at Tolaria West").at("end", 0).start()
    g.resolve()
    assert len(g.game.hand(0)) == 7
    g = _chaos(_plane("Academy at Tolaria West").hand(0, "Lightning Bolt", "Forest"))
    g.resolve()
    assert g.game.hand(0) == [] and len(g.game.graveyard(0)) == 2


def test_astral_arena() -> None:
    g = (_plane("Astral Arena").battlefield(0, "Grizzly Bears", "Hill Giant")
         .battlefield(1, "Grizzly Bears", "Runeclaw Bear").start())
    g.until("declare_attackers", 0)
    g.choose("attack", "Hill Giant")
    # No more than one creature can attack: the declaration is complete.
    assert g.decision.kind == "priority" and g.obj("Hill Giant").attacking == ("p", 1)
    while g.decision.kind != "blockers":
        g.pass_()
    assert len(g.options(1)) == 3  # done, or block with either creature
    g.choose("block", "Block Hill Giant with Grizzly Bears")
    # No more than one creature can block: the declaration is complete.
    assert g.decision.kind == "priority" and g.obj("Grizzly Bears", controller=1).blocking
    g = _chaos(_plane("Astral Arena").battlefield(0, "Grizzly Bears")
               .battlefield(1, "Hill Giant"))
    g.resolve()
    assert g.objs("Grizzly Bears", "battlefield") == [] and g.obj("Hill Giant").damage == 2


def test_fields_of_summer() -> None:
    g = _chaos(_plane("Fields of Summer").life(0, 7))
    g.resolve().choose("yes")
    assert g.life(0) == 17
    g = (_plane("Fields of Summer").battlefield(0, "Mountain").hand(0, "Lightning Bolt")
         .start())
    g.cast(0, "Lightning Bolt", 1)
    g.resolve()  # the trigger: player 0 may gain 2 life, and declines
    g.choose("no")
    assert g.life(0) == 20
    g.resolve()
    assert g.life(1) == 17


def test_goldmeadow() -> None:
    g = _plane("Goldmeadow").hand(0, "Forest").start()
    g.play_land(0, "Forest").resolve()
    assert [o.controller for o in g.objs("Goat", "battlefield")] == [0, 0, 0]
    assert g.view(SPECTATOR)[g.obj("Goat").oid]["pt"] == [0, 1]
    g = _chaos(_plane("Goldmeadow").at("main1", 1))
    g.resolve()
    assert [o.controller for o in g.objs("Goat", "battlefield")] == [1]  # the planar controller


def test_krosa() -> None:
    g = _plane("Krosa").battlefield(1, "Glistener Elf").start()
    assert g.view(SPECTATOR)[g.obj("Glistener Elf").oid]["pt"] == [3, 3]
    g = _chaos(_plane("Krosa"))
    g.resolve().choose("no")
    assert g.game.players[0].mana == {}


def test_lethe_lake() -> None:
    g = _plane("Lethe Lake").at("upkeep", 1).start()
    g.resolve()
    assert len(g.game.graveyard(1)) == 10  # the planar controller's own upkeep
    g = _chaos(_plane("Lethe Lake"))
    g.target(0).resolve()
    assert len(g.game.graveyard(0)) == 10


def test_panopticon() -> None:
    g = _plane("Panopticon").at("upkeep", 0, turn=2).start()
    hand = len(g.game.hand(0))
    g.until("draw", 0)
    g.resolve()  # at the beginning of your draw step, draw an additional card
    assert len(g.game.hand(0)) == hand + 2
    g = _chaos(_plane("Panopticon"))
    g.resolve()
    assert len(g.game.hand(0)) == 1


def test_sanctum_of_serra() -> None:
    for life in (5, 33):
        g = _chaos(_plane("Sanctum of Serra").life(0, life))
        g.resolve().choose("yes")
        assert g.life(0) == 20


def test_the_hippodrome() -> None:
    g = (_plane("The Hippodrome").battlefield(1, "Hill Giant", counters={"+1/+1": 2})
         .battlefield(1, "Serra Angel", counters={"+1/+1": 3}).start(seed_rolling("chaos")))
    giant, angel = g.obj("Hill Giant"), g.obj("Serra Angel")
    assert g.view(SPECTATOR)[giant.oid]["pt"] == [0, 5]
    g.roll()
    g.target(angel).resolve().choose("yes")  # power 2: not destroyed
    assert g.obj("Serra Angel")
    g = (_plane("The Hippodrome").battlefield(1, "Hill Giant", counters={"+1/+1": 2})
         .start(seed_rolling("chaos")))
    g.roll()
    g.target("Hill Giant").resolve().choose("yes")  # power 0
    assert g.objs("Hill Giant", "battlefield") == []


def test_undercity_reaches() -> None:
    g = (_plane("Undercity Reaches").battlefield(1, "Grizzly Bears").at("main1", 1).start())
    hand = len(g.game.hand(1))
    g.until("declare_attackers", 1)
    g.attack(("Grizzly Bears", 0))
    g.until("combat_damage", 1)
    g.resolve()
    assert g.decision.kind == "may" and g.decision.player == 1
    g.choose("yes")
    assert len(g.game.hand(1)) == hand + 1
    g = _chaos(_plane("Undercity Reaches").hand(0, *["Forest"] * 9))
    g.resolve()
    assert g.view(SPECTATOR)["p0"]["mx"] == "none"
    g.next_turn(1)
    assert len(g.game.hand(0)) == 9  # no discard in the cleanup step


# --------------------------------------------------------------------------- phenomena


def test_chaotic_aether_mutual_epiphany_planewide_disaster() -> None:
    g = _encounter("Mutual Epiphany", _plane("Krosa"))
    g.resolve()
    assert [len(g.game.hand(p)) for p in (0, 1)] == [4, 4]
    assert g.plane() == "Lethe Lake"  # then planeswalked away from the phenomenon
    g = _encounter("Planewide Disaster", _plane("Krosa").battlefield(0, "Hill Giant", "Forest")
                   .battlefield(1, "Grizzly Bears", "Karn Liberated"))
    g.resolve()
    assert sorted(o.name for o in g.game.battlefield) == ["Forest", "Karn Liberated"]
    g = _encounter("Chaotic Aether", _plane("Krosa"))
    g.resolve()
    assert [e.kind for e in g.game.effects] == ["blank_chaos"]


# --------------------------------------------------------------------------- schemes


def test_behold_the_power_of_destruction() -> None:
    g = _set_in_motion(_scheme("Behold the Power of Destruction")
                       .battlefield(1, "Hill Giant", "Forest", "Karn Liberated")
                       .battlefield(2, "Grizzly Bears").start())
    g.target(1).resolve()
    assert sorted(o.name for o in g.game.battlefield) == ["Forest", "Grizzly Bears"]


def test_embrace_my_diabolical_vision() -> None:
    g = _set_in_motion(_scheme("Embrace My Diabolical Vision").hand(1, "Forest")
                       .graveyard(1, "Hill Giant").start())
    g.resolve()
    assert [len(g.game.hand(p)) for p in range(3)] == [7, 4, 4]
    assert g.game.graveyard(1) == [] and len(g.game.library(1)) == 22 - 4


def test_know_naught_but_fire() -> None:
    g = _set_in_motion(_scheme("Know Naught but Fire").hand(1, "Forest", "Forest")
                       .hand(2, *["Forest"] * 5).start())
    g.resolve()
    assert [g.life(p) for p in range(3)] == [40, 18, 15]


def test_realms_befitting_my_majesty() -> None:
    g = _set_in_motion(_scheme("Realms Befitting My Majesty")
                       .library(0, "Hill Giant", "Forest", "Mountain", "Wastes").start())
    g.resolve()
    assert "Put Hill Giant onto the battlefield" not in g.labels()  # basic lands only
    g.choose("choose_card", "Forest").choose("choose_card", "Mountain")
    lands = sorted((o.name, o.tapped) for o in g.game.battlefield)
    assert lands == [("Forest", True), ("Mountain", True)]


def test_surrender_your_thoughts() -> None:
    g = _set_in_motion(_scheme("Surrender Your Thoughts").hand(1, *["Forest"] * 5)
                       .hand(2, *["Forest"] * 5).start())
    g.target(1).resolve()
    assert g.decision.kind == "self_or_others" and g.decision.player == 1
    g.choose("self")
    for _ in range(4):
        g.choose("discard")
    assert [len(g.game.hand(p)) for p in (1, 2)] == [1, 5]
    g = _set_in_motion(_scheme("Surrender Your Thoughts").hand(1, *["Forest"] * 5)
                       .hand(2, *["Forest"] * 5).start())
    g.target(1).resolve().choose("others")
    g.choose("discard", player=2).choose("discard", player=2)
    assert [len(g.game.hand(p)) for p in (1, 2)] == [5, 3]


def test_the_fate_of_the_flammable() -> None:
    g = _set_in_motion(_scheme("The Fate of the Flammable").start())
    g.target(2).resolve().choose("self")
    assert [g.life(p) for p in range(3)] == [40, 20, 14]
    g = _set_in_motion(_scheme("The Fate of the Flammable", players=4).start())
    g.target(2).resolve().choose("others")
    assert [g.life(p) for p in range(4)] == [40, 17, 20, 17]


def test_your_puny_minds_cannot_fathom() -> None:
    g = _set_in_motion(_scheme("Your Puny Minds Cannot Fathom").hand(0, *["Forest"] * 6)
                       .start())
    g.resolve()
    assert len(g.game.hand(0)) == 6 + 1 + 4 and g.view(1)["p0"]["mx"] == "none"
    g.next_turn(1)
    assert len(g.game.hand(0)) == 11  # no discard down to seven
    g.next_turn(0, "upkeep")
    assert "mx" not in g.view(1)["p0"]  # until the archenemy's next turn


def test_your_will_is_not_your_own() -> None:
    g = _set_in_motion(_scheme("Your Will Is Not Your Own")
                       .battlefield(1, "Grizzly Bears", tapped=True).start())
    g.target("Grizzly Bears").resolve()
    bears = g.obj("Grizzly Bears")
    assert bears.controller == 0 and not bears.tapped
    assert g.view(2)[bears.oid]["pt"] == [5, 5] and g.view(2)[bears.oid]["kw"] == [
        "haste", "trample"]
    g.next_turn(1)
    bears = g.obj("Grizzly Bears")
    assert bears.controller == 1 and g.view(2)[bears.oid]["pt"] == [2, 2]


def test_nothing_can_stop_me_now() -> None:
    g = (Scene(2, variant="archenemy").archenemy(0).scheme(0, "Nothing Can Stop Me Now")
         .battlefield(1, "Mountain", "Mountain").hand(1, "Lightning Bolt", "Lightning Bolt")
         .at("main1", 1).start())
    g.cast(1, "Lightning Bolt", 0).resolve()
    assert g.life(0) == 38  # 3 damage, 1 prevented
    g.until("end", 1)
    assert not g.game.stack  # dealt 2 this turn: not abandoned
    # Two copies in motion prevent 1 each.
    g = (Scene(2, variant="archenemy").archenemy(0).scheme(0, "Nothing Can Stop Me Now")
         .scheme(0, "Nothing Can Stop Me Now").battlefield(1, "Mountain")
         .hand(1, "Lightning Bolt").at("main1", 1).start())
    g.cast(1, "Lightning Bolt", 0).resolve()
    assert g.life(0) == 39
    g = (Scene(2, variant="archenemy").archenemy(0).scheme(0, "Nothing Can Stop Me Now")
         .battlefield(1, "Serra Angel", "Hill Giant").at("main1", 1).start())
    g.until("declare_attackers", 1)
    g.attack(("Serra Angel", 0), ("Hill Giant", 0))
    g.until("end", 1)
    assert g.life(0) == 40 - 3 - 2 and g.game.stack[-1].name == "Nothing Can Stop Me Now"
    g.resolve()
    assert g.game.scheme_deck(0)[0].name == "Nothing Can Stop Me Now"


def test_i_know_all_i_see_all() -> None:
    g = (Scene(2, variant="archenemy").archenemy(0).scheme(0, "I Know All, I See All")
         .battlefield(0, "Forest", tapped=True).battlefield(1, "Mountain", tapped=True)
         .at("end", 0).start())
    g.next_turn(1, "upkeep")
    assert not g.obj("Forest").tapped and not g.obj("Mountain").tapped
    g = (Scene(2, variant="archenemy").archenemy(0).scheme(0, "I Know All, I See All")
         .battlefield(1, "Island", "Swamp").hand(1, "Glimpse the Unthinkable")
         .hand(0, "Lightning Bolt").at("main1", 1).start())
    g.until("end", 1)
    assert not g.game.stack  # nothing went to the archenemy's graveyard this turn
    g.next_turn(1)
    g.cast(1, "Glimpse the Unthinkable", 0).resolve()  # ten cards into it
    g.until("end", 1)
    assert g.game.stack[-1].name == "I Know All, I See All"
    g.resolve()
    assert g.game.scheme_deck(0)[0].name == "I Know All, I See All"
