"""The event state machine (arbiter/server/events/event.py): phases in order, refusals that
change nothing, secrecy of packs and pools, and replay from the log (docs/events.md)."""

from __future__ import annotations

import copy
from collections import Counter
from typing import Any

import pytest

from arbiter.protocol.errors import Code, Refusal
from arbiter.server.events.boosters import open_boosters
from arbiter.server.events.event import Event, EventConfig, Phase
from arbiter.server.rules.rng import Rng

SEED = 2026


def _event(kind: str, seats: int, **extra: Any) -> Event:
    return Event(EventConfig.parse({"kind": kind, "seats": seats, **extra}, default_name="E"),
                 SEED)


def _entered(kind: str, people: int, bots: int = 0, **extra: Any) -> tuple[Event, list[dict]]:
    ev = _event(kind, people + bots, **extra)
    log: list[dict[str, Any]] = []
    for i in range(people):
        log.append({"c": "join", "session": f"s{i}", "name": f"P{i}", "token": f"t{i}"})
    log.append({"c": "start", "bots": [f"Bot {i + 1}" for i in range(bots)]})
    for cmd in log:
        ev.apply(cmd)
    return ev, log


def _refused(ev: Event, cmd: dict[str, Any], code: str) -> None:
    """``cmd`` is refused with ``code``, and every view is as it was."""
    before = [ev.view(s) for s in [None, *range(len(ev.entrants))]]
    with pytest.raises(Refusal) as exc:
        ev.apply(cmd)
    assert exc.value.code == code, exc.value
    assert [ev.view(s) for s in [None, *range(len(ev.entrants))]] == before


def _draft_all(ev: Event, log: list[dict[str, Any]]) -> None:
    """Every drafter takes the first card of the pack in front of them until the draft ends."""
    while ev.phase == Phase.DRAFTING:
        for e in ev.entrants:
            pack = ev.pack(e.seat)
            if pack is not None:
                cmd = {"c": "pick", "seat": e.seat, "card": pack[0]}
                ev.apply(cmd)
                log.append(cmd)


def _forests(n: int = 40) -> dict[str, int]:
    return {"Forest": n}


def test_settings_are_checked_and_have_defaults() -> None:
    c = EventConfig.parse({"kind": "draft"}, default_name="Friday")
    assert (c.name, c.set, c.seats, c.best_of, c.total_rounds) == ("Friday", "M10", 8, 3, 3)
    for bad in ({"kind": "cube"}, {"kind": "draft", "seats": 1}, {"kind": "draft", "set": "X"},
                {"kind": "sealed", "best_of": 2}, {"kind": "sealed", "colour": "red"},
                {"kind": "sealed", "pick_time": True}):
        with pytest.raises(Refusal) as exc:
            EventConfig.parse(bad, default_name="E")
        assert exc.value.code == Code.BAD_CONFIG


def test_sealed_players_open_six_boosters_each() -> None:
    ev, _ = _entered("sealed", 2, bots=1)
    assert ev.phase == Phase.BUILDING
    assert [sum(e.pool.values()) for e in ev.entrants] == [90, 90, 90]
    assert [e.name for e in ev.entrants] == ["P0", "P1", "Bot 1"] and ev.entrants[2].bot


def test_joining_a_started_event_is_refused() -> None:
    ev, _ = _entered("sealed", 2)
    _refused(ev, {"c": "join", "session": "late", "name": "L", "token": "tl"},
             Code.WRONG_STATE)
    _refused(ev, {"c": "start", "bots": []}, Code.WRONG_STATE)


def test_a_full_event_and_a_second_entry_are_refused() -> None:
    ev = _event("draft", 2)
    ev.apply({"c": "join", "session": "a", "name": "A", "token": "ta"})
    _refused(ev, {"c": "join", "session": "a", "name": "A", "token": "tb"}, Code.ALREADY_SEATED)
    ev.apply({"c": "join", "session": "b", "name": "B", "token": "tb"})
    _refused(ev, {"c": "join", "session": "c", "name": "C", "token": "tc"}, Code.ROOM_FULL)


