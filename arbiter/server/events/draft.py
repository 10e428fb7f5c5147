"""A booster-draft pod as a state machine: each seat opens a pack, takes a card and passes the
rest on; three rounds, passed left, right, left (CR 905.1a-b: the rules describe a draft only
within Conspiracy Draft, and the ordinary booster draft runs the same way). docs/rulings.md
("Limited events") records the choices the rules leave to us.

States and moves::

    round r (0, 1, 2): each seat has a queue of packs in front of it
        pick(seat, card): the card leaves the seat's first pack for its picks; the rest of
        the pack joins the queue of the next seat (seat + 1 in rounds 0 and 2, "left";
        seat - 1 in round 1, "right"); an emptied pack is gone
        the round's last card picked -> round r + 1: each seat's pack of that round is opened
    round 3: done (no packs, every pick refused)

Packs queue at a slow drafter as they do at a real table: a seat that has not picked yet
gets the next pack behind the one it holds, and takes them in order. Nothing waits for a
clock here; the event engine's pick timer (:func:`pick_seconds`) picks for a seat whose time
runs out.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from arbiter.protocol.errors import Code, Refusal


@dataclass
class _Pack:
    cards: list[str]
    picked: int = 0  # cards taken from it so far: the pick number is picked + 1


@dataclass
class Pod:
    """The draft's whole state; compare two pods with ``==``."""

    boosters: list[list[list[str]]]  # [round][seat]: the packs as opened
    queues: list[deque[_Pack]]  # per seat, the packs in front of it, first to pick from
    picks: list[list[str]]  # per seat, its picks in order
    round: int = 0
    left_in_round: int = 0  # cards not yet picked this round

    @classmethod
    def new(cls, boosters: list[list[list[str]]]) -> Pod:
        """A pod whose seat ``s`` opens ``boosters[r][s]`` in round ``r``."""
        if not boosters or not boosters[0]:
            raise ValueError("a draft needs at least one round of packs and one seat")
        seats = len(boosters[0])
        if any(len(packs) != seats for packs in boosters):
            raise ValueError("every round has one pack per seat")
        if any(not pack for packs in boosters for pack in packs):
            raise ValueError("a pack is empty")
        pod = cls([[list(pack) for pack in packs] for packs in boosters],
                  [deque() for _ in range(seats)], [[] for _ in range(seats)])
        pod._open_round()
        return pod

    @property
    def seats(self) -> int:
        return len(self.queues)

    @property
    def rounds(self) -> int:
        return len(self.boosters)

    @property
    def done(self) -> bool:
        return self.round >= self.rounds

    def direction(self, round_: int | None = None) -> int:
        """+1 (left: to seat + 1, the next in turn order) in rounds 0 and 2, -1 (right) in
        round 1 (CR 905.1b)."""
        return 1 if (self.round if round_ is None else round_) % 2 == 0 else -1

    def _open_round(self) -> None:
        packs = self.boosters[self.round]
        for seat, cards in enumerate(packs):
            self.queues[seat].append(_Pack(list(cards)))
        self.left_in_round = sum(len(cards) for cards in packs)

    def pack(self, seat: int) -> list[str] | None:
        """A copy of the pack in front of ``seat``, None when it has none now."""
        queue = self.queues[seat] if 0 <= seat < self.seats else None
        return list(queue[0].cards) if queue else None

    def pack_size(self, seat: int) -> int:
        queue = self.queues[seat] if 0 <= seat < self.seats else None
        return len(queue[0].cards) if queue else 0

    def pick_number(self, seat: int) -> int:
        """1-based within the round, for the pack in front of ``seat`` (0: no pack)."""
        queue = self.queues[seat] if 0 <= seat < self.seats else None
        return queue[0].picked + 1 if queue else 0

    def waiting(self) -> list[int]:
        """The seats with a pack in front of them, in seat order."""
        return [seat for seat, queue in enumerate(self.queues) if queue]

    def check(self, seat: int, card: str) -> None:
        """Raise the :class:`Refusal` :meth:`pick` would, changing nothing."""
        if self.done:
            raise Refusal(Code.BAD_PICK, "the draft is over")
        if not 0 <= seat < self.seats:
            raise Refusal(Code.BAD_PICK, f"there is no seat {seat} in this pod of {self.seats}")
        queue = self.queues[seat]
        if not queue:
            raise Refusal(Code.BAD_PICK, "no pack in front of you: wait for the next one")
        if card not in queue[0].cards:
            raise Refusal(Code.BAD_PICK, f"{card!r} is not in the pack in front of you")

    def pick(self, seat: int, card: str) -> None:
        """``seat`` takes ``card`` from the pack in front of it and passes the rest on."""
        self.check(seat, card)
        pack = self.queues[seat].popleft()
        pack.cards.remove(card)
        pack.picked += 1
        self.picks[seat].append(card)
        self.left_in_round -= 1
        if pack.cards:
            self.queues[(seat + self.direction()) % self.seats].append(pack)
        if self.left_in_round == 0:
            self.round += 1
            if not self.done:
                self._open_round()


def pick_seconds(pack_size: int, full: float = 75.0, floor: float = 5.0, cards: int = 15
                 ) -> float:
    """The time to pick from a pack of ``pack_size`` cards: ``full`` for a full pack of
    ``cards``, shrinking in step with the cards left, never below ``floor`` nor above
    ``full``. With the defaults: 75 s for the first pick, 5 s for the last."""
    if cards <= 0:
        raise ValueError("a full pack has at least one card")
    return max(floor, min(full, full * pack_size / cards))
