"""Room ids (docs/protocol.md, section 7): a match's room is its number, a subgame's room is
MATCH.GAME.N at any depth (CR 726), every id has exactly one spelling, and anything else is
refused with a reason."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from arbiter.protocol import ids
from arbiter.protocol.ids import MAX_LENGTH, MAX_NUMBER, RoomId, RoomIdError

numbers = st.integers(1, MAX_NUMBER)


@st.composite
def room_ids(draw: st.DrawFn) -> RoomId:
    """Any room id: a match's room or a subgame's, within the length limit."""
    match = draw(st.one_of(st.integers(1, 10**6), numbers))
    if not draw(st.booleans()):
        return RoomId(match)
    game, number = draw(st.integers(1, 100) | numbers), draw(st.integers(2, 100) | numbers)
    fits = len(f"{match}.{game}.{number}") <= MAX_LENGTH
    return RoomId(match, game, number) if fits else RoomId(match)


# Strings near the grammar: digits (ASCII and not), dots, signs, spaces, underscores.
near_misses = st.text(alphabet="0123456789.+-_ x\n\u00b2\u0661", max_size=40)


def test_the_documented_examples() -> None:
    assert ids.parse("12") == RoomId(12)
    assert ids.parse("12.1.5") == RoomId(12, 1, 5)
    assert str(RoomId(12, 1, 5)) == "12.1.5" and str(RoomId(12)) == "12"
    assert ids.match_of("12.1.5") == ids.match_of("12") == "12"
    assert ids.parse("12.1.5").is_subgame and not ids.parse("12").is_subgame
    assert ids.parse("12.1.5").main == RoomId(12)
    assert ids.match_number("12") == 12


def test_726_a_subgame_of_a_subgame_is_named_after_its_match_not_its_parent() -> None:
    """Game numbers are unique on a table, so a nested subgame's room (game 3 on the table of
    match 12's first game) is as short as its parent's, whatever the depth."""
    assert ids.subgame_room("12", 1, 2) == "12.1.2"
    assert ids.subgame_room("12", 1, 3) == "12.1.3"
    assert ids.subgame_room("12", 1, 10**9) == "12.1.1000000000"
    with pytest.raises(RoomIdError, match="subgame's room, not a match's"):
        ids.subgame_room("12.1.2", 1, 3)


@pytest.mark.parametrize(("text", "why"), [
    ("", "not a room id"),
    ("0", "not a room id"),  # numbers count from 1
    ("012", "not a room id"),  # one spelling per room: no leading zeros
    ("12.01.5", "not a room id"),
    ("12.0.0", "not a room id"),
    ("12.1", "not a room id"),  # a subgame's room names the game and the subgame
    ("12.1.5.7", "not a room id"),  # nested subgames are not paths
    ("12.", "not a room id"),
    (".12", "not a room id"),
    ("+12", "not a room id"),
    (" 12", "not a room id"),
    ("12\n", "not a room id"),
    ("1_2", "not a room id"),
    ("١٢", "not a room id"),  # int() reads these digits; the grammar does not
    ("²", "not a room id"),  # isdigit() says yes; int() fails
    ("abc", "not a room id"),
    ("9007199254740992", "whole number from 1 to 9007199254740991"),  # 2**53: not exact in JS
    ("1" * 33, "longer than 32 characters"),
])
def test_what_is_no_room_id_is_refused_with_its_reason(text: str, why: str) -> None:
    with pytest.raises(RoomIdError, match=why):
        ids.parse(text)
    assert not ids.is_room_id(text)
    with pytest.raises(RoomIdError):
        ids.match_of(text)


def test_numbers_that_make_no_room_id_are_refused() -> None:
    assert ids.parse("1000000000000.1000000000.1000000") == RoomId(10**12, 10**9, 10**6)  # 32
    for args in [(0,), (-1,), (True,), (1, 1, 0), (1, 0, 1), (1, 2**53, 1), (10**15, 10**15, 1)]:
        with pytest.raises(RoomIdError):
            RoomId(*args)
    with pytest.raises(RoomIdError, match="is a string, not int"):
        ids.parse(12)
    with pytest.raises(RoomIdError, match="a subgame's room, not a match's"):
        ids.match_number("12.1.5")


@given(room_ids())
def test_every_room_id_formats_and_parses_back(room: RoomId) -> None:
    text = str(room)
    assert ids.parse(text) == room
    assert len(text) <= MAX_LENGTH
    assert ids.match_of(text) == str(room.match)
    assert ids.parse(ids.match_of(text)) == room.main


@given(st.one_of(near_misses, st.text(max_size=40)))
def test_a_string_that_parses_is_the_one_spelling_of_its_room(text: str) -> None:
    try:
        room = ids.parse(text)
    except RoomIdError:
        assert not ids.is_room_id(text)
        return
    assert str(room) == text
    assert ids.match_of(ids.match_of(text)) == ids.match_of(text)


@given(st.lists(room_ids(), max_size=8))
def test_ids_sort_by_number_a_match_before_its_subgames(rooms: list[RoomId]) -> None:
    """As the lobby lists other nodes' rooms: "9" before "10", a match before its subgames."""
    texts = [str(r) for r in rooms]
    by_numbers = sorted(texts, key=lambda t: [int(part) for part in t.split(".")])
    assert sorted(texts, key=ids.parse) == by_numbers
    assert sorted(["10", "9.1.2", "9"], key=ids.parse) == ["9", "9.1.2", "10"]
