"""Hypothesis properties of whole games played by random bots (the invariants of
docs/architecture.md: determinism, convergence, conservation): games end (or reach the action
limit) without error, replaying the same commands gives the same state hash, no card is
created, lost or duplicated, and every viewer's incrementally kept view equals a fresh snapshot
after every action."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from arbiter.server.rules import GameConfig, PlayerConfig, Table
from arbiter.server.rules.cards.decks import READY_MADE, ready_made
from arbiter.server.rules.state import HAND, LIBRARY
from arbiter.server.rules.view import OMNISCIENT

from .random_play import (
    ACTION_LIMIT,
    ViewMirror,
    assert_conserved,
    assert_replays_and_conserves,
    cards_dealt,
    random_play,
    replay,
    revealed_to_all,
)

CONSTRUCTED = sorted(d for d in READY_MADE if "commander" not in d)


def _config(players: int, decks: list[str]) -> GameConfig:
    return GameConfig(
        players=tuple(PlayerConfig(f"P{i}", ready_made(d).main, ready_made(d).sideboard)
                      for i, d in enumerate(decks[:players])),
        variant="two_player" if players == 2 else "free_for_all")


def _games(decks: list[str]) -> st.SearchStrategy[tuple[Any, ...]]:
    """Two or four players, four decks drawn from ``decks`` (the first ones seated), a seed
    for the table and one for the bots."""
    return st.tuples(st.sampled_from([2, 4]), st.lists(st.sampled_from(decks), min_size=4,
                                                        max_size=4),
                     st.integers(0, 2**32 - 1), st.integers(0, 2**16))


games = _games(CONSTRUCTED)


@settings(max_examples=12)
@given(games)
def test_random_games_end_or_hit_the_limit_and_conserve_cards(case: tuple[Any, ...]) -> None:
    players, decks, seed, bot_seed = case
    config = _config(players, decks)
    dealt = cards_dealt(config)
    table, log = random_play(config, seed, bot_seed, concede_rate=0.002,
                             check=lambda t: assert_conserved(t, dealt))
    assert table.finished or len(log) == ACTION_LIMIT
    if table.finished:
        assert table.result is not None
        assert {o.player for o in table.result.outcomes} == set(range(players))


@settings(max_examples=8)
@given(games)
def test_replaying_the_same_commands_gives_the_same_state_hash(case: tuple[Any, ...]) -> None:
    players, decks, seed, bot_seed = case
    config = _config(players, decks)
    table, log = random_play(config, seed, bot_seed, concede_rate=0.002)
    assert replay(config, seed, log).state_hash() == table.state_hash()
    other = Table(config, seed + 1)
    assert other.state_hash() != Table(config, seed).state_hash()


@settings(max_examples=6)
@given(games)
def test_incremental_views_equal_fresh_snapshots(case: tuple[Any, ...]) -> None:
    players, decks, seed, bot_seed = case
    config = _config(players, decks)
    mirror = ViewMirror(players)
    random_play(config, seed, bot_seed, concede_rate=0.002, check=mirror)
    assert mirror.compared


# --------------------------------------------------------------------------- secrecy

# Magic 2010's library and hand cards (Ponder, Telepathy, Duress, Vampire Nocturnus, the
# searches, Warp World...), four of the ones that reveal, on the four basic colours' lands.
_LIBRARY_SPELLS = ("Ponder", "Sage Owl", "Fabricate", "Diabolic Tutor", "Duress",
                   "Burning Inquiry", "Haunting Echoes", "Sphinx Ambassador", "Lurking Predators",
                   "Mirror of Fate", "Borderland Ranger", "Rampant Growth", "Terramorphic Expanse",
                   "Elvish Piper", "Merfolk Looter", "Yawning Fissure", "Tome Scour", "Warp World",
                   "Polymorph")
LIBRARY_DECK = (*("Island", "Swamp", "Forest", "Mountain") * 6, *_LIBRARY_SPELLS * 2,
                *("Telepathy", "Vampire Nocturnus") * 4)


def _library_config(players: int) -> GameConfig:
    return GameConfig(players=tuple(PlayerConfig(f"P{i}", LIBRARY_DECK) for i in range(players)),
                      variant="two_player" if players == 2 else "free_for_all")


def _exactly_what_the_rules_reveal(game: Any, viewer: int, view: dict[Any, Any]) -> None:
    """A viewer sees a card in a library only while a rule reveals it to everyone, another
    player's hand card only while one does (and every such card, for every viewer)."""
    shown = revealed_to_all(game)
    for o in game.objects.values():
        own = viewer in (OMNISCIENT, o.owner, *game.teammates(o.owner))
        if o.zone == LIBRARY or (o.zone == HAND and not own):
            assert (o.oid in view) == (o.oid in shown), (o.name, o.zone, viewer)


