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

from arbiter.protocol import view_keys as vk
from arbiter.protocol.view_keys import View

DEFAULT_ROUNDS = 100


def round_turns(view: View, alive: list[int] | None = None) -> int:
    """How many turns make one round of the game ``view`` shows: one per player still in it,
    or, when teams share turns (CR 805.4: teams, not players, take turns), one per team with a
    player still in it. ``alive``: the players in it, if already known."""
    if alive is None:
        alive = vk.players_in(view)
    if not vk.shares(view, "turns"):
        return len(alive)
    return sum(1 for team in vk.teams(view) if not set(team).isdisjoint(alive))


class StallWatch:
    """Per room, the turn at which the number of players in the game last changed."""

    def __init__(self, rounds: int = DEFAULT_ROUNDS) -> None:
        if rounds < 1:
            raise ValueError("a game stalls after at least one round")
        self.rounds = rounds
        self._since: dict[str, tuple[int, int, int]] = {}  # room -> (game, players in, turn)

    def stalled(self, room: str, view: View) -> bool:
        """Has the game in ``room`` gone ``rounds`` rounds with the same players in it?"""
        turn = vk.turn(view)
        if turn is None or not vk.game(view):
            return False
        alive = vk.players_in(view)  # once: a bot asks after every frame it receives
        return self.stalled_at(room, vk.game_number(view), len(alive), turn,
                               round_turns(view, alive))

    def stalled_at(self, room: str, number: int, alive: int, turn: int,
                   per_round: int | None = None) -> bool:
        """The same, from game ``number`` having ``alive`` players in it on ``turn``, and
        ``per_round`` turns to a round (``alive`` unless teams share turns)."""
        seen = self._since.get(room)
        if seen is None or seen[0] != number or seen[1] != alive:
            # A new game in this room (a restart, CR 724) or somebody left: count afresh.
            self._since[room] = (number, alive, turn)
            return False
        return alive > 0 and turn - seen[2] >= self.stall_turns(per_round or alive)

    def stall_turns(self, per_round: int) -> int:
        """How many turns ``rounds`` rounds of ``per_round`` turns are."""
        return self.rounds * per_round

    def forget(self, room: str) -> None:
        self._since.pop(room, None)
