"""The terminal client, driven as a person drives it (Textual's own test pilot pressing keys
and clicking) through a short game against a bot on a real local server.

The server and the bot run in their own trio run in a thread; the app runs the SDK in trio's
guest mode inside Textual's asyncio loop, exactly as ``arbiter play`` does. Nothing sleeps: the
test waits for the app to show each change.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import trio
from textual.widgets import OptionList

from arbiter.bots.strategies import heuristic_strategy
from arbiter.clients.bots.net import NetBot
from arbiter.clients.sdk import open_client
from arbiter.clients.tui.app import OWN_DECK, ArbiterApp, TableScreen
from arbiter.clients.tui.render import first_choice

from ..server.harness import start_server

# The person (seat 0) is at 3 life with a Lightning Bolt; the bot (seat 1) attacks with two
# Grizzly Bears on its turn. The person can Bolt one, and still loses the game soon after.
SCENARIO = {
    "players": [
        {"library": ["Mountain"] * 10, "hand": ["Lightning Bolt", "Mountain"],
         "battlefield": ["Mountain"], "life": 3},
        {"library": ["Forest"] * 10, "battlefield": ["Grizzly Bears", "Grizzly Bears",
                                                     "Forest"]},
    ],
    "active": 1, "step": "main1", "turn": 2,
}


class ServerAndBot:
    """A real server on 127.0.0.1 and a heuristic bot that creates a room and waits in it
    (with no ``scenario``, no bot and no room)."""

    def __init__(self, data_dir: Path, scenario: dict[str, Any] | None = SCENARIO,
                 bot_seat: int = 1,
                 strategy: Any = heuristic_strategy) -> None:
        self.data_dir = data_dir
        self.scenario = scenario
        self.bot_seat = bot_seat
        self.strategy = strategy
        self.ready = threading.Event()
        self.port: int | None = None
        self.room: str | None = None
        self.bot_results: list[Any] = []
        self.token: trio.lowlevel.TrioToken | None = None
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        try:
            trio.run(self._main)
        except BaseException as exc:  # reported by the test
            self.error = exc
            self.ready.set()

    async def _main(self) -> None:
        async with trio.open_nursery() as nursery:
            self.cancel = nursery.cancel_scope
            self.token = trio.lowlevel.current_trio_token()
            server = await start_server(nursery, self.data_dir)
            self.port = server.port
            if self.scenario is None:
                self.ready.set()
                await trio.sleep_forever()
            async with open_client(f"ws://127.0.0.1:{server.port}/", "Bot",
                                   ping_interval=None) as bot:
                self.room = await bot.create({"seats": 2, "seed": 9, "name": "Bot's table",
                                              "scenario": self.scenario})
                await bot.join(self.room, self.bot_seat, deck="quick-green")
                self.ready.set()
                self.bot_results = await NetBot(bot, self.strategy,
                                                random.Random(3)).play(self.room)
                await trio.sleep_forever()

    def stop(self) -> None:
        if self.token is not None:
            with contextlib.suppress(trio.RunFinishedError):
                trio.from_thread.run_sync(self.cancel.cancel, trio_token=self.token)
        self.thread.join(timeout=10)


async def until(app: ArbiterApp, pilot: Any, check: Callable[[], Any], what: str) -> None:
    """Wait (at most 60 s) until the app shows what ``check`` looks for."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 60
    while True:
        await pilot.pause()
        app.changed.clear()
        if check():
            return
        left = deadline - loop.time()
        if left <= 0:
            raise AssertionError(f"the client never showed {what}")
        try:
            await asyncio.wait_for(app.changed.wait(), left)
        except TimeoutError:
            raise AssertionError(f"the client never showed {what}") from None


async def choose(pilot: Any, labels: list[str], index: int) -> None:
    """Move the highlight to option ``index`` with the arrow keys and press Enter."""
    await pilot.press("home")
    for _ in range(index):
        await pilot.press("down")
    await pilot.press("enter")


def started(world: ServerAndBot) -> ServerAndBot:
    """``world`` running, its room made (and its bot seated) when this returns."""
    world.thread.start()
    assert world.ready.wait(30) and world.error is None, world.error
    return world


async def at_the_bots_table(app: ArbiterApp, pilot: Any, world: ServerAndBot) -> TableScreen:
    """Join the bot's room from the lobby ("j") and return its table."""
    await until(app, pilot, lambda: app.lobby.selected_room() == world.room,
                "the bot's room in the lobby")
    await pilot.press("j")
    await until(app, pilot, lambda: app.table is not None, "the table")
    assert app.table is not None
    return app.table


