"""The one draw policy (CR 104.4i) of arbiter/bots/draws.py, and the two shells that carry it:
the server's seat bots and the network bots make the same draw decisions on the same views,
with shared team turns (CR 805) as without.

Views here are real snapshots of a game at its start, with the entries the policy reads (the
turn, the draw offer, the players' status) set as the game would set them later on."""

from __future__ import annotations

import random
from typing import Any

import pytest

from arbiter.bots import DEFAULT_ROUNDS, DrawPolicy, heuristic_strategy
from arbiter.bots.draws import DrawMove
from arbiter.clients.bots.net import NetBot
from arbiter.clients.sdk import Client
from arbiter.clients.sdk.client import SeatTicket
from arbiter.protocol import checksum
from arbiter.protocol import view_keys as vk
from arbiter.protocol.server_messages import Snapshot
from arbiter.server.rooms.bots import RoomBot

from ..rules.helpers import Scene, giant_scene

ME = 1
ROOM = "7"


class Views:
    """Seat ``ME``'s view of a game started from ``scene``, edited as turns go by."""

    def __init__(self, scene: Scene) -> None:
        self.base = scene.start().view(ME)
        self.out: set[int] = set()
        self.game = 1

    def at(self, turn: int, offer: tuple[int, list[int]] | None = None) -> dict[Any, Any]:
        view = dict(self.base)
        view[vk.GAME] = {**view[vk.GAME], "n": self.game}
        view[vk.TURN] = [turn, 0, "main1", 0]
        if offer is None:
            view.pop(vk.DRAW, None)
        else:
            view[vk.DRAW] = [offer[0], offer[1]]
        for pid in self.out:
            view[vk.player_key(pid)] = {**view[vk.player_key(pid)], "s": "lost"}
        return view


def stalled_game_story(scene: Scene, per_round: int, per_round_later: int
                       ) -> list[tuple[dict[Any, Any], bool, str | None]]:
    """(view, whether ``ME`` must decide, the draw command the policy must send) in order: a
    game stalls after ``DEFAULT_ROUNDS`` rounds of ``per_round`` turns without anyone
    leaving, and of ``per_round_later`` once player 3 has left."""
    stall = DEFAULT_ROUNDS * per_round
    v = Views(scene)
    steps = [
        (v.at(1), True, None),  # the stretch starts
        (v.at(stall // 2, (2, [2])), False, "decline"),  # too early
        (v.at(stall // 2), False, None),  # the offer is gone...
        (v.at(stall // 2, (2, [2])), False, "decline"),  # ...so a new one gets its answer
        (v.at(stall), True, None),  # one turn short of the stall
        (v.at(1 + stall), True, "propose"),
        (v.at(1 + stall, (ME, [ME])), True, None),  # our own offer stands
        (v.at(2 + stall), True, None),  # declined: not again in this stretch
        (v.at(stall + stall), True, None),
        # A stall's length later (counted in players, as the server's bots once did, it would
        # be twice as long in Two-Headed Giant).
        (v.at(1 + 2 * stall), True, "propose"),
        (v.at(2 + 2 * stall, (0, [0])), True, "accept"),  # a stalled game: yes
        (v.at(2 + 2 * stall, (0, [0])), True, None),  # answered once
        (v.at(2 + 2 * stall, (0, [0, ME])), False, None),  # already accepted
    ]
    v.out.add(3)  # player 3 leaves: the stretch starts afresh
    left, later = 3 + 2 * stall, DEFAULT_ROUNDS * per_round_later
    steps += [
        (v.at(left), True, None),
        (v.at(left + later - 1, (2, [2])), False, "decline"),
        (v.at(left + later), True, "propose"),
    ]
    v.game, v.out = 2, set()  # the game restarts (CR 724): a new game, a new stretch
    steps += [(v.at(1), True, None), (v.at(stall), True, None), (v.at(1 + stall), True, "propose")]
    return steps


STORIES = {
    # Two-Headed Giant: teams take turns (CR 805.4), so a round is two turns with four players,
    # and still two when one of them has left; otherwise one turn per player still in.
    "two_headed_giant": (giant_scene, 2, 2),
    "free_for_all": (lambda: Scene(4, variant="free_for_all"), 4, 3),
}


def server_shell(story: list[tuple[dict[Any, Any], bool, str | None]]) -> list[str | None]:
    bot = RoomBot("heuristic", 1)
    ops = []
    for view, deciding, _ in story:
        move = bot.take_draw_move([(ROOM, view)], ME, ROOM if deciding else None)
        ops.append(None if move is None else move.op)
    return ops


def network_shell(story: list[tuple[dict[Any, Any], bool, str | None]]) -> list[str | None]:
    """The network bot, its views arriving in the SDK's replica as snapshots."""
    client = Client("ws://127.0.0.1:9/", "Bot")
    client.seats[ROOM] = SeatTicket(ROOM, ME, "token")
    bot = NetBot(client, heuristic_strategy, random.Random(1))
    ops = []
    for seq, (view, deciding, _) in enumerate(story, 1):
        client.tracker.feed(Snapshot(ROOM, 1, seq, checksum(view), view, 1, []))
        move = bot.take_draw_move(ROOM, ROOM if deciding else None)
        ops.append(None if move is None else move.op)
    return ops


@pytest.mark.parametrize("variant", sorted(STORIES))
def test_104_4i_both_shells_make_the_same_draw_decisions(variant: str) -> None:
    scene, per_round, per_round_later = STORIES[variant]
    story = stalled_game_story(scene(), per_round, per_round_later)
    expected = [op for _, _, op in story]
    assert server_shell(story) == expected
    assert network_shell(story) == expected


def test_a_move_names_its_room_game_and_turn_and_answers_come_before_a_proposal() -> None:
    # An offer in the main game while we must decide in a subgame (CR 726): the offer is
    # answered first, then, in the same stalled stretch, the subgame's proposal follows.
    policy = DrawPolicy(rounds=1)
    main, sub = Views(Scene(2)), Views(Scene(2))
    sub.game = 2
    policy.next_move([("7", main.at(1)), ("7.1.2", sub.at(1))], ME, "7.1.2")
    views = [("7", main.at(3, (0, [0]))), ("7.1.2", sub.at(3))]
    first = policy.next_move(views, ME, "7.1.2")
    assert first == DrawMove("7", 1, 3, "accept", (1, 3, 0, (0,)))
    assert policy.next_move(views, ME, "7.1.2") == first, "asking again changes nothing"
    policy.made(first)
    assert policy.next_move(views, ME, "7.1.2") == DrawMove("7.1.2", 2, 3, "propose")


def test_no_answer_for_a_player_out_of_the_game_and_none_without_a_turn() -> None:
    policy = DrawPolicy(rounds=1)
    v = Views(Scene(3, variant="free_for_all"))
    v.out.add(ME)
    assert policy.next_move([(ROOM, v.at(9, (0, [0])))], ME) is None
    before_the_game = {k: x for k, x in v.at(1).items() if k != vk.TURN}
    assert policy.next_move([(ROOM, before_the_game)], 0, ROOM) is None
    with pytest.raises(ValueError):
        DrawPolicy(rounds=0)


def test_a_forgotten_room_starts_afresh() -> None:
    policy = DrawPolicy(rounds=1)
    v = Views(Scene(2))
    policy.next_move([(ROOM, v.at(1))], ME, ROOM)
    assert policy.next_move([(ROOM, v.at(3))], ME, ROOM) is not None
    policy.forget(ROOM)
    assert policy.next_move([(ROOM, v.at(3))], ME, ROOM) is None  # the stretch starts here
