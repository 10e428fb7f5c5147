"""Random play for the table's stack of games (CR 724, 726), shared by the lifecycle property
tests of every variant: a bot that forces restarts and subgames in at random moments while a
budget lasts and concedes once a table has gone on long enough, the invariants checked after
every command (:class:`Watch`), and positions full of restart and subgame cards.

The real Karn Liberated (at 14 loyalty) and Shahrazad are used beside the test-only {0}
instants Second Beginning (restart) and Tale Within a Tale (subgame)."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from arbiter.server.rules import Act, Concede, GameConfig, Table
from arbiter.server.rules.cards.decks import ready_made
from arbiter.server.rules.commands import Command
from arbiter.server.rules.game import Event
from arbiter.server.rules.hashing import game_state

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


def final_census(table: Table, owner: dict[int, int]) -> None:
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


def library(rng: random.Random, size: int, extra: tuple[str, ...]) -> list[str]:
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
        scene.library(p, *library(rng, sizes[p % len(sizes)], extra))
        scene.sideboard(p, "Grizzly Bears", "Forest")
        if rng.random() < 0.6:
            scene.battlefield(p, "Karn Liberated", counters={"loyalty": 14})
        if rng.random() < 0.6:
            scene.battlefield(p, "Plains", "Plains", "Forest").hand(p, "Shahrazad")
        scene.hand(p, *rng.sample(["Lightning Bolt", "Tale Within a Tale", "Second Beginning",
                                   "Grizzly Bears", "Forest", "Mountain"], 3))
    scene.at("main1", active=rng.randrange(players), turn=3)
    return scene.build_config()
