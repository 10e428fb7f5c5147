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
from collections.abc import Mapping
from typing import Any

from arbiter.clients.bots.stall import DEFAULT_ROUNDS, StallWatch, players_in
from arbiter.clients.bots.strategies import STRATEGIES, Strategy


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
