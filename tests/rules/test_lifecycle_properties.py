"""Properties of the table's stack of games (CR 724, 726) under random play.

Random bots play games in which restarts and subgames are forced in at random moments: the real
Karn Liberated (at 14 loyalty) and Shahrazad, and the test-only {0} instants Second Beginning
(restart) and Tale Within a Tale (subgame), which can strike mid-combat, in response to a spell,
inside a subgame or inside a restarted subgame. Bots take these actions only while a per-game
budget lasts, and after a soft action limit they start conceding, so every game ends.

Checked after every command: the stack of games is well formed (each subgame sits on its main
game; only the top game runs, CR 726.1a), every physical card is in exactly one place (in one
game, outside the game, or gone with a player who left) with its owner unchanged, and a
suspended game changes only through a concession made in it or a card a subgame takes from it
(CR 726.4a). At the end every card is in the main game, outside it, or with a departed player.
Separately, a main game suspended by Shahrazad resumes with nothing changed but what CR 726.5
says: its libraries (the cards come back, shuffled), the life lost to Shahrazad, and Shahrazad
itself finishing."""

from __future__ import annotations

import hashlib
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from arbiter.server.rules import Act, Concede, GameConfig, Table
from arbiter.server.rules.commands import Command
from arbiter.server.rules.game import Event, Game
from arbiter.server.rules.hashing import _effect, _obj, game_state
from arbiter.server.rules.state import LIBRARY, STACK

from .helpers import Scene
from .lifecycle_play import Bot, Watch, final_census, library, lifecycle_config, play
from .random_play import replay

cases = st.tuples(st.sampled_from([2, 2, 3, 4]), st.integers(0, 2**16),
                  st.lists(st.integers(4, 24), min_size=1, max_size=4),
                  st.integers(0, 2**16), st.integers(1, 6), st.sampled_from([0.0, 0.004]))


@settings(max_examples=120)
@given(cases)
def test_forced_restarts_and_subgames_never_raise_always_end_and_conserve_cards(
        case: tuple[Any, ...]) -> None:
    players, seed, sizes, bot_seed, budget, concede_rate = case
    config = lifecycle_config(players, seed, sizes)
    table = Table(config, seed)
    watch = Watch(table)
    bot = Bot(random.Random(bot_seed), budget=budget, force=0.3, concede_rate=concede_rate)
    play(table, bot, check=watch)
    final_census(table, watch.owner)
    assert table.result is not None
    assert {o.player for o in table.result.outcomes} == set(range(players))


@settings(max_examples=25)
@given(cases)
def test_replaying_a_game_full_of_restarts_and_subgames_gives_the_same_state(
        case: tuple[Any, ...]) -> None:
    players, seed, sizes, bot_seed, budget, concede_rate = case
    config = lifecycle_config(players, seed, sizes)
    table = Table(config, seed)
    bot = Bot(random.Random(bot_seed), budget=budget, force=0.3, concede_rate=concede_rate)
    play(table, bot)
    assert replay(config, seed, bot.log).state_hash() == table.state_hash()


def test_the_random_games_do_reach_restarts_nested_subgames_and_restarted_subgames() -> None:
    """The property above is only as good as what its games do: across a fixed set of games,
    restarts, subgames, subgames of subgames and restarted subgames all happen, and players
    concede the main game from inside a subgame."""
    seen: set[str] = set()
    for seed in range(12):
        config = lifecycle_config(2 + seed % 3, seed, [8, 20])
        table = Table(config, seed)
        bot = Bot(random.Random(seed), budget=6, force=0.5, concede_rate=0.01)
        depth = [0]

        def note(t: Table, cmd: Command, events: list[Event], depth: list[int] = depth
                 ) -> None:
            if isinstance(cmd, Concede) and cmd.game == t.main.number and depth[0]:
                seen.add("main game conceded from a subgame")
            depth[0] = len(t.games) - 1
            for e in events:
                if e.kind == "subgame_started":
                    seen.add("subgame")
                    if e.data["depth"] >= 2:
                        seen.add("nested subgame")
                elif e.kind == "game_restarted":
                    seen.add("restarted subgame" if e.data["depth"] else "restart")

        play(table, bot, check=note)
    assert seen == {"subgame", "nested subgame", "restart", "restarted subgame",
                    "main game conceded from a subgame"}


# --------------------------------------------------------------------------- suspend/resume


