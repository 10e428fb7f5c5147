"""Issue 25's bot games: a two-player and a four-player game of each ready-made Magic 2010
deck, played to its end by the heuristic bots and by the random bots, in-process as
``arbiter demo`` and bench/engine.py play them (arbiter/server/local.py).

Every game must end by the rules (CR 104: a player wins when every opponent has left,
104.2a, after each of them lost, 104.3) or by the draw the bots agree to after their stall
policy (104.4i), with an outcome for each player; no decision may come with no action (the
random bot would stall on it), the engine may raise nothing, and no card is created or lost
on the way. The whole file takes a few seconds: 24 games of a few hundred to a few thousand
actions each."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from arbiter.bots import DEFAULT_ROUNDS, STRATEGIES
from arbiter.server.local import play_local
from arbiter.server.rules import GameConfig, PlayerConfig, Table
from arbiter.server.rules.cards.decks import READY_MADE, ready_made
from arbiter.server.rules.results import DREW, LOST, REASON_RULES, WON

from .random_play import assert_conserved, cards_dealt

M10_DECKS = sorted(d for d in READY_MADE if d.startswith("m10-"))
MAX_ACTIONS = 20_000  # a backstop only: the games below end in a few thousand at most


def m10_config(decks: list[str]) -> GameConfig:
    """``decks`` seated in order: two-player for two, Free-for-All for more."""
    return GameConfig(
        players=tuple(PlayerConfig(f"P{i}", ready_made(d).main, ready_made(d).sideboard)
                      for i, d in enumerate(decks)),
        variant="two_player" if len(decks) == 2 else "free_for_all")


def table_of(deck: str, players: int) -> list[str]:
    """``deck`` in seat 0, the next decks of the set (in name order) in the other seats, so
    that each deck meets each other deck across the games."""
    first = M10_DECKS.index(deck)
    return [M10_DECKS[(first + k) % len(M10_DECKS)] for k in range(players)]


def test_there_are_six_ready_made_m10_decks_of_sixty_cards() -> None:
    assert len(M10_DECKS) == 6
    assert all(len(ready_made(d).main) >= 60 for d in M10_DECKS)


def _watch(dealt: int) -> tuple[list[int], Callable[[Table], None]]:
    """Checks after every action: each card in exactly one zone, and a decision with at least
    one action for whoever must decide next (else the random bot, which picks among the
    actions, would stall)."""
    seen = [0]

    def check(table: Table) -> None:
        assert_conserved(table, dealt)
        if not table.finished:
            assert table.pending is not None and table.pending.actions, table.pending
        seen[0] += 1

    return seen, check


@pytest.mark.parametrize("strategy", ["heuristic", "random"])
@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("deck", M10_DECKS)
def test_104_m10_deck_game_played_by_bots_ends_with_an_outcome_for_each_player(
        deck: str, players: int, strategy: str) -> None:
    config = m10_config(table_of(deck, players))
    seen, check = _watch(cards_dealt(config))
    table, applied = play_local(config, 1, [STRATEGIES[strategy]] * players, bot_seed=1,
                                max_actions=MAX_ACTIONS, needs_view=strategy != "random",
                                draw_after=DEFAULT_ROUNDS, on_action=check)
    assert table.finished and applied < MAX_ACTIONS and seen[0] == applied
    result = table.result
    assert result is not None and not result.restarted
    assert [o.player for o in sorted(result.outcomes, key=lambda o: o.player)] == \
        list(range(players))
    for o in result.outcomes:
        assert o.outcome in (WON, LOST, DREW) and REASON_RULES[o.reason] == o.rule
    game = table.top
    if result.draw:  # only the bots' agreement ends these games in a draw (CR 104.4i)
        assert not result.winners and {o.reason for o in result.outcomes} == {"agreement"}
        return
    # One winner, everyone else lost (CR 104.2a); a player who lost on life has none left
    # (CR 104.3b, 704.5a).
    assert len(result.winners) == 1
    (winner,) = result.winners
    assert result.outcome_of(winner).reason == "opponents_left"  # type: ignore[union-attr]
    for o in result.outcomes:
        if o.player != winner:
            assert o.outcome == LOST
            if o.reason == "life":
                assert game.players[o.player].life <= 0
