"""Limited events measured (issue 26): a whole draft event of bots, the server's CPU per pick,
and a load test of 64 players through events.

    python bench/events.py [--repeat 3] [--players 64] [--think-ms 100] [--pick-think-ms MS]
                           [--load-only] [--json]

Each run starts a fresh ``arbiter serve`` (seeded, so every run drafts and plays the same
event; ``--bot-think 0``, the least the server takes: its bots answer at once) and measures:

* **a whole event**: an 8-seat booster draft, every seat a bot the server runs, 3 Swiss
  rounds of best of three; the wall time from ``start`` to the event's ``finished`` state,
  as a spectator of the event sees it;
* **server CPU per pick**: with every seat a bot, the whole draft (8 x 45 = 360 picks), the
  bots' 8 decks and the first round's 4 matches happen inside the ``start`` request. The
  server process's CPU time (``/proc``) across that request, less the same for a sealed
  event of 8 bots (no picks; its decks and matches the same), divided by 360;
* **a load test**: ``arbiter loadtest --events E --event-seats 8 --event-kind draft`` (E =
  players / 8 pods, every seat a simulated player over the network, rounds as the seats need,
  best of one) against its own fresh server: the pick latency (send to ``ok``, and to the
  next ``event`` state) p50 / p99, the events' start-to-end time, and the errors.

The figures of every run are printed, then their medians.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import trio

ROOT = Path(__file__).resolve().parent.parent
if sys.path and Path(sys.path[0]).resolve() == ROOT / "bench":
    sys.path[0] = str(ROOT)

from arbiter.clients.sdk import Client, open_client  # noqa: E402
from bench._netclient import process_cpu_seconds  # noqa: E402
from tests.web.browser import running_server  # noqa: E402

PICKS = 8 * 45  # eight drafters, three packs of fifteen


async def _until_phase(client: Client, event: str, phase: str) -> dict[str, Any]:
    state = await client.wait_event(event)
    while state["phase"] != phase:
        state = await client.wait_event(event, since=state)
    return state


async def _bot_event(url: str, pid: int, kind: str, *, rounds: int, best_of: int,
                     to_end: bool) -> dict[str, float]:
    """An event of 8 server bots: the CPU its ``start`` cost the server and, ``to_end``, the
    wall time from ``start`` to ``finished``."""
    async with open_client(url, "Bench", ping_interval=None) as client:
        event = await client.create_event({"kind": kind, "seats": 8, "rounds": rounds,
                                           "best_of": best_of})
        await client.spectate(event)
        await client.wait_event(event)
        cpu = process_cpu_seconds(pid)
        started = time.perf_counter()
        await client.start_event(event)
        out = {"start_cpu_s": process_cpu_seconds(pid) - cpu}
        if to_end:
            await _until_phase(client, event, "finished")
            out["event_s"] = time.perf_counter() - started
        await client.leave(event)
        return out


def one_run(args: argparse.Namespace) -> dict[str, float]:
    out = {} if args.load_only else bot_figures()
    out.update(load_figures(args))
    return out


def bot_figures() -> dict[str, float]:
    """The whole event of server bots, and the server's CPU per pick."""
    out: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as tmp, \
            running_server(Path(tmp), "--bot-think", "0") as server:
        pid = server.proc.pid
        draft = trio.run(lambda: _bot_event(server.ws_url, pid, "draft", rounds=3, best_of=3,
                                            to_end=True))
        sealed = trio.run(lambda: _bot_event(server.ws_url, pid, "sealed", rounds=1,
                                             best_of=1, to_end=False))
        out["event_s"] = draft["event_s"]
        out["draft_start_cpu_ms"] = 1000 * draft["start_cpu_s"]
        out["sealed_start_cpu_ms"] = 1000 * sealed["start_cpu_s"]
        out["cpu_per_pick_ms"] = (out["draft_start_cpu_ms"] - out["sealed_start_cpu_ms"]) / PICKS
    return out


def load_figures(args: argparse.Namespace) -> dict[str, float]:
    """``arbiter loadtest`` of ``--players`` players in pods of eight, against its own
    server."""
    out: dict[str, float] = {}
    pick_think = [] if args.pick_think_ms is None else ["--pick-think-ms",
                                                        str(args.pick_think_ms)]
    with tempfile.TemporaryDirectory() as tmp, running_server(Path(tmp)) as server:
        report = Path(tmp) / "load.json"
        subprocess.run(
            [sys.executable, "-m", "arbiter.server.cli", "loadtest", "--url", server.ws_url,
             "--events", str(args.players // 8), "--event-seats", "8", "--event-kind", "draft",
             "--think-ms", str(args.think_ms), *pick_think, "--duration", str(args.duration),
             "--workers", str(args.workers), "--no-live", "--json", str(report),
             "--png", str(Path(tmp) / "load.png")],
            check=False, cwd=ROOT, stdout=subprocess.DEVNULL)
        summary = json.loads(report.read_text())
        ev = summary["events"]
        out["load_pick_ok_p50_ms"] = ev["pick_to_ok_ms"]["p50"]
        out["load_pick_ok_p99_ms"] = ev["pick_to_ok_ms"]["p99"]
        out["load_pick_state_p50_ms"] = ev["pick_to_state_ms"]["p50"]
        out["load_pick_state_p99_ms"] = ev["pick_to_state_ms"]["p99"]
        out["load_event_p50_s"] = ev["completion_s"]["p50"]
        out["load_event_max_s"] = ev["completion_s"]["max"]
        out["load_events_finished"] = ev["finished"]
        out["load_picks"] = ev["picks"]
        out["load_errors"] = summary["errors"]
        out["load_desyncs"] = summary["desyncs"]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--players", type=int, default=64, help="load test players (8 a pod)")
    parser.add_argument("--think-ms", type=float, default=100.0,
                        help="load test: mean think time before each pick and action")
    parser.add_argument("--pick-think-ms", type=float, default=None,
                        help="load test: mean think time before each pick (default: "
                             "--think-ms)")
    parser.add_argument("--load-only", action="store_true",
                        help="only the load test (not the server bots' event)")
    parser.add_argument("--duration", type=float, default=1800.0,
                        help="load test: the most it may take, in seconds")
    parser.add_argument("--workers", type=int, default=2, help="load test worker processes")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    runs = []
    for i in range(args.repeat):
        runs.append(one_run(args))
        if not args.json:
            print(f"run {i + 1}: " + ", ".join(f"{k} {v:.3g}" for k, v in runs[-1].items()),
                  flush=True)
    medians = {k: statistics.median(r[k] for r in runs) for k in runs[0]}
    if args.json:
        print(json.dumps({"runs": runs, "median": medians}, indent=2))
        return
    print(f"median of {len(runs)}:")
    for k, v in medians.items():
        print(f"  {k:28s} {v:.4g}")


if __name__ == "__main__":
    main()
