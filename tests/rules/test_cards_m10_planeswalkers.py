"""Magic 2010's planeswalkers and token makers (arbiter/server/rules/cards/sets/m10.py), each
played in a game and checked against its text. The rules they rest on are tested in
test_planeswalkers_306.py (loyalty, CR 306 and 606) and test_tokens_111.py (tokens, CR 111)."""

from __future__ import annotations

from arbiter.server.rules.characteristics import colors, has_keyword, power, toughness
from arbiter.server.rules.state import BATTLEFIELD, Obj

from .helpers import G, Scene

MINUS = "\u2212"


def _loyalty(g: G, name: str) -> int:
    return g.obj(name).counter("loyalty")


def _tokens(g: G, name: str, controller: int = 0) -> list[Obj]:
    return [o for o in g.objs(name, BATTLEFIELD, controller) if o.defn.token]


# --------------------------------------------------------------------------- Ajani Goldmane


def test_ajani_goldmane_plus_one_gains_two_life() -> None:
    g = Scene().battlefield(0, "Ajani Goldmane").start()
    g.activate(0, "Ajani Goldmane", "+1").resolve()
    assert g.life(0) == 22 and _loyalty(g, "Ajani Goldmane") == 5


def test_ajani_goldmane_minus_one_counters_and_vigilance_for_each_creature_you_control() -> None:
    g = (Scene().battlefield(0, "Ajani Goldmane", "Grizzly Bears", "Runeclaw Bear")
         .battlefield(1, "Hill Giant").start())
    g.activate(0, "Ajani Goldmane", f"{MINUS}1").resolve()
    for name in ("Grizzly Bears", "Runeclaw Bear"):
        bear = g.obj(name)
        assert bear.counter("+1/+1") == 1 and (power(g.game, bear), toughness(g.game, bear)) == \
            (3, 3)
        assert has_keyword(g.game, bear, "vigilance")
    giant = g.obj("Hill Giant")
    assert giant.counter("+1/+1") == 0 and not has_keyword(g.game, giant, "vigilance")
    g.until("declare_attackers", 0)
    g.attack(("Grizzly Bears", 1))
    assert not g.obj("Grizzly Bears").tapped  # vigilance (CR 702.20b) this turn
    g.next_turn(0)
    assert g.obj("Grizzly Bears").counter("+1/+1") == 1  # the counter stays
    assert not has_keyword(g.game, g.obj("Grizzly Bears"), "vigilance")  # the keyword doesn't


def test_ajani_goldmane_minus_six_makes_a_white_avatar_as_big_as_your_life() -> None:
    g = (Scene().battlefield(0, "Ajani Goldmane", counters={"loyalty": 6}).life(0, 17)
         .battlefield(1, "Mountain").hand(1, "Lightning Bolt").start())
    g.activate(0, "Ajani Goldmane", f"{MINUS}6").resolve()
    assert g.zone_names("graveyard", 0) == ["Ajani Goldmane"]  # 0 loyalty (CR 704.5i)
    avatar = g.obj("Avatar Token")
    assert avatar.defn.token and colors(g.game, avatar) == {"W"}
    assert g.view(1)[avatar.oid]["pt"] == [17, 17]
    g.pass_()  # to player 1, who bolts player 0: the Avatar shrinks with the life total
    g.cast(1, "Lightning Bolt", 0).resolve()
    assert g.view(1)[avatar.oid]["pt"] == [14, 14]


# --------------------------------------------------------------------------- Captain of the Watch


def test_captain_of_the_watch_makes_three_soldiers_that_it_pumps() -> None:
    lands = ["Plains"] * 6
    g = (Scene().battlefield(0, *lands, "Grizzly Bears").hand(0, "Captain of the Watch")
         .start())
    g.cast(0, "Captain of the Watch").resolve()
    g.resolve()  # its enters trigger
    soldiers = _tokens(g, "Soldier Token")
    assert len(soldiers) == 3
    for s in soldiers:
        assert colors(g.game, s) == {"W"}
        assert g.view(0)[s.oid]["pt"] == [2, 2]
        assert has_keyword(g.game, s, "vigilance")
    bears, captain = g.obj("Grizzly Bears"), g.obj("Captain of the Watch")
    assert g.view(0)[bears.oid]["pt"] == [2, 2]  # not a Soldier
    assert g.view(0)[captain.oid]["pt"] == [3, 3]  # "other"
    assert has_keyword(g.game, captain, "vigilance")  # its own printed vigilance


# --------------------------------------------------------------------------- Jace Beleren


