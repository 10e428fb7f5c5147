"""What the property tests share: a random player for whole tables, and a mirror of every
viewer's view kept the way the server keeps it.

``random_play`` picks random legal actions (passing often, so games end) and now and then
concedes for a random player still in some game. ``ViewMirror`` is the convergence invariant
(docs/architecture.md): a view started from a snapshot and then updated only from the
projections of the keys the engine marks dirty must equal a fresh snapshot after every
command, for every player, a spectator and the omniscient replay viewer."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from arbiter.protocol.views import Op, ViewState, group
from arbiter.server.rules import Act, Concede, GameConfig, PlayerConfig, Table
from arbiter.server.rules.cards.vocab import (
    OpponentsPlayWithHandsRevealed,
    PlayWithTopCardRevealed,
)
from arbiter.server.rules.commands import Command
from arbiter.server.rules.game import Game
from arbiter.server.rules.view import OMNISCIENT, SPECTATOR, project, snapshot, view_key

ACTION_LIMIT = 1500

Look = Callable[[Game, int, dict[Any, Any]], None]


def cards_dealt(config: GameConfig) -> int:
    """Every physical card the players bring: decks, sideboards, planar and scheme decks,
    vanguards."""
    return sum(len(p.deck) + len(p.sideboard) + len(p.planar_deck) + len(p.scheme_deck)
               + (p.vanguard is not None) for p in config.players)


def assert_conserved(table: Table, dealt: int) -> None:
    """The conservation invariant: each card dealt is in exactly one place."""
    census = table.card_census()
    assert sum(census.values()) == dealt and max(census.values()) == 1, census


def random_play(config: GameConfig, seed: int, bot_seed: int, *, concede_rate: float = 0.0,
                check: Callable[[Table], None] | None = None,
                limit: int = ACTION_LIMIT) -> tuple[Table, list[Command]]:
    """Play ``config`` from ``seed`` until the table finishes or ``limit`` commands were
    applied; ``check(table)`` runs after every command. Returns the table and its log."""
    rng = random.Random(bot_seed)
    table = Table(config, seed)
    log: list[Command] = []
    while not table.finished and len(log) < limit:
        cmd: Command
        if concede_rate and rng.random() < concede_rate:
            cmd = Concede(rng.randrange(len(config.players)))
            if not any(g.in_game(cmd.player) for g in table.games):
                continue
        else:
            d = table.pending
            assert d is not None, "nobody is asked anything but the table isn't finished"
            pick = 0 if d.kind == "priority" and rng.random() < 0.6 else \
                rng.randrange(len(d.actions))
            cmd = Act(d.player, d.serial, pick)
        table.apply(cmd)
        log.append(cmd)
        if check is not None:
            check(table)
    return table, log


class ViewMirror:
    """Every viewer's view of every game on the table, kept from dirty keys and compared with
    a fresh snapshot after each call. ``look(game, viewer, view)`` adds checks of one's own
    on each converged view (what must stay hidden, what must be public).

    The views travel as the wire does: the server side of each (a ViewState) makes the ops
    the room core makes (``update``, the patches grouped), and the client side, another
    ViewState, knows only those ops; it must equal the snapshot, checksum included."""

    def __init__(self, players: int, look: Look | None = None) -> None:
        self.viewers = [*range(players), SPECTATOR, OMNISCIENT]
        self.kept: dict[tuple[int, int], ViewState] = {}  # the server's
        self.replica: dict[tuple[int, int], ViewState] = {}  # the client's, from ops only
        self.look = look
        self.compared = 0  # views compared with a snapshot, so a test can tell it did work
        self.patches = 0  # patch ops the replicas applied

    def __call__(self, table: Table) -> None:
        for game in table.games:
            if not any(number == game.number for number, _ in self.kept):
                for v in self.viewers:
                    view = snapshot(game, v)
                    self.kept[(game.number, v)] = ViewState(view)
                    self.replica[(game.number, v)] = ViewState(view)
                game.dirty.clear()
                continue
            keys = {view_key(m) for m in game.dirty}
            game.dirty.clear()
            ops: dict[int, list[Op]] = {v: [] for v in self.viewers}
            for key in keys:
                public, private = project(game, key)
                memo: list[Any] = []
                for v in self.viewers:
                    value = private.get(v, public) if private is not None else public
                    op = self.kept[(game.number, v)].update(
                        key, value, None, memo if private is None else None)
                    if op is not None:
                        ops[v].append(op)
            for v in self.viewers:
                replica = self.replica[(game.number, v)]
                sent = group(ops[v])
                self.patches += sum(1 for op in sent if op[0] == "p")
                replica.apply(sent)
                assert replica.view == snapshot(game, v), (game.number, v)
                assert replica.checksum == self.kept[(game.number, v)].checksum
                self.compared += 1
                if self.look is not None:
                    self.look(game, v, replica.view)


def revealed_to_all(game: Game) -> set[int]:
    """The hidden cards the rules show every player now, worked out from the battlefield on
    its own (the oracle for the secrecy properties, not the engine's bookkeeping): the hands
    of the opponents of a player who controls "your opponents play with their hands
    revealed", and the top card of the library of a player who controls "play with the top
    card of your library revealed" (CR 701.16a)."""
    out: set[int] = set()
    for o in game.battlefield:
        if o.phased_out or not game.in_game(o.controller):
            continue
        for st in o.defn.statics:
            if isinstance(st, OpponentsPlayWithHandsRevealed):
                out.update(c.oid for p in game.opponents(o.controller) for c in game.hand(p))
            elif isinstance(st, PlayWithTopCardRevealed) and game.library(o.controller):
                out.add(game.library(o.controller)[-1].oid)
    return out


def replay(config: GameConfig, seed: int, log: list[Command]) -> Table:
    """A fresh table given the same configuration, seed and commands (the determinism
    invariant: it must reach the same state hash)."""
    table = Table(config, seed)
    for cmd in log:
        table.apply(cmd)
    return table


def alternating_decks(players: int, decks: list[list[str]]) -> GameConfig:
    """A game of ``players`` seated with ``decks`` in turn (test cards allowed): two-player
    for two, Free-for-All for more."""
    return GameConfig(
        players=tuple(PlayerConfig(f"P{i}", tuple(decks[i % len(decks)]))
                      for i in range(players)),
        variant="two_player" if players == 2 else "free_for_all", allow_test_cards=True)


def assert_replays_and_conserves(config: GameConfig, seed: int, bot_seed: int
                                 ) -> tuple[Table, list[Command]]:
    """A random game of ``config`` in which no card is ever created or lost, and whose
    replay reaches the same state hash (the conservation and determinism invariants)."""
    dealt = cards_dealt(config)
    table, log = random_play(config, seed, bot_seed, concede_rate=0.002,
                             check=lambda t: assert_conserved(t, dealt))
    assert replay(config, seed, log).state_hash() == table.state_hash()
    return table, log


def assert_views_converge(config: GameConfig, seed: int, bot_seed: int) -> None:
    """A random game of ``config`` in which every viewer's incrementally kept view equals a
    fresh snapshot after every command (the convergence invariant)."""
    mirror = ViewMirror(len(config.players))
    random_play(config, seed, bot_seed, concede_rate=0.002, check=mirror)
    assert mirror.compared
