"""A four-player Free-for-All with two spectators, played to its end over real websockets, with
a mid-game concession on another player's turn (CR 104.3a, 800.4a): the game goes on for the
rest. Every viewer's views converge and no frame carries a hidden card."""

from __future__ import annotations

import random

import pytest
import trio

from arbiter.bots.strategies import heuristic_strategy
from arbiter.protocol import pack

from .checks import assert_converged, assert_secret
from .harness import Client, create_room, play, settle, start_server


async def test_four_players_two_spectators_and_a_concession_on_another_turn(
        nursery: trio.Nursery, tmp_path: object, autojump_clock: object) -> None:
    server = await start_server(nursery, tmp_path)  # type: ignore[arg-type]
    names = ["Ann", "Bob", "Cid", "Dee"]
    decks = ["quick-red", "quick-green", "quick-infect", "quick-red"]
    players = {i: await Client.open(nursery, server, n) for i, n in enumerate(names)}
    watchers = [await Client.open(nursery, server, n) for n in ("Eve", "Fay")]
    room = await create_room(players[0], {"variant": "free_for_all", "seats": 4, "seed": 11,
                                          "name": "Four of us"})
    for w in watchers:
        assert (await w.ok({"t": "spectate", "r": room}))["seat"] is None
    for i, c in players.items():
        assert await c.join(room, deck=decks[i]) == i
    await settle()
    everyone = [*players.values(), *watchers]
    for c in everyone:
        assert c.tracker.rooms[room].view["g"]["seats"] == [0, 1, 2, 3]

    conceded_at: list[int] = []

    async def before(n: int) -> None:
        if n and n % 150 == 0:
            assert assert_converged(server, everyone) == 6
        if conceded_at or n < 120:
            return
        view = players[2].tracker.rooms[room].view
        turn, active = view["t"][0], view["t"][1]
        deciding = view["w"][0]
        if active != 2 and deciding != 2 and view["p2"]["s"] == "in" and turn > 1:
            reply = await players[2].call({"t": "concede", "r": room})
            assert reply["t"] in ("d", "ok"), reply
            conceded_at.append(n)

    n = await play(players, strategy=heuristic_strategy, rng=random.Random(5), before=before)
    assert conceded_at, "the concession never happened"
    assert n > conceded_at[0] + 20, "the game did not go on after the concession"
    await settle()

    for c in everyone:
        [result] = c.of_type("result")
        outcomes = {o["player"]: o for o in result["res"]["outcomes"]}
        assert outcomes[2]["reason"] == "concession" and outcomes[2]["rule"] == "104.3a"
        assert result["m"]["over"] is True
        assert c.tracker.rooms[room].view["p2"]["s"] == "lost"
    assert 2 not in result["res"]["winners"]
    # Legal actions go to the deciding player only.
    for seat, c in players.items():
        assert c.decisions() and all(d["player"] == seat for d in c.decisions())
    assert all(not w.decisions() for w in watchers)

    assert assert_converged(server, everyone) == 6
    oracle, scanned = assert_secret(server, room, players, watchers)
    table = server.hub.matches[room].table
    assert table is not None and oracle.table.state_hash() == table.state_hash()
    assert scanned > 6 * n * 0.5

    # The checks are not vacuous: a leaked hidden object, or a view one key off, is caught.
    hidden = min(oracle.hidden[0])
    leak = pack({"t": "d", "r": room, "q": 1, "c": 0, "o": [["s", hidden, {"n": "?"}]]})
    with pytest.raises(AssertionError):
        oracle.check(0, [leak])
    players[1].tracker.rooms[room].view["p0"] = {"l": 99}
    with pytest.raises(AssertionError):
        assert_converged(server, [players[1]])
