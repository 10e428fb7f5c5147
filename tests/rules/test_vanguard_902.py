"""Vanguard (CR 902): each player's vanguard card sets their starting life and hand size and
their maximum hand size, and its abilities work from the command zone."""

from __future__ import annotations

from arbiter.server.rules import GameConfig, PlayerConfig, Table
from arbiter.server.rules.cards.decks import ready_made
from arbiter.server.rules.view import SPECTATOR, snapshot

from .helpers import Scene


def _vanguard_table(*vanguards: str, seed: int = 3, variant: str = "two_player") -> Table:
    deck = ready_made("gruul-stompy")
    players = tuple(PlayerConfig(f"P{i}", deck.main, deck.sideboard, vanguard=v)
                    for i, v in enumerate(vanguards))
    return Table(GameConfig(players=players, variant=variant, vanguard=True,
                            format="constructed"), seed)


def test_902_4_starting_life_is_twenty_plus_the_life_modifier() -> None:
    t = _vanguard_table("Urza", "Hanna", "Tahngarth", variant="free_for_all")
    assert [t.main.players[p].life for p in range(3)] == [30, 15, 27]


def test_902_5_starting_hand_size_is_seven_plus_the_hand_modifier() -> None:
    t = _vanguard_table("Gerrard", "Maraxus")
    assert [len(t.main.hand(p)) for p in (0, 1)] == [3, 8]


def test_902_5a_a_mulligan_draws_the_starting_hand_size_again() -> None:
    t = _vanguard_table("Gerrard", "Maraxus", seed=5)
    g = t.main
    first = t.pending
    assert first is not None and first.kind == "mulligan"
    mulligan = next(a.id for a in first.actions if a.kind == "mulligan")
    t.act(first.player, first.serial, mulligan)
    who = first.player
    # Dealt a fresh hand of the same size, then one card goes to the bottom (CR 103.5).
    assert len(g.hand(who)) == (3 if who == 0 else 8)
    d = t.pending
    assert d is not None and d.kind in ("mulligan", "bottom")


def test_902_5b_maximum_hand_size_is_seven_plus_the_hand_modifier() -> None:
    hand = ["Lightning Bolt"] * 8
    g = (Scene(2, vanguard=True).vanguard(0, "Tahngarth").vanguard(1, "Maraxus")
         .hand(0, *hand).hand(1, *hand).at("end", 0).start())
    g.pass_(2)  # into the cleanup step
    assert g.decision.kind == "discard" and g.decision.player == 0
    while g.decision.kind == "discard":
        g.step_on()
    assert len(g.game.hand(0)) == 6  # Tahngarth: hand -1
    g.next_turn(1, "end")
    g.pass_(2)
    assert len(g.game.hand(1)) == 9  # eight, and the card of the draw step
    while g.decision.kind == "discard":
        g.step_on()
    assert len(g.game.hand(1)) == 8  # Maraxus: hand +1
    g.next_turn(0)
    assert g.view(SPECTATOR)["p0"]["mx"] == 6 and g.view(SPECTATOR)["p1"]["mx"] == 8


def test_902_6_a_vanguard_is_owned_and_controlled_by_its_player_in_the_command_zone() -> None:
    t = _vanguard_table("Urza", "Serra")
    cards = sorted(t.main.command, key=lambda o: o.owner)
    assert [(o.name, o.owner, o.controller) for o in cards] == [("Urza", 0, 0), ("Serra", 1, 1)]
    view = snapshot(t.main, SPECTATOR)
    shown = {v["n"]: v for k, v in view.items() if isinstance(k, int) and v["z"] == "c"}
    assert set(shown) == {"Urza", "Serra"} and shown["Serra"]["o"] == 1


def test_902_7_static_abilities_work_from_the_command_zone() -> None:
    g = (Scene(2, vanguard=True).vanguard(0, "Maraxus").vanguard(1, "Serra")
         .battlefield(0, "Hill Giant").battlefield(1, "Grizzly Bears").start())
    giant, bears = g.obj("Hill Giant"), g.obj("Grizzly Bears")
    view = g.view(SPECTATOR)
    assert view[giant.oid]["pt"] == [4, 3] and view[bears.oid]["pt"] == [2, 4]
    # A creature that changes sides gets the other vanguard's bonus instead.
    g = (Scene(2, vanguard=True).vanguard(0, "Maraxus").vanguard(1, "Serra")
         .battlefield(0, "Mountain", "Mountain", "Mountain").hand(0, "Act of Treason")
         .battlefield(1, "Grizzly Bears").start())
    g.cast(0, "Act of Treason", "Grizzly Bears").resolve()
    bears = g.obj("Grizzly Bears")
    assert g.view(SPECTATOR)[bears.oid]["pt"] == [3, 2]


def test_902_7_a_vanguard_gives_haste_and_cheaper_spells() -> None:
    g = (Scene(2, vanguard=True).vanguard(0, "Tahngarth").vanguard(1, "Hanna")
         .battlefield(0, "Forest", "Forest").hand(0, "Grizzly Bears")
         .battlefield(1, "Mountain", "Mountain", "Mountain").hand(1, "Lava Axe").start())
    g.cast(0, "Grizzly Bears").resolve()
    bears = g.obj("Grizzly Bears")
    assert g.view(SPECTATOR)[bears.oid]["kw"] == ["haste"]
    g.until("declare_attackers", 0)
    g.attack(("Grizzly Bears", 1))  # no summoning sickness: Tahngarth gives haste
    g.until("main2", 0)
    assert g.life(1) == 15 - 2  # Hanna's life modifier is -5
    g.next_turn(1)
    # Lava Axe costs {4}{R}; Hanna makes it {3}{R}: three Mountains aren't enough.
    assert g.find("cast", "Lava Axe") is None
    g = (Scene(2, vanguard=True).vanguard(0, "Tahngarth").vanguard(1, "Hanna")
         .battlefield(1, "Mountain", "Mountain", "Mountain", "Mountain").hand(1, "Lava Axe")
         .at("main1", 1).start())
    g.cast(1, "Lava Axe", 0).resolve()
    assert g.life(0) == 27 - 5 and all(o.tapped for o in g.game.battlefield)


def test_902_7_triggered_and_activated_abilities_work_from_the_command_zone() -> None:
    g = (Scene(2, vanguard=True).vanguard(0, "Gerrard").vanguard(1, "Urza")
         .battlefield(1, "Mountain", "Mountain", "Mountain").at("main1", 1).start())
    # Urza: {3}: 1 damage to any target, from the command zone.
    g.activate(1, "Urza", target=0).resolve()
    assert g.life(0) == 19
    assert g.find("activate", "Urza") is None  # the Mountains are tapped now
    # Gerrard: at the beginning of your draw step, draw an additional card.
    before = len(g.game.hand(0))
    g.next_turn(0, "draw")
    assert g.game.stack and g.game.stack[-1].name == "Gerrard"
    g.resolve()
    assert len(g.game.hand(0)) == before + 2
