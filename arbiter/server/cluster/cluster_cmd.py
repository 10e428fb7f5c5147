"""``arbiter cluster``: a whole cluster on this machine, to try (docs/cluster.md, "Trying it").

    arbiter cluster [--nodes 3] [--port 8765] [--lease 4]

Starts a throwaway Redis (with its append-only file) and PostgreSQL, creates the log's
database, starts N ``arbiter serve`` nodes on consecutive ports of 127.0.0.1, waits until each
answers /healthz, and prints where everything is and how to point clients at it. Ctrl-C (or
SIGTERM) stops it all: the nodes first (a clean shutdown hands their rooms over), then the
servers. Everything lives in a temporary folder that goes with them. A node that exits on its
own is reported with its exit code and the end of its log; the others keep running (start
``arbiter serve`` again with the flags printed to bring it back).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType

# The one server module that may use the testing tools (tests/tooling/test_layers.py): this
# command's job is to start throwaway servers, and `arbiter` loads it only when it is run.
from arbiter.testing.localservers import LocalPostgres, LocalRedis

START_TIMEOUT = 30.0  # seconds for one node to answer /healthz
STOP_TIMEOUT = 15.0  # seconds for one node to shut down cleanly before SIGKILL
POLL = 0.5  # seconds between looks at the nodes while the cluster runs


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--nodes", type=int, default=3, help="how many nodes (default 3)")
    parser.add_argument("--port", type=int, default=8765,
                        help="the first node's port; the others follow (default 8765)")
    parser.add_argument("--lease", type=float, default=None, metavar="SECONDS",
                        help="the nodes' lease time (default: arbiter serve's)")
    parser.add_argument("--log-level", default="WARNING",
                        help="the nodes' log level (their logs are in the cluster's folder)")
    parser.add_argument("--redis-port", type=int, default=None, metavar="PORT",
                        help="Redis' TCP port on 127.0.0.1 (default: a free one)")
    parser.add_argument("--postgres-port", type=int, default=None, metavar="PORT",
                        help="PostgreSQL's TCP port on 127.0.0.1 (default: a free one)")
    parser.add_argument("--fast", action="store_true",
                        help="run PostgreSQL with fsync and full_page_writes off: faster, but "
                             "a crash of the machine (not of a process) may lose commits")


@dataclass
class NodeProcess:
    index: int
    port: int
    args: list[str]
    log: Path
    proc: subprocess.Popen[bytes] | None = None
    reported: bool = field(default=False)

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/"

    def start(self) -> None:
        with open(self.log, "ab") as out:
            self.proc = subprocess.Popen(self.args, stdin=subprocess.DEVNULL, stdout=out,
                                         stderr=subprocess.STDOUT)

    def healthy(self) -> bool:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/healthz",
                                        timeout=2) as reply:
                return bool(reply.status == 200)
        except (urllib.error.URLError, OSError):
            return False

    def exited(self) -> int | None:
        return None if self.proc is None else self.proc.poll()

    def log_tail(self, lines: int = 15) -> str:
        text = self.log.read_text(errors="replace") if self.log.exists() else ""
        return "\n".join(text.splitlines()[-lines:])

    def stop(self) -> None:
        proc = self.proc
        if proc is None or proc.poll() is not None:
            return
        proc.terminate()
        try:
            proc.wait(STOP_TIMEOUT)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(STOP_TIMEOUT)


class Stop(Exception):
    """SIGTERM: stop as for Ctrl-C."""


def _on_sigterm(signum: int, frame: FrameType | None) -> None:
    raise Stop


def _say(line: str) -> None:
    print(f"[cluster] {line}", flush=True)


def busy_ports(first: int, count: int) -> list[int]:
    """The ports of ``first``..``first + count - 1`` that something already listens on."""
    busy = []
    for port in range(first, first + count):
        with socket.socket() as s:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                busy.append(port)
    return busy


def node_args(port: int, redis: str, dsn: str, data: Path, lease: float | None,
              log_level: str) -> list[str]:
    """The ``arbiter serve`` command line of one node of this cluster."""
    return [sys.executable, "-m", "arbiter.server.cli", "serve", "--port", str(port),
            "--data-dir", str(data), "--redis", redis, "--postgres", dsn,
            "--log-level", log_level, *(["--lease", f"{lease:g}"] if lease else [])]


# dev.py sets this to the command that ran us ("python3 dev.py arbiter"): run that way,
# `arbiter` is in the checkout's .venv/bin and usually not on PATH.
INVOKED_AS = "ARBITER_INVOKED_AS"


def command_name(env: Mapping[str, str] | None = None) -> str:
    """How a person here runs ``arbiter``: the form dev.py says it was run with, else
    ``arbiter`` when that is on PATH, else this interpreter's module form."""
    env = os.environ if env is None else env
    if env.get(INVOKED_AS):
        return env[INVOKED_AS]
    if shutil.which("arbiter", path=env.get("PATH")):
        return "arbiter"
    return f"{sys.executable} -m arbiter.server.cli"


