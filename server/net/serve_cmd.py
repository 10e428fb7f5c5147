"""``arbiter serve``: run the game server with its embedded defaults (an SQLite log under a data
directory; nothing else to install)."""

from __future__ import annotations

import argparse
import logging
import signal
import sys
from pathlib import Path

import trio

from arbiter.server.rooms.hub import HubSettings
from arbiter.server.store.db import StoreLocked

from .connection import Limits
from .server import ArbiterServer, ServerConfig


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default="127.0.0.1",
                        help="interface to listen on (default 127.0.0.1; 0.0.0.0 for all)")
    parser.add_argument("--port", type=int, default=8765, help="TCP port (0: any free port)")
    parser.add_argument("--data-dir", type=Path, default=Path("data"),
                        help="where the game log lives (default ./data)")
    parser.add_argument("--grace", type=float, default=60.0,
                        help="seconds an empty seat is held before its player concedes")
    parser.add_argument("--session-ttl", type=float, default=24 * 3600.0, metavar="SECONDS",
                        help="forget a session that has held no connection, seat or room "
                             "for this long (default one day)")
    parser.add_argument("--history", type=int, default=256,
                        help="deltas kept per viewer for clients that reconnect")
    parser.add_argument("--max-rooms", type=int, default=1000)
    parser.add_argument("--max-connections", type=int, default=10_000)
    parser.add_argument("--max-frame", type=int, default=64 * 1024,
                        help="largest client message in bytes (larger: a too_large error)")
    parser.add_argument("--queue", type=int, default=256,
                        help="frames queued per client before a slow client is disconnected")
    parser.add_argument("--rate", type=float, default=50.0,
                        help="messages per second a client may send on average")
    parser.add_argument("--burst", type=int, default=200,
                        help="messages a client may send in a burst")
    parser.add_argument("--origin", action="append", default=None, metavar="ORIGIN",
                        help="allowed Origin header (repeatable); default: any")
    parser.add_argument("--ping-interval", type=float, default=20.0,
                        help="seconds between heartbeats (0: none)")
    parser.add_argument("--ping-timeout", type=float, default=20.0,
                        help="seconds to wait for a heartbeat's answer")
    parser.add_argument("--compression", action="store_true",
                        help="offer permessage-deflate (off by default: see "
                             "docs/architecture.md)")
    parser.add_argument("--sync", choices=("normal", "full"), default="normal",
                        help="SQLite synchronous mode: normal survives a server crash, full "
                             "also a power cut")
    parser.add_argument("--allow-scenarios", action="store_true",
                        help="accept scenarios, fixed seeds and test cards in new rooms "
                             "(for tests; never on a public server)")
    parser.add_argument("--gc-freeze", type=float, default=2.0, metavar="SECONDS",
                        help="freeze long-lived objects for the garbage collector this often "
                             "(0: leave the collector alone; see docs/architecture.md)")
    parser.add_argument("--gc-full", type=float, default=600.0, metavar="SECONDS",
                        help="seconds between full collections while freezing")
    parser.add_argument("--log-level", default="INFO")


def config_from_args(args: argparse.Namespace) -> ServerConfig:
    return ServerConfig(
        host=args.host, port=args.port, data_dir=args.data_dir,
        hub=HubSettings(grace=args.grace, history=args.history,
                        allow_scenarios=args.allow_scenarios, max_rooms=args.max_rooms,
                        session_ttl=args.session_ttl),
        limits=Limits(queue=args.queue, rate=args.rate, burst=args.burst,
                      max_frame=args.max_frame),
        max_connections=args.max_connections,
        origins=tuple(args.origin) if args.origin else None,
        ping_interval=args.ping_interval or None, ping_timeout=args.ping_timeout or None,
        compression=args.compression, synchronous=args.sync.upper(),
        gc_freeze_every=args.gc_freeze or None, gc_full_every=args.gc_full)


async def _main(config: ServerConfig) -> None:
    server = ArbiterServer(config)
    async with trio.open_nursery() as nursery:
        await nursery.start(server.run)
        for line in server.recovered:
            print(f"arbiter: {line}", flush=True)
        print(f"arbiter: listening on ws://{config.host}:{server.port} "
              f"(data in {config.data_dir})", flush=True)
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
        trio.run(_main, config_from_args(args))
    except StoreLocked as exc:
        print(f"arbiter: {exc}", file=sys.stderr)
        return 1
    return 0
