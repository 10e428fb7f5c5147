"""A booster-draft pod (issue 26; docs/rulings.md "Limited events"): three rounds of packs
passed left, right, left (CR 905.1a-b), packs queueing at a slow drafter, a pick timer that
shrinks with the pack, and refused picks that change nothing."""

from __future__ import annotations

import copy
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from arbiter.protocol.errors import Code, Refusal
from arbiter.server.events.boosters import draft_boosters
from arbiter.server.events.draft import Pod, pick_seconds
from arbiter.server.rules.rng import Rng


def _small() -> Pod:
    # Three seats, packs of two cards named round/seat/card: "1b0" is round 1, seat b's pack.
    return Pod.new([[[f"{r}{s}{c}" for c in range(2)] for s in "abc"] for r in range(3)])


def _first(pod: Pod, seat: int) -> str:
    pack = pod.pack(seat)
    assert pack is not None
    return pack[0]


def test_a_full_eight_seat_draft_of_m10_boosters() -> None:
    boosters = draft_boosters("M10", Rng(26), seats=8)
    pod = Pod.new(boosters)
    assert (pod.seats, pod.round, pod.done) == (8, 0, False)
    picks = 0
    while not pod.done:
        for seat in pod.waiting():
            pack = pod.pack(seat)
            assert pack is not None and pod.pick_number(seat) == 16 - len(pack)
            pod.pick(seat, pack[0])
            picks += 1
    assert picks == 8 * 45 and pod.round == 3 and pod.waiting() == []
    assert [len(p) for p in pod.picks] == [45] * 8
    # Conservation: every card of every booster ends in exactly one pool.
    opened = Counter(card for packs in boosters for pack in packs for card in pack)
    assert sum((Counter(p) for p in pod.picks), Counter()) == opened


def test_905_1b_packs_pass_left_then_right_then_left() -> None:
    pod = _small()
    for seat in range(3):  # first picks: each from its own pack
        assert pod.pack(seat) == [f"0{'abc'[seat]}0", f"0{'abc'[seat]}1"]
        pod.pick(seat, f"0{'abc'[seat]}0")
    # Round 0 passes left (seat + 1): seat 1 now holds seat 0's pack, seat 0 seat 2's.
    assert [pod.pack(s) for s in range(3)] == [["0c1"], ["0a1"], ["0b1"]]
    assert [pod.pick_number(s) for s in range(3)] == [2, 2, 2]
    for seat in range(3):
        pod.pick(seat, _first(pod, seat))
    assert pod.round == 1 and pod.picks[0] == ["0a0", "0c1"]
    for seat in range(3):
        pod.pick(seat, f"1{'abc'[seat]}0")
    # Round 1 passes right (seat - 1): seat 0 holds seat 1's pack, seat 2 seat 0's.
    assert [pod.pack(s) for s in range(3)] == [["1b1"], ["1c1"], ["1a1"]]
    for seat in range(3):
        pod.pick(seat, _first(pod, seat))
    for seat in range(3):
        pod.pick(seat, f"2{'abc'[seat]}0")
    assert [pod.pack(s) for s in range(3)] == [["2c1"], ["2a1"], ["2b1"]]  # left again


def test_packs_queue_at_a_slow_drafter_who_takes_them_in_order() -> None:
    pod = Pod.new([[["a1", "a2", "a3"], ["b1", "b2", "b3"], ["c1", "c2", "c3"]]])
    pod.pick(0, "a1")  # seat 1 has not picked: seat 0's pack waits behind its own
    assert pod.pack(1) == ["b1", "b2", "b3"] and pod.pack_size(1) == 3
    assert pod.waiting() == [1, 2]  # seat 0 has nothing until seat 2 passes
    assert pod.pack(0) is None and pod.pack_size(0) == 0 and pod.pick_number(0) == 0
    pod.pick(2, "c1")  # now seat 0 has seat 2's pack
    pod.pick(0, "c2")  # and passes it on: seat 1 has three packs queued
    assert [len(q) for q in pod.queues] == [0, 3, 0]
    pod.pick(1, "b1")
    assert pod.pack(1) == ["a2", "a3"] and pod.pick_number(1) == 2
    pod.pick(1, "a3")
    assert pod.pack(1) == ["c3"] and pod.pick_number(1) == 3
    pod.pick(1, "c3")  # the last card of seat 2's pack: nothing passed on
    assert pod.pack(2) == ["b2", "b3"] and pod.pack(0) is None
    assert pod.picks == [["a1", "c2"], ["b1", "a3", "c3"], ["c1"]]


def test_bad_picks_are_refused() -> None:
    pod = Pod.new([[["a1", "a2"], ["b1", "b2"]]])
    with pytest.raises(Refusal) as err:
        pod.pick(0, "b1")  # in another seat's pack
    assert err.value.code is Code.BAD_PICK and "not in the pack in front of you" in str(err.value)
    pod.pick(0, "a1")
    pod.pick(1, "b1")
    pod.pick(0, "b2")
    with pytest.raises(Refusal) as err:
        pod.pick(0, "a2")  # picking twice: no pack in front of seat 0 now
    assert err.value.code is Code.BAD_PICK and "no pack" in err.value.message
    with pytest.raises(Refusal) as err:
        pod.pick(5, "a2")
    assert err.value.code is Code.BAD_PICK
    pod.pick(1, "a2")
    assert pod.done and pod.round == 1
    with pytest.raises(Refusal) as err:
        pod.pick(1, "a2")
    assert err.value.code is Code.BAD_PICK and err.value.message == "the draft is over"


def test_a_pod_needs_one_pack_per_seat_in_every_round() -> None:
    bad: list[list[list[list[str]]]] = [[], [[]], [[["a"]], [["b"], ["c"]]], [[["a"], []]]]
    for boosters in bad:
        with pytest.raises(ValueError):
            Pod.new(boosters)


@given(st.lists(st.tuples(st.integers(min_value=-1, max_value=3),
                          st.integers(min_value=0, max_value=5),
                          st.booleans()), max_size=80))
def test_a_refused_pick_changes_nothing(moves: list[tuple[int, int, bool]]) -> None:
    # Four seats, three rounds of three-card packs; each move is a seat and a card that is
    # (or is not, to provoke a refusal) the i-th of the seat's pack.
    pod = Pod.new([[[f"{r}{s}{c}" for c in range(3)] for s in range(4)] for r in range(3)])
    for seat, index, valid in moves:
        pack = pod.pack(seat) or []
        card = pack[index % len(pack)] if valid and pack else f"x{index}"
        before = copy.deepcopy(pod)
        try:
            pod.pick(seat, card)
        except Refusal as err:
            assert err.code is Code.BAD_PICK
            assert pod == before
        else:
            assert pod != before and pod.picks[seat][-1] == card
    # Conservation: picked, in this round's packs, or in the packs of the rounds to come.
    unopened = 12 * (pod.rounds - pod.round - 1) if not pod.done else 0
    assert sum(len(p) for p in pod.picks) + pod.left_in_round + unopened == 36


def test_the_pick_timer_shrinks_with_the_pack() -> None:
    assert pick_seconds(15) == 75.0
    assert pick_seconds(14) == 70.0
    assert pick_seconds(8) == 40.0
    assert pick_seconds(1) == 5.0  # the floor
    assert pick_seconds(3, full=40.0, floor=10.0) == 10.0  # 8 s would be below the floor
    assert pick_seconds(20) == 75.0  # a bigger pack waits no longer than a full one
    assert pick_seconds(7, full=60.0, cards=14) == 30.0
    with pytest.raises(ValueError):
        pick_seconds(3, cards=0)
