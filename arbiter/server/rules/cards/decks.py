"""Ready-made decks and the plain-text deck-list format.

The format, one entry per line::

    # comments and blank lines are ignored
    4 Lightning Bolt
    Mountain                 (a count of 1 may be left out)
    Sideboard                (every line after this header is in the sideboard)
    2 Hill Giant
    Commander: Isamaru, Hound of Konda
    Planar deck              (the planes and phenomena of a Planechase game, CR 901.3)
    Krosa
    Scheme deck              (the schemes of the archenemy, CR 904.3)
    2 Look Skyward and Despair
    Vanguard: Maraxus        (a Vanguard game's vanguard card, CR 902.3)

A ``Commander:`` line names the deck's commander; the commander counts as one of the deck's cards
(CR 903.5a), so it is added to the main deck. ``Deck`` (or ``Main``) goes back to the main deck.
Unknown card names and malformed lines are refused (``bad_deck``:
:class:`~arbiter.protocol.errors.Refusal`) naming the line. Whether a deck is legal in a format is a
separate question (:mod:`arbiter.server.rules.cards.formats`), answered with the lines this parse
records.

Every ready-made deck comes with the nontraditional cards the variants use: a planar deck, a
scheme deck and a vanguard. A game uses only the parts its variant needs.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from arbiter.protocol.errors import Code, Refusal

from .pool import lookup

_MAX_COUNT = 250  # copies of one card on one line; more is a typo, not a deck
_QUOTED = 80  # characters of an offending line quoted back in an error
_ENTRY = re.compile(r"^(?:(\d+)\s*[xX]?\s+)?(\S.*?)\s*$")

MAIN, SIDEBOARD, COMMANDER_LINE, PLANAR, SCHEMES, VANGUARD_LINE = (
    "main", "sideboard", "commander", "planar", "schemes", "vanguard")
_HEADERS = {"sideboard": SIDEBOARD, "deck": MAIN, "main": MAIN, "maindeck": MAIN,
            "planar deck": PLANAR, "planes": PLANAR, "scheme deck": SCHEMES, "schemes": SCHEMES}
_NAMED_LINES = {"commander": COMMANDER_LINE, "vanguard": VANGUARD_LINE}


@dataclass(frozen=True)
class Line:
    """One entry of a deck list as written: where it is and what it adds."""

    number: int
    text: str
    section: str  # main, sideboard, commander, planar, schemes or vanguard
    name: str
    count: int


@dataclass(frozen=True)
class DeckList:
    main: tuple[str, ...]
    sideboard: tuple[str, ...] = ()
    commander: str | None = None
    planar: tuple[str, ...] = ()  # the planar deck (CR 901.3)
    schemes: tuple[str, ...] = ()  # the scheme deck (CR 904.3)
    vanguard: str | None = None  # CR 902.3
    # The entries as written, for deck-construction messages; a deck built in code gets the
    # lines of its canonical text (see :meth:`entries`).
    lines: tuple[Line, ...] = field(default=(), compare=False, repr=False)

    def to_text(self) -> str:
        lines: list[str] = []
        if self.commander:
            lines.append(f"Commander: {self.commander}")
        main = list(self.main)
        if self.commander and self.commander in main:
            main.remove(self.commander)
        lines.extend(_grouped(main))
        for header, names in (("Sideboard", self.sideboard), ("Planar deck", self.planar),
                              ("Scheme deck", self.schemes)):
            if names:
                lines.append(header)
                lines.extend(_grouped(list(names)))
        if self.vanguard:
            lines.append(f"Vanguard: {self.vanguard}")
        return "\n".join(lines) + "\n"

    def entries(self) -> tuple[Line, ...]:
        """The deck's lines: as written when it was parsed, else those of :meth:`to_text`."""
        if self.lines:
            return self.lines
        return parse_deck_list(self.to_text(), allow_test=True).lines


def _grouped(names: list[str]) -> list[str]:
    counts: dict[str, int] = {}
    for n in names:
        counts[n] = counts.get(n, 0) + 1
    return [f"{c} {n}" for n, c in counts.items()]


def _room_for(sections: dict[str, list[str]], section: str, count: int, max_cards: int | None,
              lineno: int, line: str) -> None:
    """Refuse a line whose ``count`` copies would take the deck past ``max_cards`` (main deck
    and sideboard together; each supplementary deck on its own), before they are made."""
    if max_cards is None:
        return
    held = (len(sections[MAIN]) + len(sections[SIDEBOARD]) if section in (MAIN, SIDEBOARD)
            else len(sections[section]))
    if held + count > max_cards:
        what = "cards, sideboard included" if section in (MAIN, SIDEBOARD) else \
            f"cards in its {'planar' if section == PLANAR else 'scheme'} deck"
        raise _err(lineno, line, f"a deck has at most {max_cards} {what}")


