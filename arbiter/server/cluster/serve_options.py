"""The cluster's half of ``arbiter serve`` (arbiter/server/serve_cmd.py): its options, the
settings they give, and the node they make. The command picks: with ``--redis`` and
``--postgres`` it runs the node made here; without, the embedded server.
"""

from __future__ import annotations

import argparse

from arbiter.server.net.server import ServerConfig

from .directory import DEFAULT_PREFIX, DirectoryUnavailable
from .node import ClusterNode
from .pglog import LogUnavailable
from .settings import ClusterSettings

# What a node may fail to start with: a service it cannot reach (said on one line, exit 1).
STARTUP_ERRORS: tuple[type[Exception], ...] = (LogUnavailable, DirectoryUnavailable)


# The cluster's flags, (flag, metavar, type, help): settings_from_args makes them settings.
FLAGS: tuple[tuple[str, str, type[str] | type[float], str], ...] = (
    ("--redis", "URL", str, "the Redis-protocol server (Valkey or Redis) the nodes share, "
                            "e.g. redis://10.0.0.5:6379/0"),
    ("--postgres", "DSN", str, "the PostgreSQL log, as a libpq connection string, e.g. "
                               "'host=10.0.0.6 dbname=arbiter user=arbiter'"),
    ("--node-id", "NAME", str, "this node's name in the cluster; keep it across restarts "
                               "(default HOST:PORT)"),
    ("--public-url", "URL", str, "where clients reach this node, sent in redirects (default "
                                 "ws://HOST:PORT/)"),
    ("--lease", "SECONDS", float, "room lease time: a dead node's rooms are claimed about "
                                  "this long after it stopped (default "
                                  f"{ClusterSettings.lease:g})"),
    ("--key-prefix", "PREFIX", str, f"prefix of this cluster's keys in Redis (default "
                                    f"{DEFAULT_PREFIX!r})"),
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    cluster = parser.add_argument_group(
        "cluster mode", "run as one node of a cluster (docs/cluster.md): both --redis and "
                        "--postgres; --data-dir and --sync are then unused")
    for flag, metavar, kind, text in FLAGS:
        cluster.add_argument(flag, metavar=metavar, type=kind, default=None, help=text)


def settings_from_args(args: argparse.Namespace) -> ClusterSettings | None:
    """The cluster settings the command line asks for; None for the embedded server."""
    if args.redis is None and args.postgres is None:
        for flag in ("node_id", "public_url", "lease", "key_prefix"):
            if getattr(args, flag) is not None:
                raise SystemExit(f"arbiter serve: --{flag.replace('_', '-')} is for cluster "
                                 "mode (--redis and --postgres)")
        return None
    if args.redis is None or args.postgres is None:
        raise SystemExit("arbiter serve: cluster mode needs both --redis and --postgres")
    given = {name: getattr(args, flag) for name, flag in (
        ("node_id", "node_id"), ("public_url", "public_url"), ("lease", "lease"),
        ("prefix", "key_prefix")) if getattr(args, flag) is not None}
    if given.get("lease", 1.0) <= 0:
        raise SystemExit("arbiter serve: --lease must be positive")
    return ClusterSettings(redis=args.redis, postgres=args.postgres, **given)


def node(config: ServerConfig, cluster: ClusterSettings) -> tuple[ClusterNode, str]:
    """The node to run, and how ``arbiter serve`` names it when it listens."""
    made = ClusterNode(config, cluster)
    return made, f"cluster node {made.node_id}, public URL {made.url}"
