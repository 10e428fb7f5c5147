"""Arbiter under load: N rooms of 4 bot players on loopback, against the bare websockets-trio
fan-out server (bench/baseline.py) driven by the same clients in the same invocation.

    python bench/server.py [--rooms 10] [--seconds 10] [--repeat 3] [--compression]
    python bench/server.py --set M10 --only arbiter   # the delta sizes with Magic 2010 decks
    python bench/server.py --set M10 --only arbiter --dump 10  # ... and what makes the p99

Prints, for each server: actions per second, p50/p99 latency from sending an action to
receiving the frame that acknowledges it (the actor's delta), the median and p99 size of a
delta frame as each viewer receives it for one decision, and the CPU share of the server and of
the client process; then the comparison: server CPU per action, the baseline's over Arbiter's,
run by run (the figure: the two clients do not cost the same per action, so the rate ratio,
printed after it with both clients' CPU per action, also measures the clients). The bots play
the quick casual decks, or with ``--set M10`` the six ready-made Magic 2010 decks (room slot k
seats decks 4k to 4k+3, round the six). Runs alternate (arbiter, baseline, arbiter, ...) so
that both see the same noise on this shared machine.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if sys.path and Path(sys.path[0]).resolve() == ROOT / "bench":
    sys.path[0] = str(ROOT)  # so that ``bench.*`` and ``tests.*`` import as packages

import trio  # noqa: E402

from arbiter.server.rules.cards.decks import READY_MADE  # noqa: E402
from bench import _netclient  # noqa: E402
from bench._netrun import report, run_one  # noqa: E402

SETS = {"M10": sorted(d for d in READY_MADE if d.startswith("m10-"))}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", type=int, default=10)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--compression", action="store_true",
                        help="offer permessage-deflate on the Arbiter server")
    parser.add_argument("--sync", choices=("normal", "full"), default="normal")
    parser.add_argument("--only", choices=("arbiter", "baseline"))
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--set", choices=sorted(SETS), default=None,
                        help="the bots play this set's ready-made decks")
    parser.add_argument("--dump", type=int, default=0, metavar="N",
                        help="print which parts make the top 1%% of deltas, and the N largest")
    args = parser.parse_args()
    if args.set:
        _netclient.DECKS[:] = SETS[args.set]
    extra = ["--sync", args.sync] + (["--compression"] if args.compression else [])
    runs: dict[str, list[dict[str, object]]] = {}
    for _ in range(args.repeat):
        for kind in ("arbiter", "baseline"):
            if args.only in (None, kind):
                runs.setdefault(kind, []).append(trio.run(
                    run_one, kind, args.rooms, args.seconds, extra,
                    args.compression and kind == "arbiter", None,
                    args.dump if kind == "arbiter" else 0))
    report(runs, args.json)  # type: ignore[arg-type]
    return 0


if __name__ == "__main__":
    sys.exit(main())
