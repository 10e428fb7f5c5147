"""The engine's readable log reaches every viewer of a room: each delta carries the lines its
command wrote (the same for everyone: they are public), and a snapshot carries the recent
ones, so a client that joins late sees what has just happened."""

from __future__ import annotations

import trio

from .harness import Client, create_room, settle, start_server


async def test_deltas_and_snapshots_carry_the_games_log(
        nursery: trio.Nursery, tmp_path: object, autojump_clock: object) -> None:
    server = await start_server(nursery, tmp_path)  # type: ignore[arg-type]
    ann = await Client.open(nursery, server, "Ann")
    bob = await Client.open(nursery, server, "Bob")
    eve = await Client.open(nursery, server, "Eve")
    setups = [{"battlefield": ["Mountain"], "hand": ["Lightning Bolt"]},
              {"battlefield": ["Grizzly Bears"]}]
    room = await create_room(ann, {"variant": "two_player", "seats": 2, "seed": 3,
                                   "scenario": {"players": setups, "active": 0}})
    await eve.ok({"t": "spectate", "r": room})
    await ann.join(room, deck="quick-red")
    await bob.join(room, deck="quick-red")
    await settle()

    [(_, decision)] = ann.pending()
    cast = next(a for a in decision["actions"] if a["kind"] == "cast")
    await ann.ok({"t": "act", "r": room, "s": decision["serial"], "a": cast["id"]})
    await settle()
    [(_, decision)] = ann.pending()
    target = next(a for a in decision["actions"] if "Grizzly Bears" in a["label"])
    await ann.ok({"t": "act", "r": room, "s": decision["serial"], "a": target["id"]})
    await settle()

    said = "Ann casts Lightning Bolt targeting Grizzly Bears."
    for c in (ann, bob, eve):
        lines = [line for m in c.of_type("d") for line in m.get("l", [])]
        assert lines.count(said) == 1, (c, lines)

    late = await Client.open(nursery, server, "Zed")
    await late.ok({"t": "spectate", "r": room})
    await settle()
    [snap] = late.of_type("s")
    assert said in snap["l"] and snap["l"][0].startswith("Turn 1")


async def test_the_server_checkpoints_its_log_beside_the_event_loop(
        nursery: trio.Nursery, tmp_path: object) -> None:
    """The log's commits never checkpoint (store/db.py): the server copies the WAL into the
    database file every second in a worker thread, so the WAL does not grow for ever. On the
    real clock (about two seconds): under an autojumping one, time runs ahead of the thread."""
    from arbiter.server.net.server import CHECKPOINT_EVERY

    server = await start_server(nursery, tmp_path)  # type: ignore[arg-type]
    ann = await Client.open(nursery, server, "Ann")
    await create_room(ann, {"seats": 2})
    started = trio.current_time()
    with trio.fail_after(10 * CHECKPOINT_EVERY):
        while server.store.checkpoints < 2:
            await trio.sleep(CHECKPOINT_EVERY / 10)
    assert server.store.checkpoints >= 2
    assert trio.current_time() - started >= 2 * CHECKPOINT_EVERY  # at its rhythm, no sooner