def _minus_726_5(g: Game, shahrazad: int) -> str:
    """The main game's state hash without what CR 726.5 changes when a subgame ends: the
    libraries, the random generator that shuffles them, life totals, the Shahrazad that
    finishes resolving, and the bookkeeping of whose priority it is."""
    parts: list[Any] = [g.number, g.depth, tuple(g.seats), g.turn, g.active, g.step,
                        g.starting_player]
    for p, ps in sorted(g.players.items()):
        parts.append((p, ps.in_game, ps.poison, sorted(ps.mana.items()), ps.drew_from_empty,
                      ps.mulligans, ps.kept, sorted(ps.commander_damage.items()),
                      sorted(ps.commander_casts.items()), tuple(ps.spells_cast),
                      ps.turn_started))
    for (zone, owner), objs in sorted(g.zones.items(), key=lambda kv: repr(kv[0])):
        if zone != LIBRARY:
            parts.append((zone, owner, tuple(_obj(o) for o in objs
                                             if o.card is None or o.card.cid != shahrazad)))
    parts.append(tuple(_effect(e) for e in g.effects))
    parts.append(tuple((t.ability_index, t.controller) for t in g.pending_triggers))
    parts.append(tuple(sorted((p, o.outcome, o.reason) for p, o in g.outcomes.items())))
    parts.append(tuple(sorted((p, tuple(c.cid for c in cs))
                              for p, cs in g.departed_cards.items())))
    parts.append((tuple(sorted(g.lands_played.items())), tuple(g.attack_plan),
                  tuple(g.block_plan)))
    return hashlib.blake2b(repr(parts).encode(), digest_size=16).hexdigest()


def suspend_config(seed: int, lives: list[int]) -> GameConfig:
    """A main game with a bit of everything on it (tapped and damaged permanents, counters,
    a control-changing effect, cards in every zone, poison), where player 0 casts Shahrazad."""
    rng = random.Random(seed)
    scene = (Scene(2).battlefield(0, *["Plains"] * 4, *["Mountain"] * 4)
             .battlefield(0, "Hill Giant", tapped=True)
             .battlefield(0, "Karn Liberated", counters={"loyalty": 5})
             .battlefield(1, "Serra Angel", "Grizzly Bears", "Breezekeeper")
             .battlefield(1, "Celestial Convergence", counters={"omen": 3})
             .hand(0, "Shahrazad", "Act of Treason", "Lightning Bolt")
             .hand(1, "Divination", "Lightning Bolt").graveyard(0, "Runeclaw Bear")
             .graveyard(1, "Lava Axe").exile(1, "Hill Giant").poison(1, 3)
             .life(0, lives[0]).life(1, lives[1]))
    for p in (0, 1):
        extra = ("Tale Within a Tale", "Second Beginning", "Second Beginning")
        scene.library(p, *library(rng, rng.randrange(8, 24), extra))
    return scene.build_config()


@settings(max_examples=60)
@given(st.integers(0, 2**16), st.lists(st.integers(2, 40), min_size=2, max_size=2),
       st.integers(0, 2**16), st.integers(0, 4))
def test_a_suspended_main_game_resumes_changed_only_as_726_5_says(
        seed: int, lives: list[int], bot_seed: int, budget: int) -> None:
    table = Table(suspend_config(seed, lives), seed)
    main = table.main
    d = table.pending
    assert d is not None
    # Some main-game history first: Act of Treason on the Serra Angel (a control effect with
    # a duration), a Lightning Bolt on the Grizzly Bears (damage), then Shahrazad.
    for label, target in (("Cast Act of Treason", "Serra Angel"),
                          ("Cast Lightning Bolt", "Grizzly Bears"), ("Cast Shahrazad", None)):
        _act(table, label)
        if target is not None:
            _act(table, target)
        while table.top is main and main.stack:
            _act(table, "Pass priority")
    assert table.top is not main, "Shahrazad did not start a subgame"
    shahrazad = next(o.card.cid for o in main.stack if o.card is not None)
    assert [o.name for o in main.stack if o.zone == STACK] == ["Shahrazad"]
    before = _minus_726_5(main, shahrazad)
    suspended = game_state(main)
    libraries = {p: {o.card.cid for o in table.top.objects.values() if o.owner == p and o.card}
                 for p in (0, 1)}
    life = {p: main.players[p].life for p in (0, 1)}

    def unchanged(t: Table, cmd: Command, events: list[Event]) -> None:
        if t.top is not main:
            assert game_state(main) == suspended  # CR 726.1a

    bot = Bot(random.Random(bot_seed), budget=budget, force=0.3, concede_rate=0.003,
              main_concessions=False)
    play(table, bot, check=unchanged, until=lambda t: t.top is main)
    result = table.history[-1]  # the subgame Shahrazad started (or its last restart)
    assert not result.restarted and result.game != main.number
    # What CR 726.5 changes, exactly:
    for p in (0, 1):
        # every card of the subgame is back in its owner's main-game library ...
        assert {o.card.cid for o in main.library(p)} == libraries[p]
        # ... and Shahrazad made each player who didn't win lose half their life.
        lost = 0 if p in result.winners else -(-life[p] // 2)
        assert main.players[p].life == life[p] - lost
    assert shahrazad in {o.card.cid for o in main.graveyard(0)}
    # And nothing else.
    assert _minus_726_5(main, shahrazad) == before


def _act(table: Table, label: str) -> None:
    d = table.pending
    assert d is not None
    a = next((a for a in d.actions if a.label.startswith(label) or label in a.label), None)
    assert a is not None, (label, [x.label for x in d.actions])
    table.apply(Act(d.player, d.serial, a.id))
