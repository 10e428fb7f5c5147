"""The load tester, in-process: one worker against an in-process server under MockClock, so
its "10 seconds" are virtual and the test costs only the CPU work. Eight rooms must play whole
games with no error, no desync and no dropped connection."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest
import trio

from arbiter.clients.loadtest.cmd import add_arguments, default_workers, outputs
from arbiter.clients.loadtest.report import write_json, write_png
from arbiter.clients.loadtest.runner import LoadConfig, run_load
from arbiter.clients.loadtest.stats import failed, percentile

from ..server.harness import start_server


@pytest.mark.servers  # the file's other tests are pure (tests/conftest.py, KINDS)
async def test_eight_rooms_for_ten_seconds_finish_games_without_errors_or_desyncs(
        nursery: trio.Nursery, tmp_path: Path, autojump_clock: object) -> None:
    server = await start_server(nursery, tmp_path)
    config = LoadConfig(url=f"ws://127.0.0.1:{server.port}/", rooms=8, players_per_room=2,
                        spectators=1, duration=10.0, think_ms=10, ramp=1.0, ping_interval=None)
    seen: list[int] = []
    summary, agg = await run_load(config,
                                  progress=lambda agg, t: seen.append(agg.total("actions")))
    assert summary["errors"] == 0, summary["error_codes"]
    assert summary["desyncs"] == 0 and summary["resyncs"] == 0
    assert summary["disconnects"] == 0
    assert not failed(summary)
    assert summary["connected_peak"] == 8 * 3
    assert summary["games_finished"] >= 8
    assert summary["actions"] == summary["latency_ms"]["samples"] > 1000
    assert summary["delta_bytes_per_viewer"]["viewers"] == 24
    assert summary["delta_bytes_per_viewer"]["median"] > 0
    assert seen == sorted(seen) and seen[-1] > 0  # progress came while it ran
    assert server.hub.stats.games_finished == summary["games_finished"]
    # One catalog for the worker's sixteen players, not one each: 76 KB the server sends and
    # the generator decodes, a cost of the test (loadtest/catalog.py).
    assert server.hub.stats.catalogs_sent == 1
    steady = summary["steady_latency_ms"]  # the actions after the one-second ramp
    assert 0 < steady["samples"] == sum(1 for t, _ in agg.samples if t >= 1.0) < summary[
        "actions"]

    write_json(summary, tmp_path / "load.json")
    assert json.loads((tmp_path / "load.json").read_text())["actions"] == summary["actions"]
    write_png(agg.samples, summary, tmp_path / "load.png")
    assert (tmp_path / "load.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_percentiles_and_the_failure_rule() -> None:
    values = [float(v) for v in range(1, 101)]
    assert (percentile(values, 50), percentile(values, 99), percentile(values, 100)) == (
        50.0, 99.0, 100.0)
    assert percentile([], 99) == 0.0
    clean = {"errors": 0, "desyncs": 0}
    assert not failed(clean)
    assert failed({**clean, "errors": 1}) and failed({**clean, "desyncs": 2})


def test_the_reports_go_to_the_data_folder_not_the_current_one(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Run from a checkout as the README says, loadtest.json and loadtest.png landed in its
    root (issue 29): by default they go to data/, the folder `arbiter serve` keeps its log in
    (git-ignored); paths given are used as they are."""
    monkeypatch.chdir(tmp_path)
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    args = parser.parse_args(["--url", "ws://127.0.0.1:1/"])
    assert outputs(args.json, args.png) == (Path("data/loadtest.json"), Path("data/loadtest.png"))
    assert (tmp_path / "data").is_dir()
    given = outputs(tmp_path / "out" / "a.json", None)
    assert given[0] == tmp_path / "out" / "a.json" and (tmp_path / "out").is_dir()
    assert "data/loadtest.json" in " ".join(parser.format_help().split())
    ignored = (Path(__file__).resolve().parents[2] / ".gitignore").read_text().split()
    assert "loadtest.json" in ignored and "loadtest.png" in ignored


def test_the_default_workers_grow_with_the_players_up_to_the_cpus() -> None:
    """One worker process for up to 1,000 simulated players, another for each 1,000 more,
    never more than the machine's CPUs: 4,000 players on one core would make the generator,
    not the server, what the test measures."""
    assert default_workers(16, 8) == 1
    assert default_workers(1000, 8) == 1 and default_workers(1001, 8) == 2
    assert default_workers(4000, 8) == 4 and default_workers(4000, 2) == 2
    assert default_workers(4000, None) == 1 and default_workers(0, 4) == 1
