"""The terminal client pays mana by hand (CR 601.2g-h): Ctrl+T turns it on, a cast then asks
the ``pay_mana`` decision as a menu, and the permanents the person picks are the ones tapped.
Driven as a person drives it (Textual's pilot) against a bot on a real local server."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from arbiter.clients.tui import render
from arbiter.clients.tui.app import ArbiterApp

from .test_tui import ServerAndBot, answer_until, at_the_bots_table, choose, started, until

BEAR = {
    "players": [
        {"library": ["Forest"] * 10, "hand": ["Runeclaw Bear", "Lightning Bolt"],
         "battlefield": ["Forest", "Mountain", "Forest"]},
        {"library": ["Forest"] * 10, "battlefield": ["Forest"]},
    ],
    "active": 0, "step": "main1", "turn": 2,
}


def cast_the_bear(decision: dict[str, Any]) -> int:
    return next(i for i, a in enumerate(decision["actions"])
                if a["kind"] == "cast" and "Runeclaw Bear" in a["label"])


async def person_pays_by_hand(tmp_path: Path) -> tuple[list[str], dict[str, list[bool]], str]:
    world = started(ServerAndBot(tmp_path, BEAR))
    # Without auto-pass the person keeps priority with the Bear on the stack, lands tapped.
    app = ArbiterApp(f"ws://127.0.0.1:{world.port}/", "Ann", ping_interval=None,
                     auto_pass=False)
    try:
        async with app.run_test(size=(180, 60)) as pilot:
            table = await at_the_bots_table(app, pilot, world)
            await pilot.press("ctrl+t")
            note = app.log_lines[-1]
            decision = await answer_until(app, pilot, table, "pay_mana", cast_the_bear)
            offered = [a["label"] for a in decision["actions"]]
            # The Mountain, which the engine would have kept for Lightning Bolt.
            await choose(pilot, offered, offered.index("Tap Mountain for {R}"))
            serial = decision["serial"]
            await until(app, pilot, lambda: table.decision is not None
                        and table.decision[1]["serial"] != serial, "the next payment")
            assert table.decision is not None
            labels = [a["label"] for a in table.decision[1]["actions"]]
            await choose(pilot, labels, labels.index("Tap Forest for {G}"))
            client = app.client
            assert client is not None and world.room is not None

            def tapped() -> dict[str, list[bool]]:
                out: dict[str, list[bool]] = {}
                objs = render.objects(client.view(world.room or ""))
                for _, o in sorted(objs.items()):
                    if o.get("z") == "b" and o.get("c", o.get("o")) == 0:
                        out.setdefault(str(o["n"]), []).append(bool(o.get("t")))
                return out

            await until(app, pilot, lambda: tapped().get("Mountain") == [True],
                        "the Mountain tapped")
            return offered, tapped(), note
    finally:
        world.stop()


def test_601_2g_ctrl_t_asks_which_permanents_pay_and_taps_those_chosen(tmp_path: Path) -> None:
    offered, tapped, note = asyncio.run(person_pays_by_hand(tmp_path))
    assert note.startswith("Paying mana by hand")
    assert offered[-2:] == ["Pay the rest automatically", "Undo: don't cast Runeclaw Bear"]
    assert "Tap Mountain for {R}" in offered
    assert tapped["Mountain"] == [True] and sorted(tapped["Forest"]) == [False, True]