def _err(lineno: int, line: str, why: str) -> Refusal:
    # The line is quoted so the player can find it; a pasted wall of text is cut short
    # so the error stays readable (and small on the wire).
    text = line.strip()
    if len(text) > _QUOTED:
        text = text[:_QUOTED] + "..."
    return Refusal(Code.BAD_DECK, f"line {lineno}: {why}: {text!r}")


def parse_deck_list(text: str, *, allow_test: bool = False,
                    max_cards: int | None = None) -> DeckList:
    """Read a deck list. With ``max_cards``, a list whose main deck and sideboard together
    (or any one supplementary deck) name more cards than that is refused at the line that goes
    past it, *before* that line's copies are made: counting first keeps a 20 KB list of
    ``250 Forest`` lines from costing hundreds of thousands of names (issue 27, item 15)."""
    sections: dict[str, list[str]] = {MAIN: [], SIDEBOARD: [], PLANAR: [], SCHEMES: []}
    named: dict[str, str | None] = {COMMANDER_LINE: None, VANGUARD_LINE: None}
    entries: list[Line] = []
    section = MAIN
    for lineno, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        header = line.rstrip(":").strip().lower()
        if header in _HEADERS:
            section = _HEADERS[header]
            continue
        label = line.split(":", 1)[0].strip().lower() if ":" in line else ""
        if label in _NAMED_LINES:
            kind = _NAMED_LINES[label]
            word = label.capitalize()
            name = line.split(":", 1)[1].strip()
            if not name:
                raise _err(lineno, raw, f"the {word} line names no card")
            if named[kind] is not None:
                raise _err(lineno, raw, f"a deck has one {word} line")
            if lookup(name, allow_test=allow_test) is None:
                raise _err(lineno, raw, f"unknown card {name!r}")
            named[kind] = name
            if kind == COMMANDER_LINE:
                _room_for(sections, MAIN, 1, max_cards, lineno, raw)
                sections[MAIN].append(name)
            entries.append(Line(lineno, line, kind, name, 1))
            continue
        m = _ENTRY.match(line)
        if m is None:
            raise _err(lineno, raw, "malformed line")
        digits = m.group(1)
        # Read the count only when it is short enough to be one: Python refuses to turn
        # thousands of digits into an int, and no count that long could be allowed anyway.
        if digits is None:
            count = 1
        else:
            significant = digits.lstrip("0")
            count = int(significant or "0") if len(significant) <= 3 else 0
        name = m.group(2)
        if count < 1 or count > _MAX_COUNT:
            raise _err(lineno, raw, f"the count must be between 1 and {_MAX_COUNT}")
        if lookup(name, allow_test=allow_test) is None:
            if re.fullmatch(r"\d+\s*[xX]?", line):
                raise _err(lineno, raw, "malformed line (a count with no card name)")
            raise _err(lineno, raw, f"unknown card {name!r}")
        _room_for(sections, section, count, max_cards, lineno, raw)
        sections[section].extend([name] * count)
        entries.append(Line(lineno, line, section, name, count))
    if not sections[MAIN]:
        raise Refusal(Code.BAD_DECK, "the deck list has no cards")
    return DeckList(tuple(sections[MAIN]), tuple(sections[SIDEBOARD]), named[COMMANDER_LINE],
                    tuple(sections[PLANAR]), tuple(sections[SCHEMES]), named[VANGUARD_LINE],
                    tuple(entries))


# The nontraditional parts of the ready-made decks: planar decks of ten different cards with
# at most two phenomena (CR 901.3), scheme decks of twenty with at most two of a name (CR 904.3).
PLANAR_WANDERER = """Krosa
Goldmeadow
Lethe Lake
Panopticon
Sanctum of Serra
Fields of Summer
The Hippodrome
Astral Arena
Mutual Epiphany
Planewide Disaster"""
PLANAR_SCHOLAR = """Academy at Tolaria West
Undercity Reaches
Krosa
Goldmeadow
Lethe Lake
Panopticon
Fields of Summer
Astral Arena
Sanctum of Serra
Chaotic Aether"""
PLANAR_GRAND_TOUR = """Academy at Tolaria West
Astral Arena
Fields of Summer
Goldmeadow
Krosa
Lethe Lake
Panopticon
Sanctum of Serra
The Hippodrome
Undercity Reaches"""
SCHEMES_TYRANT = """2 Look Skyward and Despair
2 The Iron Guardian Stirs
2 Know Naught but Fire
2 The Fate of the Flammable
2 Your Puny Minds Cannot Fathom
2 Realms Befitting My Majesty
2 The Very Soil Shall Shake
1 Behold the Power of Destruction
1 Embrace My Diabolical Vision
1 Surrender Your Thoughts
1 Your Will Is Not Your Own
1 Nothing Can Stop Me Now
1 I Know All, I See All"""
SCHEMES_SCHEMER = """2 Behold the Power of Destruction
2 Embrace My Diabolical Vision
2 Surrender Your Thoughts
2 Your Will Is Not Your Own
2 Nothing Can Stop Me Now
2 I Know All, I See All
1 Look Skyward and Despair
1 The Iron Guardian Stirs
1 Know Naught but Fire
1 The Fate of the Flammable
1 Your Puny Minds Cannot Fathom
1 Realms Befitting My Majesty
2 The Very Soil Shall Shake"""


