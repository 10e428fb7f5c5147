"""Hypothesis properties of Planechase, Vanguard and Archenemy games played by random bots
(alone and combined, two-player and multiplayer, with the limited range of influence option
where it applies): games end or reach the action limit without error, replay to the same state
hash, conserve every card (nontraditional ones included) through restarts and subgames, keep
every viewer's incremental view equal to a fresh snapshot (restarts and subgames included),
and never show anyone a card in a library, a planar deck, a scheme deck or another player's
hand that no rule reveals."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from arbiter.server.rules import Act, GameConfig, PlayerConfig, Table
from arbiter.server.rules.cards.decks import ready_made
from arbiter.server.rules.commands import Command
from arbiter.server.rules.game import Event, Game
from arbiter.server.rules.state import HAND, HIDDEN_ZONES, Obj
from arbiter.server.rules.view import OMNISCIENT

from .helpers import Scene
from .lifecycle_play import Bot, Watch, final_census, library, play
from .random_play import (
    ACTION_LIMIT,
    ViewMirror,
    assert_conserved,
    cards_dealt,
    random_play,
    replay,
    revealed_to_all,
)

DECKS = ["gruul-stompy", "azorius-skies", "dimir-control", "boros-lifecycle", "quick-red",
         "quick-green", "quick-infect"]
VANGUARDS = ("Gerrard", "Hanna", "Maraxus", "Serra", "Tahngarth", "Urza")


@st.composite
def variant_configs(draw: Any) -> GameConfig:
    """A Planechase, Vanguard or Archenemy game (or a combination) of ready-made decks."""
    kind = draw(st.sampled_from(["planechase", "vanguard", "archenemy", "all"]))
    archenemy = kind in ("archenemy", "all")
    n = draw(st.integers(3, 4)) if archenemy else draw(st.sampled_from([2, 2, 3, 4]))
    planechase = kind in ("planechase", "all") or (archenemy and draw(st.booleans()))
    vanguard = kind in ("vanguard", "all") or (kind == "planechase" and draw(st.booleans()))
    boss = draw(st.integers(0, n - 1)) if archenemy else -1
    players = []
    for pid in range(n):
        deck = ready_made(draw(st.sampled_from(DECKS)))
        players.append(PlayerConfig(
            f"P{pid}", deck.main, deck.sideboard,
            planar_deck=deck.planar if planechase else (),
            scheme_deck=deck.schemes if pid == boss else (),
            vanguard=deck.vanguard if vanguard else None, archenemy=pid == boss))
    variant = "archenemy" if archenemy else "two_player" if n == 2 else "free_for_all"
    options: dict[str, Any] = {}
    if variant == "free_for_all" and planechase and draw(st.booleans()):
        options["range_of_influence"] = 1  # planes are exempt from it (CR 901.13)
    return GameConfig(players=tuple(players), variant=variant, planechase=planechase,
                      vanguard=vanguard, **options)


cases = st.tuples(variant_configs(), st.integers(0, 2**32 - 1), st.integers(0, 2**16))


@settings(max_examples=16)
@given(cases)
def test_variant_games_end_or_hit_the_limit_and_conserve_cards(case: tuple[Any, ...]) -> None:
    config, seed, bot_seed = case
    dealt = cards_dealt(config)
    table, log = random_play(config, seed, bot_seed, concede_rate=0.002,
                             check=lambda t: assert_conserved(t, dealt))
    assert table.finished or len(log) == ACTION_LIMIT
    if table.finished:
        assert table.result is not None
        assert {o.player for o in table.result.outcomes} == set(range(len(config.players)))


@settings(max_examples=10)
@given(cases)
def test_variant_games_replay_to_the_same_state_hash(case: tuple[Any, ...]) -> None:
    config, seed, bot_seed = case
    table, log = random_play(config, seed, bot_seed, concede_rate=0.002)
    assert replay(config, seed, log).state_hash() == table.state_hash()


def _hidden_from(game: Game, viewer: int) -> set[int]:
    """Objects ``viewer`` may not see: every card in a library, a planar deck or a scheme deck,
    and the cards in hands other than their own and their teammates'."""
    shown = revealed_to_all(game)

    def hidden(o: Obj) -> bool:
        if o.oid in shown:
            return False
        if o.zone in HIDDEN_ZONES:
            return True
        return o.zone == HAND and viewer != OMNISCIENT and viewer not in (
            o.owner, *game.teammates(o.owner))

    return {o.oid for o in game.objects.values() if hidden(o)}


def _secret(game: Game, viewer: int, view: dict[Any, Any]) -> None:
    assert not _hidden_from(game, viewer) & set(view), "a hidden card was shown"
    if game.config.planechase:
        assert view["pc"] == game.planar_controller  # public


def _views(players: int) -> ViewMirror:
    """Every viewer's view kept from dirty keys, with nothing hidden in it."""
    return ViewMirror(players, look=_secret)


@settings(max_examples=8)
@given(cases)
def test_variant_views_converge_and_keep_hidden_cards_hidden(case: tuple[Any, ...]) -> None:
    config, seed, bot_seed = case
    random_play(config, seed, bot_seed, concede_rate=0.002, check=_views(len(config.players)))


