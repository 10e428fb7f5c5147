"""``arbiter play``: the terminal client, for a person.

    arbiter play --url ws://HOST:PORT[,ws://HOST2:PORT...] [--name NAME] [--no-auto-pass]
                 [--deck-file PATH] [--pay-by-hand]

Several URLs (comma-separated, or ``--url`` repeated) are the nodes of a cluster: the client
connects to the first that answers and follows the cluster's redirects.
"""

from __future__ import annotations

import argparse
import getpass
import os
import sys

from arbiter.clients.sdk.urls import url_argument

DEFAULT_URL = "ws://127.0.0.1:8765/"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--url", action="extend", type=url_argument, default=None,
                        metavar="URL[,URL...]",
                        help="the server (default ws://127.0.0.1:8765); or the nodes of a "
                             "cluster, comma-separated or repeated")
    parser.add_argument("--name", default=None,
                        help="your name at the table (default: your login name)")
    parser.add_argument("--no-auto-pass", action="store_true",
                        help="answer every priority stop yourself, even when passing is the "
                             "only choice (Ctrl+A toggles it in the game)")
    parser.add_argument("--pay-by-hand", action="store_true",
                        help="choose which lands and creatures pay for each spell and ability "
                             "(Ctrl+T toggles it in the game); by default the engine chooses")
    parser.add_argument("--deck-file", default=None, metavar="PATH",
                        help="your own deck list ('4 Lightning Bolt' a line), offered first "
                             "in the lobby beside the server's ready-made decks")


def run(args: argparse.Namespace) -> int:
    from .app import ArbiterApp  # Textual loads only for this command

    deck_file = None
    if args.deck_file is not None:
        try:
            with open(args.deck_file, encoding="utf-8") as f:
                deck_file = (os.path.basename(args.deck_file), f.read())
        except (OSError, UnicodeDecodeError) as exc:
            print(f"arbiter play: cannot read the deck file {args.deck_file!r}: {exc}",
                  file=sys.stderr)
            return 2
    name = args.name or getpass.getuser() or "Player"
    ArbiterApp(args.url or [DEFAULT_URL], name[:40], auto_pass=not args.no_auto_pass,
               deck_file=deck_file, pay_by_hand=args.pay_by_hand).run()
    return 0
