"""Limited events from the Python clients (docs/events.md, docs/protocol.md section 15): the
SDK's event requests and the latest state it keeps, a reconnect that goes on following the
event, ``arbiter bot`` drafting, building and playing every round of a draft with the server's
bots to its end, and ``arbiter loadtest`` running whole events; all against a real server."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest
import trio

from arbiter.bots import limited
from arbiter.clients.bots import bot_cmd
from arbiter.clients.bots.event_bot import standings_lines
from arbiter.clients.loadtest.report import write_png
from arbiter.clients.loadtest.runner import LoadConfig, run_load
from arbiter.clients.loadtest.stats import failed
from arbiter.clients.sdk import Client, RequestError, deck_list, events

from ..server.harness import settle, start_server
from .helpers import bot_args, sdk_client, url


async def test_the_sdk_hosts_enters_and_follows_an_event_with_its_latest_state(
        nursery: trio.Nursery, tmp_path: Path, autojump_clock: object) -> None:
    server = await start_server(nursery, tmp_path)
    host = await sdk_client(nursery, server, "Host")
    ann = await sdk_client(nursery, server, "Ann")
    eve = await sdk_client(nursery, server, "Eve")
    updates = ann.subscribe()
    event = await host.create_event({"kind": "sealed", "seats": 4, "rounds": 1,
                                     "best_of": 1, "name": "Sealed night"})
    [summary] = [e for e in await eve.list_events() if e["r"] == event]
    assert (summary["kind"], summary["phase"], summary["seats"]) == ("sealed", "lobby", 4)
    assert await ann.join(event) == 0 and ann.seats[event].seat == 0
    await eve.spectate(event)
    lobby = await ann.wait_event(event)
    assert lobby["phase"] == "lobby" and lobby["you"]["seat"] == 0
    with pytest.raises(RequestError) as refused:
        await ann.start_event(event)
    assert refused.value.code == "not_host"
    await host.start_event(event)
    state = await ann.wait_event(event, since=lobby)
    assert state is ann.event_state(event) and state["phase"] == "building"
    pool = state["you"]["pool"]
    assert sum(pool.values()) == 90  # six boosters of fifteen
    told = [e async for e in _drain(updates) if isinstance(e, events.EventUpdate)]
    assert told[-1].room == event and told[-1].state is state
    # A spectator sees no pool until the event ends (docs/protocol.md section 15).
    assert "you" not in (eve.event_state(event) or {})
    cards = (await ann.catalog())["cards"]
    deck = limited.build_deck(pool, cards)
    await ann.submit_event_deck(event, deck)
    state = await _until(ann, event, lambda s: s["phase"] == "playing")
    assert state["you"]["deck"] == deck and state["round"] == 1
    await ann.drop_event(event)
    assert (await _until(ann, event, lambda s: s["you"]["dropped"]))["you"]["dropped"]
    assert server.hub.events[event].event.entrants[0].dropped


async def _until(client: Client, event: str, holds: Callable[[dict[str, Any]], bool]
                 ) -> dict[str, Any]:
    """The first state of ``event`` (the current one included) for which ``holds``."""
    state = await client.wait_event(event)
    while not holds(state):
        state = await client.wait_event(event, since=state)
    return state


async def _drain(channel: trio.MemoryReceiveChannel[events.Event]
                 ) -> AsyncIterator[events.Event]:
    """What ``channel`` holds now, without waiting for more."""
    while True:
        try:
            yield channel.receive_nowait()
        except trio.WouldBlock:
            return


async def test_a_drafter_who_reconnects_is_sent_the_event_again_and_picks_on(
        nursery: trio.Nursery, tmp_path: Path, mock_clock: trio.testing.MockClock) -> None:
    server = await start_server(nursery, tmp_path)
    host = await sdk_client(nursery, server, "Host")
    ann = await sdk_client(nursery, server, "Ann")
    event = await host.create_event({"kind": "draft", "seats": 3, "pick_time": 600})
    await ann.join(event)
    await host.start_event(event)
    before = await _until(ann, event, lambda s: bool(s["you"].get("pack")))
    ws = ann.connection
    assert ws is not None
    await ws.aclose()  # the connection drops; Ann did not leave
    await settle(lambda: not ann.connected)
    mock_clock.jump(1.0)  # past the backoff: the hello with her session re-attaches her
    await settle(lambda: ann.connected)
    again = await ann.wait_event(event, since=before)
    # The event, sent again as it stood: only the pick's timer ran on meanwhile.
    assert again is not before and again["you"]["timer"] < before["you"]["timer"]
    assert {**again["you"], "timer": 0} == {**before["you"], "timer": 0}
    assert ann.stats.reconnects == 1 and ann.seats[event].seat == 0
    cards = (await ann.catalog())["cards"]
    card = limited.pick(again["you"]["pack"], again["you"]["picks"], cards)
    await ann.pick(event, card)
    after = await ann.wait_event(event, since=again)
    assert after["you"]["picks"] == [card]


async def test_two_arbiter_bots_and_six_server_bots_draft_build_and_play_two_rounds(
        nursery: trio.Nursery, tmp_path: Path, autojump_clock: object,
        capsys: pytest.CaptureFixture[str]) -> None:
    server = await start_server(nursery, tmp_path)
    watcher = await sdk_client(nursery, server, "Watcher")
    codes: list[int] = []

    async def host() -> None:
        codes.append(await bot_cmd._main(bot_args(
            "--url", url(server), "--create-event", "draft", "--start", "2", "--rounds", "2",
            "--best-of", "1", "--name", "Hosty", "--seed", "1")))

    async def guest() -> None:
        listed: list[dict[str, Any]] = []
        while not listed:
            listed = await watcher.list_events()
            await trio.sleep(0.1)
        codes.append(await bot_cmd._main(bot_args(
            "--url", url(server), "--event", listed[0]["r"], "--name", "Guesty",
            "--seed", "2")))

    async with trio.open_nursery() as n:
        n.start_soon(host)
        n.start_soon(guest)
    assert codes == [0, 0]
    out = capsys.readouterr().out
    assert re.findall(r"event (\d+): draft, 8 seats", out)
    for name in ("Hosty", "Guesty"):
        line = re.search(rf"{name}: (\d+) picks, (\d+) matches, (\d+) actions, 0 desyncs",
                         out)
        assert line is not None, out
        assert int(line[1]) == 45, "three packs of fifteen, every pick its own"
        assert int(line[2]) == 2 and int(line[3]) > 0, "two rounds of eight: no bye"
    standings = [ln for ln in out.splitlines() if re.match(r"\s+\d\. ", ln)]
    assert len(standings) == 2 * 8 and standings[:8] == standings[8:], "both print the same"
    for ln in standings[:8]:
        m = re.search(r"(\d+) points  (\d+)-(\d+)-(\d+)", ln)
        assert m is not None and int(m[1]) == 3 * int(m[2]) + int(m[4])
        assert int(m[2]) + int(m[3]) + int(m[4]) == 2, "two matches each"
    assert bot_cmd.run(bot_args("--url", url(server), "--create-event", "draft")) == 2, \
        "a host that never starts its event is refused before anything is created"


def test_a_deck_list_is_one_entry_a_line_and_standings_print_in_rank_order() -> None:
    assert deck_list({"Forest": 17, "Giant Growth": 2, "Unused": 0}) == \
        "17 Forest\n2 Giant Growth"
    state = {"entrants": [{"seat": 0, "n": "Ann", "b": False}, {"seat": 1, "n": "Bot 1",
                                                                 "b": True}],
             "standings": [
                 {"seat": 1, "rank": 1, "points": 3, "w": 1, "l": 0, "d": 0, "omw": 0.3333,
                  "gw": 1.0, "ogw": 0.3333},
                 {"seat": 0, "rank": 2, "points": 0, "w": 0, "l": 1, "d": 0, "omw": 1.0,
                  "gw": 0.3333, "ogw": 1.0}]}
    first, second = standings_lines(state)
    assert first.split()[:4] == ["1.", "Bot", "1", "(bot)"] and "3 points  1-0-0" in first
    assert "GW 100.0%" in first and "OMW 33.3%" in first
    assert second.split()[:2] == ["2.", "Ann"] and "0 points  0-1-0" in second


async def test_the_load_tester_runs_two_drafts_of_four_players_to_their_end(
        nursery: trio.Nursery, tmp_path: Path, autojump_clock: object) -> None:
    server = await start_server(nursery, tmp_path)
    config = LoadConfig(url=url(server), events=2, event_seats=4, event_kind="draft",
                        event_rounds=1, event_best_of=1, duration=3600.0, think_ms=10,
                        ramp=1.0, ping_interval=None)
    summary, agg = await run_load(config)
    assert summary["errors"] == 0, summary["error_codes"]
    assert not failed(summary) and summary["desyncs"] == 0
    assert summary["connected_peak"] == 2 * 4
    ev = summary["events"]
    assert (ev["events"], ev["finished"]) == (2, 2)
    assert ev["picks"] == 2 * 4 * 45, "every pick of every player, three packs of fifteen"
    # Under the mock clock a pick costs no time; the order of the figures still holds.
    assert 0 <= ev["pick_to_ok_ms"]["p50"] <= ev["pick_to_ok_ms"]["p99"]
    assert ev["pick_to_ok_ms"]["p99"] <= ev["pick_to_state_ms"]["p99"]
    assert 0 < ev["completion_s"]["p50"] <= ev["completion_s"]["max"] < 3600
    assert summary["games_finished"] == 2 * 2, "a round of two matches, twice"
    assert summary["actions"] > 0
    # The rates are over the time the events took, not the duration (a cap here).
    assert summary["duration_s"] <= ev["completion_s"]["max"] + 2.0
    write_png(agg.samples, summary, tmp_path / "events.png")
    assert (tmp_path / "events.png").read_bytes()[:4] == b"\x89PNG"


async def test_an_event_the_server_refuses_counts_as_an_error_and_as_unfinished(
        nursery: trio.Nursery, tmp_path: Path, autojump_clock: object) -> None:
    server = await start_server(nursery, tmp_path)
    # One seat: an event needs two at least, so the server refuses to create it.
    config = LoadConfig(url=url(server), events=1, event_seats=1, duration=60.0,
                        ping_interval=None)
    summary, _ = await run_load(config)
    assert failed(summary) and summary["events"]["finished"] == 0
    assert summary["error_codes"] == {"bad_config": 1, "event_unfinished": 1}
