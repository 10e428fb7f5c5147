"""The Grand Melee variant (CR 807): range of influence 1, attack left, several turns at once
with one turn marker and one stack each.

Seats are numbered clockwise and turns pass to the left, so with ten players turn marker 1
starts with player 0 and turn marker 2 with player 4 (CR 807.4b); player 0's range is 9, 0 and
1, player 4's is 3, 4 and 5 (CR 807.2a). Scenarios start every turn at the same step.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from arbiter.protocol.errors import Code, Refusal
from arbiter.server.rules import GameConfig, PlayerConfig, Table
from arbiter.server.rules.config import validate
from arbiter.server.rules.view import snapshot

from .helpers import G, Scene


def melee(players: int = 10) -> Scene:
    return Scene(players, variant="grand_melee")


def _players(n: int, **kw: object) -> tuple[PlayerConfig, ...]:
    return tuple(PlayerConfig(f"P{i}", ("Forest",) * 20, **kw)  # type: ignore[arg-type]
                 for i in range(n))


def until(g: G, done: Callable[[], bool], *, max_actions: int = 2000) -> G:
    """Take the do-nothing choice of every decision until ``done()``."""
    for _ in range(max_actions):
        if done():
            return g
        g.step_on()
    raise AssertionError("never got there")


def holder(g: G, number: int) -> int | None:
    m = g.marker(number)
    return m.holder if m is not None else None


def waiting(g: G, number: int) -> bool:
    m = g.marker(number)
    return m is not None and not m.taking_turn


def b_waits() -> G:
    """Nine players, markers 1 (A, seat 0) and 2 (E, seat 4), both turns in the end step.
    E's Lightning Bolt keeps E's end step going, so A's turn ends first: B gets marker 1, but
    E's is three seats to B's left, so B waits (CR 807.4d) while E's turn goes on."""
    g = melee(9).battlefield(4, "Mountain").hand(4, "Lightning Bolt").at("end").start()
    g.until_asked(4, 2).cast(4, "Lightning Bolt", 5)
    until(g, lambda: holder(g, 1) == 1)
    assert g.markers() == [(1, 1, "waiting"), (2, 4, "turn")]
    return g


# --------------------------------------------------------------------------- 807.2


def test_807_2a_everyone_has_range_of_influence_one() -> None:
    g = melee(10).start()
    assert g.game.ranges[0] == frozenset({9, 0, 1})
    assert g.game.ranges[4] == frozenset({3, 4, 5})
    assert all(len(r) == 3 for r in g.game.ranges.values())
    with pytest.raises(Refusal) as err:
        validate(GameConfig(players=_players(10), variant="grand_melee", range_of_influence=2))
    assert "807.2a" in err.value.message


def test_807_2b_creatures_attack_only_the_player_to_their_left() -> None:
    g = melee(10).battlefield(0, "Hill Giant").battlefield(4, "Hill Giant").at(
        "begin_combat").start()
    g.until_asked(0, 1, "attackers")
    assert {a.ref for a in g.options() if a.kind == "attack"} == {("p", 1)}
    g.choose("done")
    g.until_asked(4, 2, "attackers")
    assert {a.ref for a in g.options() if a.kind == "attack"} == {("p", 5)}


@pytest.mark.parametrize("changes,fragment", [
    ({"attack": "multiple"}, "807.2b"), ({"attack": "right"}, "807.2b"),
    ({"deploy_creatures": True}, "807.2c"), ({}, "807.4a"),
    ({"shared_team_turns": True}, "CR 805"),  # a free-for-all: no teams to share turns
])
def test_807_2_grand_melee_plays_with_its_own_options(changes: dict[str, object],
                                                      fragment: str) -> None:
    players = _players(3 if not changes else 10)
    with pytest.raises(Refusal) as err:
        validate(GameConfig(players=players, variant="grand_melee", **changes))  # type: ignore[arg-type]
    assert err.value.code is Code.BAD_CONFIG and fragment in err.value.message


def test_807_3_players_are_seated_at_random() -> None:
    orders = {tuple(Table(GameConfig(players=_players(10), variant="grand_melee"), seed)
                    .main.seats) for seed in range(4)}
    assert len(orders) > 1 and all(sorted(o) == list(range(10)) for o in orders)
    fixed = GameConfig(players=_players(10), variant="grand_melee", seating=tuple(range(10)))
    assert Table(fixed, 0).main.seats == list(range(10))


