"""A Limited event survives SIGKILL (issue 26, docs/events.md "Durable"): a real ``arbiter
serve`` is killed during the draft with a pick in flight, during deck building, and twice during
a round (a move in flight; then just after a match's result was acknowledged), and started
again on the same data directory each time. Two players on real websocket connections come
back with their sessions and find the event where the log left it: every acknowledged pick,
deck and result is there, a pick in flight is there at most once, the pack in front of them and
their picks are as they were, and no frame any client received, before or after a kill, shows
a player another's pack, picks or pool. Every wait is for a condition, with a bound."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import trio

from arbiter.bots.strategies import heuristic_strategy
from arbiter.server.rules.cards.catalog import cards
from arbiter.server.store.db import DB_NAME, Store
from tests.server.harness import Activity, Client

from .event_views import deck_text, state, you
from .procs import Server

BOUND = 30.0  # seconds for anything below to happen, on a busy machine
NAMES = ("Ann", "Bob")  # seats 0 and 1, in the order they enter
# The event's state as a player may see it (docs/protocol.md section 15): nothing else.
EVENT_KEYS = {"r", "config", "phase", "entrants", "round", "rounds", "draft", "pairings",
              "standings", "matches", "you", "pools"}
PRIVATE = {"pack", "picks", "pool", "pools"}  # a player's own, until the event has finished


class Table:
    """The two players' connections (a new one for each after every restart), and every
    message each connection of each seat was sent."""

    def __init__(self, nursery: trio.Nursery, activity: Activity) -> None:
        self.nursery = nursery
        self.activity = activity
        self.clients: list[Client] = []
        self.sessions: list[str] = []
        self.received: list[tuple[int, Client]] = []  # (seat, connection), every one opened

    async def open(self, port: int) -> None:
        fresh = not self.sessions
        self.clients = []
        for seat, name in enumerate(NAMES):
            if fresh:
                c = await Client.open(self.nursery, port, name, activity=self.activity)
                assert c.session is not None
                self.sessions.append(c.session)
            else:
                c = await Client.open(self.nursery, port, session=self.sessions[seat],
                                      activity=self.activity)
            self.clients.append(c)
            self.received.append((seat, c))

    async def until(self, condition: Callable[[], Any], what: str) -> None:
        with trio.move_on_after(BOUND):
            await self.activity.until(lambda: bool(condition()))
        assert condition(), f"timed out after {BOUND:g} s waiting for {what}"

    async def all_closed(self) -> None:
        await self.until(lambda: all(c.closed for c in self.clients), "the connections to end")


def logged(data: Path, room: str) -> list[dict[str, Any]]:
    """The event's commands as the log holds them (the server is down: nothing writes)."""
    store = Store(data / DB_NAME)
    try:
        (game,) = store.games(int(room))
        return [r.command for r in store.commands(game.id)]
    finally:
        store.close()


def logged_picks(commands: list[dict[str, Any]], seat: int) -> list[str]:
    return [c["card"] for c in commands if c["c"] == "pick" and c["seat"] == seat]


def match_moves(data: Path, room: str) -> list[tuple[int, Any]]:
    """(serial, action) of each command of match ``room``'s game being played, from the log."""
    store = Store(data / DB_NAME)
    try:
        game = [g for g in store.games(int(room)) if g.result is None][-1]
        return [(r.command["serial"], r.command["action"]) for r in store.commands(game.id)]
    finally:
        store.close()


def assert_private(table: Table, room: str) -> None:
    """No message any connection received shows a player another's pack, picks or pool: an
    event's state holds only its own documented keys, its ``you`` is the receiver's own seat,
    ``pools`` only once finished, and no other message carries a pack or picks at all."""
    for seat, c in table.received:
        for m in c.messages:
            if m["t"] == "event" and m["r"] == room:
                ev = m["ev"]
                assert set(ev) <= EVENT_KEYS, sorted(ev)
                assert "you" not in ev or ev["you"]["seat"] == seat, (seat, ev["you"])
                assert "pools" not in ev or ev["phase"] == "finished"
                assert set(ev.get("draft", {})) <= {"pack", "waiting"}
                assert all(not PRIVATE & set(e) for e in ev["entrants"])
            else:
                assert not _private_keys(m), (seat, m["t"])


def _private_keys(value: Any) -> set[str]:
    if isinstance(value, dict):
        found = {k for k in value if k in ("pack", "picks", "pools")}
        for v in value.values():
            found |= _private_keys(v)
        return found
    if isinstance(value, list):
        return set().union(*(_private_keys(v) for v in value)) if value else set()
    return set()


async def test_an_event_survives_sigkill_in_the_draft_building_and_a_round(
        tmp_path: Path) -> None:
    data = tmp_path / "data"
    server = Server(data, 0, "--grace", "600", "--ping-interval", "0", "--rate", "100000",
                    "--burst", "100000")
    server.start()
    try:
        async with trio.open_nursery() as nursery:
            await _run(server, data, Table(nursery, Activity()))
            nursery.cancel_scope.cancel()
    finally:
        server.stop()


async def _restart(server: Server, table: Table, room: str, phase: str) -> None:
    server.start()
    assert any(f"event {room} resumed: {phase}" in line for line in server.output), \
        server.output
    await table.open(server.port)
    await table.until(lambda: all(state(c, room) is not None for c in table.clients),
                      "the event's state on coming back")


