"""When a bot proposes, accepts or declines a draw (CR 104.4i): the one policy the server's seat
bots (arbiter/server/rooms/bots.py) and the network bots (arbiter/clients/bots/net.py) share.

The policy, per room of a match, from the seat's view of it:

* **answer** each draw offer once: accept it when the game has stalled (``stall.py``), decline
  it otherwise. Offers we made or already accepted, and offers in a game we are no longer in,
  need no answer. An offer is told apart from the next by its game, turn, proposer and who has
  accepted it, and an answer is forgotten once the view shows no offer, so a second offer in
  the same turn gets its own answer.
* **propose** a draw in the room where we must decide, when its game has stalled and nobody
  has an offer standing, at most once per stalled stretch.

The spacing of proposals is counted in rounds, as the stall itself is: after a proposal, the
next one in the same game waits until the game has gone ``rounds`` more rounds, which is what
it took to stall in the first place. A round is one turn for each player still in the game,
or with shared team turns one turn for each team (CR 805.4: teams, not players, take turns).
Counting players instead, as the server's bots once did, made a Two-Headed Giant bot wait two
stalls between offers where a network bot waited one; a declined offer says the table wants to
play on, and one stall's length is the least pestering that still ends a game that is truly
stuck.

What is not here is timing: when a shell looks (after each message, after a think), how long
it holds its decision while its own offer stands, and withdrawing an offer nobody answers.
Each shell asks :meth:`DrawPolicy.next_move` with every view it has of its match and the room
where it must decide, sends the move it gets, and tells the policy with :meth:`made`; asking is
free of side effects beyond noticing what the views show, so a shell may ask to find out
whether it has work and ask again when it does it.

States per room: *watching* (no offer; the stall watch counts turns since the players in the
game last changed), *offer to answer* (an offer we have not answered), *answered* (until the
offer goes away), and, beside them, the turn of our last proposal in the room's current game.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from arbiter.protocol import view_keys as vk
from arbiter.protocol.view_keys import View

from .stall import DEFAULT_ROUNDS, StallWatch, round_turns

DrawOp = Literal["propose", "accept", "decline"]

# An offer as the policy tells one from the next: (game, turn, proposer, who accepted).
OfferKey = tuple[int, int, int, tuple[int, ...]]


@dataclass(frozen=True)
class DrawMove:
    """A draw command to send: ``op`` in ``room`` (the game numbered ``game``), decided on the
    view of ``turn``; ``offer`` is the offer an answer answers."""

    room: str
    game: int
    turn: int
    op: DrawOp
    offer: OfferKey | None = None


class DrawPolicy:
    """One seat's draw policy over the rooms of its match."""

    def __init__(self, rounds: int = DEFAULT_ROUNDS) -> None:
        self.stall = StallWatch(rounds)
        self._proposed: dict[str, tuple[int, int]] = {}  # room -> (game, turn) of our offer
        self._answered: dict[str, OfferKey] = {}  # room -> the offer we answered

    @property
    def rounds(self) -> int:
        return self.stall.rounds

    def next_move(self, views: Iterable[tuple[str, View]], me: int,
                  deciding: str | None = None) -> DrawMove | None:
        """The draw command to send now, if any, for seat ``me`` seeing ``views`` (room and
        view, the main game first) and having to decide in room ``deciding``. Answers come
        before a proposal: they settle someone else's offer before we make one."""
        # Every view counts towards its stretch, whatever we then do.
        seen = [(room, view, self.stall.stalled(room, view)) for room, view in views]
        for room, view, stalled in seen:
            offer = vk.draw_offer(view)
            if offer is None:
                self._answered.pop(room, None)  # so a later offer gets its own answer
                continue
            if offer.proposer == me or me in offer.accepted or not vk.in_game(view, me):
                continue
            key = _offer_key(view, offer)
            if self._answered.get(room) != key:
                return self._move(room, view, "accept" if stalled else "decline", key)
        for room, view, stalled in seen:
            if room == deciding and stalled and vk.draw_offer(view) is None \
                    and self._may_propose(room, view):
                return self._move(room, view, "propose")
        return None

    def made(self, move: DrawMove) -> None:
        """``move`` is being sent: answer its offer only once, and count the proposal."""
        if move.op == "propose":
            self._proposed[move.room] = (move.game, move.turn)
        else:
            assert move.offer is not None
            self._answered[move.room] = move.offer

    def forget(self, room: str) -> None:
        """``room`` is closed: drop what we remember of it."""
        self.stall.forget(room)
        self._proposed.pop(room, None)
        self._answered.pop(room, None)

    def _may_propose(self, room: str, view: View) -> bool:
        """Once per stalled stretch: not within ``rounds`` rounds of our last proposal in
        this game."""
        last = self._proposed.get(room)
        if last is None or last[0] != vk.game_number(view):
            return True
        return _turn(view) - last[1] >= self.stall.stall_turns(round_turns(view))

    @staticmethod
    def _move(room: str, view: View, op: DrawOp, offer: OfferKey | None = None) -> DrawMove:
        return DrawMove(room, vk.game_number(view), _turn(view), op, offer)


def _turn(view: View) -> int:
    # Only called on a view the stall watch found stalled or with an offer, so it has a turn.
    turn = vk.turn(view)
    return 0 if turn is None else turn


def _offer_key(view: View, offer: vk.DrawOffer) -> OfferKey:
    return (vk.game_number(view), _turn(view), offer.proposer, offer.accepted)