def test_draft_picks_only_from_the_pack_in_front_and_once_per_pack() -> None:
    ev, _ = _entered("draft", 3, bots=5)
    assert ev.phase == Phase.DRAFTING and len(ev.pods) == 1
    pack = ev.pack(0)
    assert pack is not None and len(pack) == 15 and ev.pick_number(0) == 1
    not_there = next(p for p in ev.pack(1) or [] if p not in pack)
    _refused(ev, {"c": "pick", "seat": 0, "card": not_there}, Code.BAD_PICK)
    ev.apply({"c": "pick", "seat": 0, "card": pack[0]})
    # Seat 0's next pack comes from seat 7 (passed left), who has not picked yet.
    assert ev.pack(0) is None
    _refused(ev, {"c": "pick", "seat": 0, "card": pack[1]}, Code.BAD_PICK)
    assert ev.picks(0) == [pack[0]]


def test_a_draft_ends_with_45_picks_each_and_every_card_in_one_pool() -> None:
    ev, log = _entered("draft", 2, bots=6)
    _draft_all(ev, log)
    assert ev.phase == Phase.BUILDING
    assert [sum(e.pool.values()) for e in ev.entrants] == [45] * 8
    # The event's generator opened one pod's three rounds of eight boosters, and nothing
    # else: every card of them is in exactly one pool.
    rng = Rng(SEED)
    opened = Counter(c for _ in range(3) for pack in open_boosters("M10", rng, 8)
                     for c in pack)
    assert sum((e.pool for e in ev.entrants), Counter()) == opened
    replay = _event("draft", 8)
    for cmd in log:
        replay.apply(cmd)
    assert [e.pool for e in replay.entrants] == [e.pool for e in ev.entrants]


def test_more_than_eight_drafters_sit_at_pods_as_even_as_can_be() -> None:
    ev, log = _entered("draft", 1, bots=16)
    assert [p.seats for p in ev.pods] == [6, 6, 5]
    _draft_all(ev, log)
    assert [sum(e.pool.values()) for e in ev.entrants] == [45] * 17


def test_nobody_sees_another_drafters_pack_or_picks() -> None:
    ev, _ = _entered("draft", 2, bots=6)
    ev.apply({"c": "pick", "seat": 0, "card": (ev.pack(0) or [])[0]})
    mine = set(ev.picks(0)) | set(ev.pack(1) or [])
    for viewer in (None, 1):
        view = ev.view(viewer)
        others = str({k: v for k, v in view.items() if k != "you"})
        assert not any(f"'{card}'" in others for card in mine if card not in BASIC_NAMES)
    assert "you" not in ev.view(None)
    assert ev.view(1)["you"]["picks"] == [] and ev.view(0)["you"]["picks"] == ev.picks(0)
    assert ev.view(1)["you"]["pack"] == ev.pack(1)


BASIC_NAMES = ("Plains", "Island", "Swamp", "Mountain", "Forest")


def test_a_deck_with_cards_outside_the_pool_is_refused() -> None:
    ev, _ = _entered("sealed", 2)
    outside = next(n for n in ("Baneslayer Angel", "Ajani Goldmane", "Birds of Paradise",
                               "Lightning Bolt") if n not in ev.entrants[0].pool)
    _refused(ev, {"c": "deck", "seat": 0, "main": {**_forests(39), outside: 1}}, Code.BAD_DECK)
    _refused(ev, {"c": "deck", "seat": 0, "main": _forests(39)}, Code.BAD_DECK)
    ev.apply({"c": "deck", "seat": 0, "main": _forests()})
    assert ev.entrants[0].deck == _forests() and ev.phase == Phase.BUILDING