async def _run(server: Server, data: Path, table: Table) -> None:
    await table.open(server.port)
    ann, bob = table.clients
    room = (await ann.ok({"t": "create_event", "config": {
        "kind": "draft", "seats": 2, "rounds": 2, "best_of": 1, "pick_time": 600,
        "bots": False}}))["r"]
    for c in (ann, bob):
        await c.ok({"t": "join", "r": room})
    await ann.ok({"t": "start", "r": room})
    acked: list[list[str]] = [[], []]  # each seat's acknowledged picks, in order

    def holder() -> int | None:
        """A seat with a pack in front of it (its connection's latest state says so)."""
        for seat, c in enumerate(table.clients):
            ev = state(c, room)
            if ev is not None and ev["phase"] == "drafting" and ev["you"].get("pack"):
                return seat
        return None

    async def pick(*, ack: bool = True) -> tuple[int, str]:
        await table.until(lambda: holder() is not None, "a pack in front of someone")
        seat = holder()
        assert seat is not None
        c = table.clients[seat]
        card = you(c, room)["pack"][0]
        msg = {"t": "pick", "r": room, "card": card}
        if not ack:
            await c.send(msg)  # in flight when the server dies
            return seat, card
        await c.ok(msg)
        acked[seat].append(card)
        await table.until(lambda: state(c, room)["phase"] != "drafting"  # type: ignore[index]
                          or you(c, room)["picks"] == acked[seat], "the pick to show")
        return seat, card

    # 1. The draft, killed with a pick in flight.
    for _ in range(11):
        await pick()
    before = [you(c, room) for c in table.clients]
    seat, card = await pick(ack=False)
    server.kill()
    await table.all_closed()
    commands = logged(data, room)
    for s in (0, 1):
        picks = logged_picks(commands, s)
        extra = [card] if s == seat else []
        assert picks in (acked[s], acked[s] + extra), (s, picks, acked[s])  # never twice
    in_log = logged_picks(commands, seat) != acked[seat]
    await _restart(server, table, room, "drafting")
    for s, c in enumerate(table.clients):
        back = you(c, room)
        assert back["picks"] == logged_picks(commands, s)
        assert back["pool"] == before[s]["pool"] or in_log
        if s == seat and not in_log:
            assert back["pack"] == before[s]["pack"]  # the pack in front, as it was
    acked[seat] = logged_picks(commands, seat)
    while state(table.clients[0], room)["phase"] == "drafting":  # type: ignore[index]
        await pick()
        await table.until(lambda: state(table.clients[0], room)["phase"] != "drafting"  # type: ignore[index]
                          or holder() is not None, "the next pack")
    assert [len(p) for p in acked] == [45, 45]

    # 2. Building, killed once one deck was acknowledged and the other not yet sent.
    ann, bob = table.clients
    await table.until(lambda: all(state(c, room)["phase"] == "building"  # type: ignore[index]
                                  for c in table.clients), "building")
    pools = [you(c, room)["pool"] for c in table.clients]
    await ann.ok({"t": "deck", "r": room, "text": deck_text(pools[0])})
    server.kill()
    await table.all_closed()
    assert [c["seat"] for c in logged(data, room) if c["c"] == "deck"] == [0]
    await _restart(server, table, room, "building")
    ann, bob = table.clients
    ev = state(bob, room)
    assert ev is not None and [e["deck"] for e in ev["entrants"]] == [True, False]
    assert [you(c, room)["pool"] for c in table.clients] == pools
    await bob.ok({"t": "deck", "r": room, "text": deck_text(pools[1])})
    await table.until(lambda: all("match" in you(c, room) for c in table.clients),
                      "round 1's match")

    # 3. The round, killed with a move in flight.
    match = you(ann, room)["match"]["r"]
    assert you(bob, room)["match"]["r"] == match
    for c in table.clients:
        await c.ok({"t": "join", "r": match})
    moves: list[tuple[int, Any]] = []
    rng = random.Random(4)

    async def move(*, ack: bool = True) -> None:
        def deciding() -> list[tuple[Client, str, dict[str, Any]]]:
            return [(c, r, d) for c in table.clients for r, d in c.pending() if r == match]
        await table.until(deciding, "a decision in the match")
        c, _, d = deciding()[0]
        action = heuristic_strategy(c.tracker.rooms[match].view, d, rng, cards())
        msg = {"t": "act", "r": match, "s": d["serial"], "a": action}
        if not ack:
            await c.send(msg)
            return
        reply = await c.call(msg)
        assert reply["t"] in ("d", "ok"), reply
        moves.append((d["serial"], action))

    for _ in range(8):
        await move()
    await move(ack=False)
    server.kill()
    await table.all_closed()
    in_log_moves = match_moves(data, match)
    assert in_log_moves[:len(moves)] == moves and len(in_log_moves) - len(moves) in (0, 1)
    await _restart(server, table, room, "playing")
    assert any(f"room {match} resumed" in line for line in server.output)
    ann, bob = table.clients
    assert [you(c, room)["match"]["r"] for c in table.clients] == [match, match]
    await table.until(lambda: all(match in c.tracker.rooms for c in table.clients),
                      "the match's view on coming back")

    # 4. The round's result acknowledged, then a kill: the event comes back in round 2 with it.
    ann_in_match = you(ann, room)["match"]["seat"]
    await ann.ok({"t": "concede", "r": match})
    await table.until(lambda: all(state(c, room)["round"] == 2  # type: ignore[index]
                                  for c in table.clients), "round 2")
    standings = state(ann, room)["standings"]  # type: ignore[index]
    assert [(s["seat"], s["w"], s["l"]) for s in standings] == [(1, 1, 0), (0, 0, 1)]
    server.kill()
    await table.all_closed()
    assert [c["wins"] for c in logged(data, room) if c["c"] == "result"] == \
        [[0, 1] if ann_in_match == 0 else [1, 0]]
    await _restart(server, table, room, "playing")
    for c in table.clients:
        ev = state(c, room)
        assert ev is not None and ev["round"] == 2 and ev["standings"] == standings
        assert "match" in ev["you"]
    assert_private(table, room)
    assert not [c for _, c in table.received if c.tracker.mismatches]
