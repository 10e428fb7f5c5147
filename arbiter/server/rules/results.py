"""Typed results: how each player left a game and how the game ended (CR 104, 800.4)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

WON, LOST, DREW = "won", "lost", "drew"

# Reasons, each with the rule that produces it.
REASON_RULES: dict[str, str] = {
    "opponents_left": "104.2a",
    "effect_win": "104.2b",
    "team": "104.2c",
    "emperor": "104.2d",
    "concession": "104.3a",
    "life": "104.3b",
    "decking": "104.3c",
    "poison": "104.3d",
    "effect_loss": "104.3e",
    "win_and_lose": "104.3f",
    "team_lost": "104.3g",
    "range_of_influence": "104.3h",
    "emperor_lost": "104.3i",
    "commander_damage": "104.3j",
    "judge": "104.3k",
    "all_lost": "104.4a",
    "loop": "104.4b",
    "effect_draw": "104.4c",
    "teams_all_lost": "104.4d",
    "range_draw": "104.4e",
    "range_loop": "104.4f",
    "team_draw": "104.4g",
    "emperor_draw": "104.4h",
    "agreement": "104.4i",
    "opponent_won": "104.2b",
    "clock": "104.3k",
    # Two-Headed Giant: the team wins and loses as one (CR 810.8).
    "teammate_lost": "810.8a",
    "team_conceded": "810.8b",
    "team_life": "810.8c",
    "team_poison": "810.8d",
}


@dataclass(frozen=True)
class PlayerOutcome:
    player: int
    outcome: str  # WON / LOST / DREW
    reason: str
    rule: str
    turn: int

    def text(self, name: str) -> str:
        verb = {"won": "wins", "lost": "loses", "drew": "draws"}[self.outcome]
        return f"{name} {verb} the game ({self.reason.replace('_', ' ')}, CR {self.rule})"

    def to_wire(self) -> dict[str, Any]:
        return {"player": self.player, "outcome": self.outcome, "reason": self.reason,
                "rule": self.rule, "turn": self.turn}


@dataclass(frozen=True)
class GameResult:
    """How one game ended: its winners, or a draw, or a restart (CR 104.1)."""

    game: int
    winners: tuple[int, ...]
    draw: bool
    restarted: bool
    outcomes: tuple[PlayerOutcome, ...]
    abandoned: bool = False  # a subgame cut short because a game beneath it ended

    def outcome_of(self, player: int) -> PlayerOutcome | None:
        return next((o for o in self.outcomes if o.player == player), None)

    def text(self, names: dict[int, str]) -> str:
        if self.restarted:
            return "The game was restarted: nobody won, lost or drew it (CR 724.1)."
        if self.abandoned:
            return "The subgame was abandoned: the game it belonged to has ended."
        if self.draw and not self.winners:
            return "The game is a draw."
        return "Winner: " + ", ".join(names[w] for w in self.winners) + "."

    def to_wire(self) -> dict[str, Any]:
        return {"game": self.game, "winners": list(self.winners), "draw": self.draw,
                "restarted": self.restarted, "abandoned": self.abandoned,
                "outcomes": [o.to_wire() for o in self.outcomes]}
