"""A network bot in a Limited event (docs/events.md): it drafts with the bots' Limited core
(``arbiter/bots/limited.py``: the same picks and decks as the server's seat bots given the same
packs), sends its deck, plays each round's match with a :class:`~.net.NetBot`, and follows the
event until it has finished.

It reads nothing but the event state the server sends whole (``client.event_state``) and acts
on what that state asks of it, so it carries on after a reconnect from whatever state comes
next: a pick whose timer ran out meanwhile (made for it by the server) is simply no longer
asked for.

The states it answers, in the order the event goes through them::

    drafting, a pack in front of us (pack n, pick m not yet sent)  -> pick (the core's card)
    building, no deck of ours yet (not yet sent)                    -> deck (the core's build)
    playing, you.match names a match we have not played             -> join it, play it, leave
    finished                                                        -> return the state
    anything else (the lobby, others still picking, a bye)         -> wait for the next state
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import trio

from arbiter.bots import DEFAULT_ROUNDS, Strategy
from arbiter.bots import limited as limited_core
from arbiter.clients.sdk import Client, ConnectionLost, RequestError

from . import net
from .net import NetBot, describe_result, seat_names

# Refusals an event bot meets in normal play: the server picked for us while our pick was on
# its way (the pick timer ran out), or the phase moved on (the last deck arrived); and those
# of normal play in its matches.
BENIGN = frozenset({"bad_pick", "wrong_state"}) | net.BENIGN | net.TRANSIENT


@dataclass
class EventRecord:
    picks: int = 0
    decks: int = 0
    matches: int = 0
    actions: int = 0  # game actions over every match
    refused: dict[str, int] = field(default_factory=dict)  # error code -> count
    results: list[str] = field(default_factory=list)  # one line per game played

    @property
    def errors(self) -> int:
        return sum(n for code, n in self.refused.items() if code not in BENIGN)

    def refuse(self, code: str) -> None:
        self.refused[code] = self.refused.get(code, 0) + 1


class EventBot:
    """Plays one seat of an event through an SDK client that has entered it (``join``).
    ``think`` (seconds, scaled by a random factor in [0.5, 1.5]) is waited before each game
    action, and before each pick too unless ``pick_think`` says otherwise.
    ``on_pick(ok, state)`` is called with the seconds from sending each pick to its ``ok``
    and to the next event state; ``on_act`` as for :class:`NetBot`."""

    def __init__(self, client: Client, strategy: Strategy, rng: random.Random | None = None,
                 *, think: float = 0.0, pick_think: float | None = None,
                 draw_after: int | None = DEFAULT_ROUNDS,
                 on_pick: Callable[[float, float], Any] | None = None,
                 on_act: Callable[[float], Any] | None = None) -> None:
        self.client = client
        self.strategy = strategy
        self.rng = rng or random.Random()
        self.think = think
        self.pick_think = think if pick_think is None else pick_think
        self.draw_after = draw_after
        self.on_pick = on_pick
        self.on_act = on_act
        self.record = EventRecord()

    async def run(self, event: str) -> dict[str, Any]:
        """Take part in ``event`` until it has finished; return its final state."""
        client = self.client
        cards = (await client.catalog())["cards"]
        picked: set[tuple[int, int]] = set()  # (pack, pick) sent
        deck_sent = False
        played: set[str] = set()  # match rooms played
        state = await client.wait_event(event)
        while state["phase"] != "finished":
            you = state.get("you") or {}
            draft = state.get("draft") or {}
            pack = you.get("pack")
            match = (you.get("match") or {}).get("r")
            if state["phase"] == "drafting" and pack and \
                    (draft.get("pack", 0), you.get("pick", 0)) not in picked:
                picked.add((draft.get("pack", 0), you.get("pick", 0)))
                card = limited_core.pick(pack, you.get("picks", []), cards)
                state = await self._pick(event, state, card)
                continue
            if state["phase"] == "building" and you.get("deck") is None and not deck_sent:
                deck_sent = True
                await self._send_deck(event, limited_core.build_deck(you.get("pool", {}),
                                                                     cards))
            elif match is not None and match not in played:
                played.add(match)
                await self._play(match)
            state = await client.wait_event(event, since=state)
        return state

    async def _pick(self, event: str, state: dict[str, Any], card: str) -> dict[str, Any]:
        """Send the pick; the state that follows it."""
        if self.pick_think > 0:
            await trio.sleep(self.pick_think * (0.5 + self.rng.random()))
        sent = trio.current_time()
        try:
            await self.client.pick(event, card)
        except RequestError as exc:
            self.record.refuse(exc.code)
            return await self.client.wait_event(event, since=state)
        except ConnectionLost:
            return await self.client.wait_event(event, since=state)  # asked again if due
        answered = trio.current_time() - sent
        state = await self.client.wait_event(event, since=state)
        self.record.picks += 1
        if self.on_pick is not None:
            self.on_pick(answered, trio.current_time() - sent)
        return state

    async def _send_deck(self, event: str, deck: dict[str, int]) -> None:
        try:
            await self.client.submit_event_deck(event, deck)
        except RequestError as exc:  # built for us from our pool when the time runs out
            self.record.refuse(exc.code)
        except ConnectionLost:
            return
        else:
            self.record.decks += 1

    async def _play(self, match: str) -> None:
        """Take our seat in the round's match (held for us), play it to its end, leave it."""
        client = self.client
        bot = NetBot(client, self.strategy, random.Random(self.rng.random()), think=self.think,
                     draw_after=self.draw_after, on_act=self.on_act)
        try:
            await client.join(match)
        except RequestError as exc:  # the match ended without us (we were away too long)
            self.record.refuse(exc.code)
            return
        results = await bot.play(match)
        names = seat_names(client, match)
        self.record.results += [describe_result(r, names) for r in results]
        self.record.matches += 1
        self.record.actions += bot.record.actions
        for code, n in bot.record.refused.items():
            self.record.refused[code] = self.record.refused.get(code, 0) + n
        await client.leave(match)


def standings_lines(state: dict[str, Any]) -> list[str]:
    """The event's standings, one line a player, in rank order (docs/protocol.md section 15:
    match points, then the tie-breakers as percentages)."""
    names = {e["seat"]: e["n"] + (" (bot)" if e.get("b") else "")
             for e in state.get("entrants", [])}
    lines = []
    for s in state.get("standings", []):
        lines.append(f"{s['rank']:>3}. {names.get(s['seat'], s['seat'])!s:<24} "
                     f"{s['points']:>2} points  {s['w']}-{s['l']}-{s['d']}  "
                     f"OMW {s['omw']:.1%}  GW {s['gw']:.1%}  OGW {s['ogw']:.1%}")
    return lines