# --------------------------------------------------------------------------- 807.4


@pytest.mark.parametrize("players,markers", [(16, 4), (15, 3), (10, 2), (8, 2), (7, 1),
                                             (4, 1)])
def test_807_4a_one_turn_marker_for_each_full_four_players(players: int, markers: int) -> None:
    g = melee(players).start()
    assert len(g.markers()) == markers


def test_807_4b_markers_go_four_seats_apart_and_every_turn_begins_at_once() -> None:
    g = melee(13).at("upkeep", active=2).start()
    assert g.markers() == [(1, 2, "turn"), (2, 6, "turn"), (3, 10, "turn")]
    # Every turn has begun, in marker order, before anyone is asked anything.
    assert [line for line in g.log if line.startswith("Turn ")] == [
        "Turn markers (CR 807.4b): 1 to C, 2 to G, 3 to K.", "Turn 1: C.", "Turn 2: G.",
        "Turn 3: K."]
    assert [g.game.melee.context(m).step for m in g.game.melee.markers] == ["upkeep"] * 3
    assert (g.decision.player, g.decision.stack) == (2, 1)


def test_807_4b_the_starting_player_takes_the_first_marker() -> None:
    deck = ("Forest",) * 30
    config = GameConfig(players=tuple(PlayerConfig(f"P{i}", deck) for i in range(10)),
                        variant="grand_melee")
    for seed in range(3):
        g = G(Table(config, seed)).keep_hands()
        game = g.game
        first = game.seats.index(game.starting_player)
        assert g.markers() == [(1, game.starting_player, "turn"),
                               (2, game.seats[(first + 4) % 10], "turn")]


def test_807_4c_the_marker_passes_left_when_the_turn_ends() -> None:
    g = melee(10).at("end").start()
    until(g, lambda: holder(g, 1) != 0)
    assert holder(g, 1) == 1
    assert "Turn marker 1 passes to B." in g.log


def test_807_4c_a_holder_who_leaves_during_their_turn_passes_it_when_the_turn_ends() -> None:
    g = melee(10).at("main2").start()
    g.concede(0)
    assert g.markers()[0] == (1, 0, "turn")  # CR 800.4j: the turn goes on without them
    until(g, lambda: holder(g, 1) != 0)
    assert g.marker(1).holder == 1 and g.log.count("Turn marker 1 passes to B.") == 1


def test_807_4c_a_holder_who_leaves_before_their_turn_begins_passes_it_at_once() -> None:
    g = b_waits()
    g.concede(1)
    assert holder(g, 1) == 2 and waiting(g, 1)


def test_807_4d_a_player_waits_while_another_marker_is_within_three_seats_to_the_left() -> None:
    # B waits with marker 1 until E's marker reaches F, four seats to B's left.
    g = b_waits()
    assert any(line.startswith("B waits with turn marker 1") for line in g.log)
    while holder(g, 2) == 4:
        assert waiting(g, 1)
        assert g.decision.stack == 2  # only the other turn goes on meanwhile
        g.step_on()
    until(g, lambda: not waiting(g, 1))
    assert g.markers() == [(1, 1, "turn"), (2, 5, "turn")]
    assert g.game.melee.context(g.marker(1)).turn > g.game.melee.context(g.marker(2)).turn


def test_807_4e_807_4g_a_departure_that_costs_a_marker_removes_the_one_to_its_right() -> None:
    # Eight players, two markers (A and E). F leaves: seven players have one full four, so
    # the marker immediately to F's right, E's, is designated for removal; E is taking a
    # turn, so it is removed when that turn ends instead of being passed on.
    g = melee(8).at("end").start()
    g.concede(5)
    assert [(m.number, m.removals) for m in g.game.melee.markers] == [(1, 0), (2, 1)]
    assert g.markers() == [(1, 0, "turn"), (2, 4, "turn")]
    until(g, lambda: g.marker(2) is None)
    assert "Turn marker 2 is removed (CR 807.4g)." in g.log
    assert not any("Turn marker 2 passes" in line for line in g.log)
    until(g, lambda: holder(g, 1) == 1 and not waiting(g, 1))
    assert g.markers() == [(1, 1, "turn")]


