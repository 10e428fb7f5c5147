"""Limited events in the room core (docs/events.md): a person drafts against bots, builds, and
plays the round's match in an ordinary room; bad requests change nothing; the log brings an
event back where it was, mid-pick included; nobody sees another's pack."""

from __future__ import annotations

import random
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from arbiter.bots.strategies import heuristic_strategy
from arbiter.server.rooms.context import HubSettings
from arbiter.server.store.db import Store

from .sim import Player, Sim, restart


def _event(p: Player, room: str) -> dict[str, Any]:
    """The latest state of event ``room`` that ``p`` was sent."""
    states = [m["ev"] for m in p.messages if m["t"] == "event" and m["r"] == room]
    assert states, f"{p.name} has no state of event {room}"
    return states[-1]


def _host(sim: Sim, config: dict[str, Any], name: str = "Host") -> tuple[Player, str]:
    host = sim.connect(name)
    room = host.ok({"t": "create_event", "config": config})["r"]
    return host, room


def _draft(sim: Sim, p: Player, room: str) -> None:
    """``p`` takes the first card of every pack that comes, until the draft is over."""
    for _ in range(200):
        ev = _event(p, room)
        if ev["phase"] != "drafting":
            return
        pack = ev["you"].get("pack")
        if pack:
            p.ok({"t": "pick", "r": room, "card": pack[0]})
        else:
            sim.advance(1)
    raise AssertionError("the draft did not end")


def _deck_text(pool: dict[str, int]) -> str:
    """A legal Limited deck from a pool: its cards and Forests to forty."""
    spells = sum(pool.values())
    return "\n".join([*(f"{n} {c}" for c, n in pool.items()),
                      f"{max(40 - spells, 17)} Forest"])


def _play_match(sim: Sim, p: Player, match: str, *, limit: float = 3600) -> None:
    """``p`` plays its seat of ``match`` (the heuristic bot's choices) while time passes for
    the server's bots, until the match is over."""
    rng = random.Random(3)
    waited = 0.0
    while waited < limit:
        summary = [m for m in p.messages if m["t"] == "room" and m["r"] == match]
        if summary and summary[-1]["state"] == "finished":
            return
        if not sim.play({0: p}, strategy=heuristic_strategy, rng=rng, max_actions=500):
            sim.advance(1)
            waited += 1
    raise AssertionError(f"match {match} did not end in {limit} s")


def test_a_person_drafts_against_seven_bots_builds_and_plays_round_one() -> None:
    sim = Sim(HubSettings(bot_think=0.01))
    host, room = _host(sim, {"kind": "draft", "seats": 8, "rounds": 3, "best_of": 1})
    ann = sim.connect("Ann")
    assert ann.ok({"t": "join", "r": room})["seat"] == 0
    assert _event(ann, room)["phase"] == "lobby"
    host.ok({"t": "start", "r": room})
    ev = _event(ann, room)
    assert ev["phase"] == "drafting" and [e["b"] for e in ev["entrants"]] == [False] + [True] * 7
    assert len(ev["you"]["pack"]) == 15 and ev["you"]["timer"] == 75.0
    _draft(sim, ann, room)
    ev = _event(ann, room)
    assert ev["phase"] == "building" and sum(ev["you"]["pool"].values()) == 45
    assert all(e["deck"] for e in ev["entrants"][1:]), "bots build at once"
    ann.ok({"t": "deck", "r": room, "text": _deck_text(ev["you"]["pool"])})
    ev = _event(ann, room)
    assert ev["phase"] == "playing" and ev["round"] == 1 and len(ev["pairings"]) == 4
    match = ev["you"]["match"]["r"]
    assert all("room" in p for p in ev["pairings"])
    assert ann.ok({"t": "join", "r": match})["seat"] == ev["you"]["match"]["seat"]
    _play_match(sim, ann, match)
    for _ in range(3600):  # the bots' matches of the round
        if _event(ann, room)["round"] > 1:
            break
        sim.advance(1)
    ev = _event(ann, room)
    assert ev["round"] == 2 and len(ev["standings"]) == 8
    assert sum(s["points"] for s in ev["standings"]) in range(12, 13), "four matches, 3 each"


