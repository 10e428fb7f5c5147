"""The Grand Melee variant (CR 807): several turns at once, each turn marker with its own stack.

A :class:`Marker` says which player is taking a turn (CR 807.4). Each marker owns a
:class:`TurnContext`, the part of a game's state that belongs to one turn: turn number, active
player, step, its stack, who holds priority for that stack and who has passed, attack and block
plans, lands played, waiting triggered abilities and the loop watch. Each marker plays its turns
with the ordinary turn code of :mod:`flow`, in a generator of its own (:meth:`Melee._life`);
before resuming one, the scheduler (:meth:`Melee.run`) loads that marker's context into the
game's own fields, so turns, priority, casting, combat and resolution work unchanged on
``game.active``, ``game.stack`` and the rest, while the other turns wait in their contexts.

The table still asks one decision at a time. Which turn asks next (docs/rulings.md, "Grand
Melee"): as the game begins, every turn runs up to its first decision, in marker order, before
anyone is asked anything (CR 807.4b); from then on a marker keeps the floor while its turn asks
things, until one of its players passes priority: the turn then yields :data:`ROTATE` and the
floor goes to the next marker in number order that can go on. Every decision names the marker
whose stack it is for (``Decision.stack``). A turn stopped at a decision rebuilds it from the
current state (``REFRESH``) when it gets the floor back.
"""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, cast

from . import ending, sba
from .casting import perform_priority_action, priority_actions
from .config import GameConfig
from .flow import (
    _expire_until_next_turn,
    all_passed,
    reset_loop_watch,
    start_game,
    take_turn,
)
from .hashing import _obj
from .resolve import choose, resolve_top
from .rng import Rng
from .state import REFRESH, SETUP, STACK, Action, Decision, Obj, Ref
from .triggers import _describe, put_triggers_on_stack

if TYPE_CHECKING:
    from .game import Flow, Game, Request

SEATS_PER_MARKER = 4  # CR 807.4a: one turn marker for each full four players
BLOCKING_SEATS = 3  # CR 807.4d: no other marker within three seats to the left


class _Signal:
    """What a marker's turns yield to the scheduler besides decisions and table requests."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return self.name


WAIT = _Signal("WAIT")  # the holder may not begin a turn yet (CR 807.4d)
ROTATE = _Signal("ROTATE")  # a player passed priority: the next marker may go on
MarkerFlow = Generator["Request | _Signal", Any, Any]  # a marker's turns

# The game fields that belong to the turn being played; each marker keeps its own.
TURN_FIELDS = ("turn", "active", "step", "priority", "passed", "pending_triggers",
               "attack_plan", "block_plan", "lands_played", "loop_seen", "loop_objects")


@dataclass(eq=False, slots=True)
class TurnContext:
    """One turn's share of the game state (see :data:`TURN_FIELDS`), plus its stack."""

    turn: int
    active: int = -1
    step: str = SETUP
    priority: int | None = None
    passed: set[int] = field(default_factory=set)
    pending_triggers: list[Obj] = field(default_factory=list)
    attack_plan: list[tuple[int, Ref]] = field(default_factory=list)
    block_plan: list[tuple[int, int]] = field(default_factory=list)
    lands_played: dict[int, int] = field(default_factory=dict)
    loop_seen: set[Any] = field(default_factory=set)
    loop_objects: set[int] = field(default_factory=set)
    stack: list[Obj] = field(default_factory=list)


@dataclass(eq=False)
class Marker:
    """A turn marker (CR 807.4): its number, who holds it, and the turn it is in."""

    number: int
    holder: int
    ctx: TurnContext
    flow: MarkerFlow | None = None
    begun: bool = False  # its flow has started
    taking_turn: bool = False  # its holder is taking a turn with it (CR 807.4c, 807.4g)
    waiting: bool = False  # its holder may not begin a turn yet (CR 807.4d)
    removals: int = 0  # times designated for removal (CR 807.4e)
    # Its holder has yet to take their normal turn with it: false only while they take an
    # extra turn with the marker they kept (CR 807.4i).
    owes_normal: bool = True
    resume: Any = None  # what its flow gets when it has the floor again


