"""Real processes for end-to-end tests: an ``arbiter serve`` that can be killed with SIGKILL and
started again on the same port and log, and the other ``arbiter`` commands run as a user would
run them. Every wait is for a condition, with a bound. Each process leads a process group of its
own (tests/processes.py), ended whole whatever the test did to it."""

from __future__ import annotations

import json
import os
import random
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

from tests import processes

ARBITER = [sys.executable, "-m", "arbiter.server.cli"]
LISTENING = re.compile(r"listening on ws://127\.0\.0\.1:(\d+)")


def free_port() -> int:
    """A port nothing uses now, for a process that must be told its port before it binds it (a
    cluster node's id and URL name its port: docs/cluster.md); anything else binds port 0 and
    says which port it got. Drawn below the kernel's ephemeral range: a port from that range
    can go to any outgoing connection (the suite makes thousands, on several workers) between
    this check and the node's bind, and the node then fails with "address already in use";
    below it, only another draw can take it. SystemRandom: tests seed the global generator."""
    low = _ephemeral_low()
    draw = random.SystemRandom()
    for _ in range(100):
        port = draw.randrange(20000, low)
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise AssertionError(f"no free port on 127.0.0.1 between 20000 and {low}")


def _ephemeral_low() -> int:
    try:
        return int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return 32768  # Linux's default


def wait_for(condition: Callable[[], Any], timeout: float, what: str,
             every: float = 0.05) -> Any:
    """Poll ``condition`` until it is true (returning its value); fail after ``timeout``."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:g} s waiting for {what}")
        time.sleep(every)


class Server:
    """``arbiter serve`` on 127.0.0.1:``port`` with its log in ``data``.

    ``port`` 0: the port the OS gives it when it first starts (read from its "listening on"
    line), kept for its restarts. None: a :func:`free_port` chosen now, for a cluster node,
    which must know its port before it starts."""

    def __init__(self, data: Path, port: int | None = 0, *extra: str) -> None:
        self.data = data
        self.port = free_port() if port is None else port
        self.extra = extra
        self.proc: subprocess.Popen[str] | None = None
        self.starts = 0
        self.output: list[str] = []

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/"

    def start(self, timeout: float = 30.0) -> None:
        err: IO[str] = open(self.data.parent / f"{self.data.name}.err", "a")  # noqa: SIM115
        self.proc = processes.spawn(
            [*ARBITER, "serve", "--port", str(self.port), "--data-dir", str(self.data),
             "--log-level", "WARNING", *self.extra], stdout=subprocess.PIPE, stderr=err,
            text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})
        err.close()
        self.starts += 1
        assert self.proc.stdout is not None
        os.set_blocking(self.proc.stdout.fileno(), False)
        wait_for(self._listening, timeout, "the server to listen")

    def _listening(self) -> bool:
        assert self.proc is not None and self.proc.stdout is not None
        if self.proc.poll() is not None:
            raise AssertionError(f"the server exited ({self.proc.returncode}): "
                                 + (self.data.parent / f"{self.data.name}.err").read_text())
        while line := self.proc.stdout.readline():
            self.output.append(line.rstrip("\n"))
            if self.port == 0 and (m := LISTENING.search(line)):
                self.port = int(m.group(1))  # and the same port for every restart
        return any("listening on" in line for line in self.output)

    def errors(self) -> str:
        """What the server wrote to stderr, over all its starts."""
        return (self.data.parent / f"{self.data.name}.err").read_text()

    def kill(self) -> None:
        """SIGKILL: no shutdown, no flush; what was committed is all that survives."""
        assert self.proc is not None
        processes.send(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=10)
        self.output.clear()

    def freeze(self) -> None:
        """SIGSTOP: the process stays, its sockets stay open, and it does nothing at all."""
        assert self.proc is not None
        processes.send(self.proc.pid, signal.SIGSTOP)

    def thaw(self) -> None:
        assert self.proc is not None
        processes.send(self.proc.pid, signal.SIGCONT)

    def health(self) -> tuple[int, str]:
        """/healthz: (status, body); (0, why) while nothing answers."""
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/healthz",
                                        timeout=5) as r:
                return r.status, r.read().decode()
        except urllib.error.HTTPError as exc:
            return exc.code, exc.read().decode()
        except OSError as exc:
            return 0, str(exc)

    def stop(self) -> None:
        """SIGTERM (a clean shutdown), woken first if frozen; SIGKILL after 10 s."""
        if self.proc is not None:
            processes.stop(self.proc)

    def metrics(self) -> dict[str, float]:
        """Unlabelled samples of /metrics (empty while the server is down)."""
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/metrics",
                                        timeout=5) as r:
                text = r.read().decode()
        except OSError:
            return {}
        out = {}
        for line in text.splitlines():
            if line and not line.startswith("#") and "{" not in line:
                name, value = line.rsplit(" ", 1)
                out[name] = float(value)
        return out

    def actions(self) -> int:
        return int(self.metrics().get("arbiter_actions_total", 0))


def run_arbiter(*args: str, timeout: float = 60.0) -> subprocess.CompletedProcess[str]:
    """Run ``arbiter ARGS`` to its end (and whatever it started with it)."""
    proc = processes.spawn([*ARBITER, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True)
    try:
        out, err = proc.communicate(timeout=timeout)
    finally:
        processes.end(proc.pid)
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)


def replay_all(data: Path) -> list[tuple[int, int, str]]:
    """Replay every game of the log: (game, exit code, last line) for each (0: the state hashes
    the log recorded all match a replay)."""
    listing = run_arbiter("replay", "--list", "--data-dir", str(data))
    assert listing.returncode == 0, listing.stderr
    out = []
    for m in re.finditer(r"^game (\d+): .*$", listing.stdout, re.M):
        done = run_arbiter("replay", m.group(1), "--data-dir", str(data))
        lines = done.stdout.strip().splitlines()
        out.append((int(m.group(1)), done.returncode, lines[-1] if lines else done.stderr))
    return out


def read_json(path: Path) -> dict[str, Any]:
    return dict(json.loads(path.read_text()))