def test_jace_beleren_plus_two_each_player_draws() -> None:
    g = Scene().battlefield(0, "Jace Beleren").start()
    hands = [len(g.game.hand(p)) for p in (0, 1)]
    g.activate(0, "Jace Beleren", "+2").resolve()
    assert [len(g.game.hand(p)) for p in (0, 1)] == [hands[0] + 1, hands[1] + 1]
    assert _loyalty(g, "Jace Beleren") == 5


def test_jace_beleren_minus_one_target_player_draws() -> None:
    g = Scene().battlefield(0, "Jace Beleren").start()
    g.activate(0, "Jace Beleren", f"{MINUS}1", target=1).resolve()
    assert (len(g.game.hand(0)), len(g.game.hand(1))) == (0, 1)
    assert _loyalty(g, "Jace Beleren") == 2


def test_jace_beleren_minus_ten_mills_twenty() -> None:
    library = ["Grizzly Bears"] * 25
    g = (Scene().battlefield(0, "Jace Beleren", counters={"loyalty": 10})
         .library(1, *library).start())
    assert g.find("activate", f"Jace Beleren: {MINUS}10") is not None
    g.activate(0, "Jace Beleren", f"{MINUS}10", target=1).resolve()
    assert len(g.game.library(1)) == 5 and len(g.game.graveyard(1)) == 20


# --------------------------------------------------------------------------- Liliana Vess


def test_liliana_vess_plus_one_target_player_discards() -> None:
    g = Scene().battlefield(0, "Liliana Vess").hand(1, "Lightning Bolt", "Hill Giant").start()
    g.activate(0, "Liliana Vess", "+1", target=1)
    g.pass_(2)
    assert g.decision.kind == "discard" and g.decision.player == 1
    g.choose(label="Hill Giant")
    assert g.zone_names("graveyard", 1) == ["Hill Giant"]
    assert g.zone_names("hand", 1) == ["Lightning Bolt"]


def test_liliana_vess_minus_two_puts_the_card_found_on_top() -> None:
    g = (Scene().battlefield(0, "Liliana Vess")
         .library(0, "Shivan Dragon", *["Forest"] * 10).start())
    g.activate(0, "Liliana Vess", f"{MINUS}2")
    g.pass_(2)
    assert g.decision.kind == "search"
    g.choose("choose_card", label="Shivan Dragon")
    assert g.game.library(0)[-1].name == "Shivan Dragon"  # on top, after the shuffle
    assert len(g.game.library(0)) == 11 and _loyalty(g, "Liliana Vess") == 3


def test_liliana_vess_minus_eight_takes_every_creature_card_from_every_graveyard() -> None:
    g = (Scene().battlefield(0, "Liliana Vess", counters={"loyalty": 8})
         .graveyard(0, "Grizzly Bears", "Lightning Bolt").graveyard(1, "Hill Giant", "Forest")
         .start())
    g.activate(0, "Liliana Vess", f"{MINUS}8").resolve()
    assert g.obj("Grizzly Bears").controller == 0
    assert g.obj("Hill Giant").controller == 0 and g.obj("Hill Giant").owner == 1
    assert g.zone_names("graveyard", 0) == ["Lightning Bolt", "Liliana Vess"]
    assert g.zone_names("graveyard", 1) == ["Forest"]


# --------------------------------------------------------------------------- Chandra Nalaar


def test_chandra_nalaar_plus_one_hits_a_player_or_a_planeswalker() -> None:
    g = (Scene().battlefield(0, "Chandra Nalaar").battlefield(1, "Jace Beleren", "Hill Giant")
         .start())
    g.choose("activate", "Chandra Nalaar: +1")
    targets = {a.ref for a in g.options(0)}
    jace = g.obj("Jace Beleren")
    # Player or planeswalker: never a creature.
    assert targets == {("p", 0), ("p", 1), ("o", g.obj("Chandra Nalaar").oid), ("o", jace.oid)}
    g.target(jace).resolve()
    assert _loyalty(g, "Jace Beleren") == 2  # CR 306.8
    assert _loyalty(g, "Chandra Nalaar") == 7


def test_chandra_nalaar_minus_x_deals_x_to_target_creature() -> None:
    g = Scene().battlefield(0, "Chandra Nalaar").battlefield(1, "Hill Giant").start()
    g.choose("activate", f"Chandra Nalaar: {MINUS}X")
    assert g.decision.kind == "x"
    assert [a.index for a in g.options(0)] == list(range(7))  # 0 up to its 6 loyalty
    g.choose("x", "X = 3").target("Hill Giant")
    assert _loyalty(g, "Chandra Nalaar") == 3  # paid as it was activated (CR 606.4)
    g.resolve()
    assert g.zone_names("graveyard", 1) == ["Hill Giant"]


