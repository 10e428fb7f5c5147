"""The terminal client and Magic 2010's long list: naming a card among some 300 names (Pithing
Needle, CR 614.12b) by typing in the find box, driven as a person drives it (Textual's pilot)
against a bot on a real local server; the name chosen then reads on the table."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from arbiter.clients.tui.app import ArbiterApp

from .test_tui import ServerAndBot, answer_until, at_the_bots_table, passing, started, until

NEEDLE = {
    "players": [
        {"library": ["Mountain"] * 10, "hand": ["Pithing Needle"], "battlefield": ["Mountain"]},
        {"library": ["Forest"] * 10, "battlefield": ["Forest"]},
    ],
    "active": 0, "step": "main1", "turn": 2,
}


def cast_the_needle(decision: dict[str, Any]) -> int:
    """Cast Pithing Needle, tapping mana when asked, else pass."""
    kinds = [a["kind"] for a in decision["actions"]]
    for i, a in enumerate(decision["actions"]):
        if a["kind"] == "cast" and "Pithing Needle" in a["label"]:
            return i
    return kinds.index("mana") if "mana" in kinds else passing(decision)


async def person_names_a_card(tmp_path: Path) -> tuple[int, str, str]:
    world = started(ServerAndBot(tmp_path, NEEDLE))
    app = ArbiterApp(f"ws://127.0.0.1:{world.port}/", "Ann", ping_interval=None)
    try:
        async with app.run_test(size=(180, 60)) as pilot:
            table = await at_the_bots_table(app, pilot, world)
            decision = await answer_until(app, pilot, table, "name_card", cast_the_needle)
            offered = len(decision["actions"])
            for key in "jace":
                await pilot.press(key)
            await until(app, pilot, lambda: table.texts.get("actions") == "Jace Beleren",
                        "the menu narrowed to one name")
            menu = table.texts["actions"]
            await pilot.press("enter")
            await until(app, pilot, lambda: "named Jace Beleren" in table.texts.get("zones", ""),
                        "the name on the table")
            return offered, menu, table.texts["zones"]
    finally:
        world.stop()


def test_614_12b_a_card_name_is_found_by_typing_and_shown_on_the_needle(tmp_path: Path) -> None:
    offered, menu, zones = asyncio.run(person_names_a_card(tmp_path))
    assert offered > 200
    assert menu == "Jace Beleren"
    assert "Pithing Needle (named Jace Beleren)" in zones