async def person_plays(tmp_path: Path) -> None:
    world = ServerAndBot(tmp_path)
    world.thread.start()
    assert world.ready.wait(30) and world.error is None, world.error
    app = ArbiterApp(f"ws://127.0.0.1:{world.port}/", "Ann", ping_interval=None)
    try:
        async with app.run_test(size=(180, 60)) as pilot:
            # The lobby lists the bot's room; join it with the arrow keys and "j".
            await until(app, pilot, lambda: any(r["r"] == world.room for r in app.rooms),
                        "the bot's room in the lobby")
            await pilot.press("r")
            await until(app, pilot, lambda: app.lobby.selected_room() == world.room,
                        "the room selected")
            await pilot.press("j")
            await until(app, pilot, lambda: app.table is not None
                        and "Grizzly Bears" in app.table.texts.get("zones", ""),
                        "the table")
            table = app.table
            assert table is not None
            players = table.texts["players"]
            assert "Ann (you)" in players and "Bot" in players
            ann_row = next(line for line in players.splitlines() if "Ann (you)" in line)
            assert ann_row.split()[2:6] == ["3", "0", "2", "10"]  # life, poison, hand, library
            assert "Your hand (2): Lightning Bolt, Mountain" in table.texts["hand"]
            assert "turn 2" in table.texts["status"] and "Bot's" in table.texts["status"]

            # Ctrl+A turns auto-pass off and on again.
            await pilot.press("ctrl+a")
            assert app.log_lines[-1].startswith("Auto-pass is off") and not app.auto_pass
            await pilot.press("ctrl+a")
            assert app.log_lines[-1].startswith("Auto-pass is on") and app.auto_pass

            # Chat, as a person: click the chat box, type, press Enter.
            await pilot.click("#chat")
            await pilot.press(*"good luck", "enter")
            await until(app, pilot, lambda: "[chat] Ann: good luck" in app.log_lines,
                        "the chat line")
            await pilot.click("#actions")

            bolted = False
            decisions = 0
            while not any(line.startswith("GAME OVER") for line in app.log_lines):
                await until(app, pilot, lambda: table.decision is not None or any(
                    line.startswith("GAME OVER") for line in app.log_lines),
                    "a decision or the end of the game")
                if table.decision is None:
                    break
                room, decision = table.decision
                labels = [a["label"] for a in decision["actions"]]
                assert table.texts["actions"].splitlines() == labels
                kinds = [a["kind"] for a in decision["actions"]]
                step = app.client.view(room)["t"][2]  # type: ignore[union-attr]
                if not bolted and step == "declare_attackers" and any(
                        "Lightning Bolt" in label for label in labels):
                    pick = next(i for i, label in enumerate(labels) if "Lightning Bolt" in label)
                    bolted = True
                elif decision["kind"] == "target":
                    pick = next(i for i, label in enumerate(labels) if "Grizzly" in label)
                elif "pass" in kinds:
                    pick = kinds.index("pass")
                elif "done" in kinds:
                    pick = kinds.index("done")
                else:
                    pick = 0
                serial = decision["serial"]
                await choose(pilot, labels, pick)
                decisions += 1
                assert decisions < 200
                await until(app, pilot, lambda s=serial: table.decision is None
                            or table.decision[1]["serial"] != s
                            or any(line.startswith("GAME OVER") for line in app.log_lines),
                            "the answer taken")
            await until(app, pilot, lambda: "LOST" in table.texts.get("players", ""),
                        "the result")
            assert bolted, "the person never got to cast Lightning Bolt"
            # Priority stops where passing was all Ann could do were passed for her.
            assert app.auto_passes > 0
            log = "\n".join(app.log_lines)
            # The engine's own log lines, as the server streams them in deltas.
            assert "Ann casts Lightning Bolt targeting Grizzly Bears." in log
            assert "Grizzly Bears attacks Ann." in log
            assert "Grizzly Bears deals 2 combat damage to Ann." in log
            assert "Ann loses the game (life, CR 104.3b)." in log
            assert "GAME OVER: Bot won: Ann lost (life, CR 104.3b)" in log
            assert "GAME OVER: Bot won" in table.texts["status"]
            ann_row = next(line for line in table.texts["players"].splitlines()
                           if "Ann (you)" in line)
            assert ann_row.rstrip().endswith("LOST")
            svg = app.export_screenshot()
            assert "GAME&#160;OVER" in svg or "GAME OVER" in svg
            await pilot.press("escape")  # back to the lobby
            await until(app, pilot, lambda: app.table is None and app.screen is app.lobby,
                        "the lobby again")
    finally:
        world.stop()
    assert world.error is None, world.error
    assert world.bot_results and world.bot_results[-1].result["winners"] == [1]


def test_a_person_joins_from_the_lobby_plays_a_short_game_against_a_bot_and_loses(
        tmp_path: Path) -> None:
    asyncio.run(person_plays(tmp_path))


SHAHRAZAD = ["Plains", "Shahrazad", "Plains", "Plains", "Shahrazad"] * 6


