"""``arbiter loadtest``: simulated players (SDK bots) against a server, spread over worker
processes so that the load generator is not the bottleneck; a live progress table, then a
summary, written as JSON and as a PNG of latency over time and its histogram.

Exits non-zero when any error or desync occurred, so a run can gate a change.

``--url`` takes the nodes of a cluster (comma-separated, or the flag repeated): the rooms'
clients start at different entry URLs in turn, and follow the cluster's redirects (the SDK
does; the summary counts them).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

import trio
from rich.console import Console
from rich.live import Live

from arbiter.clients.sdk.urls import url_argument

from .report import progress_table, summary_table, write_json, write_png
from .runner import LoadConfig
from .stats import Aggregate, failed, summarize

# Beside the game log of `arbiter serve`'s default data folder, which is git-ignored: run from
# a checkout as the README says, the reports no longer land in its root (issue 29).
DEFAULT_JSON = Path("data") / "loadtest.json"
DEFAULT_PNG = Path("data") / "loadtest.png"


def outputs(json_path: Path | None, png_path: Path | None) -> tuple[Path, Path]:
    """Where the summary and the chart go: the paths given, else the defaults; their folders
    are created."""
    paths = (json_path or DEFAULT_JSON, png_path or DEFAULT_PNG)
    for path in paths:
        path.parent.mkdir(parents=True, exist_ok=True)
    return paths


# One worker process simulates about this many players at one decision a second each and
# stays well under a core (docs/measurements.md, "Players on one server"); the default spreads
# larger tests over more processes, so that one process is not what limits them.
PLAYERS_PER_WORKER = 1000


def default_workers(players: int, cpus: int | None) -> int:
    """Worker processes for ``players`` simulated players on a machine of ``cpus`` CPUs: one
    per :data:`PLAYERS_PER_WORKER`, at least one, and no more than the CPUs (the server may
    share them)."""
    wanted = -(-players // PLAYERS_PER_WORKER)
    return max(1, min(wanted, cpus or 1))


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--url", required=True, action="extend", type=url_argument,
                        metavar="URL[,URL...]",
                        help="the server, e.g. ws://127.0.0.1:8765; or the nodes of a cluster, "
                             "comma-separated or repeated")
    parser.add_argument("--rooms", type=int, default=10, help="rooms played at once")
    parser.add_argument("--players-per-room", type=int, default=2)
    parser.add_argument("--spectators", type=int, default=0, help="spectators per room")
    parser.add_argument("--duration", type=float, default=30.0,
                        help="seconds the test runs, the ramp included")
    parser.add_argument("--think-ms", type=float, default=100.0,
                        help="mean time a player thinks before each action (±50%%)")
    parser.add_argument("--ramp", type=float, default=5.0,
                        help="seconds over which the rooms start")
    parser.add_argument("--workers", type=int, default=None,
                        help="load generator processes (default: one per "
                             f"{PLAYERS_PER_WORKER:,} simulated players, at most one per CPU)")
    parser.add_argument("--strategy", choices=("heuristic", "random"), default="heuristic")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", type=Path, default=None,
                        help=f"where to write the summary (default {DEFAULT_JSON})")
    parser.add_argument("--png", type=Path, default=None,
                        help=f"where to write the latency chart (default {DEFAULT_PNG})")
    parser.add_argument("--no-live", action="store_true", help="no live progress display")
    events = parser.add_argument_group(
        "Limited events", "run whole events instead of rooms (--rooms is then unused)")
    events.add_argument("--events", type=int, default=0,
                        help="events played at once, each to its end (default 0: rooms)")
    events.add_argument("--event-seats", type=int, default=8,
                        help="simulated players in each event (default 8)")
    events.add_argument("--event-kind", choices=("draft", "sealed"), default="draft")
    events.add_argument("--event-rounds", type=int, default=None,
                        help="Swiss rounds (default: as many as the seats need)")
    events.add_argument("--event-best-of", type=int, choices=(1, 3), default=1,
                        help="games a match of a round (default 1)")
    events.add_argument("--pick-think-ms", type=float, default=None,
                        help="mean time a player thinks before each pick (±50%%; default: "
                             "--think-ms)")


async def _read_worker(config: LoadConfig, worker: int, agg: Aggregate) -> None:
    command = [sys.executable, "-m", "arbiter.clients.loadtest.worker",
               json.dumps(config.to_dict()), str(worker)]
    proc = await trio.lowlevel.open_process(command, stdout=subprocess.PIPE)
    assert proc.stdout is not None
    buffer = b""
    ended = False
    try:
        async with proc.stdout:
            while True:
                chunk = await proc.stdout.receive_some(1 << 16)
                if not chunk:
                    break
                buffer += chunk
                *lines, buffer = buffer.split(b"\n")
                for line in lines:
                    report = json.loads(line)
                    agg.add(worker, report)
                    ended = ended or report["k"] == "end"
        code = await proc.wait()
    finally:
        if proc.returncode is None:
            proc.kill()
            with trio.CancelScope(shield=True):
                await proc.wait()
    if code != 0 or not ended:
        agg.error_codes[f"worker {worker} exited with {code}"] = 1


async def _main(config: LoadConfig, live: bool) -> tuple[dict[str, object], Aggregate]:
    agg = Aggregate()
    console = Console(stderr=True)
    start = trio.current_time()

    async with trio.open_nursery() as nursery:
        async with trio.open_nursery() as workers:
            for w in range(config.workers):
                workers.start_soon(_read_worker, config, w, agg)

            async def display() -> None:
                if not live:
                    return
                try:
                    with Live(progress_table(agg, 0, config.duration), console=console,
                              refresh_per_second=4, transient=False) as view:
                        while True:
                            await trio.sleep(0.5)
                            view.update(progress_table(agg, trio.current_time() - start,
                                                       config.duration))
                finally:
                    console.print()

            nursery.start_soon(display)
        nursery.cancel_scope.cancel()
    summary = summarize(agg, config.measured(trio.current_time() - start), config.to_dict())
    summary["errors"] = int(summary["errors"]) + sum(
        1 for code in agg.error_codes if code.startswith("worker "))
    return summary, agg


def run(args: argparse.Namespace) -> int:
    players = (args.events * args.event_seats if args.events
               else args.rooms * (args.players_per_room + args.spectators))
    workers = args.workers or default_workers(players, os.cpu_count())
    config = LoadConfig(url=",".join(args.url), rooms=args.rooms,
                        players_per_room=args.players_per_room,
                        spectators=args.spectators, duration=args.duration,
                        think_ms=args.think_ms, ramp=args.ramp, workers=max(1, workers),
                        strategy=args.strategy, seed=args.seed, events=args.events,
                        event_seats=args.event_seats, event_kind=args.event_kind,
                        event_rounds=args.event_rounds, event_best_of=args.event_best_of,
                        pick_think_ms=args.pick_think_ms)
    summary, agg = trio.run(_main, config, not args.no_live)
    Console().print(summary_table(summary))
    json_path, png_path = outputs(args.json, args.png)
    write_json(summary, json_path)
    write_png(agg.samples, summary, png_path)
    print(f"summary written to {json_path.resolve()}, chart to {png_path.resolve()}")
    return 1 if failed(summary) else 0
