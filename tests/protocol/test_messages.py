"""Requests are validated on decode: every malformed message names what is wrong."""

from __future__ import annotations

from typing import Any

import pytest

from arbiter.protocol import Code, ProtocolError, check_server_message, parse_request, to_wire
from arbiter.protocol import messages as m


@pytest.mark.parametrize("msg, expected", [
    ({"t": "hello", "i": 1, "v": 1, "name": "Ann"}, m.Hello(1, (1,), "Ann")),
    ({"t": "hello", "i": 2, "v": [1, 2], "session": "tok", "resume": {"3": [7, 12]}},
     m.Hello(2, (1, 2), None, "tok", {"3": (7, 12)})),
    ({"t": "rooms", "i": 3}, m.ListRooms(3)),
    ({"t": "create", "i": 4, "config": {"seats": 2}}, m.CreateRoom(4, {"seats": 2})),
    ({"t": "join", "i": 5, "r": "3", "seat": 1}, m.Join(5, "3", 1)),
    ({"t": "join", "i": 5, "r": "3", "token": "abc"}, m.Join(5, "3", None, "abc")),
    ({"t": "spectate", "i": 6, "r": "3"}, m.Spectate(6, "3")),
    ({"t": "deck", "i": 7, "r": "3", "ready": "quick-red"},
     m.SubmitDeck(7, "3", None, "quick-red")),
    ({"t": "act", "i": 8, "r": "3.1.2", "s": 40, "a": 0}, m.Act(8, "3.1.2", 40, 0)),
    ({"t": "concede", "i": 9, "r": "3"}, m.Concede(9, "3")),
    ({"t": "concede", "i": 9, "r": "3", "g": "3.1.2"}, m.Concede(9, "3", "3.1.2")),
    ({"t": "draw", "i": 10, "r": "3", "op": "propose"}, m.Draw(10, "3", "propose")),
    ({"t": "chat", "i": 11, "r": "3", "text": "gg"}, m.Chat(11, "3", "gg")),
    ({"t": "resync", "i": 12, "r": "3", "e": 5, "q": 9}, m.Resync(12, "3", 5, 9)),
    ({"t": "leave", "i": 13, "r": "3"}, m.Leave(13, "3")),
    ({"t": "judge", "i": 14, "r": "3", "seat": 2}, m.Judge(14, "3", 2)),
])
def test_valid_requests_parse_and_round_trip(msg: dict[str, Any], expected: m.Request) -> None:
    parsed = parse_request(msg)
    assert parsed == expected
    assert parse_request({**to_wire(parsed), "i": parsed.i}) == parsed


@pytest.mark.parametrize("msg, code", [
    ({"t": "rooms"}, Code.BAD_MESSAGE),
    ({"t": "rooms", "i": -1}, Code.BAD_MESSAGE),
    ({"t": "rooms", "i": True}, Code.BAD_MESSAGE),
    ({"i": 1}, Code.BAD_MESSAGE),
    ({"t": 5, "i": 1}, Code.BAD_MESSAGE),
    ({"t": "fly", "i": 1}, Code.UNKNOWN_TYPE),
    ({"t": "act", "i": 1, "r": "3", "s": 4}, Code.MISSING_FIELD),
    ({"t": "act", "i": 1, "r": "3", "s": "4", "a": 0}, Code.BAD_FIELD),
    ({"t": "act", "i": 1, "r": "3", "s": 4, "a": False}, Code.BAD_FIELD),
    ({"t": "act", "i": 1, "r": "", "s": 4, "a": 0}, Code.BAD_FIELD),
    ({"t": "act", "i": 1, "r": "3", "s": 4, "a": 0, "x": 1}, Code.BAD_FIELD),
    ({"t": "draw", "i": 1, "r": "3", "op": "maybe"}, Code.BAD_FIELD),
    ({"t": "chat", "i": 1, "r": "3", "text": "x" * 501}, Code.BAD_FIELD),
    ({"t": "deck", "i": 1, "r": "3"}, Code.MISSING_FIELD),
    ({"t": "deck", "i": 1, "r": "3", "text": "Forest", "ready": "quick-red"},
     Code.MISSING_FIELD),
    ({"t": "hello", "i": 1, "v": []}, Code.BAD_FIELD),
    ({"t": "hello", "i": 1, "v": 1, "resume": {"3": [1]}}, Code.BAD_FIELD),
    ({"t": "create", "i": 1, "config": [1]}, Code.BAD_FIELD),
])
def test_malformed_requests_say_what_is_wrong(msg: dict[str, Any], code: Code) -> None:
    with pytest.raises(ProtocolError) as e:
        parse_request(msg)
    assert e.value.code == code
    if isinstance(msg.get("i"), int) and not isinstance(msg["i"], bool) and msg["i"] >= 0:
        assert e.value.request_id == msg["i"]


def test_server_messages_are_checked_for_their_fields() -> None:
    assert check_server_message({"t": "d", "r": "1", "q": 2, "c": 3, "o": []}) == "d"
    with pytest.raises(ProtocolError):
        check_server_message({"t": "d", "r": "1", "q": 2, "o": []})
    with pytest.raises(ProtocolError):
        check_server_message({"t": "nonsense"})
