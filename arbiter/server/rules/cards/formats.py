"""Deck construction: whether a deck list is legal in a format (CR 100.2, 100.4, 903.5) and
whether its supplementary decks are legal in the variants that use them (CR 901.3, 902.3,
904.3).

:func:`deck_problems` returns every violation at once, each naming the deck-list line it is about
and the rule it breaks, so a player fixes a deck in one go. The engine's configuration check
(:func:`arbiter.server.rules.config.validate`) and the server's deck submission both call it: it is
the one place these rules live.

Formats:

- ``constructed``: at least 60 cards, at most four of a card other than basic lands across the
  deck and the sideboard, a sideboard of at most 15 (CR 100.2a, 100.4a).
- ``limited``: at least 40 cards, any number of copies (CR 100.2b, 100.4b).
- ``commander``: exactly 100 cards including the commander, one of each card other than basic
  lands, every card within the commander's colour identity (CR 903.5a-c).
- ``casual``: no limits on the deck; for quick games and the small test decks.

Formats govern the traditional deck and sideboard. Nontraditional cards never belong in either
(CR 100.2d), and the supplementary decks follow their variant's rules in every format.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from .decks import (
    COMMANDER_LINE,
    MAIN,
    PLANAR,
    SCHEMES,
    SIDEBOARD,
    VANGUARD_LINE,
    DeckList,
    Line,
)
from .pool import lookup
from .vocab import PHENOMENON, PLANE, SCHEME, VANGUARD, AnyNumberInDeck, CardDef

CONSTRUCTED = "constructed"
LIMITED = "limited"
COMMANDER = "commander"
CASUAL = "casual"
FORMATS = (CONSTRUCTED, LIMITED, COMMANDER, CASUAL)

CONSTRUCTED_MINIMUM = 60  # CR 100.2a
LIMITED_MINIMUM = 40  # CR 100.2b
SIDEBOARD_MAXIMUM = 15  # CR 100.4a
COPIES_MAXIMUM = 4  # CR 100.2a
COMMANDER_SIZE = 100  # CR 903.5a
PLANAR_MINIMUM = 10  # CR 901.3
PHENOMENA_MAXIMUM = 2  # CR 901.3
SCHEME_MINIMUM = 20  # CR 904.3
SCHEME_COPIES_MAXIMUM = 2  # CR 904.3

# Which part of a deck list each kind of nontraditional card belongs to.
_HOME = {PLANE: PLANAR, PHENOMENON: PLANAR, SCHEME: SCHEMES, VANGUARD: VANGUARD_LINE}
_SECTION_WORDS = {MAIN: "the deck", SIDEBOARD: "the sideboard", PLANAR: "the planar deck",
                  SCHEMES: "the scheme deck", VANGUARD_LINE: "the Vanguard line",
                  COMMANDER_LINE: "the Commander line"}


@dataclass(frozen=True)
class DeckProblem:
    """One way a deck breaks a rule: the line it is about (None: the deck as a whole)."""

    line: Line | None
    why: str
    rule: str

    def __str__(self) -> str:
        where = f"line {self.line.number} ({self.line.text!r}): " if self.line else ""
        return f"{where}{self.why} (CR {self.rule})"


@dataclass(frozen=True)
class Needs:
    """Which supplementary parts the game will use from this deck."""

    planar: bool = False  # Planechase
    schemes: bool = False  # this player is the archenemy
    vanguard: bool = False  # Vanguard


NOTHING_MORE = Needs()


def default_format(variant: str) -> str:
    """The format a game uses when none is named: Commander games check Commander decks;
    everything else is casual, as games were before formats existed."""
    return COMMANDER if variant == COMMANDER else CASUAL


def deck_problems(deck: DeckList, fmt: str, needs: Needs = NOTHING_MORE, *,
                  allow_test: bool = False) -> list[DeckProblem]:
    """Every violation of ``fmt`` and of the needed supplementary decks' rules, in line order
    (problems with the deck as a whole come first)."""
    lines = deck.entries()
    out: list[DeckProblem] = []
    out.extend(_placement(lines, needs, allow_test))
    traditional = [ln for ln in lines if ln.section in (MAIN, SIDEBOARD, COMMANDER_LINE)]
    if fmt == CONSTRUCTED:
        out.extend(_constructed(deck, traditional, allow_test))
    elif fmt == LIMITED:
        size = len(deck.main)
        if size < LIMITED_MINIMUM:
            out.append(DeckProblem(None, f"the deck has {size} cards; a limited deck has at "
                                         f"least {LIMITED_MINIMUM}", "100.2b"))
    elif fmt == COMMANDER:
        out.extend(_commander(deck, traditional, allow_test))
    if needs.planar:
        out.extend(_planar(deck, lines, allow_test))
    if needs.schemes:
        out.extend(_schemes(deck, lines))
    if needs.vanguard and deck.vanguard is None:
        out.append(DeckProblem(None, "a Vanguard game needs a vanguard card: add a "
                                     "'Vanguard: NAME' line", "902.3"))
    return sorted(out, key=lambda p: p.line.number if p.line else 0)


def _card(name: str, allow_test: bool) -> CardDef | None:
    return lookup(name, allow_test=allow_test)


def _basic(card: CardDef | None) -> bool:
    return card is not None and "Basic" in card.supertypes and card.is_("Land")


def _any_number(card: CardDef | None) -> bool:
    """"A deck can have any number of cards named ~" (CR 100.2a)."""
    return card is not None and any(isinstance(st, AnyNumberInDeck) for st in card.statics)


def _placement(lines: tuple[Line, ...], needs: Needs, allow_test: bool) -> list[DeckProblem]:
    """Nontraditional cards go in their own supplementary deck, and nothing else does
    (CR 100.2d, 311.2-314.2)."""
    out = []
    used = {PLANAR: needs.planar, SCHEMES: needs.schemes, VANGUARD_LINE: needs.vanguard}
    for ln in lines:
        card = _card(ln.name, allow_test)
        if card is None or not used.get(ln.section, True):
            continue  # a part the game doesn't use is left out of it
        kinds = [t for t in (PLANE, PHENOMENON, SCHEME, VANGUARD) if card.is_(t)]
        home = _HOME[kinds[0]] if kinds else None
        if home == ln.section or (home is None and ln.section in (MAIN, SIDEBOARD,
                                                                  COMMANDER_LINE)):
            continue
        what = f"a {kinds[0].lower()}" if kinds else "a traditional card"
        where = _SECTION_WORDS[home] if home else "the deck or the sideboard"
        rule = {PLANAR: "901.3", SCHEMES: "904.3", VANGUARD_LINE: "902.3"}.get(
            home or ln.section, "100.2d")
        out.append(DeckProblem(ln, f"{ln.name} is {what}: it belongs in {where}, not in "
                                   f"{_SECTION_WORDS[ln.section]}", rule))
    return out


def _constructed(deck: DeckList, lines: list[Line], allow_test: bool) -> list[DeckProblem]:
    out = []
    size = len(deck.main)
    if size < CONSTRUCTED_MINIMUM:
        out.append(DeckProblem(None, f"the deck has {size} cards; a constructed deck has at "
                                     f"least {CONSTRUCTED_MINIMUM}", "100.2a"))
    side = len(deck.sideboard)
    if side > SIDEBOARD_MAXIMUM:
        first = next((ln for ln in lines if ln.section == SIDEBOARD), None)
        out.append(DeckProblem(first, f"the sideboard has {side} cards; a constructed "
                                      f"sideboard has at most {SIDEBOARD_MAXIMUM}", "100.4a"))
    # CR 100.2a / 100.4a: at most four of a name other than basic lands, counting the deck
    # and the sideboard together. The line that takes a name past four is the one named.
    seen: Counter[str] = Counter()
    in_main = Counter(deck.main)
    for ln in lines:
        if _basic(_card(ln.name, allow_test)) or _any_number(_card(ln.name, allow_test)):
            continue
        before = seen[ln.name]
        seen[ln.name] += ln.count
        if before <= COPIES_MAXIMUM < seen[ln.name]:
            total = in_main[ln.name] + deck.sideboard.count(ln.name)
            if ln.section == SIDEBOARD:
                why = (f"{total} cards named {ln.name} across the deck and the sideboard; at "
                       f"most {COPIES_MAXIMUM} other than basic lands")
                rule = "100.4a"
            else:
                why = (f"{in_main[ln.name]} cards named {ln.name}; a constructed deck has at "
                       f"most {COPIES_MAXIMUM} of a card other than basic lands")
                rule = "100.2a"
            out.append(DeckProblem(ln, why, rule))
    return out


def _commander(deck: DeckList, lines: list[Line], allow_test: bool) -> list[DeckProblem]:
    out = []
    if deck.commander is None:
        return [DeckProblem(None, "a Commander deck names its commander: add a "
                                  "'Commander: NAME' line", "903.3")]
    size = len(deck.main)
    if size != COMMANDER_SIZE:
        out.append(DeckProblem(None, f"the deck has {size} cards including its commander; a "
                                     f"Commander deck has exactly {COMMANDER_SIZE}", "903.5a"))
    commander = _card(deck.commander, allow_test)
    identity = commander.color_identity if commander is not None else frozenset()
    seen: set[str] = set()
    for ln in lines:
        if ln.section == SIDEBOARD:
            continue
        card = _card(ln.name, allow_test)
        if card is None or card.supplementary:
            continue
        # CR 903.5b: the card's own "any number" text beats the singleton rule too.
        if not (_basic(card) or _any_number(card)) and (ln.name in seen or ln.count > 1):
            out.append(DeckProblem(ln, f"more than one card named {ln.name}; other than basic "
                                       "lands, each card in a Commander deck has a different "
                                       "name", "903.5b"))
        seen.add(ln.name)
        outside = card.color_identity - identity
        if outside:
            out.append(DeckProblem(ln, f"{ln.name}'s colour identity ({''.join(sorted(outside))}"
                                       f") is outside {deck.commander}'s", "903.5c"))
    return out


def _planar(deck: DeckList, lines: tuple[Line, ...], allow_test: bool) -> list[DeckProblem]:
    out = []
    planar = [ln for ln in lines if ln.section == PLANAR]
    if len(deck.planar) < PLANAR_MINIMUM:
        out.append(DeckProblem(None, f"the planar deck has {len(deck.planar)} cards; a planar "
                                     f"deck has at least {PLANAR_MINIMUM} planes and "
                                     "phenomena", "901.3"))
    seen: set[str] = set()
    phenomena = 0
    for ln in planar:
        card = _card(ln.name, allow_test)
        if ln.name in seen or ln.count > 1:
            out.append(DeckProblem(ln, f"more than one card named {ln.name}; each card in a "
                                       "planar deck has a different name", "901.3"))
        seen.add(ln.name)
        if card is not None and card.is_(PHENOMENON):
            phenomena += ln.count
            if phenomena > PHENOMENA_MAXIMUM:
                out.append(DeckProblem(ln, f"more than {PHENOMENA_MAXIMUM} phenomena in the "
                                           "planar deck", "901.3"))
    return out


def _schemes(deck: DeckList, lines: tuple[Line, ...]) -> list[DeckProblem]:
    out = []
    if len(deck.schemes) < SCHEME_MINIMUM:
        out.append(DeckProblem(None, f"the scheme deck has {len(deck.schemes)} cards; the "
                                     f"archenemy's scheme deck has at least {SCHEME_MINIMUM}",
                               "904.3"))
    seen: Counter[str] = Counter()
    for ln in lines:
        if ln.section != SCHEMES:
            continue
        before = seen[ln.name]
        seen[ln.name] += ln.count
        if before <= SCHEME_COPIES_MAXIMUM < seen[ln.name]:
            out.append(DeckProblem(ln, f"{seen[ln.name]} cards named {ln.name}; a scheme deck "
                                       f"has at most {SCHEME_COPIES_MAXIMUM} of a name",
                                   "904.3"))
    return out


# Which format each ready-made deck is built for: each is legal in it (with every part the
# variants use).
READY_FORMATS = {
    "gruul-stompy": CONSTRUCTED, "azorius-skies": CONSTRUCTED, "dimir-control": CONSTRUCTED,
    "boros-lifecycle": CONSTRUCTED, "quick-red": CASUAL, "quick-green": CASUAL,
    "quick-infect": CASUAL, "isamaru-commander": COMMANDER, "phage-commander": COMMANDER,
    "m10-white-weenie": CONSTRUCTED, "m10-blue-skies": CONSTRUCTED,
    "m10-black-control": CONSTRUCTED, "m10-red-burn": CONSTRUCTED,
    "m10-green-stompy": CONSTRUCTED, "m10-azorius-artifacts": CONSTRUCTED,
}


def stand_in(fmt: str) -> str:
    """A ready-made deck legal in ``fmt`` (the room checks a combination of settings with it
    before anyone has chosen a deck)."""
    if fmt == LIMITED:
        return "gruul-stompy"  # a legal constructed deck is a legal limited deck
    return next(name for name, f in READY_FORMATS.items() if f == fmt)
