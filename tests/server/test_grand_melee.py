"""Ten-player Grand Melee rooms (CR 807) with a spectator, played to their end over real
websockets: the room accepts the variant with more seats than other variants, every view shows
the turn markers and who gets priority for each stack, every decision names its stack, a
player concedes while two turns run, a subgame gets a room of its own and a restart starts the
room afresh with new turn markers, and views converge with no hidden card in any frame."""

from __future__ import annotations

import random
from typing import Any

import pytest
import trio

from arbiter.bots.strategies import heuristic_strategy
from arbiter.protocol.errors import Refusal
from arbiter.server.rooms.setup import MAX_MELEE_SEATS, MAX_SEATS, parse_settings

from .checks import assert_converged, assert_secret
from .harness import Client, create_room, play, settle, start_server

DECKS = ["quick-red", "quick-green", "quick-infect"]


def test_807_1_grand_melee_rooms_take_more_seats_than_other_variants() -> None:
    settings = parse_settings({"variant": "grand_melee", "seats": 16}, default_name="R")
    assert len(settings.seats) == 16 and MAX_MELEE_SEATS > 16 > MAX_SEATS
    with pytest.raises(Refusal, match="2 to 8"):
        parse_settings({"variant": "free_for_all", "seats": 10}, default_name="R")
    with pytest.raises(Refusal, match=f"2 to {MAX_MELEE_SEATS}"):
        parse_settings({"variant": "grand_melee", "seats": MAX_MELEE_SEATS + 1},
                       default_name="R")
    with pytest.raises(Refusal, match=r"807\.4a"):
        parse_settings({"variant": "grand_melee", "seats": 3}, default_name="R")
    with pytest.raises(Refusal, match=r"807\.2b"):
        parse_settings({"variant": "grand_melee", "seats": 10, "attack": "right"},
                       default_name="R")


async def test_a_ten_player_grand_melee_room_plays_to_its_end(
        nursery: trio.Nursery, tmp_path: object, autojump_clock: object) -> None:
    server = await start_server(nursery, tmp_path)  # type: ignore[arg-type]
    players = {i: await Client.open(nursery, server, f"P{i}") for i in range(10)}
    watcher = await Client.open(nursery, server, "Watcher")
    room = await create_room(players[0], {"variant": "grand_melee", "seats": 10, "seed": 5})
    await watcher.ok({"t": "spectate", "r": room})
    for i, c in players.items():
        assert await c.join(room, deck=DECKS[i % 3]) == i
    await settle()
    everyone = [*players.values(), watcher]
    view = watcher.tracker.rooms[room].view
    seats = view["g"]["seats"]
    assert sorted(seats) == list(range(10)) and view["g"]["variant"] == "grand_melee"

    seen: dict[str, Any] = {"stacks": set(), "two turns": 0, "sk": set()}
    conceded: list[int] = []

    async def before(n: int) -> None:
        if n and n % 400 == 0:
            assert assert_converged(server, everyone) == 11
        view = watcher.tracker.rooms[room].view
        markers = view.get("m")
        if not markers:
            return  # the game is still starting (mulligans): no markers yet
        w = view["w"]
        assert len(w) == 3 and w[2] in {m["n"] for m in markers}
        seen["stacks"].add(w[2])
        for m in markers:
            if m["s"] == "turn":  # who may act on its stack (CR 807.5a), by range alone
                ranges = view["r"]
                assert m["p"] in ranges[m["p"]]
                assert set(m["pr"]) >= {q for q in ranges[m["p"]]
                                        if view[f"p{q}"]["s"] == "in"}
        seen["sk"].update(o["sk"] for k, o in view.items()
                          if isinstance(k, int) and o.get("z") == "s")
        turns = [m for m in markers if m["s"] == "turn"]
        if len(turns) == 2:
            seen["two turns"] += 1
            deciding, holders = w[0], {m["p"] for m in markers}
            if not conceded and n > 300 and deciding not in holders:
                victim = next(p for p in seats if p not in holders and p != deciding
                              and view[f"p{p}"]["s"] == "in")
                reply = await players[victim].call({"t": "concede", "r": room})
                assert reply["t"] in ("d", "ok"), reply
                conceded.append(victim)

    n = await play(players, strategy=heuristic_strategy, rng=random.Random(3), before=before)
    await settle()
    assert conceded and seen["two turns"] > 100 and seen["stacks"] == {1, 2}
    assert seen["sk"] and seen["sk"] <= {1, 2}
    for d in (d for c in players.values() for d in c.decisions() if d["kind"] == "priority"):
        assert d["stack"] in (1, 2) and f"turn marker {d['stack']}" in d["prompt"]
    for c in everyone:
        [result] = c.of_type("result")
        outcomes = {o["player"]: o for o in result["res"]["outcomes"]}
        assert outcomes[conceded[0]]["reason"] == "concession"
        assert set(outcomes) == set(range(10))
    assert n > 500
    assert assert_converged(server, everyone) == 11
    assert_secret(server, room, players, [watcher])


