"""A match's seat rules: who may take which seat (a free one, or their own again with its token),
hand it over, leave it, put a bot or a deck in it, and who may watch (docs/protocol.md sections 4
and 7).

A seat belongs to a session and is held by its token, not by a connection: a connection that
goes away leaves the seat held for the grace period (rooms/deadlines.py frees it, or concedes
for it, when that ends). Who sits where is :class:`~.seating.Seating`; this module is what the
requests may do to it.
"""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING

from arbiter.protocol import requests as rq
from arbiter.protocol.errors import Code, Refusal
from arbiter.protocol.server_messages import Error, Joined, SeatLost
from arbiter.server.rules.view import OMNISCIENT
from arbiter.server.store.records import SeatSet

from .bots import RoomBot
from .setup import deck_to_wire, parse_deck
from .states import RoomState

if TYPE_CHECKING:
    from .match import MatchRoom
    from .peers import Peer
    from .seating import Seat

WAITING, FINISHED = RoomState.WAITING, RoomState.FINISHED


class SeatRules:
    def __init__(self, match: MatchRoom) -> None:
        self.match = match
        self.ctx = match.ctx
        self.seating = match.seating
        self.fanout = match.fanout

    # ------------------------------------------------------------------ taking a seat

    def join(self, peer: Peer, req: rq.Join) -> None:
        match = self.match
        session = peer.session
        assert session is not None
        current = self.seating.seat_of(peer)
        if req.token is not None:
            seat = self.seating.by_token(req.token)
            if seat is None:
                raise Refusal(Code.BAD_TOKEN, f"no seat in room {match.id} has that token")
            if current is not None and current is not seat:
                raise Refusal(Code.ALREADY_SEATED, f"you already hold seat {current.index}")
            if seat.bot is not None:
                raise Refusal(Code.SEAT_TAKEN, f"seat {seat.index} is played by a bot")
            if seat.session is not session:
                self._take_over(seat)
                seat.session = session
                session.seats[match.id] = seat.index
                self.store(seat)
        elif current is not None:
            if req.seat is not None and req.seat != current.index:
                raise Refusal(Code.ALREADY_SEATED, f"you already hold seat {current.index}")
            seat = current
        else:
            seat = self._free_seat_for(req.seat)
            seat.token = self.ctx.entropy.token()
            seat.session = session
            seat.name = self.seating.unique_name(session.name, seat)
            session.seats[match.id] = seat.index
            self.store(seat)
            match.deadlines.idle = None
        self.ctx.sessions.matters(session, self.ctx.out)
        # Every connection of the session that follows this room now sees it from the seat
        # (and only from the seat: one view per room per connection).
        mine = {p for p in session.peers if match.id in p.rooms or p is peer}
        self.seating.spectators -= mine
        seat.peers |= mine
        seat.away_deadline = None
        self._played_from(seat, peer)
        self.fanout.send([peer], Joined(req.id, match.id, seat.index, seat.token))
        self._follow(peer)
        match.room_update()
        match.reschedule()
        match.play.maybe_start()

    def _free_seat_for(self, wanted: int | None) -> Seat:
        match = self.match
        if match.state != WAITING:
            raise Refusal(Code.ROOM_FULL, f"room {match.id} has started; spectate instead, or "
                                          "rejoin your seat with its token")
        if wanted is not None:
            if wanted >= len(match.seats):
                raise Refusal(Code.BAD_FIELD, f"room {match.id} has seats 0 to "
                                              f"{len(match.seats) - 1}")
            seat = match.seats[wanted]
            if seat.taken:
                raise Refusal(Code.SEAT_TAKEN, f"seat {wanted} is taken")
            return seat
        free = self.seating.free()
        if not free:
            raise Refusal(Code.ROOM_FULL, f"room {match.id} has no free seat")
        return free[0]

    def _take_over(self, seat: Seat) -> None:
        """Someone presented ``seat``'s token from another session: the seat is theirs now.
        The previous holder's connections are told (``seat_lost``) and stop following."""
        previous = seat.session
        lost = [p for p in seat.peers if p.session is not previous or previous is not None]
        for other in lost:
            seat.peers.discard(other)
            other.rooms.discard(self.match.id)
        self.fanout.send(lost, SeatLost(self.match.id, seat.index))
        if previous is not None:
            previous.seats.pop(self.match.id, None)
            self.ctx.sessions.released(previous, self.ctx.now, self.ctx.out)
        seat.session = None

    def _played_from(self, seat: Seat, peer: Peer) -> None:
        """``peer`` plays ``seat``. In a room whose spectators see everything, nobody at a
        player's address may watch it as a spectator: they could be that player, looking at
        the opponents' hands (docs/protocol.md section 7). Spectators already watching from
        there stop."""
        match = self.match
        seat.addresses.add(peer.address)
        if match.spectator_key != OMNISCIENT:
            return
        ghosts = [p for p in self.seating.spectators if p.address == peer.address]
        for ghost in ghosts:
            self.seating.spectators.discard(ghost)
            self.ctx.delays.unwatch(ghost, match.id)
            ghost.rooms.discard(match.id)
            if ghost.session is not None:
                ghost.session.spectating.discard(match.id)
                self.ctx.sessions.released(ghost.session, self.ctx.now, self.ctx.out)
        self.fanout.send(ghosts, Error(
            Code.SEATED_PLAYER, f"a player of room {match.id} plays from your address: its "
            "all-seeing view is closed to you", None, match.id))

    def store(self, seat: Seat) -> None:
        """Log who holds ``seat`` now, with its deck and bot (a restart gives it back)."""
        deck = None if seat.deck is None else deck_to_wire(seat.deck)
        session = None if seat.session is None else seat.session.token
        bot = None if seat.bot is None else seat.bot.strategy_name
        self.ctx.out.log(SeatSet(self.match.number, seat.index, seat.token, session, seat.name,
                                 deck, bot))

    # ------------------------------------------------------------------ watching

    def spectate(self, peer: Peer, req: rq.Spectate) -> None:
        match = self.match
        seat = self.seating.seat_of(peer)
        if seat is None:
            self._may_spectate(peer, req.token)
            self.seating.spectators.add(peer)
            self._watch_late(peer)
            if peer.session is not None:
                peer.session.spectating.add(match.id)
                self.ctx.sessions.matters(peer.session, self.ctx.out)
        else:
            seat.peers.add(peer)
        self.fanout.send([peer], Joined(req.id, match.id, None if seat is None else seat.index,
                                        None if seat is None else seat.token))
        self._follow(peer)
        match.room_update()

    def _may_spectate(self, peer: Peer, token: str | None) -> None:
        match = self.match
        if match.settings.spectators == "none":
            raise Refusal(Code.NO_SPECTATORS, f"room {match.id} does not allow spectators")
        if match.spectator_key != OMNISCIENT:
            return
        players = {a for seat in match.seats for a in seat.addresses}
        if peer.address in players:
            raise Refusal(Code.SEATED_PLAYER, f"a player of room {match.id} plays from your "
                                              "address; its spectators see every hidden card")
        # A player's second device at another address is a new session: only the creator's
        # invitation tells a guest from a ghost (issue 27, item 13). A session that presented
        # it once is remembered, so that it resumes watching after a reconnect.
        session = peer.session
        invite = match.settings.invite
        if session is not None and session.token in match.invited:
            return
        if token is None or invite is None or not secrets.compare_digest(token, invite):
            raise Refusal(Code.NOT_INVITED, f"the spectators of room {match.id} see every "
                                            "hidden card: watching needs the invitation its "
                                            "creator was given (spectate with its token)")
        if session is not None:
            match.invited.add(session.token)

    def _watch_late(self, peer: Peer) -> None:
        """An all-seeing spectator of a room with a spectator delay sees it that late, from
        the snapshot it is about to get on (rooms/delays.py)."""
        match = self.match
        if match.spectator_key == OMNISCIENT and match.settings.spectator_delay > 0:
            self.ctx.delays.watch(peer, match.id, match.settings.spectator_delay)

    def _follow(self, peer: Peer, positions: dict[str, tuple[int, int]] | None = None) -> None:
        peer.rooms.add(self.match.id)
        self.match.room_update([peer])
        self.fanout.follow(self.match.table, peer, positions)

    # ------------------------------------------------------------------ bots and decks

    def add_bot(self, peer: Peer, req: rq.AddBot) -> None:
        """Seat a bot the server runs (its creator, or anyone seated, may do it)."""
        match = self.match
        if not (self.seating.player_of(peer) is not None
                or (peer.session is not None and peer.session.token == match.creator)):
            raise Refusal(Code.NOT_SEATED, f"only the creator or a player of room {match.id} "
                                           "may add bots")
        seat = self._free_seat_for(req.seat)
        deck = seat.deck
        settings = match.settings
        if req.deck is not None:
            deck = parse_deck(req.deck, allow_test=settings.allow_test_cards)
            settings.check_deck(seat.index, deck, [s.deck for s in match.seats])
        elif deck is None:
            deck = settings.default_deck(seat.index, [s.deck for s in match.seats])
        strategy = req.strategy or "heuristic"
        seat.bot = RoomBot(strategy, self.ctx.entropy.bits(62))
        seat.token = self.ctx.entropy.token()
        seat.name = self.seating.unique_name(f"Bot ({strategy})", seat)
        seat.deck = deck
        self.store(seat)
        match.deadlines.idle = None
        match.ok(peer, req.id)
        match.room_update()
        match.reschedule()
        match.play.maybe_start()

    def seat_event_players(self, players: list[tuple[str, str | None]]) -> None:
        """Seat a Limited event's pairing in this new match (docs/events.md): each seat gets
        its player (name, session token; None: a bot the server runs), holding it as if they
        had joined and stepped away, so that ``join`` takes it back and the grace period
        runs for a player who never comes. The decks are the room's fixed ones."""
        match = self.match
        for seat, (name, token) in zip(match.seats, players, strict=True):
            seat.token = self.ctx.entropy.token()
            seat.name = self.seating.unique_name(name, seat)
            session = self.ctx.sessions.get(token) if token is not None else None
            if token is None:
                seat.bot = RoomBot("heuristic", self.ctx.entropy.bits(62))
            elif session is not None:
                seat.session = session
                session.seats[match.id] = seat.index
                self.ctx.sessions.matters(session, self.ctx.out)
                seat.away_deadline = self.ctx.now + self.ctx.settings.grace
            self.store(seat)
        match.deadlines.idle = None
        match.reschedule()
        match.play.maybe_start()

    def submit_deck(self, peer: Peer, req: rq.SubmitDeck) -> None:
        match = self.match
        seat = match.seat_or_refuse(peer)
        if match.state != WAITING:
            raise Refusal(Code.WRONG_STATE, "decks can be changed only before the match starts")
        spec = {"text": req.text} if req.text is not None else {"ready": req.ready}
        deck = parse_deck(spec, allow_test=match.settings.allow_test_cards)
        match.settings.check_deck(seat.index, deck, [s.deck for s in match.seats])
        seat.deck = deck
        self.store(seat)
        match.ok(peer, req.id)
        match.room_update()
        match.play.maybe_start()

    # ------------------------------------------------------------------ leaving and coming back

    def leave(self, peer: Peer, req: rq.Leave) -> None:
        seat = self.seating.seat_of(peer)
        self.match.ok(peer, req.id)
        if peer.session is not None:
            peer.session.spectating.discard(self.match.id)
        self.detach(peer)
        if seat is not None and self.match.state == WAITING and not seat.peers:
            self.free(seat)

    def free(self, seat: Seat) -> None:
        """``seat`` is nobody's any more (its holder left a waiting room, or stayed away)."""
        match = self.match
        session = seat.session
        seat.session = None
        if session is not None:
            session.seats.pop(match.id, None)
            self.ctx.sessions.released(session, self.ctx.now, self.ctx.out)
        seat.token = seat.name = None
        seat.away_deadline = None
        seat.bot = None
        seat.deck = match.settings.seats[seat.index].deck
        self.store(seat)
        match.room_update()
        if not any(s.taken for s in match.seats):
            match.deadlines.idle = self.ctx.now + self.ctx.settings.grace
        match.reschedule()

    def attach(self, peer: Peer, positions: dict[str, tuple[int, int]] | None) -> None:
        """A session holding a seat here (or spectating) came back on a new connection."""
        match = self.match
        seat = self.seating.seat_of(peer)
        if seat is not None:
            seat.peers.add(peer)
            seat.away_deadline = None
            self._played_from(seat, peer)
        else:
            try:
                self._may_spectate(peer, None)
            except Refusal as exc:
                # No request to answer: the session's hello resumed following the room.
                if peer.session is not None:
                    peer.session.spectating.discard(match.id)
                self.fanout.send([peer], Error(exc.code, exc.message, None, match.id))
                return
            self.seating.spectators.add(peer)
            if peer.session is not None:  # a watcher resumed by its client (hub._hello)
                peer.session.spectating.add(match.id)
                self.ctx.sessions.matters(peer.session, self.ctx.out)
            self._watch_late(peer)
        self._follow(peer, positions)
        match.room_update()
        match.reschedule()

    def detach(self, peer: Peer) -> None:
        """A connection went away or left: its seat stays held for the grace period."""
        match = self.match
        peer.rooms.discard(match.id)
        self.seating.spectators.discard(peer)
        self.ctx.delays.unwatch(peer, match.id)
        for seat in match.seats:
            if peer in seat.peers:
                seat.peers.discard(peer)
                if not seat.present and seat.taken:
                    seat.away_deadline = self.ctx.now + self.ctx.settings.grace
        if match.state == FINISHED and not match.members():
            self.ctx.drop(match)
            return
        match.room_update()
        match.reschedule()
