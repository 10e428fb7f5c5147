"""Hypothesis: random multiplayer games (3-6 players; with and without range of influence,
teams, shared team turns, Emperor, Commander, Two-Headed Giant) with concessions injected at
random moments always end with exactly one outcome per player, consistent with the teams, and
never raise."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from arbiter.server.rules import Act, Concede, GameConfig, PlayerConfig, Table
from arbiter.server.rules.cards.decks import ready_made
from arbiter.server.rules.results import DREW, LOST, WON

CONSTRUCTED = ["gruul-stompy", "azorius-skies", "dimir-control", "boros-lifecycle",
               "quick-red", "quick-green", "quick-infect"]
PLAY_FOR = 4000  # actions of ordinary play before concessions are forced to end the game


@st.composite
def configs(draw: Any) -> GameConfig:
    variant = draw(st.sampled_from(["free_for_all", "team_vs_team", "emperor", "commander",
                                    "two_headed_giant"]))
    if variant == "emperor":
        n = 6
    elif variant == "two_headed_giant":
        n = draw(st.sampled_from([4, 4, 6]))  # teams of two, or of three (CR 810.11)
    elif variant == "commander":
        n = draw(st.integers(3, 5))
    else:
        n = draw(st.integers(3, 6))
    teams = draw(st.integers(2, 3)) if variant == "team_vs_team" else 2
    players = []
    for pid in range(n):
        if variant == "commander":
            deck = ready_made(draw(st.sampled_from(["isamaru-commander", "phage-commander"])))
        else:
            deck = ready_made(draw(st.sampled_from(CONSTRUCTED)))
        extra: dict[str, Any] = {}
        if variant in ("team_vs_team", "two_headed_giant"):
            extra["team"] = pid * teams // n
        if variant == "emperor":
            extra.update(team=pid // 3, emperor=pid % 3 == 1)
        if variant == "commander":
            extra["commander"] = deck.commander
        players.append(PlayerConfig(f"P{pid}", deck.main, deck.sideboard, **extra))
    options: dict[str, Any] = {}
    if variant in ("free_for_all", "team_vs_team") and draw(st.booleans()):
        options["range_of_influence"] = draw(st.integers(1, 2))
    elif variant == "team_vs_team" and draw(st.booleans()):
        options["shared_team_turns"] = True  # CR 805
    if variant == "free_for_all":
        options["attack"] = draw(st.sampled_from(["multiple", "left", "right"]))
    if variant == "commander":
        options["casual_deck_sizes"] = False
    return GameConfig(players=tuple(players), variant=variant, **options)


def _play_to_the_end(config: GameConfig, seed: int, bot_seed: int) -> Table:
    rng = random.Random(bot_seed)
    table = Table(config, seed)
    actions = 0
    while not table.finished:
        in_play = [p for p in range(len(config.players))
                   if any(g.in_game(p) for g in table.games)]
        force = actions >= PLAY_FOR
        if in_play and (force or rng.random() < 0.0007):
            table.apply(Concede(rng.choice(in_play)))
            continue
        d = table.pending
        assert d is not None and table.top.in_game(d.player), "the game froze"
        pick = 0 if d.kind == "priority" and rng.random() < 0.6 else rng.randrange(len(d.actions))
        table.apply(Act(d.player, d.serial, pick))
        actions += 1
    return table


@settings(max_examples=30)
@given(configs(), st.integers(0, 2**32 - 1), st.integers(0, 2**16))
def test_every_player_ends_with_exactly_one_outcome_consistent_with_teams(
        config: GameConfig, seed: int, bot_seed: int) -> None:
    table = _play_to_the_end(config, seed, bot_seed)
    result = table.result
    assert result is not None and not result.restarted
    players = [o.player for o in result.outcomes]
    assert sorted(players) == list(range(len(config.players)))  # one each, nobody twice
    outcome = {o.player: o.outcome for o in result.outcomes}
    assert set(result.winners) == {p for p, o in outcome.items() if o == WON}
    if result.draw:
        assert not result.winners
        assert set(outcome.values()) <= {LOST, DREW}
    else:
        assert result.winners
    if config.team_game:
        team = {p: config.players[p].team for p in players}
        for p in result.winners:
            # Everyone on a winning team wins (CR 104.2c); nobody on another team does.
            assert all(outcome[q] == WON for q in players if team[q] == team[p])
        assert len({team[p] for p in result.winners}) <= 1
    else:
        assert len(result.winners) <= 1
    for o in result.outcomes:
        assert o.rule.startswith(("104", "726", "810")) and o.reason
    if config.giant:  # CR 810.8a: a team wins, loses or draws as one
        assert all(outcome[p] == outcome[q] for p in players for q in players
                   if config.players[p].team == config.players[q].team)
