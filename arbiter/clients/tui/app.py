"""The terminal client: a Textual app for a person.

The lobby lists the server's rooms (refresh, create, join, spectate); the table shows every
player's life, poison, hand and library sizes, mana, each battlefield, graveyard and exile, the
stack, whose turn and step it is and who must decide, the range of influence when it is limited,
the chess clocks, your hand, the game log with the chat, and your legal actions as a menu.
A banner says when the main game is paused under a subgame (and how deep), when a game restarts
and how each game ended. The SDK (trio) runs inside Textual's asyncio loop: see ``bridge.py``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from functools import partial
from typing import Any

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Header, Input, OptionList, RichLog, Select, Static
from textual.widgets.option_list import Option

from arbiter.clients.sdk import Client
from arbiter.clients.sdk import events as ev
from arbiter.protocol import requests as rq

from . import render
from .bridge import Entered, Failed, Ready, Refused, TrioBridge

DEFAULT_DECK = "gruul-stompy"
OWN_DECK = "\x00own"  # the lobby's deck choice that stands for the --deck-file deck list


class SdkEvent(Message):
    """An SDK event, handed from the trio run to the app."""

    def __init__(self, event: ev.Event) -> None:
        super().__init__()
        self.event = event


class ArbiterScreen(Screen[None]):
    """A screen of this app, reaching the app's client and commands through ``app_``."""

    @property
    def app_(self) -> ArbiterApp:
        assert isinstance(self.app, ArbiterApp)
        return self.app


class LobbyScreen(ArbiterScreen):
    own_deck: str | None = None  # the name of the --deck-file, offered first when given

    BINDINGS = [
        Binding("r", "refresh", "Refresh"),
        Binding("c", "create", "Create & join"),
        Binding("b", "create_with_bots", "Play bots"),
        Binding("j", "join", "Join"),
        Binding("s", "spectate", "Spectate"),
        Binding("q", "quit", "Quit"),
    ]

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static("Connecting…", id="lobby-status")
        yield DataTable(id="rooms", cursor_type="row", zebra_stripes=True)
        with Horizontal(id="create-form"):
            yield Static("New room: seats", classes="label")
            yield Input("2", id="seats", type="integer", max_length=1)
            yield Static("your deck", classes="label")
            # The server's ready-made decks arrive with its catalog, once connected.
            first = DEFAULT_DECK if self.own_deck is None else OWN_DECK
            yield Select(self._options((DEFAULT_DECK,)), value=first, allow_blank=False,
                         id="deck")
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one("#rooms", DataTable)
        table.add_columns("room", "name", "state", "variant", "seats", "watching")
        table.focus()
        self.set_interval(5.0, self._refresh_list)

    def _refresh_list(self) -> None:
        if self.app.screen is self and self.app_.client is not None:
            self.app_.refresh_rooms()

    def show_rooms(self, rooms: list[dict[str, Any]]) -> None:
        table = self.query_one("#rooms", DataTable)
        selected = self.selected_room()
        table.clear()
        for r in rooms:
            seats = r.get("seats", [])
            taken = sum(1 for s in seats if s.get("n"))
            names = ", ".join(s["n"] for s in seats if s.get("n"))
            table.add_row(r["r"], r.get("name", ""), r.get("state", ""), r.get("variant", ""),
                          f"{taken}/{len(seats)} {names}", str(r.get("watching", 0)),
                          key=r["r"])
        ids = [r["r"] for r in rooms]
        if selected in ids:  # a refresh keeps the person's place in the list
            table.move_cursor(row=ids.index(selected))

    def selected_room(self) -> str | None:
        table = self.query_one("#rooms", DataTable)
        if table.row_count == 0:
            return None
        key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key
        return str(key.value) if key.value is not None else None

    def set_status(self, text: str) -> None:
        self.query_one("#lobby-status", Static).update(text)

    def _options(self, decks: tuple[str, ...]) -> list[tuple[str, str]]:
        own = [] if self.own_deck is None else [(f"my deck: {self.own_deck}", OWN_DECK)]
        return own + [(d, d) for d in sorted(decks)]

    def set_decks(self, decks: tuple[str, ...]) -> None:
        select = self.query_one("#deck", Select)
        current = select.value
        select.set_options(self._options(decks))
        if current in decks or current == OWN_DECK:
            select.value = current

    def deck(self) -> str:
        return str(self.query_one("#deck", Select).value)

    def action_refresh(self) -> None:
        self.app_.refresh_rooms()

    def action_create(self) -> None:
        try:
            seats = int(self.query_one("#seats", Input).value or "2")
        except ValueError:
            seats = 2
        self.app_.create_and_join(seats, self.deck())

    def action_create_with_bots(self) -> None:
        """A new room with the person in one seat and the server's bots in the others."""
        try:
            seats = int(self.query_one("#seats", Input).value or "2")
        except ValueError:
            seats = 2
        self.app_.create_and_join(seats, self.deck(), bots=True)

    def action_join(self) -> None:
        room = self.selected_room()
        if room is not None:
            self.app_.join(room, self.deck())

    def action_spectate(self) -> None:
        room = self.selected_room()
        if room is not None:
            self.app_.spectate(room)

    async def action_quit(self) -> None:
        await self.app_.action_quit()