def test_chandra_nalaar_minus_eight_burns_the_player_and_their_creatures() -> None:
    g = (Scene().battlefield(0, "Chandra Nalaar", "Grizzly Bears", counters={"loyalty": 8})
         .battlefield(1, "Hill Giant", "Shivan Dragon").start())
    g.activate(0, "Chandra Nalaar", f"{MINUS}8", target=1).resolve()
    assert g.life(1) == 10
    assert sorted(g.zone_names("graveyard", 1)) == ["Hill Giant", "Shivan Dragon"]
    assert g.obj("Grizzly Bears").damage == 0  # not that player's


def test_chandra_nalaar_minus_eight_at_a_planeswalker_burns_its_controllers_creatures() -> None:
    g = (Scene().battlefield(0, "Chandra Nalaar", counters={"loyalty": 8})
         .battlefield(1, "Jace Beleren", "Hill Giant").start())
    g.activate(0, "Chandra Nalaar", f"{MINUS}8", target="Jace Beleren").resolve()
    assert sorted(g.zone_names("graveyard", 1)) == ["Hill Giant", "Jace Beleren"]
    assert g.life(1) == 20  # the planeswalker took the 10, not its controller (CR 306.7)


# --------------------------------------------------------------------------- token makers


def test_siege_gang_commander_makes_goblins_and_sacrifices_them_for_damage() -> None:
    lands = ["Mountain"] * 7
    g = (Scene().battlefield(0, *lands).hand(0, "Siege-Gang Commander")
         .battlefield(1, "Grizzly Bears").start())
    g.cast(0, "Siege-Gang Commander").resolve()
    g.resolve()
    goblins = _tokens(g, "Goblin Token")
    assert len(goblins) == 3 and all(colors(g.game, t) == {"R"} for t in goblins)
    g.choose("activate", "Siege-Gang Commander: {1}{R}, Sacrifice a Goblin")
    g.target("Grizzly Bears")
    assert g.decision.kind == "sacrifice"
    # Any Goblin it controls, the Commander itself too.
    assert len(g.options(0)) == 4
    g.choose("choose_card", obj=goblins[0].oid)
    assert g.objs("Goblin Token") and len(_tokens(g, "Goblin Token")) == 2
    g.resolve()
    assert g.zone_names("graveyard", 1) == ["Grizzly Bears"]


def test_siege_gang_commander_can_sacrifice_itself_and_still_deals_damage() -> None:
    g = (Scene().battlefield(0, "Siege-Gang Commander", "Mountain", "Mountain").start())
    g.choose("activate", "Siege-Gang Commander: {1}{R}, Sacrifice a Goblin").target(1)
    g.choose("choose_card", label="Siege-Gang Commander")
    assert g.zone_names("graveyard", 0) == ["Siege-Gang Commander"]
    g.resolve()
    assert g.life(1) == 18  # last known information of its source (CR 113.7a)


def test_ant_queen_makes_an_insect_for_each_activation() -> None:
    g = Scene().battlefield(0, "Ant Queen", *["Forest"] * 4).start()
    for _ in range(2):
        g.activate(0, "Ant Queen").resolve()
    insects = _tokens(g, "Insect Token")
    assert len(insects) == 2
    assert all(colors(g.game, t) == {"G"} for t in insects)
    assert all(g.view(1)[t.oid]["pt"] == [1, 1] for t in insects)
    assert g.find("activate", "Ant Queen") is None  # no mana left


def test_howl_of_the_night_pack_makes_a_wolf_per_forest() -> None:
    g = (Scene().battlefield(0, *["Forest"] * 5, "Mountain", "Mountain")
         .battlefield(1, "Forest").hand(0, "Howl of the Night Pack").start())
    g.cast(0, "Howl of the Night Pack").resolve()
    wolves = _tokens(g, "Wolf Token")
    assert len(wolves) == 5  # its own Forests, tapped or not; not the opponent's
    assert all(g.view(1)[t.oid]["pt"] == [2, 2] for t in wolves)


