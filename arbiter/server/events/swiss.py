"""Swiss rounds: standings with the usual tie-breakers, and the next round's pairings.

Scoring, as the Magic Tournament Rules describe it (appendix C, "Tiebreaker Explanation"):
3 match points for a match won, 1 for a draw, 0 for a loss; 3 game points per game won, 1 per
game drawn. A bye is a match won 2-0. A player's match-win percentage is their match points
over 3 per match played, their game-win percentage their game points over 3 per game played,
each floored at 1/3 so that a player's poor start does not sink their opponents. Opponents'
percentages average the opponents' (floored) percentages, leaving byes out. Ties are broken
in order: match points, opponents' match-win %, game-win %, opponents' game-win %, and last
the players' seat order, so standings are a pure function of the records.

Pairing: round 1 is a shuffle from the event's ``Rng``. Later rounds take the standings order
and search it for a pairing in which nobody meets an opponent again: the first player with
the next one they have not played, backtracking when the rest cannot be paired, which pairs
players within their points group and pairs down when a group is odd. The search is bounded;
past the bound a blossom matching (matching.py) decides, so a rematch happens only when no
pairing avoids it. An odd count gives a bye to the lowest-ranked player among those with the
fewest byes (so it rotates), moving up only when that player's bye would force a rematch.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from arbiter.server.rules.rng import Rng

from .matching import perfect_pairing

WIN, DRAW = 3, 1  # match points, and game points
FLOOR = Fraction(1, 3)
BYE_GAMES = 2  # a bye is a match won 2-0
SEARCH_BUDGET = 20_000  # pairing search steps before the matching decides


@dataclass(frozen=True)
class MatchRecord:
    """A match's result: games won by ``a`` and by ``b``, and drawn. ``b`` None: a bye for
    ``a`` (scored 2-0 whatever its games say)."""

    round: int
    a: str
    b: str | None
    a_wins: int
    b_wins: int
    draws: int = 0


@dataclass(frozen=True)
class Standing:
    player: str
    rank: int  # 1 is first
    points: int  # match points
    matches: tuple[int, int, int]  # won, lost, drawn (a bye is a match won)
    omw: float  # opponents' match-win percentage, 0..1
    gw: float  # game-win percentage, floored at 1/3
    ogw: float  # opponents' game-win percentage


@dataclass
class _Tally:
    won: int = 0
    lost: int = 0
    drawn: int = 0
    game_points: int = 0
    games: int = 0

    @property
    def points(self) -> int:
        return WIN * self.won + DRAW * self.drawn

    def mwp(self) -> Fraction:
        played = self.won + self.lost + self.drawn
        return max(FLOOR, Fraction(self.points, WIN * played)) if played else FLOOR

    def gwp(self) -> Fraction:
        return max(FLOOR, Fraction(self.game_points, WIN * self.games)) if self.games else FLOOR

    def add(self, wins: int, losses: int, draws: int) -> None:
        if wins > losses:
            self.won += 1
        elif wins < losses:
            self.lost += 1
        else:
            self.drawn += 1
        self.game_points += WIN * wins + DRAW * draws
        self.games += wins + losses + draws


def _average(values: list[Fraction]) -> Fraction:
    # Nobody to average (only byes so far): the floor, as for a player with no matches.
    return sum(values, Fraction(0)) / len(values) if values else FLOOR


def _ranked(players: Sequence[str], records: Sequence[MatchRecord]
            ) -> list[tuple[str, _Tally, Fraction, Fraction]]:
    """Each player with their tally and opponents' percentages, in standings order."""
    seat = {p: i for i, p in enumerate(players)}
    tally = {p: _Tally() for p in players}
    opponents: dict[str, list[str]] = {p: [] for p in players}
    for r in records:
        for who in (r.a, r.b):
            if who is not None and who not in seat:
                raise ValueError(f"a record of round {r.round} names {who!r}, not a player")
        if r.b is None:
            tally[r.a].add(BYE_GAMES, 0, 0)
            continue
        tally[r.a].add(r.a_wins, r.b_wins, r.draws)
        tally[r.b].add(r.b_wins, r.a_wins, r.draws)
        opponents[r.a].append(r.b)
        opponents[r.b].append(r.a)
    rows = [(p, tally[p], _average([tally[o].mwp() for o in opponents[p]]),
             _average([tally[o].gwp() for o in opponents[p]])) for p in players]
    rows.sort(key=lambda row: (-row[1].points, -row[2], -row[1].gwp(), -row[3], seat[row[0]]))
    return rows


