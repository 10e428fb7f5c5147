"""``arbiter bot --event ID`` and ``arbiter bot --create-event draft|sealed --start``: one bot
enters a Limited event, drafts, builds, plays every round's match and prints the standings
when the event has finished (``event_bot.py`` does the playing).

The host (``--create-event``) creates the event with the settings given, enters it, and with
``--start N`` starts it once N players have entered (the server's bots take the empty seats
unless ``--no-event-bots``). Only the session that created an event may start it, so a host
without ``--start`` is refused before anything is created.
"""

from __future__ import annotations

import argparse
import random
from typing import Any

import trio

from arbiter.bots import STRATEGIES
from arbiter.clients.sdk import Client, open_client

from .event_bot import EventBot, standings_lines


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The event options (the target, ``--event`` / ``--create-event``, is bot_cmd's)."""
    group = parser.add_argument_group("Limited events (docs/events.md)")
    group.add_argument("--start", type=int, nargs="?", const=1, default=None,
                       metavar="PLAYERS",
                       help="with --create-event: start the event once this many players "
                            "have entered (default 1: at once)")
    group.add_argument("--event-seats", type=int, default=8,
                       help="seats of a created event (default 8)")
    group.add_argument("--rounds", type=int, default=None,
                       help="Swiss rounds of a created event (default: as many as its seats "
                            "need)")
    group.add_argument("--pick-time", type=float, default=None, metavar="SECONDS",
                       help="seconds for a full pack's pick in a created draft (default 75)")
    group.add_argument("--no-event-bots", action="store_true",
                       help="leave a created event's empty seats empty at the start")


def check(args: argparse.Namespace) -> str | None:
    """What is wrong with the event options, if anything."""
    if args.create_event and args.start is None:
        return "--create-event needs --start: only the event's host may start it"
    if args.start is not None and not args.create_event:
        return "--start needs --create-event (only the host may start an event)"
    if args.games > 1:
        return "--games is for rooms: an event is played once"
    if args.create_event and args.best_of not in (1, 3):
        return "an event's matches are best of 1 or 3"
    return None


def event_config(args: argparse.Namespace) -> dict[str, Any]:
    """The settings of the event ``--create-event`` hosts (docs/protocol.md section 15)."""
    config: dict[str, Any] = {"kind": args.create_event, "seats": args.event_seats,
                              "best_of": args.best_of, "bots": not args.no_event_bots}
    if args.name:
        config["name"] = f"{args.name}'s {args.create_event}"[:40]
    if args.rounds is not None:
        config["rounds"] = args.rounds
    if args.pick_time is not None:
        config["pick_time"] = args.pick_time
    return config


async def _start_when_entered(client: Client, event: str, players: int) -> None:
    state = await client.wait_event(event)
    while len(state.get("entrants", [])) < players:
        state = await client.wait_event(event, since=state)
    await client.start_event(event)


async def run_event(args: argparse.Namespace, rng: random.Random) -> int:
    """Enter (or host and enter) the event, take part until it has finished, print the
    standings; 1 when anything was refused that normal play does not explain."""
    name = args.name or "Bot"
    async with open_client(args.url, name) as client:
        event = args.event
        if args.create_event:
            event = await client.create_event(event_config(args))
            print(f"event {event}: {args.create_event}, {args.event_seats} seats", flush=True)
        seat = await client.join(event)
        print(f"{name}: seat {seat} of event {event}", flush=True)
        bot = EventBot(client, STRATEGIES[args.strategy], random.Random(rng.random()),
                       think=args.think, draw_after=args.draw_after or None)
        async with trio.open_nursery() as nursery:
            if args.start is not None:
                nursery.start_soon(_start_when_entered, client, event, args.start)
            final = await bot.run(event)
        for line in bot.record.results:
            print(line, flush=True)
        record = bot.record
        print(f"{name}: {record.picks} picks, {record.matches} matches, {record.actions} "
              f"actions, {client.stats.desyncs} desyncs, {client.stats.reconnects} "
              f"reconnects", flush=True)
        print(f"event {event} finished after {final.get('rounds')} rounds; standings:",
              flush=True)
        for line in standings_lines(final):
            print(line, flush=True)
        await client.leave(event)
        return 1 if record.errors else 0
