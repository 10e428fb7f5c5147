"""Room ids: their grammar, written once (docs/protocol.md, section 7, "Room ids").

::

    room    = match | match "." game "." number
    match   = positive     the match room's number, given by the server at ``create``
    game    = positive     which game of the match the subgame's table belongs to
    number  = positive     the subgame's game number on that table
    positive = "1"-"9" followed by "0"-"9"s, at most 2**53 - 1

and at most :data:`MAX_LENGTH` characters in all. The main game's room has the match's id
(``"12"``); a subgame's room is ``MATCH.GAME.N`` (``"12.1.5"``).

A subgame of a subgame is ``MATCH.GAME.N`` too, not a longer path: game numbers are unique on
a table (each subgame takes the next one), so the id needs no path to be unique, stays within
:data:`MAX_LENGTH` at any depth (CR 726 lets subgames nest without limit), and the server derives
it from the log with nothing stored. So the id names its match and nothing more of its place:
which room a subgame is nested in and how deep come with ``opened`` (``parent``, ``depth``) and
the view's ``g``, never from the id.

Every spelling is canonical (ASCII digits, no sign, no leading zero, no spaces), so two ids are
the same room exactly when their strings are equal, and a string that parses formats back to
itself. The browser client's copy is arbiter/clients/web/src/protocol/ids.js; tests/web/test_js.py
checks it gives the same answers.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

MAX_LENGTH = 32  # characters in a room id (section 5's *room*)
MAX_NUMBER = 2**53 - 1  # exact in every client language's numbers (JavaScript's too)

# [0-9], not \d: \d takes every script's digits, and int() reads them (int("١٢") == 12), so a
# room would have several spellings.
_ROOM = re.compile(r"([1-9][0-9]*)(?:\.([1-9][0-9]*)\.([1-9][0-9]*))?")
_GRAMMAR = "MATCH or MATCH.GAME.N, each a number from 1 written without leading zeros"


class RoomIdError(ValueError):
    """A string that is not a room id, or numbers that make none; the message says why."""


def _positive(what: str, value: object) -> int:
    if type(value) is not int or not 1 <= value <= MAX_NUMBER:
        raise RoomIdError(f"a room id's {what} is a whole number from 1 to {MAX_NUMBER}, "
                          f"not {value!r}")
    return value


@dataclass(frozen=True, order=True)
class RoomId:
    """A parsed room id. ``game`` and ``number`` are both 0 for a match's main room (games of
    a match and game numbers on a table count from 1), both set for a subgame's room. Ids sort
    by their numbers: a match's main room, then its subgames."""

    match: int
    game: int = 0
    number: int = 0

    def __post_init__(self) -> None:
        _positive("match", self.match)
        if (self.game, self.number) != (0, 0):
            _positive("game", self.game)
            _positive("subgame number", self.number)
        if len(str(self)) > MAX_LENGTH:
            raise RoomIdError(f"room id {str(self)[:40]!r} is longer than {MAX_LENGTH} "
                              "characters")

    def __str__(self) -> str:
        if self.is_subgame:
            return f"{self.match}.{self.game}.{self.number}"
        return str(self.match)

    @property
    def is_subgame(self) -> bool:
        return self.game != 0

    @property
    def main(self) -> RoomId:
        """The room of the match's main game."""
        return RoomId(self.match)


def parse(text: object) -> RoomId:
    """The room id ``text`` spells; :class:`RoomIdError` says what is wrong with it if none."""
    if not isinstance(text, str):
        raise RoomIdError(f"a room id is a string, not {type(text).__name__}")
    return _parse(text)


# A client reads the room id of every message it receives, and a process simulating thousands
# of players (arbiter loadtest) a few hundred thousand a minute, of the same few ids: each is
# parsed once. RoomId is frozen, so the copies shared are safe; a string that is no room id
# raises, and nothing is kept of it.
@functools.lru_cache(maxsize=4096)
def _parse(text: str) -> RoomId:
    if len(text) > MAX_LENGTH:
        raise RoomIdError(f"room id {text[:40]!r}... is longer than {MAX_LENGTH} characters")
    found = _ROOM.fullmatch(text)
    if found is None:
        raise RoomIdError(f"{text!r} is not a room id: {_GRAMMAR}")
    match, game, number = found.groups()
    return RoomId(int(match), int(game or 0), int(number or 0))


def is_room_id(text: object) -> bool:
    try:
        parse(text)
    except RoomIdError:
        return False
    return True


@functools.lru_cache(maxsize=4096)
def match_of(room: str) -> str:
    """The id of the match room that ``room`` (a match's room or a subgame's) belongs to."""
    return str(parse(room).main)


def match_number(room: str) -> int:
    """The number of the match whose main room ``room`` is (a subgame's room is refused)."""
    found = parse(room)
    if found.is_subgame:
        raise RoomIdError(f"{room!r} is a subgame's room, not a match's")
    return found.match


def subgame_room(match: str, game: int, number: int) -> str:
    """The id of the room of subgame ``number`` (its game number on the table) played in game
    ``game`` of match ``match``, at any depth."""
    return str(RoomId(match_number(match), game, number))