def _play_out(ev: Event, score: Any) -> list[list[tuple[int, int | None]]]:
    """Report every round's matches with ``score(round, a, b)`` until the event ends; return
    each round's pairings."""
    rounds = []
    while ev.phase == Phase.PLAYING:
        rounds.append([(p.a, p.b) for p in ev.pairings])
        for p in ev.unfinished():
            wins, draws = score(ev.round, p.a, p.b)
            ev.apply({"c": "result", "round": ev.round, "table": p.table, "wins": wins,
                      "draws": draws})
    return rounds


def test_swiss_rounds_follow_the_decks_and_never_repeat_a_pairing() -> None:
    ev, _ = _entered("sealed", 6, rounds=3)
    for seat in range(6):
        ev.apply({"c": "deck", "seat": seat, "main": _forests()})
    assert ev.phase == Phase.PLAYING and ev.round == 1 and len(ev.pairings) == 3
    rounds = _play_out(ev, lambda r, a, b: ([2, 0], 0) if a < b else ([1, 2], 0))
    assert ev.phase == Phase.FINISHED and len(rounds) == 3
    met = [frozenset(p) for r in rounds for p in r]
    assert len(met) == len(set(met)) == 9
    standings = ev.view(None)["standings"]
    assert [s["points"] for s in standings] == sorted((s["points"] for s in standings),
                                                      reverse=True)
    assert sum(s["w"] for s in standings) == 9 and sum(s["l"] for s in standings) == 9


def test_an_odd_player_gets_a_bye_worth_a_match_won_two_nil_and_byes_rotate() -> None:
    ev, _ = _entered("sealed", 5, rounds=3)
    for seat in range(5):
        ev.apply({"c": "deck", "seat": seat, "main": _forests()})
    byes = []
    while ev.phase == Phase.PLAYING:
        [bye] = [p for p in ev.pairings if p.b is None]
        assert bye.result == (2, 0, 0)
        byes.append(bye.a)
        for p in ev.unfinished():
            ev.apply({"c": "result", "round": ev.round, "table": p.table, "wins": [2, 1],
                      "draws": 0})
    assert len(byes) == 3 and len(set(byes)) == 3


def test_a_dropped_player_is_not_paired_again() -> None:
    ev, _ = _entered("sealed", 4, rounds=3)
    for seat in range(4):
        ev.apply({"c": "deck", "seat": seat, "main": _forests()})
    ev.apply({"c": "drop", "seat": 3})
    _refused(ev, {"c": "drop", "seat": 3}, Code.WRONG_STATE)
    for p in ev.unfinished():
        ev.apply({"c": "result", "round": 1, "table": p.table, "wins": [2, 0], "draws": 0})
    assert all(3 not in (p.a, p.b) for p in ev.pairings)
    _refused(ev, {"c": "result", "round": 1, "table": 1, "wins": [2, 0], "draws": 0},
             Code.WRONG_STATE)


def test_dropping_while_building_counts_as_done_building() -> None:
    ev, _ = _entered("sealed", 3)
    ev.apply({"c": "deck", "seat": 0, "main": _forests()})
    ev.apply({"c": "deck", "seat": 1, "main": _forests()})
    ev.apply({"c": "drop", "seat": 2})
    assert ev.phase == Phase.PLAYING and [(p.a, p.b) for p in ev.pairings] in (
        [(0, 1)], [(1, 0)])


def test_an_event_is_its_seed_and_commands() -> None:
    ev, log = _entered("draft", 3, bots=5, rounds=2)
    _draft_all(ev, log)
    for seat in range(8):
        cmd = {"c": "deck", "seat": seat, "main": _forests()}
        ev.apply(cmd)
        log.append(cmd)
    again = _event("draft", 8, rounds=2)
    for cmd in copy.deepcopy(log):
        again.apply(cmd)
    everyone = [None, *range(8)]
    assert [again.view(s) for s in everyone] == [ev.view(s) for s in everyone]
    # Another seed opens other boosters.
    first, other = _event("draft", 8), Event(ev.config, SEED + 1)
    for e in (first, other):
        for cmd in log[:4]:
            e.apply(cmd)
    assert first.pack(0) != other.pack(0)