def test_807_4e_players_leaving_at_once_cost_the_lowest_numbered_marker() -> None:
    # Twelve players, markers 1 (A), 2 (E), 3 (I). E's Volcanic Tremor kills D and F, on
    # either side of E, at once: ten players keep two markers. The marker immediately to D's
    # right is 1, to F's right 2: the lower number, 1, is designated.
    g = (melee(12).battlefield(4, "Mountain", "Wastes").hand(4, "Volcanic Tremor")
         .life(3, 2).life(5, 2).start())
    g.until_asked(4, 2).cast(4, "Volcanic Tremor").resolve()
    assert not g.in_game(3) and not g.in_game(5)
    assert [(m.number, m.removals) for m in g.game.melee.markers] == [(1, 1), (2, 0), (3, 0)]


def test_807_4e_807_4f_807_4g_designations_add_up_and_pass_right_on_removal() -> None:
    # Twelve players, markers 1 (A), 2 (E), 3 (I). G leaves (11 players: two markers
    # needed, so E's marker, the first to G's right, is designated); then F, H and D leave:
    # the designated marker doesn't count any more (CR 807.4f), so down to eight players
    # nothing else is designated. I leaves (seven: one marker): the marker to I's right is
    # E's again, designated twice. When E's turn ends it is removed and the marker to its
    # right, A's, gets the designation left over; A's turn is under way, so it goes when that
    # turn ends. I's marker, whose holder left, passes to J after I's turn.
    g = melee(12).at("main2").start()
    for pid in (6, 5, 7, 3):
        g.concede(pid)
    assert [(m.number, m.removals) for m in g.game.melee.markers] == [(1, 0), (2, 1), (3, 0)]
    g.concede(8)
    assert [(m.number, m.removals) for m in g.game.melee.markers] == [(1, 0), (2, 2), (3, 0)]
    until(g, lambda: g.marker(2) is None)
    assert g.marker(1).removals == 1 and g.marker(1).taking_turn
    until(g, lambda: g.marker(1) is None)
    until(g, lambda: holder(g, 3) == 9)
    assert g.markers() == [(3, 9, "turn")]
    assert len(g.game.players_in_game()) == 7


def test_807_4g_a_waiting_marker_designated_for_removal_goes_at_once() -> None:
    # Nine players: B waits with marker 1 (E's is three seats to the left). H leaves (eight
    # players: still two markers), then C: seven players need one marker, and the marker
    # immediately to C's right is B's, which is removed at once.
    g = b_waits()
    g.concede(7)
    assert len(g.markers()) == 2
    g.concede(2)
    assert g.markers() == [(2, 4, "turn")]
    assert g.log[-1] == "Turn marker 1 is removed (CR 807.4g)."
    until(g, lambda: holder(g, 2) == 5)


def test_807_4h_neighbours_of_a_departed_player_meet_only_when_a_turn_begins() -> None:
    g = melee(10).at("main2").start()
    g.concede(5)
    assert g.game.ranges[4] == frozenset({3, 4, 5}) and 4 not in g.game.ranges[6]
    assert 6 not in g.with_priority(2)  # E's marker is still out of G's reach
    until(g, lambda: holder(g, 1) != 0)  # A's turn ends; B's begins
    assert g.game.ranges[4] == frozenset({3, 4, 6}) and 4 in g.game.ranges[6]
    assert 6 in g.with_priority(2)


def test_807_4_two_turns_fight_two_separate_combats() -> None:
    # A attacks B and E attacks F at the same time: each defender blocks only in the combat
    # they are attacked in, each damage step deals only its own combat's damage, and the end
    # of one combat leaves the other's attacker attacking.
    g = (melee(10).battlefield(0, "Hill Giant").battlefield(4, "Hill Giant")
         .battlefield(1, "Grizzly Bears").battlefield(5, "Grizzly Bears")
         .at("begin_combat").start())
    g.until_asked(0, 1, "attackers").choose("attack", ref=("p", 1))
    g.until_asked(4, 2, "attackers").choose("attack", ref=("p", 5))
    giants = {1: g.obj("Hill Giant", controller=0), 2: g.obj("Hill Giant", controller=4)}
    combat = ("declare_attackers", "declare_blockers", "combat_damage", "end_combat")
    blockers: list[tuple[int, int | None]] = []
    apart = 0
    steps = lambda: {n: g.game.melee.context(g.marker(n)).step for n in (1, 2)}  # noqa: E731
    while set(steps().values()) != {"main2"}:
        d = g.decision
        if d.kind == "blockers":
            blockers.append((d.player, d.stack))
        now = steps()
        for n, other in ((1, 2), (2, 1)):
            if now[n] == "main2" and now[other] in combat:
                assert giants[n].attacking is None and giants[other].attacking is not None
                apart += 1
        g.step_on()
    assert sorted(blockers) == [(1, 1), (5, 2)] and apart
    assert g.life(1) == g.life(5) == 17
    assert g.log.count("Hill Giant deals 3 combat damage to B.") == 1
    assert g.log.count("Hill Giant deals 3 combat damage to F.") == 1


