"""``arbiter serve``: run the game server with its embedded defaults (an SQLite log under a data
directory; nothing else to install), or, with ``--redis`` and ``--postgres``, as one node of a
cluster (docs/cluster.md).

This is where the two are composed, so that neither layer knows the other: the transport
(server/net) runs either, and the cluster package gives its half (its options and its node,
server/cluster/serve_options.py).

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

from arbiter.server.cluster import serve_options as cluster_options
from arbiter.server.cluster.settings import ClusterSettings
from arbiter.server.net.admission import raise_open_file_limit
from arbiter.server.net.server import AddressInUse, ArbiterServer, ServerBase, ServerConfig
from arbiter.server.rooms.context import HubSettings
from arbiter.server.rooms.peers import Limits
from arbiter.server.rooms.sessions import SessionSettings
from arbiter.server.store.db import StoreLocked


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
    Option("--handshake-timeout", ServerConfig, "open_timeout",
           "seconds a connection may take to finish its request or websocket handshake "
           "(0: forever)", off_when_zero=True, metavar="SECONDS"),
    Option("--max-frame", Limits, "max_frame",
           "largest client message in bytes (larger: a too_large error)"),
    Option("--queue", Limits, "queue",
           "frames queued per client before a slow client is disconnected"),
    Option("--rate", Limits, "rate", "messages per second a client may send on average"),
    Option("--burst", Limits, "burst", "messages a client may send in a burst"),
    Option("--ping-interval", ServerConfig, "ping_interval",
           "seconds a client may be quiet before it is pinged (0: never)", off_when_zero=True),
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
    parser.add_argument("--limit-local-addresses", action="store_true",
                        help="count rooms from this machine's own addresses (loopback) "
                             "against --max-waiting-per-address too (by default they are "
                             "left out: a load test or a reverse proxy here is one address)")
    parser.add_argument("--allow-scenarios", action="store_true",
                        help="accept scenarios, fixed seeds and test cards in new rooms "
                             "(for tests; never on a public server)")
    parser.add_argument("--log-level", default="INFO", metavar="LEVEL",
                        type=str.upper,
                        choices=("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"),
                        help="what the server logs to stderr: DEBUG, INFO, WARNING, ERROR or "
                             "CRITICAL, in any case (default INFO)")
    cluster_options.add_arguments(parser)


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
                      allow_scenarios=args.allow_scenarios,
                      limit_local_addresses=args.limit_local_addresses)
    limits = Limits(**given.get(Limits, {}))
    return ServerConfig(**given.get(ServerConfig, {}), hub=hub, limits=limits,
                        origins=tuple(args.origin) if args.origin else None,
                        compression=args.compression, synchronous=args.sync.upper())


async def _main(config: ServerConfig, cluster: ClusterSettings | None,
                files: tuple[int, int]) -> None:
    server: ServerBase
    if cluster is None:
        server = ArbiterServer(config)
        where = f"data in {config.data_dir}"
    else:
        server, where = cluster_options.node(config, cluster)
    await server.listen()  # a port in use is said before the log is replayed
    before, after = files
    raised = f"raised from {before} to {after}" if after > before else f"{after}"
    print(f"arbiter: open files: soft limit {raised}; at most {server.admission.capacity} "
          "sockets held at once", flush=True)
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


# What stops a server from starting, said on one line (exit 1): another server on the data
# directory, settings that cannot work, a cluster's service it cannot reach.
STARTUP_ERRORS: tuple[type[Exception], ...] = (StoreLocked, ValueError, AddressInUse,
                                               *cluster_options.STARTUP_ERRORS)


def run(args: argparse.Namespace) -> int:
    logging.basicConfig(level=args.log_level.upper(), stream=sys.stderr,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("websockets").setLevel(logging.WARNING)
    # The soft limit on open files (often 1,024) is what bounds connections, not the hard
    # one: take what the system allows (server/net/admission.py).
    files = raise_open_file_limit()
    try:
        trio.run(_main, config_from_args(args), cluster_options.settings_from_args(args),
                 files)
    except STARTUP_ERRORS as exc:
        print(f"arbiter: {exc}", file=sys.stderr)
        return 1
    return 0
