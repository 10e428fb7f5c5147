"""Replays in the browser (issue 29, docs/clients.md "Replays and recent matches"): a game Ann
finished against a server bot is in her recent matches in the lobby; its replay link opens the
replay view, and its controls (step, jump to start, end and turn, the slider, play and pause at
a chosen speed, the keyboard) show the board exactly as the game stood at that step: life
totals, each player's permanents and Ann's hand, checked against the game replayed here from
the server's own log. Every wait is on a condition with a bounded timeout; no page may log an
error or a warning."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import trio

from arbiter.protocol.views import ViewState
from arbiter.server.rooms import replays
from arbiter.server.store.archive import StoreArchive
from arbiter.server.store.db import DB_NAME

from .browser import Person, Server, running_server
from .test_browser import create_from_lobby, play_until

STEP = "() => Number(document.querySelector('#rp-step')?.value ?? -1)"


@pytest.fixture
def quick(tmp_path: Path) -> Iterator[Server]:
    """A server whose bot answers at once, and the data directory it logs to."""
    with running_server(tmp_path, "--bot-think", "0.02") as s:
        s.data_dir = tmp_path  # type: ignore[attr-defined]
        yield s


def expected_steps(data_dir: Path, game: int, seat: int
                   ) -> tuple[list[dict[Any, Any]], list[int], list[list[str]]]:
    """Every step's view of ``game`` for ``seat``, its turns and its log lines, replayed here
    from the server's log."""
    async def read() -> Any:
        archive = StoreArchive(data_dir / DB_NAME)
        try:
            archived = await archive.archived(game)
            assert archived is not None
            commands = await archive.commands(game, replays.MAX_REPLAY_COMMANDS)
            return replays.replay_frames(0, archived, commands, seat)
        finally:
            archive.close()

    frames = trio.run(read)
    state = ViewState(frames.view)
    views = [dict(state.view)]
    for ops in frames.ops:
        state.apply(ops)
        views.append(dict(state.view))
    return views, [views[0]["t"][0], *frames.turns], frames.lines


def board_shown(person: Person) -> dict[str, Any]:
    """What the replay view draws: each seat's life and permanents, and the hand."""
    shown: dict[str, Any] = person.page.evaluate("""() => {
      const out = {life: {}, permanents: {}, hand: []};
      for (const seat of document.querySelectorAll('#seats section[id^=seat-]')) {
        const pid = seat.id.slice(5);
        out.life[pid] = Number(seat.querySelector('.life').textContent.replace(/[^0-9-]/g, ''));
        out.permanents[pid] = [...seat.querySelectorAll('.bf [data-obj]')]
          .map((e) => e.dataset.obj).sort();
      }
      out.hand = [...document.querySelectorAll('#hand [data-obj]')].map((e) => e.dataset.obj)
        .sort();
      return out;
    }""")
    return shown


def board_of(view: dict[Any, Any], seat: int) -> dict[str, Any]:
    """The same, from a view: what the board must show at that step."""
    players = sorted(int(k[1:]) for k in view if isinstance(k, str) and k[:1] == "p"
                     and k[1:].isdigit())
    objects = [(str(k), v) for k, v in view.items() if isinstance(k, int)]
    return {"life": {str(p): view[f"p{p}"]["l"] for p in players},
            "permanents": {str(p): sorted(k for k, v in objects if v["z"] == "b"
                                          and v.get("c", v["o"]) == p) for p in players},
            "hand": sorted(k for k, v in objects if v["z"] == "h" and v["o"] == seat)}


def at_step(person: Person, step: int) -> None:
    person.page.wait_for_function(f"s => ({STEP})() === s", arg=step)


def test_recent_matches_open_a_replay_whose_controls_show_the_board_at_each_step(
        browser: Any, quick: Server) -> None:
    ann = Person(browser, quick, "Ann")
    ann.enter()
    create_from_lobby(ann, bots=True)  # against a bot the server runs
    ann.wait("() => document.querySelector('.table-screen')")
    play_until([ann], lambda: (ann.read() or {}).get("turn", 0) >= 4)
    ann.page.click("button[data-do=concede]")
    ann.page.click("button[data-do=concede]")
    ann.wait("() => document.querySelector('.game-over')")
    ann.page.click(".game-over button[data-do=leave]")

    # The lobby lists the game among her recent matches, with its replay.
    ann.page.wait_for_selector("#lobby-history ol[aria-label='your recent matches'] li")
    ann.shot("lobby-recent-matches")
    entry = ann.page.locator("#lobby-history ol[aria-label='your recent matches'] li").first
    assert "Ann" in entry.inner_text() and "won" in entry.inner_text()
    game = int(entry.get_attribute("data-game") or "0")
    entry.locator("a.replay-link").click()
    ann.wait("() => location.hash.startsWith('#replay=') && document.querySelector('#rp-step')")
    assert ann.page.evaluate("location.hash") == f"#replay={game}"
    views, turns, lines = expected_steps(quick.data_dir, game, 0)  # type: ignore[attr-defined]
    last = len(views) - 1
    assert last > 10 and turns[-1] >= 4

    def check(step: int) -> None:
        at_step(ann, step)
        assert board_shown(ann) == board_of(views[step], 0), f"step {step}"

    check(0)  # the replay opens at the start: before the first command
    ann.page.click("button[data-do=rp-forward]")
    check(1)
    # The log shows the game's lines up to the step, the step's own marked.
    shown = ann.page.locator("#rp-log p").all_inner_texts()
    assert shown == [*lines[0], *lines[1]] and lines[0]
    assert ann.page.locator("#rp-log p.l-now").all_inner_texts() == lines[1]
    ann.page.click("button[data-do=rp-forward]")
    ann.page.click("button[data-do=rp-back]")
    check(1)
    # The slider jumps anywhere.
    middle = last // 2
    ann.page.fill("#rp-step", str(middle))
    check(middle)
    ann.shot("replay")
    # Jump to a turn: its first step.
    ann.page.select_option("#rp-turn", label="turn 3")
    check(turns.index(3))
    assert "turn 3" in ann.page.inner_text("#rp-where")
    # The keyboard: End, Home, the arrows, Page Down (the next turn).
    ann.page.locator("body").focus()
    ann.page.keyboard.press("End")
    at_step(ann, last)
    assert "won" in ann.page.inner_text("#rp-where")  # the result, at the last step
    ann.page.keyboard.press("Home")
    check(0)
    ann.page.keyboard.press("ArrowRight")
    check(1)
    ann.page.keyboard.press("PageDown")
    check(turns.index(turns[1] + 1))
    # Play at 4x: the steps go by on their own; pause holds the step.
    ann.page.click("button[data-do=rp-speed][data-speed='4']")
    ann.page.click("button[data-do=rp-play]")
    start = ann.page.evaluate(STEP)
    ann.wait(f"() => ({STEP})() >= {start + 3}", timeout=10_000)
    ann.page.click("button[data-do=rp-play]")  # pause
    paused = ann.page.evaluate(STEP)
    ann.page.wait_for_timeout(800)  # four steps' time at 4x: nothing moves while paused
    check(paused)
    # The link opens the replay by itself, in a new page.
    again = Person(browser, quick, "Ann's other tab")
    again.enter(f"#replay={game}")
    again.wait("() => document.querySelector('#rp-step')")
    assert "as a spectator saw it" in again.page.inner_text("#rp-help")
    again.page.locator("body").focus()
    again.page.keyboard.press("End")
    at_step(again, last)
    assert board_shown(again)["hand"] == []  # someone else's replay shows no hand
    for person in (ann, again):
        person.check_console()
        person.close()