async def person_sees_a_subgame(tmp_path: Path) -> None:
    from .test_subgames import casts_shahrazad_once

    scenario = {"players": [{"library": SHAHRAZAD, "hand": ["Shahrazad"],
                             "battlefield": ["Plains", "Plains"]},
                            {"library": SHAHRAZAD, "battlefield": ["Plains"]}], "active": 0}
    world = started(ServerAndBot(tmp_path, scenario, bot_seat=0,
                                 strategy=casts_shahrazad_once()))
    # As `arbiter play --no-auto-pass`: Ann answers every priority stop herself.
    app = ArbiterApp(f"ws://127.0.0.1:{world.port}/", "Ann", ping_interval=None,
                     auto_pass=False)
    try:
        async with app.run_test(size=(180, 60)) as pilot:
            table = await at_the_bots_table(app, pilot, world)

            def paused() -> bool:
                return "MAIN GAME PAUSED: subgame at depth 1" in table.texts.get("status", "")

            only_pass = 0  # decisions shown where Ann could only pass (auto-pass is off)

            # Pass until Shahrazad has resolved and the subgame is on.
            while not paused():
                await until(app, pilot, lambda: table.decision is not None or paused(),
                            "a decision or the subgame")
                if table.decision is not None and not paused():
                    kinds = [a["kind"] for a in table.decision[1]["actions"]]
                    labels = [a["label"] for a in table.decision[1]["actions"]]
                    pick = kinds.index("pass") if "pass" in kinds else 0
                    only_pass += set(kinds) <= {"pass", "mana"}
                    serial = table.decision[1]["serial"]
                    await choose(pilot, labels, pick)
                    await until(app, pilot, lambda s=serial: paused() or table.decision is None
                                or table.decision[1]["serial"] != s, "the answer taken")
            assert any(line.startswith("SUBGAME (CR 726)") and "depth 1" in line
                       for line in app.log_lines)
            assert only_pass > 0 and app.auto_passes == 0
            # The subgame's own game (CR 726.3): it starts with its own mulligans.
            assert "game 2 · turn 0" in table.texts["status"]
            assert "Ann decides (mulligan)" in table.texts["status"]
            # Concede the subgame: Ctrl+X twice. The main game resumes.
            await pilot.press("ctrl+x")
            assert "Press Ctrl+X again" in app.log_lines[-1]
            await pilot.press("ctrl+x")
            await until(app, pilot, lambda: not paused() and any(
                line.startswith("Subgame in room") for line in app.log_lines),
                "the main game again")
            line = next(line for line in app.log_lines if line.startswith("Subgame in room"))
            assert "Bot won: Ann lost (concession, CR 104.3a)" in line
            assert "Ann (you)" in table.texts["players"]
            # And the main game: the match is over.
            await pilot.press("ctrl+x", "ctrl+x")
            await until(app, pilot, lambda: "GAME OVER" in table.texts.get("status", ""),
                        "the end of the match")
            assert "Bot won: Ann lost (concession, CR 104.3a)" in table.texts["status"]
            # The prompt says so too (it once kept saying it was passing for her).
            await until(app, pilot, lambda: "match is over" in table.texts.get("prompt", ""),
                        "the prompt after the match")
    finally:
        world.stop()


def test_a_person_sees_the_main_game_paused_under_a_subgame_and_back(tmp_path: Path) -> None:
    asyncio.run(person_sees_a_subgame(tmp_path))


async def person_plays_bots_from_the_lobby(tmp_path: Path) -> None:
    world = started(ServerAndBot(tmp_path, scenario=None))  # the person makes the rooms
    app = ArbiterApp(f"ws://127.0.0.1:{world.port}/", "Ann", ping_interval=None)
    try:
        async with app.run_test(size=(180, 60)) as pilot:
            await until(app, pilot, lambda: app.client is not None and "b: play bots"
                        in str(app.lobby.query_one("#lobby-status").render()),
                        "the lobby, connected")
            # "c": a new room says what to do next, and Ctrl+B seats a bot from the table.
            await pilot.press("c")
            await until(app, pilot, lambda: app.table is not None
                        and "Ctrl+B" in app.table.texts.get("prompt", ""), "the new room")
            table = app.table
            assert table is not None
            assert any("starts when every seat is taken: Ctrl+B puts a bot" in line
                       for line in app.log_lines)
            await pilot.press("ctrl+b")
            await until(app, pilot, lambda: table.decision is not None, "a game with a bot")
            assert "Bot" in table.texts["players"]
            await pilot.press("escape")
            await until(app, pilot, lambda: app.table is None, "the lobby again")
            # "b" in the lobby: a room with bots in the other seats, played at once.
            await pilot.press("b")
            await until(app, pilot, lambda: app.table is not None
                        and app.table.decision is not None, "a game against a bot at once")
            assert not any(line.startswith("Refused") for line in app.log_lines), app.log_lines
    finally:
        world.stop()
    assert world.error is None, world.error