def test_the_random_variant_games_do_what_the_properties_are_about() -> None:
    """The properties are only as good as their games: across a fixed set of them, planes
    are planeswalked to, chaos ensues, schemes are set in motion and abandoned, and vanguards
    sit in command zones."""
    seen: set[str] = set()
    for seed in range(6):
        config = _fixed_config(seed)
        table = Table(config, seed)
        rng = random.Random(seed)
        while not table.finished and len(seen) < 5:
            d = table.pending
            assert d is not None
            rolls = [a for a in d.actions if a.kind == "roll_planar_die"]
            pick = rolls[0].id if rolls and rng.random() < 0.5 else (
                0 if d.kind == "priority" and rng.random() < 0.6 else rng.randrange(
                    len(d.actions)))
            for e in table.apply(Act(d.player, d.serial, pick)):
                if e.kind == "planeswalk":
                    seen.add("planeswalk")
                elif e.kind == "planar_die" and e.data["face"] == "chaos":
                    seen.add("chaos")
                elif e.kind == "set_in_motion":
                    seen.add("set in motion")
                elif e.kind == "abandon":
                    seen.add("abandoned")
            if any(o.defn.is_("Vanguard") for o in table.top.command):
                seen.add("vanguard")
    assert seen == {"planeswalk", "chaos", "set in motion", "abandoned", "vanguard"}


def _fixed_config(seed: int) -> GameConfig:
    """Archenemy with Planechase and Vanguard, three players."""
    deck = ready_made(DECKS[seed % 4])
    return GameConfig(players=tuple(PlayerConfig(
        f"P{i}", deck.main, deck.sideboard, planar_deck=deck.planar,
        scheme_deck=deck.schemes if i == 0 else (), vanguard=VANGUARDS[(seed + i) % 6],
        archenemy=i == 0) for i in range(3)), variant="archenemy", planechase=True,
        vanguard=True)


# --------------------------------------------------------------------------- restarts, subgames


def variant_lifecycle_config(players: int, seed: int, sizes: list[int]) -> GameConfig:
    """A Planechase and Vanguard position (an Archenemy one with three or more players) in
    which restarts and subgames are forced in at random moments: the test-only {0} instants
    Second Beginning and Tale Within a Tale in every library and some hands."""
    rng = random.Random(seed)
    archenemy = players >= 3
    scene = Scene(players, variant="archenemy" if archenemy else None, planechase=True,
                  vanguard=True)
    planes = list(ready_made("gruul-stompy").planar)
    for p in range(players):
        extra = ("Second Beginning", "Tale Within a Tale", "Tale Within a Tale",
                 "Second Beginning")
        scene.library(p, *library(rng, sizes[p % len(sizes)], extra))
        rng.shuffle(planes)
        scene.planar_deck(p, *planes[:rng.randrange(3, 8)])
        scene.vanguard(p, VANGUARDS[rng.randrange(len(VANGUARDS))])
        scene.hand(p, *rng.sample(["Lightning Bolt", "Tale Within a Tale", "Second Beginning",
                                   "Grizzly Bears", "Forest", "Mountain"], 3))
        scene.battlefield(p, "Forest", "Mountain")
    scene.plane(rng.randrange(players), "Krosa")
    if archenemy:
        scene.archenemy(0).scheme_deck(0, *ready_made("boros-lifecycle").schemes)
        scene.scheme(0, "The Very Soil Shall Shake")
    scene.at("main1", active=rng.randrange(players), turn=3)
    return scene.build_config()


lifecycle_cases = st.tuples(st.sampled_from([2, 3, 4]), st.integers(0, 2**16),
                            st.lists(st.integers(4, 24), min_size=1, max_size=4),
                            st.integers(0, 2**16), st.integers(1, 6),
                            st.sampled_from([0.0, 0.004]))


@settings(max_examples=40)
@given(lifecycle_cases)
def test_restarts_and_subgames_conserve_every_card_of_the_variants(
        case: tuple[Any, ...]) -> None:
    players, seed, sizes, bot_seed, budget, concede_rate = case
    config = variant_lifecycle_config(players, seed, sizes)
    table = Table(config, seed)
    watch = Watch(table)
    bot = Bot(random.Random(bot_seed), budget=budget, force=0.3, concede_rate=concede_rate)
    views = _views(players)

    def check(t: Table, cmd: Command, events: list[Event]) -> None:
        watch(t, cmd, events)
        views(t)
        for g in t.games:
            # Never more than one plane face up (not Grand Melee), and the face-up one is
            # controlled by the planar controller (CR 901.6).
            face = [o for o in g.command if o.defn.planar]
            assert len(face) <= 1
            if face and g.in_game(face[0].controller):
                assert face[0].controller == g.planar_controller

    play(table, bot, check=check)
    final_census(table, watch.owner)
    assert table.result is not None
    assert {o.player for o in table.result.outcomes} == set(range(players))


@settings(max_examples=12)
@given(lifecycle_cases)
def test_replaying_variant_games_with_restarts_and_subgames_gives_the_same_state(
        case: tuple[Any, ...]) -> None:
    players, seed, sizes, bot_seed, budget, concede_rate = case
    config = variant_lifecycle_config(players, seed, sizes)
    table = Table(config, seed)
    bot = Bot(random.Random(bot_seed), budget=budget, force=0.3, concede_rate=concede_rate)
    play(table, bot)
    assert replay(config, seed, bot.log).state_hash() == table.state_hash()


def test_the_lifecycle_games_reach_subgames_and_restarts_with_the_variants() -> None:
    kinds: set[str] = set()
    for seed in range(10):
        config = variant_lifecycle_config(2 + seed % 3, seed, [8, 20])
        table = Table(config, seed)
        bot = Bot(random.Random(seed), budget=6, force=0.5, concede_rate=0.01)

        def note(t: Table, cmd: Command, events: list[Event]) -> None:
            for e in events:
                if e.kind == "subgame_started":
                    kinds.add("subgame")
                    sub = t.game(e.data["game"])
                    if any(sub.planar_deck(p) for p in sub.seats):
                        kinds.add("planar decks in a subgame")
                elif e.kind == "game_restarted":
                    kinds.add("restart")

        play(table, bot, check=note)
    assert kinds == {"subgame", "planar decks in a subgame", "restart"}
