"""Matches and their options: best of three with the loser choosing who starts (CR 103.1),
chess clocks (a flag fall is a game loss, CR 104.3k), judge penalties (CR 104.3k), agreed
draws (CR 104.4i), spectator modes, the room list and chat."""

from __future__ import annotations

from typing import Any

import trio

from .harness import Client, create_room, play, settle, start_server


async def _seated(nursery: trio.Nursery, server: Any, config: dict[str, Any],
                  names: tuple[str, ...] = ("Ann", "Bob")) -> tuple[list[Client], str]:
    clients = [await Client.open(nursery, server, n) for n in names]
    room = await create_room(clients[0], config)
    for c in clients:
        await c.join(room, deck="quick-red")
    await settle()
    return clients, room


def decision(c: Client, room: str) -> dict[str, Any] | None:
    rv = c.tracker.rooms.get(room)
    return None if rv is None else rv.actions


async def test_best_of_three_the_loser_chooses_who_plays_first(
        nursery: trio.Nursery, tmp_path: object, autojump_clock: object) -> None:
    server = await start_server(nursery, tmp_path)  # type: ignore[arg-type]
    (ann, bob), room = await _seated(nursery, server, {"seats": 2, "best_of": 3, "seed": 30})
    epochs = [ann.tracker.rooms[room].epoch]

    async def finish_game(loser: Client, game_no: int) -> dict[str, Any]:
        await play({0: ann, 1: bob}, max_actions=4)
        await loser.ok({"t": "concede", "r": room})
        await settle()
        result = ann.of_type("result")[game_no - 1]
        assert result["m"]["game"] == game_no
        return result

    first = await finish_game(bob, 1)
    assert first["res"]["winners"] == [0] and first["m"] == {
        "game": 1, "best_of": 3, "wins": [1, 0], "over": False}
    # Game 2: a new game in the same room; Bob lost, so Bob chooses who plays first.
    epochs.append(ann.tracker.rooms[room].epoch)
    assert epochs[1] != epochs[0]
    choice = decision(bob, room)
    assert choice is not None and choice["kind"] == "starting_player"
    assert decision(ann, room) is None
    play_first = next(a for a in choice["actions"] if a["ref"] == ["p", 1])
    await bob.ok({"t": "act", "r": room, "s": choice["serial"], "a": play_first["id"]})
    await settle()
    assert ann.tracker.rooms[room].view["t"][3] == 1  # Bob starts

    second = await finish_game(ann, 2)
    assert second["m"]["wins"] == [1, 1] and not second["m"]["over"]
    choice = decision(ann, room)  # Ann lost game 2: she chooses
    assert choice is not None and choice["kind"] == "starting_player"
    await ann.ok({"t": "act", "r": room, "s": choice["serial"], "a": choice["actions"][0]["id"]})
    third = await finish_game(bob, 3)
    assert third["m"] == {"game": 3, "best_of": 3, "wins": [2, 1], "over": True}
    assert server.hub.matches[room].state == "finished"
    assert ann.of_type("room")[-1]["state"] == "finished"


async def test_a_chess_clock_that_runs_out_loses_the_game(
        nursery: trio.Nursery, tmp_path: object, autojump_clock: object) -> None:
    server = await start_server(nursery, tmp_path)  # type: ignore[arg-type]
    (ann, bob), room = await _seated(nursery, server, {
        "seats": 2, "seed": 31, "clock": {"total": 30, "inc": 2}})
    clocks = ann.of_type("clock")
    assert clocks[-1]["k"] == [30000, 30000]
    running = clocks[-1]["p"]
    mover = ann if running == 0 else bob
    await trio.sleep(10)
    d = decision(mover, room)
    assert d is not None
    await mover.ok({"t": "act", "r": room, "s": d["serial"], "a": d["actions"][0]["id"]})
    await settle()
    after = ann.of_type("clock")[-1]
    assert after["k"][running] == 22000  # 30 - 10 + the 2 s increment
    # Whoever must decide now sits on their hands until their time runs out.
    stalled = after["p"]
    left = after["k"][stalled] / 1000
    await trio.sleep(left - 0.5)
    assert not ann.of_type("result")
    await trio.sleep(1)
    await settle()
    [result] = ann.of_type("result")
    [out] = [o for o in result["res"]["outcomes"] if o["player"] == stalled]
    assert (out["outcome"], out["reason"], out["rule"]) == ("lost", "clock", "104.3k")


async def test_the_rooms_creator_can_give_a_game_loss(
        nursery: trio.Nursery, tmp_path: object, autojump_clock: object) -> None:
    server = await start_server(nursery, tmp_path)  # type: ignore[arg-type]
    (ann, bob, cid), room = await _seated(nursery, server, {
        "variant": "free_for_all", "seats": 3, "seed": 32}, ("Ann", "Bob", "Cid"))
    refused = await bob.call({"t": "judge", "r": room, "seat": 2})
    assert refused["code"] == "not_judge"
    await ann.ok({"t": "judge", "r": room, "seat": 2})
    await settle()
    assert bob.tracker.rooms[room].view["p2"]["s"] == "lost"
    assert server.hub.matches[room].state == "playing"  # two players play on
    assert await play({0: ann, 1: bob, 2: cid}, max_actions=5) == 5
    await ann.ok({"t": "judge", "r": room, "seat": 1})
    await settle()
    [result] = cid.of_type("result")
    reasons = {o["player"]: (o["reason"], o["rule"]) for o in result["res"]["outcomes"]}
    assert reasons[2] == reasons[1] == ("judge", "104.3k")
    assert result["res"]["winners"] == [0]


