"""Bots over the network: a thin shell that feeds the bot core (``arbiter.bots``) the SDK's
replica, the legal actions the server sends and the card data of its catalog.

A bot answers every decision the server gives it in any room of its match (the main game and
any subgame, CR 726) until the match is over. It answers each offer of a decision once: the
legal actions stay in the replica until the server replaces them, so it remembers the offer
(the legal actions as they came) it answered. A refused answer leaves that offer in place and
it is not sent again; the same decision offered anew (a resume or resync after an answer that
did not take: the server offers it again only then) is answered again. Remembering the serial
instead ignored such a decision for good: a room whose decider had been refused stayed where
it was with every seat connected (issue 27). A game that has stopped going anywhere ends the
way people end one (CR 104.4i), by the core's draw policy (``arbiter/bots/draws.py``), the
same as the server's seat bots: the bot whose turn it is to decide proposes a draw and the
others accept it; a draw proposed before that point is declined. This shell adds the timing:
while its own offer stands it holds its decision (acting would change the game and so lapse
the offer), and withdraws an offer the table has not settled within ``draw_wait`` seconds.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import trio

from arbiter.bots import DEFAULT_ROUNDS, DrawMove, DrawPolicy, Strategy
from arbiter.clients.sdk import Client, ConnectionLost, RequestError
from arbiter.clients.sdk.events import Result
from arbiter.protocol import view_keys as vk

# Refusals a bot can meet in normal play: the decision moved on (someone conceded, a clock
# ran out), or the game ended or its room was paused or closed between our look and our answer.
BENIGN = frozenset({"stale_decision", "not_your_decision", "room_paused", "room_closed",
                    "unknown_room", "game_over", "wrong_state"})
# Refusals that say "not now": a cluster node that cannot reach its log, or a cluster still
# settling after a node died. The same decision is answered again a moment later.
TRANSIENT = frozenset({"unavailable", "redirect_loop"})
RETRY_AFTER = 0.5  # seconds


@dataclass
class BotRecord:
    actions: int = 0
    refused: dict[str, int] = field(default_factory=dict)  # error code -> count
    lost: int = 0  # answers whose connection dropped before the reply
    draws: dict[str, int] = field(default_factory=dict)  # draw op -> times sent

    @property
    def errors(self) -> int:
        """Refusals that are not part of normal play."""
        return sum(n for code, n in self.refused.items() if code not in BENIGN | TRANSIENT)


class NetBot:
    """Plays one seat through an SDK client. ``think`` (seconds) is waited before each answer,
    scaled by a random factor in [0.5, 1.5]; ``on_act(latency)`` is called with the time from
    sending each answer to receiving its reply. ``draw_after`` is the number of rounds without
    anyone leaving after which the bot takes a game for stalled (None: never); a draw it
    proposes that the table has not settled within ``draw_wait`` seconds is withdrawn."""

    def __init__(self, client: Client, strategy: Strategy, rng: random.Random | None = None,
                 *, think: float = 0.0, on_act: Callable[[float], Any] | None = None,
                 draw_after: int | None = DEFAULT_ROUNDS, draw_wait: float = 10.0) -> None:
        self.client = client
        self.strategy = strategy
        self.rng = rng or random.Random()
        self.think = think
        self.on_act = on_act
        self.record = BotRecord()
        self.draws = DrawPolicy(draw_after) if draw_after else None
        self.draw_wait = draw_wait

    async def play(self, match: str) -> list[Result]:
        """Answer decisions in ``match`` until it is over; return its games' results."""
        client = self.client
        cards = (await client.catalog())["cards"]
        answered: dict[str, dict[str, Any]] = {}  # room -> the offer we answered
        while not client.match_over(match):
            todo = [(room, d) for room, d in client.decisions(match)
                    if answered.get(room) is not d]
            move = self.take_draw_move(match, todo[0][0] if todo else None)
            if move is not None:
                await self._send_draw(match, move)
                continue
            if not todo:
                await client.wait_changed()
                continue
            room, decision = todo[0]
            if self.think > 0:
                await trio.sleep(self.think * (0.5 + self.rng.random()))
                rv = client.room(room)
                if rv is None or rv.actions is not decision:
                    continue  # it changed while we were thinking
            action = self.strategy(client.view(room), decision, self.rng, cards)
            answered[room] = decision
            sent = trio.current_time()
            try:
                await client.act(room, decision["serial"], action)
            except RequestError as exc:
                self.record.refused[exc.code] = self.record.refused.get(exc.code, 0) + 1
                if exc.code in TRANSIENT:
                    answered.pop(room, None)
                    await trio.sleep(RETRY_AFTER)
                continue
            except ConnectionLost:
                self.record.lost += 1
                answered.pop(room, None)  # ask again once we are back, if still pending
                await client.wait_connected()
                continue
            self.record.actions += 1
            if self.on_act is not None:
                self.on_act(trio.current_time() - sent)
        return list(client.results.get(match, []))

    # ------------------------------------------------------------------ draws (CR 104.4i)

    def take_draw_move(self, match: str, deciding: str | None) -> DrawMove | None:
        """The draw command to send now in ``match`` (the core's policy, from the replica's
        view of every room of the match and the room where we must decide), counted as
        made."""
        ticket = self.client.seats.get(match)
        if self.draws is None or ticket is None:
            return None
        views = [(room, self.client.view(room)) for room in self.client.rooms_of(match)]
        move = self.draws.next_move(views, ticket.seat, deciding)
        if move is not None:
            self.draws.made(move)
        return move

    async def _draw(self, room: str, op: str) -> bool:
        try:
            await self.client.draw(room, op)
        except RequestError as exc:  # the offer lapsed or the game moved on meanwhile
            self.record.refused[exc.code] = self.record.refused.get(exc.code, 0) + 1
            return False
        except ConnectionLost:
            self.record.lost += 1
            return False
        self.record.draws[op] = self.record.draws.get(op, 0) + 1
        return True

    async def _send_draw(self, match: str, move: DrawMove) -> None:
        """Send ``move``. After a proposal, hold our decision while the others answer (acting
        would change the game and so lapse the offer), and withdraw an offer the table has
        not settled within ``draw_wait`` seconds."""
        if not await self._draw(move.room, move.op) or move.op != "propose":
            return
        with trio.move_on_after(self.draw_wait):
            while not self.client.match_over(match):
                rv = self.client.room(move.room)
                if rv is None or rv.closed or vk.draw_offer(rv.view) is None:
                    return  # settled: a draw, a decline, or the game ended
                await self.client.wait_changed()
        if vk.draw_offer(self.client.view(move.room)) is not None:
            await self._draw(move.room, "withdraw")


def describe_result(result: Result, names: dict[int, str] | None = None) -> str:
    """One line about a finished game: who won, and why each other player's game ended."""
    res = result.result
    names = names or {}

    def who(p: int) -> str:
        return names.get(p, f"seat {p}")

    outcomes = ", ".join(f"{who(o['player'])} {o['outcome']} ({o['reason']}, CR {o['rule']})"
                         for o in res.get("outcomes", []) if o.get("outcome") != "won")
    if res.get("draw"):
        head = "a draw"
    elif res.get("winners"):
        head = " and ".join(who(w) for w in res["winners"]) + " won"
    else:
        head = "no winner"
    m = result.match
    where = f"game {m.get('game', '?')} of best of {m.get('best_of', 1)}" if m else "game"
    return f"room {result.room}: {where}: {head}" + (f"; {outcomes}" if outcomes else "")


def seat_names(client: Client, match: str) -> dict[int, str]:
    summary = client.summaries.get(match, {})
    return {i: s.get("n") or f"seat {i}" for i, s in enumerate(summary.get("seats", []))}