def test_gargoyle_castle_taps_for_colorless_or_becomes_a_gargoyle() -> None:
    g = Scene().battlefield(0, "Gargoyle Castle", *["Wastes"] * 5).start()
    assert g.find("mana", "Tap Gargoyle Castle for {C}") is not None
    g.activate(0, "Gargoyle Castle", "{5}, {T}, Sacrifice this").resolve()
    assert g.zone_names("graveyard", 0) == ["Gargoyle Castle"]
    gargoyle = g.obj("Gargoyle Token")
    assert gargoyle.defn.is_("Artifact") and colors(g.game, gargoyle) == frozenset()
    assert has_keyword(g.game, gargoyle, "flying") and g.view(1)[gargoyle.oid]["pt"] == [3, 4]


# --------------------------------------------------------------------------- Garruk Wildspeaker


def test_garruk_wildspeaker_plus_one_untaps_two_target_lands() -> None:
    g = (Scene().battlefield(0, "Garruk Wildspeaker", "Forest", "Forest", "Forest",
                             tapped=True)
         .battlefield(1, "Mountain", tapped=True).start())
    garruk = g.obj("Garruk Wildspeaker")
    g.choose("activate", "Garruk Wildspeaker: +1")
    options = {a.ref for a in g.options(0)}
    assert ("o", garruk.oid) not in options  # lands only
    assert ("o", g.obj("Mountain").oid) in options  # anyone's lands
    forests = g.objs("Forest")
    g.target(forests[0]).target(g.obj("Mountain"))
    g.resolve()
    assert not forests[0].tapped and not g.obj("Mountain").tapped
    assert forests[1].tapped and forests[2].tapped


def test_garruk_wildspeaker_plus_one_needs_two_lands() -> None:
    g = Scene().battlefield(0, "Garruk Wildspeaker", "Forest").start()
    assert g.find("activate", "Garruk Wildspeaker: +1") is None
    assert g.find("activate", f"Garruk Wildspeaker: {MINUS}1") is not None


def test_garruk_wildspeaker_minus_one_makes_a_beast() -> None:
    g = Scene().battlefield(0, "Garruk Wildspeaker").start()
    g.activate(0, "Garruk Wildspeaker", f"{MINUS}1").resolve()
    beast = g.obj("Beast Token")
    assert colors(g.game, beast) == {"G"} and g.view(1)[beast.oid]["pt"] == [3, 3]
    assert _loyalty(g, "Garruk Wildspeaker") == 2


def test_garruk_wildspeaker_minus_four_overruns() -> None:
    g = (Scene().battlefield(0, "Garruk Wildspeaker", "Grizzly Bears", counters={"loyalty": 4})
         .battlefield(1, "Hill Giant").start())
    g.activate(0, "Garruk Wildspeaker", f"{MINUS}4").resolve()
    bears = g.obj("Grizzly Bears")
    assert g.view(0)[bears.oid]["pt"] == [5, 5] and has_keyword(g.game, bears, "trample")
    assert g.view(0)[g.obj("Hill Giant").oid]["pt"] == [3, 3]
    assert g.zone_names("graveyard", 0) == ["Garruk Wildspeaker"]


# --------------------------------------------------------------------------- Cemetery Reaper


def test_cemetery_reaper_pumps_other_zombies_it_makes_from_graveyard_creatures() -> None:
    g = (Scene().battlefield(0, "Cemetery Reaper", "Swamp", "Swamp", "Swamp")
         .graveyard(0, "Lightning Bolt").graveyard(1, "Hill Giant").start())
    g.choose("activate", "Cemetery Reaper")
    options = {a.ref for a in g.options(0)}
    giant = g.obj("Hill Giant", "graveyard")
    assert options == {("o", giant.oid)}  # a creature card, in any graveyard
    g.target(giant).resolve()
    assert g.zone_names("exile", 1) == ["Hill Giant"]
    zombie = g.obj("Zombie Token")
    assert colors(g.game, zombie) == {"B"}
    assert g.view(0)[zombie.oid]["pt"] == [3, 3]  # 2/2, +1/+1 from the Reaper
    assert g.view(0)[g.obj("Cemetery Reaper").oid]["pt"] == [2, 2]  # "other"


def test_cemetery_reaper_makes_no_zombie_if_the_card_has_left_the_graveyard() -> None:
    g = (Scene().battlefield(0, "Cemetery Reaper", "Cemetery Reaper", *["Swamp"] * 6)
         .graveyard(1, "Hill Giant").start())
    giant = g.obj("Hill Giant", "graveyard")
    first, second = g.objs("Cemetery Reaper")
    for reaper in (first, second):  # both at the same card; the second resolves first
        g.choose("activate", obj=reaper.oid).target(giant)
    g.resolve()
    assert g.zone_names("exile", 1) == ["Hill Giant"] and len(g.objs("Zombie Token")) == 1
    g.resolve()
    # Its only target is gone: the ability does nothing at all, no token (CR 608.2b).
    assert len(g.objs("Zombie Token")) == 1 and g.game.stack == []