class TableScreen(ArbiterScreen):
    AUTO_FOCUS = "#actions"
    BINDINGS = [
        Binding("ctrl+x", "concede", "Concede"),
        Binding("ctrl+o", "draw", "Offer/accept draw"),
        Binding("ctrl+n", "decline_draw", "Decline draw"),
        Binding("ctrl+a", "auto_pass", "Auto-pass on/off"),
        Binding("ctrl+t", "pay_by_hand", "Pay mana by hand on/off"),
        Binding("ctrl+b", "add_bot", "Add a bot"),
        Binding("escape", "leave", "Leave to lobby"),
    ]

    def __init__(self, match: str) -> None:
        super().__init__()
        self.match = match
        self.decision: tuple[str, dict[str, Any]] | None = None
        self.concede_armed = False
        self.texts: dict[str, str] = {}  # what each panel shows, as plain text

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(id="status")
        with Horizontal():
            with VerticalScroll(id="board"):
                yield Static(id="players")
                yield Static(id="zones")
            with Vertical(id="side"):
                yield Static(id="hand")
                yield Static(id="prompt")
                # A long list of choices (a card name among ~300) is searched: what is typed
                # here narrows the menu, Enter takes its first match.
                yield Input(placeholder="find: type to narrow a long list", id="find")
                yield OptionList(id="actions")
                yield RichLog(id="log", wrap=True, markup=False)
                yield Input(placeholder="chat: type and press Enter", id="chat")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#actions", OptionList).focus()
        self.redraw()

    def _set(self, widget_id: str, text: Text) -> None:
        self.texts[widget_id] = text.plain
        self.query_one(f"#{widget_id}", Static).update(text)

    def redraw(self) -> None:
        app = self.app_
        client = app.client
        if client is None:
            return
        room = client.active_room(self.match) or self.match
        view = client.view(room)
        names = render.names_of(client.summaries.get(self.match))
        me = app.me(self.match)
        depth = client.depth(self.match)
        self._set("status", render.status_text(
            view, names, depth=depth, main_room=self.match, room=room,
            clock=app.clocks.get(self.match), banner=app.banner))
        self._set("players", render.players_text(view, names, me))
        self._set("zones", render.zones_text(view, names, me))
        self._set("hand", render.hand_text(view, me, names))
        self._update_menu(client, view, names)

    def _update_menu(self, client: Client, view: Any, names: dict[int, str]) -> None:
        menu = self.query_one("#actions", OptionList)
        pending = [(r, d) for r, d in client.decisions(self.match)
                   if d["serial"] != self.app_.answered.get(r)]
        current = pending[0] if pending else None
        if current is None:
            # Said afresh every time: the game may have ended since the last prompt.
            self.decision = None
            menu.clear_options()
            self._set("prompt", Text(self._idle_prompt(client, view, names), style="italic"))
            return
        if current == self.decision:
            return
        self.decision = current
        menu.clear_options()
        room, decision = current
        actions = decision["actions"]
        passes = [a for a in actions if a["kind"] == "pass"]
        if self.app_.auto_pass and passes and all(a["kind"] in ("pass", "mana")
                                                  for a in actions):
            # Passing (CR 117.3d) is all there is to do (mana with nothing to spend it on
            # empties at the end of the step, CR 500.4): do it without asking, as the player
            # asked (Ctrl+A turns this off to answer every priority stop).
            self.app_.pass_priority(room, decision["serial"], passes[0]["id"])
            self.decision = None
            self._set("prompt", Text("Passing: nothing else can be done now.", style="italic"))
            self.texts["actions"] = ""
            return
        find = self.query_one("#find", Input)
        find.value = ""
        long = render.list_kind(decision) is not None
        how = "type in find to narrow it, then ↑↓ and Enter" if long else "choose with ↑↓ and Enter"
        self._set("prompt", Text(f"{decision.get('prompt') or decision['kind']} ({how})",
                                 style="bold cyan"))
        self._fill_menu(decision, "")
        menu.highlighted = render.first_choice(decision) if not long else 0
        if long:
            find.focus()

    def _fill_menu(self, decision: dict[str, Any], find: str) -> None:
        menu = self.query_one("#actions", OptionList)
        menu.clear_options()
        shown = render.menu_actions(decision, find)
        menu.add_options([Option(a["label"], id=str(a["id"])) for a in shown])
        if shown:
            menu.highlighted = 0
        self.texts["actions"] = "\n".join(a["label"] for a in shown)

    def on_input_changed(self, message: Input.Changed) -> None:
        if message.input.id == "find" and self.decision is not None:
            self._fill_menu(self.decision[1], message.value)

    def _idle_prompt(self, client: Client, view: Any, names: dict[int, str]) -> str:
        """What the prompt says when nothing is asked of the person."""
        if client.match_over(self.match):
            return "The match is over. Esc: back to the lobby."
        if "x" in view:
            return "This game is over."
        summary = client.summaries.get(self.match) or {}
        if summary.get("state", "waiting") == "waiting" and not view:
            free = sum(1 for s in summary.get("seats", []) if not s.get("n"))
            return (f"Room {self.match} waits for {free} more player{'s' if free != 1 else ''}"
                    f": Ctrl+B puts a bot in a free seat, or another person joins room "
                    f"{self.match} from their lobby.")
        who = render.decider(view)
        return f"Waiting for {names.get(who, '?')}…" if who is not None else "Waiting…"

    def on_option_list_option_selected(self, message: OptionList.OptionSelected) -> None:
        if self.decision is None or message.option.id is None:
            return
        room, decision = self.decision
        action = int(message.option.id)
        chosen = next(a for a in decision["actions"] if a["id"] == action)
        self.app_.act(room, decision["serial"], action, chosen["label"], chosen["kind"])
        self.decision = None
        self.query_one("#actions", OptionList).clear_options()
        self.texts["actions"] = ""

    def on_input_submitted(self, message: Input.Submitted) -> None:
        if message.input.id == "chat" and message.value.strip():
            self.app_.chat(self.match, message.value.strip())
            message.input.value = ""
        elif message.input.id == "find" and self.decision is not None:
            room, decision = self.decision
            kind = render.list_kind(decision)
            found = [a for a in render.menu_actions(decision, message.value)
                     if a.get("kind") == kind]
            if found:  # Enter in the find box takes the first match
                self.app_.act(room, decision["serial"], found[0]["id"], found[0]["label"],
                              found[0]["kind"])
                self.decision = None
                self.query_one("#actions", OptionList).clear_options()
                self.texts["actions"] = ""
                message.input.value = ""
                self.query_one("#actions", OptionList).focus()

    def action_concede(self) -> None:
        if not self.concede_armed:
            self.concede_armed = True
            self.app_.note("Press Ctrl+X again to concede this game (CR 104.3a).")
            return
        self.concede_armed = False
        self.app_.concede(self.match)

    def action_draw(self) -> None:
        client = self.app_.client
        if client is None:
            return
        view = client.view(client.active_room(self.match) or self.match)
        offer = view.get("d")
        me = self.app_.me(self.match)
        if not offer:
            op = "propose"
        elif offer[0] == me:
            op = "withdraw"
        else:
            op = "accept"
        self.app_.draw(self.match, op)

    def action_decline_draw(self) -> None:
        self.app_.draw(self.match, "decline")

    def action_auto_pass(self) -> None:
        app = self.app_
        app.auto_pass = not app.auto_pass
        app.note("Auto-pass is on: priority you can only pass is passed for you."
                 if app.auto_pass else "Auto-pass is off: you answer every priority stop.")
        self.decision = None  # offer the current decision again, under the new setting
        self.redraw()

    def action_pay_by_hand(self) -> None:
        app = self.app_
        app.pay_by_hand = not app.pay_by_hand
        app.note("Paying mana by hand: casting a spell or activating an ability asks which "
                 "permanents pay." if app.pay_by_hand
                 else "Paying mana automatically: the engine chooses which permanents pay.")

    def action_add_bot(self) -> None:
        self.app_.add_bot(self.match)

    def action_leave(self) -> None:
        self.app_.leave(self.match)

    def write_line(self, line: str, style: str = "") -> None:
        self.query_one("#log", RichLog).write(Text(line, style=style))


