"""The pieces a game is made of: physical cards, game objects, players, effects, decisions.

A :class:`Card` is the physical card: it belongs to the table, keeps its owner for life and
moves between games (subgames, restarts). A :class:`Obj` is a game object: a card in some zone
of one game, a token, or an ability on the stack. When a card changes zones it becomes a new
object with a new id (CR 400.7), so object ids never let anyone follow a hidden card.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from copy import copy
from dataclasses import dataclass, field
from typing import Any

from .cards.vocab import Activated, CardDef, Keyword, Triggered

# Zones (CR 400.1). "outside" is a player's cards outside the game (the sideboard, CR 400.11).
LIBRARY = "library"
HAND = "hand"
BATTLEFIELD = "battlefield"
GRAVEYARD = "graveyard"
EXILE = "exile"
STACK = "stack"
COMMAND = "command"
PRIVATE_ZONES = (LIBRARY, HAND, GRAVEYARD)  # one per player
# Supplementary decks: face-down piles of nontraditional cards, one of each per player. By the
# rules they are in the command zone (CR 901.4, 904.4); the engine keeps each as a pile of its
# own so that, like a library, its order and contents are hidden and only its size is shown.
PLANAR_DECK = "planar_deck"
SCHEME_DECK = "scheme_deck"
PILES = (PLANAR_DECK, SCHEME_DECK)
PLAYER_ZONES = (*PRIVATE_ZONES, *PILES)
HIDDEN_ZONES = (LIBRARY, *PILES)  # zones nobody may look into

# Steps (CR 500-514), in order.
UNTAP, UPKEEP, DRAW = "untap", "upkeep", "draw"
MAIN1, BEGIN_COMBAT, ATTACKERS, BLOCKERS, DAMAGE, END_COMBAT = (
    "main1", "begin_combat", "declare_attackers", "declare_blockers", "combat_damage",
    "end_combat",
)
# The extra combat damage step that comes first when a creature in combat has first strike or
# double strike (CR 510.4); the regular one follows it.
FIRST_STRIKE_DAMAGE = "first_strike_damage"
MAIN2, END, CLEANUP = "main2", "end", "cleanup"
STEPS = (UNTAP, UPKEEP, DRAW, MAIN1, BEGIN_COMBAT, ATTACKERS, BLOCKERS, FIRST_STRIKE_DAMAGE,
         DAMAGE, END_COMBAT, MAIN2, END, CLEANUP)
MAIN_PHASES = (MAIN1, MAIN2)
SETUP = "setup"  # before the first turn: starting player, mulligans (CR 103)

# A target or affected thing: ("p", player id) or ("o", object id).
Ref = tuple[str, int]


@dataclass(eq=False, slots=True)
class Card:
    """A physical card. ``cid`` is secret: it never leaves the server."""

    cid: int
    owner: int
    defn: CardDef
    commander: bool = False

    @property
    def name(self) -> str:
        return self.defn.name


@dataclass(eq=False, slots=True)
class Obj:
    """A game object (CR 109): a card in a zone, a token, or a spell or ability on the stack."""

    oid: int
    defn: CardDef
    owner: int
    controller: int
    zone: str
    zone_owner: int | None  # whose library/hand/graveyard; None for shared zones
    card: Card | None = None  # None for tokens and abilities
    stack_id: int = 0  # Grand Melee: the turn marker whose stack it is on (CR 807.5)
    order: int = 0  # arrival order in its zone; clients sort by it (graveyard, stack)
    base_controller: int = -1  # controller before control-changing effects (CR 613.2)
    timestamp: int = 0
    since: int = 0  # timestamp at which its controller last changed (CR 302.6)
    tapped: bool = False
    damage: int = 0
    # Dealt damage by a source with deathtouch since state-based actions were last checked
    # (CR 704.5h); the check clears it.
    deathtouched: bool = False
    counters: dict[str, int] = field(default_factory=dict)
    attached_to: int | None = None
    phased_out: bool = False
    phased_indirectly: bool = False
    cast_from_hand: bool = False  # as a spell, or for the permanent it became (CR 400.7 exception)
    linked: list[int] = field(default_factory=list)  # card ids exiled with this (CR 607)
    loyalty_turn: int = -1  # turn a loyalty ability of this was last activated (CR 606.3)
    chosen_player: int | None = None  # a player chosen for this permanent (ChooseOpponent)
    chosen: str = ""  # a basic land type chosen as it entered (ChooseBasicLandType)
    # (turn, ability index) -> how many times it was activated that turn (activations.py)
    activated: dict[tuple[int, int], int] = field(default_factory=dict)
    chosen_name: str = ""  # a card name chosen as it entered (ChooseCardName)
    # Stack objects that are abilities:
    ability: Activated | Triggered | None = None
    ability_index: int = -1
    source: Obj | None = None  # the source as it last existed (last known information)
    targets: list[Ref] = field(default_factory=list)
    event: dict[str, Any] = field(default_factory=dict)  # what triggered it
    # Spells on the stack: the X announced as it was cast (CR 107.3a; 0 elsewhere, 107.3g),
    # and whether it is a copy (CR 707.10), which no physical card stands behind.
    x: int = 0
    is_copy: bool = False
    # How much of an amount divided among the targets each gets, in target order (CR 601.2d).
    division: tuple[int, ...] = ()
    # Combat
    attacking: Ref | None = None
    blocking: int | None = None  # attacker object id
    also_blocking: tuple[int, ...] = ()  # more attackers it blocks (CR 509.1a, Palace Guard)
    blocked: bool = False
    combat_turn: int = 0  # the turn whose combat it attacks in (Grand Melee has several)

    @property
    def name(self) -> str:
        return self.defn.name

    @property
    def is_token(self) -> bool:
        return self.defn.token

    @property
    def is_ability(self) -> bool:
        return self.ability is not None

    @property
    def is_commander(self) -> bool:
        return self.card is not None and self.card.commander

    def counter(self, kind: str) -> int:
        return self.counters.get(kind, 0)


@dataclass(eq=False, slots=True)
class PlayerState:
    """A player as a participant in one game; each game (and subgame) has its own."""

    pid: int
    life: int
    in_game: bool = True
    poison: int = 0
    mana: dict[str, int] = field(default_factory=dict)
    land_plays: int = 0
    drew_from_empty: bool = False  # CR 704.5b
    mulligans: int = 0
    kept: bool = False
    commander_damage: dict[int, int] = field(default_factory=dict)  # commander cid -> damage
    commander_casts: dict[int, int] = field(default_factory=dict)  # CR 903.8 tax
    spells_cast: list[str] = field(default_factory=list)  # names, for Approach of the Second Sun
    turn_started: int = -1  # timestamp at which this player's most recent turn began
    damage_this_turn: int = 0  # damage dealt to this player this turn
    to_graveyard_this_turn: int = 0  # cards put into their graveyard this turn
    no_max_hand: bool = False  # "no maximum hand size for the rest of the game" (CR 402.2)


@dataclass(eq=False, slots=True)
class Continuous:
    """A continuous effect from a resolved spell or ability (CR 611.2)."""

    # control, keyword, prevent, prevent_combat, redirect, pt, no_max_hand, blank_chaos, and
    # the kinds only layers.py reads: set_pt, switch_pt, lose_abilities, color, add_color,
    # subtype, card_type
    # and the restrictions restriction_effects.py records: cant_block, unblockable,
    # must_attack, cant_cast, no_untap
    kind: str
    controller: int  # who controls the effect (CR 800.4a ends those of a departed player)
    timestamp: int
    duration: str
    affected: int | None = None  # object id
    player: int | None = None  # player gaining control / protected player
    keyword: Keyword = ""
    amount: int = 0
    target: Ref | None = None  # prevention shield or redirection source recipient
    redirect_to: Ref | None = None
    expires_turn_of: int | None = None  # for "until your next turn" (CR 800.4m)
    power: int = 0  # a "pt" effect's +power/+toughness (layer 7c)
    toughness: int = 0
    colors: str = ""  # a "color" effect's new colours, as letters (layer 5)
    subtype: str = ""  # the subtype a "subtype" effect, or card type a "card_type" one, adds
    # "For as long as ~ remains on the battlefield" (CR 611.2b): the object id it lasts with.
    while_on: int | None = None
    # A "text" effect's word and its replacement ("black", "red"; layer 3, CR 612).
    words: tuple[str, str] | None = None


class EffectList(list[Continuous]):
    """The game's continuous effects: a list that tells the game when it changes, since the
    layered characteristics computed from it (layers.py) must then be computed afresh. The
    engine only appends to it and replaces it whole (``Game.effects = [...]``)."""

    __slots__ = ("changed",)

    def __init__(self, changed: Callable[[], None], items: Iterable[Continuous] = ()) -> None:
        super().__init__(items)
        self.changed = changed

    def append(self, eff: Continuous) -> None:
        super().append(eff)
        self.changed()

    def extend(self, effs: Iterable[Continuous]) -> None:
        super().extend(effs)
        self.changed()

    def remove(self, eff: Continuous) -> None:
        super().remove(eff)
        self.changed()


# View keys whose marking changes nothing a legal-action list or a state-based check reads:
# who is to decide ("w"), a draw offer ("d"), the turn and step ("t": those readers key on the
# parts of it they read, the turn number, the active player and sorcery timing).
_QUIET_KEYS = frozenset(("w", "d", "t"))


class DirtyKeys(set[Any]):
    """``Game.dirty``: the view keys changed since the views were last told, and ``changes``,
    a count of the changes of game state that moves with every key marked (but the quiet
    ones above). Every change a player can see marks its key, so the count moves whenever
    the game changes; unlike ``Game.version`` it stays put when a player only passes
    priority, which lets the legal-action lists and the state-based check be kept while it
    stands still (casting.priority_actions, sba.check). The views' consumers clear the keys,
    never the counts.

    A change of a player's mana pool alone is counted apart, in ``pools``: only that
    player's own legal actions read their pool (what they can pay), and no state-based
    action does, so a pool emptying at the end of a step (CR 500.4) keeps the others'."""

    __slots__ = ("changes", "pools", "since_check")

    def __init__(self) -> None:
        super().__init__()
        self.changes = 0
        self.pools: dict[int, int] = {}
        # The keys (an object's is its id) marked since the state-based check last took
        # them (sba.py), which the views' clearing leaves alone.
        self.since_check: set[Any] = set()

    def add(self, key: Any) -> None:
        set.add(self, key)
        if key not in _QUIET_KEYS:
            self.changes += 1
            self.since_check.add(key)

    # A quiet key marked without ``add``'s test: the set's own method, no Python frame (who
    # decides is marked two or three times an action).
    add_quiet = set.add

    def add_pool(self, pid: int) -> None:
        """``pid``'s mana pool, and nothing else, changed (their view key is marked)."""
        set.add(self, ("p", pid))
        self.pools[pid] = self.pools.get(pid, 0) + 1


