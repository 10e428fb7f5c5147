"""Teams that act as one: the shared team turns option (CR 805) and the team rules of
Two-Headed Giant (CR 810), as small functions the flow, combat and triggers call.

With shared team turns, "the active player" widens to the active team: each of its players
untaps, draws, may play a land and may attack in the team's turn (CR 805.4), and teams, not
players, have priority (CR 805.5). ``game.active`` stays a single player, the team's *turn
holder*: its primary player (CR 805.2) or, while that player is out of the game, its next member
still in it. Rotating the seats from the turn holder lists the active team first and then every
other team in turn order, which is CR 805.6's order, so ``Game.apnap`` serves both.

Each team acts in one fixed order, its *acting order*: the primary player, then its other members
in turn order. Where the rules let a team act "in whatever order that team likes" (805.3a, 805.6,
805.6a, 805.7) or leave a disagreement to the primary player (805.2), the engine asks the
members one at a time in that order (docs/rulings.md). A game without the option maps nobody,
and every function here then falls back to the single player.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .config import GameConfig
    from .game import Game


def acting_orders(config: GameConfig, seats: list[int]) -> dict[int, tuple[int, ...]]:
    """Each player in ``seats`` mapped to their whole team in acting order.

    CR 805.2: the primary player sits in the team's rightmost seat as seen from the team's side
    of the table. Turns pass to the left, so that is the team's first seat in turn order: the
    seat of the team whose right-hand neighbour is not on the team (teams sit together, 805.1).
    """
    out: dict[int, tuple[int, ...]] = {}
    n = len(seats)
    for team in sorted({config.team_of(p) for p in seats}, key=lambda t: (t is None, t)):
        members = {p for p in seats if config.team_of(p) == team}
        start = next((i for i, p in enumerate(seats)
                      if p in members and seats[(i - 1) % n] not in members), None)
        if start is None:  # the whole table is one team
            start = 0
        order = tuple(q for q in (seats[(start + k) % n] for k in range(n)) if q in members)
        for p in members:
            out[p] = order
    return out


def team_of(game: Game, pid: int) -> tuple[int, ...]:
    """``pid``'s team in acting order when teams share turns; ``pid`` alone otherwise."""
    return game.turn_mates.get(pid, (pid,))


def turn_holder(game: Game, pid: int) -> int:
    """The player who holds the turn for ``pid``'s team: its first member in acting order who
    is still in the game (``pid`` itself without team turns, or when none is left)."""
    for q in team_of(game, pid):
        if game.in_game(q):
            return q
    return pid


def active_players(game: Game) -> list[int]:
    """The players whose turn it is (CR 805.4a: the active team), in acting order."""
    return [q for q in team_of(game, game.active) if game.in_game(q)]


def same_turn(game: Game, a: int, b: int) -> bool:
    """Do ``a`` and ``b`` take their turns together?"""
    return a == b or b in game.turn_mates.get(a, ())


def next_team_player(game: Game, pid: int) -> int | None:
    """The first player after ``pid``'s team in turn order who is still in the game. Teams sit
    together, so this is the next team's first member in its acting order still in the game."""
    seats = game.seats
    mates = team_of(game, pid)
    i = seats.index(pid)
    for k in range(1, len(seats)):
        q = seats[(i + k) % len(seats)]
        if q not in mates and game.in_game(q):
            return q
    return None


def next_priority(game: Game, holder: int) -> int | None:
    """Who is asked after ``holder`` passes (CR 805.5b). The team keeps priority until every
    member still in the game has passed since anyone last acted, its members asked in acting
    order from ``holder``; then the team passes and the next team receives priority, starting
    with its first member in acting order."""
    mates = team_of(game, holder)
    i = mates.index(holder)
    for k in range(1, len(mates)):
        q = mates[(i + k) % len(mates)]
        if game.in_game(q) and q not in game.passed:
            return q
    return next_team_player(game, holder)


def choice_groups(game: Game, players: list[int]) -> list[tuple[int, ...]]:
    """``players`` grouped for choices made "at the same time" (CR 101.4, 805.6): one group per
    team in APNAP order when teams share turns, each group in acting order; one group per
    player, in APNAP order, otherwise."""
    wanted = set(players)
    out: list[tuple[int, ...]] = []
    seen: set[int] = set()
    for p in game.apnap():
        if p in seen or p not in wanted:
            continue
        group = tuple(q for q in team_of(game, p) if q in wanted)
        seen.update(group)
        out.append(group)
    return out


def team_name(game: Game, pid: int) -> str:
    """"Ann and Bob": ``pid``'s team when teams share turns; ``pid``'s name otherwise."""
    names = [game.name(q) for q in team_of(game, pid)]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
