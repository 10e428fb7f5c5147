"""``arbiter play``: the terminal client, for a person.

    arbiter play --url ws://HOST:PORT [--name NAME] [--no-auto-pass]
"""

from __future__ import annotations

import argparse
import getpass


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--url", default="ws://127.0.0.1:8765",
                        help="the server (default ws://127.0.0.1:8765)")
    parser.add_argument("--name", default=None,
                        help="your name at the table (default: your login name)")
    parser.add_argument("--no-auto-pass", action="store_true",
                        help="answer every priority stop yourself, even when passing is the "
                             "only choice (Ctrl+A toggles it in the game)")


def run(args: argparse.Namespace) -> int:
    from .app import ArbiterApp  # Textual loads only for this command

    name = args.name or getpass.getuser() or "Player"
    url = args.url if args.url.endswith("/") else args.url + "/"
    ArbiterApp(url, name[:40], auto_pass=not args.no_auto_pass).run()
    return 0