async def test_an_agreed_draw(nursery: trio.Nursery, tmp_path: object,
                              autojump_clock: object) -> None:
    server = await start_server(nursery, tmp_path)  # type: ignore[arg-type]
    (ann, bob), room = await _seated(nursery, server, {"seats": 2, "seed": 33})
    await play({0: ann, 1: bob}, max_actions=6)
    await ann.ok({"t": "draw", "r": room, "op": "propose"})
    await settle()
    assert bob.tracker.rooms[room].view["d"] == [0, [0]]
    await bob.ok({"t": "draw", "r": room, "op": "decline"})
    await settle()
    assert "d" not in bob.tracker.rooms[room].view
    await ann.ok({"t": "draw", "r": room, "op": "propose"})
    await bob.ok({"t": "draw", "r": room, "op": "accept"})
    await settle()
    [result] = ann.of_type("result")
    assert result["res"]["draw"] and result["res"]["winners"] == []
    assert {o["reason"] for o in result["res"]["outcomes"]} == {"agreement"}
    assert server.hub.matches[room].state == "finished"


async def test_spectator_modes(nursery: trio.Nursery, tmp_path: object,
                               autojump_clock: object) -> None:
    server = await start_server(nursery, tmp_path)  # type: ignore[arg-type]
    (_, _), open_room = await _seated(nursery, server, {"seats": 2, "seed": 34,
                                                        "spectators": "all"})
    (_, _), closed_room = await _seated(nursery, server, {"seats": 2, "spectators": "none"},
                                        ("Cid", "Dee"))
    # The players play from 127.0.0.1; Eve watches from another address.
    eve = await Client.open(nursery, server, "Eve", local_address="127.0.0.2")
    uninvited = await eve.call({"t": "spectate", "r": open_room})
    assert uninvited["code"] == "not_invited"  # the creator's invitation is needed
    invite = server.hub.matches[open_room].settings.invite
    await eve.ok({"t": "spectate", "r": open_room, "token": invite})
    await settle()
    hands = [v for k, v in eve.tracker.rooms[open_room].view.items()
             if isinstance(k, int) and v["z"] == "h"]
    assert len(hands) == 14  # both opening hands: this room lets spectators see everything
    refused = await eve.call({"t": "spectate", "r": closed_room})
    assert refused["code"] == "no_spectators"


async def test_a_player_cannot_ghost_their_own_all_seeing_room(
        nursery: trio.Nursery, tmp_path: object, autojump_clock: object) -> None:
    """A second session from a seated player's address would see the opponents' hands: in a
    room whose spectators see everything it is refused, and a spectator at an address from
    which a player then sits down stops watching."""
    server = await start_server(nursery, tmp_path)  # type: ignore[arg-type]
    ghost = await Client.open(nursery, server, "Ghost")  # 127.0.0.1, like the players
    _, room = await _seated(nursery, server, {"seats": 2, "seed": 34, "spectators": "all"})
    refused = await ghost.call({"t": "spectate", "r": room})
    assert refused["code"] == "seated_player"
    # A watcher from elsewhere is fine until a player sits down from that address.
    far = await Client.open(nursery, server, "Far", local_address="127.0.0.3")
    _, other = await _seated(nursery, server, {"seats": 3, "variant": "free_for_all",
                                               "spectators": "all"}, ("Cid", "Dee"))
    await far.ok({"t": "spectate", "r": other,
                  "token": server.hub.matches[other].settings.invite})
    near = await Client.open(nursery, server, "Near", local_address="127.0.0.3")
    await near.join(other, deck="quick-red")
    await settle()
    [notice] = [m for m in far.of_type("error") if m.get("r") == other]
    assert notice["code"] == "seated_player" and notice["i"] is None
    match = server.hub.match_of(other)
    assert match is not None
    assert [p.address for p in match.seating.spectators] == []
    # Players not in a subgame watch it with the public view, never the all-seeing one: see
    # tests/server/test_subgames.py.


async def test_room_list_and_chat(nursery: trio.Nursery, tmp_path: object,
                                  autojump_clock: object) -> None:
    server = await start_server(nursery, tmp_path)  # type: ignore[arg-type]
    ann = await Client.open(nursery, server, "Ann")
    eve = await Client.open(nursery, server, "Eve")
    room = await create_room(ann, {"seats": 2, "name": "Friday night", "best_of": 3,
                                   "clock": {"total": 600, "inc": 5}})
    await ann.join(room)
    [summary] = (await eve.ok({"t": "rooms"}))["rooms"]
    assert summary == {"r": room, "name": "Friday night", "state": "waiting",
                       "variant": "two_player",
                       "seats": [{"n": "Ann", "c": True, "d": False},
                                 {"n": None, "c": False, "d": False}],
                       "spectators": "public", "watching": 0, "best_of": 3, "game": 0,
                       "wins": [0, 0], "clock": {"total": 600.0, "inc": 5.0}, "rooms": []}
    refused = await eve.call({"t": "chat", "r": room, "text": "hello?"})
    assert refused["code"] == "not_seated"
    await eve.ok({"t": "spectate", "r": room})
    await eve.ok({"t": "chat", "r": room, "text": "good luck"})
    await settle()
    assert ann.of_type("chat") == [{"t": "chat", "r": room, "from": "Eve", "seat": None,
                                    "text": "good luck"}]
