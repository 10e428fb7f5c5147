"""Starting the game (CR 103) with real decks, not scenarios."""

from __future__ import annotations

from arbiter.server.rules import GameConfig, PlayerConfig, Table
from arbiter.server.rules.cards.decks import ready_made

QUICK = ready_made("quick-green")


def _players(n: int, deck: tuple[str, ...] = QUICK.main, **kw: object) -> tuple[PlayerConfig, ...]:
    return tuple(PlayerConfig(f"P{i}", deck, **kw) for i in range(n))  # type: ignore[arg-type]


def _table(n: int = 2, seed: int = 0, **config: object) -> Table:
    variant = "two_player" if n == 2 else "free_for_all"
    players = config.pop("players", None) or _players(n)
    return Table(GameConfig(players=players, variant=variant, **config), seed)  # type: ignore[arg-type]


def _keep_all(t: Table) -> None:
    while t.pending is not None and t.pending.kind == "mulligan":
        d = t.pending
        t.act(d.player, d.serial, next(a.id for a in d.actions if a.kind == "keep"))


def _mulligan(t: Table) -> None:
    d = t.pending
    assert d is not None and d.kind == "mulligan"
    t.act(d.player, d.serial, next(a.id for a in d.actions if a.kind == "mulligan"))


def _keep(t: Table) -> None:
    d = t.pending
    assert d is not None and d.kind == "mulligan"
    t.act(d.player, d.serial, next(a.id for a in d.actions if a.kind == "keep"))


def test_103_1_starting_player_is_chosen_at_random_from_the_seed() -> None:
    starters = {_table(seed=s).main.starting_player for s in range(20)}
    assert starters == {0, 1}
    assert _table(seed=7).main.starting_player == _table(seed=7).main.starting_player


def test_103_1_a_configured_starting_player_goes_first() -> None:
    for pid in (0, 1, 2):
        assert _table(3, seed=pid, starting_player=pid).main.starting_player == pid


def test_103_1_in_a_match_the_chooser_picks_who_plays_first() -> None:
    t = _table(3, chooser=1)
    d = t.pending
    assert d is not None and (d.kind, d.player) == ("starting_player", 1)
    pick = next(a for a in d.actions if a.ref == ("p", 2))
    t.act(1, d.serial, pick.id)
    assert t.main.starting_player == 2
    assert t.pending is not None and (t.pending.kind, t.pending.player) == ("mulligan", 2)


def test_103_2_103_2a_sideboards_are_set_aside_outside_the_game() -> None:
    side = ("Hill Giant", "Serra Angel")
    t = _table(players=_players(2, sideboard=side))
    g = t.main
    for pid in (0, 1):
        assert [c.name for c in t.outside[pid]] == list(side)
        names = [o.name for o in g.objects.values() if o.owner == pid]
        assert "Hill Giant" not in names and "Serra Angel" not in names


def test_103_2c_commanders_start_in_the_command_zone() -> None:
    deck = ready_made("isamaru-commander")
    players = tuple(PlayerConfig(f"P{i}", deck.main, commander=deck.commander)
                    for i in range(2))
    t = Table(GameConfig(players=players, variant="commander"), 1)
    g = t.main
    for pid in (0, 1):
        cmd = [o for o in g.command if o.owner == pid]
        assert [o.name for o in cmd] == ["Isamaru, Hound of Konda"] and cmd[0].is_commander
        assert len(g.library(pid)) + len(g.hand(pid)) == 99


def test_103_3_each_deck_is_shuffled_into_a_library() -> None:
    deck = ready_made("gruul-stompy").main
    orders = set()
    for seed in range(5):
        t = _table(players=_players(2, deck), seed=seed)
        orders.add(tuple(o.name for o in t.main.library(0)))
        assert len(t.main.library(0)) == len(deck) - 7
    assert len(orders) == 5  # five seeds, five different orders


def test_103_4_players_start_at_20_life() -> None:
    t = _table(4)
    assert [t.main.players[p].life for p in range(4)] == [20, 20, 20, 20]


