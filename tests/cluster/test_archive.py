"""Replays and histories read from a cluster's PostgreSQL log (docs/protocol.md section 17): the
same records written to the SQLite store and to PostgreSQL read back the same through the one
``Archive`` interface, so a replay and a history are the same whichever server answers."""

from __future__ import annotations

import random
from pathlib import Path

from arbiter.server.cluster.archive import PgArchive
from arbiter.server.cluster.pglog import ClusterLog
from arbiter.server.rooms import replays
from arbiter.server.store.archive import StoreArchive
from arbiter.server.store.db import Store

from ..rooms.sim import Sim


async def test_a_finished_game_reads_and_replays_the_same_from_both_logs(
        dsn: str, tmp_path: Path) -> None:
    store = Store(tmp_path / "log.sqlite3")
    sim = Sim(store=store)
    (ann, bob), room = sim.table({"seats": 2, "seed": 4})
    sim.play({0: ann, 1: bob}, rng=random.Random(4), max_actions=40)
    bob.ok({"t": "concede", "r": room})
    store.close()
    async with ClusterLog(dsn, node="A") as log:
        await log.write(sim.records, {int(room): 1})
        sqlite, pg = StoreArchive(tmp_path / "log.sqlite3"), PgArchive(log)
        [game] = [g.game.id for g in await sqlite.finished(None, 5)]
        answers = []
        for archive in (sqlite, pg):
            archived = await archive.archived(game)
            assert archived is not None and archived.game.result is not None
            commands = await archive.commands(game, replays.MAX_REPLAY_COMMANDS)
            assert len(commands) > 40
            frames = replays.replay_frames(1, archived, commands,
                                           replays.viewer_of(archived, bob.session))
            mine = await archive.finished(ann.session, 5)
            answers.append((frames.seat, frames.view, frames.ops, frames.turns,
                            [(f.game.id, f.seat, f.room_name) for f in mine],
                            [f.game.id for f in await archive.finished(None, 5)],
                            await archive.finished("nobody", 5)))
        sqlite.close()
    assert answers[0] == answers[1]
    seat, _, _, _, mine, recent, nobody = answers[0]
    assert seat == 1 and mine == [(game, 0, "Room 1")] and recent == [game] and nobody == []
