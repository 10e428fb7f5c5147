"""What a load test measures, and the summary it ends with.

Each worker keeps a :class:`Recorder`: counters, and one latency sample per action (the time
from sending an ``act`` to receiving its reply, the actor's delta); in a test of Limited
events also one per pick (from sending a ``pick`` to its ``ok``, and to the next ``event``
state) and each event's time from its start to its end. Workers in other processes
send their recorders' contents to the parent as JSON (:meth:`Recorder.progress` while running,
:meth:`Recorder.final` at the end); :class:`Aggregate` adds them up and :func:`summarize`
computes the figures.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .catalog import SharedCatalog

if TYPE_CHECKING:
    from arbiter.clients.sdk import Client


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile (0-100) by the nearest-rank method; 0 for no values."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return float(ordered[min(rank, len(ordered)) - 1])


@dataclass
class Recorder:
    """One worker's measurements; times are seconds since the test's start."""

    start: float
    connected: int = 0
    peak: int = 0
    games: int = 0
    actions: int = 0
    samples: list[tuple[float, float]] = field(default_factory=list)  # (at, latency seconds)
    errors: dict[str, int] = field(default_factory=dict)
    clients: list[Client] = field(default_factory=list)
    interrupted: int = 0  # requests whose connection dropped before the answer
    picks: list[tuple[float, float]] = field(default_factory=list)  # (to ok, to state) s
    events: list[float] = field(default_factory=list)  # seconds from start to finished
    catalog: SharedCatalog = field(default_factory=SharedCatalog)  # the worker's players'
    _sent: int = 0  # samples already reported by progress()
    _sent_picks: int = 0
    _sent_events: int = 0

    def connect(self, client: Client) -> None:
        self.clients.append(client)
        self.connected += 1
        self.peak = max(self.peak, self.connected)

    def disconnect(self) -> None:
        self.connected -= 1

    def action(self, now: float, latency: float) -> None:
        self.actions += 1
        self.samples.append((now - self.start, latency))

    def pick(self, to_ok: float, to_state: float) -> None:
        self.picks.append((to_ok, to_state))

    def event_finished(self, seconds: float) -> None:
        self.events.append(seconds)

    def error(self, code: str) -> None:
        self.errors[code] = self.errors.get(code, 0) + 1

    def client_totals(self) -> dict[str, int]:
        out = {"desyncs": 0, "resyncs": 0, "disconnects": 0, "reconnects": 0,
               "redirects": 0, "server_errors": 0, "interrupted": self.interrupted}
        for c in self.clients:
            out["desyncs"] += c.stats.desyncs
            out["resyncs"] += c.stats.resyncs
            out["disconnects"] += c.stats.disconnects
            out["reconnects"] += c.stats.reconnects
            out["redirects"] += c.stats.redirects
        return out

    def progress(self) -> dict[str, Any]:
        """Counters, and the latency samples taken since the last call."""
        new = self.samples[self._sent:]
        self._sent = len(self.samples)
        picks, events = self.picks[self._sent_picks:], self.events[self._sent_events:]
        self._sent_picks, self._sent_events = len(self.picks), len(self.events)
        totals = self.client_totals()
        return {"k": "p", "connected": self.connected, "peak": self.peak, "games": self.games,
                "actions": self.actions, "errors": sum(self.errors.values()),
                "desyncs": totals["desyncs"],
                "samples": [[round(t, 4), round(lat * 1000, 4)] for t, lat in new],
                "picks": [[round(ok * 1000, 4), round(st * 1000, 4)] for ok, st in picks],
                "events": [round(t, 3) for t in events]}

    def final(self) -> dict[str, Any]:
        out = self.progress()
        out["k"] = "end"
        out.update(self.client_totals())
        out["error_codes"] = dict(self.errors)
        out["viewers"] = [[c.stats.delta_bytes, c.stats.deltas] for c in self.clients]
        return out


@dataclass
class Aggregate:
    """The sum of the workers' reports."""

    workers: dict[int, dict[str, Any]] = field(default_factory=dict)
    samples: list[tuple[float, float]] = field(default_factory=list)  # (at, latency ms)
    peak: int = 0
    viewers: list[tuple[int, int]] = field(default_factory=list)
    error_codes: dict[str, int] = field(default_factory=dict)
    picks: list[tuple[float, float]] = field(default_factory=list)  # (to ok, to state) ms
    events: list[float] = field(default_factory=list)  # seconds each event took

    def add(self, worker: int, report: dict[str, Any]) -> None:
        self.workers[worker] = report
        self.samples.extend((float(t), float(ms)) for t, ms in report["samples"])
        self.picks.extend((float(ok), float(st)) for ok, st in report.get("picks", ()))
        self.events.extend(float(t) for t in report.get("events", ()))
        # The workers' peaks need not coincide: the peak is the largest of the summed current
        # counts seen and of each worker's own peak (both are reached at some moment).
        self.peak = max(self.peak, self.total("connected"), int(report["peak"]))
        if report["k"] == "end":
            self.viewers.extend((int(b), int(n)) for b, n in report["viewers"])
            for code, n in report["error_codes"].items():
                self.error_codes[code] = self.error_codes.get(code, 0) + int(n)

    def total(self, key: str) -> int:
        return sum(int(r.get(key, 0)) for r in self.workers.values())

    def window(self, now: float, seconds: float) -> list[float]:
        """Latencies (ms) of the actions in the last ``seconds`` before ``now``."""
        out = []
        for t, ms in reversed(self.samples):
            if t < now - seconds:
                break
            out.append(ms)
        return out


