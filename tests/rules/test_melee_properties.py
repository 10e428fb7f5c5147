"""Properties of Grand Melee games (CR 807) played by random bots: 8, 10 and 13 players, real
game starts (random seating, mulligans), restarts and subgames forced in at random moments
(the test-only {0} instants Second Beginning and Tale Within a Tale, and Shahrazad and Karn
Liberated in some decks), and players conceding while several turns run.

Checked after every command: every physical card is in exactly one place; every decision in a
Grand Melee game names a live turn marker; a priority decision goes only to a player who gets
priority for that marker's stack (CR 807.5a), worked out here from the game state alone; a
spell or ability a player puts on a stack goes on the stack of the decision they acted in
(CR 807.5b); only a turn's active player declares its attackers, and only players attacked in
its combat declare blockers; every stack object is on its marker's stack; there are never more
markers than one per full four players plus those designated for removal (CR 807.4a,
807.4e-f). Games end or reach the turn limit, replay to the same state hash, and every
viewer's incrementally kept view equals a fresh snapshot with nothing hidden in it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from arbiter.server.rules import Act, Concede, GameConfig, PlayerConfig, Table
from arbiter.server.rules.cards.decks import ready_made
from arbiter.server.rules.commands import Command
from arbiter.server.rules.game import Game
from arbiter.server.rules.state import HAND, LIBRARY, STACK
from arbiter.server.rules.view import OMNISCIENT, SPECTATOR

from .random_play import ViewMirror, replay, revealed_to_all

QUICK = ("quick-red", "quick-green", "quick-infect")
LIFECYCLE = ("Cast Second Beginning", "Cast Tale Within a Tale", "Cast Shahrazad",
             "Karn Liberated: \u221214")
TURN_LIMIT = 120  # turns begun in the main game; a table that gets there stops


def melee_config(players: int, seed: int) -> GameConfig:
    """Quick decks with restart and subgame instants shuffled in; a few players get a real
    Shahrazad (with Plains to cast it) or a constructed deck with Karn Liberated."""
    rng = random.Random(seed)
    configs = []
    for i in range(players):
        if rng.random() < 0.1:
            deck = list(ready_made("boros-lifecycle").main)
        else:
            deck = list(ready_made(rng.choice(QUICK)).main)
            deck += ["Second Beginning", "Tale Within a Tale"][: rng.randrange(3)]
            if rng.random() < 0.3:
                deck += ["Shahrazad", "Plains", "Plains"]
        configs.append(PlayerConfig(f"P{i}", tuple(deck), ("Grizzly Bears",)))
    return GameConfig(players=tuple(configs), variant="grand_melee", allow_test_cards=True)


@dataclass
class Bot:
    """Random legal choices (passing often); lifecycle actions while the budget lasts;
    concessions now and then, and steadily once the table has gone on long enough."""

    rng: random.Random
    budget: int
    concede_rate: float
    log: list[Command] = field(default_factory=list)

    def command(self, table: Table) -> Command:
        late = table.main.turn > TURN_LIMIT * 3 // 4 and len(self.log) % 25 == 0
        if late or self.rng.random() < self.concede_rate:
            player = self.rng.choice(table.top.players_in_game())
            games = [g.number for g in table.games if g.in_game(player)]
            return Concede(player, table.main.number if late else self.rng.choice(games))
        d = table.pending
        assert d is not None, "nobody is asked anything but the table isn't finished"
        special = [a for a in d.actions if a.label.startswith(LIFECYCLE)]
        if special and self.budget > 0 and self.rng.random() < 0.3:
            self.budget -= 1
            return Act(d.player, d.serial, self.rng.choice(special).id)
        ordinary = [a for a in d.actions if not a.label.startswith(LIFECYCLE)] or d.actions
        passing = [a for a in ordinary if a.kind in ("pass", "keep", "done")]
        if passing and self.rng.random() < 0.6:
            return Act(d.player, d.serial, passing[0].id)
        return Act(d.player, d.serial, self.rng.choice(ordinary).id)


# --------------------------------------------------------------------------- invariants


def gets_priority(game: Game, player: int, stack: int) -> bool:
    """CR 807.5a from the game state alone: the marker's holder, or a controller of an
    object on that marker's stack, is within the player's range."""
    assert game.melee is not None and game.ranges is not None
    marker = next(m for m in game.melee.markers if m.number == stack)
    controllers = {o.controller for o in game.objects.values()
                   if o.zone == STACK and o.stack_id == stack}
    return any(q == player or q in game.ranges[player] for q in {marker.holder, *controllers})


def _defender(game: Game, ref: Any) -> int | None:
    if ref[0] == "p":
        return int(ref[1])
    planeswalker = game.objects.get(ref[1])
    return planeswalker.controller if planeswalker is not None else None


class Watch:
    def __init__(self, table: Table) -> None:
        self.owner = {cid: c.owner for cid, c in table.cards.items()}
        self.seen: dict[str, int] = {}

    def note(self, what: str) -> None:
        self.seen[what] = self.seen.get(what, 0) + 1

    def before(self, table: Table, cmd: Command) -> dict[int, set[int]]:
        """The objects on each stack of the top game before ``cmd``."""
        return {g.number: {o.oid for o in g.objects.values() if o.zone == STACK}
                for g in table.games}

    def after(self, table: Table, cmd: Command, before: dict[int, set[int]],
              decision: Any) -> None:
        census = table.card_census()
        assert set(census) == set(self.owner) and max(census.values()) == 1, census
        for g in table.games:
            if g.melee is not None:
                self._markers(g)
        d = table.pending
        if d is not None and table.top.melee is not None:
            game = table.top
            numbers = {m.number for m in game.melee.markers}
            assert d.stack in numbers, "a Grand Melee decision names a live turn marker"
            marker = next(m for m in game.melee.markers if m.number == d.stack)
            if d.kind == "attackers":  # only the active player of that turn attacks
                assert d.player == marker.holder
            if d.kind == "blockers":  # a player attacked in that turn's combat
                turn = game.melee.context(marker).turn
                assert any(_defender(game, o.attacking) == d.player for o in game.battlefield
                           if o.attacking is not None and o.combat_turn == turn)
                self.note("blockers")
            if d.kind == "priority":
                self.note("priority")
                assert gets_priority(game, d.player, d.stack), (d.player, d.stack)
                if len({o.controller for o in game.melee.stacks[d.stack]}
                       - {m.holder for m in game.melee.markers if m.number == d.stack}):
                    self.note("priority through a stack object")
        if isinstance(cmd, Act) and decision is not None and decision.kind == "priority":
            chosen = decision.actions[cmd.action]
            game = table.game(decision.game) if any(
                g.number == decision.game for g in table.games) else None
            if chosen.kind in ("cast", "activate") and game is not None and game.melee:
                new = [o for o in game.objects.values() if o.zone == STACK
                       and o.oid not in before.get(game.number, set())]
                assert all(o.stack_id == decision.stack for o in new), "CR 807.5b"
                if new and len(game.melee.markers) > 1:
                    self.note("cast with several stacks")

    def _markers(self, g: Game) -> None:
        melee = g.melee
        assert melee is not None
        numbers = [m.number for m in melee.markers]
        assert numbers == sorted(set(numbers)) and numbers
        live = g.players_in_game()
        if live:
            standing = len(melee.markers) - sum(m.removals for m in melee.markers)
            assert 1 <= standing <= max(1, len(live) // 4), "CR 807.4a, 807.4e-f"
        on_stacks = {o.oid for o in g.objects.values() if o.zone == STACK}
        listed = set()
        for m in melee.markers:
            for o in melee.stacks[m.number]:
                assert o.stack_id == m.number and g.objects.get(o.oid) is o
                listed.add(o.oid)
            if not m.taking_turn:
                assert not melee.stacks[m.number], "a waiting marker's stack is empty"
        assert listed == on_stacks
        if len(melee.markers) > 1:
            self.note("several markers")
        if any(not m.taking_turn for m in melee.markers):
            self.note("waiting marker")
        if any(m.removals for m in melee.markers):
            self.note("designated marker")


def play(table: Table, bot: Bot, watch: Watch | None = None, limit: int = 20000) -> None:
    while not table.finished and table.main.turn <= TURN_LIMIT:
        assert len(bot.log) < limit, "the table would not end"
        cmd = bot.command(table)
        decision = table.pending
        before = watch.before(table, cmd) if watch is not None else {}
        events = table.apply(cmd)
        bot.log.append(cmd)
        if watch is not None:
            watch.after(table, cmd, before, decision)
            for e in events:
                if e.kind in ("subgame_started", "game_restarted"):
                    watch.note(e.kind)
                if e.kind == "player_left" and len(table.main.melee.markers if
                                                   table.main.melee else ()) > 1:
                    watch.note("left while several turns run")


cases = st.tuples(st.sampled_from([8, 10, 13]), st.integers(0, 2**16), st.integers(0, 2**16),
                  st.integers(0, 4), st.sampled_from([0.0, 0.002]))


@settings(max_examples=9)
@given(cases)
def test_random_grand_melee_games_end_keep_priority_in_range_and_conserve_cards(
        case: tuple[Any, ...]) -> None:
    players, seed, bot_seed, budget, concede_rate = case
    table = Table(melee_config(players, seed), seed)
    watch = Watch(table)
    play(table, Bot(random.Random(bot_seed), budget, concede_rate), watch)
    assert table.finished or table.main.turn > TURN_LIMIT
    if table.finished:
        assert table.result is not None
        assert {o.player for o in table.result.outcomes} == set(range(players))
        assert table.games == [table.main]


@settings(max_examples=4)
@given(cases)
def test_replaying_a_grand_melee_game_gives_the_same_state(case: tuple[Any, ...]) -> None:
    players, seed, bot_seed, budget, concede_rate = case
    config = melee_config(players, seed)
    table = Table(config, seed)
    bot = Bot(random.Random(bot_seed), budget, concede_rate)
    play(table, bot)
    assert replay(config, seed, bot.log).state_hash() == table.state_hash()


def test_the_random_grand_melee_games_do_what_the_properties_need() -> None:
    """The properties above are only as good as what their games do: across a fixed set of
    games, every size runs several turns at once, markers wait and are designated for
    removal, players leave while several turns run, priority comes through objects on a
    stack, spells go on stacks while several exist, and restarts and subgames happen."""
    watch_all: dict[str, int] = {}
    for players, seed in ((8, 1), (10, 2), (13, 3), (10, 4)):
        table = Table(melee_config(players, seed), seed)
        watch = Watch(table)
        play(table, Bot(random.Random(seed), budget=4, concede_rate=0.002), watch)
        assert watch.seen.get("several markers")
        for k, v in watch.seen.items():
            watch_all[k] = watch_all.get(k, 0) + v
    assert {"several markers", "waiting marker", "designated marker", "priority", "blockers",
            "priority through a stack object", "cast with several stacks",
            "left while several turns run", "subgame_started", "game_restarted"} <= set(watch_all)


# --------------------------------------------------------------------------- views


def _hidden(game: Game, viewer: int) -> set[int]:
    """Objects ``viewer`` may not see: every library card, and hands not theirs, unless a
    rule reveals them to everyone."""
    shown = revealed_to_all(game)
    return {o.oid for o in game.objects.values() if o.oid not in shown and (
        o.zone == LIBRARY or (o.zone == HAND and viewer not in (o.owner, OMNISCIENT)))}


@settings(max_examples=2)
@given(st.sampled_from([8, 10]), st.integers(0, 2**16), st.integers(0, 2**16))
def test_grand_melee_views_converge_and_keep_hidden_cards_hidden(
        players: int, seed: int, bot_seed: int) -> None:
    config = melee_config(players, seed)
    table = Table(config, seed)
    bot = Bot(random.Random(bot_seed), budget=2, concede_rate=0.004)

    def look(game: Game, viewer: int, view: dict[Any, Any]) -> None:
        assert not _hidden(game, viewer) & set(view), "a hidden card reached a view"
        if game.melee is not None and viewer == SPECTATOR:
            assert view["m"] == game.melee.view()  # the turn markers are public

    mirror = ViewMirror(players, look=look)
    while not table.finished and len(bot.log) < 1500:
        cmd = bot.command(table)
        table.apply(cmd)
        bot.log.append(cmd)
        mirror(table)
    assert mirror.compared