@settings(max_examples=10)
@given(st.sampled_from([2, 3]), st.integers(0, 2**32 - 1), st.integers(0, 2**16))
def test_library_and_hand_cards_show_a_viewer_exactly_what_the_rules_reveal(
        players: int, seed: int, bot_seed: int) -> None:
    config = _library_config(players)
    dealt = cards_dealt(config)
    mirror = ViewMirror(players, look=_exactly_what_the_rules_reveal)

    def check(table: Table) -> None:
        assert_conserved(table, dealt)
        mirror(table)

    table, log = random_play(config, seed, bot_seed, concede_rate=0.002, check=check)
    assert mirror.compared and (table.finished or len(log) == ACTION_LIMIT)
    assert replay(config, seed, log).state_hash() == table.state_hash()


def test_the_library_games_reveal_hands_and_top_cards() -> None:
    """The property is only as good as its games: across a fixed set of them, hands and top
    cards are revealed and cards are looked at and ordered."""
    seen: set[str] = set()

    def watch(table: Table) -> None:
        game = table.top
        shown = revealed_to_all(game)
        seen.update(f"revealed {game.objects[oid].zone}" for oid in shown)
        if table.pending is not None:
            seen.add(table.pending.kind)

    for seed in (0, 6):
        random_play(_library_config(2), seed, seed, check=watch)
    assert {"revealed hand", "revealed library", "order", "search", "sacrifice"} <= seen


# --------------------------------------------------------------------------- Magic 2010

# The same invariants over games of the six ready-made Magic 2010 decks alone (issue 25):
# their Auras, Equipment, tokens (Siege-Gang Commander, Ant Queen, Garruk, Master of the Wild
# Hunt) and planeswalkers come and go, Duress, Mind Rot, Sage Owl, Ponder and Jace look at and
# reveal hidden cards, and Time Warp takes extra turns. A token is no card: the census counts
# cards only, so each dealt card stays in exactly one zone while tokens appear and vanish.
M10_DECKS = sorted(d for d in READY_MADE if d.startswith("m10-"))

m10_games = _games(M10_DECKS)


@settings(max_examples=8)
@given(m10_games)
def test_m10_games_conserve_cards_and_replay_to_the_same_state_hash(case: tuple[Any, ...]
                                                                    ) -> None:
    players, decks, seed, bot_seed = case
    table, log = assert_replays_and_conserves(_config(players, decks), seed, bot_seed)
    assert table.finished or len(log) == ACTION_LIMIT


@settings(max_examples=5)
@given(m10_games)
def test_m10_games_views_converge_and_show_exactly_what_the_rules_reveal(
        case: tuple[Any, ...]) -> None:
    players, decks, seed, bot_seed = case
    mirror = ViewMirror(players, look=_exactly_what_the_rules_reveal)
    random_play(_config(players, decks), seed, bot_seed, concede_rate=0.002, check=mirror)
    assert mirror.compared and mirror.patches  # the replicas followed patch ops too


def test_the_m10_games_make_tokens_look_at_libraries_and_take_hand_cards() -> None:
    """The M10 properties are only as good as their games: across a fixed set of them, tokens
    are created and leave, libraries are searched or ordered, and a player picks a card from
    another's hand (Duress)."""
    seen: set[str] = set()

    def watch(table: Table) -> None:
        game = table.top
        if any(o.is_token for o in game.objects.values()):
            seen.add("token")
        if table.pending is not None:
            seen.add(table.pending.kind)

    for seed in range(4):
        random_play(_config(2, ["m10-black-control", "m10-blue-skies"] * 2), seed, seed,
                    check=watch)
        random_play(_config(2, ["m10-red-burn", "m10-green-stompy"] * 2), seed, seed,
                    check=watch)
    assert {"token", "order", "search", "choose_discard", "target", "x"} <= seen, seen
