"""One game's state and the primitive changes every rule is built from.

A :class:`Game` owns its zones, objects, players and continuous effects. All changes go through
the methods here (move, tap, counters, life, damage); each records which view keys it touched in
``dirty`` so that the server's delta for a change costs what changed, not the size of the game.
The flow of play (turns, priority, casting, combat) lives in the modules that drive a game.
"""

from __future__ import annotations

from collections.abc import Generator, Iterable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from . import reveals
from .cards.vocab import (
    DISCARDS,
    DRAWS,
    GAINS_LIFE,
    CantLose,
    CantWin,
    CardDef,
    ControlEnchanted,
    EntersTapped,
    EntersTappedUnlessControl,
    EntersWithCounters,
    Triggered,
)
from .characteristics import is_type
from .config import GameConfig
from .layers import Chars, compute
from .replacement import controls_one_of, remove_from_combat, shuffled_in_instead
from .results import GameResult, PlayerOutcome
from .rng import Rng
from .state import (
    BATTLEFIELD,
    COMMAND,
    EXILE,
    GRAVEYARD,
    HAND,
    LIBRARY,
    PLANAR_DECK,
    PLAYER_ZONES,
    SCHEME_DECK,
    SETUP,
    STACK,
    Action,
    Card,
    Continuous,
    Decision,
    DirtyKeys,
    EffectList,
    Obj,
    PlayerState,
    Ref,
    RestartRequest,
    SubgameRequest,
)
from .statics import no_maximum_hand_size
from .teams import acting_orders

if TYPE_CHECKING:
    from .melee import Melee
    from .table import Table

Request = Decision | SubgameRequest | RestartRequest
# The zone changes that are also something a player does (CR 121.1 drawing, 701.8 discarding),
# by the cause the mover gives: the event each is.
_PLAYER_ACTS = {"draw": DRAWS, "discard": DISCARDS}
Flow = Generator[Request, Any, Any]


@dataclass(slots=True)
class Event:
    """Something that happened: for the readable log and for the server."""

    kind: str
    text: str
    data: dict[str, Any] = field(default_factory=dict)
    game: int = 0


