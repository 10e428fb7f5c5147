"""The vocabulary cards are written in.

A card is a :class:`CardDef`: its characteristics plus abilities built from the small, closed set
of values below. The engine interprets these values; no card name appears in engine code. Each
effect, trigger and static ability is a frozen dataclass, so definitions are plain data that can
be compared, hashed and listed.

References (who or what an effect means) are :class:`Ref` values: ``YOU`` is the controller of
the spell or ability, ``Target(0)`` its first target, ``SELF`` its source, ``EVENT_*`` the
player or object named by the event that triggered it, ``CHOSEN`` the object most recently
chosen or found while the ability resolves.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property

from ..mana import COLORS, ManaCost

# --------------------------------------------------------------------------- keywords

# A keyword ability (CR 702) is a plain word, or, for the keywords that carry a parameter, a
# small value holding it (landwalk's land type, protection's quality). Either way ``str(kw)``
# is its name as players read it, which is also its form on the wire (the catalog's
# "keywords", a view's "kw") and in the state hash.

FLYING = "flying"
VIGILANCE = "vigilance"
HASTE = "haste"
TRAMPLE = "trample"
LIFELINK = "lifelink"
INFECT = "infect"
PHASING = "phasing"
DEATHTOUCH = "deathtouch"
DEFENDER = "defender"
DOUBLE_STRIKE = "double strike"
FIRST_STRIKE = "first strike"
FLASH = "flash"
HEXPROOF = "hexproof"
INDESTRUCTIBLE = "indestructible"
INTIMIDATE = "intimidate"
REACH = "reach"
SHROUD = "shroud"
KEYWORDS = frozenset({FLYING, VIGILANCE, HASTE, TRAMPLE, LIFELINK, INFECT, PHASING, DEATHTOUCH,
                      DEFENDER, DOUBLE_STRIKE, FIRST_STRIKE, FLASH, HEXPROOF, INDESTRUCTIBLE,
                      INTIMIDATE, REACH, SHROUD})


@dataclass(frozen=True, slots=True)
class Landwalk:
    """"[type]walk" (CR 702.14): the creature can't be blocked while the defending player
    controls a land of ``land_type`` (a land subtype: ``Landwalk("Swamp")`` is swampwalk)."""

    land_type: str

    def __str__(self) -> str:
        return f"{self.land_type.lower()}walk"


COLOR_NAMES = {"W": "white", "U": "blue", "B": "black", "R": "red", "G": "green"}
COLOR_WORDS = {word: letter for letter, word in COLOR_NAMES.items()}

# What a protection ability's quality is (CR 702.16a): a colour ("B"), a card type
# ("Creature": sources that are creatures), a subtype ("Demon"), or everything (702.16j).
COLOR, CARD_TYPE, SUBTYPE, EVERYTHING = "color", "type", "subtype", "everything"


@dataclass(frozen=True, slots=True)
class Protection:
    """"Protection from [quality]" (CR 702.16): one quality per ability; "protection from
    Demons and from Dragons" is two of them (702.16g). ``kind`` is one of ``COLOR``,
    ``CARD_TYPE``, ``SUBTYPE`` or ``EVERYTHING``; ``value`` the colour letter, card type or
    subtype (singular, as on type lines)."""

    kind: str
    value: str = ""

    def __post_init__(self) -> None:
        if self.kind not in (COLOR, CARD_TYPE, SUBTYPE, EVERYTHING):
            raise ValueError(f"unknown protection quality {self.kind!r}")
        if self.kind == COLOR and self.value not in COLOR_NAMES:
            raise ValueError(f"unknown colour {self.value!r}")

    def __str__(self) -> str:
        if self.kind == EVERYTHING:
            return "protection from everything"
        if self.kind == COLOR:
            return f"protection from {COLOR_NAMES[self.value]}"
        plural = self.value + ("es" if self.value.endswith(("s", "x", "ch", "sh")) else "s")
        return f"protection from {plural.lower() if self.kind == CARD_TYPE else plural}"


@dataclass(frozen=True, slots=True)
class Ward:
    """"Ward [cost]" (CR 702.21): whenever the permanent becomes the target of a spell or
    ability an opponent controls, that spell or ability is countered unless its controller
    pays ``cost`` (a mana cost: "{2}")."""

    cost: str

    def __str__(self) -> str:
        return f"ward {self.cost}"


Keyword = str | Landwalk | Protection | Ward

# --------------------------------------------------------------------------- card types

# CR 305.6: the basic land types, and the mana each one's intrinsic ability adds.
BASIC_LAND_MANA = {"Plains": "W", "Island": "U", "Swamp": "B", "Mountain": "R", "Forest": "G"}

# The card types of traditional cards (CR 300.1), as type lines spell them.
CARD_TYPES = frozenset({"Artifact", "Creature", "Enchantment", "Land", "Planeswalker", "Instant",
                        "Sorcery", "Battle", "Kindred"})

# Nontraditional card types (CR 311-314): they live in the command zone and are never part of a
# deck, a library or a sideboard (CR 100.2d).
PLANE = "Plane"
PHENOMENON = "Phenomenon"
SCHEME = "Scheme"
VANGUARD = "Vanguard"
PLANAR_TYPES = frozenset({PLANE, PHENOMENON})
SUPPLEMENTARY_TYPES = frozenset({PLANE, PHENOMENON, SCHEME, VANGUARD})
ONGOING = "Ongoing"  # the supertype of schemes that stay face up (CR 904.11)

# --------------------------------------------------------------------------- references


@dataclass(frozen=True, slots=True)
class Ref:
    """Who or what an effect refers to; see the module docstring."""

    kind: str
    index: int = 0

    def __repr__(self) -> str:
        return f"{self.kind}[{self.index}]" if self.kind == "target" else self.kind


YOU = Ref("you")
SELF = Ref("self")
EACH_PLAYER = Ref("each_player")
EACH_OPPONENT = Ref("each_opponent")
EVENT_PLAYER = Ref("event_player")
EVENT_OBJECT = Ref("event_object")
EVENT_OBJECT_CONTROLLER = Ref("event_object_controller")
EVENT_SOURCE_CONTROLLER = Ref("event_source_controller")  # of the source that dealt damage
ENCHANTED = Ref("enchanted")  # what this Aura or Equipment is attached to (CR 303.4m, 301.5f)
ENCHANTED_CONTROLLER = Ref("enchanted_controller")  # the controller of that permanent
CHOSEN = Ref("chosen")
CHOSEN_PLAYER = Ref("chosen_player")
EACH_OTHER_PLAYER = Ref("each_other_player")  # every player but you
OTHER_OPPONENTS = Ref("other_opponents")  # your opponents other than the first target
# The controller of the first target as the resolution began ("its controller" after the
# spell destroyed it: last known information, CR 608.2h).
TARGET_CONTROLLER = Ref("target_controller")
EACH_CREATURE = Ref("each_creature")  # every creature on the battlefield
EACH_CREATURE_WITH_FLYING = Ref("each_creature_with_flying")
EACH_CREATURE_WITHOUT_FLYING = Ref("each_creature_without_flying")
EACH_TARGET = Ref("each_target")  # every target of the spell ("among any number of targets")
# Every player but the one the event names ("each other player" of "whenever a player casts").
EACH_PLAYER_BUT_EVENT_PLAYER = Ref("each_player_but_event_player")
EACH_CREATURE_YOU_CONTROL = Ref("each_creature_you_control")
# "each creature that player or that planeswalker's controller controls": the first target is
# a player or a planeswalker; the creatures are those of that player or that controller.
EACH_CREATURE_OF_TARGET = Ref("each_creature_of_target")
# "That creature" of "whenever ~ blocks or becomes blocked by a creature": the creature on the
# other side of the block from the ability's source.
BLOCK_PARTNER = Ref("block_partner")


def Target(index: int = 0) -> Ref:
    return Ref("target", index)


def PlayersWithLifeAtMost(n: int) -> Ref:
    """Each player (in range) whose life total is ``n`` or less."""
    return Ref("each_player_at_or_below", n)


# --------------------------------------------------------------------------- targets


@dataclass(frozen=True, slots=True)
class ObjectFilter:
    """Which permanents, spells or cards qualify (a target's "tapped", "nonblack", "attacking
    or blocking", "Skeleton, Vampire, or Zombie", "you control"...). Each field narrows; an
    empty one says nothing. Read against the object as it is now (its layered types and
    colours on the battlefield, CR 613): ``filters.matches``.

    ``types``/``subtypes``/``colors``: the object has at least one of them; ``not_types``/
    ``not_colors``: it has none of them; ``tapped``: it is tapped (True) or untapped (False);
    ``combat``: "attacking", "blocking" or "in_combat" (either); ``controller``: "you",
    "opponent", "not_you" ("you don't control") relative to who chooses, or "event_player"
    ("that player controls": the player the triggering event names, bound in ``player`` as
    the trigger goes on the stack); ``toughness_below_source_power``: its toughness is less
    than the power of the spell's or ability's source ("with toughness less than Stone
    Giant's power"); ``words``: how the prompt reads it, in place of the target kind's own
    ("target tapped creature").
    """

    types: frozenset[str] = frozenset()
    not_types: frozenset[str] = frozenset()
    subtypes: frozenset[str] = frozenset()
    colors: frozenset[str] = frozenset()
    not_colors: frozenset[str] = frozenset()
    tapped: bool | None = None
    combat: str = ""
    controller: str = ""
    words: str = ""
    toughness_below_source_power: bool = False
    player: int | None = None  # "that player", once bound (controller "event_player")

    def __post_init__(self) -> None:
        if self.combat not in ("", "attacking", "blocking", "in_combat"):
            raise ValueError(f"unknown combat filter {self.combat!r}")
        if self.controller not in ("", "you", "opponent", "not_you", "event_player"):
            raise ValueError(f"unknown controller filter {self.controller!r}")
        if not (self.colors | self.not_colors) <= set(COLOR_NAMES):
            raise ValueError("colours are letters (W, U, B, R, G)")


def where(words: str, *, types: tuple[str, ...] = (), not_types: tuple[str, ...] = (),
          subtypes: tuple[str, ...] = (), colors: str = "", not_colors: str = "",
          tapped: bool | None = None, combat: str = "", controller: str = "",
          toughness_below_source_power: bool = False) -> ObjectFilter:
    """An :class:`ObjectFilter` as a card reads: ``where("target nonblack creature",
    not_colors="B")``; colours as letters, types as tuples."""
    return ObjectFilter(frozenset(types), frozenset(not_types), frozenset(subtypes),
                        frozenset(colors), frozenset(not_colors), tapped, combat, controller,
                        words, toughness_below_source_power)


@dataclass(frozen=True, slots=True)
class TargetSpec:
    """What a target may be (CR 115).

    ``kind``: ``any`` (creature, player or planeswalker), ``player_or_planeswalker``,
    ``player``, ``opponent``, ``teammate``, ``creature``, ``opponent_creature`` (a creature an
    opponent controls), ``permanent``, ``instant_or_sorcery_spell`` (a spell on the stack),
    ``spell`` (any spell on the stack), ``graveyard_card`` (a card in any graveyard),
    ``your_graveyard_card`` (a card in your graveyard). ``where`` narrows it further.
    ``optional``: "up to" one more such target; the chooser may stop (CR 601.2c, 115.1),
    and it is skipped when nothing qualifies. Optional targets come after the others: "up to
    N target creatures" is N optional specs. A spell or ability with none chosen has no
    targets and still resolves (CR 608.2b).
    """

    kind: str
    where: ObjectFilter | None = None
    optional: bool = False

    def describe(self) -> str:
        if self.where is not None and self.where.words:
            return self.where.words
        return {
            "any": "any target",
            "player_or_planeswalker": "target player or planeswalker",
            "player": "target player",
            "opponent": "target opponent",
            "teammate": "target teammate",
            "creature": "target creature",
            "opponent_creature": "target creature an opponent controls",
            "permanent": "target permanent",
            "instant_or_sorcery_spell": "target instant or sorcery spell",
            "spell": "target spell",
            "graveyard_card": "target card from a graveyard",
            "your_graveyard_card": "target card from your graveyard",
        }[self.kind]

    @property
    def spell(self) -> bool:
        """Does it target a spell on the stack rather than a player or a permanent?"""
        return self.kind in ("instant_or_sorcery_spell", "spell")

    @property
    def in_graveyard(self) -> bool:
        """Does it target a card in a graveyard?"""
        return self.kind in ("graveyard_card", "your_graveyard_card")


ANY_TARGET = TargetSpec("any")
PLAYER_OR_PLANESWALKER = TargetSpec("player_or_planeswalker")
TARGET_PLAYER = TargetSpec("player")
TARGET_OPPONENT = TargetSpec("opponent")
TARGET_TEAMMATE = TargetSpec("teammate")
TARGET_CREATURE = TargetSpec("creature")
TARGET_OPPONENT_CREATURE = TargetSpec("opponent_creature")
TARGET_PERMANENT = TargetSpec("permanent")
TARGET_INSTANT_OR_SORCERY_SPELL = TargetSpec("instant_or_sorcery_spell")

# --------------------------------------------------------------------------- amounts


@dataclass(frozen=True, slots=True)
class HalfLibrary:
    """Half the number of cards in a player's library, rounded down."""

    who: Ref


@dataclass(frozen=True, slots=True)
class HalfLife:
    """Half a player's life total, rounded up (CR 107.1a)."""

    who: Ref


@dataclass(frozen=True, slots=True)
class LifeTotalOf:
    """A player's life total; for a player who has left, the last one they had (CR 800.4i)."""

    who: Ref


@dataclass(frozen=True, slots=True)
class Remembered:
    """A number recorded earlier in the same resolution (e.g. life lost this way)."""

    key: str


@dataclass(frozen=True, slots=True)
class CardsInHandOfRecipient:
    """The number of cards in the hand of the player being dealt the damage (one amount per
    recipient, for "deals damage to each opponent equal to the number of cards in that
    player's hand")."""


@dataclass(frozen=True, slots=True)
class XValue:
    """The X of the spell's mana cost: the value announced as it was cast while it is on the
    stack, 0 anywhere else (CR 107.3a, 107.3g)."""


@dataclass(frozen=True, slots=True)
class XDividedEvenly:
    """X divided evenly, rounded down, among the spell's targets as they were chosen (a
    target that has become illegal still counts: it just gets nothing, CR 608.2b)."""


@dataclass(frozen=True, slots=True)
class EventAmount:
    """"That much": the amount the triggering event carried (life gained, damage dealt)."""


@dataclass(frozen=True, slots=True)
class DividedAsYouChoose:
    """``total`` divided as the caster chose among the targets while casting, at least 1 to
    each (CR 601.2d): each target gets its own share; a target that has become illegal gets
    nothing and the others keep theirs (CR 608.2b). A spell with it takes at most ``total``
    targets."""

    total: int


@dataclass(frozen=True, slots=True)
class NumberYouControl:
    """The number of permanents you control that pass ``where`` ("the number of Swamps you
    control", "for each land you control"), counted as it resolves."""

    where: ObjectFilter


X = XValue()
X_DIVIDED_EVENLY = XDividedEvenly()
EVENT_AMOUNT = EventAmount()

Amount = (int | HalfLibrary | HalfLife | LifeTotalOf | Remembered | CardsInHandOfRecipient |
          XValue | XDividedEvenly | EventAmount |
          DividedAsYouChoose | NumberYouControl)

# --------------------------------------------------------------------------- card filters


@dataclass(frozen=True, slots=True)
class CardFilter:
    """Which cards qualify, by card type (and supertype); an empty ``types`` means any card.
    ``excluded`` are types a card must not have ("noncreature, nonland card")."""

    types: frozenset[str] = frozenset()
    nontoken: bool = False
    supertypes: frozenset[str] = frozenset()
    excluded: frozenset[str] = frozenset()

    def describe(self) -> str:
        head = " ".join(sorted(t.lower() for t in self.supertypes))
        kinds = " or ".join(sorted(t.lower() for t in self.types)) if self.types else ""
        non = ", ".join(f"non{t.lower()}" for t in sorted(self.excluded))
        words = " ".join(w for w in (head, f"{non}," if non and kinds else non, kinds) if w)
        return f"{words} card" if words else "card"

    @property
    def has_quality(self) -> bool:
        """Does it ask for a card with a stated quality? Then a search of a hidden zone may
        fail to find one (CR 701.19b); a search for just "a card" must find one if it can
        (CR 701.19d)."""
        return bool(self.types or self.supertypes or self.excluded)

    def matches(self, defn: CardDef) -> bool:
        return ((not self.types or bool(defn.types & self.types))
                and self.supertypes <= defn.supertypes and not defn.types & self.excluded)


ANY_CARD = CardFilter()
ARTIFACT_CARD = CardFilter(frozenset({"Artifact"}))
CREATURE_CARD = CardFilter(frozenset({"Creature"}))
NONCREATURE_NONLAND_CARD = CardFilter(excluded=frozenset({"Creature", "Land"}))
CREATURE_OR_LAND_CARD = CardFilter(frozenset({"Creature", "Land"}))
BASIC_LAND_CARD = CardFilter(frozenset({"Land"}), supertypes=frozenset({"Basic"}))

# --------------------------------------------------------------------------- durations

UNTIL_END_OF_TURN = "until_end_of_turn"
INDEFINITELY = "indefinitely"
UNTIL_YOUR_NEXT_TURN = "until_your_next_turn"  # CR 800.4m cares about this one
FOR_THE_GAME = "game"  # "for the rest of the game"
UNTIL_PLANESWALK_FROM_PLANE = "until_planeswalk_from_plane"  # CR 901.11
# "For as long as ~ remains on the battlefield" (CR 611.2b): ends when the source leaves, and
# never begins if it left before the effect would have (docs/rulings.md).
WHILE_SOURCE_ON_BATTLEFIELD = "while_source_on_battlefield"

# --------------------------------------------------------------------------- conditions


@dataclass(frozen=True, slots=True)
class CastFromHand:
    """The spell (or, for an enters trigger, the permanent) was cast from its owner's hand."""

    negate: bool = False


@dataclass(frozen=True, slots=True)
class CastAnotherNamedThisGame:
    """Its controller has cast another spell with this object's name earlier this game."""


@dataclass(frozen=True, slots=True)
class LifeAtLeast:
    who: Ref
    amount: int


@dataclass(frozen=True, slots=True)
class NoCounters:
    """The object has no counters of ``kind`` on it."""

    what: Ref
    kind: str


@dataclass(frozen=True, slots=True)
class SourceUntapped:
    pass


@dataclass(frozen=True, slots=True)
class ActivatedThisTurnAtLeast:
    """The resolving activated ability has been activated ``times`` or more times this turn
    (counted as it is activated, per object: a permanent that left and came back is a new
    object with a count of its own, CR 400.7)."""

    times: int


@dataclass(frozen=True, slots=True)
class AllOf:
    conditions: tuple[Condition, ...]


@dataclass(frozen=True, slots=True)
class Paid:
    """The most recent optional cost offered during this resolution was paid."""

    negate: bool = False


@dataclass(frozen=True, slots=True)
class NoCardsInHand:
    """You have no cards in hand."""


@dataclass(frozen=True, slots=True)
class PowerAtMost:
    """``what`` is a creature on the battlefield whose power is ``amount`` or less."""

    what: Ref
    amount: int


@dataclass(frozen=True, slots=True)
class DamageTakenThisTurnAtLeast:
    """You have been dealt ``amount`` or more damage this turn."""

    amount: int


@dataclass(frozen=True, slots=True)
class CardsToGraveyardThisTurnAtLeast:
    """``amount`` or more cards were put into your graveyard this turn from anywhere."""

    amount: int


Condition = (CastFromHand | CastAnotherNamedThisGame | LifeAtLeast | NoCounters |
    SourceUntapped | AllOf | Paid | NoCardsInHand | PowerAtMost | DamageTakenThisTurnAtLeast |
    CardsToGraveyardThisTurnAtLeast | ActivatedThisTurnAtLeast)

# --------------------------------------------------------------------------- effects


@dataclass(frozen=True, slots=True)
class Damage:
    amount: Amount
    to: Ref


@dataclass(frozen=True, slots=True)
class GainLife:
    amount: Amount
    who: Ref


@dataclass(frozen=True, slots=True)
class LoseLife:
    """``who`` loses life; the total actually lost is remembered under ``remember``."""

    amount: Amount
    who: Ref
    remember: str = ""


@dataclass(frozen=True, slots=True)
class SetLife:
    """``who``'s life total becomes ``amount``: they gain or lose the difference (CR 119.5)."""

    amount: Amount
    who: Ref


@dataclass(frozen=True, slots=True)
class LoseHalfLife:
    """Each player in ``who`` loses half their life, rounded up."""

    who: Ref


@dataclass(frozen=True, slots=True)
class Draw:
    amount: Amount
    who: Ref


@dataclass(frozen=True, slots=True)
class Mill:
    amount: Amount
    who: Ref


@dataclass(frozen=True, slots=True)
class GainControl:
    what: Ref
    duration: str


@dataclass(frozen=True, slots=True)
class GiveControl:
    """A chosen player (the target) gains control of ``what`` (CR 804.2 deploy creatures)."""

    what: Ref
    to: Ref
    duration: str = INDEFINITELY


@dataclass(frozen=True, slots=True)
class Untap:
    what: Ref


@dataclass(frozen=True, slots=True)
class Tap:
    what: Ref


@dataclass(frozen=True, slots=True)
class GrantKeyword:
    what: Ref
    keyword: Keyword
    duration: str


# Where a found or revealed card goes.
TO_BATTLEFIELD, TO_HAND, TO_TOP = "battlefield", "hand", "top"


@dataclass(frozen=True, slots=True)
class SearchLibrary:
    """``searcher`` searches ``whose`` library for up to ``count`` cards matching ``filter``
    (CR 701.19) and puts them ``to`` the battlefield (``tapped`` or not, under ``under``'s
    control), into the searcher's hand, or on top of the library after the shuffle
    (CR 701.20b: the found cards are not shuffled); then that library's owner shuffles
    (CR 701.20). A search for a card with a stated quality may fail to find (CR 701.19b), so
    its picks include "nothing"; one for just "a card" must find one (CR 701.19d). Found cards
    are shown to everyone only when ``reveal`` says so (CR 701.19e)."""

    whose: Ref
    filter: CardFilter
    under: Ref = YOU
    searcher: Ref = YOU
    count: int = 1
    tapped: bool = False
    to: str = TO_BATTLEFIELD
    reveal: bool = False


@dataclass(frozen=True, slots=True)
class Shuffle:
    """Each player in ``who`` shuffles their library (CR 701.20a)."""

    who: Ref = YOU


@dataclass(frozen=True, slots=True)
class LookAtTop:
    """``who`` looks at the top ``count`` cards of their library, then puts them back in any
    order: one pick at a time, the card that goes on top first. Only that player sees them."""

    count: int
    who: Ref = YOU


@dataclass(frozen=True, slots=True)
class PutFromHand:
    """You may put a card matching ``filter`` from your hand onto the battlefield."""

    filter: CardFilter


@dataclass(frozen=True, slots=True)
class RevealHandYouChoose:
    """``who`` reveals their hand (to everyone, CR 701.16a); you choose a card matching
    ``filter`` from it; that player discards it."""

    who: Ref
    filter: CardFilter


@dataclass(frozen=True, slots=True)
class RevealTopCard:
    """Reveal the top card of your library. If it matches ``filter``, put it onto the
    battlefield; otherwise you may put it on the bottom of your library."""

    filter: CardFilter


@dataclass(frozen=True, slots=True)
class RevealUntil:
    """``who`` reveals cards from the top of their library until they reveal a card matching
    ``filter``, puts that card onto the battlefield, then shuffles all the other cards
    revealed this way into their library."""

    filter: CardFilter
    who: Ref = YOU


@dataclass(frozen=True, slots=True)
class ExileGraveyardAndNamesakes:
    """Exile every card in ``who``'s graveyard except those matching ``spare``; for each card
    exiled this way, search that player's library for all cards with its name and exile them;
    then that player shuffles (CR 701.19, 701.20)."""

    who: Ref
    spare: CardFilter


@dataclass(frozen=True, slots=True)
class LibraryFromExile:
    """Choose up to ``count`` face-up exiled cards you own; exile all the cards from your
    library, then put the chosen cards on top of it (in an order you choose, CR 401.4)."""

    count: int


@dataclass(frozen=True, slots=True)
class SearchThenNamed:
    """Search ``whose`` library for a card (CR 701.19d: a card must be found if there is one);
    that player chooses a card name; if the found card is a card matching ``filter`` without
    that name, you may put it onto the battlefield under your control. Then that player
    shuffles."""

    whose: Ref
    filter: CardFilter


@dataclass(frozen=True, slots=True)
class PermanentsShuffledAndRedealt:
    """Each player shuffles all permanents they own into their library, then reveals that many
    cards from the top; each puts the revealed cards of ``first`` types onto the battlefield,
    then those of ``then`` types, then the rest on the bottom in an order they choose."""

    first: frozenset[str]
    then: frozenset[str]


@dataclass(frozen=True, slots=True)
class WinGame:
    who: Ref


@dataclass(frozen=True, slots=True)
class LoseGame:
    who: Ref


@dataclass(frozen=True, slots=True)
class DrawGame:
    """The game is a draw (CR 104.4c; under limited range of influence, CR 104.4e / 801.15)."""


@dataclass(frozen=True, slots=True)
class HighestLifeWins:
    """The player with the highest life total wins; a tie for highest makes the game a draw."""


@dataclass(frozen=True, slots=True)
class PutCounters:
    what: Ref
    kind: str
    amount: Amount


@dataclass(frozen=True, slots=True)
class RemoveCounters:
    what: Ref
    kind: str
    amount: Amount


@dataclass(frozen=True, slots=True)
class If:
    condition: Condition
    then: tuple[Effect, ...]
    otherwise: tuple[Effect, ...] = ()


@dataclass(frozen=True, slots=True)
class PutSelfIntoLibrary:
    """Put this spell card into its owner's library ``position``-th from the top."""

    position: int


@dataclass(frozen=True, slots=True)
class WishFromOutside:
    """You may reveal a card you own from outside the game matching ``filter`` and put it into
    your hand (CR 400.11; inside a subgame the main game is outside it, CR 726.4)."""

    filter: CardFilter


@dataclass(frozen=True, slots=True)
class ExileFromHand:
    """``who`` chooses a card in their hand and exiles it; it is linked to the source."""

    who: Ref


@dataclass(frozen=True, slots=True)
class Exile:
    """Exile ``what``; with ``link`` the card is remembered as exiled with the source (CR 607)."""

    what: Ref
    link: bool = False


@dataclass(frozen=True, slots=True)
class Destroy:
    """Destroy ``what`` (CR 701.8); with ``no_regen`` "It can't be regenerated": regeneration
    shields are not applied to it (CR 701.15c)."""

    what: Ref
    no_regen: bool = False


@dataclass(frozen=True, slots=True)
class Regenerate:
    """"Regenerate ``what``": the next time it would be destroyed this turn, instead remove all
    damage from it, tap it and remove it from combat (CR 701.15a, a shield)."""

    what: Ref


@dataclass(frozen=True, slots=True)
class ReturnToHand:
    """Return ``what`` to its owner's hand (a commander may go to the command zone instead,
    CR 903.9b)."""

    what: Ref


@dataclass(frozen=True, slots=True)
class Simultaneously:
    """Wins and losses that happen as one event (CR 104.3f decides a player in both)."""

    effects: tuple[WinGame | LoseGame, ...]


@dataclass(frozen=True, slots=True)
class CreateToken:
    """``under`` creates ``count`` tokens of the token definition named ``token`` (CR 111.1:
    the effect, not a card, makes them; the definition sets their characteristics, 111.3)."""

    token: str  # name of a token definition in the pool
    under: Ref
    count: Amount = 1


@dataclass(frozen=True, slots=True)
class PackStrike:
    """"Tap all untapped ``subtype`` creatures you control. Each [one] tapped this way deals
    damage equal to its power to target creature. That creature deals damage equal to its
    power divided as its controller chooses among any number of those [creatures]." The
    target is the first target."""

    subtype: str


@dataclass(frozen=True, slots=True)
class RestartGame:
    """Restart the game (CR 724), leaving in exile every non-Aura permanent card linked to the
    source, then put those cards onto the battlefield under your control (CR 724.4)."""


@dataclass(frozen=True, slots=True)
class PlaySubgame:
    """Players play a subgame using their libraries as decks (CR 726); afterwards each player
    who did not win it loses half their life, rounded up."""


@dataclass(frozen=True, slots=True)
class MayPay:
    """``who`` may pay ``life`` life; :class:`Paid` then tells whether they did (CR 800.4f)."""

    who: Ref
    life: int


@dataclass(frozen=True, slots=True)
class OpponentChoosesCreatureToSacrifice:
    """An opponent of your choice chooses a creature you control; you sacrifice it.

    A non-targeted choice made by another player, the shape CR 800.4g and 801.5 talk about.
    """


@dataclass(frozen=True, slots=True)
class Mode:
    label: str
    effects: tuple[Effect, ...]


@dataclass(frozen=True, slots=True)
class OpponentChoosesMode:
    """An opponent of your choice chooses one of ``modes`` (CR 700.2; under limited range the
    opponent may pick any mode, CR 801.5b, and the closest opponent to the left chooses when
    none is in range, CR 801.5c)."""

    modes: tuple[Mode, ...]


@dataclass(frozen=True, slots=True)
class ChooseOpponent:
    """Choose an opponent; the choice is remembered on this permanent (CHOSEN_PLAYER)."""


@dataclass(frozen=True, slots=True)
class PreventDamage:
    """Prevent the next ``amount`` damage that would be dealt to ``to`` this turn (CR 615)."""

    to: Ref
    amount: int


@dataclass(frozen=True, slots=True)
class PreventAllCombatDamage:
    """Prevent all combat damage that would be dealt this turn (CR 615, 801.13b)."""


@dataclass(frozen=True, slots=True)
class PreventAllDamageTo:
    """Prevent all damage that would be dealt to ``who`` and creatures they control this turn
    (CR 615); the creatures are those they control as the damage would be dealt."""

    who: Ref = YOU


@dataclass(frozen=True, slots=True)
class RedirectFromChosenSource:
    """The next ``amount`` damage that a source of your choice would deal to you and/or
    permanents you control this turn is dealt to the first target instead (CR 609.7a: the
    source is chosen as it resolves; a redirection, 614.9)."""

    amount: int


@dataclass(frozen=True, slots=True)
class RedirectDamage:
    """The next ``amount`` damage that would be dealt to the first target this turn is dealt to
    the second target instead (a redirection replacement, CR 614.9 / 801.13a)."""

    amount: int


@dataclass(frozen=True, slots=True)
class May:
    """``who`` may have ``effects`` happen ("you may ...", "that player may ..."): asked yes or
    no as the ability resolves."""

    effects: tuple[Effect, ...]
    who: Ref = YOU
    prompt: str = ""


@dataclass(frozen=True, slots=True)
class AddMana:
    """Add ``mana`` (a string of mana symbols such as ``WUBRG``) to your mana pool."""

    mana: str


@dataclass(frozen=True, slots=True)
class DestroyAll:
    """Destroy every permanent of one of ``types`` (any permanent if empty), leaving lands
    alone when ``nonland``, controlled by ``whose`` when given."""

    types: frozenset[str] = frozenset()
    nonland: bool = False
    whose: Ref | None = None


@dataclass(frozen=True, slots=True)
class Discard:
    """``who`` discards ``amount`` cards of their choice, or chosen at random (CR 701.9b)."""

    amount: Amount
    who: Ref = YOU
    at_random: bool = False


@dataclass(frozen=True, slots=True)
class DiscardHand:
    who: Ref = YOU


@dataclass(frozen=True, slots=True)
class ShuffleHandAndGraveyardIntoLibrary:
    who: Ref = EACH_PLAYER


@dataclass(frozen=True, slots=True)
class NoMaximumHandSize:
    """``who`` has no maximum hand size for ``duration`` (CR 402.2)."""

    who: Ref = YOU
    duration: str = FOR_THE_GAME


@dataclass(frozen=True, slots=True)
class Pump:
    """``what`` gets +``power``/+``toughness`` until end of turn (layer 7c)."""

    what: Ref
    power: int
    toughness: int


@dataclass(frozen=True, slots=True)
class SetPowerToughness:
    """``what`` has base power ``power`` and toughness ``toughness`` until end of turn
    (layer 7b)."""

    what: Ref
    power: int
    toughness: int


@dataclass(frozen=True, slots=True)
class SwitchPowerToughness:
    """Switch ``what``'s power and toughness until end of turn (layer 7d)."""

    what: Ref


@dataclass(frozen=True, slots=True)
class LoseAllAbilities:
    """``what`` loses all abilities until end of turn (layer 6)."""

    what: Ref


@dataclass(frozen=True, slots=True)
class CounterUnlessPays:
    """Counter ``what`` (a spell or an ability on the stack) unless its controller pays
    ``cost`` (a mana cost: "{2}"); ward's triggered ability (CR 702.21a)."""

    what: Ref
    cost: str


@dataclass(frozen=True, slots=True)
class ChangeText:
    """Change the text of ``what`` by replacing every instance of the colour word or basic
    land type ``old`` with ``new`` until end of turn: a text-changing effect (CR 612, layer 3,
    613.1c). Colour words are written as players read them ("black"), land types as on type
    lines ("Swamp"). What it rewrites: see docs/rulings.md."""

    what: Ref
    old: str
    new: str


@dataclass(frozen=True, slots=True)
class BecomeCreature:
    """``what`` becomes a ``power``/``toughness`` creature until end of turn and keeps its
    other types ("it's still a land"): a card type added in layer 4, base power and
    toughness set in layer 7b (CR 613.1d, 613.4b). ``color`` (letters) makes it that colour
    (layer 5), ``subtype`` adds a creature type (layer 4), ``duration`` may instead be
    ``WHILE_SOURCE_ON_BATTLEFIELD`` ("for as long as ~ remains on the battlefield")."""

    what: Ref
    power: int
    toughness: int
    color: str = ""
    subtype: str = ""
    duration: str = UNTIL_END_OF_TURN


@dataclass(frozen=True, slots=True)
class BecomeColor:
    """``what`` becomes ``color`` (a colour letter) until end of turn (layer 5)."""

    what: Ref
    color: str


@dataclass(frozen=True, slots=True)
class Delayed:
    """Create a delayed triggered ability (CR 603.7): the next time ``event`` happens,
    ``effects`` trigger, once (603.7b), with this ability's source and controller (603.7e).
    "At the beginning of the next end step" is ``Delayed(AtEndStep("each"), ...)``. With
    ``about``, it is made about each object that names (as it is now), which the ability
    then means by ``EVENT_OBJECT`` ("destroy that creature", CR 603.7c)."""

    event: TriggerEvent
    effects: tuple[Effect, ...]
    text: str = ""
    about: Ref | None = None


@dataclass(frozen=True, slots=True)
class CounterSpell:
    """Counter ``what``, a spell on the stack (CR 701.5a): it leaves the stack for its
    owner's graveyard without resolving."""

    what: Ref


@dataclass(frozen=True, slots=True)
class PutOnTopOfLibrary:
    """Put ``what`` (a permanent) on top of its owner's library."""

    what: Ref


@dataclass(frozen=True, slots=True)
class PutOntoBattlefield:
    """Put ``what`` (a card in a graveyard) onto the battlefield under ``under``'s control;
    the new permanent is then ``CHOSEN`` for the effects after this one."""

    what: Ref
    under: Ref = YOU


@dataclass(frozen=True, slots=True)
class AlsoBecomes:
    """``what`` is ``colors`` (letters) and ``subtypes`` in addition to its other colours and
    types (layers 4 and 5, adding, not replacing), for as long as it stays on the battlefield,
    or ``UNTIL_END_OF_TURN`` ("becomes a Goblin in addition to its other types until end of
    turn")."""

    what: Ref
    colors: str = ""
    subtypes: tuple[str, ...] = ()
    duration: str = INDEFINITELY


@dataclass(frozen=True, slots=True)
class EachCreatureGets:
    """"[Attacking] creatures get +``power``/+``toughness`` [and gain ``keyword``] until end of
    turn": each creature that passes ``where`` as it resolves (CR 611.2c), whoever controls it
    ("creatures you control" is a ``where`` with ``controller="you"``)."""

    where: ObjectFilter
    power: int
    toughness: int
    keyword: Keyword = ""


@dataclass(frozen=True, slots=True)
class OpponentChoosesSelfOrOthers:
    """The target opponent chooses self or others: ``self_effects`` happen (to that player,
    ``Target(0)``) or ``others_effects`` (to your other opponents, ``OTHER_OPPONENTS``)."""

    self_effects: tuple[Effect, ...]
    others_effects: tuple[Effect, ...]


@dataclass(frozen=True, slots=True)
class PlayTopCardFree:
    """"Reveal the top card of your library. You may play that card without paying its mana
    cost. If you don't, exile it." (CR 118.9: an alternative cost; X is 0, 107.3b)."""


@dataclass(frozen=True, slots=True)
class ExtraTurn:
    """Each player in ``who`` takes an extra turn after this one (CR 500.7)."""

    who: Ref


@dataclass(frozen=True, slots=True)
class CopySpell:
    """Each player in ``copiers`` copies the spell ``what`` (CR 707.10) and may choose new
    targets for their copy (CR 707.10c). The copy is controlled by whoever copied it, is not
    cast, and ceases to exist when it leaves the stack (CR 707.10a, 704.5e)."""

    what: Ref
    copiers: Ref = YOU


@dataclass(frozen=True, slots=True)
class Planeswalk:
    """The planar controller planeswalks (CR 701.24)."""


@dataclass(frozen=True, slots=True)
class BlankRollsAreChaos:
    """Each blank roll of the planar die is a chaos roll until a player planeswalks away from a
    plane (CR 901.11 ends the effect)."""


@dataclass(frozen=True, slots=True)
class Abandon:
    """Abandon this scheme (CR 701.26): it turns face down and goes to the bottom of its
    owner's scheme deck."""


@dataclass(frozen=True, slots=True)
class DoesntUntap:
    """``what`` doesn't untap during its controller's next untap step (CR 502.3)."""

    what: Ref


@dataclass(frozen=True, slots=True)
class DestroyOneAtRandom:
    """Destroy one of ``what`` (the legal targets, by default) chosen at random, with the
    game's random generator (CR 701.7)."""

    what: Ref = EACH_TARGET


@dataclass(frozen=True, slots=True)
class Attach:
    """Attach this Equipment (or Aura) to ``to`` (CR 701.3): equip's effect (702.6a). It does
    nothing when it is already attached there (701.3b) or cannot legally be (301.5c)."""

    to: Ref


@dataclass(frozen=True, slots=True)
class Sacrifice:
    """``what``'s controller sacrifices it (CR 701.17): it goes to its owner's graveyard, which
    indestructible does not stop; only a permanent its controller still controls."""

    what: Ref = SELF


@dataclass(frozen=True, slots=True)
class SacrificeOne:
    """Each player in ``who`` sacrifices a permanent of one of ``types`` of their choice
    ("sacrifice a creature", "each opponent sacrifices a land", CR 701.17a): they choose in
    APNAP order, then all are sacrificed at once (CR 101.4). ``other``: not the source ("other
    than ~"). The sacrificed permanent's power as it last existed (CR 608.2h) is remembered
    under ``remember``; ``then`` follows when something was sacrificed, ``otherwise`` when
    nothing could be ("If you can't sacrifice a creature, ...")."""

    who: Ref
    types: frozenset[str]
    other: bool = False
    remember: str = ""
    then: tuple[Effect, ...] = ()
    otherwise: tuple[Effect, ...] = ()


@dataclass(frozen=True, slots=True)
class ReturnAllFromGraveyards:
    """Put every card ``filter`` admits from all graveyards onto the battlefield at once, under
    its owner's control, or under yours with ``yours`` ("under your control", CR 110.2a); an
    Aura chooses what it enchants as it enters, without targeting, and stays in the graveyard
    when nothing is legal (CR 303.4f-g)."""

    filter: CardFilter
    yours: bool = False


# What a "this turn" combat effect makes of the creatures it names: "can't block" and "can't
# be blocked" are restrictions (CR 509.1b), "attacks you if able" a requirement (508.1d).
CANT_BLOCK, CANT_BE_BLOCKED, ATTACKS_YOU = "cant_block", "unblockable", "must_attack"


@dataclass(frozen=True, slots=True)
class InCombatThisTurn:
    """Each object ``what`` names, this turn, ``rule``: ``CANT_BLOCK``, ``CANT_BE_BLOCKED``, or
    ``ATTACKS_YOU`` ("you" being the controller of the spell or ability)."""

    what: Ref
    rule: str

    def __post_init__(self) -> None:
        if self.rule not in (CANT_BLOCK, CANT_BE_BLOCKED, ATTACKS_YOU):
            raise ValueError(f"unknown combat rule {self.rule!r}")


@dataclass(frozen=True, slots=True)
class OpponentsCantCastThisTurn:
    """Your opponents can't cast spells this turn (CR 101.2: a "can't" wins)."""


@dataclass(frozen=True, slots=True)
class TapCreaturesOf:
    """Tap all creatures ``who`` controls; with ``skip_next_untap`` those creatures don't
    untap during that player's next untap step (CR 502.3)."""

    who: Ref
    skip_next_untap: bool = False


Effect = (Damage | GainLife | LoseLife | SetLife | LoseHalfLife | Draw | Mill | GainControl |
    GiveControl | Untap | Tap | GrantKeyword | SearchLibrary | WinGame | LoseGame | DrawGame |
    HighestLifeWins | PutCounters | RemoveCounters | If | PutSelfIntoLibrary | WishFromOutside |
    ExileFromHand | Exile | Destroy | ReturnToHand | Simultaneously | OpponentChoosesMode |
    ChooseOpponent | CreateToken | RestartGame |
    PlaySubgame | MayPay | OpponentChoosesCreatureToSacrifice | PreventDamage |
    PreventAllCombatDamage | RedirectDamage | PreventAllDamageTo | RedirectFromChosenSource |
    Regenerate | PlayTopCardFree | May | AddMana | DestroyAll | Discard |
    DiscardHand | ShuffleHandAndGraveyardIntoLibrary | NoMaximumHandSize | Pump |
    OpponentChoosesSelfOrOthers | Planeswalk | BlankRollsAreChaos | Abandon | ExtraTurn |
    CopySpell | SetPowerToughness | SwitchPowerToughness | LoseAllAbilities | BecomeColor |
    BecomeCreature | ChangeText | CounterUnlessPays |
    ReturnAllFromGraveyards | PackStrike | DoesntUntap |
    DestroyOneAtRandom | Attach | Sacrifice | Delayed | InCombatThisTurn |
    OpponentsCantCastThisTurn | TapCreaturesOf | CounterSpell | PutOnTopOfLibrary |
    PutOntoBattlefield | AlsoBecomes | EachCreatureGets |
    Shuffle | LookAtTop | PutFromHand | SacrificeOne | RevealHandYouChoose | RevealTopCard |
    RevealUntil | ExileGraveyardAndNamesakes | LibraryFromExile | SearchThenNamed |
    PermanentsShuffledAndRedealt)

# --------------------------------------------------------------------------- trigger events


@dataclass(frozen=True, slots=True)
class AtUpkeep:
    """At the beginning of your upkeep (``whose='you'``), each upkeep (``'each'``), or the
    upkeep of the enchanted creature's controller (``'enchanted'``)."""

    whose: str = "you"


@dataclass(frozen=True, slots=True)
class SelfEnters:
    pass


@dataclass(frozen=True, slots=True)
class SelfDies:
    """When this dies: is put into a graveyard from the battlefield (CR 700.4). A
    leaves-the-battlefield trigger, so it looks back in time at the object as it last was on
    the battlefield (CR 603.10a)."""


@dataclass(frozen=True, slots=True)
class CreatureEnters:
    """Whenever a (nontoken) creature enters; with ``other``, another one than this."""

    nontoken: bool = True
    other: bool = False


@dataclass(frozen=True, slots=True)
class DealsCombatDamage:
    """Whenever this (or, with ``any_creature``, any creature) deals combat damage to a
    ``creature`` or a ``player``."""

    to: str
    any_creature: bool = False


@dataclass(frozen=True, slots=True)
class PlayerLoses:
    """Whenever a player loses the game."""


@dataclass(frozen=True, slots=True)
class LastCounterRemoved:
    """When you remove the last ``kind`` counter from this permanent."""

    kind: str


@dataclass(frozen=True, slots=True)
class BecomesTapped:
    """Whenever a permanent named ``name`` (this one if empty) becomes tapped."""

    name: str = ""


@dataclass(frozen=True, slots=True)
class BecomesUntapped:
    name: str = ""


@dataclass(frozen=True, slots=True)
class CreatureLeavesBattlefield:
    """Whenever another creature leaves the battlefield."""


@dataclass(frozen=True, slots=True)
class CardLeavesYourZone:
    """Whenever a card matching ``filter`` leaves your ``zone`` (e.g. your graveyard)."""

    zone: str
    filter: CardFilter = CardFilter()


@dataclass(frozen=True, slots=True)
class AtDrawStep:
    """At the beginning of your draw step (``whose='you'``) or each player's (``'each'``).
    ``per_player``: the ability speaks of "that player", so where a team shares the step it
    triggers once for each of the team's players (CR 805.4d)."""

    whose: str = "you"
    per_player: bool = False


@dataclass(frozen=True, slots=True)
class AtEndStep:
    """At the beginning of your end step (``whose='you'``) or of each end step (``'each'``)."""

    whose: str = "you"


@dataclass(frozen=True, slots=True)
class LandEnters:
    """Whenever a land enters."""


@dataclass(frozen=True, slots=True)
class PlayerCastsSpell:
    """Whenever a player casts a spell (of one of ``types``, of one of ``colors`` as letters,
    when given); ``who``: "any" player, "you", or "opponent" (an opponent of yours)."""

    types: frozenset[str] = frozenset()
    colors: frozenset[str] = frozenset()
    who: str = "any"


# What a player does, for :class:`PlayerDoes`; each is also the engine's event name.
DISCARDS = "discards"
DRAWS = "draws"
GAINS_LIFE = "gains_life"
TAPS_LAND_FOR_MANA = "taps_land_for_mana"


@dataclass(frozen=True, slots=True)
class PlayerDoes:
    """Whenever a player (``who``: "any", "you", "opponent") ``action``: discards a card,
    draws a card, gains life (the event carries the amount), taps a land for mana (CR 605.5a:
    such a trigger is no mana ability and goes on the stack). ``EVENT_PLAYER`` is that
    player."""

    action: str
    who: str = "any"


@dataclass(frozen=True, slots=True)
class DealsDamage:
    """Whenever this deals damage, combat or not, to an opponent (``to='opponent'``) or to any
    player (``'player'``)."""

    to: str = "opponent"


@dataclass(frozen=True, slots=True)
class Attacks:
    """Whenever this attacks (CR 508.1m, 508.3a: it is declared as an attacker)."""


@dataclass(frozen=True, slots=True)
class Blocks:
    """Whenever this blocks a creature (CR 509.3b), or with ``or_blocked`` also whenever it
    becomes blocked by a creature (509.3d): once for each such creature,
    ``BLOCK_PARTNER``."""

    or_blocked: bool = False


@dataclass(frozen=True, slots=True)
class CounterRemovedFromSelf:
    """Whenever a ``kind`` counter is removed from this permanent: once for each counter (three
    removed at once trigger it three times)."""

    kind: str


@dataclass(frozen=True, slots=True)
class CreatureYouControlDies:
    """When a creature you control dies."""


@dataclass(frozen=True, slots=True)
class ChaosEnsues:
    """Whenever chaos ensues: a plane's chaos ability (CR 311.7)."""


@dataclass(frozen=True, slots=True)
class PlaneswalkTo:
    """When you planeswalk to this plane, or encounter this phenomenon (CR 312.5): when it is
    moved off a planar deck and turned face up after the game has begun (CR 901.11)."""


@dataclass(frozen=True, slots=True)
class PlaneswalkAway:
    """When you planeswalk away from this plane (CR 701.24d)."""


@dataclass(frozen=True, slots=True)
class SetInMotion:
    """When you set this scheme in motion (CR 701.25, 904.9)."""


@dataclass(frozen=True, slots=True)
class PlanarDieRolled:
    """Whenever you roll the Planeswalker symbol on the planar die (CR 901.8)."""


@dataclass(frozen=True, slots=True)
class BecomesTarget:
    """When this permanent (``what='self'``) or the permanent this Aura enchants
    (``'enchanted'``) becomes the target of a spell or ability: as the spell is cast, the
    ability activated or put on the stack (CR 601.2i, 602.2b, 603.3d; attachments.py)."""

    what: str = "self"


TriggerEvent = (AtUpkeep | SelfEnters | CreatureEnters | DealsCombatDamage | PlayerLoses |
    LastCounterRemoved | BecomesTapped | BecomesUntapped | CardLeavesYourZone |
    CreatureLeavesBattlefield | AtDrawStep | AtEndStep | LandEnters | PlayerCastsSpell |
    CreatureYouControlDies | ChaosEnsues | PlaneswalkTo | PlaneswalkAway | SetInMotion |
    PlanarDieRolled | CounterRemovedFromSelf | PlayerDoes | DealsDamage | Attacks | Blocks |
    BecomesTarget | SelfDies)

# --------------------------------------------------------------------------- abilities


@dataclass(frozen=True, slots=True)
class Cost:
    """An activation cost: mana, {T}, sacrificing this or a permanent of a kind (``sacrifice``
    names a card type or a subtype: "Sacrifice a creature", "Sacrifice a Goblin"; the player
    chooses which as they pay, CR 601.2h, 602.2b), loyalty (+N / -N; ``loyalty_x``: "[-X]",
    the player chooses X as the ability is activated, CR 107.3, 606.4), removing a counter of
    the kind ``remove_counter`` from this (CR 118.3: only with one to remove)."""

    mana: ManaCost | None = None
    tap: bool = False
    sacrifice_self: bool = False
    loyalty: int | None = None
    loyalty_x: bool = False
    sacrifice: str = ""
    remove_counter: str = ""

    @property
    def is_loyalty(self) -> bool:
        """A loyalty ability's cost (CR 606.2)."""
        return self.loyalty is not None or self.loyalty_x

    def describe(self) -> str:
        parts: list[str] = []
        if self.loyalty is not None:
            parts.append(f"+{self.loyalty}" if self.loyalty > 0 else f"\u2212{-self.loyalty}")
        if self.loyalty_x:
            parts.append("\u2212X")
        if self.mana is not None:
            parts.append(str(self.mana))
        if self.tap:
            parts.append("{T}")
        if self.sacrifice_self:
            parts.append("Sacrifice this")
        if self.sacrifice:
            kind = self.sacrifice.lower() if self.sacrifice in CARD_TYPES else self.sacrifice
            parts.append(f"Sacrifice a {kind}")
        if self.remove_counter:
            parts.append(f"Remove a {self.remove_counter} counter from this")
        return ", ".join(parts)


@dataclass(frozen=True, slots=True)
class ManaAbility:
    """``{T}: Add {C}`` (CR 605): one mana of the type ``produces``; of one of its types when
    it names several ("BR": "Add {B} or {R}"), or of any colour when it is ``ANY_COLOR``; the
    player chooses. With ``per_subtype``, that mana once for each permanent of that subtype
    its controller controls ("Add {G} for each Elf you control", counted as it is
    activated)."""

    produces: str
    per_subtype: str = ""


@dataclass(frozen=True, slots=True)
class Activated:
    cost: Cost
    effects: tuple[Effect, ...]
    targets: tuple[TargetSpec, ...] = ()
    sorcery_speed: bool = False
    text: str = ""
    anyone: bool = False  # any player may activate it, not only its controller
    # The zone it works from when that is not the battlefield: "graveyard" for "Return this
    # from your graveyard to your hand" (CR 113.6b, 113.6m).
    zone: str = ""


@dataclass(frozen=True, slots=True)
class Triggered:
    event: TriggerEvent
    effects: tuple[Effect, ...]
    condition: Condition | None = None  # intervening "if" clause (CR 603.4)
    targets: tuple[TargetSpec, ...] = ()
    text: str = ""


@dataclass(frozen=True, slots=True)
class ControlEnchanted:
    """You control enchanted creature (layer 2)."""


@dataclass(frozen=True, slots=True)
class CantLose:
    """``who`` ('you' or 'opponents') can't lose the game (CR 104.3 is then blocked)."""

    who: str


@dataclass(frozen=True, slots=True)
class CantWin:
    who: str


@dataclass(frozen=True, slots=True)
class EmptyLibraryDrawWins:
    """If you would draw a card while your library has no cards in it, you win instead
    (a draw replacement, CR 614.11)."""


@dataclass(frozen=True, slots=True)
class EntersTapped:
    pass


@dataclass(frozen=True, slots=True)
class EntersWithCounters:
    """"~ enters with ``amount`` ``kind`` counters on it" (CR 614.1c); ``X`` is the X of the
    spell that became it (CR 107.3m)."""

    kind: str
    amount: int | XValue


@dataclass(frozen=True, slots=True)
class CreaturesGet:
    """Creatures (``whose='all'``) or creatures you control (``'you'``) get
    +``power``/+``toughness`` (layer 7c). The filters narrow it: ``other`` (not the source
    itself), ``subtype`` ("Other Goblin creatures"), ``color`` ("White creatures", a colour
    letter, read after layer 5) and ``having`` (creatures with that keyword, read after
    layer 6). ``self_too`` counts the source itself whatever its types ("~ and other Vampire
    creatures"); ``while_top_card`` (a colour letter) applies it only while the top card of
    its controller's library has that colour ("as long as the top card of your library is
    black")."""

    power: int
    toughness: int
    whose: str = "all"
    other: bool = False
    subtype: str = ""
    color: str = ""
    having: Keyword = ""
    self_too: bool = False
    while_top_card: str = ""


@dataclass(frozen=True, slots=True)
class CreaturesHave:
    """Creatures (``whose='all'``) or creatures you control (``'you'``) have ``keyword``
    (layer 6); the filters as for :class:`CreaturesGet`. A ``having`` filter makes the effect
    depend on the effects that add or remove that keyword (CR 613.8a)."""

    keyword: Keyword
    whose: str = "you"
    other: bool = False
    subtype: str = ""
    color: str = ""
    having: Keyword = ""
    self_too: bool = False
    while_top_card: str = ""


@dataclass(frozen=True, slots=True)
class EnchantedGets:
    """An Aura's "Enchanted creature gets +``power``/+``toughness``", or an Equipment's
    "Equipped creature gets ..." (read of the creature it is attached to, CR 301.5a, 301.5f;
    like ``EnchantedCant``), in layer 7c, times the
    number of lands of ``per_land`` its controller controls when that is set ("+1/+1 for each
    Plains you control"), "and has ``keywords``" (layer 6), "and loses ``loses``" (layer 6,
    after the keywords it grants)."""

    power: int
    toughness: int
    keywords: tuple[Keyword, ...] = ()
    per_land: str = ""
    loses: tuple[Keyword, ...] = ()


@dataclass(frozen=True, slots=True)
class EnchantedCant:
    """What the enchanted or equipped creature can't do while this is attached to it: attack,
    block, have its activated abilities activated (CR 602.5), untap during its controller's
    untap step (CR 502.3), or be blocked. ``harmful`` tells whoever chooses its target (a
    bot) that it hurts the creature's controller."""

    attack: bool = False
    block: bool = False
    activate: bool = False
    untap: bool = False
    be_blocked: bool = False

    @property
    def harmful(self) -> bool:
        return self.attack or self.block or self.activate or self.untap


@dataclass(frozen=True, slots=True)
class PreventNoncombatDamageToEnchanted:
    """"Prevent all noncombat damage that would be dealt to equipped creature" (CR 615):
    asked where damage is prevented (damage.py)."""


@dataclass(frozen=True, slots=True)
class ChooseBasicLandType:
    """"As ~ enters, choose a basic land type" (CR 614.12): the choice is kept on the
    permanent (``Obj.chosen``)."""


@dataclass(frozen=True, slots=True)
class EnchantedIsChosenType:
    """"Enchanted land is the chosen type" (layer 4, CR 305.7): its land types become the
    chosen basic land type, it loses the abilities of its rules text and has that type's
    mana ability."""


@dataclass(frozen=True, slots=True)
class SharedTypeBonus:
    """"Each creature gets +1/+1 for each other creature on the battlefield that shares at
    least one creature type with it" (layer 7c, reading creature types after layer 4)."""


@dataclass(frozen=True, slots=True)
class PowerToughnessEqualTo:
    """A characteristic-defining ability (CR 604.3, layer 7a): "~'s power and toughness are
    each equal to the number of ``land_type`` you control"."""

    land_type: str


@dataclass(frozen=True, slots=True)
class PowerToughnessEqualToLife:
    """A characteristic-defining ability (CR 604.3, layer 7a): "This creature's power and
    toughness are each equal to your life total" (its controller's)."""


@dataclass(frozen=True, slots=True)
class EntersAsCopy:
    """"You may have ~ enter as a copy of any creature on the battlefield" (CR 707.2, layer 1):
    as it enters, its controller may choose a creature; it enters with that creature's
    copiable values."""


@dataclass(frozen=True, slots=True)
class SpellsCostLess:
    """Spells you cast cost {``generic``} less to cast (CR 601.2f)."""

    generic: int


@dataclass(frozen=True, slots=True)
class CombatLimit:
    """No more than ``most`` creature(s) can attack (``what='attack'``) or block (``'block'``)
    each combat."""

    what: str
    most: int = 1


@dataclass(frozen=True, slots=True)
class PreventOneFromOpponents:
    """If a source an opponent controls would deal damage to you, prevent 1 of that damage."""


@dataclass(frozen=True, slots=True)
class PreventDamageRemoveCounters:
    """"If damage would be dealt to ~, prevent that damage and remove that many ``kind``
    counters from it" (CR 615.5: the counters go right after the prevention)."""

    kind: str = "+1/+1"


@dataclass(frozen=True, slots=True)
class EntersTappedUnlessControl:
    """"~ enters tapped unless you control a [``land_types``, one of them]" (CR 614.1d, a
    replacement applied as it enters, 614.12)."""

    land_types: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ShuffleIntoLibraryInstead:
    """"If ~ would be put into a graveyard from anywhere, reveal ~ and shuffle it into its
    owner's library instead" (CR 614.1a; it works from every zone)."""


@dataclass(frozen=True, slots=True)
class CantBeCountered:
    """"This spell can't be countered" (CR 101.2: an effect that would counter it does
    nothing to it)."""


@dataclass(frozen=True, slots=True)
class RegenerateInstead:
    """"If ~ would be destroyed, regenerate it": a static ability that regenerates the
    permanent each time it would be destroyed, using up nothing (CR 701.15b)."""


@dataclass(frozen=True, slots=True)
class UntapDuringOpponentsUntap:
    """Untap all permanents you control during each opponent's untap step."""


@dataclass(frozen=True, slots=True)
class NoMaximumHandSizeStatic:
    """"You have no maximum hand size": for as long as its controller controls this (CR 402.2,
    514.1). The effect :class:`NoMaximumHandSize` does the same for a set time."""


@dataclass(frozen=True, slots=True)
class CostsMorePerExtraTarget:
    """This spell costs {``generic``} more to cast for each target beyond the first
    (CR 601.2f: an additional cost fixed as the total cost is determined)."""

    generic: int


@dataclass(frozen=True, slots=True)
class CantBeBlocked:
    """"~ can't be blocked" (a restriction on blocks, CR 509.1b); with ``except_colors`` (colour
    letters), "except by [black] creatures": only a creature of one of them may block it."""

    except_colors: str = ""


@dataclass(frozen=True, slots=True)
class BlocksAnyNumber:
    """"~ can block any number of creatures" (CR 509.1a: one blocker, several attackers)."""


@dataclass(frozen=True, slots=True)
class AttacksEachCombat:
    """"~ attacks each combat if able": a requirement on attacks (CR 508.1d)."""


@dataclass(frozen=True, slots=True)
class CantAttackOrBlockAlone:
    """"~ can't attack or block alone": it attacks only if another creature also attacks, and
    blocks only if another creature also blocks (CR 508.1c, 509.1b)."""


@dataclass(frozen=True, slots=True)
class MustBeBlockedByAll:
    """"All creatures able to block ~ do so": a requirement on each creature that could block
    it (CR 509.1c)."""


@dataclass(frozen=True, slots=True)
class CantAttackUnlessDefenderControls:
    """"~ can't attack unless defending player controls a ``land_type``" (CR 508.1c)."""

    land_type: str


@dataclass(frozen=True, slots=True)
class GetsPerOtherNamed:
    """"~ gets +``power``/+``toughness`` for each other creature on the battlefield with its
    name" (layer 7c)."""

    power: int = 1
    toughness: int = 1


@dataclass(frozen=True, slots=True)
class ChooseCardName:
    """"As ~ enters, choose a card name" (CR 614.12b): its controller names a card as it
    enters; the name is the permanent's chosen name."""


@dataclass(frozen=True, slots=True)
class NamedCantBeActivated:
    """"Activated abilities of sources with the chosen name can't be activated unless they're
    mana abilities" (CR 605.1a: mana abilities are not stopped)."""


@dataclass(frozen=True, slots=True)
class AnyNumberInDeck:
    """"A deck can have any number of cards named ~": the four-copy limit does not apply to it
    (CR 100.2a). It works outside the game, in deck construction."""


@dataclass(frozen=True, slots=True)
class OpponentsPlayWithHandsRevealed:
    """Your opponents play with their hands revealed: shown to every player (CR 701.16a) for
    as long as the ability applies."""


@dataclass(frozen=True, slots=True)
class PlayWithTopCardRevealed:
    """Play with the top card of your library revealed: whichever card is on top is shown to
    every player for as long as the ability applies."""


Static = (ControlEnchanted | CantLose | CantWin | EmptyLibraryDrawWins | EntersTapped |
    EntersWithCounters | CreaturesGet | CreaturesHave | SpellsCostLess | CombatLimit |
    PreventOneFromOpponents | UntapDuringOpponentsUntap | CostsMorePerExtraTarget |
    EnchantedGets | PowerToughnessEqualTo | SharedTypeBonus | EntersAsCopy |
    PowerToughnessEqualToLife | PreventDamageRemoveCounters | EntersTappedUnlessControl |
    ShuffleIntoLibraryInstead | CantBeCountered | RegenerateInstead | EnchantedCant |
    PreventNoncombatDamageToEnchanted | ChooseBasicLandType | EnchantedIsChosenType |
    NoMaximumHandSizeStatic | CantBeBlocked | AttacksEachCombat | CantAttackOrBlockAlone |
    MustBeBlockedByAll | CantAttackUnlessDefenderControls | GetsPerOtherNamed |
    AnyNumberInDeck | ChooseCardName | NamedCantBeActivated | BlocksAnyNumber |
    OpponentsPlayWithHandsRevealed | PlayWithTopCardRevealed)

# The statics whose effects are applied in layers (server/rules/layers.py).
LAYERED_STATICS = (CreaturesGet, CreaturesHave, EnchantedGets, PowerToughnessEqualTo,
                   SharedTypeBonus, PowerToughnessEqualToLife, EnchantedIsChosenType,
                   GetsPerOtherNamed)

# Statics that change other objects or the rules of the game, or a characteristic of their
# own object that is not its printed value (a characteristic-defining ability): the game keeps
# the objects that have them in a list so that each check is a short loop.
GLOBAL_STATICS = (*LAYERED_STATICS, SpellsCostLess, CombatLimit, PreventOneFromOpponents,
                  UntapDuringOpponentsUntap, EnchantedCant, PreventNoncombatDamageToEnchanted,
                  NoMaximumHandSizeStatic, NamedCantBeActivated,
                  OpponentsPlayWithHandsRevealed, PlayWithTopCardRevealed)
Ability = ManaAbility | Activated | Triggered | Static

# --------------------------------------------------------------------------- the card


_MANA_IN_TEXT = re.compile(r"\{([WUBRG])\}")


@dataclass(frozen=True)
class CardDef:
    """One card's definition. ``text`` is its Oracle text (card data, shown to players)."""

    name: str
    types: frozenset[str]
    cost: ManaCost | None = None
    subtypes: tuple[str, ...] = ()
    supertypes: frozenset[str] = frozenset()
    power: int | None = None
    toughness: int | None = None
    loyalty: int | None = None
    keywords: frozenset[Keyword] = frozenset()
    text: str = ""
    spell: tuple[Effect, ...] = ()
    targets: tuple[TargetSpec, ...] = ()
    exile_on_resolve: bool = False
    enchant: TargetSpec | None = None
    # "Any number of targets" (at least one): the last of ``targets`` may be chosen again, for
    # a different player or object each time (CR 601.2c).
    any_number_of_targets: bool = False
    # "Spend only black mana on X": the colour each {X} must be paid with (CR 107.3, 601.2h).
    x_color: str = ""
    abilities: tuple[Ability, ...] = ()
    token: bool = False
    # A colour set other than by the mana cost: a token's colour, which the effect that
    # creates it sets (CR 111.3, 105.2), or a colour indicator (CR 204).
    color_indicator: frozenset[str] = frozenset()
    test_only: bool = False
    hand_modifier: int = 0  # a vanguard's (CR 313.6)
    life_modifier: int = 0  # a vanguard's (CR 313.7)
    color_identity: frozenset[str] = field(default=frozenset(), compare=False)

    def __post_init__(self) -> None:
        unknown = [k for k in self.keywords if isinstance(k, str) and k not in KEYWORDS]
        if unknown:  # a word the engine does not read would silently do nothing
            raise ValueError(f"{self.name}: unknown keyword(s) {', '.join(sorted(unknown))}")
        # CR 903.4: colour identity is every mana symbol in the cost and the rules text.
        identity = set(self.cost.colors if self.cost else ()) | self.color_indicator
        identity.update(c for c in _MANA_IN_TEXT.findall(self.text) if c in COLORS)
        object.__setattr__(self, "color_identity", frozenset(identity))

    def is_(self, card_type: str) -> bool:
        return card_type in self.types

    @cached_property
    def colors(self) -> frozenset[str]:
        """CR 105.2, 202.2: a card's colours are those of the mana symbols in its cost."""
        printed = self.cost.colors if self.cost is not None else frozenset()
        return printed | self.color_indicator if self.color_indicator else printed

    @property
    def is_permanent_card(self) -> bool:
        return bool(self.types & {"Land", "Creature", "Artifact", "Enchantment", "Planeswalker"})

    @cached_property
    def is_aura(self) -> bool:
        return "Aura" in self.subtypes

    @property
    def harmful(self) -> bool:
        """Does this Aura hurt what it enchants or its controller (a smaller creature, one
        that can't attack or untap, life lost)? Whoever picks its target, a bot, aims it at
        an opponent's creature; its other Auras go on its own."""
        for a in self.abilities:
            if isinstance(a, EnchantedCant) and a.harmful:
                return True
            if isinstance(a, EnchantedGets) and a.power + a.toughness < 0:
                return True
            if isinstance(a, Triggered) and a.event == AtUpkeep("enchanted"):
                return True
        return False

    @cached_property
    def legendary(self) -> bool:
        return "Legendary" in self.supertypes

    @property
    def supplementary(self) -> bool:
        """A nontraditional card: a plane, phenomenon, scheme or vanguard (CR 311-314)."""
        return bool(self.types & SUPPLEMENTARY_TYPES)

    @property
    def planar(self) -> bool:
        return bool(self.types & PLANAR_TYPES)

    @property
    def ongoing(self) -> bool:
        return ONGOING in self.supertypes

    @cached_property
    def keyword_values(self) -> tuple[Landwalk | Protection | Ward, ...]:
        """The keywords that carry a parameter, for the engine's questions about them."""
        return tuple(k for k in self.keywords if not isinstance(k, str))

    @cached_property
    def subtype_set(self) -> frozenset[str]:
        """Its subtypes as a set, as the layers start from them (asked at every recompute)."""
        return frozenset(self.subtypes)

    @cached_property
    def mana_abilities(self) -> tuple[ManaAbility, ...]:
        """Its printed mana abilities, in order (asked for every legal-action list)."""
        return tuple(a for a in self.abilities if isinstance(a, ManaAbility))

    @cached_property
    def activated(self) -> tuple[tuple[int, Activated], ...]:
        """Its activated abilities with their indexes (asked for every legal-action list)."""
        return tuple((i, a) for i, a in enumerate(self.abilities) if isinstance(a, Activated))

    @cached_property
    def cast_any_time(self) -> bool:
        """A spell that may be cast whenever its caster has priority, by its printed type and
        keywords: an instant, or a card with flash (CR 117.1a, 702.8a); the others wait for
        sorcery timing (307.1). Asked of each card in hand for every legal-action list."""
        return "Instant" in self.types or FLASH in self.keywords

    @cached_property
    def spell_target_specs(self) -> tuple[TargetSpec, ...]:
        """What its targets must be as a spell: its Aura's enchant, or its targets (asked
        for every castability question; casting.spell_target_specs adds "any number")."""
        specs = (self.enchant,) if self.enchant is not None else self.targets
        return tuple(s for s in specs if s is not None)

    @cached_property
    def graveyard_abilities(self) -> tuple[int, ...]:
        """Indexes of its activated abilities that work from a graveyard (CR 113.6m)."""
        return tuple(i for i, a in enumerate(self.abilities)
                     if isinstance(a, Activated) and a.zone == "graveyard")

    @cached_property
    def global_statics(self) -> tuple[Static, ...]:
        return tuple(a for a in self.statics if isinstance(a, GLOBAL_STATICS))

    @cached_property
    def reveal_statics(self) -> tuple[Static, ...]:
        """Its statics that keep cards in hidden zones revealed (reveals.py asks every global
        source before each decision; most have none)."""
        return tuple(a for a in self.global_statics
                     if isinstance(a, (OpponentsPlayWithHandsRevealed, PlayWithTopCardRevealed)))

    @cached_property
    def statics(self) -> tuple[Static, ...]:
        return tuple(
            a for a in self.abilities
            if not isinstance(a, (ManaAbility, Activated, Triggered))
        )

    def type_line(self) -> str:
        head = " ".join([*sorted(self.supertypes), *sorted(self.types, key=_TYPE_ORDER.index)])
        return f"{head} \u2014 {' '.join(self.subtypes)}" if self.subtypes else head


_TYPE_ORDER = ["Artifact", "Enchantment", "Land", "Planeswalker", "Creature", "Instant", "Sorcery",
               PLANE, PHENOMENON, SCHEME, VANGUARD]
