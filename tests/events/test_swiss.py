"""Swiss rounds (issue 26; the Magic Tournament Rules' tie-breakers, docs/rulings.md "Limited
events"): standings by match points, opponents' match-win %, game-win %, opponents' game-win %
(each percentage floored at 1/3, byes left out of opponents'), then seat order; pairings by
standing with no rematch while one can be avoided, and a bye that rotates."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from fractions import Fraction as F
from itertools import combinations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from arbiter.server.events.matching import perfect_pairing
from arbiter.server.events.swiss import (
    MatchRecord,
    pair_round,
    rounds_for,
    standings,
)
from arbiter.server.rules.rng import Rng

M = MatchRecord


def _table(players: list[str], records: list[MatchRecord]
           ) -> list[tuple[str, int, tuple[int, int, int], F, F, F]]:
    """The standings with the percentages as exact fractions (the floats they are given as
    are the nearest to them)."""
    out = []
    for s in standings(players, records):
        fracs = [F(x).limit_denominator(1000) for x in (s.omw, s.gw, s.ogw)]
        assert [float(f) for f in fracs] == [s.omw, s.gw, s.ogw]
        out.append((s.player, s.points, s.matches, fracs[0], fracs[1], fracs[2]))
    assert [s.rank for s in standings(players, records)] == list(range(1, len(players) + 1))
    return out


def test_six_players_three_rounds_match_the_hand_checked_table() -> None:
    records = [
        M(1, "A", "B", 2, 0), M(1, "C", "D", 2, 1), M(1, "E", "F", 1, 1, 1),
        M(2, "A", "C", 2, 1), M(2, "E", "D", 2, 0), M(2, "B", "F", 2, 0),
        M(3, "A", "E", 2, 0), M(3, "C", "B", 2, 1), M(3, "D", "F", 2, 0),
    ]
    # Worked by hand. Match points and match-win % (MWP = points / (3 x matches), >= 1/3):
    #   A 3-0-0: 9, MWP 1      B 1-2-0: 3, 1/3    C 2-1-0: 6, 2/3
    #   D 1-2-0: 3, 1/3        E 1-1-1: 4, 4/9    F 0-2-1: 1, 1/9 -> 1/3 (the floor)
    # Game-win % (game points / (3 x games), a drawn game 1 point, >= 1/3):
    #   A 6 won of 7: 18/21 = 6/7     B 3 of 7: 9/21 = 3/7     C 5 of 9: 15/27 = 5/9
    #   D 3 of 7: 3/7     E 3 won 1 drawn of 7: 10/21     F 1 won 1 drawn of 7: 4/21 -> 1/3
    # Opponents' averages (each opponent's floored MWP / GWP):
    #   A: B C E  OMW (1/3 + 2/3 + 4/9)/3 = 13/27   OGW (3/7 + 5/9 + 10/21)/3 = 92/189
    #   B: A F C  OMW (1 + 1/3 + 2/3)/3 = 2/3       OGW (6/7 + 1/3 + 5/9)/3 = 110/189
    #   C: D A B  OMW (1/3 + 1 + 1/3)/3 = 5/9       OGW (3/7 + 6/7 + 3/7)/3 = 4/7
    #   D: C E F  OMW (2/3 + 4/9 + 1/3)/3 = 13/27   OGW (5/9 + 10/21 + 1/3)/3 = 86/189
    #   E: F D A  OMW (1/3 + 1/3 + 1)/3 = 5/9       OGW (1/3 + 3/7 + 6/7)/3 = 34/63
    #   F: E B D  OMW (4/9 + 1/3 + 1/3)/3 = 10/27   OGW (10/21 + 3/7 + 3/7)/3 = 4/9
    # Order: A 9, C 6, E 4, then B and D on 3 (B's OMW 2/3 beats D's 13/27), F 1.
    assert _table(list("ABCDEF"), records) == [
        ("A", 9, (3, 0, 0), F(13, 27), F(6, 7), F(92, 189)),
        ("C", 6, (2, 1, 0), F(5, 9), F(5, 9), F(4, 7)),
        ("E", 4, (1, 1, 1), F(5, 9), F(10, 21), F(34, 63)),
        ("B", 3, (1, 2, 0), F(2, 3), F(3, 7), F(110, 189)),
        ("D", 3, (1, 2, 0), F(13, 27), F(3, 7), F(86, 189)),
        ("F", 1, (0, 2, 1), F(10, 27), F(1, 3), F(4, 9)),
    ]


def test_game_win_then_opponents_game_win_break_ties_with_the_one_third_floor() -> None:
    records = [M(1, "A", "B", 2, 0), M(1, "C", "D", 2, 1)]
    # A and C: 3 points, OMW 1/3 each (B's 0 and D's 0 are floored); GW A 1 > C 6/9 = 2/3.
    # B and D: 0 points, OMW 1 each; GW B 0 and D 3/9: both floored to 1/3; OGW B 1 (A's)
    # > D 2/3 (C's).
    assert _table(list("ABCD"), records) == [
        ("A", 3, (1, 0, 0), F(1, 3), F(1), F(1, 3)),
        ("C", 3, (1, 0, 0), F(1, 3), F(2, 3), F(1, 3)),
        ("B", 0, (0, 1, 0), F(1), F(1, 3), F(1)),
        ("D", 0, (0, 1, 0), F(1), F(1, 3), F(2, 3)),
    ]


def test_seat_order_breaks_the_last_ties() -> None:
    records = [M(1, "A", "B", 2, 0), M(1, "C", "D", 2, 0)]
    assert [s.player for s in standings(list("ABCD"), records)] == list("ACBD")
    assert [s.player for s in standings(list("CDAB"), records)] == list("CADB")
    # Nobody has played yet: seat order.
    assert [s.player for s in standings(list("DBCA"), [])] == list("DBCA")


def test_a_bye_is_a_match_won_2_0_and_is_left_out_of_opponents_percentages() -> None:
    records = [M(1, "A", "B", 2, 0), M(1, "C", None, 0, 0),
               M(2, "C", "A", 2, 0), M(2, "B", None, 0, 0)]
    # B: lost 0-2, bye (won 2-0): 3 points, MWP 3/6 = 1/2, GW 2 of 4 games = 1/2; its only
    # opponent is A (MWP 1/2, GW 1/2). C: bye and 2-0: 6 points, GW 4 of 4 = 1; opponent A.
    # A: 2-0 and 0-2: MWP 1/2, GW 1/2; opponents B (1/2, 1/2) and C (1, 1): 3/4 and 3/4.
    assert _table(list("ABC"), records) == [
        ("C", 6, (2, 0, 0), F(1, 2), F(1), F(1, 2)),
        ("A", 3, (1, 1, 0), F(3, 4), F(1, 2), F(3, 4)),
        ("B", 3, (1, 1, 0), F(1, 2), F(1, 2), F(1, 2)),
    ]
    # Only a bye so far: no opponent to average, the floor.
    only = standings(["A"], [M(1, "A", None, 2, 0)])[0]
    assert (only.points, only.omw, only.gw, only.ogw) == (3, 1 / 3, 1.0, 1 / 3)


def test_dropped_players_stay_in_the_standings_and_in_their_opponents_percentages() -> None:
    records = [M(1, "A", "B", 2, 0), M(1, "C", "D", 2, 0), M(2, "A", "C", 2, 0)]
    # D dropped after round 1: still listed, and still C's opponent.
    rows = {s.player: s for s in standings(list("ABCD"), records)}
    assert rows["D"].matches == (0, 1, 0)
    assert rows["C"].omw == pytest.approx((1 / 3 + 1) / 2)
    with pytest.raises(ValueError):
        standings(list("ABC"), records)


def test_rounds_for_a_pod() -> None:
    assert [rounds_for(n) for n in (1, 2, 3, 4, 5, 8, 9, 16, 64)] == [1, 1, 2, 2, 3, 3, 4, 4, 6]


def test_round_one_is_a_shuffle_from_the_rng_and_later_rounds_follow_the_standings() -> None:
    players = [f"p{i}" for i in range(8)]
    first = pair_round(players, [], Rng(1))
    assert first == pair_round(players, [], Rng(1))
    assert first != pair_round(players, [], Rng(2))
    # After round 1 the winners meet winners, the highest-ranked first (seat order breaks
    # the ties here: all won 2-0).
    records = [M(1, a, b, 2, 0) for a, b in [("p0", "p1"), ("p2", "p3"), ("p4", "p5"),
                                             ("p6", "p7")]]
    assert pair_round(players, records, Rng(9)) == [
        ("p0", "p2"), ("p4", "p6"), ("p1", "p3"), ("p5", "p7")]


def test_an_odd_points_group_pairs_down_and_the_lowest_gets_the_bye() -> None:
    records = [M(1, "A", "B", 2, 0), M(1, "C", "D", 2, 0), M(1, "E", None, 0, 0)]
    # A, C, E on 3 points: A-C, then E pairs down with B; D, lowest, gets the bye.
    assert pair_round(list("ABCDE"), records, Rng(0)) == [("A", "C"), ("E", "B"), ("D", None)]


def test_a_rematch_only_when_none_can_be_avoided() -> None:
    # Four players after a round robin: every pairing is a rematch; still everyone plays.
    records = [M(r, a, b, 2, 1) for r, (a, b) in enumerate(combinations("ABCD", 2))]
    pairs = pair_round(list("ABCD"), records, Rng(0))
    assert sorted(p for pair in pairs for p in pair if p) == list("ABCD")


# Properties, over random histories (rematches, drops and byes anywhere).

def _history(seed: int, n: int, rounds: int) -> tuple[list[str], list[MatchRecord]]:
    rng = Rng(seed)
    players = [f"p{i}" for i in range(n)]
    records = []
    for r in range(1, rounds + 1):
        order = list(players)
        rng.shuffle(order)
        for i in range(0, n - 1, 2):
            records.append(M(r, order[i], order[i + 1], rng.below(3), rng.below(3),
                             rng.below(2)))
        if n % 2:
            records.append(M(r, order[-1], None, 2, 0))
    return players, records


def _pairable(rest: list[str], ok: Callable[[frozenset[str]], bool]) -> bool:
    """By brute force: whether ``rest`` can be split into pairs that are all ``ok``."""
    return not rest or any(ok(frozenset((rest[0], q))) and _pairable(
        [x for x in rest[1:] if x != q], ok) for q in rest[1:])


def _exists_without_rematch(active: list[str], records: list[MatchRecord]) -> bool:
    """By brute force: some player with the fewest byes takes the bye (if the count is odd),
    and every way of pairing the rest is tried."""
    met = {frozenset((r.a, r.b)) for r in records if r.b is not None}
    byes = Counter(r.a for r in records if r.b is None)
    if len(active) % 2 == 0:
        return _pairable(active, lambda pair: pair not in met)
    fewest = min(byes[p] for p in active)
    return any(_pairable([q for q in active if q != p], lambda pair: pair not in met)
               for p in active if byes[p] == fewest)


def _check(active: list[str], records: list[MatchRecord], pairs: list[tuple[str, str | None]]
           ) -> bool:
    """Everyone once, the bye to a player with the fewest byes; whether a rematch is in it."""
    seen = [p for pair in pairs for p in pair if p is not None]
    assert sorted(seen) == sorted(active)
    byes = Counter(r.a for r in records if r.b is None)
    bye = [a for a, b in pairs if b is None]
    assert len(bye) == len(active) % 2
    if bye:
        assert byes[bye[0]] == min(byes[p] for p in active)
    met = {frozenset((r.a, r.b)) for r in records if r.b is not None}
    return any(b is not None and frozenset((a, b)) in met for a, b in pairs)


@given(st.integers(min_value=0, max_value=2**32), st.integers(min_value=2, max_value=9),
       st.integers(min_value=1, max_value=5), st.sets(st.integers(min_value=0, max_value=8)))
def test_pairings_never_rematch_while_avoidable_and_the_bye_rotates(
        seed: int, n: int, rounds: int, dropped: set[int]) -> None:
    players, records = _history(seed, n, rounds)
    active = [p for i, p in enumerate(players) if i not in dropped] or players[:1]
    pairs = pair_round(active, records, Rng(seed))
    rematch = _check(active, records, pairs)
    assert rematch == (not _exists_without_rematch(active, records))
    assert pairs == pair_round(active, records, Rng(seed + 1))  # the rng is for round 1 only
    # With no search steps at all the blossom matching decides, and finds the same answer to
    # "is there a pairing without a rematch".
    assert _check(active, records, pair_round(active, records, Rng(seed), budget=0)) == rematch


@given(st.integers(min_value=0, max_value=2**32), st.integers(min_value=2, max_value=9))
def test_a_whole_event_rotates_the_bye_and_pairs_everyone_once(seed: int, n: int) -> None:
    rng = Rng(seed)
    players = [f"p{i}" for i in range(n)]
    records: list[MatchRecord] = []
    for r in range(1, n + 2):  # more rounds than a round robin: rematches become forced
        pairs = pair_round(players, records, rng)
        forced = _exists_without_rematch(players, records)
        assert _check(players, records, pairs) == (not forced)
        for a, b in pairs:
            wins = rng.below(3)
            records.append(M(r, a, b, wins, 2 - wins) if b is not None else M(r, a, None, 2, 0))
        byes = Counter(r.a for r in records if r.b is None)
        assert max(byes.values(), default=0) - min(byes[p] for p in players) <= 1


@given(st.integers(min_value=0, max_value=2**32), st.integers(min_value=0, max_value=10))
def test_the_blossom_matching_finds_a_perfect_pairing_iff_one_exists(
        seed: int, half: int) -> None:
    rng = Rng(seed)
    players = [f"p{i}" for i in range(2 * half)]
    allowed = {frozenset(pq) for pq in combinations(players, 2) if rng.below(3) == 0}
    found = perfect_pairing(players, allowed)
    assert (found is not None) == _pairable(players, lambda pair: pair in allowed)
    if found is not None:
        assert sorted(p for pair in found for p in pair) == sorted(players)
        assert all(frozenset(pair) in allowed for pair in found)


def test_sixty_four_players_over_six_rounds_pair_without_rematches() -> None:
    rng = Rng(64)
    players = [f"p{i:02}" for i in range(64)]
    records: list[MatchRecord] = []
    for r in range(1, rounds_for(64) + 1):
        pairs = pair_round(players, records, rng)
        assert not _check(players, records, pairs)
        records += [M(r, a, b, 2, rng.below(2)) for a, b in pairs if b is not None]