def test_bad_event_requests_are_refused_and_change_nothing() -> None:
    sim = Sim()
    host, room = _host(sim, {"kind": "draft", "seats": 3})
    ann, bob = sim.connect("Ann"), sim.connect("Bob")
    ann.ok({"t": "join", "r": room})
    assert ann.call({"t": "pick", "r": room, "card": "Forest"})["code"] == "wrong_state"
    assert ann.call({"t": "start", "r": room})["code"] == "not_host"
    host.ok({"t": "start", "r": room})
    assert host.call({"t": "start", "r": room})["code"] == "wrong_state"
    assert bob.call({"t": "join", "r": room})["code"] == "wrong_state"
    before = _event(ann, room)
    pack = before["you"]["pack"]
    assert ann.call({"t": "pick", "r": room, "card": "Not A Card"})["code"] == "bad_pick"
    assert bob.call({"t": "pick", "r": room, "card": pack[0]})["code"] == "not_seated"
    assert _event(ann, room) == before
    ann.ok({"t": "pick", "r": room, "card": pack[0]})
    # The bots picked at once, so a pack is already waiting: picking its card is fine, but
    # picking the card just taken again is not (it is in nobody's pack in front of Ann).
    again = ann.call({"t": "pick", "r": room, "card": pack[0]})
    if pack[0] not in (_event(ann, room)["you"]["pack"] or []):
        assert again["code"] == "bad_pick"
    # Rooms and events share ids: a game request to an event is refused.
    assert ann.call({"t": "act", "r": room, "s": 1, "a": 0})["code"] == "wrong_state"


def test_a_deck_outside_the_pool_is_refused() -> None:
    sim = Sim()
    host, room = _host(sim, {"kind": "sealed", "seats": 2})
    ann = sim.connect("Ann")
    ann.ok({"t": "join", "r": room})
    host.ok({"t": "start", "r": room})
    pool = _event(ann, room)["you"]["pool"]
    outsider = next(c for c in ("Baneslayer Angel", "Lightning Bolt", "Giant Growth",
                                "Ajani Goldmane") if c not in pool)
    reply = ann.call({"t": "deck", "r": room, "text": f"39 Forest\n1 {outsider}"})
    assert reply["code"] == "bad_deck" and outsider in reply["msg"]
    assert ann.call({"t": "deck", "r": room, "ready": "m10-red-burn"})["code"] == "bad_deck"
    assert _event(ann, room)["you"]["deck"] is None


def test_spectators_see_no_pack_and_no_pool_until_the_event_ends() -> None:
    sim = Sim()
    host, room = _host(sim, {"kind": "draft", "seats": 4})
    ann, eve = sim.connect("Ann"), sim.connect("Eve")
    ann.ok({"t": "join", "r": room})
    eve.ok({"t": "spectate", "r": room})
    host.ok({"t": "start", "r": room})
    ann_ev = _event(ann, room)
    secret = set(ann_ev["you"]["pack"]) - {"Plains", "Island", "Swamp", "Mountain", "Forest"}
    for msg in eve.messages + host.messages:
        assert not any(card in str(msg) for card in secret)


def test_an_absent_drafter_is_picked_for_after_the_grace_period() -> None:
    sim = Sim(HubSettings(grace=30))
    host, room = _host(sim, {"kind": "draft", "seats": 2, "pick_time": 75})
    ann = sim.connect("Ann")
    ann.ok({"t": "join", "r": room})
    host.ok({"t": "start", "r": room})
    ann.close()
    sim.advance(29)
    bob = sim.connect("Bob")
    bob.ok({"t": "spectate", "r": room})
    assert _event(bob, room)["draft"]["waiting"] == [0]
    sim.advance(2)  # the grace period is over: every pick of hers is made at once
    assert _event(bob, room)["phase"] == "building"


