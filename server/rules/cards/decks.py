"""Ready-made decks and the plain-text deck-list format.

The format, one entry per line::

    # comments and blank lines are ignored
    4 Lightning Bolt
    Mountain                 (a count of 1 may be left out)
    Sideboard                (every line after this header is in the sideboard)
    2 Hill Giant
    Commander: Isamaru, Hound of Konda

A ``Commander:`` line names the deck's commander; the commander counts as one of the deck's cards
(CR 903.5a), so it is added to the main deck. Unknown card names and malformed lines are rejected
with a :class:`~server.rules.errors.RulesError` naming the line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..errors import ErrorCode, RulesError
from .pool import lookup

_ENTRY = re.compile(r"^(?:(\d+)\s*[xX]?\s+)?(\S.*?)\s*$")


@dataclass(frozen=True)
class DeckList:
    main: tuple[str, ...]
    sideboard: tuple[str, ...] = ()
    commander: str | None = None

    def to_text(self) -> str:
        lines: list[str] = []
        if self.commander:
            lines.append(f"Commander: {self.commander}")
        main = list(self.main)
        if self.commander:
            main.remove(self.commander)
        lines.extend(_grouped(main))
        if self.sideboard:
            lines.append("Sideboard")
            lines.extend(_grouped(list(self.sideboard)))
        return "\n".join(lines) + "\n"


def _grouped(names: list[str]) -> list[str]:
    counts: dict[str, int] = {}
    for n in names:
        counts[n] = counts.get(n, 0) + 1
    return [f"{c} {n}" for n, c in counts.items()]


def _err(lineno: int, line: str, why: str) -> RulesError:
    return RulesError(ErrorCode.BAD_DECK, f"line {lineno}: {why}: {line.strip()!r}")


def parse_deck_list(text: str, *, allow_test: bool = False) -> DeckList:
    main: list[str] = []
    side: list[str] = []
    commander: str | None = None
    section = main
    for lineno, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        header = line.rstrip(":").strip().lower()
        if header == "sideboard":
            section = side
            continue
        if header in ("deck", "main", "maindeck"):
            section = main
            continue
        if line.lower().startswith("commander:"):
            name = line.split(":", 1)[1].strip()
            if not name:
                raise _err(lineno, raw, "the Commander line names no card")
            if commander is not None:
                raise _err(lineno, raw, "a deck has one Commander line")
            if lookup(name, allow_test=allow_test) is None:
                raise _err(lineno, raw, f"unknown card {name!r}")
            commander = name
            main.append(name)
            continue
        m = _ENTRY.match(line)
        if m is None:
            raise _err(lineno, raw, "malformed line")
        count = int(m.group(1)) if m.group(1) else 1
        name = m.group(2)
        if count < 1 or count > 250:
            raise _err(lineno, raw, "the count must be between 1 and 250")
        if lookup(name, allow_test=allow_test) is None:
            if re.fullmatch(r"\d+\s*[xX]?", line):
                raise _err(lineno, raw, "malformed line (a count with no card name)")
            raise _err(lineno, raw, f"unknown card {name!r}")
        section.extend([name] * count)
    if not main:
        raise RulesError(ErrorCode.BAD_DECK, "the deck list has no cards")
    return DeckList(tuple(main), tuple(side), commander)


def _deck(spec: str, sideboard: str = "", commander: str | None = None) -> DeckList:
    text = spec + ("\nSideboard\n" + sideboard if sideboard else "")
    if commander:
        text = f"Commander: {commander}\n" + text
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
        """1 Hill Giant
        1 Runeclaw Bear
        1 Forest
        1 Mountain""",
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
        1 Celestial Convergence"""
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
        2 Karn Liberated"""
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
        1 Hill Giant""",
    ),
    # Small decks for quick tests and load runs: games end in a few turns.
    "quick-red": _deck(
        """8 Mountain
        4 Hill Giant
        4 Lightning Bolt
        4 Lava Axe"""
    ),
    "quick-green": _deck(
        """8 Forest
        4 Llanowar Elves
        4 Runeclaw Bear
        4 Grizzly Bears"""
    ),
    "quick-infect": _deck(
        """8 Forest
        4 Swamp
        4 Glistener Elf
        4 Plague Stinger"""
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
    ),
    "phage-commander": _deck(
        """89 Swamp
        6 Wastes
        1 Plague Stinger
        1 Abyssal Persecutor
        1 Platinum Angel
        1 Karn Liberated""",
        commander="Phage the Untouchable",
    ),
}


def ready_made(name: str) -> DeckList:
    try:
        return READY_MADE[name]
    except KeyError:
        raise RulesError(
            ErrorCode.BAD_DECK,
            f"no ready-made deck named {name!r}; choose one of {', '.join(sorted(READY_MADE))}",
        ) from None