# --------------------------------------------------------------------------- 807.5


def test_807_5_each_turn_marker_has_its_own_stack() -> None:
    g = (melee(10).battlefield(0, "Mountain").hand(0, "Lightning Bolt")
         .battlefield(4, "Mountain").hand(4, "Lightning Bolt").start())
    g.until_asked(0, 1).cast(0, "Lightning Bolt", 1)
    g.until_asked(4, 2).cast(4, "Lightning Bolt", 5)
    assert g.stack_of(1) == g.stack_of(2) == ["Lightning Bolt"]
    first = g.game.melee.stacks[1][0]
    assert first.stack_id == 1 and g.game.melee.stacks[2][0].stack_id == 2
    until(g, lambda: not g.stack_of(1) or not g.stack_of(2))
    # Either stack resolves on its own; the other is untouched.
    assert (g.life(1), g.stack_of(2)) in ((17, ["Lightning Bolt"]), (20, []))
    assert g.life(5) in (17, 20) and (g.life(1) == 17) != (g.life(5) == 17)


def test_807_5a_priority_for_a_stack_goes_only_to_players_in_range() -> None:
    g = melee(10).battlefield(1, "Mountain").hand(1, "Lightning Bolt").start()
    asked: set[tuple[int, int | None]] = set()
    while not (g.decision.stack == 1 and g.game.step == "begin_combat"):
        asked.add((g.decision.player, g.decision.stack))
        g.step_on()
    assert {p for p, s in asked if s == 1} == {9, 0, 1}
    assert {p for p, s in asked if s == 2} == {3, 4, 5}
    # B puts a spell on marker 1's stack: C, who has B in range, now gets priority for it.
    g.until_asked(1, 1).cast(1, "Lightning Bolt", 0)
    assert g.with_priority(1) == [0, 1, 2, 9] and g.with_priority(2) == [3, 4, 5]
    g.until_asked(2, 1)
    assert g.find("pass") is not None


def test_807_5b_a_spell_goes_on_the_stack_of_the_decision_it_is_cast_in() -> None:
    # B has a spell on marker 1's stack and D one on marker 2's: C, between them, has
    # priority for both (CR 807.5a). Each decision C gets names its stack; what C casts goes
    # on that stack.
    g = (melee(10).battlefield(1, "Mountain").hand(1, "Lightning Bolt")
         .battlefield(3, "Mountain").hand(3, "Lightning Bolt")
         .battlefield(2, "Mountain", "Mountain").hand(2, "Lightning Bolt", "Lightning Bolt")
         .start())
    g.until_asked(3, 2).cast(3, "Lightning Bolt", 4)
    g.until_asked(1, 1).cast(1, "Lightning Bolt", 0)
    g.until_asked(2)
    assert g.decision.stack == 1 and 2 in g.with_priority(1) and 2 in g.with_priority(2)
    assert g.view(2)["w"] == [2, "priority", 1]
    g.cast(2, "Lightning Bolt", 1)
    assert [o.controller for o in g.game.melee.stacks[1]] == [1, 2]
    g.pass_().until_asked(2, 2).cast(2, "Lightning Bolt", 3)
    assert [o.controller for o in g.game.melee.stacks[2]] == [3, 2]
    assert [snapshot(g.game, 2)[o.oid]["sk"] for o in g.game.melee.stacks[2]] == [2, 2]


def test_807_5b_a_trigger_goes_on_the_stack_whose_object_caused_it() -> None:
    # E's Unsummon resolves on marker 2's stack and returns D's Bears: C's Extractor Demon
    # triggers. C has priority only for marker 1's stack (B's Lightning Bolt is on it), but
    # the ability goes on marker 2's, where the object that caused it was.
    g = (melee(10).battlefield(1, "Mountain").hand(1, "Lightning Bolt")
         .battlefield(2, "Extractor Demon").battlefield(3, "Grizzly Bears")
         .battlefield(4, "Island").hand(4, "Unsummon").start())
    g.until_asked(4, 2).cast(4, "Unsummon", "Grizzly Bears")
    g.until_asked(1, 1).cast(1, "Lightning Bolt", 0)
    assert 2 in g.with_priority(1) and 2 not in g.with_priority(2)
    until(g, lambda: "Unsummon" not in g.stack_of(2))
    assert (g.decision.player, g.decision.kind, g.decision.stack) == (2, "target", 2)
    assert g.stack_of(2) == ["Extractor Demon"] and g.stack_of(1) == ["Lightning Bolt"]
    g.target(3)
    assert 2 in g.with_priority(2)


