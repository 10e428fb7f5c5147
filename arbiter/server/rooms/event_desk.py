"""What the hub does for Limited events (docs/events.md): creating one, opening the match room
of each pairing, hearing each match's end, forgetting a finished event, and bringing events
back from the log. The hub routes requests to events (their ids are room ids); everything else
about events outside an event's own room is here, so that the hub stays the front door.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from arbiter.protocol import requests as rq
from arbiter.protocol.errors import Code, Refusal
from arbiter.protocol.server_messages import Created
from arbiter.server.events.event import EventConfig, Phase
from arbiter.server.store.records import GameStarted, RoomCreated
from arbiter.server.store.rows import StoredRoom

from .context import RoomContext
from .event_room import EventRoom, Services
from .match import MatchRoom
from .peers import Peer
from .recovery import RecoveryError, rebuild_event
from .setup import deck_text, parse_settings
from .states import RoomState

log = logging.getLogger("arbiter.rooms")


class EventDesk:
    def __init__(self, ctx: RoomContext, matches: dict[str, MatchRoom],
                 next_room: Callable[[], int], next_game: Callable[[], int]) -> None:
        self.ctx = ctx
        self.matches = matches  # the hub's: an event's matches are rooms like any other
        self.next_room = next_room
        self.next_game = next_game
        self.events: dict[str, EventRoom] = {}  # by id (a room id)
        self.services = Services(open_match=self.open_match, drop=self.drop)

    def create(self, peer: Peer, req: rq.CreateEvent) -> None:
        """A Limited event: its log opens at once, as a game's does (its seed and settings,
        then every command), so that a restart rebuilds it."""
        s = self.ctx.settings
        if len(self.matches) + len(self.events) >= s.max_rooms:
            raise Refusal(Code.LIMIT, f"this server holds at most {s.max_rooms} rooms")
        session = peer.session
        assert session is not None
        hosting = sum(1 for e in self.events.values()
                      if e.creator == session.token and e.state == RoomState.WAITING)
        if hosting >= s.max_waiting_per_session:
            raise Refusal(Code.LIMIT, f"you already host {hosting} events that have not "
                                      "started")
        number = self.next_room()
        config = EventConfig.parse(req.config, default_name=f"Event {number}")
        seed = self.ctx.entropy.bits(62)
        log_id = self.next_game()
        event = EventRoom(self.ctx, self.services, number, config, seed, log_id,
                          session.token, peer.address)
        self.events[event.id] = event
        self.ctx.sessions.matters(session, self.ctx.out)
        wire = {"event": config.to_wire()}
        self.ctx.out.log(RoomCreated(number, config.name, wire, session.token))
        self.ctx.out.log(GameStarted(number, log_id, 1, seed, wire, None))
        self.ctx.out.message([peer], Created(req.id, event.id, None))

    def open_match(self, event: EventRoom, round_: int, table: int) -> str:
        """Open the match room of ``event``'s pairing at ``table`` of ``round_``: two seats,
        each with its player's deck, a server bot in a bot's seat, a player's seat held for
        them as if they had joined and stepped away (they take it with ``join``)."""
        ev = event.event
        pairing = ev.pairings[table - 1]
        assert pairing.b is not None  # a bye has no match
        entrants = [ev.entrants[pairing.a], ev.entrants[pairing.b]]
        number = self.next_room()
        config: dict[str, Any] = {
            "name": f"{event.config.name[:24]} R{round_} T{table}",
            "variant": "two_player", "best_of": event.config.best_of, "format": "limited",
            "seats": [{"deck": {"text": deck_text(e.deck or {})}} for e in entrants],
            "of_event": {"id": event.id, "round": round_, "table": table}}
        settings = parse_settings(config, default_name=config["name"], internal=True)
        match = MatchRoom(self.ctx, number, settings, event.creator, None)
        self.matches[match.id] = match
        self.ctx.out.log(RoomCreated(number, settings.name, config, event.creator))
        match.seat_rules.seat_event_players([(e.name, e.session) for e in entrants])
        return match.id

    def match_finished(self, match: MatchRoom) -> None:
        """A match ended: its event (if it has one, held here) hears its score."""
        link = match.settings.event
        event = None if link is None else self.events.get(link[0])
        if link is None or event is None:
            return
        score = match.score
        draws = sum(1 for r in score.results if not r["winners"])
        event.match_over(link[1], link[2], list(score.wins), draws)

    def drop(self, event: EventRoom) -> None:
        """Forget a finished event nobody follows any more (its log stays)."""
        self.events.pop(event.id, None)
        sessions = self.ctx.sessions
        for session in sessions.sessions.values():
            if event.id in session.seats or event.id in session.spectating:
                session.seats.pop(event.id, None)
                session.spectating.discard(event.id)
                sessions.released(session, self.ctx.now, self.ctx.out)
        self.ctx.out.wake(event.id, None)

    def summaries(self) -> dict[str, dict[str, Any]]:
        """The lobby entries of the events held here (finished ones left out)."""
        return {e.id: e.summary() for e in self.events.values()
                if e.state != RoomState.FINISHED}

    # ------------------------------------------------------------------ recovery

    def restored_match(self, match: MatchRoom) -> None:
        """A match read back from the log: its event, if here, knows its room again."""
        link = match.settings.event
        if link is not None and link[0] in self.events:
            self.events[link[0]].matches[(link[1], link[2])] = match.id

    def restore(self, stored: StoredRoom) -> str:
        """Rebuild an event from the log; return a line for the server's log."""
        row = stored.room
        try:
            event = rebuild_event(self.ctx, self.services, self.ctx.sessions, stored)
        except RecoveryError as exc:
            log.error("event %s cannot be resumed: %s", row.id, exc)
            return f"event {row.id} NOT resumed: {exc}"
        self.events[event.id] = event
        ev = event.event
        for match in self.matches.values():  # its matches restored before it (a cluster's)
            link = match.settings.event
            if link is not None and link[0] == event.id:
                event.matches[(link[1], link[2])] = match.id
        # Entrants already connected (a cluster node taking the event over while they came
        # back: their hello found no event here) follow it from now.
        for e in ev.entrants:
            session = self.ctx.sessions.get(e.session) if e.session is not None else None
            for peer in sorted(session.peers, key=lambda p: p.id) if session else []:
                if peer.reading and event.id not in peer.rooms:
                    event.attach(peer)
        event.reschedule()
        return (f"event {event.id} resumed: {ev.phase.value}, {ev.commands} commands, "
                f"{len(ev.entrants)} entrants")

    # ------------------------------------------------------------------ a cluster's events

    def stray_match(self, room: str) -> str | None:
        """The event that match ``room`` (held here) reports its end to, when that event is
        not here: a cluster node then takes the event too, or gives the match up to the
        event's node (docs/cluster.md, "Events")."""
        match = self.matches.get(room)
        link = None if match is None else match.settings.event
        if link is None or link[0] in self.events:
            return None
        return link[0]

    def matches_of(self, event: str) -> list[str]:
        """The match rooms held here that report to ``event``: when a cluster node loses
        the event, they go with it (their results would otherwise reach nobody)."""
        return sorted((m.id for m in self.matches.values()
                       if m.settings.event is not None and m.settings.event[0] == event),
                      key=int)

    def incomplete_events(self) -> list[str]:
        """Events held here with a match of their round open elsewhere (or nowhere yet): a
        pairing waiting for its result whose room is not here."""
        return [e.id for e in self.events.values()
                if e.event.phase == Phase.PLAYING and any(
                    p.b is not None and (p.round, p.table) not in e.matches
                    for p in e.event.unfinished())]