def _deck(spec: str, sideboard: str = "", commander: str | None = None, *,
          planar: str = PLANAR_WANDERER, schemes: str = SCHEMES_TYRANT,
          vanguard: str = "Maraxus") -> DeckList:
    text = spec + ("\nSideboard\n" + sideboard if sideboard else "")
    if commander:
        text = f"Commander: {commander}\n" + text
    text += f"\nPlanar deck\n{planar}\nScheme deck\n{schemes}\nVanguard: {vanguard}\n"
    return parse_deck_list(text)


READY_MADE: dict[str, DeckList] = {
    "gruul-stompy": _deck(
        """12 Forest
        12 Mountain
        4 Llanowar Elves
        4 Runeclaw Bear
        4 Grizzly Bears
        4 Glistener Elf
        4 Hill Giant
        4 Lightning Bolt
        4 Lava Axe
        4 Act of Treason
        2 Living Wish
        2 Karn Liberated""",
        """1 Serra Angel
        1 Assault Griffin
        1 Forest
        1 Mountain""",
        planar=PLANAR_WANDERER, schemes=SCHEMES_TYRANT, vanguard="Tahngarth",
    ),
    "azorius-skies": _deck(
        """12 Plains
        12 Island
        2 Isamaru, Hound of Konda
        4 Assault Griffin
        4 Serra Angel
        4 Breezekeeper
        2 Laboratory Maniac
        2 Felidar Sovereign
        2 Platinum Angel
        4 Angel's Mercy
        4 Divination
        2 Mind Control
        2 Approach of the Second Sun
        2 Shahrazad
        1 Test of Endurance
        1 Celestial Convergence""",
        planar=PLANAR_SCHOLAR, schemes=SCHEMES_SCHEMER, vanguard="Serra",
    ),
    "dimir-control": _deck(
        """14 Island
        12 Swamp
        2 Wastes
        4 Plague Stinger
        4 Breezekeeper
        2 Laboratory Maniac
        2 Abyssal Persecutor
        1 Phage the Untouchable
        2 Platinum Angel
        4 Glimpse the Unthinkable
        2 Traumatize
        2 Bribery
        4 Divination
        2 Mind Control
        1 Door to Nothingness
        2 Karn Liberated""",
        planar=PLANAR_GRAND_TOUR, schemes=SCHEMES_SCHEMER, vanguard="Urza",
    ),
    "boros-lifecycle": _deck(
        """12 Plains
        12 Mountain
        4 Isamaru, Hound of Konda
        4 Assault Griffin
        4 Hill Giant
        4 Lightning Bolt
        4 Shahrazad
        4 Karn Liberated
        4 Act of Treason
        4 Angel's Mercy
        2 Divine Intervention
        2 Blood Tyrant""",
        """1 Serra Angel
        1 Runeclaw Bear""",
        planar=PLANAR_WANDERER, schemes=SCHEMES_TYRANT, vanguard="Maraxus",
    ),
    # Magic 2010 (M10): six decks of the set's cards alone, legal in constructed, each a
    # colour and a style, and between them most of what the set's rules do.
    "m10-white-weenie": _deck(
        """21 Plains
        4 Elite Vanguard
        2 Soul Warden
        4 Silvercoat Lion
        4 White Knight
        4 Veteran Swordsmith
        4 Stormfront Pegasus
        3 Serra Angel
        2 Captain of the Watch
        4 Pacifism
        4 Honor of the Pure
        2 Glorious Charge
        2 Ajani Goldmane""",
        planar=PLANAR_WANDERER, schemes=SCHEMES_TYRANT, vanguard="Serra",
    ),
    "m10-blue-skies": _deck(
        """21 Island
        4 Zephyr Sprite
        4 Wind Drake
        4 Snapping Drake
        3 Air Elemental
        2 Sage Owl
        3 Illusionary Servant
        1 Djinn of Wishes
        1 Sphinx Ambassador
        2 Cancel
        3 Essence Scatter
        3 Unsummon
        2 Ponder
        2 Divination
        2 Jace Beleren
        1 Time Warp
        2 Ice Cage""",
        planar=PLANAR_SCHOLAR, schemes=SCHEMES_SCHEMER, vanguard="Serra",
    ),
    "m10-black-control": _deck(
        """22 Swamp
        3 Drudge Skeletons
        2 Vampire Aristocrat
        3 Gravedigger
        2 Royal Assassin
        3 Hypnotic Specter
        2 Howling Banshee
        1 Xathrid Demon
        2 Nightmare
        4 Doom Blade
        2 Assassinate
        2 Mind Rot
        2 Duress
        3 Sign in Blood
        2 Tendrils of Corruption
        2 Liliana Vess
        2 Consume Spirit
        1 Underworld Dreams""",
        planar=PLANAR_WANDERER, schemes=SCHEMES_TYRANT, vanguard="Maraxus",
    ),
    "m10-red-burn": _deck(
        """24 Mountain
        4 Goblin Piker
        2 Raging Goblin
        3 Prodigal Pyromancer
        3 Dragon Whelp
        3 Canyon Minotaur
        2 Fiery Hellhound
        1 Shivan Dragon
        2 Siege-Gang Commander
        2 Ball Lightning
        4 Lightning Bolt
        2 Fireball
        2 Seismic Strike
        2 Lava Axe
        2 Chandra Nalaar
        1 Earthquake
        1 Firebreathing""",
        planar=PLANAR_GRAND_TOUR, schemes=SCHEMES_TYRANT, vanguard="Hanna",
    ),
    "m10-green-stompy": _deck(
        """24 Forest
        4 Llanowar Elves
        4 Runeclaw Bear
        4 Centaur Courser
        2 Giant Spider
        3 Cudgel Troll
        2 Craw Wurm
        2 Great Sable Stag
        1 Master of the Wild Hunt
        1 Ant Queen
        1 Acidic Slime
        1 Enormous Baloth
        4 Giant Growth
        2 Rampant Growth
        2 Garruk Wildspeaker
        1 Overrun
        1 Howl of the Night Pack
        1 Naturalize""",
        planar=PLANAR_WANDERER, schemes=SCHEMES_TYRANT, vanguard="Tahngarth",
    ),
    "m10-azorius-artifacts": _deck(
        """4 Glacial Fortress
        9 Plains
        9 Island
        4 Ornithopter
        3 Veteran Armorsmith
        3 Veteran Swordsmith
        2 Serra Angel
        2 Air Elemental
        1 Wall of Faith
        2 Horned Turtle
        2 Guardian Seraph
        2 Gorgon Flail
        2 Whispersilk Cloak
        2 Magebane Armor
        3 Pacifism
        2 Unsummon
        2 Negate
        1 Lifelink
        1 Coat of Arms
        1 Pithing Needle
        2 Divination
        1 Indestructibility""",
        planar=PLANAR_SCHOLAR, schemes=SCHEMES_SCHEMER, vanguard="Serra",
    ),
    # Small decks for quick tests and load runs: games end in a few turns.
    "quick-red": _deck(
        """8 Mountain
        4 Hill Giant
        4 Lightning Bolt
        4 Lava Axe""",
        planar=PLANAR_GRAND_TOUR, schemes=SCHEMES_TYRANT, vanguard="Hanna",
    ),
    "quick-green": _deck(
        """8 Forest
        4 Llanowar Elves
        4 Runeclaw Bear
        4 Grizzly Bears""",
        planar=PLANAR_WANDERER, schemes=SCHEMES_SCHEMER, vanguard="Gerrard",
    ),
    "quick-infect": _deck(
        """8 Forest
        4 Swamp
        4 Glistener Elf
        4 Plague Stinger""",
        planar=PLANAR_SCHOLAR, schemes=SCHEMES_TYRANT, vanguard="Maraxus",
    ),
    "isamaru-commander": _deck(
        """80 Plains
        8 Wastes
        1 Assault Griffin
        1 Serra Angel
        1 Angel's Mercy
        1 Approach of the Second Sun
        1 Felidar Sovereign
        1 Test of Endurance
        1 Celestial Convergence
        1 Divine Intervention
        1 Shahrazad
        1 Platinum Angel
        1 Karn Liberated""",
        commander="Isamaru, Hound of Konda",
        planar=PLANAR_SCHOLAR, schemes=SCHEMES_TYRANT, vanguard="Serra",
    ),
    "phage-commander": _deck(
        """89 Swamp
        6 Wastes
        1 Plague Stinger
        1 Abyssal Persecutor
        1 Platinum Angel
        1 Karn Liberated""",
        commander="Phage the Untouchable",
        planar=PLANAR_GRAND_TOUR, schemes=SCHEMES_SCHEMER, vanguard="Urza",
    ),
}


def ready_made(name: str) -> DeckList:
    try:
        return READY_MADE[name]
    except KeyError:
        raise Refusal(
            Code.BAD_DECK,
            f"no ready-made deck named {name!r}; choose one of {', '.join(sorted(READY_MADE))}",
        ) from None
