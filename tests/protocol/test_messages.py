"""Messages are typed values with one encoding and one decoding: requests are validated on
decode and every malformed one names what is wrong; server messages round-trip."""

from __future__ import annotations

from dataclasses import fields
from typing import Any

import pytest

from arbiter.protocol import Code, Refusal, parse_request, to_wire
from arbiter.protocol import requests as rq
from arbiter.protocol import server_messages as sm


@pytest.mark.parametrize("msg, expected", [
    ({"t": "hello", "i": 1, "v": 1, "name": "Ann"}, rq.Hello(1, (1,), "Ann")),
    ({"t": "hello", "i": 2, "v": [1, 2], "session": "tok", "resume": {"3": [7, 12]}},
     rq.Hello(2, (1, 2), None, "tok", {"3": (7, 12)})),
    ({"t": "rooms", "i": 3}, rq.ListRooms(3)),
    ({"t": "catalog", "i": 3}, rq.GetCatalog(3)),
    ({"t": "create", "i": 4, "config": {"seats": 2}}, rq.CreateRoom(4, {"seats": 2})),
    ({"t": "join", "i": 5, "r": "3", "seat": 1}, rq.Join(5, "3", 1)),
    ({"t": "join", "i": 5, "r": "3", "token": "abc"}, rq.Join(5, "3", None, "abc")),
    ({"t": "spectate", "i": 6, "r": "3"}, rq.Spectate(6, "3")),
    ({"t": "bot", "i": 6, "r": "3", "strategy": "random", "deck": {"ready": "quick-red"}},
     rq.AddBot(6, "3", None, "random", {"ready": "quick-red"})),
    ({"t": "deck", "i": 7, "r": "3", "ready": "quick-red"},
     rq.SubmitDeck(7, "3", None, "quick-red")),
    ({"t": "act", "i": 8, "r": "3.1.2", "s": 40, "a": 0},
     rq.Act(8, room="3.1.2", serial=40, action=0)),
    ({"t": "concede", "i": 9, "r": "3"}, rq.Concede(9, "3")),
    ({"t": "concede", "i": 9, "r": "3", "g": "3.1.2"}, rq.Concede(9, "3", game="3.1.2")),
    ({"t": "draw", "i": 10, "r": "3", "op": "propose"}, rq.Draw(10, "3", "propose")),
    ({"t": "chat", "i": 11, "r": "3", "text": "gg"}, rq.Chat(11, "3", "gg")),
    ({"t": "resync", "i": 12, "r": "3", "e": 5, "q": 9},
     rq.Resync(12, "3", epoch=5, seq=9)),
    ({"t": "leave", "i": 13, "r": "3"}, rq.Leave(13, "3")),
    ({"t": "judge", "i": 14, "r": "3", "seat": 2}, rq.Judge(14, "3", 2)),
])
def test_valid_requests_parse_and_round_trip(msg: dict[str, Any], expected: rq.Request
                                             ) -> None:
    parsed = parse_request(msg)
    assert parsed == expected
    assert parse_request(to_wire(parsed)) == parsed


@pytest.mark.parametrize("msg, code", [
    ({"t": "rooms"}, Code.BAD_MESSAGE),
    ({"t": "rooms", "i": -1}, Code.BAD_MESSAGE),
    ({"t": "rooms", "i": True}, Code.BAD_MESSAGE),
    ({"t": "rooms", "i": 1.0}, Code.BAD_MESSAGE),
    ({"i": 1}, Code.BAD_MESSAGE),
    ({"t": 5, "i": 1}, Code.BAD_MESSAGE),
    ({"t": "fly", "i": 1}, Code.UNKNOWN_TYPE),
    ({"t": "act", "i": 1, "r": "3", "s": 4}, Code.MISSING_FIELD),
    ({"t": "act", "i": 1, "r": "3", "s": "4", "a": 0}, Code.BAD_FIELD),
    ({"t": "act", "i": 1, "r": "3", "s": 4, "a": False}, Code.BAD_FIELD),
    ({"t": "act", "i": 1, "r": "3", "s": 4.0, "a": 0}, Code.BAD_FIELD),  # 4.0 is no integer
    ({"t": "act", "i": 1, "r": "", "s": 4, "a": 0}, Code.BAD_FIELD),
    ({"t": "act", "i": 1, "r": "3", "s": 4, "a": 0, "x": 1}, Code.BAD_FIELD),
    ({"t": "draw", "i": 1, "r": "3", "op": "maybe"}, Code.BAD_FIELD),
    ({"t": "draw", "i": 1, "r": "3", "op": ["propose"]}, Code.BAD_FIELD),
    ({"t": "chat", "i": 1, "r": "3", "text": "x" * 501}, Code.BAD_FIELD),
    ({"t": "deck", "i": 1, "r": "3"}, Code.MISSING_FIELD),
    ({"t": "deck", "i": 1, "r": "3", "text": "Forest", "ready": "quick-red"},
     Code.MISSING_FIELD),
    ({"t": "bot", "i": 1, "r": "3", "strategy": "genius"}, Code.BAD_FIELD),
    ({"t": "hello", "i": 1, "v": []}, Code.BAD_FIELD),
    ({"t": "hello", "i": 1, "v": 1.0}, Code.BAD_FIELD),
    ({"t": "hello", "i": 1, "v": 1, "resume": {"3": [1]}}, Code.BAD_FIELD),
    ({"t": "create", "i": 1, "config": [1]}, Code.BAD_FIELD),
])
def test_malformed_requests_say_what_is_wrong(msg: dict[str, Any], code: Code) -> None:
    with pytest.raises(Refusal) as e:
        parse_request(msg)
    assert e.value.code == code
    if type(msg.get("i")) is int and msg["i"] >= 0:
        assert e.value.request_id == msg["i"]  # the answer can carry the id


