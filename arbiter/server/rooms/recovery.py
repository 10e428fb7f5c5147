"""Rebuilding a room read back from the log (a server restart, or a cluster node taking a room
over): its settings, seats and sessions, its match's score, and its current table replayed
from its seed and commands, every recorded state hash checked on the way (Determinism
invariant). A room whose log does not replay is not resumed."""

from __future__ import annotations

from arbiter.server.rules import Table
from arbiter.server.rules.commands import from_record
from arbiter.server.rules.plain import config_from_wire
from arbiter.server.store.rows import StoredRoom

from .bots import RoomBot
from .context import RoomContext
from .match import MatchRoom
from .sessions import SessionBook
from .setup import deck_from_wire, parse_settings


def rebuild(ctx: RoomContext, sessions: SessionBook, stored: StoredRoom) -> MatchRoom:
    """The match ``stored`` describes, as it stood after its last logged command; raise
    :class:`~.match.RecoveryError` (or :class:`Refusal` for settings no longer accepted)."""
    row = stored.room
    settings = parse_settings(row.config, default_name=row.name, allow_scenarios=True)
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
        match.hold_seats()
        return match
    table = Table(config_from_wire(current.config), current.seed)
    commands = [(from_record(r.command), r.hash) for r in stored.commands]
    clocks = stored.commands[-1].clocks if stored.commands else None
    match.restore_game(table, current.id, current.number, current.chooser, commands, clocks)
    return match
