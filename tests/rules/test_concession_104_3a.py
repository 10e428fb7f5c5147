"""Concession (CR 104.3a) at every kind of moment: with or without priority, on anyone's turn,
while someone (the conceder or another player) is choosing, with the conceder's spell on the
stack. After each, the game is either over with the right result or waiting on a player who is
still in it: it never freezes."""

from __future__ import annotations

import pytest

from arbiter.protocol.errors import Code, Refusal

from .helpers import G, Scene


def live(g: G) -> None:
    """The game is over, or someone still in it is being asked something."""
    if g.table.finished:
        return
    d = g.table.pending
    assert d is not None and g.table.top.in_game(d.player), d
    assert d.actions


def test_104_3a_concede_while_holding_priority_on_your_own_turn() -> None:
    g = Scene().start()
    g.concede(0)
    assert g.outcome(0) == ("lost", "concession") and g.outcome(1) == ("won", "opponents_left")


def test_104_3a_concede_while_opponent_has_priority() -> None:
    g = Scene(3).at("main1", 1).start()
    assert g.decision.player == 1
    g.concede(2)
    live(g)
    assert g.decision.player == 1 and g.decision.kind == "priority"
    g.pass_()
    assert g.decision.player == 0  # player 2 is skipped


def test_104_3a_concede_while_choosing_a_target_for_your_own_spell() -> None:
    g = (Scene(3).battlefield(0, "Mountain").hand(0, "Lightning Bolt").start())
    g.choose("cast", "Cast Lightning Bolt")
    assert g.decision.kind == "target"
    g.concede(0)
    live(g)
    assert g.game.stack == [] and g.decision.player == 1
    assert "Lightning Bolt" in [c.name for c in g.game.departed_cards[0]]


def test_104_3a_concede_while_an_opponent_chooses_you_as_target() -> None:
    g = Scene(3).battlefield(0, *["Mountain"] * 5).hand(0, "Lava Axe").start()
    g.choose("cast", "Cast Lava Axe")
    assert ("p", 2) in {a.ref for a in g.options()}
    g.concede(2)
    live(g)
    assert g.decision.kind == "target" and ("p", 2) not in {a.ref for a in g.options()}
    g.target(1).resolve()
    assert g.life(1) == 15


def test_104_3a_concede_as_the_only_legal_target_unwinds_the_cast() -> None:
    g = (Scene(3).battlefield(0, "Mountain", "Wastes", "Wastes").hand(0, "Act of Treason")
         .battlefield(2, "Hill Giant").start())
    g.choose("cast", "Cast Act of Treason")
    assert [a.label for a in g.options()] == ["Target Hill Giant"]
    g.concede(2)
    live(g)
    # The only legal target left the game: the cast is unwound (CR 730.1), nothing is paid.
    assert g.zone_names("hand", 0) == ["Act of Treason"] and g.game.stack == []
    assert not any(o.tapped for o in g.game.battlefield)
    assert g.decision.player == 0 and g.decision.kind == "priority"


def test_104_3a_concede_while_being_attacked() -> None:
    g = Scene(3).battlefield(0, "Hill Giant", "Grizzly Bears").at("begin_combat").start()
    g.pass_(3)
    g.choose("attack", "Attack B with Hill Giant")
    g.concede(1)
    live(g)
    assert g.decision.kind == "attackers"
    assert all(a.ref != ("p", 1) for a in g.options() if a.kind == "attack")
    assert g.game.attack_plan == []  # the planned attack on the departed player is gone
    g.attack(("Grizzly Bears", 2)).until("combat_damage")
    assert g.life(2) == 18


def test_104_3a_concede_while_declaring_blockers() -> None:
    g = (Scene(3).battlefield(0, "Hill Giant", "Serra Angel").battlefield(1, "Grizzly Bears")
         .battlefield(2, "Assault Griffin").at("begin_combat").start())
    g.pass_(3).attack(("Hill Giant", 1), ("Serra Angel", 2)).pass_(3)
    assert (g.decision.kind, g.decision.player) == ("blockers", 1)
    g.concede(1)
    live(g)
    assert (g.decision.kind, g.decision.player) == ("blockers", 2)
    g.block(2, ("Assault Griffin", "Serra Angel")).until("combat_damage")
    assert g.zone_names("graveyard", 2) == ["Assault Griffin"]


