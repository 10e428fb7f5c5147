"""Bots the server runs in a room's seats, so that one person can play at once (the ``bot``
request, docs/protocol.md section 5).

A room bot plays with the same strategies as the network bots (``arbiter bot``), from what its
seat may see: the view the room keeps for the seat's viewer class, the legal actions, and the
card data of the catalog. It answers after a short think (a deadline of the room's, so tests
with a fake clock and real play look the same), and settles a game that goes nowhere as the
network bots do: it proposes a draw when the game has stalled (CR 104.4i) and accepts one then,
and declines one otherwise.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from arbiter.clients.bots.stall import DEFAULT_ROUNDS, StallWatch, players_in
from arbiter.clients.bots.strategies import STRATEGIES, Strategy
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
        self.stall = StallWatch(DEFAULT_ROUNDS)
        self.proposed: dict[str, tuple[int, int]] = {}  # room -> (game, turn) of our offer
        self.answered: dict[str, Any] = {}  # room -> the offer we answered

    def choose(self, view: Mapping[Any, Any], decision: Mapping[str, Any],
               cards: Mapping[str, Mapping[str, Any]]) -> int:
        return self.strategy(view, decision, self.rng, cards)

    @staticmethod
    def _offer_key(view: Mapping[Any, Any]) -> Any:
        return (view.get("g", {}).get("n", 0), view.get("t", [0])[0], repr(view.get("d")))

    def draw_answer(self, room: str, view: Mapping[Any, Any], me: int) -> str | None:
        """``accept`` or ``decline`` for a draw someone else proposed in ``room`` that we have
        not answered yet; None when there is nothing to answer."""
        offer = view.get("d")
        if offer is None:
            return None
        if offer[0] == me or me in offer[1] or view.get(f"p{me}", {}).get("s") != "in":
            return None
        if self.answered.get(room) == self._offer_key(view):
            return None
        return "accept" if self.stall.stalled(room, dict(view)) else "decline"

    def answering(self, room: str, view: Mapping[Any, Any]) -> None:
        """We are answering the offer ``view`` shows (once per offer)."""
        self.answered[room] = self._offer_key(view)

    def wants_draw(self, room: str, view: Mapping[Any, Any]) -> bool:
        """Propose a draw in ``room``, where we must decide? Once per stalled stretch."""
        if view.get("d") is not None or not self.stall.stalled(room, dict(view)):
            return False
        game, turn = view.get("g", {}).get("n", 0), int(view["t"][0])
        last = self.proposed.get(room)
        if last is not None and last[0] == game and \
                turn - last[1] < self.stall.rounds * max(players_in(dict(view)), 1):
            return False
        self.proposed[room] = (game, turn)
        return True


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
        return any(s.bot is not None for s in self.seating) and bool(self._work())

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
            bot = seat.bot
            if bot is None:
                continue
            for room in self.rooms.in_order(table):
                cls = room.classes.get(seat.index)
                if cls is None or not room.game.in_game(seat.index):
                    continue
                answer = bot.draw_answer(room.id, cls.state.view, seat.index)
                if answer is not None:
                    work.append(self._draw(seat, room, answer))
        d = table.pending
        if d is not None:
            decider = self.seating[d.player]
            game_room = self.rooms.of_game(d.game)
            if decider.bot is not None and game_room is not None:
                work.append(lambda: self._decide(decider, game_room))
        return work

    def _draw(self, seat: Seat, room: GameRoom, op: str) -> Callable[[], None]:
        def answer() -> None:
            assert seat.bot is not None
            view = room.classes[seat.index].state.view
            if seat.bot.draw_answer(room.id, view, seat.index) is None:
                return  # answered or withdrawn meanwhile
            seat.bot.answering(room.id, view)
            self.run(DrawOffer(seat.index, op, room.number), None)
        return answer

    def _decide(self, seat: Seat, room: GameRoom) -> None:
        table = self.table()
        assert table is not None and seat.bot is not None
        d = table.pending
        if d is None or d.player != seat.index:
            return
        view = room.classes[seat.index].state.view
        if room.game.draw_offer is None and seat.bot.wants_draw(room.id, view):
            self.run(DrawOffer(seat.index, "propose", room.number), None)
            return
        action = seat.bot.choose(view, d.to_wire(), self.ctx.catalog()["cards"])
        self.run(Act(seat.index, d.serial, action), None, acted=seat.index)