class ArbiterApp(App[None]):
    TITLE = "Arbiter"
    CSS = """
    #lobby-status { height: auto; padding: 0 1; }
    #create-form { height: 3; }
    #create-form .label { width: auto; padding: 1 1; }
    #seats { width: 8; }
    #deck { width: 30; }
    #status { height: auto; padding: 0 1; background: $boost; }
    #board { width: 60%; }
    #side { width: 40%; }
    #hand { height: auto; padding: 0 1; }
    #prompt { height: auto; padding: 0 1; }
    #actions { height: 12; }
    #log { height: 1fr; }
    """

    def __init__(self, urls: str | Sequence[str], name: str, *, auto_pass: bool = True,
                 deck_file: tuple[str, str] | None = None, pay_by_hand: bool = False,
                 **client_options: Any) -> None:
        """``deck_file``: the name and text of the player's own deck list (``--deck-file``),
        offered first in the lobby; the server checks it when the player sits down.
        ``pay_by_hand``: casting and activating ask which permanents pay (``--pay-by-hand``,
        Ctrl+T in a game)."""
        super().__init__()
        self.deck_text = None if deck_file is None else deck_file[1]
        self.urls = urls  # one server, or the entry URLs of a cluster
        self.player_name = name
        self.auto_pass = auto_pass  # pass priority for the player when that is all they can do
        self.auto_passes = 0
        self.pay_by_hand = pay_by_hand  # sent as ``manual`` with each cast and activation
        self.bridge = TrioBridge(self._from_trio, urls, name, **client_options)
        self.lobby = LobbyScreen()
        self.lobby.own_deck = None if deck_file is None else deck_file[0]
        self.table: TableScreen | None = None
        self.clocks: dict[str, tuple[list[int], int | None]] = {}
        self.answered: dict[str, int] = {}  # room -> serial of the decision we answered
        self.banner: str | None = None
        self.banner_turn: int | None = None
        self.log_lines: list[str] = []  # the game log, as shown (also for tests)
        self.rooms: list[dict[str, Any]] = []
        self.changed = asyncio.Event()  # set after every event is shown (tests wait on it)
        self._logged_rooms: set[str] = set()  # rooms whose recent log has been shown
        self._unshown: list[tuple[str, str]] = []

    @property
    def client(self) -> Client | None:
        return self.bridge.client

    def me(self, match: str) -> int | None:
        client = self.client
        if client is None or match not in client.seats:
            return None
        return client.seats[match].seat

    async def on_mount(self) -> None:
        await self.push_screen(self.lobby)
        self.bridge.start()

    async def on_unmount(self) -> None:
        await self.bridge.stop()

    def _from_trio(self, event: ev.Event) -> None:
        self.post_message(SdkEvent(event))

    # ------------------------------------------------------------------ requests

    def refresh_rooms(self) -> None:
        self.bridge.call("list rooms", lambda c: c.list_rooms())

    def create_and_join(self, seats: int, deck: str, *, bots: bool = False) -> None:
        """Create a room and sit in it; with ``bots``, the server's bots take the other seats
        (docs/protocol.md, "bot") and the game starts at once."""
        async def go(c: Client) -> None:
            variant = "two_player" if seats == 2 else "free_for_all"
            room = await c.create({"seats": seats, "variant": variant,
                                   "name": f"{c.name}'s table"})
            seat = await c.join(room, deck=self._ready_deck(deck), deck_text=self._own_text(deck))
            self.bridge.post(Entered(room, seat, created=not bots))
            if bots:
                for other in range(seats):
                    if other != seat:
                        await c.request(partial(rq.AddBot, room=room, seat=other))
        self.bridge.call("create", go)

    def _ready_deck(self, choice: str) -> str | None:
        """The lobby's deck choice, when it is one of the server's ready-made decks."""
        return None if choice == OWN_DECK else choice

    def _own_text(self, choice: str) -> str | None:
        """The player's own deck list, when the lobby's deck choice is it."""
        return self.deck_text if choice == OWN_DECK else None

    def add_bot(self, match: str) -> None:
        """A server bot in the first free seat of the (waiting) room."""
        self.bridge.call("add a bot", lambda c: c.request(partial(rq.AddBot, room=match)))

    def join(self, room: str, deck: str) -> None:
        async def go(c: Client) -> None:
            seat = await c.join(room, deck=self._ready_deck(deck), deck_text=self._own_text(deck))
            self.bridge.post(Entered(room, seat))
        self.bridge.call("join", go)

    def spectate(self, room: str) -> None:
        async def go(c: Client) -> None:
            await c.spectate(room)
            self.bridge.post(Entered(room, None))
        self.bridge.call("spectate", go)

    def act(self, room: str, serial: int, action: int, label: str, kind: str = "") -> None:
        self.answered[room] = serial
        self.write_log(f"You: {label}", "bold")
        # Only a cast or an activation has mana to pay (a pay_mana decision then follows).
        manual = self.pay_by_hand and kind in ("cast", "activate")
        self.bridge.call("act", lambda c: c.act(room, serial, action, manual=manual))

    def pass_priority(self, room: str, serial: int, action: int) -> None:
        """Auto-pass: answer a decision whose only choice is to pass, without a log line."""
        self.answered[room] = serial
        self.auto_passes += 1
        self.bridge.call("act", lambda c: c.act(room, serial, action))

    def concede(self, match: str) -> None:
        self.bridge.call("concede", lambda c: c.concede(match))

    def draw(self, match: str, op: str) -> None:
        client = self.client
        room = (client.active_room(match) if client is not None else None) or match
        self.bridge.call(f"draw {op}", lambda c: c.draw(match, op, room))
        self.write_log(f"You: {op} a draw")

    def chat(self, match: str, text: str) -> None:
        self.bridge.call("chat", lambda c: c.chat(match, text))

    def leave(self, match: str) -> None:
        self.bridge.call("leave", lambda c: c.leave(match))
        if self.table is not None:
            self.table = None
            self.pop_screen()
        self.banner = None
        self.refresh_rooms()

    # ------------------------------------------------------------------ events

    def note(self, line: str) -> None:
        self.write_log(line, "yellow")

    def write_log(self, line: str, style: str = "") -> None:
        self.log_lines.append(line)
        if self.table is not None:
            self.table.write_line(line, style)
        else:
            self._unshown.append((line, style))  # shown when a table screen opens

    async def on_sdk_event(self, message: SdkEvent) -> None:
        try:
            await self._handle(message.event)
        finally:
            self.changed.set()

    async def _handle(self, event: ev.Event) -> None:
        client = self.client
        match = self.table.match if self.table is not None else None
        if isinstance(event, ev.Snapshot) and event.room not in self._logged_rooms:
            # The first view of a room brings the game's recent log; later snapshots (a
            # resync) repeat lines already shown.
            self._logged_rooms.add(event.room)
            for line in event.log:
                self.write_log(line)
        if isinstance(event, Ready):
            self.lobby.set_decks(event.decks)
            where = client.url if client is not None else self.urls
            self.lobby.set_status(f"Connected to {where} as {self.player_name}. "
                                  "r: refresh, c: create, b: play bots, j: join, "
                                  "s: spectate.")
            self.refresh_rooms()
        elif isinstance(event, Failed):
            self.lobby.set_status(f"Not connected: {event.reason}")
            self.note(f"Not connected: {event.reason}")
        elif isinstance(event, ev.RoomList):
            self.rooms = event.rooms
            self.lobby.show_rooms(event.rooms)
        elif isinstance(event, Entered):
            self.table = TableScreen(event.room)
            self.banner = None
            await self.push_screen(self.table)
            for line, style in self._unshown:
                self.table.write_line(line, style)
            self._unshown.clear()
            where = f"sit in seat {event.seat}" if event.seat is not None else "watch"
            self.write_log(f"You {where} in room {event.room}.")
            if event.created:
                # A new room is empty but for its maker: say what comes next.
                self.note(f"Room {event.room} starts when every seat is taken: Ctrl+B puts a "
                          f"bot in a free seat, or another person joins room {event.room} "
                          "from their lobby (j).")
        elif isinstance(event, Refused):
            line = f"Refused ({event.what}): {event.message}"
            self.lobby.set_status(line)
            self.note(line)
        elif isinstance(event, ev.Disconnected):
            self.note("Connection lost: reconnecting…")
        elif isinstance(event, ev.Redirected):
            # A cluster moved us (or a room of ours) to another node; the SDK follows.
            about = f" (room {event.room})" if event.room else ""
            self.note(f"Moved to node {event.url}{about}.")
        elif isinstance(event, ev.Connected) and event.resumed:
            self.note("Reconnected.")
        elif match is None or client is None:
            return
        elif isinstance(event, ev.Delta) and ev.match_of(event.room) == match:
            for line in event.log:  # the engine's own readable log (public text)
                self.write_log(line)
        elif isinstance(event, ev.Result) and ev.match_of(event.room) == match:
            names = render.names_of(client.summaries.get(match))
            line = render.result_text(event.result, names)
            m = event.match
            if m:
                wins = ", ".join(f"{names.get(i, i)} {w}" for i, w in enumerate(m["wins"]))
                line += (f". Match over (wins: {wins})." if m.get("over") else
                         f". Game {m['game']} of {m['best_of']} (wins: {wins}); next game "
                         "starts.")
            self.banner = "GAME OVER: " + line
            self.banner_turn = None
            self.write_log(self.banner, "bold")
        elif isinstance(event, ev.Restarted) and ev.match_of(event.room) == match:
            names = render.names_of(client.summaries.get(match))
            self.banner = (f"GAME RESTARTED (CR 724): game {event.game} replaces game "
                           f"{event.old_game}; {names.get(event.starting, '?')} starts")
            self.banner_turn = 1
            self.write_log(self.banner, "bold")
        elif isinstance(event, ev.SubgameOpened) and ev.match_of(event.room) == match:
            self.write_log(f"SUBGAME (CR 726) in room {event.room}, depth {event.depth}: "
                           f"the game in room {event.parent} is paused.", "bold")
        elif isinstance(event, ev.SubgameClosed) and ev.match_of(event.room) == match:
            names = render.names_of(client.summaries.get(match))
            self.write_log(f"Subgame in room {event.room} ended: "
                           f"{render.result_text(event.result, names)}. Back to room "
                           f"{event.parent}.", "bold")
        elif isinstance(event, ev.ChatMessage) and ev.match_of(event.room) == match:
            self.write_log(f"[chat] {event.sender}: {event.text}", "cyan")
        elif isinstance(event, ev.Clock) and ev.match_of(event.room) == match:
            self.clocks[match] = (event.millis, event.running)
        elif isinstance(event, ev.ServerError):
            self.note(f"Server: {event.message}")
        if self.table is not None and client is not None:
            view = client.view(client.active_room(self.table.match) or self.table.match)
            turn = (view.get("t") or [None])[0]
            if self.banner_turn is not None and turn is not None and turn > self.banner_turn:
                self.banner = None
                self.banner_turn = None
            self.table.redraw()

