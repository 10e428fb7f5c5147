"""``arbiter bot``: bots that play over the network.

    arbiter bot --url ws://HOST:PORT --room ROOM [--seat N] --strategy heuristic
        one bot takes a seat in ROOM and plays until the match ends
    arbiter bot --url ws://HOST:PORT --create [--seats 4] [--games 3] --strategy random
        create a room, fill every seat with bots and play; repeat for each game asked
    arbiter bot --url ws://HOST:PORT --create --deck-file mono-red.txt --deck-file elves.txt
        the same with deck lists of your own (one per seat, in turn; `4 Lightning Bolt`)
    arbiter bot --url ws://HOST:PORT --create-event draft --start [--rounds 2 --best-of 1]
        host a booster draft, start it at once (the server's bots in the other seats), draft,
        build, play every round and print the standings
    arbiter bot --url ws://HOST:PORT --event EVENT
        enter event EVENT and take part until it has finished (event_cmd.py)

``--url`` takes several URLs (comma-separated, or the flag repeated): the nodes of a cluster.
Each bot connects to the first that answers and follows the cluster's redirects (the SDK does).
"""

from __future__ import annotations

import argparse
import functools
import random
import sys
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import trio

from arbiter.bots import DEFAULT_ROUNDS, STRATEGIES
from arbiter.clients.sdk import Client, ConnectError, ConnectionLost, RequestError, open_client
from arbiter.clients.sdk.urls import url_argument

from . import event_cmd
from .net import RETRY_AFTER, TRANSIENT, NetBot, describe_result, seat_names

# dimir-control is left out: its Karn Liberated can keep a heuristic game going for hundreds of
# turns (restarts), which is no quick match.
DEFAULT_DECKS = ("gruul-stompy", "azorius-skies", "boros-lifecycle", "quick-red")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--url", required=True, action="extend", type=url_argument,
                        metavar="URL[,URL...]",
                        help="the server, e.g. ws://127.0.0.1:8765; or the nodes of a cluster, "
                             "comma-separated or repeated (the first that answers is used)")
    target = parser.add_mutually_exclusive_group(required=True)
    target.add_argument("--room", help="join this room")
    target.add_argument("--create", action="store_true",
                        help="create a room and fill every seat with bots")
    target.add_argument("--event", help="enter this Limited event and take part to its end")
    target.add_argument("--create-event", choices=("draft", "sealed"),
                        help="host a Limited event of this kind, enter it and (with --start) "
                             "start it")
    parser.add_argument("--seat", type=int, default=None,
                        help="the seat to take in --room (default: the first free one)")
    parser.add_argument("--strategy", choices=sorted(STRATEGIES), default="heuristic")
    decks = parser.add_mutually_exclusive_group()
    decks.add_argument("--deck", action="append", default=None, metavar="DECK",
                       help="a ready-made deck of the server's (repeat for each seat with "
                            "--create; default: a mix)")
    decks.add_argument("--deck-file", action="append", default=None, metavar="PATH",
                       help="a deck list file, one card entry a line ('4 Lightning Bolt'; "
                            "repeat for each seat with --create)")
    parser.add_argument("--name", default=None, help="the bot's name (default: Bot)")
    parser.add_argument("--seats", type=int, default=2, help="seats of a created room")
    parser.add_argument("--variant", default=None,
                        help="variant of a created room (default two_player, or free_for_all "
                             "for more than two seats)")
    parser.add_argument("--best-of", type=int, default=1, choices=(1, 3, 5, 7))
    parser.add_argument("--games", type=int, default=1,
                        help="with --create: how many rooms to play one after another")
    parser.add_argument("--think", type=float, default=0.0,
                        help="seconds to think before each answer (randomised ±50%%)")
    parser.add_argument("--seed", type=int, default=None, help="seed of the bots' choices")
    parser.add_argument("--draw-after", type=int, default=DEFAULT_ROUNDS, metavar="ROUNDS",
                        help="propose and accept a draw (CR 104.4i) once a game has gone this "
                             "many rounds without anyone leaving it (0: never; default "
                             f"{DEFAULT_ROUNDS})")
    event_cmd.add_arguments(parser)


def _deck(args: argparse.Namespace, seat: int) -> tuple[str | None, str | None]:
    """The seat's deck: a ready-made deck's name, or a deck list read from ``--deck-file``."""
    if args.deck_texts:
        return None, str(args.deck_texts[seat % len(args.deck_texts)])
    decks = args.deck or list(DEFAULT_DECKS)
    return str(decks[seat % len(decks)]), None


def read_deck_files(paths: list[str]) -> list[str]:
    """The deck lists of ``--deck-file``, read before connecting so that a missing file is
    said at once; the server checks what they name (``bad_deck`` names an unknown card)."""
    texts = []
    for path in paths:
        try:
            with open(path, encoding="utf-8") as f:
                texts.append(f.read())
        except (OSError, UnicodeDecodeError) as exc:
            raise UnknownDeck(f"cannot read the deck file {path!r}: {exc}") from exc
    return texts


class UnknownDeck(Exception):
    pass