def test_807_5b_a_player_with_priority_for_several_stacks_chooses_where_a_trigger_goes() -> None:
    # C controls Blood Tyrant and has spells on both stacks. D concedes: the Tyrant's "a
    # player loses the game" ability triggers, caused by nothing on a stack, and C chooses.
    g = (melee(10).battlefield(1, "Mountain").hand(1, "Lightning Bolt")
         .battlefield(3, "Mountain").hand(3, "Lightning Bolt")
         .battlefield(2, "Mountain", "Mountain", "Blood Tyrant")
         .hand(2, "Lightning Bolt", "Lightning Bolt").start())
    g.until_asked(3, 2).cast(3, "Lightning Bolt", 4)
    g.until_asked(1, 1).cast(1, "Lightning Bolt", 0)
    g.until_asked(2, 1).cast(2, "Lightning Bolt", 1)
    g.pass_().until_asked(2, 2).cast(2, "Lightning Bolt", 1)
    g.concede(3)
    assert (g.decision.player, g.decision.kind) == (2, "choose_stack")
    assert [a.index for a in g.options()] == [1, 2]
    g.choose("choose_stack", "turn marker 1")
    until(g, lambda: "Blood Tyrant" in g.stack_of(1))
    assert "Blood Tyrant" not in g.stack_of(2)


# --------------------------------------------------------------------------- restarts, subgames


def test_807_4b_a_restarted_grand_melee_hands_out_markers_from_the_restarting_player() -> None:
    # CR 724.1a, 801.17: everyone still in the game plays the new one, which starts with the
    # player who restarted it holding turn marker 1.
    g = melee(10).hand(5, "Second Beginning").start()
    g.concede(9)
    old = g.game
    g.until_asked(5, 2).cast(5, "Second Beginning").resolve()
    assert g.game is not old and g.game.players_in_game() == list(range(9))
    g.keep_hands()
    assert g.markers() == [(1, 5, "turn"), (2, 0, "turn")]  # four live seats on from F
    assert g.stack_of(1) == g.stack_of(2) == []


def test_807_5_a_subgame_suspends_every_turn_of_the_main_game() -> None:
    # E casts Tale Within a Tale on marker 2's stack: D, E and F (E's range) play a subgame of
    # one turn marker; marker 1's turn waits until the subgame is over (CR 726.1a).
    g = melee(10).hand(4, "Tale Within a Tale").start()
    main = g.game
    g.until_asked(4, 2).cast(4, "Tale Within a Tale").resolve()
    sub = g.game
    first = main.melee.markers[0]
    step, priority = main.melee.context(first).step, main.melee.context(first).priority
    assert sub is not main and sub.players_in_game() == [3, 4, 5]
    g.keep_hands()
    assert len(sub.melee.markers) == 1 and main.suspended
    g.concede(3).concede(5)
    assert g.game is main and not main.suspended
    assert (first.ctx.step, first.ctx.priority) == (step, priority)
    assert [g.life(p) for p in (3, 4, 5)] == [10, 20, 10]
    assert g.stack_of(2) == []


def test_807_4a_a_two_player_subgame_of_a_grand_melee_skips_the_first_draw() -> None:
    # B is alone with A in B's range (C has left): the subgame of two players has one turn
    # marker and is a two-player game, so its first player skips their first draw (CR 103.8a).
    g = melee(10).hand(1, "Tale Within a Tale").start()
    g.concede(2)
    g.until_asked(1, 1).cast(1, "Tale Within a Tale").resolve()
    sub = g.game
    assert sub.players_in_game() == [0, 1]
    g.keep_hands()
    assert len(sub.melee.markers) == 1
    first = sub.starting_player
    hand = len(sub.hand(first))
    until(g, lambda: g.game.step == "main1")
    assert len(sub.hand(first)) == hand
    assert any(line.endswith("skips the first draw step.") for line in g.log)
