"""``arbiter serve``: run the game server with its embedded defaults (an SQLite log under a data
directory; nothing else to install), or, with ``--redis`` and ``--postgres``, as one node of a
cluster (docs/cluster.md).

Every option is a field of one of the server's settings (``ServerConfig``, ``HubSettings``,
``SessionSettings``, ``Limits``), and takes its default from there: the settings are the one
source, so the command line and the code cannot disagree.
"""

from __future__ import annotations

import argparse
import dataclasses
import logging
import signal
import sys
from dataclasses import dataclass
from typing import Any

import trio

from arbiter.server.cluster.directory import DEFAULT_PREFIX, DirectoryUnavailable
from arbiter.server.cluster.node import ClusterNode, ClusterSettings
from arbiter.server.cluster.pglog import LogUnavailable
from arbiter.server.rooms.context import HubSettings
from arbiter.server.rooms.peers import Limits
from arbiter.server.rooms.sessions import SessionSettings
from arbiter.server.store.db import StoreLocked

from .server import ArbiterServer, ServerBase, ServerConfig


@dataclass(frozen=True)
class Option:
    flag: str
    owner: type[Any]  # the settings class the field belongs to
    field: str
    help: str
    off_when_zero: bool = False  # 0 on the command line means None (off) in the settings
    metavar: str | None = None
    kind: type[Any] | None = None  # the value's type, where the default (None) does not say


OPTIONS = (
    Option("--host", ServerConfig, "host", "interface to listen on (0.0.0.0 for all)"),
    Option("--port", ServerConfig, "port", "TCP port (0: any free port)"),
    Option("--data-dir", ServerConfig, "data_dir", "where the game log lives"),
    Option("--grace", HubSettings, "grace",
           "seconds an empty seat is held before its player concedes"),
    Option("--session-ttl", SessionSettings, "ttl",
           "forget a session that has held no seat or room for this long", metavar="SECONDS"),
    Option("--fresh-session-ttl", SessionSettings, "fresh_ttl",
           "forget a session that never took a seat or followed a room this long after its "
           "last connection closed", metavar="SECONDS"),
    Option("--max-sessions", SessionSettings, "max_sessions", "sessions held at most"),
    Option("--history", HubSettings, "history",
           "deltas kept per viewer for clients that reconnect"),
    Option("--max-rooms", HubSettings, "max_rooms", "match rooms held at most"),
    Option("--max-waiting-per-session", HubSettings, "max_waiting_per_session",
           "waiting rooms one session may have created"),
    Option("--max-waiting-per-address", HubSettings, "max_waiting_per_address",
           "waiting rooms the sessions of one address may have created"),
    Option("--waiting-ttl", HubSettings, "waiting_ttl",
           "close a room whose match has not started this long after it was created",
           metavar="SECONDS"),
    Option("--bot-think", HubSettings, "bot_think",
           "seconds a server-run bot waits before it answers", metavar="SECONDS"),
    Option("--max-connections", ServerConfig, "max_connections", "connections held at most"),
    Option("--max-frame", Limits, "max_frame",
           "largest client message in bytes (larger: a too_large error)"),
    Option("--queue", Limits, "queue",
           "frames queued per client before a slow client is disconnected"),
    Option("--rate", Limits, "rate", "messages per second a client may send on average"),
    Option("--burst", Limits, "burst", "messages a client may send in a burst"),
    Option("--ping-interval", ServerConfig, "ping_interval",
           "seconds between heartbeats (0: none)", off_when_zero=True),
    Option("--ping-timeout", ServerConfig, "ping_timeout",
           "seconds to wait for a heartbeat's answer (0: forever)", off_when_zero=True),
    Option("--gc-freeze", ServerConfig, "gc_freeze_every",
           "freeze long-lived objects for the garbage collector this often (0: leave the "
           "collector alone; see docs/architecture.md)", off_when_zero=True,
           metavar="SECONDS"),
    Option("--gc-full", ServerConfig, "gc_full_every",
           "seconds between full collections while freezing", metavar="SECONDS"),
    Option("--seed", ServerConfig, "seed",
           "draw tokens and game seeds from a generator with this seed, so tests replay the "
           "same games (needs --allow-scenarios; never on a public server: tokens become "
           "guessable)", kind=int),
)