def seat_at_random(config: GameConfig, rng: Rng) -> GameConfig:
    """CR 807.3: the players are seated at random (when no seating is configured)."""
    order = list(range(len(config.players)))
    rng.shuffle(order)
    return replace(config, seating=tuple(order))


def play(game: Game, *, starting_player: int | None = None,
         resume: tuple[int, int, str] | None = None) -> Flow:
    """The whole game: CR 103, then the turn markers' turns until it ends. ``resume`` starts
    a scenario with every turn at the beginning of the given step (see :func:`flow.play`)."""
    start_step: str | None = None
    if resume is None:
        yield from start_game(game, starting_player=starting_player)
        ending.check_last_standing(game)
        first = game.starting_player
    else:
        first, turn, start_step = resume
        game.turn = turn - 1
    melee = Melee(game, first, start_step)
    yield from melee.run()


class Melee:
    """The turn markers of one game and the scheduler that interleaves their turns."""

    def __init__(self, game: Game, first: int, start_step: str | None) -> None:
        self.game = game
        self.markers: list[Marker] = []  # in number order
        self.stacks: dict[int, list[Obj]] = {}  # marker number -> its stack (CR 807.5)
        self.current: Marker | None = None  # whose context is loaded into the game
        self.turns_begun = game.turn
        self.starting = True  # the first turns are still beginning (CR 807.4b)
        self._hand_out(first, start_step)

    # ------------------------------------------------------------------ markers (807.4)

    def _hand_out(self, first: int, start_step: str | None) -> None:
        """CR 807.4a-b: one marker per full four players, the first to the starting player,
        the next to the player four seats to the left, and so on."""
        game = self.game
        live = game.players_in_game()
        start = game.first_in_game_from(first)
        assert start is not None, "a game goes on only while someone is in it"
        i = live.index(start)
        for k in range(max(1, len(live) // SEATS_PER_MARKER)):
            ctx = TurnContext(turn=game.turn)
            if k == 0:  # the game's own turn fields become the first marker's
                ctx.pending_triggers = game.pending_triggers
                ctx.stack = game.stack
            marker = Marker(k + 1, live[(i + SEATS_PER_MARKER * k) % len(live)], ctx)
            marker.flow = self._life(marker, start_step)
            self.markers.append(marker)
            self.stacks[marker.number] = ctx.stack
        game.melee = self
        self._load(self.markers[0])
        game.say("Turn markers (CR 807.4b): " + ", ".join(
            f"{m.number} to {game.name(m.holder)}" for m in self.markers) + ".",
            "turn_markers", markers=[[m.number, m.holder] for m in self.markers])

    def _life(self, m: Marker, start_step: str | None) -> MarkerFlow:
        """A marker's turns, one after another, each by the player holding it then."""
        game = self.game
        # The game's first turn (CR 103.8a if only two play), unless a scenario resumes it.
        first = m.number == 1 and start_step is None
        while True:
            if self._blocked(m):
                m.waiting = True
                game.say(f"{game.name(m.holder)} waits with turn marker {m.number}: another "
                         "turn marker is within three seats to their left (CR 807.4d).",
                         "turn_marker", marker=m.number, player=m.holder, op="wait")
                while self._blocked(m):
                    yield WAIT
                m.waiting = False
            extra = self._take_extra_turn(m)
            m.taking_turn = True
            self.turns_begun = max(self.turns_begun, game.turn)
            game.turn = self.turns_begun  # begin_turn numbers the turn after every other
            yield from take_turn(game, m.holder, first_turn=first, start_step=start_step)
            m.taking_turn = False
            if not extra:
                m.owes_normal = False
            first = False
            start_step = None
            if m.removals:  # CR 807.4g: removed rather than passed (807.4j: extra turns wait)
                self._remove(m)
                return
            if self._keeps(m):
                continue
            self._pass_on(m)  # CR 807.4c
            m.owes_normal = True

    def _take_extra_turn(self, m: Marker) -> bool:
        """CR 807.4i-j: a holder with an extra turn pending takes it now: after the turn it
        was added after when they kept the marker, or immediately before their next turn.
        The most recent of theirs first (CR 500.7)."""
        game = self.game
        pending = game.extra_turns
        if m.holder not in pending or not game.in_game(m.holder):
            return False
        del pending[len(pending) - 1 - pending[::-1].index(m.holder)]
        game.dirty.add("t")
        game.say(f"{game.name(m.holder)} takes an extra turn with turn marker {m.number}.",
                 "extra_turn", player=m.holder, marker=m.number)
        return True

    def _keeps(self, m: Marker) -> bool:
        """Does ``m``'s holder keep the marker for another turn? For their normal turn after an
        extra one taken immediately before it (CR 807.4j), or for an extra turn added after
        this one, unless a marker is within three seats on their right: then the marker
        passes and the extra turn waits until just before their next turn (CR 807.4i)."""
        game = self.game
        if not game.in_game(m.holder):
            return False
        if m.owes_normal:
            return True
        if m.holder not in game.extra_turns:
            return False
        live = game.players_in_game()
        i = live.index(m.holder)
        right = {live[(i - k) % len(live)] for k in range(1, BLOCKING_SEATS + 1)} - {m.holder}
        return not any(o.holder in right for o in self.markers if o is not m)

    def _blocked(self, m: Marker) -> bool:
        """CR 807.4d: may ``m``'s holder not begin a turn yet? Seats count players still in
        the game (as for ranges, CR 801.2c). A player handed a second marker begins with the
        one that is taking a turn or has the lower number first (docs/rulings.md)."""
        live = self.game.players_in_game()
        if m.holder not in live:
            return False
        i = live.index(m.holder)
        near = {live[(i + k) % len(live)] for k in range(1, BLOCKING_SEATS + 1)}
        near.discard(m.holder)
        for other in self.markers:
            if other is m:
                continue
            if other.holder in near:
                return True
            if other.holder == m.holder and (other.taking_turn or other.number < m.number):
                return True
        return False

    def _left_of(self, pid: int) -> int:
        """The next player to ``pid``'s left who is still in the game. Effects that last until
        the turn of a departed player passed over end now (CR 800.4m)."""
        game = self.game
        seats = game.seats
        i = seats.index(pid)
        for k in range(1, len(seats) + 1):
            q = seats[(i + k) % len(seats)]
            if game.in_game(q):
                return q
            _expire_until_next_turn(game, q)
        return pid

    def _right_of(self, pid: int) -> Marker | None:
        """The marker immediately to ``pid``'s right (CR 807.4e, 807.4g): the first found going
        right from the seat next to theirs, departed players' seats included."""
        seats = self.game.seats
        i = seats.index(pid)
        for k in range(1, len(seats) + 1):
            here = [m for m in self.markers if m.holder == seats[(i - k) % len(seats)]]
            if here:
                return here[0]
        return None

    def _pass_on(self, m: Marker) -> None:
        """CR 807.4c: the marker goes to the player on the holder's left."""
        game = self.game
        m.holder = self._left_of(m.holder)
        game.say(f"Turn marker {m.number} passes to {game.name(m.holder)}.", "turn_marker",
                 marker=m.number, player=m.holder, op="pass")
        game.dirty.add("m")

    def _remove(self, m: Marker) -> None:
        """CR 807.4g: a marker designated for removal goes; designated more than once, it
        hands the rest of its designations to the marker on its right."""
        game = self.game
        self.markers.remove(m)
        del self.stacks[m.number]
        if m.flow is not None and m.waiting:
            m.flow.close()
        game.say(f"Turn marker {m.number} is removed (CR 807.4g).", "turn_marker",
                 marker=m.number, player=m.holder, op="remove")
        game.dirty.add("m")
        extra = m.removals - 1
        right = self._right_of(m.holder) if extra > 0 else None
        if right is not None:
            self._designate(right, extra, "807.4g")
            if not right.taking_turn:
                self._remove(right)

    def _designate(self, m: Marker, times: int = 1, rule: str = "807.4e") -> None:
        m.removals += times
        self.game.say(f"Turn marker {m.number} is designated for removal (CR {rule}).",
                      "turn_marker", marker=m.number, player=m.holder, op="designate")

    def players_left(self, gone: set[int]) -> None:
        """Players left the game at once (CR 800.4a): clean the turns not being played now
        (the game's own fields are the current turn's, already cleaned), then the turn
        markers: designations (CR 807.4e-f), markers of players whose turn hadn't begun
        (CR 807.4c) and markers to remove at once (CR 807.4g)."""
        game = self.game
        if any(p in gone for p in game.extra_turns):
            game.extra_turns = [p for p in game.extra_turns if p not in gone]  # CR 800.4k
            game.dirty.add("t")
        for m in self.markers:
            if m is self.current:
                continue
            ending.forget_in_turn(m.ctx, game, gone)
        target = max(1, len(game.players_in_game()) // SEATS_PER_MARKER)
        standing = len(self.markers) - sum(m.removals for m in self.markers)  # CR 807.4f
        for _ in range(standing - target):
            nearest = [r for p in sorted(gone) if (r := self._right_of(p)) is not None]
            self._designate(min(nearest, key=lambda r: r.number))
        for m in self.markers:
            if not m.taking_turn and not game.in_game(m.holder):
                self._pass_on(m)
        for m in list(self.markers):
            if m in self.markers and m.removals and not m.taking_turn:
                self._remove(m)
        game.dirty.add("m")

    # ------------------------------------------------------------------ turn contexts

    def _save(self, ctx: TurnContext) -> None:
        game = self.game
        for name in TURN_FIELDS:
            setattr(ctx, name, getattr(game, name))
        self.turns_begun = max(self.turns_begun, game.turn)

    def _load(self, m: Marker) -> None:
        game = self.game
        for name in TURN_FIELDS:
            setattr(game, name, getattr(m.ctx, name))
        game.zones[(STACK, None)] = m.ctx.stack
        game.stack_id = m.number
        self.current = m

    def _switch(self, m: Marker) -> None:
        if self.current is m:
            return
        if self.current is not None:
            self._save(self.current.ctx)
        self._load(m)
        self.game.dirty.add("t")

    def context(self, m: Marker) -> TurnContext:
        """``m``'s turn fields as they are now (for the current turn, the game's own)."""
        if m is not self.current:
            return m.ctx
        game = self.game
        ctx = TurnContext(turn=game.turn, stack=game.stack)
        for name in TURN_FIELDS:
            setattr(ctx, name, getattr(game, name))
        return ctx

    def stack(self, number: int) -> list[Obj]:
        return self.stacks[number]

    def stack_objects(self) -> list[Obj]:
        return [o for n in sorted(self.stacks) for o in self.stacks[n]]

    # ------------------------------------------------------------------ priority (807.5a)

    def with_priority(self, m: Marker) -> list[int]:
        """CR 807.5a: the players, in turn order, who get priority for ``m``'s stack: those
        with the marker (its holder) or a controller of an object on that stack in range."""
        if not m.taking_turn:
            return []
        game = self.game
        live = game.players_in_game()
        ranges = game.ranges
        if ranges is None:
            return live
        reach = {m.holder, *(o.controller for o in self.stacks[m.number])}
        none: frozenset[int] = frozenset()
        return [p for p in live if p in reach or not ranges.get(p, none).isdisjoint(reach)]

    def priority(self) -> Flow:
        """:func:`flow.priority` in Grand Melee: priority for the current turn's stack
        (:func:`priority`). Its :data:`ROTATE` signals go to :meth:`run`, never to the table,
        since every marker's turns run inside it."""
        return cast("Flow", priority(self.game))

    # ------------------------------------------------------------------ the scheduler

    def _next(self, after: Marker | None) -> Marker:
        """The marker to run next: one whose turns haven't begun yet, else the next in number
        order after ``after`` (cyclically) that can go on."""
        for m in self.markers:
            if not m.begun:
                return m
        start = after.number if after is not None else 0
        ordered = ([m for m in self.markers if m.number > start]
                   + [m for m in self.markers if m.number <= start])
        for m in ordered:
            if not m.waiting or not self._blocked(m):
                return m
        # With at most one undesignated marker per four players (CR 807.4a, 807.4e), some
        # marker is always at least four seats behind the next one.
        raise AssertionError("every turn marker is waiting")

    def _hand_over_triggers(self, m: Marker, nxt: Marker) -> None:
        """Triggers waiting in a turn that has ended go to the turn that goes on next; they
        are bound to no stack any more (CR 807.5b)."""
        game = self.game
        if m is self.current and game.pending_triggers and nxt is not m:
            moved, game.pending_triggers = game.pending_triggers, []
            for t in moved:
                t.stack_id = 0
            nxt.ctx.pending_triggers.extend(moved)

    def _touch(self) -> None:
        self.game.dirty.add("m")
        self.game.dirty.add("t")

    def run(self) -> Flow:
        """Interleave the markers' turns; yield one decision (or table request) at a time."""
        m = self._next(None)
        value: Any = None
        while True:
            self._switch(m)
            m.begun = True
            assert m.flow is not None
            try:
                request = m.flow.send(value)
            except StopIteration:  # the marker was removed as its turn ended (CR 807.4g)
                nxt = self._next(m)
                self._hand_over_triggers(m, nxt)
                m, value = nxt, nxt.resume
                continue
            if isinstance(request, _Signal):  # WAIT or ROTATE: the floor moves on
                m.resume = None
                nxt = self._next(m)
                if request is WAIT:
                    self._hand_over_triggers(m, nxt)
                m, value = nxt, nxt.resume
                continue
            if isinstance(request, Decision):
                if self.starting:  # CR 807.4b: every turn begins before anyone is asked
                    nxt = self._next(None)
                    self.starting = not all(x.begun for x in self.markers)
                    if nxt is not m:
                        m.resume = REFRESH
                        m, value = nxt, nxt.resume
                        continue
                request.stack = m.number
                self._touch()
                value = yield request
                continue
            self._touch()  # a subgame or a restart: the table answers (CR 726, 724)
            value = yield request

    # ------------------------------------------------------------------ views and hashing

    def view(self) -> list[dict[str, Any]]:
        """The ``m`` view key: every marker, its holder and whether they take a turn with it
        or wait, that turn's number, step and priority holder, who gets priority for its
        stack (CR 807.5a) and how often it is designated for removal."""
        out = []
        for m in self.markers:
            entry: dict[str, Any] = {"n": m.number, "p": m.holder,
                                     "s": "turn" if m.taking_turn else "waiting"}
            if m.taking_turn:
                ctx = self.context(m)
                entry["turn"] = ctx.turn
                entry["st"] = ctx.step
                entry["pr"] = self.with_priority(m)
                if ctx.priority is not None:
                    entry["h"] = ctx.priority
            if m.removals:
                entry["rm"] = m.removals
            out.append(entry)
        return out

    def hash_state(self) -> tuple[Any, ...]:
        game = self.game
        out: list[Any] = [self.current.number if self.current else None,
                          max(self.turns_begun, game.turn), self.starting,
                          tuple((o.oid, o.combat_turn) for o in game.battlefield
                                if o.attacking is not None)]
        for m in self.markers:
            c = self.context(m)
            out.append((
                m.number, m.holder, m.begun, m.taking_turn, m.waiting, m.removals,
                m.resume is REFRESH, c.turn, c.active, c.step, c.priority,
                tuple(sorted(c.passed)),
                tuple((t.ability_index, t.source.oid if t.source else None, t.controller,
                       t.stack_id) for t in c.pending_triggers),
                tuple(c.attack_plan), tuple(c.block_plan), tuple(sorted(c.lands_played.items())),
                tuple(_obj(o) for o in c.stack)))
            if not m.owes_normal:  # only during a kept extra turn (CR 807.4i)
                out.append(("extra", m.number))
        return tuple(out)


# --------------------------------------------------------------------------- priority


def _holder_from(game: Game, eligible: list[int], start: int) -> int:
    """The first of ``eligible`` at or after ``start`` in turn order."""
    seats = game.seats
    i = seats.index(start)
    members = set(eligible)
    for k in range(len(seats)):
        q = seats[(i + k) % len(seats)]
        if q in members:
            return q
    return eligible[0]


def priority(game: Game) -> MarkerFlow:
    """CR 117 for one turn marker's stack: the active player first, then in turn order, but
    only the players who get priority for this stack (CR 807.5a); the step ends (or the top
    object resolves) once all of them pass in succession. After each pass the other turns may
    go on (:data:`ROTATE`)."""
    melee = game.melee
    assert melee is not None and melee.current is not None
    marker = melee.current
    game.passed = set()
    holder: int | None = game.active
    reset_loop_watch(game)
    while True:
        yield from _settle(game, melee)
        eligible = melee.with_priority(marker)
        if eligible and not set(eligible) <= game.passed:
            holder = _holder_from(game, eligible, holder if holder is not None else game.active)
            game.priority = holder
            game.dirty.add_quiet("w")
            actions = priority_actions(game, holder)
            answer = yield Decision("priority", holder, "You have priority for the stack of "
                                    f"turn marker {marker.number}", actions)
            if answer is REFRESH:
                continue
            if answer.kind != "pass":
                game.bump_version()
                yield from perform_priority_action(game, holder, answer)
                if answer.kind != "mana":
                    game.passed.clear()
                continue  # CR 117.3c: the player who acted receives priority again
            game.passed.add(holder)
            holder = game.next_player(holder)
            if len(melee.markers) > 1:
                game.priority = None  # passing on: nobody holds it while other turns go on
                yield ROTATE
            if not set(melee.with_priority(marker)) <= game.passed:
                continue
        # Everyone who gets priority for this stack has passed in succession.
        if not (yield from all_passed(game, _resolve)):
            return
        holder = game.active


def _resolve(game: Game) -> Flow:
    """Resolve the top of this stack; what its resolution triggers is bound to this stack
    (CR 807.5b: an object on it caused those abilities to trigger)."""
    before = list(game.pending_triggers)
    yield from resolve_top(game)
    for t in game.pending_triggers:
        if not t.stack_id and all(t is not b for b in before):
            t.stack_id = game.stack_id


def _settle(game: Game, melee: Melee) -> Flow:
    """:func:`flow.settle` with CR 807.5b: each waiting triggered ability first finds its
    stack; those for this one go on it."""
    while True:
        performed = yield from sba.check(game)
        if performed:
            continue
        if game.pending_triggers:
            yield from _route_triggers(game, melee)
            if game.pending_triggers:
                yield from put_triggers_on_stack(game)
                game.passed.clear()
            continue
        return


def _route_triggers(game: Game, melee: Melee) -> Flow:
    """CR 807.5b: a triggered ability goes on the stack an object on which made it trigger;
    otherwise on a stack its controller has priority for (CR 807.5a), chosen by them when
    there are several; with none, on the stack of the turn in which it triggered."""
    here = melee.current
    assert here is not None
    for trig in list(game.pending_triggers):
        if trig.stack_id or not game.in_game(trig.controller):
            continue
        options = [m for m in melee.markers if trig.controller in melee.with_priority(m)]
        dest: Marker | None = options[0] if len(options) == 1 else here
        if len(options) > 1:
            dest = yield from _choose_stack(game, melee, trig, options)
        if dest is None or trig not in game.pending_triggers:
            continue  # its controller left the game meanwhile (CR 800.4d)
        trig.stack_id = dest.number
        if dest is not here:
            game.pending_triggers.remove(trig)
            dest.ctx.pending_triggers.append(trig)
            game.say(f"{_describe(game, trig, trig.controller)} will go on the stack of turn "
                     f"marker {dest.number}.",
                     "trigger_stack", marker=dest.number, player=trig.controller)


def _choose_stack(game: Game, melee: Melee, trig: Obj, options: list[Marker]) -> Flow:
    """Ask the controller which of the stacks they have priority for gets ``trig``."""
    def build() -> list[Action]:
        live = [m for m in options if m in melee.markers and m.taking_turn]
        return [Action(i, "choose_stack", f"Put it on the stack of turn marker {m.number} "
                       f"({game.name(m.holder)}'s turn)", index=m.number)
                for i, m in enumerate(live)]

    answer = yield from choose(game, trig.controller, "choose_stack",
                               f"{_describe(game, trig, trig.controller)}: which stack does it "
                               "go on? (CR 807.5b)",
                               build)
    if answer is None:
        return None
    return next(m for m in options if m.number == answer.index)
