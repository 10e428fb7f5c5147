"""The browser client on a phone (390 x 844) and a tablet (768 x 1024), with touch (issue 29,
docs/clients.md "The browser client"): nothing scrolls sideways, the legal actions stay in a
sheet along the bottom of the screen, a tapped card is read in that sheet, and a whole game is
played by tapping. The main screens (lobby, table, game over) are compared with their reference
pictures in tests/web/reference/ (tests/web/screens.py); copies go to tests/web/screenshots/."""

from __future__ import annotations

from typing import Any

import pytest

from .browser import Person, Server, aggressive
from .screens import assert_looks_like

PHONE = {"width": 390, "height": 844}
TABLET = {"width": 768, "height": 1024}

NO_SIDEWAYS = ("() => document.documentElement.scrollWidth"
               " <= document.documentElement.clientWidth")


def _box(person: Person, selector: str) -> dict[str, float]:
    box: dict[str, float] | None = person.page.locator(selector).first.bounding_box()
    assert box is not None, f"{selector} is not shown"
    return box


@pytest.mark.parametrize("size", [PHONE, TABLET], ids=["phone", "tablet"])
def test_the_lobby_fits_the_screen_in_one_column(browser: Any, server: Server,
                                                 size: dict[str, int]) -> None:
    ann = Person(browser, server, "Ann", size, touch=True)
    ann.enter()
    ann.page.wait_for_selector("#create-form")
    assert ann.page.evaluate(NO_SIDEWAYS)
    rooms, form = _box(ann, ".rooms-panel"), _box(ann, ".create-panel")
    assert form["y"] >= rooms["y"] + rooms["height"]  # one column: the rooms, then the form
    submit = _box(ann, "#create-form button[type=submit]")
    assert submit["x"] >= 0 and submit["x"] + submit["width"] <= size["width"]
    ann.shot(f"lobby-{size['width']}")
    assert_looks_like(ann, f"lobby-{size['width']}", full_page=True)
    ann.check_console()
    ann.close()


@pytest.mark.parametrize("size", [PHONE, TABLET], ids=["phone", "tablet"])
def test_a_whole_game_is_played_by_tapping_with_the_actions_always_in_reach(
        browser: Any, server: Server, size: dict[str, int]) -> None:
    ann = Person(browser, server, "Ann", size, touch=True)
    ann.enter()
    ann.page.wait_for_selector("#create-form")
    ann.page.tap("#create-form button[type=submit]")
    shot = False
    for _ in range(200):
        state = ann.wait_turn()
        if state["over"]:
            break
        assert ann.page.evaluate(NO_SIDEWAYS)
        sheet = _box(ann, "#actions")
        # The sheet is on the screen, in its lower part, whatever the board's scroll.
        assert sheet["y"] >= size["height"] * 0.5 - 1
        assert sheet["y"] + min(sheet["height"], 60) <= size["height"] + 1
        seats = _box(ann, "#seats")
        assert seats["width"] >= size["width"] - 24  # the board has the screen's width
        if not shot and any(a["kind"] == "cast" for a in state["decision"]["actions"]):
            ann.shot(f"table-{size['width']}")
            assert_looks_like(ann, f"table-{size['width']}")
            shot = True
        ann.click_action(aggressive(state))
    else:
        raise AssertionError("the game did not end")
    dialog = _box(ann, ".game-over")
    assert dialog["x"] >= 0 and dialog["x"] + dialog["width"] <= size["width"]
    ann.shot(f"game-over-{size['width']}")
    assert_looks_like(ann, f"game-over-{size['width']}")
    ann.check_console()
    ann.close()


def test_a_tapped_card_is_read_in_the_sheet(browser: Any, server: Server) -> None:
    ann = Person(browser, server, "Ann", PHONE, touch=True)
    ann.enter()
    ann.page.wait_for_selector("#create-form")
    ann.page.tap("#create-form button[type=submit]")
    ann.wait("() => document.querySelector('#hand [data-obj]')")
    card = ann.page.locator("#hand [data-obj]").first
    name = card.locator(".c-name").inner_text()
    card.tap()
    ann.page.wait_for_function("n => { const d = document.querySelector('#detail .d-name');"
                               " return d && d.innerText === n; }", arg=name)
    detail = _box(ann, "#detail")
    assert detail["y"] < PHONE["height"]  # in the sheet, on the screen
    ann.check_console()
    ann.close()
