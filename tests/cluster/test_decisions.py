"""A node's decisions, with no servers and plain numbers for time (arbiter/server/cluster/
leases.py and lookups.py): when it renews its leases, which rooms it lets go when a renewal
finds a lease lapsed, which rooms it claims of a dead node's, what a lookup answers given what
the node holds and what the directory says, and how long it waits for a silent holder
(docs/cluster.md, "Routing" and "Failover and handover").

The node itself does the awaits; tests/cluster/test_node_tasks.py and test_nodes.py run the
same decisions against real Redis and PostgreSQL."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from arbiter.server.cluster.directory import Lease, NodeInfo
from arbiter.server.cluster.leases import Beats, Holdings, claim_batches
from arbiter.server.cluster.lookups import (
    AwaitTake,
    Elsewhere,
    GiveUp,
    Here,
    Nowhere,
    Pause,
    ReadHolder,
    ReadLease,
    ReadState,
    Rebuild,
    ReleaseStale,
    RoomLookup,
    Step,
    Take,
    placement,
)
from arbiter.server.cluster.settings import ClusterSettings
from arbiter.server.cluster.write_retry import Probe, RetrySchedule, probes
from arbiter.server.store.records import (
    CommandAppended,
    GameStarted,
    RoomCreated,
    RoomStateSet,
    SeatSet,
    SessionCreated,
)

SETTINGS = ClusterSettings(redis="redis://unused", postgres="unused")  # lease 4 s
ME, MY_URL = "B", "ws://b:8765/"
OTHER = NodeInfo("C", "ws://c:8765/", rooms=3, players=6, ttl=2.0)
ROOM = 7


def _lookup(room: int = ROOM) -> RoomLookup:
    return RoomLookup(room, node=ME, url=MY_URL, pause=SETTINGS.claim_every,
                      patience=SETTINGS.lookup_patience)


def _holding(*rooms: int, epoch: int = 1) -> Holdings:
    held = Holdings()
    for room in rooms:
        held.claimed(room, epoch)
    return held


# ---------------------------------------------------------------------- renewal timing


def test_leases_are_renewed_four_times_a_lease_even_when_beats_are_slow() -> None:
    beats = Beats(SETTINGS.beat)
    assert SETTINGS.beat == SETTINGS.lease / 4
    assert beats.wait(100.0) == 0, "a node that never beat beats at once"
    starts, now = [], 100.0
    while len(starts) < 10:
        now += beats.wait(now)
        beats.beaten(now)
        starts.append(now)
        now += 0.3  # Redis answers slowly: each beat takes 0.3 s
    # Counted from each beat's start: the renewals stay a quarter lease apart, not 1.3 s.
    assert starts == [100.0 + k for k in range(10)]
    # So a lease renewed at one beat is renewed three times more before it could lapse: a
    # node loses a room only if it stalls for three quarters of a lease.
    assert all(starts[i + 3] < starts[i] + SETTINGS.lease for i in range(len(starts) - 3))


def test_a_beat_slower_than_its_period_is_followed_by_the_next_at_once() -> None:
    beats = Beats(1.0)
    beats.beaten(10.0)
    assert beats.wait(10.25) == pytest.approx(0.75)
    assert beats.wait(12.5) == 0  # the beat that started at 10 ended at 12.5: overdue


# ---------------------------------------------------------------------- leases


def test_a_new_room_s_lease_is_taken_then_renewed_with_the_others() -> None:
    held = _holding(3, epoch=2)  # taken over from another node
    held.epochs[ROOM] = 1  # created here: owned at epoch 1 from its first record
    assert held.to_acquire() == {ROOM: 1}
    held.acquired(ROOM)
    assert held.to_acquire() == {}
    assert held.renewals() == {3: 2, ROOM: 1}


def test_a_lease_that_lapsed_lets_its_room_go_and_only_it() -> None:
    # The node stalled past its lease; the renewal says room 7's lease is gone (another node
    # may be claiming it): the node forgets it at once and never renews or publishes it again.
    held = _holding(3, ROOM)
    held.publish(ROOM, {"r": "7", "name": "Room 7"})
    held.outcome_unknown([ROOM])
    assert held.lost({ROOM}) == [ROOM]
    assert ROOM not in held.epochs and ROOM not in held.reload
    assert held.renewals() == {3: 1}
    assert held.publications({"3": {"r": "3"}, "7": {"r": "7"}}) == [(3, {"r": "3"})]
    assert held.lost(set()) == []


def test_finished_rooms_leave_the_directory_once_their_last_batch_is_written() -> None:
    held = _holding(3, 5, ROOM)
    held.outcome_unknown([5])  # its last write's outcome is unknown: rebuilt, not let go
    open_rooms = {"3"}  # the core dropped 5 (let go meanwhile) and 7 (its match ended)
    assert held.finished(open_rooms, writing=True) == []
    assert held.finished(open_rooms, writing=False) == [ROOM]


def test_only_changed_lobby_entries_are_published() -> None:
    held = _holding(3, ROOM)
    held.epochs[9] = 1  # not leased yet: only a lease holder may publish
    summaries = {"3": {"r": "3", "state": "waiting"}, "9": {"r": "9"}}
    assert held.publications(summaries) == [(3, summaries["3"])]
    held.publish(3, summaries["3"])
    assert held.publications(summaries) == []
    assert held.publications({"3": {"r": "3", "state": "playing"}}) == [
        (3, {"r": "3", "state": "playing"})]
    held.publish(ROOM, {"r": "7"})
    assert held.publications(summaries) == [(ROOM, None)]  # finished: off the lobby
    held.publish(ROOM, None)
    assert ROOM not in held.published


# ---------------------------------------------------------------------- claims


def test_a_dead_node_s_rooms_are_shared_between_the_live_nodes() -> None:
    held = _holding()
    due = [3, 5, 8, 9, 11]  # a dead node's rooms, their leases lapsed
    mine = held.to_claim(due, live_nodes=2)
    assert mine == [3, 5, 8]  # half, rounded up: the backlog is cleared in one round
    for room in mine:
        held.claimed(room, epoch=2)
    assert held.renewals() == {3: 2, 5: 2, 8: 2}
    assert held.to_claim(due, live_nodes=0) == [9, 11], "alone (its heartbeat lapsed too)"


def test_a_room_the_node_holds_or_is_taking_is_not_claimed_again() -> None:
    held = _holding(3)
    held.taking.add(5)
    assert held.to_claim([3, 5, 8], live_nodes=1) == [8]


def test_a_claim_batch_leaves_out_rooms_held_or_being_taken_and_repeats() -> None:
    # A lookup's take of one room and the claim loop's batch may name the same room (the
    # take under way is waited for, not raced); a room held here is never claimed (27.2).
    held = _holding(3)
    held.taking.add(5)
    assert held.claimable([8, 3, 5, 9, 8]) == [8, 9]


@given(st.lists(st.integers(1, 10_000), unique=True, max_size=300), st.integers(1, 60))
def test_claim_batches_cover_a_share_in_order_each_at_most_the_batch_size(
        rooms: list[int], size: int) -> None:
    batches = claim_batches(rooms, size)
    assert [room for batch in batches for room in batch] == rooms  # all, once, in order
    assert all(1 <= len(batch) <= size for batch in batches)
    assert len(batches) == -(-len(rooms) // size)  # as few as the size allows


def test_a_write_with_an_unknown_outcome_rebuilds_only_what_the_log_still_gives_this_node(
        ) -> None:
    held = _holding(3, ROOM)
    held.outcome_unknown([3, ROOM, 9])  # 9 is not held: nothing to rebuild
    assert held.reload == {3, ROOM}
    assert held.still_ours(3, ME, 1, node=ME)
    assert 3 in held.epochs and 3 not in held.reload
    assert not held.still_ours(ROOM, "C", 2, node=ME)  # claimed by C meanwhile
    assert ROOM not in held.epochs and ROOM not in held.reload
    held.claimed(11, 1)
    assert not held.still_ours(11, None, None, node=ME)  # gone from the log
    assert 11 not in held.epochs


# ---------------------------------------------------------------------- lookups


def test_a_room_held_here_is_answered_at_once() -> None:
    assert _lookup().next(_holding(ROOM), 0.0) == Here()


def test_a_lookup_while_a_reload_is_pending_rebuilds_the_room_first() -> None:
    held = _holding(ROOM)
    held.outcome_unknown([ROOM])
    look = _lookup()
    assert look.next(held, 0.0) == Rebuild()
    held.still_ours(ROOM, ME, 1, node=ME)  # what the rebuild finds in the log
    assert look.next(held, 0.1) == Here()


def test_a_lookup_while_a_reload_is_in_progress_waits_for_it() -> None:
    held = _holding(ROOM)
    held.taking.add(ROOM)  # being rebuilt (or taken over) by another task of this node
    look = _lookup()
    assert look.next(held, 0.0) == AwaitTake()
    assert look.next(held, 0.0) == AwaitTake(), "still under way: wait again"
    held.taking.discard(ROOM)
    assert look.next(held, 1.0) == Here(), "restored: here, never 'closed'"


def test_a_room_on_a_live_node_is_elsewhere() -> None:
    look = _lookup()
    assert look.next(Holdings(), 0.0) == ReadLease()
    look.lease_read(Lease(ROOM, "C", 3, ttl=3.5))
    assert look.next(Holdings(), 0.0) == ReadHolder("C")
    look.holder_read(OTHER)
    assert look.next(Holdings(), 0.0) == Elsewhere(OTHER.url)


def test_a_holder_at_this_node_s_own_address_is_never_a_redirect() -> None:
    look = _lookup()
    look.next(Holdings(), 0.0)
    look.lease_read(Lease(ROOM, "B-renamed", 3, ttl=3.5))
    assert look.next(Holdings(), 0.0) == ReadHolder("B-renamed")
    look.holder_read(NodeInfo("B-renamed", MY_URL, rooms=1, players=0, ttl=2.0))
    assert look.next(Holdings(), 0.0) == Nowhere()


def test_a_room_nobody_holds_is_taken_over_here() -> None:
    held, look = Holdings(), _lookup()
    look.next(held, 0.0)
    look.lease_read(None)
    assert look.next(held, 0.0) == Take()
    held.claimed(ROOM, 2)
    look.took(True)
    assert look.next(held, 0.2) == Here()


def _after_a_lost_take(held: Holdings) -> RoomLookup:
    """A lookup that found the room unheld and tried to take it over, in vain."""
    look = _lookup()
    assert look.next(held, 0.0) == ReadLease()
    look.lease_read(None)
    assert look.next(held, 0.0) == Take()
    look.took(False)
    assert look.next(held, 0.1) == ReadLease(), "did another node win it?"
    return look


def test_a_take_lost_to_another_node_looks_again_and_a_finished_room_is_nowhere() -> None:
    held = Holdings()
    look = _after_a_lost_take(held)
    look.lease_read(Lease(ROOM, "C", 3, ttl=4.0))
    assert look.next(held, 0.1) == ReadLease()  # yes: look again, from the top
    look.lease_read(Lease(ROOM, "C", 3, ttl=4.0))
    assert look.next(held, 0.1) == ReadHolder("C")
    # No node holds it and none could take it: the log says it is finished, or never was.
    finished = _after_a_lost_take(held)
    finished.lease_read(None)
    assert finished.next(held, 0.1) == ReadState()
    finished.state_read(False)
    assert finished.next(held, 0.1) == Nowhere()


def test_a_take_lost_to_a_claim_that_then_failed_looks_again_never_nowhere() -> None:
    # Found by the chaos test: another node's claim won the lease, then failed (PostgreSQL
    # away) and gave the lease back; on the lease alone the room looked finished, and its
    # returning players heard that it was closed. The log says it is open: look again.
    held = Holdings()
    look = _after_a_lost_take(held)
    look.lease_read(None)
    assert look.next(held, 0.1) == ReadState()
    look.state_read(True)
    assert look.next(held, 0.1) == Pause(SETTINGS.claim_every)
    assert look.next(held, 0.7) == ReadLease()
    look.lease_read(None)
    assert look.next(held, 0.7) == Take()
    held.claimed(ROOM, 4)
    look.took(True)
    assert look.next(held, 0.8) == Here()


def test_an_open_room_no_take_can_get_is_given_up_on_after_the_patience() -> None:
    # Each take fails and leaves no lease (PostgreSQL away): the client hears "unavailable"
    # (and is looked for again later), never that its open room is closed.
    look = _lookup()
    answers = {ReadLease(): lambda: look.lease_read(None), Take(): lambda: look.took(False),
               ReadState(): lambda: look.state_read(True)}
    assert _answered(look, answers) == (GiveUp(), pytest.approx(SETTINGS.lookup_patience))


def _answered(look: RoomLookup, answers: dict[Step, Callable[[], None]]
              ) -> tuple[Step, float]:
    """Drive ``look``, each question answered by ``answers`` and each pause waited out,
    until it answers: the answer, and the time it took."""
    held, now = Holdings(), 0.0
    while True:
        step = look.next(held, now)
        if isinstance(step, Pause):
            now += step.seconds
        elif step in answers:
            answers[step]()
        else:
            return step, now


def test_a_room_taken_by_another_task_while_the_lease_was_read_is_here() -> None:
    # The claim loop took the room while this lookup read the lease it had just acquired:
    # that lease is this node's own, and must not be let go as a previous run's.
    held, look = Holdings(), _lookup()
    look.next(held, 0.0)
    held.taking.add(ROOM)
    look.lease_read(Lease(ROOM, ME, 2, ttl=4.0))
    assert look.next(held, 0.0) == AwaitTake()
    held.taking.discard(ROOM)
    held.claimed(ROOM, 2)
    assert look.next(held, 0.1) == Here()


def test_a_lease_left_by_this_node_s_previous_run_is_released_then_taken() -> None:
    held, look = Holdings(), _lookup()
    look.next(held, 0.0)
    look.lease_read(Lease(ROOM, ME, 4, ttl=3.0))
    assert look.next(held, 0.0) == ReleaseStale(4)
    assert look.next(held, 0.0) == ReadLease()
    look.lease_read(None)
    assert look.next(held, 0.0) == Take()


def test_a_silent_holder_is_waited_for_until_its_lease_lapses() -> None:
    # The holder died: its heartbeat is gone (half a lease), its lease not yet (a lease).
    held, look, now = Holdings(), _lookup(), 0.0
    steps = []
    while True:
        step = look.next(held, now)
        steps.append(step)
        if step == ReadLease():
            lapsed = now >= 3.0  # the lease lapses 3 s after the lookup began
            look.lease_read(None if lapsed else Lease(ROOM, "C", 3, ttl=3.0 - now))
        elif step == ReadHolder("C"):
            look.holder_read(None)
        elif isinstance(step, Pause):
            now += step.seconds
        elif step == Take():
            held.claimed(ROOM, 4)
            look.took(True)
        else:
            break
    assert steps[-1] == Here() and now == 3.0
    assert steps.count(Pause(SETTINGS.claim_every)) == 6  # one claim period at a time


def test_a_holder_silent_for_longer_than_the_patience_is_given_up_on() -> None:
    # A frozen holder whose lease Redis never lets lapse (its renewals still land): the
    # client hears "unavailable" after a lease and a beat rather than waiting forever.
    look = _lookup()
    answers: dict[Step, Callable[[], None]] = {
        ReadLease(): lambda: look.lease_read(Lease(ROOM, "C", 3, ttl=4.0)),
        ReadHolder("C"): lambda: look.holder_read(None)}
    assert _answered(look, answers) == (GiveUp(), pytest.approx(SETTINGS.lookup_patience))
    assert SETTINGS.lookup_patience == SETTINGS.lease + SETTINGS.beat


def test_a_lookup_must_be_told_what_it_asked_before_it_goes_on() -> None:
    look = _lookup()
    assert look.next(Holdings(), 0.0) == ReadLease()
    with pytest.raises(AssertionError):
        look.next(Holdings(), 0.0)
    with pytest.raises(AssertionError):
        look.took(True)


# ---------------------------------------------------------------------- placement


def test_a_new_room_goes_to_a_node_with_at_least_two_rooms_fewer() -> None:
    assert placement(None, node=ME, url=MY_URL, rooms=9) is None
    assert placement(NodeInfo(ME, MY_URL, 0, 0, 2.0), node=ME, url=MY_URL, rooms=9) is None
    assert placement(OTHER, node=ME, url=MY_URL, rooms=4) is None  # within one room: here
    assert placement(OTHER, node=ME, url=MY_URL, rooms=5) == OTHER.url


# ---------------------------------------------------------------------- a batch tried again


def test_a_batch_is_tried_again_with_doubling_pauses_until_its_budget_is_spent() -> None:
    schedule = RetrySchedule(budget=3.0, first=0.1, longest=1.0)
    now, pauses = 50.0, []
    while (pause := schedule.next(now)) is not None:
        pauses.append(pause)
        now += pause + 0.05  # each try itself takes a moment before it fails
    assert pauses == [0.1, 0.2, 0.4, 0.8, 1.0]  # doubling, then at most a second apart
    assert now - 50.0 <= 3.0 + 1.0 and schedule.failed_at == 50.0
    assert RetrySchedule(budget=0.0).next(now) is None, "no budget: fails at once, as before"


def test_a_batch_whose_answer_was_lost_is_looked_for_by_a_row_of_each_room_it_inserts_in(
        ) -> None:
    seat = SeatSet(ROOM, 0, "t", "s", "Ann", None)
    command = CommandAppended(ROOM, 40, 3, {"t": "pass"}, None, None)
    # Upserts and assignments only: sent again as they are.
    assert probes([SessionCreated("tok", "Ann"), seat, RoomStateSet(ROOM, "playing")],
                  {ROOM: 2}) == []
    # A command is found at the epoch it was written under (a new owner writes the same
    # (game, n) at its own); a new room or game by its number. One row per room: a try may
    # have been written without the rooms another node had claimed.
    later = CommandAppended(ROOM, 40, 4, {"t": "pass"}, None, None)
    assert probes([seat, command, later, RoomCreated(9, "R", {}, None),
                   GameStarted(9, 41, 1, 5, {}, None)], {ROOM: 2, 9: 1}) == [
        Probe("commands", (40, 3, 2)), Probe("rooms", (9,))]
    assert probes([GameStarted(ROOM, 41, 2, 5, {}, None), command], {ROOM: 2}) == [
        Probe("games", (41,))]
