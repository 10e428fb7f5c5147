"""A best-of-N match: the games played so far, the wins per seat, who chooses who plays first
in the next game, and when the match is decided."""

from __future__ import annotations

from typing import Any

from arbiter.server.rules.results import GameResult


class MatchScore:
    def __init__(self, seats: int, best_of: int) -> None:
        self.best_of = best_of
        self.results: list[dict[str, Any]] = []  # each finished game's result, as sent
        self.wins = [0] * seats
        self.game = 0  # 1-based number of the current game of the match (0: not started)
        self.chooser: int | None = None  # CR 103.1: who chose the starting player this game

    def record(self, result: dict[str, Any]) -> None:
        """A game of the match ended with ``result`` (its wire form)."""
        self.results.append(result)
        for w in result["winners"]:
            self.wins[w] += 1

    @property
    def over(self) -> bool:
        """Someone has won a majority of the games, or every game has been played."""
        need = self.best_of // 2 + 1
        return max(self.wins) >= need or self.game >= self.best_of

    def summary(self) -> dict[str, Any]:
        return {"game": self.game, "best_of": self.best_of, "wins": list(self.wins),
                "over": self.over}

    def next_chooser(self, result: GameResult) -> int | None:
        """CR 103.1: the loser of the previous game chooses who takes the first turn; after a
        draw, whoever chose last time chooses again."""
        if not result.winners:
            return self.chooser
        losers = sorted((o for o in result.outcomes if o.outcome == "lost"),
                        key=lambda o: o.turn)
        return losers[0].player if losers else self.chooser
