"""A real ``arbiter serve`` killed with SIGKILL at random moments and started again, under
real ``arbiter bot`` and ``arbiter loadtest`` processes: they reconnect with their sessions,
play on, and every game finishes with every checksum matching and a log that replays to the
state hashes it recorded.

The moments are random but reproducible: each kill comes once the server has applied a number
of commands drawn from a seeded generator, so the test waits on the server's progress, never
on the clock.
"""

from __future__ import annotations

import random
import re
import subprocess
from collections.abc import Callable
from pathlib import Path

from tests import processes

from .procs import ARBITER, Server, read_json, replay_all, run_arbiter, wait_for

KILLS = 3


def _kill_and_restart(server: Server, rng: random.Random, kills: int,
                      alive: Callable[[], bool]) -> list[int]:
    """Kill the server ``kills`` times, each once it has applied a random number of commands
    since it started; return those numbers."""
    moments = []
    for _ in range(kills):
        at = rng.randint(30, 150)
        wait_for(lambda at=at: server.actions() >= at or not alive(),  # type: ignore[misc]
                 60, f"{at} commands")
        if not alive():
            break
        server.kill()
        moments.append(at)
        server.start()
        resumed = [line for line in server.output if " resumed" in line]
        assert resumed and len(resumed) == len(set(resumed)), server.output  # each said once
        assert " resumed" not in server.errors(), "said twice: on stdout and in the log"
    return moments


def test_bots_finish_every_game_across_server_kills(tmp_path: Path) -> None:
    server = Server(tmp_path / "data", 0, "--grace", "300")
    server.start()
    bots = processes.spawn(
        [*ARBITER, "bot", "--url", server.url, "--create", "--seats", "2", "--games", "2",
         "--strategy", "random", "--think", "0.005", "--seed", "11", "--draw-after", "40"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        moments = _kill_and_restart(server, random.Random(5), KILLS,
                                    lambda: bots.poll() is None)
        out, err = bots.communicate(timeout=240)
    finally:
        processes.end(bots.pid)
        server.stop()
    assert bots.returncode == 0, err
    assert len(moments) == KILLS, f"the bots finished before the kills: {out}"
    # Two rooms, each played to the end; each bot says how it went.
    results = re.findall(r"^room \d+: game 1 of best of 1: .*$", out, re.M)
    assert len(results) == 2, out
    lines = re.findall(r"^.*: (\d+) actions, (\d+) desyncs, (\d+) reconnects, \d+ redirects$",
                       out, re.M)
    assert len(lines) == 4, out
    assert all(int(desyncs) == 0 for _, desyncs, _ in lines), out
    assert sum(int(reconnects) for _, _, reconnects in lines) >= KILLS, out
    # The log holds both games, finished, and replays to every hash it recorded.
    replays = replay_all(server.data)
    assert len(replays) == 2 and all(code == 0 for _, code, _ in replays), replays
    listing = run_arbiter("replay", "--list", "--data-dir", str(server.data)).stdout
    assert listing.count("finished") == 2, listing


def test_a_load_test_rides_through_server_kills(tmp_path: Path) -> None:
    server = Server(tmp_path / "data", 0, "--grace", "300")
    server.start()
    report = tmp_path / "load.json"
    load = processes.spawn(
        [*ARBITER, "loadtest", "--url", server.url, "--rooms", "3", "--players-per-room", "2",
         "--duration", "40", "--ramp", "1", "--think-ms", "5", "--strategy", "random", "--no-live",
         "--json", str(report), "--png", str(tmp_path / "load.png")],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        moments = _kill_and_restart(server, random.Random(8), 2, lambda: load.poll() is None)
        wait_for(lambda: server.actions() >= 200 or load.poll() is not None, 60,
                 "play to go on after the last restart")
        played_on = server.actions()
        out, err = load.communicate(timeout=120)
    finally:
        processes.end(load.pid)
        server.stop()
    assert len(moments) == 2, (out, err)
    assert played_on >= 200, (out, err)  # play went on after the last restart
    summary = read_json(report)
    assert summary["desyncs"] == 0 and summary["errors"] == 0, (summary, out, err)
    assert summary["reconnects"] >= 2 * 6  # six clients, each back after each restart
    assert summary["games_finished"] >= 3
    assert load.returncode == 0, err