def test_103_4c_commander_players_start_at_40_life() -> None:
    deck = ready_made("phage-commander")
    players = tuple(PlayerConfig(f"P{i}", deck.main, commander=deck.commander)
                    for i in range(3))
    t = Table(GameConfig(players=players, variant="commander"), 2)
    assert {t.main.players[p].life for p in range(3)} == {40}


def test_103_5_everyone_draws_seven_then_declares_in_turn_order_from_the_starter() -> None:
    t = _table(3, starting_player=1)
    g = t.main
    assert [len(g.hand(p)) for p in range(3)] == [7, 7, 7]
    seen = []
    while t.pending is not None and t.pending.kind == "mulligan":
        seen.append(t.pending.player)
        _keep(t)
    assert seen == [1, 2, 0]


def test_103_5_a_mulligan_redraws_seven_and_bottoms_one_per_mulligan() -> None:
    t = _table(2, starting_player=0)
    g = t.main
    before = {o.oid for o in g.hand(0)}
    _mulligan(t)  # player 0
    _keep(t)  # player 1 keeps; mulligans then happen together
    assert {o.oid for o in g.hand(0)}.isdisjoint(before)  # a new hand of new objects
    d = t.pending
    assert d is not None and (d.kind, d.player) == ("bottom", 0)
    assert len(g.hand(0)) == 7
    card = g.objects[d.actions[0].obj]  # type: ignore[index]
    t.act(0, d.serial, d.actions[0].id)
    assert len(g.hand(0)) == 6 and g.library(0)[0].name == card.name  # on the bottom
    assert t.pending is not None and (t.pending.kind, t.pending.player) == ("mulligan", 0)
    _mulligan(t)
    for _ in range(2):
        d = t.pending
        assert d is not None and d.kind == "bottom"
        t.act(0, d.serial, d.actions[0].id)
    assert len(g.hand(0)) == 5
    _keep(t)
    assert g.players[0].mulligans == 2


def test_103_5_no_mulligan_below_an_empty_hand() -> None:
    t = _table(2, starting_player=0)
    for taken in range(1, 8):
        _mulligan(t)
        if taken == 1:
            _keep(t)  # player 1 keeps at once
        while t.pending is not None and t.pending.kind == "bottom":
            d = t.pending
            t.act(0, d.serial, d.actions[0].id)
        assert len(t.main.hand(0)) == 7 - taken
    # With no cards left, no further mulligan is offered: the first turn begins.
    assert t.pending is not None and t.pending.kind == "priority"
    assert t.main.players[0].mulligans == 7


def test_103_5c_800_6_the_first_mulligan_is_free_in_multiplayer() -> None:
    t = _table(4, starting_player=0)
    g = t.main
    _mulligan(t)
    for _ in range(3):
        _keep(t)
    # The free mulligan: seven new cards, nothing to bottom, and another declaration.
    assert len(g.hand(0)) == 7
    assert t.pending is not None and (t.pending.kind, t.pending.player) == ("mulligan", 0)
    _mulligan(t)
    d = t.pending
    assert d is not None and d.kind == "bottom"  # the second one counts
    t.act(0, d.serial, d.actions[0].id)
    assert len(g.hand(0)) == 6


def test_103_8_103_8a_the_starter_takes_the_first_turn_and_skips_its_draw() -> None:
    t = _table(2, starting_player=1)
    _keep_all(t)
    g = t.main
    assert (g.turn, g.active, g.step) == (1, 1, "upkeep")
    hand = len(g.hand(1))
    while g.step != "main1":
        d = t.pending
        assert d is not None
        t.act(d.player, d.serial, 0)
    assert len(g.hand(1)) == hand  # no draw on the first turn of a two-player game
    assert any("skips the first draw" in e.text for e in t.drain_events())


def test_103_8c_800_7_nobody_skips_the_first_draw_in_multiplayer() -> None:
    t = _table(3, starting_player=2)
    _keep_all(t)
    g = t.main
    hand = len(g.hand(2))
    while g.step != "main1":
        d = t.pending
        assert d is not None
        t.act(d.player, d.serial, 0)
    assert g.active == 2 and len(g.hand(2)) == hand + 1
