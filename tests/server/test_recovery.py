"""A server stopped and started again on the same data directory resumes its rooms: sessions
and seats come back with their tokens, clocks with the time they had, and a player who does
not come back is conceded for when the grace period runs out."""

from __future__ import annotations

import trio

from .checks import assert_converged
from .harness import Client, create_room, play, settle, start_server


async def test_rooms_sessions_clocks_and_grace_survive_a_restart(
        tmp_path: object, autojump_clock: object) -> None:
    async with trio.open_nursery() as first:
        server = await start_server(first, tmp_path)  # type: ignore[arg-type]
        ann = await Client.open(first, server, "Ann")
        bob = await Client.open(first, server, "Bob")
        waiting = await create_room(ann, {"seats": 2, "name": "Later"})
        await ann.join(waiting)
        room = await create_room(ann, {"seats": 2, "seed": 40,
                                       "clock": {"total": 100, "inc": 0}})
        await ann.join(room, deck="quick-red")
        await bob.join(room, deck="quick-green")
        await play({0: ann, 1: bob}, max_actions=10)
        await trio.sleep(7)
        await play({0: ann, 1: bob}, max_actions=3)
        clocks = ann.of_type("clock")[-1]["k"]
        assert sum(clocks) == 200_000 - 7_000
        view = dict(ann.tracker.rooms[room].view)
        hash_before = server.hub.matches[room].table.state_hash()  # type: ignore[union-attr]
        first.cancel_scope.cancel()

    async with trio.open_nursery() as second:
        server = await start_server(second, tmp_path)  # type: ignore[arg-type]
        assert server.hub.matches[room].table.state_hash() == hash_before  # type: ignore
        assert server.hub.matches[waiting].state == "waiting"
        ann2 = await Client.open(second, server, session=ann.session)
        assert ann2.seats == {waiting: (0, ann.seats[waiting][1]), room: (0, ann.seats[room][1])}
        await settle()
        assert ann2.tracker.rooms[room].view == view
        assert assert_converged(server, [ann2]) == 1
        match = server.hub.matches[room]
        assert match.clock is not None
        assert [round(r * 1000) for r in match.clock.remaining] == clocks
        # Bob never comes back: when the grace period is over, he is conceded for.
        await trio.sleep(30)
        assert ann2.tracker.rooms[room].view["p1"]["s"] == "in"
        await trio.sleep(31)
        await settle()
        [result] = ann2.of_type("result")
        assert result["res"]["winners"] == [0]
        [out] = [o for o in result["res"]["outcomes"] if o["player"] == 1]
        assert out["reason"] == "concession"  # 60 s of grace: less than his clock had
        second.cancel_scope.cancel()