def test_a_pick_not_made_in_time_is_made_for_the_drafter() -> None:
    sim = Sim()
    host, room = _host(sim, {"kind": "draft", "seats": 2, "pick_time": 30, "pick_floor": 5})
    ann = sim.connect("Ann")
    ann.ok({"t": "join", "r": room})
    host.ok({"t": "start", "r": room})
    assert _event(ann, room)["you"]["timer"] == 30.0
    sim.advance(29)
    assert _event(ann, room)["you"]["pick"] == 1
    sim.advance(1)
    ev = _event(ann, room)
    assert len(ev["you"]["picks"]) == 1 and ev["you"]["pick"] == 2
    assert ev["you"]["timer"] == 28.0, "14 cards left: 30 s x 14/15"




def test_a_restart_mid_draft_keeps_every_pick_and_the_pack_in_front(tmp_path: Path) -> None:
    store = Store(tmp_path / "log.sqlite3")
    sim = Sim(store=store)
    host, room = _host(sim, {"kind": "draft", "seats": 8})
    ann = sim.connect("Ann")
    ann.ok({"t": "join", "r": room})
    host.ok({"t": "start", "r": room})
    for _ in range(5):
        ann.ok({"t": "pick", "r": room, "card": _event(ann, room)["you"]["pack"][0]})
    before = _event(ann, room)["you"]
    second, lines = restart(store)
    assert any(line.startswith(f"event {room} resumed: drafting") for line in lines), lines
    back = second.connect(session=ann.session)
    after = _event(back, room)["you"]
    assert (after["picks"], after["pack"], after["pool"]) == (before["picks"], before["pack"],
                                                              before["pool"])
    back.ok({"t": "pick", "r": room, "card": after["pack"][0]})
    assert len(_event(back, room)["you"]["picks"]) == 6


def test_a_restart_while_building_and_during_a_round(tmp_path: Path) -> None:
    store = Store(tmp_path / "log.sqlite3")
    sim = Sim(HubSettings(bot_think=0.01), store=store)
    host, room = _host(sim, {"kind": "sealed", "seats": 4, "best_of": 1})
    ann = sim.connect("Ann")
    ann.ok({"t": "join", "r": room})
    host.ok({"t": "start", "r": room})
    pool = _event(ann, room)["you"]["pool"]
    second, _ = restart(store, bot_think=0.01)
    back = second.connect(session=ann.session)
    ev = _event(back, room)
    assert ev["phase"] == "building" and ev["you"]["pool"] == pool
    assert [e["deck"] for e in ev["entrants"]] == [False, True, True, True]
    back.ok({"t": "deck", "r": room, "text": _deck_text(pool)})
    ev = _event(back, room)
    match = ev["you"]["match"]["r"]
    back.ok({"t": "join", "r": match})
    second.play({0: back}, strategy=heuristic_strategy, max_actions=5)
    third, lines = restart(store, bot_think=0.01)
    assert any(f"room {match} resumed" in line for line in lines), lines
    again = third.connect(session=ann.session)
    ev = _event(again, room)
    assert ev["phase"] == "playing" and ev["you"]["match"]["r"] == match
    again.ok({"t": "join", "r": match})
    _play_match(third, again, match)
    for _ in range(3600):
        if _event(again, room)["round"] > 1:
            break
        third.advance(1)
    assert _event(again, room)["round"] == 2


