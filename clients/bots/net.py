"""Bots over the network: the engine's strategies (``strategies.py``, unchanged) fed by the SDK's
replica and the legal actions the server sends.

A bot answers every decision the server gives it in any room of its match (the main game and
any subgame, CR 726) until the match is over. It never acts twice on one decision: the legal
actions stay in the replica until the server replaces them, so it remembers the serial it
answered.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import trio

from clients.sdk import Client, ConnectionLost, RequestError
from clients.sdk.events import Result

from .strategies import Strategy

# Refusals a bot can meet in normal play: the decision moved on (someone conceded, a clock
# ran out), or the game ended or its room was paused or closed between our look and our answer.
BENIGN = frozenset({"stale_decision", "not_your_decision", "room_paused", "room_closed",
                    "unknown_room", "game_over", "wrong_state"})


@dataclass
class BotRecord:
    actions: int = 0
    refused: dict[str, int] = field(default_factory=dict)  # error code -> count
    lost: int = 0  # answers whose connection dropped before the reply

    @property
    def errors(self) -> int:
        """Refusals that are not part of normal play."""
        return sum(n for code, n in self.refused.items() if code not in BENIGN)


class NetBot:
    """Plays one seat through an SDK client. ``think`` (seconds) is waited before each answer,
    scaled by a random factor in [0.5, 1.5]; ``on_act(latency)`` is called with the time from
    sending each answer to receiving its reply."""

    def __init__(self, client: Client, strategy: Strategy, rng: random.Random | None = None,
                 *, think: float = 0.0, on_act: Callable[[float], Any] | None = None) -> None:
        self.client = client
        self.strategy = strategy
        self.rng = rng or random.Random()
        self.think = think
        self.on_act = on_act
        self.record = BotRecord()

    async def play(self, match: str) -> list[Result]:
        """Answer decisions in ``match`` until it is over; return its games' results."""
        client = self.client
        answered: dict[str, int] = {}  # room -> serial of the decision we answered
        while not client.match_over(match):
            todo = [(room, d) for room, d in client.decisions(match)
                    if answered.get(room) != d["serial"]]
            if not todo:
                await client.wait_changed()
                continue
            room, decision = todo[0]
            if self.think > 0:
                await trio.sleep(self.think * (0.5 + self.rng.random()))
                rv = client.room(room)
                if rv is None or rv.actions is not decision:
                    continue  # it changed while we were thinking
            action = self.strategy(client.view(room), decision, self.rng)
            answered[room] = decision["serial"]
            sent = trio.current_time()
            try:
                await client.act(room, decision["serial"], action)
            except RequestError as exc:
                self.record.refused[exc.code] = self.record.refused.get(exc.code, 0) + 1
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