def client_hint(urls: list[str], command: str = "arbiter") -> str:
    joined = ",".join(urls)
    return (f"    {command} bot --url {joined} --create --seats 4 --games 3\n"
            f"    {command} play --url {joined} --name Ann\n"
            f"    {command} loadtest --url {joined} --rooms 20 --duration 30")


@contextlib.contextmanager
def _nodes(count: int, first: int, redis: str, dsn: str, folder: Path,
           args: argparse.Namespace) -> Iterator[list[NodeProcess]]:
    nodes = [NodeProcess(i + 1, first + i,
                         node_args(first + i, redis, dsn, folder / f"node{i + 1}", args.lease,
                                   args.log_level),
                         folder / f"node{i + 1}.log") for i in range(count)]
    try:
        yield nodes
    finally:
        for node in nodes:
            if node.proc is not None and node.proc.poll() is None:
                _say(f"stopping node {node.index}")
                node.stop()


def _start(node: NodeProcess) -> None:
    node.start()
    deadline = time.monotonic() + START_TIMEOUT
    while not node.healthy():
        code = node.exited()
        if code is not None:
            raise RuntimeError(f"node {node.index} exited with status {code}; its log ends:\n"
                               f"{node.log_tail()}")
        if time.monotonic() > deadline:
            raise RuntimeError(f"node {node.index} did not answer /healthz within "
                               f"{START_TIMEOUT:g} s; its log ends:\n{node.log_tail()}")
        time.sleep(0.1)
    assert node.proc is not None
    _say(f"node {node.index}: {node.url} (pid {node.proc.pid}, log {node.log})")


def restart_command(args: list[str]) -> str:
    """A node's command line as a shell reads it back: quoted where a word needs it (a data
    folder with a space, a DSN with several words)."""
    return shlex.join(args)


def _watch(nodes: list[NodeProcess]) -> None:
    """Until interrupted: report each node that exits on its own, once."""
    while True:
        for node in nodes:
            code = node.exited()
            if code is not None and not node.reported:
                node.reported = True
                _say(f"node {node.index} ({node.url}) exited with status {code}; its log "
                     f"ends:\n{node.log_tail()}\n[cluster] to start it again: "
                     f"{restart_command(node.args)}")
        time.sleep(POLL)


def run(args: argparse.Namespace) -> int:
    if not 1 <= args.nodes <= 64:
        print("arbiter cluster: --nodes must be between 1 and 64", file=sys.stderr)
        return 2
    busy = busy_ports(args.port, args.nodes) + [
        p for p in (args.redis_port, args.postgres_port) if p is not None and busy_ports(p, 1)]
    if busy:
        print(f"arbiter cluster: port(s) {', '.join(map(str, busy))} of 127.0.0.1 are in use; "
              "choose another --port", file=sys.stderr)
        return 2
    signal.signal(signal.SIGTERM, _on_sigterm)
    try:
        with tempfile.TemporaryDirectory(prefix="arbiter-cluster-") as tmp:
            folder = Path(tmp)
            _say(f"starting Redis and PostgreSQL (files in {folder})")
            # On TCP, as a deployment's nodes connect (and tools like psql can).
            with LocalRedis(persistent=True, tcp=True, port=args.redis_port) as redis, \
                    LocalPostgres(tcp=True, port=args.postgres_port,
                                  durable=not args.fast) as postgres:
                dsn = postgres.create_database("arbiter")
                _say(f"redis: {redis.url} (pid {redis.pid}; append-only file on)")
                _say(f"postgres: {dsn} (pid {postgres.pid}; "
                     + ("fsync and full_page_writes OFF (--fast): a machine crash may lose "
                        "commits)" if args.fast else "fsync on)"))
                with _nodes(args.nodes, args.port, redis.url, dsn, folder, args) as nodes:
                    for node in nodes:
                        _start(node)
                    _say(f"ready: {args.nodes} node(s). Point clients at all of them, e.g.:\n"
                         + client_hint([n.url for n in nodes], command_name()))
                    _say("Ctrl-C stops everything.")
                    _watch(nodes)
    except (KeyboardInterrupt, Stop):
        _say("stopped")
        return 0
    except RuntimeError as exc:  # a server or a node that would not start
        print(f"arbiter cluster: {exc}", file=sys.stderr)
        return 1
    return 0  # pragma: no cover - _watch returns only by an exception