class Game:
    """One Magic game: the main game, a subgame or a restarted game (CR 724, 726)."""

    def __init__(self, table: Table, number: int, config: GameConfig, players: Iterable[int],
                 *, rng: Rng, depth: int = 0, parent: Game | None = None) -> None:
        self.table = table
        self.number = number
        self.config = config
        self.rng = rng
        self.depth = depth
        self.parent = parent
        participants = set(players)
        self.seats: list[int] = [p for p in config.seat_order if p in participants]
        self.players: dict[int, PlayerState] = {p: PlayerState(p, config.starting_life(p))
                                                 for p in self.seats}
        self.zones: dict[tuple[str, int | None], list[Obj]] = {}
        for p in self.seats:
            for z in PLAYER_ZONES:
                self.zones[(z, p)] = []
        for z in (BATTLEFIELD, EXILE, STACK, COMMAND):
            self.zones[(z, None)] = []
        self.objects: dict[int, Obj] = {}
        self.tokens: set[int] = set()  # ids of token objects, for CR 704.5d without a scan
        # Has any object of this game an activated ability that works from a graveyard (CR
        # 113.6m)? Until one has, the legal actions needn't look through the graveyards.
        self.yard_abilities = False
        self.turn = 0
        self.active = -1
        self.step = SETUP
        self.priority: int | None = None
        self.starting_player = -1
        # Read through :attr:`effects`; the characteristics' hot paths read ``continuous``
        # itself, which skips the property's cost (it is the same list).
        self.continuous = EffectList(self.invalidate_chars)
        # A permanent's characteristics through the layers (layers.py), for the whole
        # battlefield; None when something they depend on changed since they were computed.
        # ``chars_shown`` is what the views were last told (see :meth:`settle_chars`).
        self.chars: dict[int, Chars] | None = None
        # Whether ``chars`` read a library, and whether they are being computed (compute).
        self.chars_read_library = False
        self.computing_chars = False
        self.chars_shown: dict[int, Chars] = {}
        self.chars_settled_at = -1  # ``dirty.changes`` after the last settle_chars
        # Hidden cards a static ability keeps revealed, as the views were last told
        # (reveals.py).
        self.revealed: frozenset[int] = frozenset()
        self.last_chars: dict[int, Chars] = {}  # of permanents that left (layers.py)
        self.pending_triggers: list[Obj] = []
        self.passed: set[int] = set()
        self.ranges: dict[int, frozenset[int]] | None = None  # CR 801.2c, fixed each turn
        self.range_limits = {p: r for p, r in config.ranges().items() if p in participants}
        self.limited_range = any(r is not None for r in self.range_limits.values())
        self.result: GameResult | None = None
        self.outcomes: dict[int, PlayerOutcome] = {}
        self.departed_cards: dict[int, list[Card]] = {}
        self.pending: Decision | None = None
        self.flow: Flow | None = None
        self.suspended = False
        self.dirty = DirtyKeys()  # and ``dirty.changes``, the count of changes (state.py)
        self.log: list[str] = []
        self._order = 0
        self.version = 0  # bumps on every game action; intentional-draw offers lapse with it
        self.draw_offer: tuple[int, frozenset[int], int] | None = None  # (proposer, accepted, ver)
        self.attack_plan: list[tuple[int, Ref]] = []  # attacks chosen, not yet declared
        self.block_plan: list[tuple[int, int]] = []
        self.loop_seen: set[Any] = set()
        self.loop_objects: set[int] = set()  # controllers of objects seen in a forced streak
        self.triggered_watchers: list[Obj] = []  # battlefield objects with triggered abilities
        self.delayed_triggers: list[Obj] = []  # waiting for their event (delayed.py, CR 603.7)
        self.lands_played: dict[int, int] = {}
        # CR 500.7: extra turns to come, a stack: the last added is taken first. A restart
        # starts a new Game, so pending extra turns don't survive it (docs/rulings.md).
        self.extra_turns: list[int] = []
        self.restart_followup: tuple[int, list[Card]] | None = None  # CR 724.4
        self.commander_moved: set[int] = set()  # CR 903.9a: commanders newly in gy/exile
        # ``dirty.changes`` when the last state-based action check found nothing at all to do
        # (sba.py): until the game changes, another would find nothing either, so sba.check
        # skips it (-1: the last check found something).
        self.sba_idle_at = -1
        # The last check's layers table and the legendary and attached permanents it saw
        # (sba._to_examine: what lets the next look only at the permanents marked since).
        self.sba_kept: tuple[dict[int, Chars] | None, set[int], set[int]] | None = None
        # Each player's last legal-action list at priority, with what it was computed from
        # (casting.priority_actions reuses it while that stands).
        self.legal_actions: dict[int, tuple[tuple[int, ...], list[Action]]] = {}
        # Each player's mana sources, with the change count and turn they were found at
        # (casting.mana_sources).
        self.sources_kept: dict[int, tuple[tuple[int, int], tuple[tuple[int, str], ...]]] = {}
        # And the mana actions of the last list, by the mana sources they were made from.
        self.mana_actions: dict[int, tuple[tuple[tuple[int, str], ...],
                                           list[tuple[str, int, int]]]] = {}
        # The player whose act now being applied asked to pay its mana by hand (commands.Act
        # .manual): set by Table.act, read at once by casting.perform_priority_action.
        self.pay_by_hand: int | None = None
        # CR 805: who shares each player's turns, in the team's acting order (server/rules/
        # teams.py); CR 810.4, 810.10: who shares their life total and poison counters.
        self.team_turns = config.team_turns
        self.giant = config.giant
        self.turn_mates = acting_orders(config, self.seats) if self.team_turns else {}
        self.life_mates = acting_orders(config, self.seats) if config.giant else {}
        self.poison_limit = config.poison_limit()
        # Objects with static abilities that affect other objects or the game's rules
        # (battlefield permanents and functioning command-zone cards), for short loops.
        self.global_sources: list[Obj] = []
        self.planar_controller: int | None = None  # Planechase (CR 901.6)
        self.die_rolls: dict[int, int] = {}  # planar die rolled as a special action this turn
        # Grand Melee (CR 807): the turn markers and their turns. There, the turn fields
        # above (melee.TURN_FIELDS: turn, active, step, priority, passes, waiting triggers,
        # combat plans, lands played, loop watch) and the stack are the current turn's.
        self.melee: Melee | None = None
        self.stack_id = 0  # the stack new stack objects go on (0: the game's only stack)

    # ------------------------------------------------------------------ continuous effects

    @property
    def effects(self) -> EffectList:
        """Continuous effects from resolved spells and abilities (CR 611.2)."""
        return self.continuous

    @effects.setter
    def effects(self, effects: Iterable[Continuous]) -> None:
        new = EffectList(self.invalidate_chars, effects)
        old = self.continuous
        if len(new) == len(old) and all(a is b for a, b in zip(new, old, strict=True)):
            # The same effects (a filter that took none away, as each cleanup step's "until
            # end of turn" one mostly does): nothing the layers read changed, so the
            # computed characteristics stand.
            return
        self.continuous = new
        self.invalidate_chars()

    def invalidate_chars(self) -> None:
        """Something layered characteristics depend on changed: compute them afresh when next
        asked. It is a change of the game even where no view key marks it (the library's
        order, an effect's end)."""
        self.chars = None
        self.dirty.changes += 1

    def changed(self) -> None:
        """Count a change of the game that marks no view key (a player's action: the planar
        die's roll count, CR 901.9), so the lists kept by ``dirty.changes`` are computed
        afresh."""
        self.dirty.changes += 1

    def _keep_last_chars(self, obj: Obj) -> None:
        """A permanent is leaving: keep its layered characteristics as last known information
        (CR 608.2h) for its abilities still to resolve and its damage still to be dealt."""
        table = self.chars
        if table is None:
            table = self.chars = compute(self)
        last = table.get(obj.oid)
        if last is not None:
            self.last_chars[obj.oid] = last

    def settle_chars(self) -> None:
        """Before a decision is shown: mark the view keys of every permanent whose layered
        characteristics changed since the views were last told. Most changes mark their
        objects themselves; this catches what changes at a distance (a Swamp entering changes
        a creature whose power counts Swamps)."""
        if self.dirty.changes == self.chars_settled_at:
            return  # the game hasn't changed since the last settle (a pass): nothing to mark
        self._settle_chars()
        self.chars_settled_at = self.dirty.changes  # after the keys the settle marked

    def _settle_chars(self) -> None:
        reveals.settle(self)  # and the hidden cards a static ability reveals
        if not (self.continuous or self.global_sources or self.chars_shown):
            return
        current = self.chars
        if current is None:
            layered = bool(self.effects or self.global_sources)
            current = compute(self) if layered else {}
            if layered:
                self.chars = current
        shown = self.chars_shown
        if current is shown:
            return
        for oid in shown.keys() | current.keys():
            if shown.get(oid) != current.get(oid) and oid in self.objects:
                self.dirty.add(oid)
        self.chars_shown = current

    # ------------------------------------------------------------------ players

    @property
    def multiplayer(self) -> bool:
        """CR 800.1: this game began with more than two players."""
        return len(self.seats) > 2

    @property
    def names(self) -> dict[int, str]:
        return {p: self.config.players[p].name for p in self.config.seat_order}

    def name(self, pid: int) -> str:
        return self.config.players[pid].name

    def in_game(self, pid: int) -> bool:
        ps = self.players.get(pid)
        return ps is not None and ps.in_game

    def players_in_game(self) -> list[int]:
        """Players still in the game, in seating (turn) order."""
        return [p for p in self.seats if self.players[p].in_game]

    def next_player(self, pid: int) -> int | None:
        """The next player in turn order (to ``pid``'s left) who is still in the game."""
        n = len(self.seats)
        i = self.seats.index(pid)
        for k in range(1, n + 1):
            q = self.seats[(i + k) % n]
            if self.players[q].in_game:
                return q
        return None

    def first_in_game_from(self, pid: int) -> int | None:
        """``pid`` if still in the game, else the next player in turn order who is."""
        return pid if self.in_game(pid) else self.next_player(pid)

    def apnap(self) -> list[int]:
        """Players in game in APNAP order (CR 101.4): the active player first, then turn order."""
        order = self.players_in_game()
        if self.active in self.seats:
            i = self.seats.index(self.active)
            rotated = self.seats[i:] + self.seats[:i]
            order = [p for p in rotated if self.players[p].in_game]
        return order

    def is_active(self, pid: int) -> bool:
        """Is it ``pid``'s turn: are they the active player, or on the active team (CR 805.4a)?"""
        if pid == self.active:
            return True
        return self.team_turns and pid in self.turn_mates.get(self.active, ())

    def team(self, pid: int) -> int | None:
        return self.config.team_of(pid)

    def teammates(self, pid: int) -> list[int]:
        t = self.team(pid)
        if t is None:
            return []
        return [q for q in self.seats if q != pid and self.config.team_of(q) == t]

    @property
    def everyone(self) -> list[int]:
        """Every player this game's result speaks for: for a main game (restarted or not) all
        the table's players, for a subgame its participants."""
        return list(self.config.seat_order) if self.depth == 0 else list(self.seats)

    def team_members(self, pid: int) -> list[int]:
        """``pid`` and their teammates among :attr:`everyone`."""
        t = self.team(pid)
        if t is None:
            return [pid]
        return [q for q in self.everyone if self.config.team_of(q) == t]

    def are_opponents(self, a: int, b: int) -> bool:
        if a == b:
            return False
        t = self.team(a)
        return t is None or t != self.team(b)

    def opponents(self, pid: int) -> list[int]:
        return [q for q in self.players_in_game() if self.are_opponents(pid, q)]

    # ------------------------------------------------------------------ range of influence

    def compute_ranges(self) -> None:
        """CR 801.2c: who is within each player's range is fixed as each turn begins. Distance
        counts seats of players still in the game (801.2c's example)."""
        if not self.limited_range:
            self.ranges = None
            return
        live = self.players_in_game()
        n = len(live)
        ranges: dict[int, frozenset[int]] = {}
        for p in live:
            limit = self.range_limits.get(p)
            if limit is None:
                ranges[p] = frozenset(live)
                continue
            i = live.index(p)
            members = {p}
            for k in range(1, limit + 1):
                members.add(live[(i + k) % n])
                members.add(live[(i - k) % n])
            ranges[p] = frozenset(members)
        self.ranges = ranges
        self.dirty.add("r")

    def in_range(self, a: int, b: int) -> bool:
        """Is player ``b`` within player ``a``'s range of influence (CR 801.2)?"""
        if self.ranges is None or a == b:
            return True
        r = self.ranges.get(a)
        if r is None:  # a joined the range map late (cannot happen) or left: no reach
            return False
        return b in r

    def obj_in_range(self, pid: int, obj: Obj) -> bool:
        """CR 801.2d: an object is in range when its controller is."""
        return self.ranges is None or self.in_range(pid, obj.controller)

    def ref_in_range(self, pid: int, ref: Ref) -> bool:
        if self.ranges is None:
            return True
        if ref[0] == "p":
            return self.in_range(pid, ref[1])
        obj = self.objects.get(ref[1])
        return obj is not None and self.obj_in_range(pid, obj)

    def players_in_range(self, pid: int) -> list[int]:
        return [q for q in self.players_in_game() if self.in_range(pid, q)]

    # ------------------------------------------------------------------ zones and objects

    def zone(self, zone: str, pid: int | None = None) -> list[Obj]:
        return self.zones[(zone, pid if zone in PLAYER_ZONES else None)]

    def library(self, pid: int) -> list[Obj]:
        if self.computing_chars:
            self.chars_read_library = True  # the layers read a library (layers.compute)
        return self.zones[(LIBRARY, pid)]

    def hand(self, pid: int) -> list[Obj]:
        return self.zones[(HAND, pid)]

    def graveyard(self, pid: int) -> list[Obj]:
        return self.zones[(GRAVEYARD, pid)]

    @property
    def battlefield(self) -> list[Obj]:
        return self.zones[(BATTLEFIELD, None)]

    @property
    def stack(self) -> list[Obj]:
        """The stack of the turn being played (in Grand Melee, one of several: CR 807.5)."""
        return self.zones[(STACK, None)]

    def stack_objects(self) -> list[Obj]:
        """Every object on every stack."""
        if self.melee is None:
            return self.stack
        return self.melee.stack_objects()

    @property
    def exile(self) -> list[Obj]:
        return self.zones[(EXILE, None)]

    @property
    def command(self) -> list[Obj]:
        return self.zones[(COMMAND, None)]

    def max_hand_size(self, pid: int) -> int | None:
        """CR 402.2 / 514.1: seven as modified by a vanguard (902.5b), or None when an effect
        says the player has no maximum hand size."""
        if self.players[pid].no_max_hand or any(
                e.kind == "no_max_hand" and e.player == pid for e in self.effects) or (
                self.global_sources and no_maximum_hand_size(self, pid)):
            return None
        return self.config.hand_size_of(pid)

    def planar_deck(self, pid: int) -> list[Obj]:
        """``pid``'s planar deck, bottom card first (CR 901.3)."""
        return self.zones[(PLANAR_DECK, pid)]

    def scheme_deck(self, pid: int) -> list[Obj]:
        """``pid``'s scheme deck, bottom card first (CR 904.3)."""
        return self.zones[(SCHEME_DECK, pid)]

    def permanents(self) -> Iterator[Obj]:
        """Phased-in permanents (phased-out ones are treated as if absent, CR 702.26b)."""
        return (o for o in self.battlefield if not o.phased_out)

    def creatures(self) -> list[Obj]:
        return [o for o in self.battlefield if not o.phased_out and is_type(self, o, "Creature")]

    def _zone_changed(self, zone: str) -> None:
        """An object entered or left ``zone``. The layers (layers.py) read the battlefield,
        and of the other zones only a library's top card (a lord's "as long as the top card
        of your library is ...", a global source's static ability), through
        :meth:`library`, which records whether the layers last computed did: a card drawn,
        cast or discarded leaves the layered characteristics as they were, and so does a
        card drawn from a library they didn't read."""
        if zone == BATTLEFIELD or (zone == LIBRARY and self.chars_read_library):
            self.chars = None

    def _mark_zone(self, zone: str, zone_owner: int | None) -> None:
        if zone_owner is not None:
            self.dirty.add(("p", zone_owner))

    def new_object(self, defn: CardDef, owner: int, controller: int, zone: str,
                   *, card: Card | None = None, position: int | None = None,
                   zone_owner: int | None = None) -> Obj:
        """Create an object in ``zone``; ``position`` is an index (None: on top / at the end)."""
        oid = self.table.new_oid()
        self.table.timestamp += 1
        self._order += 1
        zo = (zone_owner if zone_owner is not None else owner) if zone in PLAYER_ZONES else None
        obj = Obj(oid=oid, defn=defn, owner=owner, controller=controller, zone=zone,
                  zone_owner=zo, card=card, order=self._order, base_controller=controller,
                  timestamp=self.table.timestamp, since=self.table.timestamp)
        if zone == STACK:
            obj.stack_id = self.stack_id
        lst = self.zones[(zone, zo)]
        if position is None:
            lst.append(obj)
        else:
            lst.insert(position, obj)
        self.objects[oid] = obj
        self._zone_changed(zone)
        if defn.graveyard_abilities:
            self.yard_abilities = True
        if defn.token:
            self.tokens.add(oid)
        if zone == COMMAND and defn.supplementary:
            self._functions(obj)  # CR 901.7, 902.7, 904.8: its abilities work from there
        self.dirty.add(oid)
        self._mark_zone(zone, zo)
        return obj

    def remove_object(self, obj: Obj) -> None:
        """Take ``obj`` out of its zone (and, from the battlefield, out of combat and out of
        the control calculation), whatever moves it: a zone change, a player leaving, a card
        taken into a subgame."""
        if obj.stack_id and self.melee is not None:
            lst = self.melee.stack(obj.stack_id)
        else:
            lst = self.zones[(obj.zone, obj.zone_owner)]
        lst.remove(obj)
        if obj.zone == BATTLEFIELD and (self.continuous or self.global_sources):
            self._keep_last_chars(obj)
        del self.objects[obj.oid]
        self._zone_changed(obj.zone)
        self.tokens.discard(obj.oid)
        self.dirty.add(obj.oid)
        self._mark_zone(obj.zone, obj.zone_owner)
        if obj in self.triggered_watchers:
            self.triggered_watchers.remove(obj)
        if obj in self.global_sources:
            self.global_sources.remove(obj)
            self.statics_changed()
        if obj.zone == BATTLEFIELD:
            self._left_battlefield(obj)

    def discard(self, card: Obj, *, how: str = "") -> None:
        """``card`` goes from its owner's hand to their graveyard (CR 701.8), and the log
        says so (``how``: " at random")."""
        self.move(card, GRAVEYARD, cause="discard")
        self.say(f"{self.name(card.owner)} discards {card.name}{how}.")

    def move(self, obj: Obj, zone: str, *, position: int | None = None,
             controller: int | None = None, tapped: bool = False,
             cause: str = "", copy_of: CardDef | None = None) -> Obj | None:
        """Move ``obj`` to ``zone``: it becomes a new object with a new id (CR 400.7).

        Returns the new object, or None when it ceased to exist (an ability, or a token moving
        anywhere but the battlefield or exile, which CR 704.5d would remove at the next check
        in any case). Cards go to their owner's library, hand and graveyard (CR 400.3).
        """
        old_zone = obj.zone
        instead = zone == GRAVEYARD and shuffled_in_instead(obj)
        if instead:
            zone, position = LIBRARY, None  # CR 614.1a, 614.6: this happens instead
        self.remove_object(obj)
        if obj.card is None and (obj.is_ability or not obj.is_token):
            self.emit("zone_change", obj=obj, new=None, from_zone=old_zone, to_zone=zone)
            return None
        ctrl = controller if controller is not None else obj.owner
        # CR 400.7: the new object is its card again, whatever it was a copy of; or, entering
        # as a copy, it has the copiable values chosen (CR 707.2, layer 1).
        defn = copy_of or (obj.card.defn if obj.card is not None else obj.defn)
        new = self.new_object(defn, obj.owner, ctrl, zone, card=obj.card, position=position)
        if zone == GRAVEYARD and obj.card is not None:
            self.players[obj.owner].to_graveyard_this_turn += 1
        if zone == BATTLEFIELD:
            new.tapped = tapped
            self._entered_battlefield(new, obj.x if old_zone == STACK else 0)
        elif new.is_commander and zone in (GRAVEYARD, EXILE):
            self.commander_moved.add(new.oid)
        self.emit("zone_change", obj=obj, new=new, from_zone=old_zone, to_zone=zone, cause=cause)
        if instead:
            self.say(f"{obj.name} is revealed and shuffled into its owner's library instead.")
            self.shuffle(obj.owner)
        if cause in _PLAYER_ACTS and obj.zone_owner is not None:  # "whenever a player draws"
            self.emit(_PLAYER_ACTS[cause], player=obj.zone_owner, obj=new)
        return new

    def _left_battlefield(self, obj: Obj) -> None:
        if obj.defn.statics or obj.attached_to is not None:
            self.control_changed()
        # Remove it from combat.
        for o in self.battlefield:
            if o.also_blocking and obj.oid in (o.blocking, *o.also_blocking):
                rest = [a for a in (o.blocking, *o.also_blocking)
                        if a is not None and a != obj.oid]
                o.blocking, o.also_blocking = rest[0], tuple(rest[1:])  # blocks the others still
                self.dirty.add(o.oid)
            elif o.blocking == obj.oid:
                o.blocking = None
                self.dirty.add(o.oid)

    def _entered_battlefield(self, obj: Obj, x: int = 0) -> None:
        for st in obj.defn.statics:
            if isinstance(st, EntersTapped):  # CR 614.1c-d replacement on entering
                obj.tapped = True
            elif isinstance(st, EntersTappedUnlessControl):
                obj.tapped = obj.tapped or not controls_one_of(self, obj, st.land_types)
            elif isinstance(st, EntersWithCounters):  # CR 614.1c; X is the spell's (107.3m)
                n = st.amount if isinstance(st.amount, int) else x
                if n > 0:
                    obj.counters[st.kind] = obj.counters.get(st.kind, 0) + n
        if obj.defn.loyalty is not None:
            obj.counters["loyalty"] = obj.defn.loyalty  # CR 306.5b
        if any(isinstance(a, Triggered) for a in obj.defn.abilities):
            self.triggered_watchers.append(obj)
        if obj.defn.global_statics:
            self.global_sources.append(obj)
            self.statics_changed()
        if obj.defn.statics:
            self.control_changed()

    def _functions(self, obj: Obj) -> None:
        """A face-up nontraditional card in the command zone: its triggered abilities watch
        and its static abilities apply."""
        if any(isinstance(a, Triggered) for a in obj.defn.abilities):
            self.triggered_watchers.append(obj)
        if obj.defn.global_statics:
            self.global_sources.append(obj)
            self.statics_changed()

    def statics_changed(self) -> None:
        """A static ability that changes creatures or players began or stopped applying: every
        creature's power, toughness and keywords, and each player's maximum hand size, may
        differ now (for the views)."""
        self.chars = None
        for o in self.battlefield:
            if o.defn.is_("Creature"):
                self.dirty.add(o.oid)
        for p in self.seats:  # a player's maximum hand size may have changed (CR 402.2)
            self.dirty.add(("p", p))

    def enter_silently(self, obj: Obj) -> None:
        """Set up a permanent placed by a scenario: its static abilities apply and its
        triggered abilities watch, but nothing treats it as having just entered."""
        counters = dict(obj.counters)
        self._entered_battlefield(obj)
        if counters:
            obj.counters.update(counters)

    def put_onto_battlefield(self, obj: Obj, controller: int, *, cause: str = "",
                             cast_from_hand: bool = False, tapped: bool = False,
                             copy_of: CardDef | None = None) -> Obj | None:
        """Put a card onto the battlefield under ``controller``'s control, as a copy of
        ``copy_of`` when given; CR 800.4b: if that player has left the game it stays where it
        is."""
        if not self.in_game(controller):
            return None
        new = self.move(obj, BATTLEFIELD, controller=controller, cause=cause, tapped=tapped,
                        copy_of=copy_of)
        if new is not None:
            new.cast_from_hand = cast_from_hand
            self.emit("enters", obj=new, cast_from_hand=cast_from_hand)
        return new

    def create_token(self, defn: CardDef, controller: int) -> Obj | None:
        """CR 111; CR 800.4b: no token is created for a player who has left the game."""
        if not self.in_game(controller):
            return None
        tok = self.new_object(defn, controller, controller, BATTLEFIELD)
        self._entered_battlefield(tok)
        self.emit("enters", obj=tok, cast_from_hand=False)
        return tok

    def shuffle(self, pid: int) -> None:
        self.rng.shuffle(self.library(pid))
        self.invalidate_chars()  # an ability may read the top card (reveals.top_card_is)

    # ------------------------------------------------------------------ object status

    def set_tapped(self, obj: Obj, tapped: bool) -> None:
        if obj.tapped == tapped:
            return
        obj.tapped = tapped
        self.dirty.add(obj.oid)
        self.emit("tapped" if tapped else "untapped", obj=obj)

    def add_counters(self, obj: Obj, kind: str, n: int) -> None:
        if n <= 0:
            return
        obj.counters[kind] = obj.counters.get(kind, 0) + n
        self.chars = None
        self.dirty.add(obj.oid)

    def remove_counters(self, obj: Obj, kind: str, n: int) -> int:
        have = obj.counters.get(kind, 0)
        take = min(have, max(n, 0))
        if not take:
            return 0
        if have - take:
            obj.counters[kind] = have - take
        else:
            del obj.counters[kind]
        self.chars = None
        self.dirty.add(obj.oid)
        self.emit("counters_removed", obj=obj, kind=kind, amount=take, left=have - take)
        return take

    def mark_damage(self, obj: Obj, n: int) -> None:
        obj.damage += n
        self.dirty.add(obj.oid)

    def touch(self, obj: Obj) -> None:
        if obj.zone == BATTLEFIELD:
            self.chars = None  # whatever changed about it may change characteristics
        self.dirty.add(obj.oid)

    # ------------------------------------------------------------------ players' numbers

    def _sharers(self, pid: int) -> tuple[int, ...]:
        """CR 810.9, 810.10: life gained or lost and poison counters given happen to ``pid``
        and are applied to their team's shared totals, which every member's record carries."""
        return self.life_mates.get(pid, (pid,))

    def gain_life(self, pid: int, n: int) -> None:
        if n <= 0 or not self.in_game(pid):
            return
        for q in self._sharers(pid):
            self.players[q].life += n
            self.dirty.add(("p", q))
        self._life_changed()
        self.emit(GAINS_LIFE, player=pid, amount=n)  # "whenever you gain life"

    def lose_life(self, pid: int, n: int) -> int:
        """``pid`` loses ``n`` life; returns the life ``pid`` lost."""
        if n <= 0 or not self.in_game(pid):
            return 0
        for q in self._sharers(pid):
            self.players[q].life -= n
            self.dirty.add(("p", q))
        self._life_changed()
        return n

    def _life_changed(self) -> None:
        """A characteristic may be defined by a life total (CR 604.3: "power and toughness
        are each equal to your life total"): with any static of that kind around, a change of
        life drops the layered characteristics."""
        if self.global_sources:
            self.chars = None

    def add_poison(self, pid: int, n: int) -> None:
        if n <= 0 or not self.in_game(pid):
            return
        for q in self._sharers(pid):
            self.players[q].poison += n
            self.dirty.add(("p", q))

    def touch_player(self, pid: int) -> None:
        self.dirty.add(("p", pid))

    def add_mana(self, pid: int, color: str, n: int = 1) -> None:
        pool = self.players[pid].mana
        pool[color] = pool.get(color, 0) + n
        self.dirty.add_pool(pid)

    def empty_mana_pools(self) -> None:
        """CR 500.4: unused mana empties at the end of each step and phase."""
        for pid, ps in self.players.items():
            if ps.mana:
                ps.mana.clear()
                self.dirty.add_pool(pid)

    # ------------------------------------------------------------------ static abilities

    def control_changed(self) -> None:
        """Recompute every permanent's controller from base control plus control effects in
        timestamp order (CR 613.2: layer 2)."""
        self.invalidate_chars()  # attachments and phasing come here too
        bf = self.battlefield
        by_oid = {o.oid: o for o in bf}
        wanted = {o.oid: o.base_controller for o in bf}
        layer2: list[tuple[int, int, int]] = []  # (timestamp, object, new controller)
        for eff in self.effects:
            if eff.kind == "control" and eff.affected in by_oid and eff.player is not None:
                layer2.append((eff.timestamp, eff.affected, eff.player))
        for aura in bf:
            if aura.phased_out or aura.attached_to not in by_oid:
                continue
            if any(isinstance(s, ControlEnchanted) for s in aura.defn.statics):
                layer2.append((aura.timestamp, aura.attached_to, aura.controller))
        for _, oid, ctrl in sorted(layer2):
            wanted[oid] = ctrl
        for oid, ctrl in wanted.items():
            obj = by_oid[oid]
            if obj.controller != ctrl:
                obj.controller = ctrl
                self.table.timestamp += 1
                obj.since = self.table.timestamp  # CR 302.6: a new controller's creature is new
                self.dirty.add(oid)
                remove_from_combat(self, obj)  # CR 506.4: its controller changed

    def cant_lose(self, pid: int) -> bool:
        """Does an effect say ``pid`` can't lose the game (Platinum Angel, Abyssal Persecutor)?"""
        return self._prevented(pid, CantLose)

    def cant_win(self, pid: int) -> bool:
        return self._prevented(pid, CantWin)

    def _prevented(self, pid: int, kind: type[CantLose] | type[CantWin]) -> bool:
        """A "can't lose" / "can't win" static ability applying to ``pid``: its own ("you")
        or an opponent's ("your opponents"), which reaches only players in its controller's
        range (CR 801.10). In Two-Headed Giant what applies to a player applies to the team
        (CR 810.8a)."""
        team = self._sharers(pid)
        for o in self.permanents():
            for st in o.defn.statics:
                if not isinstance(st, kind):
                    continue
                if st.who == "you" and o.controller in team:
                    return True
                if (st.who == "opponents" and self.are_opponents(o.controller, pid)
                        and self.in_range(o.controller, pid)):
                    return True
        return False

    # ------------------------------------------------------------------ events and log

    def say(self, text: str, kind: str = "log", **data: Any) -> None:
        self.log.append(text)
        self.table.events.append(Event(kind, text, data, self.number))

    def emit(self, event: str, **data: Any) -> None:
        """A game event: triggered abilities look at it (CR 603.2)."""
        # A permanent leaving the battlefield is no longer watched, yet its own
        # leaves-the-battlefield abilities still trigger (CR 603.10a).
        if self.triggered_watchers or self.delayed_triggers or (
                event == "zone_change" and data["from_zone"] == BATTLEFIELD):
            check_triggers(self, event, data)

    # ------------------------------------------------------------------ view bookkeeping

    def set_step(self, step: str) -> None:
        self.step = step
        self.dirty.add("t")

    def bump_version(self) -> None:
        self.version += 1
        if self.draw_offer is not None:
            self.draw_offer = None  # CR 104.4i: an offer lapses when the game state changes
            self.dirty.add("d")


# At the end: triggers.py needs the game's module (through resolve), and an import in emit
# ran for every event.
from .triggers import check_triggers  # noqa: E402
