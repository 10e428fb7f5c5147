"""Replays of finished games and match histories, as pure functions of rows read from the log.

A game is a pure function of its configuration, seed and commands (docs/architecture.md), so a
replay runs them through a fresh :class:`~arbiter.server.rules.Table` and projects the main
game after each one for a single viewer, exactly as the live room projected it for that viewer
(:func:`arbiter.server.rules.view.snapshot`). What it sends is the view before the first
command and then, per command, the ops that turn one step's view into the next (the delta ops
of docs/protocol.md section 9), which a client's replica applies as it applies live deltas.

Who sees what (docs/protocol.md section 17). The game is over, but hands stay as secret as
they were: a replay shows a viewer only what that viewer could have seen live, never more.

* A player of the game (their session held the seat) sees it from their seat: their own hand
  (and their teammates', CR 808.5, 809.7), everyone's public cards.
* Anyone else sees what a public spectator saw: no hand, no library (``SPECTATOR``). A room
  whose spectators saw every hand (``spectators: all``) is replayed with the public view all
  the same: that view was for the creator's invited guests only, and a replay has no
  invitation. A room that allowed no spectators (``spectators: none``) is not replayed to
  anyone who did not play in it (``no_spectators``).

The work is bounded: a game of more than :data:`MAX_REPLAY_COMMANDS` commands is refused with
``replay_too_long`` (the log is read no further than that), and the request is charged to the
sender as a costly one (rooms/hub.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from arbiter.protocol.errors import Code, Refusal
from arbiter.protocol.server_messages import History, ReplayFrames
from arbiter.protocol.views import diff
from arbiter.server.rules import Table
from arbiter.server.rules.commands import from_record
from arbiter.server.rules.game import Event
from arbiter.server.rules.plain import config_from_wire
from arbiter.server.rules.view import SPECTATOR, snapshot
from arbiter.server.store.archive import ArchivedGame, FinishedGame
from arbiter.server.store.rows import CommandRow, GameRow

MAX_REPLAY_COMMANDS = 5000  # a replay replays at most this many commands (replay_too_long)
HISTORY_LENGTH = 20  # games in each list of a history
# Rows read for each list: events' own logs and rooms without spectators are left out after
# reading, so a few more are read than are listed.
HISTORY_READ = 2 * HISTORY_LENGTH


def viewer_of(archived: ArchivedGame, session: str | None) -> int:
    """The view a replay of ``archived`` shows the holder of ``session``: their seat's (a
    seat index is the player id in the game, rooms/setup.py), or the public spectators'.
    Raises ``no_spectators`` for a stranger to a room that allowed none."""
    for seat in archived.seats:
        if session is not None and seat.session == session:
            return seat.seat
    spectators = (archived.room.config.get("spectators", "public")
                  if archived.room is not None else "public")
    if spectators == "none":
        raise Refusal(Code.NO_SPECTATORS, f"game {archived.game.id} was played in a room "
                                          "without spectators: only its players may replay it")
    return SPECTATOR


def is_event(config: dict[str, Any]) -> bool:
    """Whether a game row of the log is a Limited event's own log (rooms/event_desk.py logs an
    event as a game of its room, its commands the event's): no game to replay or list."""
    return "event" in config


def check_replayable(archived: ArchivedGame | None, game: int) -> ArchivedGame:
    """``archived`` when it can be replayed: it exists and it is over."""
    if archived is None or is_event(archived.game.config):
        raise Refusal(Code.UNKNOWN_GAME, f"there is no game {game} in the log")
    if archived.game.result is None:
        raise Refusal(Code.NOT_FINISHED, f"game {game} is still being played: watch it "
                                         f"in room {archived.game.room} instead")
    return archived


def _facts(row: GameRow, room_name: str | None) -> dict[str, Any]:
    """A finished game's public facts, as a replay's ``info`` and a history entry give them
    (names, the result, when)."""
    players = row.config.get("players", [])
    return {"room": str(row.room), "room_name": room_name, "n": row.number,
            "variant": row.config.get("variant"), "names": [p.get("name") for p in players],
            "started": row.started, "res": row.result}


def replay_frames(request: int, archived: ArchivedGame, commands: Sequence[CommandRow],
                  viewer: int) -> ReplayFrames:
    """Replay the game's ``commands`` and project each step for ``viewer``. A log that does
    not replay (a refused command, a state hash that differs) is the server's fault and is
    refused ``internal``: nothing is shown from it."""
    if len(commands) > MAX_REPLAY_COMMANDS:
        raise Refusal(Code.REPLAY_TOO_LONG, f"game {archived.game.id} has more than "
                                            f"{MAX_REPLAY_COMMANDS} commands: too long to "
                                            "replay here (`arbiter replay` prints it)")
    row = archived.game
    table = Table(config_from_wire(row.config), row.seed)
    before = snapshot(table.main, viewer)
    first = before
    ops: list[list[Any]] = []
    turns: list[int] = []
    # The game's log lines, per step: public, the same for every viewer, as the room sent
    # them live (rooms/fanout.py), the main game's only.
    lines = [_lines(table, table.drain_events())]
    for rec in commands:
        try:
            events = table.apply(from_record(rec.command))
        except Refusal as exc:
            raise Refusal(Code.INTERNAL, f"game {row.id} does not replay from its log "
                                         f"(command {rec.n}: {exc.message})") from None
        if rec.hash is not None and rec.hash != table.state_hash():
            raise Refusal(Code.INTERNAL, f"game {row.id} does not replay from its log (the "
                                         f"state hash after command {rec.n} differs)")
        # The main game, even while a subgame is played above it (CR 726): its board is what
        # the match is about, and a subgame's own room was a room of its own live too.
        after = snapshot(table.main, viewer)
        ops.append(diff(before, after))
        turn = after.get("t")
        turns.append(turn[0] if isinstance(turn, list) and turn else 0)
        lines.append(_lines(table, events))
        before = after
    room_name = archived.room.name if archived.room is not None else None
    return ReplayFrames(request, row.id, _facts(row, room_name),
                        None if viewer == SPECTATOR else viewer, first, ops, turns, lines)


def _lines(table: Table, events: Sequence[Event]) -> list[str]:
    return [ev.text for ev in events if ev.game == table.main.number]


def history_entry(f: FinishedGame) -> dict[str, Any]:
    """One line of a match history: the game's public facts and the caller's seat."""
    out = {"game": f.game.id, **_facts(f.game, f.room_name)}
    if f.seat is not None:
        out["seat"] = f.seat
    return out


def history(request: int, mine: Sequence[FinishedGame], recent: Sequence[FinishedGame]
            ) -> History:
    """The caller's games, and the server's games that anyone may replay: a room without
    spectators is left out of the server's list (it is in its players' own lists)."""
    games = [f for f in mine if not is_event(f.game.config)][:HISTORY_LENGTH]
    public = [f for f in recent if not is_event(f.game.config)
              and f.room_config.get("spectators", "public") != "none"][:HISTORY_LENGTH]
    return History(request, [history_entry(f) for f in games],
                   [history_entry(f) for f in public])
