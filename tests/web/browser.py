"""What the browser tests share: a real ``arbiter serve`` on 127.0.0.1, Debian's Chromium driven
by Playwright, and a person at a page who plays by clicking.

Chromium comes from the distribution (``/usr/bin/chromium``; ``python3 dev.py test`` installs
it with apt-get), never from ``playwright install``. Every wait is on a condition with a
bounded timeout. Each person's page records the console's errors and warnings and every
uncaught exception; a test ends by checking there were none.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = os.environ.get("ARBITER_CHROMIUM", "/usr/bin/chromium")
# The ids that more than one element of the page has.
IDS_USED_TWICE = """() => {
  const seen = new Map();
  for (const el of document.querySelectorAll("[id]")) seen.set(el.id, (seen.get(el.id) ?? 0) + 1);
  return [...seen].filter(([, n]) => n > 1).map(([id]) => id);
}"""
# As root, without a sandbox; no background traffic (this machine has no network but loopback).
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                  "--no-first-run", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync"]
VIEWPORT = {"width": 1280, "height": 800}
SHOTS = Path(__file__).resolve().parents[2] / "tests" / "web" / "screenshots"

READ = """() => {
  const a = window.arbiter;
  if (!a || a.match === null) return null;
  const room = a.activeRoom(a.match);
  const view = a.view(room) || {};
  const pending = a.decision(a.match);
  const main = a.view(a.match) || {};
  return {match: a.match, room, me: a.mySeat(a.match), turn: (view.t || [0])[0],
          depth: (view.g || {}).depth || 0, over: !!main.x, result: main.x || null,
          state: (a.summaries.get(a.match) || {}).state || null,
          decision: pending ? {room: pending[0], ...pending[1]} : null};
}"""


def chromium_path() -> str:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"Chromium is not installed at {CHROMIUM}: `python3 dev.py test` installs "
                    "it (apt-get install chromium); the browser tests cannot run without it")
    return CHROMIUM


class Server:
    """``arbiter serve`` in a child process on a port the OS chose."""

    def __init__(self, data_dir: Path, *extra: str) -> None:
        # A seeded server: the same games every run (the people click the same way).
        args = [sys.executable, "-m", "arbiter.server.cli", "serve", "--port", "0",
                "--data-dir", str(data_dir), "--allow-scenarios", "--seed", "7",
                "--ping-interval", "0", "--log-level", "WARNING", *extra]
        self.err = open(data_dir / "server.err", "wb")  # noqa: SIM115 - closed in stop()
        self.proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=self.err, text=True)
        self.lines: list[str] = []
        deadline = time.monotonic() + 30
        assert self.proc.stdout is not None
        port = None
        while port is None:
            line = self.proc.stdout.readline()
            if not line:
                self.stop()
                pytest.fail("arbiter serve exited: " + (data_dir / "server.err").read_text())
            self.lines.append(line)
            m = re.search(r"listening on ws://127\.0\.0\.1:(\d+)", line)
            port = int(m.group(1)) if m else None
            assert time.monotonic() < deadline, "arbiter serve did not start in 30 s"
        self.port = port
        self.url = f"http://127.0.0.1:{port}/"
        self.ws_url = f"ws://127.0.0.1:{port}/"
        threading.Thread(target=self._drain, daemon=True).start()

    def _drain(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.append(line)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.err.close()


@contextmanager
def running_server(tmp: Path, *extra: str) -> Iterator[Server]:
    server = Server(tmp, *extra)
    try:
        yield server
    finally:
        server.stop()


@contextmanager
def chromium() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    path = chromium_path()
    profile = tempfile.mkdtemp(prefix="arbiter-chromium-")
    try:
        with sync_playwright() as pw:
            # A persistent context needs its own folder: a fresh, empty one each time.
            browser = pw.chromium.launch(executable_path=path, args=CHROMIUM_FLAGS,
                                         headless=True)
            try:
                yield browser
            finally:
                browser.close()
    finally:
        shutil.rmtree(profile, ignore_errors=True)


def place_of(action: dict[str, Any]) -> str | None:
    """Where the page puts an action (arbiter/clients/web/src/table.js, actionsByPlace)."""
    ref = action.get("ref")
    on_ref = action["kind"] in ("target", "choose_player", "enchant") or action.get("obj") is None
    if on_ref and isinstance(ref, list):
        return f"p{ref[1]}" if ref[0] == "p" else f"o{ref[1]}"
    if action.get("obj") is not None:
        return f"o{action['obj']}"
    return None


class Person:
    """One person at one page of their own browser context (their own storage)."""

    def __init__(self, browser: Any, server: Server, name: str,
                 viewport: dict[str, int] | None = None, touch: bool = False) -> None:
        self.name = name
        self.server = server
        self.context = browser.new_context(viewport=viewport or VIEWPORT, has_touch=touch,
                                           is_mobile=touch)
        self.page = self.context.new_page()
        self.page.set_default_timeout(20_000)
        self.problems: list[str] = []
        self.clicks = 0
        self.page.on("console", self._console)
        self.page.on("pageerror", lambda exc: self.problems.append(f"uncaught: {exc}"))

    def _console(self, message: Any) -> None:
        if message.type in ("error", "warning"):
            self.problems.append(f"console {message.type}: {message.text}")

    # ------------------------------------------------------------------ pages

    def enter(self, path: str = "") -> None:
        """Open the page and give a name."""
        self.page.goto(self.server.url + path)
        self.page.fill("#name-input", self.name)
        self.page.click("#name-form button")
        self.page.wait_for_function("() => window.arbiter && window.arbiter.conn.ready")

    def read(self) -> dict[str, Any] | None:
        result: dict[str, Any] | None = self.page.evaluate(READ)
        return result

    def wait(self, js: str, timeout: float = 20_000) -> None:
        self.page.wait_for_function(js, timeout=timeout)

    def shot(self, name: str) -> Path:
        """Photograph the page, then check that no two of its elements share an id: the
        client finds the region to redraw by its id, and a second element with the same id
        would be drawn over instead (the deck builder's pool once was, by the event's side
        panel, whenever a message changed only the side panel)."""
        SHOTS.mkdir(parents=True, exist_ok=True)
        path = SHOTS / f"{name}.png"
        self.page.screenshot(path=str(path))
        print(f"screenshot: {path}")
        twice = self.page.evaluate(IDS_USED_TWICE)
        assert twice == [], f"{self.name}'s page, {name}: ids used more than once: {twice}"
        return path

    def check_console(self) -> None:
        assert self.problems == [], f"{self.name}'s page: {self.problems}"

    # ------------------------------------------------------------------ playing

    def click_action(self, action: dict[str, Any]) -> None:
        """Choose ``action`` by clicking what it concerns (a card or a player) where the page
        puts it there, else its button in the list of actions."""
        decision = self.read()
        assert decision is not None and decision["decision"] is not None
        actions = decision["decision"]["actions"]
        place = place_of(action)
        same = [a for a in actions if place_of(a) == place] if place else []
        page = self.page
        if place is not None:
            if place[0] == "p":
                page.click(f'.seat-head[data-player="{place[1:]}"]')
            else:
                page.click(f'[data-obj="{place[1:]}"].actionable')
            if len(same) > 1:
                page.click(f'#popup-menu button[data-id="{action["id"]}"]')
        else:
            page.click(f'#actions button[data-id="{action["id"]}"]')
        self.clicks += 1

    def key_action(self, action: dict[str, Any]) -> None:
        """Choose ``action`` with the keyboard: Space for the one-key action (pass, done,
        keep), else its number in the list."""
        state = self.read()
        assert state is not None and state["decision"] is not None
        actions = state["decision"]["actions"]
        primary = next((a for k in ("pass", "done", "keep", "choose_none")
                        for a in actions if a["kind"] == k), None)
        self.page.locator("body").focus()
        if primary is not None and primary["id"] == action["id"]:
            self.page.keyboard.press("Space")
        else:
            index = [a["id"] for a in actions].index(action["id"])
            assert index < 9, "only the first nine actions have a key"
            self.page.keyboard.press(str(index + 1))

    def wait_turn(self, timeout: float = 30_000) -> dict[str, Any]:
        """Wait until this person must decide or the game on screen is over."""
        self.wait("() => { const a = window.arbiter; if (!a || a.match === null) return false;"
                  " const v = a.view(a.match) || {};"
                  " return !!(a.decision(a.match) || v.x); }", timeout)
        state = self.read()
        assert state is not None
        return state

    def play_one(self, choose: Any) -> dict[str, Any]:
        """Wait for a decision and answer it with ``choose(state) -> action``."""
        state = self.wait_turn()
        if state["decision"] is not None and not state["over"]:
            action = choose(state)
            if action is not None:
                self.click_action(action)
        return state

    def close(self) -> None:
        self.context.close()


def aggressive(state: dict[str, Any]) -> dict[str, Any]:
    """A simple player: keep, play a land, cast what can be cast at the opponents, attack with
    everything, never block, aim at opponents."""
    d = state["decision"]
    me = state["me"]
    acts = d["actions"]
    by = {}
    for a in acts:
        by.setdefault(a["kind"], []).append(a)
    for kind in ("keep", "play_land", "cast", "attack", "choose_player"):
        if kind in by:
            return by[kind][0]
    if d["kind"] == "target":
        foes = [a for a in acts if a.get("ref", [None])[0] == "p" and a["ref"][1] != me]
        return (foes or acts)[0]
    for kind in ("done", "pass", "amount", "trigger", "no", "choose_none"):
        if kind in by:
            return by[kind][0]
    return acts[0]
