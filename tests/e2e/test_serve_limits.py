"""``arbiter serve`` at the edges of what the machine gives it: a port already taken, and a low
limit on open files under a flood of requests that never finish (arbiter/server/net/admission.py,
docs/architecture.md)."""

from __future__ import annotations

import os
import resource
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

from websockets.sync.client import connect

from arbiter.protocol.codec import pack, unpack_server

from .procs import ARBITER, free_port, run_arbiter, wait_for


def test_a_port_in_use_is_said_in_one_line(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = run_arbiter("serve", "--port", str(port), "--data-dir", str(tmp_path / "data"))
    assert done.returncode != 0
    assert done.stderr.strip().splitlines() == [
        f"arbiter: port {port} of 127.0.0.1 is in use; choose another --port"]


@contextmanager
def serve_with_files(tmp_path: Path, soft: int, hard: int) -> Iterator[tuple[int, list[str]]]:
    """``arbiter serve`` started with RLIMIT_NOFILE (soft, hard); yields its port and what it
    printed until it listened. Its stderr is in tmp_path / "err" once it has stopped."""
    port = free_port()

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))

    with open(tmp_path / "err", "w") as err:
        proc = subprocess.Popen(
            [*ARBITER, "serve", "--port", str(port), "--data-dir", str(tmp_path / "data"),
             "--log-level", "INFO"], stdout=subprocess.PIPE, stderr=err, text=True,
            preexec_fn=limit, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        assert proc.stdout is not None
        os.set_blocking(proc.stdout.fileno(), False)
        out: list[str] = []

        def listening() -> bool:
            assert proc.stdout is not None and proc.poll() is None
            while line := proc.stdout.readline():
                out.append(line.strip())
            return any("listening on" in line for line in out)

        wait_for(listening, 30, "the server to listen")
        yield port, out
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)


def half_open(port: int, count: int, stack: ExitStack) -> None:
    """``count`` HTTP requests that start and never finish."""
    for _ in range(count):
        s = stack.enter_context(socket.create_connection(("127.0.0.1", port), timeout=5))
        s.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")


def honest_hello(port: int) -> float:
    """Seconds an honest client takes to connect and be welcomed."""
    start = time.monotonic()
    with connect(f"ws://127.0.0.1:{port}/", open_timeout=10) as ws:
        ws.send(pack({"t": "hello", "i": 1, "v": [1], "name": "Honest"}))
        reply = unpack_server(ws.recv(timeout=10))  # type: ignore[arg-type]
    assert reply["t"] == "welcome"
    return time.monotonic() - start


def test_a_flood_of_unfinished_requests_does_not_keep_an_honest_client_out(
        tmp_path: Path) -> None:
    """With every descriptor the process may open taken by requests that never finish, an
    honest client still connects at once, and the log says so in a line or two, without
    tracebacks (before: EMFILE on every accept, one traceback each, an honest connect waiting
    for the slow requests to time out)."""
    _, own_hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    assert own_hard >= 2048, "this test opens 1,100 sockets itself"
    resource.setrlimit(resource.RLIMIT_NOFILE, (own_hard, own_hard))
    with serve_with_files(tmp_path, 256, 256) as (port, out), ExitStack() as stack:
        assert any("open files: soft limit 256; at most 192 sockets" in line for line in out)
        half_open(port, 1_100, stack)
        waits = [honest_hello(port) for _ in range(3)]
        assert max(waits) < 3.0, waits
        time.sleep(0.5)  # anything the flood made the server say is written by now
    err = (tmp_path / "err").read_text()
    assert "Traceback" not in err, err[:3000]
    assert 1 <= len(err.splitlines()) <= 6, err[:3000]
    assert "closing the oldest unfinished requests" in err


def test_the_soft_limit_on_open_files_is_raised_to_the_hard_one(tmp_path: Path) -> None:
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or hard <= 1_024:  # pragma: no cover (nothing to raise)
        return
    with serve_with_files(tmp_path, 256, hard) as (port, out), ExitStack() as stack:
        assert any(f"soft limit raised from 256 to {hard}" in line for line in out), out
        half_open(port, 400, stack)  # more than 256: served as the limit allows now
        assert honest_hello(port) < 3.0
    assert "Traceback" not in (tmp_path / "err").read_text()
