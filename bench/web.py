"""The browser client measured in a real Chromium: what the first load transfers, and how long
the page takes to apply a server message to its replica and render it, over whole games.

    python bench/web.py [--games 3] [--seats 4] [--bot-think 0.05] [--json]

Each game: a fresh ``arbiter serve`` on loopback, a person in a fresh browser context (a cold
cache) who creates a room with bots the server runs in the other seats (``--seats`` 2: two
players; more: a free-for-all) and plays quick-red to the end by clicking
(tests/web/browser.py). Printed:

* first load: bytes transferred for the page and its assets (the Performance API's
  transferSize: headers and the compressed body), and their decoded size;
* apply and render: for each delta (and each snapshot), the time from the frame's arrival in
  the page's message handler to the end of the synchronous render of what it changed
  (``performance.now()`` in arbiter/clients/web/src/app.js): p50, p99 and the largest, over
  every game;
* the same handling read from Chromium's own trace (category devtools.timeline): for each
  frame the WebSocket received, the script call that handled it, its wall time (``dur``)
  and its thread's CPU time (``tdur``). On a machine shared with other work the wall time's
  tail is mostly the page waiting for a CPU; the CPU time is what the page itself costs;
* the target and attack arrows (arbiter/clients/web/src/arrows.js), drawn in the animation
  frame after a render that has any: p50, p99 and the largest time to place and draw them.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if sys.path and Path(sys.path[0]).resolve() == ROOT / "bench":
    sys.path[0] = str(ROOT)

from tests.web.browser import Person, chromium, running_server  # noqa: E402
from tests.web.test_browser import create_from_lobby, play_until  # noqa: E402

LOAD = """() => {
  const entries = [...performance.getEntriesByType('navigation'),
                   ...performance.getEntriesByType('resource')];
  return entries.map(e => ({name: e.name, transfer: e.transferSize, body: e.encodedBodySize,
                            decoded: e.decodedBodySize}));
}"""

TIMES = ("() => ({delta: window.arbiter.perf.delta, snapshot: window.arbiter.perf.snapshot,"
         " apply: window.arbiter.perf.apply, arrows: window.arbiter.arrows.times,"
         " stats: window.arbiter.conn.stats})")


def pct(values: list[float], p: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(p * len(s)))] if s else 0.0


def handler_times(trace: bytes) -> list[tuple[float, float]]:
    """(wall ms, CPU ms) of each script call that handled a received WebSocket frame: the first
    call into the page's script on the same thread after each ``WebSocketReceive``."""
    events = json.loads(trace)["traceEvents"]
    events.sort(key=lambda e: e.get("ts", 0))
    out: list[tuple[float, float]] = []
    waiting: dict[Any, bool] = {}
    for e in events:
        tid = e.get("tid")
        if e.get("name") == "WebSocketReceive":
            waiting[tid] = True
        elif (e.get("name") == "FunctionCall" and waiting.get(tid) and "tdur" in e
              and "/assets/app-" in str(e.get("args", {}).get("data", {}).get("url", ""))):
            waiting[tid] = False
            out.append((e["dur"] / 1000, e["tdur"] / 1000))
    return out