def _latency(latencies: Sequence[float]) -> dict[str, float]:
    return {"p50": round(percentile(latencies, 50), 3),
            "p90": round(percentile(latencies, 90), 3),
            "p99": round(percentile(latencies, 99), 3),
            "max": round(max(latencies, default=0.0), 3),
            "samples": len(latencies)}


def summarize(agg: Aggregate, duration: float, config: dict[str, Any]) -> dict[str, Any]:
    latencies = [ms for _, ms in agg.samples]
    # In steady state: the actions made once the ramp is over, every room started (and every
    # connection, catalog and first snapshot of the ramp behind, mostly).
    ramp = float(config.get("ramp") or 0.0)
    steady = [ms for t, ms in agg.samples if t >= ramp]
    bytes_per_viewer = [b for b, _ in agg.viewers]
    per_delta = [b / n for b, n in agg.viewers if n]
    errors = agg.total("errors")
    out: dict[str, Any] = {
        "config": config,
        "duration_s": round(duration, 3),
        "connected_peak": agg.peak,
        "games_finished": agg.total("games"),
        "actions": agg.total("actions"),
        "actions_per_second": round(agg.total("actions") / duration, 1) if duration else 0.0,
        "latency_ms": _latency(latencies),
        "steady_latency_ms": _latency(steady),
        "errors": errors,
        "error_codes": dict(agg.error_codes),
        "desyncs": agg.total("desyncs"),
        "resyncs": agg.total("resyncs"),
        "disconnects": agg.total("disconnects"),
        "reconnects": agg.total("reconnects"),
        "redirects": agg.total("redirects"),  # moves to another cluster node, not failures
        "interrupted": agg.total("interrupted"),
        "delta_bytes_per_viewer": {
            "viewers": len(bytes_per_viewer),
            "median": percentile(bytes_per_viewer, 50),
            "p99": percentile(bytes_per_viewer, 99),
        },
        "bytes_per_delta": {
            "median": round(percentile(per_delta, 50), 1),
            "p99": round(percentile(per_delta, 99), 1),
        },
    }
    if config.get("events"):
        out["events"] = event_figures(agg, int(config["events"]))
    return out


def _quantiles(values: Sequence[float], digits: int) -> dict[str, float]:
    return {"p50": round(percentile(values, 50), digits),
            "p99": round(percentile(values, 99), digits),
            "max": round(max(values, default=0.0), digits)}


def event_figures(agg: Aggregate, events: int) -> dict[str, Any]:
    """A test of Limited events: how many finished, how long each took from its start to its
    end, and the pick latencies (ms) to the ``ok`` and to the next ``event`` state."""
    return {
        "events": events,
        "finished": len(agg.events),
        "completion_s": _quantiles(agg.events, 2),
        "picks": len(agg.picks),
        "pick_to_ok_ms": _quantiles([ok for ok, _ in agg.picks], 3),
        "pick_to_state_ms": _quantiles([st for _, st in agg.picks], 3),
    }


def failed(summary: dict[str, Any]) -> bool:
    """A run fails when any error (a refusal by the server) or desync occurred. Connections
    lost and made again (a server restarting) are reported, not failures."""
    return bool(summary["errors"] or summary["desyncs"])


def per_second(samples: Iterable[tuple[float, float]]) -> dict[int, list[float]]:
    out: dict[int, list[float]] = {}
    for t, ms in samples:
        out.setdefault(int(t), []).append(ms)
    return out
