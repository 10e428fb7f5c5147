"""Bots the server runs in a room's seats, so that one person can play at once (the ``bot``
request, docs/protocol.md section 5): a thin shell around the bot core (``arbiter.bots``).

A room bot plays with the same strategies as the network bots (``arbiter bot``), from what its
seat may see: the view the room keeps for the seat's viewer class, the legal actions, and the
card data of the catalog. What this shell adds is timing and the command path: it answers
after a short think (a deadline of the room's, so tests with a fake clock and real play look
the same), and its commands go through the match's command path as a player's do. When to
propose, accept or decline a draw (CR 104.4i) is the core's one policy (``arbiter/bots/
draws.py``), so a seat bot settles a stalled game exactly as a network bot does.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from arbiter.bots import STRATEGIES, DrawMove, DrawPolicy, Strategy
from arbiter.protocol.view_keys import View
from arbiter.server.rules.commands import Act, DrawOffer

if TYPE_CHECKING:
    from arbiter.server.rules import Table

    from .context import RoomContext
    from .lifecycle import GameRooms
    from .seating import Seat, Seating
    from .views import GameRoom

Run = Callable[..., bool]  # the match's command path: run(command, ack, acted=...)


class RoomBot:
    def __init__(self, strategy: str, seed: int) -> None:
        self.strategy_name = strategy
        self.strategy: Strategy = STRATEGIES[strategy]
        self.rng = random.Random(seed)
        self.draws = DrawPolicy()

    def choose(self, view: View, decision: Mapping[str, Any],
               cards: Mapping[str, Mapping[str, Any]]) -> int:
        return self.strategy(view, decision, self.rng, cards)

    def take_draw_move(self, views: Sequence[tuple[str, View]], me: int,
                       deciding: str | None) -> DrawMove | None:
        """The draw command to send now (the core's policy), counted as made."""
        move = self.draws.next_move(views, me, deciding)
        if move is not None:
            self.draws.made(move)
        return move


class RoomBots:
    """The bots of one match: what they have to do now, and doing it through the match's
    command path (as if they were players, with no acknowledgement to send)."""

    def __init__(self, ctx: RoomContext, seating: Seating, rooms: GameRooms,
                 table: Callable[[], Table | None], run: Run) -> None:
        self.ctx = ctx
        self.seating = seating
        self.rooms = rooms
        self.table = table
        self.run = run

    def have_work(self) -> bool:
        for seat in self.seating:  # asked after every command: a loop, not a generator
            if seat.bot is not None:
                return bool(self._work())
        return False

    def act(self) -> None:
        for step in self._work():
            step()
            table = self.table()
            if table is None or table.finished:
                break

    def _work(self) -> list[Callable[[], None]]:
        """What the bots have to do now: answer draw offers, and the pending decision."""
        table = self.table()
        if table is None or table.finished or not table.games:
            return []
        work = []
        for seat in self.seating:
            if seat.bot is not None and \
                    seat.bot.draws.next_move(self._sight(seat, table), seat.index) is not None:
                work.append(self._answer(seat))
        d = table.pending
        if d is not None:
            decider = self.seating[d.player]
            game_room = self.rooms.of_game(d.game)
            if decider.bot is not None and game_room is not None:
                work.append(lambda: self._decide(decider, game_room))
        return work

    def _sight(self, seat: Seat, table: Table) -> list[tuple[str, View]]:
        """The views of the seat's viewer class in every room of the match it is playing in,
        the main game first."""
        return [(room.id, room.classes[seat.index].state.view)
                for room in self.rooms.in_order(table)
                if seat.index in room.classes and room.game.in_game(seat.index)]

    def _answer(self, seat: Seat) -> Callable[[], None]:
        def answer() -> None:
            table = self.table()
            assert seat.bot is not None and table is not None
            # Looked at again: the offer may have been answered or withdrawn meanwhile.
            move = seat.bot.take_draw_move(self._sight(seat, table), seat.index, None)
            if move is not None:
                self.run(DrawOffer(seat.index, move.op, move.game), None)
        return answer

    def _decide(self, seat: Seat, room: GameRoom) -> None:
        table = self.table()
        assert table is not None and seat.bot is not None
        d = table.pending
        if d is None or d.player != seat.index:
            return
        move = seat.bot.take_draw_move(self._sight(seat, table), seat.index, room.id)
        if move is not None:
            self.run(DrawOffer(seat.index, move.op, move.game), None)
            return
        view = room.classes[seat.index].state.view
        action = seat.bot.choose(view, d.to_wire(), self.ctx.catalog()["cards"])
        self.run(Act(seat.index, d.serial, action), None, acted=seat.index)
