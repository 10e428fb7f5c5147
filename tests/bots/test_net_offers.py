"""The network bot answers each offer of a decision once: a refused answer is not sent again
while its offer stands, and the same decision offered anew (the server resumed the seat after
the answer was refused) is answered again (issue 27: a room left paused under a subgame, every
seat connected, because its decider's bot ignored the offer made again)."""

from __future__ import annotations

import random
from typing import Any

import trio
import trio.testing

from arbiter.clients.bots.net import NetBot
from arbiter.clients.sdk import Client, RequestError
from arbiter.protocol import checksum
from arbiter.protocol.server_messages import Actions, Ok, ServerMessage, Snapshot

SUB = "7.1.2"  # a subgame's room (CR 726)
DECISION = {"serial": 41, "game": 2, "kind": "priority", "player": 1,
            "actions": [{"id": 0, "kind": "pass", "label": "Pass priority"}]}


class Server(Client):
    """A client whose server is this test: it refuses the first answer ``refusal`` and
    ends the match at the second."""

    def __init__(self, refusal: str) -> None:
        super().__init__("ws://127.0.0.1:9/", "Bot")
        self.refusal = refusal
        self.answers: list[int] = []
        self.feed(Snapshot(SUB, 1, 1, checksum({}), {}, 2, []))

    def feed(self, msg: ServerMessage) -> None:
        self.tracker.feed(msg)
        self._notify()

    def offer(self) -> None:
        self.feed(Actions(SUB, dict(DECISION)))

    async def catalog(self) -> dict[str, Any]:
        return {"cards": {}}

    async def act(self, room: str, serial: int, action: int, *,
                  manual: bool = False) -> ServerMessage:
        self.answers.append(serial)
        if len(self.answers) == 1:
            raise RequestError(self.refusal, "refused")
        self.summaries["7"] = {"state": "finished"}
        self._notify()
        return Ok(1)


def first_action(view: Any, decision: Any, rng: random.Random, cards: Any) -> int:
    return int(decision["actions"][0]["id"])


async def _play(server: Server, offer_again: bool) -> None:
    bot = NetBot(server, first_action, random.Random(1), draw_after=None)
    async with trio.open_nursery() as nursery:
        nursery.start_soon(bot.play, "7")
        server.offer()
        await trio.sleep(1)
        assert server.answers == [41], "the refused answer is not sent again on its own"
        if offer_again:
            server.offer()  # the seat resumed: the same decision, offered anew
        await trio.sleep(1)
        nursery.cancel_scope.cancel()


def test_a_decision_offered_again_after_a_refused_answer_is_answered_again() -> None:
    server = Server("not_seated")
    trio.run(_play, server, True, clock=trio.testing.MockClock(autojump_threshold=0))
    assert server.answers == [41, 41]
    assert server.match_over("7")


def test_a_refused_answer_is_not_repeated_while_its_offer_stands() -> None:
    server = Server("stale_decision")
    trio.run(_play, server, False, clock=trio.testing.MockClock(autojump_threshold=0))
    assert server.answers == [41]