def _by_hand(ev: dict[str, Any], history: list[list[dict[str, Any]]]
             ) -> list[tuple[int, int, float, float, float]]:
    """The standings worked out from each round's results the long way, as a scorekeeper
    would: 3 points a match won, 1 a match drawn; percentages floored at one third; a bye
    (none with six players) would count as a win and be left out of opponents' figures."""
    seats = [e["seat"] for e in ev["entrants"]]
    points = dict.fromkeys(seats, 0)
    matches = {s: [0, 0] for s in seats}  # points, matches played
    games = {s: [0, 0] for s in seats}  # game points (3 a win, 1 a draw), games played
    opponents: dict[int, list[int]] = {s: [] for s in seats}
    for pairings in history:
        for p in pairings:
            a, b, (wa, wb, d) = p["a"], p["b"], p["result"]
            for me, them, won, lost in ((a, b, wa, wb), (b, a, wb, wa)):
                got = 3 if won > lost else 1 if won == lost else 0
                points[me] += got
                matches[me][0] += got
                matches[me][1] += 1
                games[me][0] += 3 * won + d
                games[me][1] += won + lost + d
                opponents[me].append(them)

    def pct(pair: list[int]) -> Fraction:
        return max(Fraction(1, 3), Fraction(pair[0], 3 * pair[1]))

    def opp(of: dict[int, list[int]], s: int) -> Fraction:
        return sum((pct(of[o]) for o in opponents[s]), Fraction()) / len(opponents[s])

    rows = [(s, points[s], opp(matches, s), pct(games[s]), opp(games, s)) for s in seats]
    rows.sort(key=lambda r: (-r[1], -r[2], -r[3], -r[4], r[0]))
    return [(s, p, round(float(o), 4), round(float(g), 4), round(float(og), 4))
            for s, p, o, g, og in rows]


@pytest.mark.slow
def test_a_sealed_event_of_six_bots_ends_with_standings_a_scorekeeper_agrees_with() -> None:
    sim = Sim(HubSettings(bot_think=0.01))
    host, room = _host(sim, {"kind": "sealed", "seats": 6, "rounds": 3, "best_of": 3})
    host.ok({"t": "spectate", "r": room})
    host.ok({"t": "start", "r": room})
    for _ in range(20_000):
        if _event(host, room)["phase"] == "finished":
            break
        sim.advance(5)
    ev = _event(host, room)
    assert ev["phase"] == "finished", "the event did not end"
    history = [[m for m in ev["matches"] if m["round"] == r] for r in (1, 2, 3)]
    assert len(history) == 3 and all(len(r) == 3 for r in history)
    met = [frozenset((p["a"], p["b"])) for r in history for p in r]
    assert len(set(met)) == 9, "no pairing repeats while one can be avoided"
    table = [(s["seat"], s["points"], s["omw"], s["gw"], s["ogw"]) for s in ev["standings"]]
    assert table == _by_hand(ev, history)
    assert [s["rank"] for s in ev["standings"]] == [1, 2, 3, 4, 5, 6]
    assert len(ev["pools"]) == 6 and all(sum(p["deck"].values()) >= 40 for p in ev["pools"])


def test_your_match_is_offered_only_while_it_is_open() -> None:
    """``you.match`` is the match to join while it is open (docs/protocol.md section 15):
    once it has its result, while the round's other matches go on, it is no longer offered."""
    sim = Sim(HubSettings(bot_think=30))  # the bots' matches do not move while no time passes
    host, room = _host(sim, {"kind": "sealed", "seats": 4, "best_of": 1, "rounds": 2})
    ann = sim.connect("Ann")
    ann.ok({"t": "join", "r": room})
    host.ok({"t": "start", "r": room})
    ann.ok({"t": "deck", "r": room, "text": _deck_text(_event(ann, room)["you"]["pool"])})
    ev = _event(ann, room)
    match = ev["you"]["match"]["r"]
    ann.ok({"t": "join", "r": match})
    ann.ok({"t": "concede", "r": match})  # CR 104.3a: the game, and the match of one, is over
    ev = _event(ann, room)
    mine = next(p for p in ev["pairings"] if p.get("room") == match)
    assert ev["round"] == 1 and mine["result"] is not None
    assert any(p["result"] is None for p in ev["pairings"]), "the bots' match goes on"
    assert "match" not in ev["you"]
