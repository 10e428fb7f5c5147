"""``arbiter replay GAME``: print the readable log of a stored game by replaying its commands
from its seed, checking the state hashes the log recorded on the way.

Games are numbered by the log (GAME), which is not the room number players saw: ``--list``
shows both, and ``--room ROOM`` picks a room's games by the room's number."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TextIO

from arbiter.protocol.errors import Refusal
from arbiter.server.rules import Table
from arbiter.server.rules.commands import Act, Concede, DrawOffer, Penalty, from_record
from arbiter.server.rules.game import Event
from arbiter.server.rules.plain import config_from_wire

from .db import DB_NAME, Store


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", type=int, nargs="?",
                        help="the game's number in the log, not its room's (see --list)")
    parser.add_argument("--room", type=int, default=None,
                        help="the games of this room, by the room number players saw")
    parser.add_argument("--data-dir", type=Path, default=Path("data"),
                        help="the data directory `arbiter serve` used (its --data-dir; "
                             "default ./data)")
    parser.add_argument("--list", action="store_true", help="list the stored games instead")


def _list(store: Store, out: TextIO, room: int | None = None) -> None:
    games = store.all_games() if room is None else store.games(room)
    if not games:
        print("no games in this log" if room is None else f"no games of room {room}", file=out)
    for g in games:
        names = ", ".join(p["name"] for p in g.config["players"])
        state = "finished" if g.result is not None else "unfinished"
        print(f"game {g.id}: room {g.room}, match game {g.number}, {state}: {names}", file=out)


def replay(store: Store, game_id: int, out: TextIO) -> int:
    row = store.game(game_id)
    if row is None:
        print(f"no game {game_id} in this log", file=sys.stderr)
        return 1
    config = config_from_wire(row.config)
    names = [p.name for p in config.players]
    print(f"Game {row.id} (room {row.room}, game {row.number} of its match), seed {row.seed}",
          file=out)
    print(f"Variant: {config.variant.replace('_', ' ')}; players: {', '.join(names)}",
          file=out)
    table = Table(config, row.seed)
    depth = {g.number: g.depth for g in table.games}

    ended = False  # the log's own line said how the game ended

    def show_events(events: list[Event]) -> None:
        nonlocal ended
        for ev in events:
            ended = ended or (ev.kind == "game_over" and ev.game == table.main.number)
            if ev.kind in ("subgame_started", "game_restarted"):
                depth[ev.data["game"]] = ev.data["depth"]
            print("  " * (depth.get(ev.game, 0) + 1) + ev.text, file=out)

    show_events(table.drain_events())
    problems = 0
    for rec in store.commands(game_id):
        cmd = from_record(rec.command)
        who = names[cmd.player]
        if isinstance(cmd, Act):
            d = table.pending
            label = (d.actions[cmd.action].label
                     if d is not None and 0 <= cmd.action < len(d.actions) else "?")
            line = f"{who}: {label}"
        elif isinstance(cmd, Concede):
            line = f"{who} concedes"
        elif isinstance(cmd, DrawOffer):
            line = f"{who}: draw offer ({cmd.op})"
        elif isinstance(cmd, Penalty):
            line = f"{who}: game loss ({'time ran out' if cmd.reason == 'clock' else 'judge'})"
        print(f"[{rec.n}] {line}", file=out)
        try:
            events = table.apply(cmd)
        except Refusal as exc:
            print(f"  !! the engine refuses this command on replay: {exc}", file=out)
            return 2
        show_events(events)
        if rec.hash is not None and rec.hash != table.state_hash():
            print(f"  !! state hash differs from the one recorded after command {rec.n}",
                  file=out)
            problems += 1
    if table.result is None:
        print("(the game is unfinished)", file=out)
    elif not ended:
        print(table.result.text(dict(enumerate(names))), file=out)
    final = table.state_hash()
    if row.final_hash is not None and row.final_hash != final:
        print("!! the final state hash differs from the recorded one", file=out)
        problems += 1
    print(f"State hash: {final}" + ("" if problems else " (matches the log)"), file=out)
    return 3 if problems else 0


def run(args: argparse.Namespace) -> int:
    path = args.data_dir / DB_NAME
    if not path.exists():
        # Say where it looked: the server may have kept its log in another folder (issue 29).
        print(f"no game log at {path} (looked in {args.data_dir.resolve()}): pass the folder "
              "`arbiter serve` used, with --data-dir FOLDER", file=sys.stderr)
        return 1
    store = Store(path)
    try:
        if args.list or (args.game is None and args.room is None):
            _list(store, sys.stdout, args.room)
            return 0
        if args.game is not None:
            return replay(store, args.game, sys.stdout)
        games = store.games(args.room)
        if not games:
            print(f"no games of room {args.room} in this log", file=sys.stderr)
            return 1
        return max(replay(store, g.id, sys.stdout) for g in games)
    finally:
        store.close()