def test_a_person_plays_bots_from_the_lobby_and_a_new_room_says_what_to_do(
        tmp_path: Path) -> None:
    asyncio.run(person_plays_bots_from_the_lobby(tmp_path))


# Ann (seat 0) has two creatures that can attack on her turn; the bot holds a Forest.
ATTACKS = {
    "players": [
        {"library": ["Forest"] * 10, "battlefield": ["Grizzly Bears", "Hill Giant", "Forest"]},
        {"library": ["Forest"] * 10, "hand": ["Forest"]},
    ],
    "active": 0, "step": "main1", "turn": 2,
}


def passing(decision: dict[str, Any]) -> int:
    """The menu index of "pass", or of the first action when there is none."""
    kinds = [a["kind"] for a in decision["actions"]]
    return kinds.index("pass") if "pass" in kinds else 0


async def answer_until(app: ArbiterApp, pilot: Any, table: TableScreen, kind: str,
                       pick: Callable[[dict[str, Any]], int]) -> dict[str, Any]:
    """Answer the person's decisions with the menu index ``pick(decision)`` until one of
    ``kind`` comes, and return it."""
    for _ in range(40):
        await until(app, pilot, lambda: table.decision is not None, "a decision")
        assert table.decision is not None
        decision = table.decision[1]
        if decision["kind"] == kind:
            return decision
        serial = decision["serial"]
        await choose(pilot, [a["label"] for a in decision["actions"]], pick(decision))
        await until(app, pilot, lambda s=serial: table.decision is None
                    or table.decision[1]["serial"] != s, "the answer taken")
    raise AssertionError(f"no {kind} decision came")


async def person_declares_attackers(tmp_path: Path) -> None:
    world = started(ServerAndBot(tmp_path, ATTACKS))
    app = ArbiterApp(f"ws://127.0.0.1:{world.port}/", "Ann", ping_interval=None)
    try:
        async with app.run_test(size=(180, 60)) as pilot:
            table = await at_the_bots_table(app, pilot, world)
            decision = await answer_until(app, pilot, table, "attackers", passing)
            menu = table.query_one("#actions", OptionList)
            assert decision["actions"][0]["label"] == "No attacks"
            highlighted = menu.highlighted
            assert highlighted is not None
            assert decision["actions"][highlighted]["kind"] == "attack", highlighted
    finally:
        world.stop()


def test_the_menu_cursor_starts_on_an_attack_not_on_no_attacks(tmp_path: Path) -> None:
    asyncio.run(person_declares_attackers(tmp_path))


def test_first_choice_skips_the_end_of_a_declaration_only() -> None:
    attackers = {"kind": "attackers", "actions": [{"kind": "done"}, {"kind": "attack"}]}
    assert first_choice(attackers) == 1
    assert first_choice({"kind": "attackers", "actions": [{"kind": "done"}]}) == 0
    priority = {"kind": "priority", "actions": [{"kind": "pass"}, {"kind": "cast"}]}
    assert first_choice(priority) == 0


async def person_plays_their_deck_file(tmp_path: Path, text: str) -> tuple[str, list[str]]:
    world = started(ServerAndBot(tmp_path, scenario=None))
    app = ArbiterApp(f"ws://127.0.0.1:{world.port}/", "Ann", ping_interval=None,
                     deck_file=("islands.txt", text))
    try:
        async with app.run_test(size=(180, 60)) as pilot:
            await until(app, pilot, lambda: app.client is not None and "b: play bots"
                        in str(app.lobby.query_one("#lobby-status").render()),
                        "the lobby, connected")
            assert app.lobby.deck() == OWN_DECK  # offered first, and chosen
            await pilot.press("b")
            await until(app, pilot, lambda: (app.table is not None
                                             and app.table.decision is not None)
                        or any(line.startswith("Refused") for line in app.log_lines),
                        "a game against a bot, or a refusal")
            hand = app.table.texts.get("hand", "") if app.table is not None else ""
            return hand, list(app.log_lines)
    finally:
        world.stop()


def test_arbiter_play_seats_the_person_with_their_deck_file(tmp_path: Path) -> None:
    hand, log = asyncio.run(person_plays_their_deck_file(tmp_path, "60 Island\n"))
    assert "Island" in hand and "Forest" not in hand, hand
    assert not any(line.startswith("Refused") for line in log), log


def test_arbiter_play_says_which_card_of_the_deck_file_the_server_does_not_know(
        tmp_path: Path) -> None:
    _, log = asyncio.run(person_plays_their_deck_file(tmp_path, "56 Island\n4 Islnd Bolt\n"))
    assert any(line.startswith("Refused") and "'Islnd Bolt'" in line for line in log), log