# The kinds of action whose index is a number the wire form shows ("n").
_COUNTED = frozenset(("amount", "x"))


# Not frozen, though nothing changes an action once made: a frozen dataclass's __init__ sets
# each field through object.__setattr__, three times the cost, and every legal-action list
# makes several (unsafe_hash keeps the hash by value that frozen gave).
@dataclass(slots=True, unsafe_hash=True)
class Action:
    """One legal action in a decision. Clients answer with its ``id``."""

    id: int
    kind: str
    label: str
    obj: int | None = None  # the object the action concerns
    ref: Ref | None = None  # a target, defender or chosen player/object
    index: int = -1  # ability index, or another small detail

    def to_wire(self) -> dict[str, Any]:
        # Asked of every action of every decision a bot or client is sent: each field read once.
        kind = self.kind
        out: dict[str, Any] = {"id": self.id, "kind": kind, "label": self.label}
        obj = self.obj
        if obj is not None:
            out["obj"] = obj
        ref = self.ref
        if ref is not None:
            out["ref"] = list(ref)
        if kind in _COUNTED:
            # How much damage (CR 510.1c), the value of X (107.3a), or a target's share of
            # divided damage (601.2d).
            out["n"] = self.index
        elif kind == "replacement":
            out["spends"] = bool(self.index)  # it uses up a shield (CR 615.7)
        return out