def test_104_3a_concede_as_the_attacker_during_blocks() -> None:
    g = (Scene(3).battlefield(0, "Hill Giant").battlefield(1, "Grizzly Bears")
         .at("begin_combat").start())
    g.pass_(3).attack(("Hill Giant", 1)).pass_(3)
    assert g.decision.kind == "blockers"
    g.concede(0)  # the attacking player leaves: its attacker is gone
    live(g)
    assert g.objs("Hill Giant") == [] and g.decision.kind == "priority"
    assert g.decision.player == 1  # no active player: the next in turn order (800.4j)


def test_104_3a_concede_with_your_spell_on_the_stack() -> None:
    g = Scene(3).battlefield(0, *["Mountain"] * 5).hand(0, "Lava Axe").start()
    g.cast(0, "Lava Axe", 1)
    g.pass_()
    assert g.decision.player == 1
    g.concede(0)
    live(g)
    assert g.game.stack == []  # the spell left the game with its owner
    g.pass_(2)
    assert g.life(1) == 20


def test_104_3a_concede_while_your_own_spell_asks_you_to_choose() -> None:
    g = (Scene(3).battlefield(0, *["Island"] * 5).hand(0, "Bribery")
         .library(1, "Serra Angel", "Forest").start())
    g.cast(0, "Bribery", 1).resolve()
    assert (g.decision.kind, g.decision.player) == ("search", 0)
    g.concede(0)
    live(g)
    assert g.objs("Serra Angel", "battlefield") == []
    assert "Bribery stops resolving: its controller has left the game." in g.log


def test_104_3a_concede_while_another_player_chooses_for_your_spell() -> None:
    g = (Scene(3).battlefield(0, "Karn Liberated", counters={"loyalty": 6})
         .hand(1, "Forest", "Hill Giant").start())
    g.activate(0, "Karn Liberated", "+4", target=1).resolve()
    assert (g.decision.kind, g.decision.player) == ("exile_from_hand", 1)
    g.concede(1)
    live(g)
    assert g.zone_names("exile") == [] and g.decision.player == 0


def test_104_3a_concede_during_the_mulligans() -> None:
    from arbiter.server.rules import GameConfig, PlayerConfig, Table
    from arbiter.server.rules.cards.decks import ready_made

    deck = ready_made("quick-green").main
    t = Table(GameConfig(players=tuple(PlayerConfig(f"P{i}", deck) for i in range(4)),
                         variant="free_for_all", starting_player=0), 11)
    assert t.pending is not None and (t.pending.kind, t.pending.player) == ("mulligan", 0)
    t.concede(1)  # someone else, while player 0 decides
    assert t.pending is not None and t.pending.player == 0
    t.concede(0)  # the player deciding
    assert t.pending is not None and (t.pending.kind, t.pending.player) == ("mulligan", 2)
    assert not t.finished


def test_104_3a_concede_while_discarding_in_cleanup() -> None:
    g = Scene(3).hand(0, *["Forest"] * 9).at("end").start()
    g.pass_(3)
    assert g.decision.kind == "discard"
    g.concede(0)
    live(g)
    assert g.game.active == 1 or g.game.step != "cleanup"


def test_104_3a_concede_while_an_opponent_applies_the_legend_rule() -> None:
    g = (Scene(3).battlefield(0, "Isamaru, Hound of Konda", "Plains")
         .hand(0, "Isamaru, Hound of Konda").start())
    g.cast(0, "Isamaru, Hound of Konda").pass_(3)
    assert g.decision.kind == "legend_rule"
    g.concede(2)
    live(g)
    assert g.decision.kind == "legend_rule" and g.decision.player == 0


def test_104_3a_conceding_in_turn_ends_the_game_for_the_last_one_standing() -> None:
    g = Scene(3).start()
    g.concede(1)
    g.concede(2)
    assert g.outcome(0) == ("won", "opponents_left")
    assert g.table.pending is None


def test_104_3a_a_player_who_has_left_cannot_concede_again() -> None:
    g = Scene(3).start()
    g.concede(1)
    with pytest.raises(Refusal) as err:
        g.table.concede(1)
    assert err.value.code is Code.NOT_IN_GAME
    with pytest.raises(Refusal) as err:
        g.table.concede(0, 99)
    assert err.value.code is Code.UNKNOWN_GAME
