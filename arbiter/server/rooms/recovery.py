"""Rebuilding a room read back from the log (a server restart, or a cluster node taking a room
over): its settings, seats and sessions, its match's score, and its current table replayed
from its seed and commands, every recorded state hash checked on the way (Determinism
invariant). A room whose log does not replay is not resumed."""

from __future__ import annotations

from arbiter.protocol.errors import Refusal
from arbiter.server.events.event import EventConfig
from arbiter.server.rules import Table
from arbiter.server.rules.commands import Command, from_record
from arbiter.server.rules.plain import config_from_wire
from arbiter.server.store.rows import GameRow, StoredRoom

from .bots import RoomBot
from .context import RoomContext
from .event_room import EventRoom, Services
from .match import MatchRoom
from .sessions import SessionBook
from .setup import deck_from_wire, parse_settings


class RecoveryError(Exception):
    """A stored room cannot be resumed: its log does not replay to the state it recorded, or
    the server no longer accepts what it recorded. Not a :class:`Refusal`: nobody asked for
    anything, so nobody is answered; the operator reads it in the server's log, and the room
    stays in the store untouched."""


def rebuild(ctx: RoomContext, sessions: SessionBook, stored: StoredRoom) -> MatchRoom:
    """The match ``stored`` describes, as it stood after its last logged command; raise
    :class:`RecoveryError` if it cannot be."""
    row = stored.room
    try:
        settings = parse_settings(row.config, default_name=row.name, allow_scenarios=True,
                                  internal=True)
    except Refusal as exc:
        raise RecoveryError(f"room {row.id}: its settings are no longer accepted: {exc}") \
            from None
    match = MatchRoom(ctx, row.id, settings, row.creator, None)
    for s in stored.seats:
        if s.seat >= len(match.seats):
            continue
        seat = match.seats[s.seat]
        seat.token, seat.name = s.token, s.name
        seat.deck = deck_from_wire(s.deck) if s.deck is not None else seat.deck
        if s.bot is not None:
            seat.bot = RoomBot(s.bot, ctx.entropy.bits(62))
        session = sessions.get(s.session) if s.session is not None else None
        if session is not None and s.token is not None:
            seat.session = session
            session.seats[match.id] = seat.index
    for g in stored.games:
        if g.result is not None:
            match.score.record(g.result)
            match.score.game = g.number
    current = stored.games[-1] if stored.games and stored.games[-1].result is None else None
    if current is None:
        match.deadlines.hold_seats()
        return match
    commands = [(from_record(r.command), r.hash) for r in stored.commands]
    clocks = stored.commands[-1].clocks if stored.commands else None
    table = _replay(match, current, commands)
    match.play.resume(table, current.id, current.chooser, len(commands), clocks)
    return match


def _replay(match: MatchRoom, game: GameRow, commands: list[tuple[Command, str | None]]
            ) -> Table:
    """The current table of ``match``, rebuilt from ``game``'s seed and ``commands``, each
    recorded state hash checked (Determinism invariant); its subgame rooms are tracked on the
    way, so that their ids come out as they were."""
    try:
        table = Table(config_from_wire(game.config), game.seed)
    except Refusal as exc:
        raise RecoveryError(f"room {match.id}: game {game.id}'s configuration is refused: "
                            f"{exc}") from None
    table.drain_events()
    match.score.game = game.number
    match.rooms.match_game = game.number  # subgame rooms are MATCH.GAME.N
    for n, (cmd, recorded) in enumerate(commands, start=1):
        try:
            events = table.apply(cmd)
        except Refusal as exc:
            raise RecoveryError(f"room {match.id}: command {n} ({cmd}) is refused on "
                                f"replay: {exc}") from None
        match.rooms.track(events)
        if recorded is not None and recorded != table.state_hash():
            raise RecoveryError(f"room {match.id}: state hash differs after command {n}")
    return table


def rebuild_event(ctx: RoomContext, services: Services, sessions: SessionBook,
                  stored: StoredRoom) -> EventRoom:
    """The Limited event ``stored`` describes, its commands replayed from its seed (each
    refusal on the way is a log that does not replay); its timers start afresh."""
    row = stored.room
    try:
        config = EventConfig.parse(row.config["event"], default_name=row.name)
    except Refusal as exc:
        raise RecoveryError(f"event {row.id}: its settings are no longer accepted: {exc}") \
            from None
    if not stored.games:
        raise RecoveryError(f"event {row.id}: its log has no start")
    log = stored.games[0]
    event = EventRoom(ctx, services, row.id, config, log.seed, log.id, row.creator, None)
    for r in stored.commands:
        try:
            event.event.apply(r.command)
        except Refusal as exc:
            raise RecoveryError(f"event {row.id}: command {r.n} ({r.command.get('c')}) is "
                                f"refused on replay: {exc}") from None
    for e in event.event.entrants:
        session = sessions.get(e.session) if e.session is not None else None
        if session is not None:
            session.seats[event.id] = e.seat
    event.restart_timers()
    return event
