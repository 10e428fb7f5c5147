"""Noticing a game that goes nowhere, so that bots can agree to a draw (CR 104.4i).

Some positions can never end on their own: with an Abyssal Persecutor on each side, nobody can
win and nobody can lose (CR 104.2a-b and the card's own text), and a game between bots that
never concede would run forever. People settle that by agreeing to a draw; bots do the same
when a game has gone ``rounds`` full rounds (``rounds`` turns for each player still in it, or
with shared team turns, CR 805, for each team) without anybody leaving it. Every bot sees the
same public state, so bots at one table agree on when a game is stalled without talking to
each other. A normal game never gets near the
default: in 40 four-player games of random bots (the slowest players we have), the longest
stretch without a player leaving was 201 turns, about 50 rounds.
"""

from __future__ import annotations

from typing import Any

DEFAULT_ROUNDS = 100


def players_in(view: dict[Any, Any]) -> int:
    """How many players are still in the game ``view`` shows."""
    return sum(1 for k, v in view.items()
               if isinstance(k, str) and k[:1] == "p" and k[1:].isdigit()
               and isinstance(v, dict) and v.get("s") == "in")


def round_turns(view: dict[Any, Any]) -> int:
    """How many turns make one round of the game ``view`` shows: one per player still in it,
    or, when teams share turns (CR 805), one per team with a player still in it."""
    game = view.get("g")
    if not isinstance(game, dict) or "turns" not in (game.get("shared") or []):
        return players_in(view)
    alive = {int(k[1:]) for k, v in view.items()
             if isinstance(k, str) and k[:1] == "p" and k[1:].isdigit()
             and isinstance(v, dict) and v.get("s") == "in"}
    return sum(1 for team in game.get("teams") or [] if alive & set(team))


class StallWatch:
    """Per room, the turn at which the number of players in the game last changed."""

    def __init__(self, rounds: int = DEFAULT_ROUNDS) -> None:
        if rounds < 1:
            raise ValueError("a game stalls after at least one round")
        self.rounds = rounds
        self._since: dict[str, tuple[int, int, int]] = {}  # room -> (game, players in, turn)

    def stalled(self, room: str, view: dict[Any, Any]) -> bool:
        """Has the game in ``room`` gone ``rounds`` rounds with the same players in it?"""
        turn_info, game = view.get("t"), view.get("g")
        if not turn_info or not isinstance(game, dict):
            return False
        return self.stalled_at(room, int(game.get("n", 0)), players_in(view), int(turn_info[0]),
                               round_turns(view))

    def stalled_at(self, room: str, number: int, alive: int, turn: int,
                   per_round: int | None = None) -> bool:
        """The same, from game ``number`` having ``alive`` players in it on ``turn``, and
        ``per_round`` turns to a round (``alive`` unless teams share turns)."""
        seen = self._since.get(room)
        if seen is None or seen[0] != number or seen[1] != alive:
            # A new game in this room (a restart, CR 724) or somebody left: count afresh.
            self._since[room] = (number, alive, turn)
            return False
        return alive > 0 and turn - seen[2] >= self.rounds * (per_round or alive)

    def forget(self, room: str) -> None:
        self._since.pop(room, None)
