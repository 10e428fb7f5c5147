"""``arbiter cluster`` as a user runs it: a real Redis, PostgreSQL and two nodes on this machine,
a bot game played through both entry URLs, and everything gone after Ctrl-C (docs/cluster.md,
"Trying it"). Every wait is bounded."""

from __future__ import annotations

import os
import re
import shlex
import signal
import socket
import subprocess
import time
from pathlib import Path

from arbiter.server.cluster.cluster_cmd import busy_ports, client_hint, node_args, restart_command
from tests.e2e.procs import ARBITER, free_port, run_arbiter, wait_for


def _two_free_ports() -> int:
    for _ in range(50):
        base = free_port()
        if base < 65535 and not busy_ports(base, 2):
            return base
    raise AssertionError("no two consecutive free ports on 127.0.0.1")


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    status = Path(f"/proc/{pid}/status")
    # A zombie has exited; only its parent has yet to notice.
    return not (status.exists() and "State:\tZ" in status.read_text())


def _start_cluster(out: Path) -> tuple[subprocess.Popen[str], int]:
    """``arbiter cluster --nodes 2`` on two consecutive free ports, until it is ready or
    fails. Its nodes need fixed ports, which nothing can hold for them: a start that lost one
    to another process (between the look and the node's bind) is tried again on others."""
    for _ in range(5):
        base = _two_free_ports()
        with open(out, "w") as sink:
            proc = subprocess.Popen([*ARBITER, "cluster", "--nodes", "2", "--port", str(base),
                                     "--lease", "2"], stdout=sink, stderr=subprocess.STDOUT,
                                    text=True)
        wait_for(lambda p=proc: "Ctrl-C stops everything" in out.read_text()
                 or p.poll() is not None, 90, "the cluster to be ready")
        text = out.read_text()
        if proc.poll() is None or not ("are in use" in text or "Address already in use" in text):
            return proc, base
    raise AssertionError(f"five starts lost their ports to other processes:\n{text}")


def test_a_local_cluster_starts_serves_a_game_and_stops_on_ctrl_c(tmp_path: Path) -> None:
    out = tmp_path / "cluster.out"
    proc, base = _start_cluster(out)
    try:
        text = out.read_text()
        assert proc.poll() is None, text
        pids = [int(p) for p in re.findall(r"\(pid (\d+)", text)]
        assert len(pids) == 4, text  # redis, postgres, two nodes
        urls = [f"ws://127.0.0.1:{base + i}/" for i in range(2)]
        assert all(url in text for url in urls), text
        assert f"--url {','.join(urls)}" in text, text
        # A game through both entry URLs, to its end, with every checksum matching.
        game = run_arbiter("bot", "--url", ",".join(urls), "--create", "--seats", "2",
                           "--strategy", "random", "--seed", "3", timeout=180)
        assert game.returncode == 0, game.stdout + game.stderr
        assert "won" in game.stdout or "draw" in game.stdout, game.stdout
        assert all(" 0 desyncs" in line for line in game.stdout.splitlines()
                   if "desyncs" in line), game.stdout
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=90) == 0, out.read_text()
        assert "[cluster] stopped" in out.read_text()
        wait_for(lambda: not any(_alive(p) for p in pids), 30, "every child to be gone")
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=30)


def test_a_port_in_use_is_refused_before_anything_starts() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        started = time.monotonic()
        done = run_arbiter("cluster", "--nodes", "1", "--port", str(port), timeout=60)
    assert done.returncode == 2
    assert f"port(s) {port} of 127.0.0.1 are in use" in done.stderr
    assert time.monotonic() - started < 30  # refused at once, nothing was started


def test_each_node_gets_the_cluster_flags_and_clients_get_every_url() -> None:
    args = node_args(9001, "redis://127.0.0.1:1/0", "dbname=x", Path("/tmp/n1"), 2.0, "INFO")
    flags = dict(zip(args[4::2], args[5::2], strict=False))
    assert flags == {"--port": "9001", "--data-dir": "/tmp/n1", "--redis": "redis://127.0.0.1:1/0",
                     "--postgres": "dbname=x", "--log-level": "INFO", "--lease": "2"}
    assert node_args(9001, "r", "d", Path("/n"), None, "INFO")[-1] == "INFO"  # default lease
    hint = client_hint(["ws://a/", "ws://b/"])
    assert "arbiter bot --url ws://a/,ws://b/" in hint


def test_a_node_s_restart_line_is_quoted_for_the_shell() -> None:
    args = node_args(9001, "redis://127.0.0.1:1/0", "host=127.0.0.1 dbname=arbiter",
                     Path("/tmp/my cluster/n1"), None, "INFO")
    line = restart_command(args)
    assert "'host=127.0.0.1 dbname=arbiter'" in line and "'/tmp/my cluster/n1'" in line
    assert shlex.split(line) == args


def test_the_cluster_takes_chosen_ports_and_says_how_durable_postgres_is(
        tmp_path: Path) -> None:
    node_port = _two_free_ports()
    redis_port = next(p for p in iter(_two_free_ports, None) if abs(p - node_port) > 1)
    postgres_port = redis_port + 1
    out = tmp_path / "cluster.out"
    with open(out, "w") as sink:
        proc = subprocess.Popen([*ARBITER, "cluster", "--nodes", "1", "--port",
                                 str(node_port), "--redis-port", str(redis_port),
                                 "--postgres-port", str(postgres_port)],
                                stdout=sink, stderr=subprocess.STDOUT, text=True)
    try:
        wait_for(lambda: "Ctrl-C stops everything" in out.read_text() or proc.poll() is not None,
                 90, "the cluster to be ready")
        text = out.read_text()
        assert f"redis://127.0.0.1:{redis_port}" in text, text
        assert f"port={postgres_port}" in text, text
        assert "fsync on" in text and "append-only file on" in text, text
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=90)
