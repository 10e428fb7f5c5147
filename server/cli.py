"""The ``arbiter`` command. Each subcommand lives in its own module, which provides
``add_arguments(parser)`` and ``run(args) -> int``; modules are imported only when used."""

from __future__ import annotations

import argparse
import importlib
import sys

SUBCOMMANDS: dict[str, tuple[str, str]] = {
    "serve": ("server.net.serve_cmd", "run the game server"),
    "replay": ("server.store.replay_cmd", "print the readable log of a stored game"),
    "demo": ("clients.bots.demo", "play a complete bot game in the terminal"),
    "bot": ("clients.bots.bot_cmd", "connect bots to a server and play"),
    "play": ("clients.tui.play_cmd", "play interactively in the terminal"),
    "loadtest": ("clients.loadtest.cmd", "load-test a server with simulated players"),
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="arbiter", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    available = {}
    for name, (module_name, help_text) in SUBCOMMANDS.items():
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name and module_name.startswith(exc.name):
                continue  # not built yet in this checkout
            raise
        available[name] = module
        module.add_arguments(sub.add_parser(name, help=help_text, description=help_text))
    args = parser.parse_args(argv)
    return int(available[args.command].run(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