def _default(option: Option) -> Any:
    f = next(f for f in dataclasses.fields(option.owner) if f.name == option.field)
    if f.default is not dataclasses.MISSING:
        return f.default
    raise TypeError(f"{option.owner.__name__}.{option.field} has no plain default")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    for option in OPTIONS:
        default = _default(option)
        kind = option.kind or (type(default) if default is not None else float)
        shown = 0 if default is None and option.off_when_zero else default
        parser.add_argument(option.flag, type=kind, default=None, metavar=option.metavar,
                            help=f"{option.help} (default {shown})")
    parser.add_argument("--origin", action="append", default=None, metavar="ORIGIN",
                        help="allowed Origin header (repeatable); default: any")
    parser.add_argument("--compression", action="store_true",
                        help="offer permessage-deflate (off by default: see "
                             "docs/architecture.md)")
    parser.add_argument("--sync", choices=("normal", "full"), default="normal",
                        help="SQLite synchronous mode: normal survives a server crash, full "
                             "also a power cut (default normal)")
    parser.add_argument("--allow-scenarios", action="store_true",
                        help="accept scenarios, fixed seeds and test cards in new rooms "
                             "(for tests; never on a public server)")
    parser.add_argument("--log-level", default="INFO")
    cluster = parser.add_argument_group(
        "cluster mode", "run as one node of a cluster (docs/cluster.md): both --redis and "
                        "--postgres; --data-dir and --sync are then unused")
    cluster.add_argument("--redis", metavar="URL",
                         help="the Redis-protocol server (Valkey or Redis) the nodes share, "
                              "e.g. redis://10.0.0.5:6379/0")
    cluster.add_argument("--postgres", metavar="DSN",
                         help="the PostgreSQL log, as a libpq connection string, e.g. "
                              "'host=10.0.0.6 dbname=arbiter user=arbiter'")
    cluster.add_argument("--node-id", metavar="NAME",
                         help="this node's name in the cluster; keep it across restarts "
                              "(default HOST:PORT)")
    cluster.add_argument("--public-url", metavar="URL",
                         help="where clients reach this node, sent in redirects "
                              "(default ws://HOST:PORT/)")
    cluster.add_argument("--lease", type=float, default=None, metavar="SECONDS",
                         help="room lease time: a dead node's rooms are claimed about this "
                              f"long after it stopped (default {ClusterSettings.lease:g})")
    cluster.add_argument("--key-prefix", default=None, metavar="PREFIX",
                         help="prefix of this cluster's keys in Redis (default "
                              f"{DEFAULT_PREFIX!r})")


def config_from_args(args: argparse.Namespace) -> ServerConfig:
    """The settings the command line asks for: each option given replaces its field's
    default; the rest stay as the settings classes define them."""
    given: dict[type[Any], dict[str, Any]] = {}
    for option in OPTIONS:
        value = getattr(args, option.flag[2:].replace("-", "_"))
        if value is None:
            continue
        if option.off_when_zero and value == 0:
            value = None
        given.setdefault(option.owner, {})[option.field] = value
    if "seed" in given.get(ServerConfig, {}) and not args.allow_scenarios:
        raise SystemExit("arbiter serve: --seed is for tests; it needs --allow-scenarios")
    sessions = SessionSettings(**given.get(SessionSettings, {}))
    hub = HubSettings(**given.get(HubSettings, {}), sessions=sessions,
                      allow_scenarios=args.allow_scenarios)
    limits = Limits(**given.get(Limits, {}))
    return ServerConfig(**given.get(ServerConfig, {}), hub=hub, limits=limits,
                        origins=tuple(args.origin) if args.origin else None,
                        compression=args.compression, synchronous=args.sync.upper())


def cluster_from_args(args: argparse.Namespace) -> ClusterSettings | None:
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


async def _main(config: ServerConfig, cluster: ClusterSettings | None) -> None:
    server: ServerBase
    if cluster is None:
        server = ArbiterServer(config)
        where = f"data in {config.data_dir}"
    else:
        node = server = ClusterNode(config, cluster)
        where = f"cluster node {node.node_id}, public URL {node.url}"
    async with trio.open_nursery() as nursery:
        await nursery.start(server.run)
        for line in server.recovered:
            print(f"arbiter: {line}", flush=True)
        print(f"arbiter: listening on ws://{config.host}:{server.port} ({where})", flush=True)
        with trio.open_signal_receiver(signal.SIGTERM, signal.SIGINT) as signals:
            async for _ in signals:
                logging.getLogger("arbiter").info("shutting down")
                await server.shutdown()
                nursery.cancel_scope.cancel()
                break


def run(args: argparse.Namespace) -> int:
    logging.basicConfig(level=args.log_level.upper(), stream=sys.stderr,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("websockets").setLevel(logging.WARNING)
    try:
        trio.run(_main, config_from_args(args), cluster_from_args(args))
    except (StoreLocked, ValueError, LogUnavailable, DirectoryUnavailable) as exc:
        print(f"arbiter: {exc}", file=sys.stderr)
        return 1
    return 0



