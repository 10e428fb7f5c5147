"""Recovery in the core: the records a core wrote, read back by a new core (a server restart),
rebuild every unfinished room with the same state, seat tokens and sessions; players come back
with their sessions; bots come back as bots; nothing is lost that was written."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgpack

from arbiter.server.rooms.context import HubSettings
from arbiter.server.store.db import Store

from .sim import Sim, assert_converged, restart


def test_rooms_are_rebuilt_from_their_records_and_players_resume(tmp_path: Path) -> None:
    store = Store(tmp_path / "log.sqlite3")
    first = Sim(store=store)
    (ann, bob), room = first.table({"seats": 2, "seed": 13, "best_of": 3})
    first.play({0: ann, 1: bob}, max_actions=60)
    before = first.match(room).table.state_hash()
    tokens = [s.token for s in first.match(room).seats]

    second, lines = restart(store, grace=30)
    [line] = lines
    assert line.startswith(f"room {room} resumed: game 1 (match game 1), ") and before in line
    match = second.match(room)
    assert match.table.state_hash() == before and [s.token for s in match.seats] == tokens
    assert all(s.away_deadline == second.now + 30 for s in match.seats)
    ann2 = second.connect(session=ann.session, resume=ann.tracker.positions())
    bob2 = second.connect(session=bob.session)
    assert ann2.of_type("s"), "a new epoch: the resuming client gets a snapshot"
    assert ann2.of_type("welcome")[0]["seats"] == [[room, 0, tokens[0]]]
    second.play({0: ann2, 1: bob2}, max_actions=20)
    assert assert_converged(second, [ann2, bob2]) == 2
    # A player who does not come back within the grace period concedes (CR 104.3a), and
    # the next game of the match begins.
    ann2.close()
    second.advance(31)
    [result] = bob2.of_type("result")
    assert {(o["player"], o["reason"]) for o in result["res"]["outcomes"]} == {
        (0, "concession"), (1, "opponents_left")}
    assert result["m"]["game"] == 1 and not result["m"]["over"]


def test_a_bot_seat_comes_back_as_a_bot(tmp_path: Path) -> None:
    store = Store(tmp_path / "log.sqlite3")
    first = Sim(HubSettings(allow_scenarios=True, bot_think=0.1), store=store)
    ann = first.connect("Ann")
    room = ann.ok({"t": "create", "config": {"seats": 2, "seed": 2}})["r"]
    ann.join(room, deck="quick-red")
    ann.ok({"t": "bot", "r": room, "strategy": "random"})
    second, _ = restart(store, bot_think=0.1)
    seat = second.match(room).seats[1]
    assert seat.bot is not None and seat.bot.strategy_name == "random"
    assert seat.away_deadline is None, "a bot is never away"
    ann2 = second.connect(session=ann.session)
    for _ in range(5000):
        if second.match(room).state == "finished":
            break
        if ann2.pending():
            second.play({0: ann2}, max_actions=1)
        else:
            second.advance(0.1)
    assert second.match(room).state == "finished"


def test_a_room_whose_log_does_not_replay_is_not_resumed(tmp_path: Path) -> None:
    store = Store(tmp_path / "log.sqlite3")
    first = Sim(store=store)
    (ann, bob), room = first.table({"seats": 2, "seed": 13})
    first.play({0: ann, 1: bob}, max_actions=150)  # the state hash is recorded at 100
    store.db.execute("UPDATE commands SET hash = 'tampered' WHERE hash IS NOT NULL")
    second, [line] = restart(store)
    assert line.startswith(f"room {room} NOT resumed") and "state hash differs" in line
    assert second.hub.match_of(room) is None


def _tamper(store: Store, table: str, change: dict[str, Any]) -> None:
    """Rewrite the stored configuration of every row of ``table`` (rooms or games)."""
    rows = store.db.execute(f"SELECT rowid, config FROM {table}").fetchall()
    for rowid, blob in rows:
        config = {**msgpack.unpackb(blob, raw=False, strict_map_key=False), **change}
        store.db.execute(f"UPDATE {table} SET config = ? WHERE rowid = ?",
                         (msgpack.packb(config, use_bin_type=True), rowid))


def test_a_room_whose_settings_are_no_longer_accepted_is_not_resumed(tmp_path: Path) -> None:
    """Settings this server refuses (a newer server's, or a tampered log) are the operator's
    problem, not a client's: a line in the server's log, and the other rooms resume."""
    store = Store(tmp_path / "log.sqlite3")
    first = Sim(store=store)
    (ann, bob), room = first.table({"seats": 2, "seed": 13})
    first.play({0: ann, 1: bob}, max_actions=10)
    _tamper(store, "rooms", {"teleport": True})
    second, [line] = restart(store)
    assert line.startswith(f"room {room} NOT resumed") and "'teleport'" in line
    assert second.hub.match_of(room) is None


def test_a_room_whose_game_the_engine_refuses_is_not_resumed(tmp_path: Path) -> None:
    store = Store(tmp_path / "log.sqlite3")
    first = Sim(store=store)
    (ann, bob), room = first.table({"seats": 2, "seed": 13})
    first.play({0: ann, 1: bob}, max_actions=10)
    _tamper(store, "games", {"variant": "pentagram"})
    second, [line] = restart(store)
    assert line.startswith(f"room {room} NOT resumed") and "bad_config" in line \
        and "'pentagram'" in line
    assert second.hub.match_of(room) is None


def test_a_spectator_resumes_after_a_restart_under_the_spectate_rules(tmp_path: Path) -> None:
    """What a session watches is not in the log: after a restart the client's resume says it
    (issue 27.18), and the room's spectate rules decide as they would for a spectate."""
    store = Store(tmp_path / "log.sqlite3")
    first = Sim(store=store)
    (ann, bob), room = first.table({"seats": 2, "seed": 13})
    (cid, _), all_seeing = first.table({"seats": 2, "seed": 14, "spectators": "all"},
                                       names=("Cid", "Dan"))
    eve = first.connect("Eve", address="10.0.0.9")
    eve.ok({"t": "spectate", "r": room})
    fay = first.connect("Fay")  # on the players' address
    fay.ok({"t": "spectate", "r": room})
    first.play({0: ann, 1: bob}, max_actions=20)
    before = first.match(room).table.state_hash()

    second, _ = restart(store, grace=30)
    eve2 = second.connect(session=eve.session, resume=eve.tracker.positions())
    assert eve2.of_type("s") and second.match(room).table.state_hash() == before
    assert second.match(room).seating.spectators == {eve2.peer}
    assert eve2.of_type("room")[-1]["watching"] == 1
    ann2 = second.connect(session=ann.session)
    bob2 = second.connect(session=bob.session)
    second.play({0: ann2, 1: bob2}, max_actions=10)
    assert assert_converged(second, [ann2, bob2, eve2]) == 3
    # A resume is no way around the rules: a room whose spectators see every hand refuses a
    # client on a player's address, as a spectate would.
    second.connect(session=cid.session)  # back on that address
    fay2 = second.connect(session=fay.session, resume={room: (0, 0), all_seeing: (0, 0)})
    assert [e["code"] for e in fay2.of_type("error")] == ["seated_player"]
    assert second.match(all_seeing).seating.spectators == set()
    assert second.match(room).seating.spectators == {eve2.peer, fay2.peer}
    eve2.close()
    eve3 = second.connect(session=eve.session)  # the session itself remembers it now
    assert eve3.of_type("s") and eve3.peer in second.match(room).seating.spectators