@dataclass(eq=False, slots=True)
class Decision:
    """Someone must choose one of ``actions`` now."""

    kind: str
    player: int
    prompt: str
    actions: list[Action]
    serial: int = 0
    game: int = 0
    stack: int | None = None  # Grand Melee: the turn marker (and stack) it is for (CR 807.5)

    @property
    def forced(self) -> bool:
        """No real choice: at most one option besides mana abilities (which cannot break a
        loop). Used to recognise loops of mandatory actions (CR 104.4b)."""
        seen = False
        for a in self.actions:  # stops at the second: asked of every decision acted on
            if a.kind != "mana":
                if seen:
                    return False
                seen = True
        return True

    def to_wire(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "serial": self.serial, "game": self.game, "kind": self.kind, "player": self.player,
            "prompt": self.prompt, "actions": [a.to_wire() for a in self.actions],
        }
        if self.stack is not None:
            out["stack"] = self.stack
        return out


class Refresh:
    """Sent into a game's flow after something changed out of turn (a concession): the pending
    decision is rebuilt from the current state."""

    def __repr__(self) -> str:
        return "REFRESH"


REFRESH = Refresh()


@dataclass(frozen=True, slots=True)
class SubgameRequest:
    """Yielded by a resolving Shahrazad: the table starts a subgame (CR 726.2)."""

    controller: int
    players: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class RestartRequest:
    """Yielded by a resolving restart effect (CR 724)."""

    controller: int
    exempt: tuple[int, ...]  # card ids left out of the new game (CR 724.5)


class GameEnded(Exception):
    """Raised inside a game's flow when the game has just ended; unwinds it."""


def last_known(obj: Obj) -> Obj:
    """Last known information about an object (CR 608.2h): a copy frozen as it is now, for
    abilities that look back at their source after it has changed or gone."""
    snap = copy(obj)
    snap.counters = dict(obj.counters)
    return snap
