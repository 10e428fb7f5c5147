"""Real cluster nodes for the tests: ``arbiter serve --redis --postgres`` processes on free
ports, sharing the session's Redis and a PostgreSQL database of the test's own."""

from __future__ import annotations

from pathlib import Path

from tests.e2e.procs import Server


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


def start_nodes(base: Path, count: int, *, redis: str, dsn: str, prefix: str,
                lease: float = 2.0, extra: tuple[str, ...] = ()) -> list[Node]:
    nodes = [Node(base, i, redis=redis, dsn=dsn, prefix=prefix, lease=lease, extra=extra)
             for i in range(count)]
    for node in nodes:
        node.data.mkdir(parents=True, exist_ok=True)
        node.start()
    return nodes
