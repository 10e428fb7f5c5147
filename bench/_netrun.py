"""Start a server in a child process, load it with the bench clients, and report."""

from __future__ import annotations

import contextlib
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from bench._deltas import breakdown
from bench._netclient import load, process_cpu_seconds

ROOT = Path(__file__).resolve().parent.parent


ARBITER = [sys.executable, "-m", "arbiter.server.cli"]  # how a bench starts `arbiter`


def _command(kind: str, data_dir: str, extra: list[str], launcher: list[str] | None = None
             ) -> list[str]:
    if kind == "arbiter":
        return [*(launcher or ARBITER), "serve", "--port", "0", "--data-dir",
                data_dir, "--rate", "1000000", "--burst", "1000000", "--log-level", "WARNING",
                # every bench room is created from 127.0.0.1 before its players join
                "--max-waiting-per-address", "100000",
                "--allow-scenarios", *extra]  # fixed seeds: the same games in every run
    return [sys.executable, str(ROOT / "bench" / "baseline.py"), "--serve", "--port", "0"]


@contextlib.contextmanager
def server_process(kind: str, extra: list[str] | None = None, cpus: set[int] | None = None,
                   launcher: list[str] | None = None
                   ) -> Iterator[tuple[subprocess.Popen[str], int]]:
    """A fresh ``kind`` server process (kept on ``cpus`` if given) with a throwaway data
    directory, and the port it listens on; stopped on the way out. ``launcher``: the command
    that stands for ``arbiter`` (bench/server_parts.py's, which times the server's parts)."""
    with tempfile.TemporaryDirectory() as data_dir:
        proc = subprocess.Popen(_command(kind, data_dir, extra or [], launcher), cwd=ROOT,
                                stdout=subprocess.PIPE, text=True)
        try:
            if cpus is not None:  # at once: the worker threads it starts later inherit this
                os.sched_setaffinity(proc.pid, cpus)
            assert proc.stdout is not None
            port = None
            while port is None:
                line = proc.stdout.readline()
                if not line:
                    raise RuntimeError(f"{kind} server exited")
                m = re.search(r"listening on ws://127\.0\.0\.1:(\d+)", line)
                if m:
                    port = int(m.group(1))
            yield proc, port
        finally:
            proc.terminate()
            proc.wait(timeout=30)
            if proc.stdout is not None:
                proc.stdout.close()


async def run_one(kind: str, rooms: int, seconds: float, extra: list[str] | None = None,
                  compression: bool = False, cpus: set[int] | None = None,
                  dump: int = 0) -> dict[str, Any]:
    """One measured run of ``rooms`` rooms against a fresh ``kind`` server process (kept on
    ``cpus`` if given); ``dump``: print what makes the top 1% of deltas and the ``dump``
    largest (bench/_deltas.py)."""
    with server_process(kind, extra, cpus) as (proc, port):
        cpu0 = process_cpu_seconds(proc.pid)
        started = time.perf_counter()
        stats = await load(port, kind, rooms, seconds, compression=compression,
                           keep_views=dump > 0)
        if stats.views is not None:
            print(breakdown(stats.views, stats.delta_sizes, dump))
        mem = _rss_kib(proc.pid)
        wall = time.perf_counter() - started
        summary = stats.summary()
        summary["server_cpu_share"] = round(
            (process_cpu_seconds(proc.pid) - cpu0) / wall, 2)
        summary["server_rss_mib"] = round(mem / 1024, 1)
        if kind == "arbiter":
            metrics = await _metrics(port)
            commits = metrics.get("arbiter_log_commits_total") \
                or metrics.get("arbiter_pg_commits_total", 0.0)  # a cluster node's log
            summary["commands_per_commit"] = round(
                metrics.get("arbiter_actions_total", 0.0) / commits, 2) if commits else 0
            if "arbiter_pg_commit_seconds_total" in metrics and commits:
                # A cluster node's batch, from its send to its answer read: how long the
                # actions in it wait on PostgreSQL (the event loop's turn included).
                summary["commit_mean_us"] = round(
                    1e6 * metrics["arbiter_pg_commit_seconds_total"] / commits)
        return summary