async def test_a_subgame_and_a_restart_in_a_grand_melee_room(
        nursery: trio.Nursery, tmp_path: object, autojump_clock: object) -> None:
    # E casts Tale Within a Tale on turn marker 2's stack: D, E and F (E's range) play a
    # subgame in a room of its own, one turn marker strong, while every turn of the main game
    # waits (CR 726.1a). Later H restarts the game (CR 724): the room starts afresh with new
    # turn markers, the first H's (CR 724.1a, 807.4b).
    server = await start_server(nursery, tmp_path)  # type: ignore[arg-type]
    players = {i: await Client.open(nursery, server, f"P{i}") for i in range(10)}
    watcher = await Client.open(nursery, server, "Watcher")
    library = ["Mountain", "Hill Giant", "Lightning Bolt"] * 4
    setups: list[dict[str, Any]] = [{"library": library, "battlefield": ["Mountain"]}
                                    for _ in range(10)]
    setups[4]["hand"] = ["Tale Within a Tale"]
    setups[7]["hand"] = ["Second Beginning"]
    room = await create_room(players[0], {
        "variant": "grand_melee", "seats": 10, "seed": 9, "allow_test_cards": True,
        "scenario": {"players": setups, "active": 0, "step": "main1"}})
    await watcher.ok({"t": "spectate", "r": room})
    for c in players.values():
        await c.join(room, deck="quick-red")
    await settle()
    cast: set[str] = set()
    sub_views: list[dict[Any, Any]] = []
    first_markers: dict[int, list[dict[str, Any]]] = {}  # game number -> its first "m"

    def choose(n: int, where: str, decision: dict[str, Any], view: dict[Any, Any]
               ) -> int | None:
        if where != room and "m" in view:
            sub_views.append(dict(view))
        if where == room and "m" in view:
            first_markers.setdefault(view["g"]["n"], view["m"])
        for a in decision["actions"]:
            for name in ("Tale Within a Tale", "Second Beginning"):
                if a["label"] == f"Cast {name}" and name not in cast and (
                        name == "Tale Within a Tale" or "Tale Within a Tale" in cast):
                    cast.add(name)
                    return int(a["id"])
        return None

    n = await play(players, strategy=heuristic_strategy, rng=random.Random(4), choose=choose)
    await settle()
    assert cast == {"Tale Within a Tale", "Second Beginning"} and n > 100
    opened = watcher.of_type("opened")[0]  # the bots may cast the cards again later
    assert opened["players"] == [3, 4, 5]
    assert sub_views and all(len(v["m"]) == 1 and len(v["w"]) == 3 for v in sub_views)
    restarted = watcher.of_type("restarted")[0]
    assert restarted["starting"] == 7
    assert [m["p"] for m in first_markers[restarted["g"]]] == [7, 1]  # four live seats on
    for c in [*players.values(), watcher]:
        assert c.of_type("result")
    assert assert_converged(server, [*players.values(), watcher]) >= 11
    assert_secret(server, room, players, [watcher])