T = TypeVar("T")
PATIENCE = 60.0  # seconds a join or create is retried while the cluster says "not now"


async def _patiently(call: Callable[[], Awaitable[T]]) -> T:
    """``call()``, again after a short wait while it is refused as transient (a cluster node
    that cannot reach its log, a room whose node just died) or its connection drops before the
    answer (the client reconnects by itself; a join finds out whether it took, and a room
    created without an answer is left to expire unused), for at most :data:`PATIENCE`."""
    deadline = trio.current_time() + PATIENCE
    while True:
        try:
            return await call()
        except RequestError as exc:
            if exc.code not in TRANSIENT or trio.current_time() > deadline:
                raise
        except ConnectionLost:
            if trio.current_time() > deadline:
                raise
        await trio.sleep(RETRY_AFTER)


async def _check_decks(args: argparse.Namespace, client: Client) -> None:
    """The decks asked for must be the server's: its catalog lists them."""
    if args.deck_texts:
        return
    known = {d["name"] for d in (await client.catalog())["decks"]}
    unknown = sorted(set(args.deck or DEFAULT_DECKS) - known)
    if unknown:
        raise UnknownDeck(f"the server has no ready-made deck {unknown[0]!r}; it has "
                          f"{', '.join(sorted(known))}")


async def _join_and_play(args: argparse.Namespace, room: str, seat: int | None,
                         name: str, rng: random.Random, seated: trio.Event | None = None,
                         print_results: bool = True) -> list[Any]:
    async with open_client(args.url, name) as client:
        await _check_decks(args, client)
        ready, text = _deck(args, seat or 0)
        index = await _patiently(lambda: client.join(room, seat, deck=ready, deck_text=text))
        if seated is not None:
            seated.set()
        bot = NetBot(client, STRATEGIES[args.strategy], rng, think=args.think,
                     draw_after=args.draw_after or None)
        results = await bot.play(room)
        names = seat_names(client, room)
        if print_results:
            for r in results:
                print(describe_result(r, names), flush=True)
        st = client.stats
        # A room the server said was closed under a seated player (room_closed) is said
        # too: with a cluster, a player who stayed connected must never hear it (issue 27).
        closed = ", room closed by the server" if room in client.closed else ""
        print(f"{names.get(index, name)}: {bot.record.actions} actions, {st.desyncs} desyncs, "
              f"{st.reconnects} reconnects, {st.redirects} redirects{closed}", flush=True)
        await client.leave(room)
        return results


async def _create_and_play(args: argparse.Namespace, rng: random.Random) -> int:
    variant = args.variant or ("two_player" if args.seats == 2 else "free_for_all")
    base = args.name or "Bot"
    for game in range(args.games):
        async with open_client(args.url, f"{base} host") as host:
            await _check_decks(args, host)
            config = {"seats": args.seats, "variant": variant, "best_of": args.best_of,
                      "name": f"{base} match {game + 1}"}
            room = await _patiently(functools.partial(host.create, config))
        print(f"room {room}: {args.seats} {args.strategy} bots ({variant})", flush=True)
        async with trio.open_nursery() as nursery:
            for seat in range(args.seats):
                seated = trio.Event()
                nursery.start_soon(_join_and_play, args, room, seat, f"{base} {seat + 1}",
                                   random.Random(rng.random()), seated, seat == 0)
                await seated.wait()  # take the seats in order
    return 0


async def _main(args: argparse.Namespace) -> int:
    rng = random.Random(args.seed)
    try:
        args.deck_texts = read_deck_files(args.deck_file or [])
        if args.event or args.create_event:
            return await event_cmd.run_event(args, rng)
        if args.create:
            return await _create_and_play(args, rng)
        await _join_and_play(args, args.room, args.seat, args.name or "Bot", rng)
    except BaseExceptionGroup as group:
        # The seats' bots play in a nursery: a refusal one of them met (a bad deck, say)
        # comes out grouped; the user is told it as it is, not shown a traceback.
        said = group.subgroup(lambda e: isinstance(e, (ConnectError, RequestError, UnknownDeck)))
        if said is None:
            raise
        first: BaseException = said
        while isinstance(first, BaseExceptionGroup):
            first = first.exceptions[0]
        raise first from group
    return 0


def run(args: argparse.Namespace) -> int:
    wrong = event_cmd.check(args) if args.event or args.create_event \
        or args.start is not None else None
    if wrong is not None:
        print(f"arbiter bot: {wrong}", file=sys.stderr)
        return 2
    if args.games > 1 and not args.create:
        print("arbiter bot: --games needs --create (a room holds one match)", file=sys.stderr)
        return 2
    if args.draw_after < 0:
        print("arbiter bot: --draw-after is a number of rounds (0: never)", file=sys.stderr)
        return 2
    try:
        return trio.run(_main, args)
    except ConnectError as exc:
        print(f"arbiter bot: {exc}", file=sys.stderr)
        return 1
    except RequestError as exc:
        print(f"arbiter bot: the server refused: {exc}", file=sys.stderr)
        return 1
    except UnknownDeck as exc:
        print(f"arbiter bot: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
