"""The rooms write commands to the log in exactly the engine's record form."""

from __future__ import annotations

from arbiter.server.rooms.play import record
from arbiter.server.rules.commands import Act, Concede, DrawOffer, Penalty, from_record, to_record


def test_the_fast_record_is_the_engines_record() -> None:
    for cmd in (Act(2, 41, 3), Act(2, 41, 3, manual=True), Concede(1), Concede(0, 3),
                DrawOffer(1, "accept", 1), Penalty(3, "clock", 1)):
        assert record(cmd) == to_record(cmd)
        assert from_record(record(cmd)) == cmd


def test_an_act_paying_automatically_is_recorded_as_before_manual_existed() -> None:
    assert "manual" not in record(Act(2, 41, 3)) and "manual" not in to_record(Act(2, 41, 3))
    assert record(Act(2, 41, 3, manual=True))["manual"] is True
