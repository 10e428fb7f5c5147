"""A Limited event as a state machine: who entered, the boosters they opened, the picks of a
draft, the decks they built, the Swiss rounds they played (docs/events.md).

Like the rules engine's table, an event is a pure function of its configuration, its seed and
the commands applied to it: the log holds the commands, and replaying them rebuilds the event
exactly (every booster comes from the seeded :class:`~arbiter.server.rules.rng.Rng`). It reads
no clock and chooses nothing itself: a pick made for a slow or absent drafter, or a deck built
for a player who ran out of time, is decided by the room layer (with the bots' core) and
applied here as an ordinary command, so that the log says what happened rather than how it was
decided.

Phases, each moving only forward::

    lobby ─start─> drafting ─last pick─> building ─last deck─> playing ─last round─> finished
          └─start (sealed)───────────────────┘

Commands (plain maps, as logged; ``c`` names the kind):

=========  ===============================  ======================================
``c``      fields                           when
=========  ===============================  ======================================
``join``   ``session``, ``name``, ``token``  lobby: a player takes the next seat
``leave``  ``seat``                          lobby: the seat is given up
``start``  ``bots`` (names for empty seats)  lobby: boosters are opened
``pick``   ``seat``, ``card``                drafting: a card from the pack in front
``deck``   ``seat``, ``main``               building: a deck from the player's pool
``result`` ``round``, ``table``, ``wins``,   playing: a match of this round ended
           ``draws``
``drop``   ``seat``                          after the start: no more pairings for them
``seat``   ``seat``, ``session``             any phase: a player's seat, taken up with its
                                             token from another session, is that one's
=========  ===============================  ======================================

Refusals are :class:`~arbiter.protocol.errors.Refusal` with the protocol's codes, raised before
anything changes.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from arbiter.protocol.errors import Code, Refusal
from arbiter.server.rules.rng import Rng

from . import boosters, draft, limited, swiss

KINDS = ("draft", "sealed")
SEALED_BOOSTERS = 6  # each player of a sealed event opens six boosters
DRAFT_BOOSTERS = 3  # ... and of a draft three, passed left, right, left
POD_SIZE = 8  # drafters at one table: more seats make more pods
MAX_SEATS = 64
MAX_ROUNDS = 10


class Phase(StrEnum):
    LOBBY = "lobby"
    DRAFTING = "drafting"
    BUILDING = "building"
    PLAYING = "playing"
    FINISHED = "finished"


def _bad(message: str) -> Refusal:
    return Refusal(Code.BAD_CONFIG, message)


def _number(raw: dict[str, Any], key: str, default: float, low: float, high: float) -> float:
    value = raw.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int | float) or not low <= value <= high:
        raise _bad(f"{key!r} must be a number from {low:g} to {high:g}")
    return float(value)


def _whole(raw: dict[str, Any], key: str, default: int | None, low: int, high: int) -> int | None:
    value = raw.get(key, default)
    if value is None:
        return None
    if type(value) is not int or not low <= value <= high:
        raise _bad(f"{key!r} must be a whole number from {low} to {high}")
    return value


@dataclass(frozen=True)
class EventConfig:
    """What the host asked for (docs/protocol.md section 15, ``create_event``)."""

    name: str
    kind: str  # draft or sealed
    set: str = "M10"
    seats: int = 8
    rounds: int | None = None  # None: as many as the seats need (swiss.rounds_for)
    best_of: int = 3
    pick_time: float = 75.0  # seconds for a full pack's pick; shrinks with the pack
    pick_floor: float = 5.0  # ... never below this
    build_time: float = 900.0  # seconds to build a deck once the pool is complete
    bots: bool = True  # empty seats are filled with bots when the host starts

    FIELDS = ("name", "kind", "set", "seats", "rounds", "best_of", "pick_time", "pick_floor",
              "build_time", "bots")

    @classmethod
    def parse(cls, raw: dict[str, Any], *, default_name: str) -> EventConfig:
        unknown = sorted(str(k) for k in raw if k not in cls.FIELDS)
        if unknown:
            raise _bad(f"unknown event settings: {', '.join(unknown)}")
        kind = raw.get("kind")
        if kind not in KINDS:
            raise _bad(f"'kind' must be one of {', '.join(KINDS)}")
        name = raw.get("name", default_name)
        if not isinstance(name, str) or not name.strip() or len(name) > 40:
            raise _bad("'name' must be a non-empty string of at most 40 characters")
        code = raw.get("set", "M10")
        if code not in boosters.SHAPES:
            raise _bad(f"'set' must be one of {', '.join(sorted(boosters.SHAPES))}")
        seats = _whole(raw, "seats", 8, 2, MAX_SEATS)
        assert seats is not None
        best_of = _whole(raw, "best_of", 3, 1, 3)
        if best_of not in (1, 3):
            raise _bad("'best_of' must be 1 or 3")
        bots = raw.get("bots", True)
        if not isinstance(bots, bool):
            raise _bad("'bots' must be true or false")
        return cls(name=name.strip(), kind=kind, set=code, seats=seats,
                   rounds=_whole(raw, "rounds", None, 1, MAX_ROUNDS), best_of=best_of,
                   pick_time=_number(raw, "pick_time", 75.0, 5.0, 600.0),
                   pick_floor=_number(raw, "pick_floor", 5.0, 1.0, 600.0),
                   build_time=_number(raw, "build_time", 900.0, 30.0, 7200.0), bots=bots)

    def to_wire(self) -> dict[str, Any]:
        return {f: getattr(self, f) for f in self.FIELDS}

    @property
    def total_rounds(self) -> int:
        return self.rounds if self.rounds is not None else swiss.rounds_for(self.seats)


@dataclass
class Entrant:
    seat: int
    name: str
    session: str | None  # None: a bot
    token: str | None  # the seat's token, as a match seat's (None: a bot)
    dropped: bool = False
    pool: Counter[str] = field(default_factory=Counter)  # every card they opened or picked
    deck: dict[str, int] | None = None

    @property
    def bot(self) -> bool:
        return self.session is None

    @property
    def key(self) -> str:
        """How the Swiss module names this player."""
        return str(self.seat)


@dataclass(frozen=True)
class Pairing:
    round: int
    table: int  # from 1
    a: int  # seats
    b: int | None  # None: a bye for a
    result: tuple[int, int, int] | None = None  # a's wins, b's wins, drawn games


@dataclass(frozen=True)
class Note:
    """What a command changed that the room layer acts on: ``drafting``, ``building``, a
    round's ``pairings`` (its matches to open), ``finished``."""

    kind: str
    round: int = 0