async def _metrics(port: int) -> dict[str, float]:
    """The server's /metrics, unlabelled samples only."""
    import trio

    stream = await trio.open_tcp_stream("127.0.0.1", port)
    await stream.send_all(b"GET /metrics HTTP/1.1\r\nHost: bench\r\nConnection: close\r\n\r\n")
    data = b""
    while chunk := await stream.receive_some():
        data += chunk
    await stream.aclose()
    out = {}
    for line in data.decode().split("\r\n\r\n", 1)[-1].splitlines():
        if line and not line.startswith("#") and "{" not in line:
            name, value = line.rsplit(" ", 1)
            out[name] = float(value)
    return out


def _rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


FIELDS = [
    ("actions_per_s", "actions/s"), ("latency_p50_ms", "p50 ms"), ("latency_p99_ms", "p99 ms"),
    ("delta_median_bytes", "delta median B"), ("delta_p99_bytes", "delta p99 B"),
    ("delta_bytes_per_viewer_per_decision", "delta B/viewer/decision"),
    ("delta_frame_median_bytes", "delta frame as sent median B"),
    ("delta_frame_p99_bytes", "delta frame as sent p99 B"),
    ("legal_actions_median_bytes", "legal actions median B"),
    ("received_bytes_per_action", "received B/action (all clients)"),
    ("deflated_delta_median_bytes", "delta with deflate median B (one viewer)"),
    ("deflated_delta_p99_bytes", "delta with deflate p99 B (one viewer)"),
    ("server_cpu_share", "server CPU"), ("client_cpu_share", "client CPU"),
    ("server_rss_mib", "server RSS MiB"), ("commands_per_commit", "commands per log commit"),
    ("games_finished", "games"), ("errors", "errors"),
]


def cpu_per_action_us(run: dict[str, Any]) -> float:
    """The server's CPU time per action of a run, in microseconds."""
    return float(run["server_cpu_share"]) / float(run["actions_per_s"]) * 1e6


def client_cpu_per_action_us(run: dict[str, Any]) -> float:
    """The load generator's CPU time per action of a run, in microseconds."""
    return float(run["client_cpu_share"]) / float(run["actions_per_s"]) * 1e6


def report(runs: dict[str, list[dict[str, Any]]], as_json: bool = False) -> None:
    if as_json:
        print(json.dumps(runs, indent=2))
        return
    for kind, results in runs.items():
        print(f"\n{kind} ({len(results)} run{'s' if len(results) > 1 else ''}):")
        for key, label in FIELDS:
            if key not in results[0]:
                continue
            values = [r[key] for r in results]
            shown = ", ".join(str(v) for v in values)
            med = statistics.median(values) if len(values) > 1 else None
            print(f"  {label:32s} {shown}" + (f"   (median {med})" if med is not None else ""))
    if "arbiter" in runs and "baseline" in runs:
        # Each arbiter run is paired with the baseline run right after it: on a shared
        # machine the pair saw the same noise, the medians may not have.
        paired = list(zip(runs["arbiter"], runs["baseline"], strict=False))
        # The figure that compares the servers: server CPU per action, the baseline's over
        # ours (1.0: as cheap as a bare fan-out). The rate ratio depends on the clients too,
        # and ours cost more per action (bigger frames to decode, a bot's choice to make), so
        # it is shown second, with both clients' CPU per action beside it.
        cpu = [(cpu_per_action_us(a), cpu_per_action_us(b)) for a, b in paired
               if a["actions_per_s"] and b["actions_per_s"]]
        if cpu:
            shown = ", ".join(f"{b / a:.2f}" for a, b in cpu)
            print(f"\nserver CPU per action, baseline / arbiter, run by run: {shown}"
                  f"   (median {statistics.median(b / a for a, b in cpu):.2f})")
            print(f"server CPU per action: arbiter "
                  f"{statistics.median(a for a, _ in cpu):.0f} us, baseline "
                  f"{statistics.median(b for _, b in cpu):.0f} us (medians)")
        clients = [(client_cpu_per_action_us(a), client_cpu_per_action_us(b))
                   for a, b in paired if a["actions_per_s"] and b["actions_per_s"]]
        if clients:
            print(f"client CPU per action: arbiter's clients "
                  f"{statistics.median(a for a, _ in clients):.0f} us, baseline's "
                  f"{statistics.median(b for _, b in clients):.0f} us (medians)")
        pairs = [a["actions_per_s"] / b["actions_per_s"] for a, b in paired]
        shown = ", ".join(f"{p:.2f}" for p in pairs)
        print(f"ratio arbiter / baseline actions per second, run by run: {shown}"
              f"   (median {statistics.median(pairs):.2f})")
