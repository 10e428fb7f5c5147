"""Five players with a limited range of influence of 1 (CR 801): Divine Intervention's last
counter leaves its controller and the players within their range with a draw (CR 104.4e,
801.15); the two players out of range play on to the end of the game."""

from __future__ import annotations

import random

import trio

from arbiter.bots.strategies import heuristic_strategy

from .checks import assert_converged, assert_secret
from .harness import Client, create_room, play, settle, start_server

LIBRARY = ["Mountain", "Lightning Bolt", "Mountain", "Hill Giant", "Mountain"] * 4


async def test_a_draw_effect_takes_its_controller_and_the_players_in_range_out(
        nursery: trio.Nursery, tmp_path: object, autojump_clock: object) -> None:
    server = await start_server(nursery, tmp_path)  # type: ignore[arg-type]
    players = {i: await Client.open(nursery, server, f"P{i}") for i in range(5)}
    watcher = await Client.open(nursery, server, "Watcher")
    setups = [{"library": LIBRARY} for _ in range(5)]
    setups[0] = {"library": LIBRARY, "battlefield": ["Divine Intervention"],
                 "counters": [[0, "intervention", 1]]}
    room = await create_room(players[0], {
        "variant": "free_for_all", "seats": 5, "range_of_influence": 1, "seed": 3,
        "scenario": {"players": setups, "active": 0, "step": "upkeep"}})
    await watcher.ok({"t": "spectate", "r": room})
    for c in players.values():
        await c.join(room, deck="quick-red")
    await settle()
    everyone = [*players.values(), watcher]
    ranges = players[3].tracker.rooms[room].view["r"]
    assert ranges[0] == [0, 1, 4]  # CR 801.2: one seat each way (keyed by player id)

    left: dict[int, str] = {}

    async def before(n: int) -> None:
        view = watcher.tracker.rooms[room].view
        for p in range(5):
            if p not in left and view[f"p{p}"]["s"] != "in":
                left[p] = view[f"p{p}"]["s"]

    n = await play(players, strategy=heuristic_strategy, rng=random.Random(2), before=before)
    await before(n)
    assert left.get(0) == left.get(1) == left.get(4) == "drew"
    for c in everyone:
        [result] = c.of_type("result")
        outcomes = {o["player"]: o for o in result["res"]["outcomes"]}
        for p in (0, 1, 4):
            assert outcomes[p]["reason"] == "range_draw" and outcomes[p]["rule"] == "104.4e"
            assert outcomes[p]["turn"] == 1
        # The rest played on: the game ended later, between players 2 and 3.
        assert {outcomes[2]["outcome"], outcomes[3]["outcome"]} == {"won", "lost"}
        assert max(outcomes[2]["turn"], outcomes[3]["turn"]) > 1
    # After the draw only players 2 and 3 were ever asked to decide.
    late = [d["player"] for c in players.values() for d in c.decisions() if d["serial"] > 20]
    assert late and set(late) <= {2, 3}
    assert n > 30
    assert assert_converged(server, everyone) == 6
    assert_secret(server, room, players, [watcher])
