"""The lobby's people and chat in the room core (docs/protocol.md section 16): following is
opt-in; followers see who is online and what each is doing as far as that is public, in
coalesced updates at most one an interval; lobby chat reaches every follower, keeps its last
50 lines for newcomers, and is bounded per session and for the whole lobby."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from arbiter.server.rooms.lobby import HISTORY, LobbySettings
from arbiter.server.rooms.presence import PAGE

from .sim import Player, Sim


def follow(p: Player, **extra: Any) -> None:
    assert p.call({"t": "lobby", "follow": True, **extra})["t"] == "ok"


def people(p: Player) -> list[tuple[str, str, str | None]]:
    """The last list of people ``p`` was sent (not a search's answer)."""
    last = [m for m in p.of_type("people") if m.get("i") is None][-1]
    return [(e["n"], e["s"], e.get("r")) for e in last["people"]]


def said(p: Player) -> list[tuple[str, str]]:
    return [(line["from"], line["text"]) for m in p.of_type("lobby_chat") for line in m["lines"]]


def test_a_follower_is_told_who_is_online_at_once_and_a_client_that_never_follows_gets_nothing(
        ) -> None:
    sim = Sim()
    bot = sim.connect("Bot")
    ann = sim.connect("Ann")
    follow(ann)
    assert people(ann) == [("Ann", "lobby", None), ("Bot", "lobby", None)]
    assert ann.of_type("lobby_chat") == [{"t": "lobby_chat", "lines": []}]
    bob = sim.connect("Bob")
    sim.advance(5)
    assert people(ann)[1] == ("Bob", "lobby", None)
    bob.close()
    sim.advance(1)
    assert [n for n, _, _ in people(ann)] == ["Ann", "Bot"]
    assert bot.of_type("people") == [] and bot.of_type("lobby_chat") == []


def test_updates_are_coalesced_to_one_an_interval_and_only_sent_when_the_list_changed() -> None:
    sim = Sim()
    ann = sim.connect("Ann")
    follow(ann)
    assert len(ann.of_type("people")) == 1
    for i in range(30):  # thirty people arrive within one interval
        sim.connect(f"P{i:02}")
    assert len(ann.of_type("people")) == 1
    sim.advance(1.0)
    assert len(ann.of_type("people")) == 2 and ann.of_type("people")[-1]["n"] == 31
    sim.advance(10.0)  # nothing changed: nothing sent, however many ticks pass
    assert len(ann.of_type("people")) == 2


def test_what_people_do_is_shown_as_far_as_it_is_public() -> None:
    """A seat is public (room summaries name the players), watching a public room is, but who
    watches a room whose spectators see every hand is not (docs/protocol.md section 7)."""
    sim = Sim()
    _, room = sim.table({"seats": 2, "seed": 3})
    eve = sim.connect("Eve")
    eve.ok({"t": "spectate", "r": room})
    creator = sim.connect("Cid")
    secret = creator.ok({"t": "create", "config": {"spectators": "all"}})
    spy = sim.connect("Spy", address="10.0.0.9")
    spy.ok({"t": "spectate", "r": secret["r"], "token": secret["invite"]})
    lurker = sim.connect("Lou")
    follow(lurker)
    assert people(lurker) == [("Ann", "playing", room), ("Bob", "playing", room),
                              ("Cid", "lobby", None), ("Eve", "watching", room),
                              ("Lou", "lobby", None), ("Spy", "watching", None)]


def test_a_hidden_connection_is_not_listed_and_the_count_says_so() -> None:
    sim = Sim()
    ann = sim.connect("Ann")
    ghost = sim.connect("Ghost")
    follow(ghost, hidden=True)
    follow(ann)
    assert people(ann) == [("Ann", "lobby", None)]
    assert ann.of_type("people")[-1]["n"] == 1
    follow(ghost)  # following again without hidden: listed again
    sim.advance(1)
    assert [n for n, _, _ in people(ann)] == ["Ann", "Ghost"]


def test_a_large_lobby_lists_the_first_hundred_by_name_and_a_search_finds_the_rest() -> None:
    sim = Sim()
    for i in range(PAGE + 50):
        sim.connect(f"Player {i:03}")
    ann = sim.connect("ann")
    follow(ann)
    listed = ann.of_type("people")[-1]
    assert listed["n"] == PAGE + 51 and len(listed["people"]) == PAGE
    assert listed["people"][0]["n"] == "ann"  # by name, case aside
    assert listed["people"][-1]["n"] == f"Player {PAGE - 2:03}"
    found = ann.ok({"t": "people", "q": "PLAYER 14"})
    assert found["q"] == "PLAYER 14" and found["n"] == 10
    assert [e["n"] for e in found["people"]] == [f"Player {i}" for i in range(140, 150)]


def test_lobby_chat_reaches_every_follower_and_newcomers_get_the_last_fifty_lines() -> None:
    sim = Sim(lobby=LobbySettings(chat_burst=10**6, lobby_burst=10**6))
    ann, bob, bot = sim.connect("Ann"), sim.connect("Bob"), sim.connect("Bot")
    follow(ann)
    follow(bob)
    ann.ok({"t": "lobby_chat", "text": "<img src=x onerror=alert(1)>"})
    assert said(bob) == [("Ann", "<img src=x onerror=alert(1)>")]  # text, as it was typed
    assert said(ann) == said(bob) and bot.of_type("lobby_chat") == []
    for i in range(60):
        bob.ok({"t": "lobby_chat", "text": f"line {i}"})
    carl = sim.connect("Carl")
    follow(carl)
    history = carl.of_type("lobby_chat")[0]["lines"]
    assert len(history) == HISTORY
    assert [line["text"] for line in history] == [f"line {i}" for i in range(10, 60)]
    assert [line["n"] for line in history] == list(range(12, 62))


def test_lobby_chat_needs_following_and_has_the_room_chat_text_limits() -> None:
    sim = Sim()
    ann = sim.connect("Ann")
    assert ann.call({"t": "lobby_chat", "text": "hi"})["code"] == "not_seated"
    follow(ann)
    assert ann.call({"t": "lobby_chat", "text": " "})["code"] == "bad_field"
    assert ann.call({"t": "lobby_chat", "text": "x" * 501})["code"] == "bad_field"
    assert ann.call({"t": "lobby", "follow": 1})["code"] == "bad_field"  # not a boolean
    assert ann.call({"t": "lobby_chat", "text": "x" * 500})["t"] == "ok"
    assert ann.call({"t": "lobby", "follow": False})["t"] == "ok"
    assert ann.call({"t": "lobby_chat", "text": "hi"})["code"] == "not_seated"


def test_a_session_that_chats_too_fast_is_refused_and_keeps_its_connection() -> None:
    sim = Sim(lobby=LobbySettings(chat_rate=0.5, chat_burst=3))
    ann, bob = sim.connect("Ann"), sim.connect("Bob")
    follow(ann)
    follow(bob)
    for i in range(3):
        ann.ok({"t": "lobby_chat", "text": f"{i}"})
    reply = ann.call({"t": "lobby_chat", "text": "one too many"})
    assert reply["code"] == "rate_limited" and ann.close_code is None
    bob.ok({"t": "lobby_chat", "text": "my turn"})  # another session's bucket is its own
    sim.advance(2)  # one line every two seconds
    ann.ok({"t": "lobby_chat", "text": "again"})
    assert said(bob) == [("Ann", "0"), ("Ann", "1"), ("Ann", "2"), ("Bob", "my turn"),
                         ("Ann", "again")]


def test_the_whole_lobby_carries_a_bounded_number_of_lines_a_second() -> None:
    """Each line is one frame per follower: the lobby's own bucket bounds the fan-out however
    many sessions chat."""
    sim = Sim(lobby=LobbySettings(lobby_rate=2.0, lobby_burst=4))
    talkers = [sim.connect(f"T{i}") for i in range(6)]
    for t in talkers:
        follow(t)
    codes = [t.call({"t": "lobby_chat", "text": "hello"})["t"] for t in talkers]
    assert codes == ["ok"] * 4 + ["error"] * 2
    sim.advance(1)
    assert talkers[4].call({"t": "lobby_chat", "text": "hello"})["t"] == "ok"


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["hello", "close", "follow", "unfollow", "tick"]),
                          st.integers(0, 5)), max_size=40))
def test_after_a_tick_every_follower_holds_the_true_list_of_people(
        steps: list[tuple[str, int]]) -> None:
    """Whatever connects, closes, follows and stops following, one interval later every
    follower's last list is who is online then."""
    sim = Sim()
    open_: dict[int, Player] = {}
    followers: set[int] = set()
    for op, k in steps:
        if op == "hello" and k not in open_:
            open_[k] = sim.connect(f"N{k}")
        elif op == "close" and k in open_:
            open_.pop(k).close()
            followers.discard(k)
        elif op in ("follow", "unfollow") and k in open_:
            assert open_[k].call({"t": "lobby", "follow": op == "follow"})["t"] == "ok"
            (followers.add if op == "follow" else followers.discard)(k)
        elif op == "tick":
            sim.advance(0.5)
    sim.advance(1.0)
    truth = sorted(f"N{k}" for k in open_)
    for k in followers:
        assert [n for n, _, _ in people(open_[k])] == truth