class Event:
    def __init__(self, config: EventConfig, seed: int) -> None:
        self.config = config
        self.seed = seed
        self.rng = Rng(seed)
        self.phase = Phase.LOBBY
        self.entrants: list[Entrant] = []
        self.pods: list[draft.Pod] = []
        self.pod_of: list[tuple[int, int]] = []  # seat -> (pod, its place at that pod)
        self.round = 0  # the Swiss round being played (0 before the first)
        self.pairings: list[Pairing] = []  # this round's
        self.records: list[swiss.MatchRecord] = []
        self.commands = 0
        self._public: tuple[int, dict[str, Any]] | None = None  # (commands, public view)

    # ------------------------------------------------------------------ reading

    def entrant(self, seat: int) -> Entrant:
        if not 0 <= seat < len(self.entrants):
            raise Refusal(Code.NOT_SEATED, f"there is no seat {seat} in this event")
        return self.entrants[seat]

    def seat_of(self, session: str) -> int | None:
        for e in self.entrants:
            if e.session == session:
                return e.seat
        return None

    def pack(self, seat: int) -> list[str] | None:
        """The pack in front of ``seat`` now (drafting), or None."""
        if self.phase != Phase.DRAFTING:
            return None
        pod, place = self.pod_of[seat]
        return self.pods[pod].pack(place)

    def pick_number(self, seat: int) -> int:
        pod, place = self.pod_of[seat]
        return self.pods[pod].pick_number(place)

    def pick_seconds(self, seat: int) -> float:
        """How long ``seat`` may take over the pack in front of it (docs/events.md)."""
        pack = self.pack(seat) or []
        c = self.config
        return draft.pick_seconds(len(pack), c.pick_time, c.pick_floor)

    def picks(self, seat: int) -> list[str]:
        if not self.pods:
            return []
        pod, place = self.pod_of[seat]
        return list(self.pods[pod].picks[place])

    @property
    def draft_round(self) -> int:
        """Which booster of the draft is being passed (1-3; 0 outside a draft)."""
        if self.phase != Phase.DRAFTING or not self.pods:
            return 0
        return min(p.round for p in self.pods) + 1

    def standings(self) -> list[swiss.Standing]:
        return swiss.standings([e.key for e in self.entrants], self.records)

    def building(self) -> list[int]:
        """Seats that must still send a deck."""
        if self.phase != Phase.BUILDING:
            return []
        return [e.seat for e in self.entrants if e.deck is None and not e.dropped]

    def unfinished(self) -> list[Pairing]:
        return [p for p in self.pairings if p.result is None]

    # ------------------------------------------------------------------ commands

    def check(self, cmd: dict[str, Any]) -> None:
        """Raise the refusal :meth:`apply` would, changing nothing."""
        self._handler(cmd)(cmd, dry=True)

    def apply(self, cmd: dict[str, Any]) -> list[Note]:
        notes = self._handler(cmd)(cmd, dry=False)
        self.commands += 1
        return notes

    def _handler(self, cmd: dict[str, Any]) -> Callable[..., list[Note]]:
        handlers: dict[str, Callable[..., list[Note]]] = {
            "join": self._join, "leave": self._leave, "start": self._start,
            "pick": self._pick, "deck": self._deck, "result": self._result, "drop": self._drop,
            "seat": self._seat}
        handler = handlers.get(cmd.get("c"))  # type: ignore[arg-type]
        if handler is None:
            raise Refusal(Code.BAD_MESSAGE, f"no event command {cmd.get('c')!r}")
        return handler

    def _in(self, *phases: Phase) -> None:
        if self.phase not in phases:
            raise Refusal(Code.WRONG_STATE, f"the event is {self.phase.value}")

    def _join(self, cmd: dict[str, Any], *, dry: bool) -> list[Note]:
        self._in(Phase.LOBBY)
        if len(self.entrants) >= self.config.seats:
            raise Refusal(Code.ROOM_FULL, "every seat of this event is taken")
        if self.seat_of(cmd["session"]) is not None:
            raise Refusal(Code.ALREADY_SEATED, "you have already entered this event")
        if not dry:
            self.entrants.append(Entrant(len(self.entrants), cmd["name"], cmd["session"],
                                         cmd["token"]))
        return []

    def _seat(self, cmd: dict[str, Any], *, dry: bool) -> list[Note]:
        """A seat changes sessions (its token shown from a new device): logged, so that a
        restart, or another node, gives it to the session that holds it now."""
        e = self.entrant(cmd["seat"])
        if e.bot:
            raise Refusal(Code.BAD_FIELD, f"seat {e.seat} is a bot's")
        if self.seat_of(cmd["session"]) not in (None, e.seat):
            raise Refusal(Code.ALREADY_SEATED, "that session holds another seat")
        if not dry:
            e.session = cmd["session"]
        return []

    def _leave(self, cmd: dict[str, Any], *, dry: bool) -> list[Note]:
        self._in(Phase.LOBBY)
        self.entrant(cmd["seat"])
        if not dry:
            del self.entrants[cmd["seat"]]
            for i, e in enumerate(self.entrants):  # seats stay numbered from 0 in order
                e.seat = i
        return []

    def _start(self, cmd: dict[str, Any], *, dry: bool) -> list[Note]:
        self._in(Phase.LOBBY)
        names: list[str] = list(cmd.get("bots", []))
        if len(self.entrants) + len(names) < 2:
            raise Refusal(Code.WRONG_STATE, "an event needs at least two players")
        if len(self.entrants) + len(names) > self.config.seats:
            raise Refusal(Code.BAD_FIELD, "more bots than empty seats")
        if dry:
            return []
        for name in names:
            self.entrants.append(Entrant(len(self.entrants), name, None, None))
        c = self.config
        if c.kind == "sealed":
            for e in self.entrants:
                for pack in boosters.open_boosters(c.set, self.rng, SEALED_BOOSTERS):
                    e.pool.update(pack)
            self.phase = Phase.BUILDING
            return [Note("building")]
        self._seat_pods()
        self.phase = Phase.DRAFTING
        return [Note("drafting")]

    def _seat_pods(self) -> None:
        """Consecutive seats make a pod; more than eight players make several pods of sizes
        as even as they can be (17 players: 6, 6 and 5)."""
        n = len(self.entrants)
        count = -(-n // POD_SIZE)
        sizes = [n // count + (1 if i < n % count else 0) for i in range(count)]
        seat = 0
        for p, size in enumerate(sizes):
            packs = [boosters.open_boosters(self.config.set, self.rng, size)
                     for _ in range(DRAFT_BOOSTERS)]
            self.pods.append(draft.Pod.new(packs))
            for place in range(size):
                self.pod_of.append((p, place))
                seat += 1

    def _pick(self, cmd: dict[str, Any], *, dry: bool) -> list[Note]:
        self._in(Phase.DRAFTING)
        e = self.entrant(cmd["seat"])
        pod, place = self.pod_of[e.seat]
        pack = self.pods[pod].pack(place)
        card = cmd["card"]
        if pack is None:
            raise Refusal(Code.BAD_PICK, "no pack is in front of you yet: wait for the next")
        if card not in pack:
            raise Refusal(Code.BAD_PICK, f"{str(card)[:60]!r} is not in the pack in front of you")
        if dry:
            return []
        self.pods[pod].pick(place, card)
        e.pool[card] += 1
        if all(p.done for p in self.pods):
            self.phase = Phase.BUILDING
            return [Note("building")]
        return []

    def _deck(self, cmd: dict[str, Any], *, dry: bool) -> list[Note]:
        self._in(Phase.BUILDING)
        e = self.entrant(cmd["seat"])
        if e.dropped:
            raise Refusal(Code.WRONG_STATE, "you have dropped from this event")
        main = cmd["main"]
        problems = limited.deck_problems(main, e.pool)
        if problems:
            raise Refusal(Code.BAD_DECK, "the deck is not legal (Limited): "
                          + "; ".join(problems[:8]))
        if dry:
            return []
        e.deck = dict(main)
        if not self.building():
            return self._next_round()
        return []

    def _result(self, cmd: dict[str, Any], *, dry: bool) -> list[Note]:
        self._in(Phase.PLAYING)
        if cmd["round"] != self.round:
            raise Refusal(Code.WRONG_STATE, f"round {cmd['round']} is not being played")
        index = cmd["table"] - 1
        if not 0 <= index < len(self.pairings) or self.pairings[index].result is not None:
            raise Refusal(Code.WRONG_STATE, f"table {cmd['table']} has no match to report")
        if dry:
            return []
        wins = cmd["wins"]
        pairing = self.pairings[index]
        self.pairings[index] = Pairing(pairing.round, pairing.table, pairing.a, pairing.b,
                                       (wins[0], wins[1], cmd["draws"]))
        self._record(self.pairings[index])
        return self._next_round() if not self.unfinished() else []

    def _drop(self, cmd: dict[str, Any], *, dry: bool) -> list[Note]:
        self._in(Phase.DRAFTING, Phase.BUILDING, Phase.PLAYING)
        e = self.entrant(cmd["seat"])
        if e.dropped:
            raise Refusal(Code.WRONG_STATE, "you have already dropped")
        if dry:
            return []
        e.dropped = True
        if self.phase == Phase.BUILDING and not self.building():
            return self._next_round()
        return []

    # ------------------------------------------------------------------ rounds

    def _record(self, p: Pairing) -> None:
        assert p.result is not None
        a, b = self.entrants[p.a].key, None if p.b is None else self.entrants[p.b].key
        self.records.append(swiss.MatchRecord(p.round, a, b, *p.result))

    def _next_round(self) -> list[Note]:
        """Pair the next round, or end the event after its last (or when fewer than two
        players remain)."""
        active = [e for e in self.entrants if not e.dropped]
        if self.round >= self.config.total_rounds or len(active) < 2:
            self.phase = Phase.FINISHED
            self.pairings = []
            return [Note("finished", self.round)]
        self.phase = Phase.PLAYING
        self.round += 1
        pairs = swiss.pair_round([e.key for e in active], self.records, self.rng)
        self.pairings = []
        for table, (a, b) in enumerate(pairs, start=1):
            bye = b is None
            # A bye is a match won two games to none (docs/rulings.md, "Limited events").
            self.pairings.append(Pairing(self.round, table, int(a),
                                         None if bye else int(b),  # type: ignore[arg-type]
                                         (2, 0, 0) if bye else None))
        for p in self.pairings:
            if p.b is None:
                self._record(p)
        notes = [Note("pairings", self.round)]
        if not self.unfinished():  # only a bye (cannot happen with two or more players)
            notes += self._next_round()
        return notes

    # ------------------------------------------------------------------ views

    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` (None: a spectator) may see. Packs, picks, pools and decks are each
        player's own; nobody else sees them while the event runs, and everyone may once it
        has finished, as a draft's picks are shown after the event. The public part is
        shared between the views (:meth:`public_view`): do not change it in place."""
        out = dict(self.public_view())
        if seat is not None and 0 <= seat < len(self.entrants):
            out["you"] = self.own_view(seat)
        return out

    def public_view(self) -> dict[str, Any]:
        """What everyone may see, worked out once per command (the state changes only
        through :meth:`apply`): a pick is sent to every follower, and most of what each one
        is sent is this."""
        if self._public is not None and self._public[0] == self.commands:
            return self._public[1]
        c = self.config
        out: dict[str, Any] = {
            "config": c.to_wire(), "phase": self.phase.value,
            "entrants": [{"seat": e.seat, "n": e.name, "b": e.bot, "d": e.dropped,
                          "deck": e.deck is not None} for e in self.entrants],
            "round": self.round, "rounds": c.total_rounds,
        }
        if self.phase == Phase.DRAFTING:
            out["draft"] = {"pack": self.draft_round,
                            "waiting": [self.entrants[s].seat for s in self._holding()]}
        if self.pairings:
            out["pairings"] = [{"table": p.table, "a": p.a, "b": p.b,
                                "result": None if p.result is None else list(p.result)}
                               for p in self.pairings]
        if self.records:
            out["standings"] = [_standing(s) for s in self.standings()]
            out["matches"] = [{"round": r.round, "a": int(r.a),
                               "b": None if r.b is None else int(r.b),
                               "result": [r.a_wins, r.b_wins, r.draws]} for r in self.records]
        if self.phase == Phase.FINISHED:
            out["pools"] = [{"seat": e.seat, "picks": self.picks(e.seat),
                             "deck": e.deck} for e in self.entrants]
        self._public = (self.commands, out)
        return out

    def _holding(self) -> list[int]:
        return [s for s in range(len(self.entrants)) if self.pack(s) is not None]

    def own_view(self, seat: int) -> dict[str, Any]:
        """What only the entrant at ``seat`` sees: their pool, deck, pack and picks."""
        e = self.entrants[seat]
        own: dict[str, Any] = {"seat": e.seat, "pool": dict(sorted(e.pool.items())),
                               "deck": e.deck, "dropped": e.dropped}
        if self.phase == Phase.DRAFTING:
            own["picks"] = self.picks(e.seat)
            pack = self.pack(e.seat)
            own["pack"] = pack
            if pack is not None:
                own["pick"] = self.pick_number(e.seat)
        return own


def _standing(s: swiss.Standing) -> dict[str, Any]:
    won, lost, drawn = s.matches
    return {"seat": int(s.player), "rank": s.rank, "points": s.points, "w": won, "l": lost,
            "d": drawn, "omw": round(s.omw, 4), "gw": round(s.gw, 4), "ogw": round(s.ogw, 4)}
