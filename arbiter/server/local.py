"""Playing bots against each other in-process, without a server (``arbiter demo`` and the
engine benchmark, bench/engine.py).

:class:`ViewKeeper` keeps each player's view of a table up to date from the engine's dirty keys,
the same way the server's rooms do, and the bots get the catalog's card data, so in-process bots
see exactly what a networked bot sees.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from arbiter.bots import StallWatch, Strategy
from arbiter.server.rules import Table
from arbiter.server.rules.cards.catalog import cards as catalog_cards
from arbiter.server.rules.config import GameConfig
from arbiter.server.rules.view import project, snapshot, view_key


class ViewKeeper:
    """Per-player views of the table's current top game, updated incrementally."""

    def __init__(self, table: Table, viewers: Sequence[int]) -> None:
        self.table = table
        self.viewers = list(viewers)
        self.game_number = -1
        self.views: dict[int, dict[Any, Any]] = {}

    def refresh(self) -> None:
        game = self.table.top
        if game.number != self.game_number:
            self.game_number = game.number
            game.dirty.clear()
            self.views = {v: snapshot(game, v) for v in self.viewers}
            return
        dirty = game.dirty
        if not dirty:
            return
        keys = {view_key(k) for k in dirty}
        dirty.clear()
        for key in keys:
            public, private = project(game, key)
            for v, view in self.views.items():
                value = private.get(v, public) if private is not None else public
                if value is None:
                    view.pop(key, None)
                else:
                    view[key] = value


def play_local(config: GameConfig, seed: int, strategies: Sequence[Strategy], *,
               bot_seed: int = 0, max_actions: int | None = None,
               needs_view: bool = True, draw_after: int | None = None,
               on_action: Callable[[Table], None] | None = None) -> tuple[Table, int]:
    """Play one table to its end (or ``max_actions``) with one strategy per player; returns the
    table and the number of actions applied. With ``draw_after``, the players agree to a draw
    (CR 104.4i) in a game that goes that many rounds without anyone leaving, as the network
    bots do (arbiter/bots/stall.py)."""
    table = Table(config, seed)
    stall = StallWatch(draw_after) if draw_after else None
    rngs = [random.Random(bot_seed * 1000 + i) for i in range(len(config.players))]
    keeper = ViewKeeper(table, range(len(config.players))) if needs_view else None
    applied = 0
    empty: dict[Any, Any] = {}
    cards = catalog_cards(test_cards=config.allow_test_cards)
    # The stall watch's question (the game, its turn, the players in it) asked again only
    # when it can have changed: the same question again gets the same no (StallWatch
    # .stalled_at changes nothing then), and a yes ends the game. A player leaving is a
    # change of the game (their view key is marked), so the game, its turn and its count
    # of changes stand for the question.
    asked: tuple[Any, ...] = ()
    while table.result is None and (max_actions is None or applied < max_actions):
        decision = table.top.pending  # table.pending, the table being unfinished
        assert decision is not None
        if stall is not None:
            game = table.top
            now = (game, game.turn, game.dirty.changes)
            if now != asked:
                asked = now
                if _agree_to_draw(table, stall, decision.player):
                    continue
        if keeper is not None:
            keeper.refresh()
            view = keeper.views[decision.player]
        else:
            view = empty
        choice = strategies[decision.player](view, decision.to_wire(), rngs[decision.player],
                                             cards)
        table.act(decision.player, decision.serial, choice)
        applied += 1
        if on_action is not None:
            on_action(table)
    return table, applied


def _agree_to_draw(table: Table, stall: StallWatch, decider: int) -> bool:
    """If the top game has stalled, every player in it agrees to a draw; True if it ended."""
    game = table.top
    alive = game.players_in_game()
    # With shared team turns (CR 805) a round is one turn per team.
    per_round = len({game.turn_mates[p] for p in alive}) if game.team_turns else None
    if not stall.stalled_at(str(game.number), game.number, len(alive), game.turn, per_round):
        return False
    table.draw_offer(decider, "propose", game.number)
    for player in alive:
        if player != decider:
            table.draw_offer(player, "accept", game.number)
    stall.forget(str(game.number))
    return True
