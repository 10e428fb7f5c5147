"""Real cluster nodes for the tests: ``arbiter serve --redis --postgres`` processes on free
ports, sharing the session's Redis and a PostgreSQL database of the test's own.

A node needs a fixed port (its id and its public URL name it), and ``arbiter serve`` cannot
be told to pick one and say which, so a node's first start takes a free port and, when another
process took it before the node could bind it, takes another (up to PORT_ATTEMPTS times). A
restart keeps its port: a node is its address."""

from __future__ import annotations

from pathlib import Path

from tests.e2e.procs import Server, free_port

PORT_ATTEMPTS = 5
LEASE = 2.0  # seconds: short, so that failovers happen quickly
_STARTED: list[Node] = []  # every node of the session, for its end (conftest.py)


def nodes_left_running() -> list[int]:
    """The processes of nodes started in this session that have not ended (nor been reaped)."""
    return [node.proc.pid for node in _STARTED
            if node.proc is not None and node.proc.poll() is None]


class Node(Server):
    def __init__(self, base: Path, index: int, *, redis: str, dsn: str, prefix: str,
                 lease: float, extra: tuple[str, ...] = ()) -> None:
        super().__init__(base / f"node{index}", None, "--redis", redis, "--postgres", dsn,
                         "--key-prefix", prefix, "--lease", f"{lease:g}", "--log-level",
                         "INFO", "--allow-scenarios", *extra)
        self.index = index

    @property
    def node_id(self) -> str:
        return f"127.0.0.1:{self.port}"

    def counter(self, name: str) -> int:
        return int(self.metrics().get(name, 0))

    def start(self, timeout: float = 30.0) -> None:
        if self not in _STARTED:
            _STARTED.append(self)
        first = self.starts == 0
        err = self.data.parent / f"{self.data.name}.err"
        for attempt in range(1, PORT_ATTEMPTS + 1):
            before = err.stat().st_size if err.exists() else 0
            try:
                super().start(timeout)
                return
            except AssertionError:
                taken = b"Address already in use" in err.read_bytes()[before:]
                if not (first and taken) or attempt == PORT_ATTEMPTS:
                    raise
                self.port = free_port()


def start_nodes(base: Path, count: int, *, redis: str, dsn: str, prefix: str,
                lease: float = LEASE, extra: tuple[str, ...] = ()) -> list[Node]:
    nodes = [Node(base, i, redis=redis, dsn=dsn, prefix=prefix, lease=lease, extra=extra)
             for i in range(count)]
    try:
        for node in nodes:
            node.data.mkdir(parents=True, exist_ok=True)
            node.start()
    except BaseException:
        for node in nodes:  # the test never gets them: end those that did start
            node.stop()
        raise
    return nodes