# ----------------------------------------------------------------- Master of the Wild Hunt


def test_master_of_the_wild_hunt_makes_a_wolf_each_upkeep() -> None:
    g = Scene().battlefield(0, "Master of the Wild Hunt").start()
    assert g.objs("Wolf Token") == []
    g.next_turn(0)
    assert len(_tokens(g, "Wolf Token")) == 1
    g.next_turn(1)
    assert len(_tokens(g, "Wolf Token")) == 1  # only its controller's upkeep
    g.next_turn(0)
    assert len(_tokens(g, "Wolf Token")) == 2


def _pack(forests: int, prey: str) -> G:
    """Master of the Wild Hunt with ``forests`` Wolves (from Howl of the Night Pack) and an
    opposing ``prey``."""
    g = (Scene().battlefield(0, "Master of the Wild Hunt", *["Forest"] * forests,
                             *["Mountain"] * (7 - forests))
         .hand(0, "Howl of the Night Pack").battlefield(1, prey).start())
    g.cast(0, "Howl of the Night Pack").resolve()
    return g


def test_master_of_the_wild_hunt_wolves_gang_up_and_the_prey_divides_its_damage() -> None:
    g = _pack(3, "Hill Giant")
    wolves = _tokens(g, "Wolf Token")
    g.activate(0, "Master of the Wild Hunt", target="Hill Giant")
    g.pass_(2)
    # The Giant's controller divides its 3 damage among the Wolves, one at a time; the amount
    # lethal to the Wolf is offered first.
    assert g.decision.kind == "assign_damage" and g.decision.player == 1
    assert [a.index for a in g.options(1)] == [2, 0, 1, 3]
    g.choose("amount", obj=wolves[0].oid, label="2 to")
    assert g.decision.kind == "assign_damage"
    g.choose("amount", obj=wolves[1].oid, label="1 to")  # the last Wolf gets what is left: 0
    assert g.zone_names("graveyard", 1) == ["Hill Giant"]  # 6 damage from three Wolves
    alive = _tokens(g, "Wolf Token")
    assert [w.oid for w in alive] == [wolves[1].oid, wolves[2].oid]
    assert alive[0].damage == 1 and alive[1].damage == 0
    assert all(w.tapped for w in alive) and g.obj("Master of the Wild Hunt").tapped


def test_master_of_the_wild_hunt_the_rest_goes_to_the_last_wolf() -> None:
    g = _pack(2, "Shivan Dragon")
    first, _ = _tokens(g, "Wolf Token")
    g.activate(0, "Master of the Wild Hunt", target="Shivan Dragon")
    g.pass_(2)
    g.choose("amount", obj=first.oid, label="3 to")
    # 4 damage from two 2/2 Wolves leaves the 5/5 Dragon alive; its 5 split 3 and 2 kills both.
    assert g.obj("Shivan Dragon").damage == 4
    assert _tokens(g, "Wolf Token") == []
    g.next_turn(0)  # a new Wolf, untapped; the Master untaps too
    g.activate(0, "Master of the Wild Hunt", target="Shivan Dragon")
    g.pass_(2)
    # One Wolf: no division to ask for, all 5 to it.
    assert g.decision.kind == "priority" and _tokens(g, "Wolf Token") == []


def test_master_of_the_wild_hunt_taps_and_uses_only_untapped_wolves() -> None:
    g = _pack(2, "Hill Giant")
    attacker, waiting = _tokens(g, "Wolf Token")
    g.next_turn(0)  # a third Wolf arrives in the upkeep
    g.until("declare_attackers", 0).attack((attacker, 1))
    g.until("main2", 0)
    assert attacker.tapped and g.life(1) == 18
    g.activate(0, "Master of the Wild Hunt", target="Hill Giant")
    g.pass_(2)
    options = {a.obj for a in g.options(1)}
    assert options == {waiting.oid}  # the first of the two untapped Wolves: not the attacker
    g.choose("amount", obj=waiting.oid, label="0 to")
    assert g.zone_names("graveyard", 1) == ["Hill Giant"]  # 2 + 2 from the untapped two
    # The newcomer, last, took the Giant's 3 and is gone; the other two are unhurt.
    assert [w.oid for w in _tokens(g, "Wolf Token")] == [attacker.oid, waiting.oid]
    assert (attacker.damage, waiting.damage) == (0, 0)
    assert g.zone_names("graveyard", 0) == ["Howl of the Night Pack"]
