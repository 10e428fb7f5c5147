"""The ``arbiter`` command: one subcommand per job (serve, play, bot, loadtest, replay, cards,
demo, cluster).

Each subcommand lives in its own module, which provides ``add_arguments(parser)`` and
``run(args) -> int``. Only the module of the subcommand being run is imported, so that
``arbiter --help`` and ``arbiter serve`` start without loading the terminal client's or the
load tester's libraries (textual, matplotlib).
"""

from __future__ import annotations

import argparse
import importlib
import sys

SUBCOMMANDS: dict[str, tuple[str, str]] = {
    "serve": ("arbiter.server.serve_cmd", "run the game server"),
    "replay": ("arbiter.server.store.replay_cmd", "print the readable log of a stored game"),
    "cards": ("arbiter.server.cards_cmd", "list the sets and their cards"),
    "demo": ("arbiter.server.demo_cmd", "play a complete bot game in the terminal"),
    "bot": ("arbiter.clients.bots.bot_cmd", "connect bots to a server and play"),
    "play": ("arbiter.clients.tui.play_cmd", "play interactively in the terminal"),
    "loadtest": ("arbiter.clients.loadtest.cmd", "load-test a server with simulated players"),
    "cluster": ("arbiter.server.cluster.cluster_cmd",
                "start a local cluster to try: Redis, PostgreSQL and N nodes"),
}


def _chosen(argv: list[str]) -> str | None:
    """The subcommand named on the command line, if any (the first word not an option)."""
    for word in argv:
        if not word.startswith("-"):
            return word if word in SUBCOMMANDS else None
    return None


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    parser = argparse.ArgumentParser(
        prog="arbiter", description="An authoritative server for live Magic-style card "
                                    "games, and its clients.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    parsers = {name: sub.add_parser(name, help=help_text, description=help_text)
               for name, (_, help_text) in SUBCOMMANDS.items()}
    chosen = _chosen(argv)
    module = None
    if chosen is not None:
        module = importlib.import_module(SUBCOMMANDS[chosen][0])
        module.add_arguments(parsers[chosen])
    args = parser.parse_args(argv)
    assert module is not None  # parse_args exits unless a known subcommand was named
    return int(module.run(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