def standings(players: Sequence[str], records: Sequence[MatchRecord]) -> list[Standing]:
    """Everyone of ``players`` (dropped players too), first to last."""
    return [Standing(p, rank, t.points, (t.won, t.lost, t.drawn), float(omw), float(t.gwp()),
                     float(ogw))
            for rank, (p, t, omw, ogw) in enumerate(_ranked(players, records), start=1)]


def rounds_for(players: int) -> int:
    """The default number of Swiss rounds: enough for one undefeated player in a pod of a
    power of two (ceil(log2(n))), and at least one: 8 players play 3 rounds."""
    return max(1, (players - 1).bit_length())


Pairing = list[tuple[str, str | None]]


def pair_round(active: Sequence[str], records: Sequence[MatchRecord], rng: Rng,
               *, budget: int = SEARCH_BUDGET) -> Pairing:
    """The next round's pairs among ``active`` (the players still in the event), the higher
    ranked first in each pair, then the bye as ``(player, None)`` when the count is odd.
    ``records`` are all the event's matches so far (dropped players' too)."""
    if len(set(active)) != len(active):
        raise ValueError("a player is listed twice")
    if not records:  # round 1: a random pairing
        order = list(active)
        rng.shuffle(order)
        pairs: Pairing = [(order[i], order[i + 1]) for i in range(0, len(order) - 1, 2)]
        return pairs + ([(order[-1], None)] if len(order) % 2 else [])
    everyone = list(active)
    for r in records:
        everyone += [p for p in (r.a, r.b) if p is not None and p not in everyone]
    live = set(active)
    order = [p for p, *_ in _ranked(everyone, records) if p in live]
    met = {frozenset((r.a, r.b)) for r in records if r.b is not None}
    byes = Counter(r.a for r in records if r.b is None)
    return _pair_ranked(order, met, byes, budget)


def _pair_ranked(order: list[str], met: set[frozenset[str]], byes: Counter[str],
                 budget: int) -> Pairing:
    """Pairs for ``order`` (ranked), avoiding the pairs in ``met`` if any pairing can."""
    if len(order) % 2:
        fewest = min(byes[p] for p in order)
        candidates: list[str | None] = [p for p in reversed(order) if byes[p] == fewest]
    else:
        candidates = [None]
    steps = [budget]
    for bye in candidates:
        rest = [p for p in order if p != bye]
        found = _search(rest, met, steps) if steps[0] > 0 else None
        if found is None and steps[0] <= 0:  # the search gave up: let the matching decide
            allowed = {frozenset((p, q)) for i, p in enumerate(rest) for q in rest[i + 1:]
                       if frozenset((p, q)) not in met}
            matched = perfect_pairing(rest, allowed)
            found = list(matched) if matched is not None else None
        if found is not None:
            return [*found, *([(bye, None)] if bye is not None else [])]
    # Every pairing has a rematch: pair in standings order, each with the first player they
    # have not met if any is left (fewer rematches, not the fewest).
    bye = candidates[0]
    left = [p for p in order if p != bye]
    pairs: Pairing = []
    while left:
        first = left.pop(0)
        other = next((q for q in left if frozenset((first, q)) not in met), left[0])
        left.remove(other)
        pairs.append((first, other))
    return [*pairs, *([(bye, None)] if bye is not None else [])]


def _search(order: list[str], met: set[frozenset[str]], steps: list[int]
            ) -> list[tuple[str, str | None]] | None:
    """A rematch-free pairing of ``order`` that pairs each first unpaired player with the
    highest-ranked possible opponent, backtracking; None when there is none or ``steps`` ran
    out (then ``steps[0]`` is 0 or less)."""
    if not order:
        return []
    first = order[0]
    for i in range(1, len(order)):
        steps[0] -= 1
        if steps[0] < 0:
            return None
        other = order[i]
        if frozenset((first, other)) in met:
            continue
        rest = _search(order[1:i] + order[i + 1:], met, steps)
        if rest is not None:
            return [(first, other), *rest]
    return None
