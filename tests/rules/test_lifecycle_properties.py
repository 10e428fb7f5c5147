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
from dataclasses import dataclass, field
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from arbiter.server.rules import Act, Concede, GameConfig, Table
from arbiter.server.rules.cards.decks import ready_made
from arbiter.server.rules.commands import Command
from arbiter.server.rules.game import Event, Game
from arbiter.server.rules.hashing import _effect, _obj, game_state
from arbiter.server.rules.state import LIBRARY, STACK

from .helpers import Scene, giant_scene

RESTARTS = ("Cast Second Beginning", "Karn Liberated: \u221214")
SUBGAMES = ("Cast Tale Within a Tale", "Cast Shahrazad")
LIFECYCLE = RESTARTS + SUBGAMES
QUICK = ("quick-red", "quick-green", "quick-infect")
SOFT_LIMIT = 500


def _is_lifecycle(label: str) -> bool:
    return any(label.startswith(x) for x in LIFECYCLE)


@dataclass
class Bot:
    """Random legal choices; lifecycle actions only while the budget lasts."""

    rng: random.Random
    budget: int
    force: float  # chance of taking an available lifecycle action
    concede_rate: float
    main_concessions: bool = True
    log: list[Command] = field(default_factory=list)

    def command(self, table: Table) -> Command:
        if len(self.log) >= SOFT_LIMIT or (self.concede_rate
                                           and self.rng.random() < self.concede_rate):
            return self._concession(table, soft=len(self.log) >= SOFT_LIMIT)
        d = table.pending
        assert d is not None, "nobody is asked anything but the table isn't finished"
        special = [a for a in d.actions if _is_lifecycle(a.label)]
        if special and self.budget > 0 and self.rng.random() < self.force:
            self.budget -= 1
            return Act(d.player, d.serial, self.rng.choice(special).id)
        ordinary = [a for a in d.actions if not _is_lifecycle(a.label)]
        if not ordinary:  # only a lifecycle action is offered; nothing else can be chosen
            return Act(d.player, d.serial, d.actions[0].id)
        passing = [a for a in ordinary if a.kind in ("pass", "keep", "done")]
        if passing and self.rng.random() < 0.55:
            return Act(d.player, d.serial, passing[0].id)
        return Act(d.player, d.serial, self.rng.choice(ordinary).id)

    def _concession(self, table: Table, *, soft: bool) -> Command:
        top = table.top
        player = self.rng.choice(top.players_in_game() or table.main.players_in_game())
        games = [g.number for g in table.games if g.in_game(player)]
        if not self.main_concessions:
            games = [top.number]
        # Past the soft limit, concede the main game: every concession takes a player out
        # of everything, so the table must finish.
        number = table.main.number if soft and self.main_concessions else \
            self.rng.choice(games)
        return Concede(player, number)


def play(table: Table, bot: Bot, check: Any = None, until: Any = None) -> None:
    """Play until the table finishes (or ``until(table)``); ``check(table, cmd, events)``
    runs after every command."""
    while not table.finished and (until is None or not until(table)):
        assert len(bot.log) < SOFT_LIMIT + 200, "the game would not end"
        cmd = bot.command(table)
        events = table.apply(cmd)
        bot.log.append(cmd)
        if check is not None:
            check(table, cmd, events)


# --------------------------------------------------------------------------- invariants


class Watch:
    """Invariants checked after every command."""

    def __init__(self, table: Table) -> None:
        self.owner = {cid: c.owner for cid, c in table.cards.items()}
        self.frozen: dict[int, tuple[Any, ...]] = {}

    def __call__(self, table: Table, cmd: Command, events: list[Event]) -> None:
        census = table.card_census()
        assert set(census) == set(self.owner) and max(census.values()) == 1, census
        games = table.games
        for i, g in enumerate(games):
            assert g.depth == i and g.parent is (games[i - 1] if i else None)
            if not table.finished:
                assert g.suspended == (i < len(games) - 1)
            if i:  # whoever plays a subgame is still in the game beneath it
                assert set(g.players_in_game()) <= set(games[i - 1].players_in_game())
            for o in g.objects.values():
                if o.card is not None:
                    assert o.owner == o.card.owner == self.owner[o.card.cid]
            for p, cards in g.departed_cards.items():
                assert not cards or not g.in_game(p)
                assert all(c.owner == p for c in cards)
        assert table.finished or table.pending is not None
        # CR 726.1a: a suspended game stays exactly as it was, except through a concession
        # in it or a card a subgame brings in from it (CR 726.4a).
        touched = isinstance(cmd, Concede) or any(e.kind == "reveal" for e in events)
        for g in games[:-1]:
            now = game_state(g)
            before = self.frozen.get(g.number)
            if before is not None and not touched:
                assert now == before, f"suspended game {g.number} changed"
            self.frozen[g.number] = now
        for number in list(self.frozen):
            if all(g.number != number for g in games[:-1]):
                del self.frozen[number]
        if games and not table.finished:
            self.frozen.pop(games[-1].number, None)


def _final_census(table: Table, owner: dict[int, int]) -> None:
    """Every card a player owned is in the main game, outside the game, or left with a player
    who left the game (and nowhere else)."""
    assert table.finished and table.games == [table.main]
    main = table.main
    where: dict[int, str] = {}
    for o in main.objects.values():
        if o.card is not None:
            where[o.card.cid] = o.zone
    for p, cards in main.departed_cards.items():
        for c in cards:
            assert c.cid not in where
            where[c.cid] = f"left with {p}"
    for p, cards in table.outside.items():
        for c in cards:
            assert c.cid not in where and c.owner == p
            where[c.cid] = "outside"
    assert set(where) == set(owner)


# --------------------------------------------------------------------------- random games


def _library(rng: random.Random, size: int, extra: tuple[str, ...]) -> list[str]:
    deck = list(ready_made(rng.choice(QUICK)).main)
    rng.shuffle(deck)
    return deck[:size] + list(extra)


def lifecycle_config(players: int, seed: int, sizes: list[int], *, giant: bool = False
                     ) -> GameConfig:
    """A position with the real Karn Liberated at 14 loyalty and Shahrazad castable for some
    players, and the test-only instants shuffled into every library; with ``giant``, a
    Two-Headed Giant game (CR 810) of ``players`` in two teams."""
    rng = random.Random(seed)
    scene = giant_scene(players) if giant else Scene(players)
    for p in range(players):
        extra = ("Second Beginning", "Tale Within a Tale", "Tale Within a Tale",
                 "Second Beginning", "Living Wish")
        if rng.random() < 0.5:  # a real Shahrazad to draw, in the main game or a subgame
            extra += ("Shahrazad", "Plains", "Plains")
        scene.library(p, *_library(rng, sizes[p % len(sizes)], extra))
        scene.sideboard(p, "Grizzly Bears", "Forest")
        if rng.random() < 0.6:
            scene.battlefield(p, "Karn Liberated", counters={"loyalty": 14})
        if rng.random() < 0.6:
            scene.battlefield(p, "Plains", "Plains", "Forest").hand(p, "Shahrazad")
        scene.hand(p, *rng.sample(["Lightning Bolt", "Tale Within a Tale", "Second Beginning",
                                   "Grizzly Bears", "Forest", "Mountain"], 3))
    scene.at("main1", active=rng.randrange(players), turn=3)
    return scene.build_config()


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
    _final_census(table, watch.owner)
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
    again = Table(config, seed)
    for cmd in bot.log:
        again.apply(cmd)
    assert again.state_hash() == table.state_hash()


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
        scene.library(p, *_library(rng, rng.randrange(8, 24), extra))
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
