"""Deck lists, ready-made decks and game configuration validation."""

from __future__ import annotations

import pytest

from arbiter.protocol.errors import Code, Refusal
from arbiter.server.rules import GameConfig, PlayerConfig, Table
from arbiter.server.rules.cards.decks import READY_MADE, parse_deck_list, ready_made
from arbiter.server.rules.config import validate


def test_deck_list_with_sideboard_and_commander() -> None:
    deck = parse_deck_list("""
        # a comment
        Commander: Isamaru, Hound of Konda
        20 Plains
        2x Serra Angel
        Angel's Mercy
        Sideboard:
        3 Hill Giant
    """)
    assert deck.commander == "Isamaru, Hound of Konda"
    assert deck.main.count("Plains") == 20 and deck.main.count("Serra Angel") == 2
    assert "Isamaru, Hound of Konda" in deck.main and len(deck.main) == 24
    assert deck.sideboard == ("Hill Giant",) * 3
    assert parse_deck_list(deck.to_text()) == deck


@pytest.mark.parametrize("text,fragment", [
    ("4 Lightning Bolt\n3 Lightnig Bolt\n", "line 2: unknown card 'Lightnig Bolt'"),
    ("4 Lightning Bolt\n12\n", "line 2: malformed line"),
    ("0 Lightning Bolt\n", "line 1: the count must be between 1 and 250"),
    ("4 Forest\n" + "9" * 5000 + " Forest\n", "line 2: the count must be between 1 and 250"),
    ("251 Forest\n", "line 1: the count must be between 1 and 250"),
    ("Commander:\n", "line 1: the Commander line names no card"),
    ("# nothing\n", "the deck list has no cards"),
    ("Commander: Hill Giant\nCommander: Hill Giant\n", "line 2: a deck has one Commander line"),
    ("1 Genesis Chamber\n", "line 1: unknown card 'Genesis Chamber'"),
])
def test_deck_list_errors_name_the_line(text: str, fragment: str) -> None:
    with pytest.raises(Refusal) as err:
        parse_deck_list(text)
    assert err.value.code is Code.BAD_DECK and fragment in err.value.message
    assert len(err.value.message) < 200  # a pasted wall of text is quoted short


def test_deck_counts_with_leading_zeros_are_read_as_written() -> None:
    deck = parse_deck_list("0004 Forest\n")
    assert deck.main == ("Forest",) * 4


def test_unknown_ready_made_deck() -> None:
    with pytest.raises(Refusal) as err:
        ready_made("mono-purple")
    assert "gruul-stompy" in err.value.message


@pytest.mark.parametrize("name", sorted(READY_MADE))
def test_every_ready_made_deck_starts_a_game(name: str) -> None:
    deck = ready_made(name)
    commander = name.endswith("commander")
    players = tuple(PlayerConfig(f"P{i}", deck.main, deck.sideboard, commander=deck.commander)
                    for i in range(2))
    table = Table(GameConfig(players=players, variant="commander" if commander else
                             "two_player"), 1)
    assert table.pending is not None and table.pending.kind == "mulligan"
    if not name.startswith("quick") and not commander:
        assert len(deck.main) == 60
    if commander:
        assert len(deck.main) == 100


def _p(n: int, **kw: object) -> tuple[PlayerConfig, ...]:
    return tuple(PlayerConfig(f"P{i}", ("Forest",), **kw) for i in range(n))  # type: ignore[arg-type]


@pytest.mark.parametrize("config,fragment", [
    (GameConfig(players=_p(1)), "at least two players"),
    (GameConfig(players=_p(3)), "exactly two players"),
    (GameConfig(players=_p(2), variant="free_for_all"), "needs at least three players"),
    (GameConfig(players=_p(2), variant="planechase"), "Planechase (CR 901) is an option"),
    (GameConfig(players=_p(2), variant="vanguard"), "Vanguard (CR 902) is an option"),
    (GameConfig(players=_p(2), variant="archenemy"), "exactly one archenemy (CR 904.2a)"),
    (GameConfig(players=_p(2), variant="grand_melee"), "needs at least 4 players"),
    (GameConfig(players=_p(2), variant="brawl"), "brawl variant (CR 903.12) is not supported"),
    (GameConfig(players=_p(2), variant="chess"), "unknown variant"),
    (GameConfig(players=_p(2), range_of_influence=1), "multiplayer option"),
    (GameConfig(players=_p(3), variant="free_for_all", range_of_influence=0),
     "at least 1 seat"),
    (GameConfig(players=_p(3), variant="free_for_all", attack="diagonal"),
     "unknown attack option"),
    (GameConfig(players=_p(2), attack="left"), "only to multiplayer"),
    (GameConfig(players=_p(3), variant="free_for_all", deploy_creatures=True),
     "needs a variant with teams"),
    (GameConfig(players=_p(4), variant="team_vs_team"), "needs a team"),
    (GameConfig(players=_p(2), starting_player=5), "player 5 is not in this game"),
    (GameConfig(players=_p(2), starting_player=0, chooser=1), "not both"),
    (GameConfig(players=_p(2), variant="commander"), "needs a commander"),
])
def test_configurations_that_make_no_sense_are_refused(config: GameConfig,
                                                       fragment: str) -> None:
    with pytest.raises(Refusal) as err:
        validate(config)
    assert err.value.code is Code.BAD_CONFIG
    assert fragment in err.value.message


def test_808_1_teams_must_sit_together() -> None:
    players = tuple(PlayerConfig(f"P{i}", ("Forest",), team=i % 2) for i in range(4))
    with pytest.raises(Refusal, match="must sit together"):
        validate(GameConfig(players=players, variant="team_vs_team"))
    validate(GameConfig(players=players, variant="team_vs_team", seating=(0, 2, 1, 3)))


def test_903_4_colour_identity_limits_a_commander_deck() -> None:
    deck = list(ready_made("isamaru-commander").main)
    deck[deck.index("Plains")] = "Forest"  # green is outside Isamaru's white identity
    players = tuple(PlayerConfig(f"P{i}", tuple(deck), commander="Isamaru, Hound of Konda")
                    for i in range(2))
    with pytest.raises(Refusal, match=r"Forest's colour identity \(G\) is outside Isamaru"):
        validate(GameConfig(players=players, variant="commander"))
    # Door to Nothingness's activation cost has every colour: its identity is all five.
    from arbiter.server.rules.cards.pool import POOL
    assert POOL["Door to Nothingness"].color_identity == frozenset("WUBRG")
    assert POOL["Wastes"].color_identity == frozenset()


def test_903_5_commander_decks_are_singleton_and_a_hundred_cards() -> None:
    deck = list(ready_made("isamaru-commander").main)
    deck[deck.index("Plains")] = "Serra Angel"  # a second Serra Angel
    players = tuple(PlayerConfig(f"P{i}", tuple(deck), commander="Isamaru, Hound of Konda")
                    for i in range(2))
    with pytest.raises(Refusal, match="more than one card named Serra Angel"):
        validate(GameConfig(players=players, variant="commander"))
    short = tuple(PlayerConfig(f"P{i}", tuple(deck[:60]), commander="Isamaru, Hound of Konda")
                  for i in range(2))
    with pytest.raises(Refusal, match="has exactly 100"):
        validate(GameConfig(players=short, variant="commander"))