def one_game(browser: Any, seed_dir: Path, seats: int, think: float) -> dict[str, Any]:
    with running_server(seed_dir, "--bot-think", str(think)) as server:
        ann = Person(browser, server, "Ann")
        ann.enter()
        load = ann.page.evaluate(LOAD)
        create_from_lobby(ann, bots=True, seats=seats,
                          variant=None if seats == 2 else "free_for_all")
        ann.wait("() => document.querySelector('.table-screen')")
        browser.start_tracing(page=ann.page, categories=["devtools.timeline"])
        play_until([ann], lambda: (ann.read() or {}).get("over", False), limit=1800)
        handled = handler_times(browser.stop_tracing())
        times = ann.page.evaluate(TIMES)
        problems = list(ann.problems)
        ann.close()
    return {"load": load, "delta": times["delta"], "snapshot": times["snapshot"],
            "apply": times["apply"], "arrows": times["arrows"], "handled": handled,
            "stats": times["stats"], "problems": problems}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--seats", type=int, default=4, help="players at the table (2-6)")
    parser.add_argument("--bot-think", type=float, default=0.05,
                        help="seconds the server's bots wait before answering")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    games: list[dict[str, Any]] = []
    with chromium() as browser, tempfile.TemporaryDirectory() as tmp:
        for n in range(args.games):
            folder = Path(tmp) / f"game{n}"
            folder.mkdir()
            games.append(one_game(browser, folder, args.seats, args.bot_think))
    first = games[0]["load"]
    transfer = sum(int(e["transfer"]) for e in first)
    decoded = sum(int(e["decoded"]) for e in first)
    files = [(e["name"].rsplit("/", 1)[-1] or "/", e["transfer"]) for e in first]
    deltas = [float(t) for g in games for t in g["delta"]]
    snaps = [float(t) for g in games for t in g["snapshot"]]
    applied = [float(t) for g in games for t in g["apply"]]
    drawn = [float(t) for g in games for t in g["arrows"]]
    walls = [w for g in games for w, _ in g["handled"]]
    cpus = [c for g in games for _, c in g["handled"]]
    traced = {"n": len(walls), "wall_p50": round(pct(walls, 0.5), 3),
              "wall_p99": round(pct(walls, 0.99), 3), "cpu_p50": round(pct(cpus, 0.5), 3),
              "cpu_p99": round(pct(cpus, 0.99), 3), "cpu_max": round(max(cpus, default=0.0), 3)}
    arrows = {"n": len(drawn), "p50": round(pct(drawn, 0.5), 3),
              "p99": round(pct(drawn, 0.99), 3), "max": round(max(drawn, default=0.0), 3)}
    delta = {"n": len(deltas), "p50": round(pct(deltas, 0.5), 3),
             "p99": round(pct(deltas, 0.99), 3), "max": round(max(deltas), 3)}
    apply = {"p50": round(pct(applied, 0.5), 3), "p99": round(pct(applied, 0.99), 3)}
    snap = {"n": len(snaps), "p50": round(pct(snaps, 0.5), 3),
            "max": round(max(snaps, default=0.0), 3)}
    desyncs = sum(int(g["stats"]["desyncs"]) for g in games)
    problems = [p for g in games for p in g["problems"]]
    if args.json:
        print(json.dumps({"games": len(games), "seats": args.seats, "first_load": {
            "bytes_transferred": transfer, "bytes_decoded": decoded, "files": files},
            "delta_ms": delta, "delta_apply_only_ms": apply, "snapshot_ms": snap,
            "arrows_ms": arrows, "traced_frame_ms": traced,
            "desyncs": desyncs,
            "console_problems": problems}, indent=2))
        return 0
    print(f"first load: {transfer} bytes transferred ({decoded} decoded) in {len(first)} "
          "files: " + ", ".join(f"{n} {b}" for n, b in files))
    print(f"apply and render a delta, over {len(games)} games of {args.seats} players "
          f"({delta['n']} deltas): "
          f"p50 {delta['p50']} ms, p99 {delta['p99']} ms, max {delta['max']} ms "
          f"(of which applying it to the replica: p50 {apply['p50']} ms, p99 {apply['p99']} ms)")
    print(f"apply and render a snapshot ({snap['n']}): p50 {snap['p50']} ms, "
          f"max {snap['max']} ms")
    print(f"each frame's handler in Chromium's trace ({traced['n']} frames): wall p50 "
          f"{traced['wall_p50']} ms, p99 {traced['wall_p99']} ms; CPU p50 {traced['cpu_p50']} ms, "
          f"p99 {traced['cpu_p99']} ms, max {traced['cpu_max']} ms")
    print(f"arrows drawn in the next frame ({arrows['n']} times): p50 {arrows['p50']} ms, "
          f"p99 {arrows['p99']} ms, max {arrows['max']} ms")
    print(f"desyncs: {desyncs}; console errors/warnings: {len(problems)}")
    return 0 if not problems and desyncs == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
