"""The load test's outputs: the live progress table, the final summary table, the JSON file
and the PNG (latency over time, and its histogram; matplotlib's Agg backend, no display)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from rich.table import Table

from .stats import Aggregate, per_second, percentile


def progress_table(agg: Aggregate, elapsed: float, duration: float) -> Table:
    recent = agg.window(elapsed, 5.0)
    last = agg.window(elapsed, 2.0)
    table = Table(title=f"arbiter loadtest: {min(elapsed, duration):5.1f} s of {duration:g} s",
                  show_header=True)
    for column in ("connected", "games finished", "actions/s", "p50 ms", "p99 ms", "errors",
                   "desyncs"):
        table.add_column(column, justify="right")
    table.add_row(str(agg.total("connected")), str(agg.total("games")),
                  f"{len(last) / 2:.0f}", f"{percentile(recent, 50):.1f}",
                  f"{percentile(recent, 99):.1f}", str(agg.total("errors")),
                  str(agg.total("desyncs")))
    return table


def summary_table(summary: dict[str, Any]) -> Table:
    lat, steady = summary["latency_ms"], summary["steady_latency_ms"]
    dbv = summary["delta_bytes_per_viewer"]
    table = Table(title="arbiter loadtest: summary", show_header=False)
    table.add_column("figure")
    table.add_column("value", justify="right")
    rows = [
        ("connected (peak)", summary["connected_peak"]),
        ("games finished", summary["games_finished"]),
        ("actions", summary["actions"]),
        ("actions per second", summary["actions_per_second"]),
        ("latency p50 / p90 / p99 / max (ms)",
         f"{lat['p50']:.2f} / {lat['p90']:.2f} / {lat['p99']:.2f} / {lat['max']:.2f}"),
        ("... in steady state, after the ramp",
         f"{steady['p50']:.2f} / {steady['p90']:.2f} / {steady['p99']:.2f} / "
         f"{steady['max']:.2f}"),
        ("errors", summary["errors"]),
        ("desyncs", summary["desyncs"]),
        ("resyncs", summary["resyncs"]),
        ("disconnects / reconnects", f"{summary['disconnects']} / {summary['reconnects']}"),
        ("redirects followed (cluster)", summary.get("redirects", 0)),
        ("requests interrupted by a lost connection", summary["interrupted"]),
        ("delta bytes per viewer (median / p99)", f"{dbv['median']:.0f} / {dbv['p99']:.0f}"),
        ("bytes per delta (median / p99)",
         f"{summary['bytes_per_delta']['median']} / {summary['bytes_per_delta']['p99']}"),
    ]
    events = summary.get("events")
    if events:
        ok, state = events["pick_to_ok_ms"], events["pick_to_state_ms"]
        rows += [
            ("events finished", f"{events['finished']} of {events['events']}"),
            ("event start to end p50 / max (s)",
             f"{events['completion_s']['p50']:.1f} / {events['completion_s']['max']:.1f}"),
            ("picks", events["picks"]),
            ("pick to ok p50 / p99 / max (ms)",
             f"{ok['p50']:.2f} / {ok['p99']:.2f} / {ok['max']:.2f}"),
            ("pick to next event state p50 / p99 / max (ms)",
             f"{state['p50']:.2f} / {state['p99']:.2f} / {state['max']:.2f}"),
        ]
    for name, value in rows:
        table.add_row(name, str(value))
    if summary["error_codes"]:
        table.add_row("errors by code", json.dumps(summary["error_codes"]))
    return table


def write_json(summary: dict[str, Any], path: Path) -> None:
    path.write_text(json.dumps(summary, indent=2) + "\n")


def write_png(samples: list[tuple[float, float]], summary: dict[str, Any], path: Path) -> None:
    """Latency p50 / p99 per second and actions per second over time; the latency
    histogram."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    seconds = per_second(samples)
    xs = sorted(seconds)
    fig, (over_time, histogram) = plt.subplots(2, 1, figsize=(10, 8))
    over_time.plot(xs, [percentile(seconds[x], 50) for x in xs], label="p50")
    over_time.plot(xs, [percentile(seconds[x], 99) for x in xs], label="p99")
    over_time.set_xlabel("seconds since start")
    over_time.set_ylabel("latency (ms): act to its delta")
    over_time.legend(loc="upper left")
    rate = over_time.twinx()
    rate.plot(xs, [len(seconds[x]) for x in xs], color="grey", alpha=0.4,
              label="actions/s")
    rate.set_ylabel("actions per second")
    rate.legend(loc="upper right")
    cfg = summary["config"]
    slots = f"{cfg['events']} {cfg['event_kind']} events x {cfg['event_seats']}" \
        if cfg.get("events") else f"{cfg['rooms']} rooms x {cfg['players_per_room']}"
    over_time.set_title(f"{slots} players, think {cfg['think_ms']} ms, {cfg['workers']} "
                        f"worker{'s' if cfg['workers'] != 1 else ''}")
    latencies = [ms for _, ms in samples]
    histogram.hist(latencies or [0.0], bins=100, log=True)
    lat = summary["latency_ms"]
    for q in ("p50", "p99"):
        histogram.axvline(lat[q], linestyle="--", color="red" if q == "p99" else "green",
                          label=f"{q} {lat[q]:.1f} ms")
    histogram.set_xlabel("latency (ms)")
    histogram.set_ylabel("actions")
    histogram.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