def _sample(cls: type[sm.ServerMessage]) -> sm.ServerMessage:
    """A value of every field: a string, a number or a map as the field's type wants."""
    values: dict[str, Any] = {}
    for f in fields(cls):
        kind = str(f.type)
        if kind.startswith("int"):
            values[f.name] = 7
        elif kind.startswith("str"):
            values[f.name] = "12"
        elif kind.startswith("list"):
            values[f.name] = [1]
        else:
            values[f.name] = {"k": 1}
    return cls(**values)


@pytest.mark.parametrize("cls", list(sm.SERVER_MESSAGES.classes.values()))
def test_every_server_message_round_trips(cls: type[sm.ServerMessage]) -> None:
    message = _sample(cls)
    wire = sm.encode(message)
    assert wire["t"] == cls.TYPE
    assert sm.decode(wire) == message
    assert sm.check(wire) == cls.TYPE


def test_server_messages_are_checked_for_their_required_keys_only() -> None:
    assert sm.check({"t": "d", "r": "1", "q": 2, "c": 3, "o": []}) == "d"
    with pytest.raises(Refusal) as e:
        sm.check({"t": "d", "r": "1", "q": 2, "o": []})
    assert e.value.code == Code.MISSING_FIELD
    with pytest.raises(Refusal):
        sm.check({"t": "nonsense"})
    # A field a newer server adds is ignored by an older client.
    assert sm.decode({"t": "ok", "i": 3, "new": 1}) == sm.Ok(3)
    # Nil where the documentation allows it is kept; nil where a value is required is not.
    assert sm.decode({"t": "error", "code": "x", "msg": "y", "i": None}).request is None
    with pytest.raises(Refusal):
        sm.decode({"t": "error", "code": "x", "msg": "y"})


def test_optional_fields_are_left_out_and_nullable_ones_sent_as_nil() -> None:
    assert sm.encode(sm.Delta("1", 2, 3, [])) == {"t": "d", "r": "1", "q": 2, "c": 3, "o": []}
    assert sm.encode(sm.Joined(4, "1", None, None)) == {"t": "joined", "i": 4, "r": "1",
                                                        "seat": None, "token": None}


@pytest.mark.parametrize("msg", [
    {"t": "act", "i": 1, "r": "3", "s": 4, "a": 0},
    {"t": "act", "i": 1, "r": "x" * 32, "s": 2**53 - 1, "a": 7},
    {"t": "act", "i": 1, "r": " ", "s": 4, "a": 0},
    {"t": "act", "i": 1, "r": "3", "s": -1, "a": 0},
    {"t": "act", "i": 1, "r": "3", "s": 4, "a": True},
    {"t": "act", "i": 1, "r": "x" * 33, "s": 4, "a": 0},
    {"t": "act", "i": 1, "r": "3", "s": 4, "x": 0},
    {"t": "act", "i": 1, "r": "3", "s": 4, "a": 0, "manual": True},
    {"t": "act", "i": 1, "r": "3", "s": 4, "a": 0, "manual": 1},
])
def test_the_written_out_act_parsing_agrees_with_the_codec(msg: dict[str, Any]) -> None:
    try:
        expected: Any = rq.REQUESTS.decode(msg, strict=True)
    except Refusal as exc:
        expected = exc.code
    try:
        got: Any = parse_request(msg)
    except Refusal as exc:
        got = exc.code
    assert got == expected


def test_an_act_paying_by_hand_says_so_and_one_that_does_not_leaves_the_key_out() -> None:
    by_hand = parse_request({"t": "act", "i": 1, "r": "3", "s": 4, "a": 0, "manual": True})
    assert isinstance(by_hand, rq.Act) and by_hand.manual is True
    assert "manual" not in rq.to_wire(rq.Act(1, "3", 4, 0))
    with pytest.raises(Refusal) as e:
        parse_request({"t": "act", "i": 1, "r": "3", "s": 4, "a": 0, "manual": 1})
    assert e.value.code == Code.BAD_FIELD  # a boolean, not an integer


@pytest.mark.parametrize("request_id", [None, 5])
@pytest.mark.parametrize("actions", [None, {"serial": 3, "actions": []}])
@pytest.mark.parametrize("log", [None, ["Ann casts Shahrazad."]])
def test_the_written_out_delta_agrees_with_the_codec(
        request_id: int | None, actions: dict[str, Any] | None, log: list[str] | None) -> None:
    ops = [["s", "w", [0, "priority"]]]
    assert sm.delta_map("1", 2, 3, ops, request=request_id, actions=actions, log=log) == \
        sm.encode(sm.Delta("1", 2, 3, ops, request=request_id, actions=actions, log=log))
