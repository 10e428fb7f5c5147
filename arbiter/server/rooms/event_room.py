"""A Limited event as the hub sees it: who follows it, its requests, its timers, its log, and
the match rooms of its rounds (docs/events.md).

The event's rules are :class:`~arbiter.server.events.event.Event`'s (a pure state machine of
logged commands); this module is what time and people do to it:

- every command is logged (``CommandAppended`` under the event's own log id, as a game's are)
  in the same batch as everything it caused, before anyone sees its effect;
- the choices nobody made in time are made here, with the bots' core, and applied as ordinary
  commands: a bot's picks and deck, a pick whose timer ran out, the picks of a drafter who has
  been away longer than the grace period (the card their own bot would take, until they come
  back), the deck of a player whose building time ran out;
- each round's pairings become ordinary match rooms (``Services.open_match``), and each
  match's end comes back as the round's ``result``;
- each follower is sent the event as they may see it (``event``), whole, whenever it changed
  for them: a pack and a pool are small, and a whole state needs no replica to go wrong.

Timers are not logged: after a restart every timer starts afresh, as a match's grace periods
do, so that the time the server was down is charged to nobody.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from arbiter.bots import limited as bot_limited
from arbiter.protocol import requests as rq
from arbiter.protocol.codec import pack
from arbiter.protocol.errors import Code, Refusal
from arbiter.protocol.server_messages import ChatLine, EventState, Joined, Ok, encode
from arbiter.server.events.event import Entrant, Event, EventConfig, Note, Phase
from arbiter.server.rules.cards.decks import parse_deck_list
from arbiter.server.store.records import CommandAppended, GameFinished, RoomStateSet

from .context import RoomContext
from .peers import Peer
from .states import RoomState

MAX_EVENT_DECK = 250  # cards a Limited deck list may name (counted as it is read)


@dataclass
class Services:
    """What an event needs of the hub: a match room for a pairing (its id), and forgetting
    the event once it is over and nobody follows it."""

    open_match: Callable[[EventRoom, int, int], str]
    drop: Callable[[EventRoom], None]


class EventRoom:
    def __init__(self, ctx: RoomContext, services: Services, number: int, config: EventConfig,
                 seed: int, log_id: int, creator: str | None, address: str | None) -> None:
        self.ctx = ctx
        self.services = services
        self.number = number
        self.id = str(number)
        self.log_id = log_id  # the event's commands are logged under this game id
        self.creator = creator  # the host's session token
        self.address = address
        self.event = Event(config, seed)
        self.state = RoomState.WAITING
        self.peers: dict[int, set[Peer]] = {}  # seat -> its connections
        self.spectators: set[Peer] = set()
        self.away: dict[int, float] = {}  # seat -> since when it has had no connection
        self.pick_due: dict[int, tuple[tuple[int, int], float]] = {}  # seat -> (pick, due)
        self.build_due: float | None = None
        self.matches: dict[tuple[int, int], str] = {}  # (round, table) -> match room id
        self._sent: dict[Peer, bytes] = {}

    # ------------------------------------------------------------------ who is here

    @property
    def config(self) -> EventConfig:
        return self.event.config

    def members(self) -> list[Peer]:
        out = [p for peers in self.peers.values() for p in peers]
        return sorted({*out, *self.spectators}, key=lambda p: p.id)

    def _seat_of(self, peer: Peer) -> int | None:
        if peer.session is None:
            return None
        return self.event.seat_of(peer.session.token)

    def _seat_or_refuse(self, peer: Peer) -> int:
        seat = self._seat_of(peer)
        if seat is None:
            raise Refusal(Code.NOT_SEATED, f"you have not entered event {self.id}")
        return seat

    def summary(self) -> dict[str, Any]:
        ev = self.event
        c = self.config
        return {"r": self.id, "name": c.name, "kind": c.kind, "set": c.set,
                "phase": ev.phase.value, "seats": c.seats, "entrants": len(ev.entrants),
                "round": ev.round, "rounds": c.total_rounds, "best_of": c.best_of,
                "bots": c.bots}

    # ------------------------------------------------------------------ requests (hub.py)

    def join(self, peer: Peer, req: rq.Join) -> None:
        session = peer.session
        assert session is not None
        ev = self.event
        seat = ev.seat_of(session.token)
        if req.token is not None:
            holder = next((e for e in ev.entrants if e.token == req.token), None)
            if holder is None:
                raise Refusal(Code.BAD_TOKEN, f"no seat of event {self.id} has that token")
            if seat is not None and seat != holder.seat:
                raise Refusal(Code.ALREADY_SEATED, f"you already hold seat {seat}")
            if holder.session != session.token:  # the seat's token, from another session
                self._hand_over(holder, session.token)
            seat = holder.seat
        elif seat is None:
            token = self.ctx.entropy.token()
            self._apply({"c": "join", "session": session.token, "name": session.name,
                         "token": token})
            seat = ev.seat_of(session.token)
            assert seat is not None
        self.ctx.sessions.matters(session, self.ctx.out)
        session.seats[self.id] = seat
        self.spectators.discard(peer)
        self._attach(peer, seat)
        self.ctx.out.message([peer], Joined(req.id, self.id, seat, ev.entrants[seat].token))
        self.settle()

    def _hand_over(self, holder: Entrant, session: str) -> None:
        """A seat's token presented from another session (a player on a new device): the
        seat is theirs now; the old session's connections stop following it as its player."""
        old = self.ctx.sessions.get(holder.session or "")
        self._apply({"c": "seat", "seat": holder.seat, "session": session})  # logged first
        if old is not None:
            old.seats.pop(self.id, None)
            for p in self.peers.pop(holder.seat, set()):
                p.rooms.discard(self.id)
            self.ctx.sessions.released(old, self.ctx.now, self.ctx.out)

    def spectate(self, peer: Peer, req: rq.Spectate) -> None:
        seat = self._seat_of(peer)
        if seat is not None:
            self._attach(peer, seat)
        else:
            self.spectators.add(peer)
            peer.rooms.add(self.id)
            if peer.session is not None:
                peer.session.spectating.add(self.id)
                self.ctx.sessions.matters(peer.session, self.ctx.out)
        entrant = None if seat is None else self.event.entrants[seat]
        self.ctx.out.message([peer], Joined(req.id, self.id, seat,
                                            None if entrant is None else entrant.token))
        self.publish()

    def leave(self, peer: Peer, req: rq.Leave) -> None:
        """Stop following the event; in its lobby, give up the seat too (dropping out of a
        started event is ``drop``)."""
        seat = self._seat_of(peer)
        self.ctx.out.message([peer], Ok(req.id))
        self.detach(peer)
        if peer.session is not None:
            peer.session.spectating.discard(self.id)
        if seat is not None and self.event.phase == Phase.LOBBY:
            self._apply({"c": "leave", "seat": seat})
            session = peer.session
            assert session is not None
            session.seats.pop(self.id, None)
            for p in self.peers.pop(seat, set()):
                p.rooms.discard(self.id)
            self._renumber()
            self.ctx.sessions.released(session, self.ctx.now, self.ctx.out)
        self.settle()

    def _renumber(self) -> None:
        """Seats in the lobby are numbered in order of entry: after a leave, the seats after
        it move down by one, with their connections."""
        by_session: dict[str, set[Peer]] = {}
        for peers in self.peers.values():
            for p in peers:
                if p.session is not None:
                    by_session.setdefault(p.session.token, set()).add(p)
        self.peers = {}
        for e in self.event.entrants:
            if e.session is None:
                continue
            session = self.ctx.sessions.get(e.session)
            if session is not None:
                session.seats[self.id] = e.seat
            if e.session in by_session:
                self.peers[e.seat] = by_session[e.session]

    def start(self, peer: Peer, req: rq.StartEvent) -> None:
        if peer.session is None or peer.session.token != self.creator:
            raise Refusal(Code.NOT_HOST, f"only the host of event {self.id} may start it")
        ev = self.event
        if ev.phase != Phase.LOBBY:
            raise Refusal(Code.WRONG_STATE, f"event {self.id} has already started")
        empty = self.config.seats - len(ev.entrants) if self.config.bots else 0
        taken = {e.name for e in ev.entrants}
        bots: list[str] = []
        n = 1
        while len(bots) < empty:
            name = f"Bot {n}"
            if name not in taken:
                bots.append(name)
            n += 1
        self._apply({"c": "start", "bots": bots})
        self.ctx.out.message([peer], Ok(req.id))
        self.settle()

    def pick(self, peer: Peer, req: rq.Pick) -> None:
        seat = self._seat_or_refuse(peer)
        self._apply({"c": "pick", "seat": seat, "card": req.card})
        self.ctx.out.message([peer], Ok(req.id))
        self.settle()

    def submit_deck(self, peer: Peer, req: rq.SubmitDeck) -> None:
        seat = self._seat_or_refuse(peer)
        if req.text is None:
            raise Refusal(Code.BAD_DECK, "a Limited deck is built from your pool: send it as "
                                         "a deck list (text)")
        deck = parse_deck_list(req.text, max_cards=MAX_EVENT_DECK)
        self._apply({"c": "deck", "seat": seat, "main": dict(Counter(deck.main))})
        self.ctx.out.message([peer], Ok(req.id))
        self.settle()

    def drop(self, peer: Peer, req: rq.DropEvent) -> None:
        seat = self._seat_or_refuse(peer)
        self._apply({"c": "drop", "seat": seat})
        self.ctx.out.message([peer], Ok(req.id))
        self.settle()

    def chat(self, peer: Peer, req: rq.Chat) -> None:
        if self.id not in peer.rooms:
            raise Refusal(Code.NOT_SEATED, f"you do not follow event {self.id}")
        seat = self._seat_of(peer)
        name = self.event.entrants[seat].name if seat is not None else (
            peer.session.name if peer.session is not None else "?")
        self.ctx.out.message([peer], Ok(req.id))
        self.ctx.out.message(self.members(), ChatLine(self.id, name, seat, req.text))

    def resync(self, peer: Peer, req: rq.Resync) -> None:
        if self.id not in peer.rooms:
            raise Refusal(Code.NOT_SEATED, f"you do not follow event {self.id}")
        self._sent.pop(peer, None)
        self.ctx.out.message([peer], Ok(req.id))
        self.publish()

    # ------------------------------------------------------------------ connections

    def _attach(self, peer: Peer, seat: int) -> None:
        self.peers.setdefault(seat, set()).add(peer)
        self.away.pop(seat, None)
        peer.rooms.add(self.id)

    def attach(self, peer: Peer) -> None:
        """A session of this event came back on a new connection (its hello)."""
        seat = self._seat_of(peer)
        if seat is not None:
            self._attach(peer, seat)
        elif peer.session is not None and self.id in peer.session.spectating:
            self.spectators.add(peer)
            peer.rooms.add(self.id)
        self._sent.pop(peer, None)
        self.settle()

    def detach(self, peer: Peer) -> None:
        peer.rooms.discard(self.id)
        self.spectators.discard(peer)
        self._sent.pop(peer, None)
        for seat, peers in self.peers.items():
            if peer in peers:
                peers.discard(peer)
                if not peers:
                    self.away[seat] = self.ctx.now
        if self.state == RoomState.FINISHED and not self.members():
            self.services.drop(self)
            return
        self.reschedule()

    # ------------------------------------------------------------------ the command path

    def _apply(self, cmd: dict[str, Any]) -> None:
        """Apply ``cmd`` (its refusal changes nothing), log it, and act on what it changed."""
        notes = self.event.apply(cmd)
        self.ctx.out.log(CommandAppended(self.number, self.log_id, self.event.commands, cmd,
                                         None, None))
        for note in notes:
            self._on(note)

    def _on(self, note: Note) -> None:
        now = self.ctx.now
        if note.kind in ("drafting", "building"):
            self._set_state(RoomState.PLAYING)
        if note.kind == "building":
            self.build_due = now + self.config.build_time
        elif note.kind == "pairings":
            self.build_due = None
            for p in self.event.pairings:
                if p.b is not None and (p.round, p.table) not in self.matches:
                    self.matches[(p.round, p.table)] = self.services.open_match(
                        self, p.round, p.table)
        elif note.kind == "finished":
            standings = [dict(s) for s in self.event.view(None)["standings"]] \
                if self.event.records else []
            self.ctx.out.log(GameFinished(self.number, self.log_id,
                                          {"standings": standings}, ""))
            self._set_state(RoomState.FINISHED)

    def _set_state(self, state: RoomState) -> None:
        if self.state != state:
            self.state = state
            self.ctx.out.log(RoomStateSet(self.number, state.value))

    def match_over(self, round_: int, table: int, wins: list[int], draws: int) -> None:
        """A match of this event ended (hub.py hears it from the match room)."""
        if self.event.phase != Phase.PLAYING or self.event.round != round_:
            return
        self._apply({"c": "result", "round": round_, "table": table, "wins": wins[:2],
                     "draws": draws})
        self.settle()

    def settle(self) -> None:
        """Make every choice that is due now (bots', timers', absent players'), then tell
        each follower what changed for them and ask to be woken at the next deadline."""
        for _ in range(10_000):  # every pass applies a command; a draft has at most 45 a seat
            if not self._one_due_choice():
                break
        self.publish()
        self.reschedule()

    def _one_due_choice(self) -> bool:
        ev = self.event
        now = self.ctx.now
        if ev.phase == Phase.DRAFTING:
            for e in ev.entrants:
                pack = ev.pack(e.seat)
                if pack is None:
                    continue
                key = (ev.draft_round, ev.pick_number(e.seat))
                due = self.pick_due.get(e.seat)
                if due is None or due[0] != key:
                    due = (key, now + ev.pick_seconds(e.seat))
                    self.pick_due[e.seat] = due
                if e.bot or e.dropped or due[1] <= now or self._gone(e.seat):
                    card = bot_limited.pick(pack, ev.picks(e.seat), self._cards())
                    self._apply({"c": "pick", "seat": e.seat, "card": card})
                    return True
        elif ev.phase == Phase.BUILDING:
            late = self.build_due is not None and self.build_due <= now
            for seat in ev.building():
                e = ev.entrants[seat]
                if e.bot or late:
                    deck = bot_limited.build_deck(dict(e.pool), self._cards())
                    self._apply({"c": "deck", "seat": seat, "main": deck})
                    return True
        return False

    def _cards(self) -> Any:
        """The catalog's card data, for the bots' core: asked only when a choice is made
        (every command of a settle looks for one, and most find none)."""
        return self.ctx.catalog()["cards"]

    def _gone(self, seat: int) -> bool:
        """Away longer than the grace period: picked for until they come back."""
        since = self.away.get(seat)
        return since is not None and since + self.ctx.settings.grace <= self.ctx.now

    # ------------------------------------------------------------------ time

    def next_deadline(self) -> float | None:
        ev = self.event
        times: list[float] = []
        if ev.phase == Phase.DRAFTING:
            times += [due for seat, (_, due) in self.pick_due.items()
                      if ev.pack(seat) is not None]
            times += [t + self.ctx.settings.grace for s, t in self.away.items()
                      if ev.pack(s) is not None]
        if ev.phase == Phase.BUILDING and self.build_due is not None:
            times.append(self.build_due)
        return min(times) if times else None

    def reschedule(self) -> None:
        self.ctx.out.wake(self.id, self.next_deadline())

    def on_timer(self) -> None:
        self.settle()

    def restart_timers(self) -> None:
        """After a restart: every timer starts afresh, and every player is away until they
        come back (their grace period starts now)."""
        now = self.ctx.now
        self.pick_due.clear()
        if self.event.phase == Phase.BUILDING:
            self.build_due = now + self.config.build_time
        for e in self.event.entrants:
            if not e.bot:
                self.away[e.seat] = now
        self.state = {Phase.LOBBY: RoomState.WAITING, Phase.FINISHED: RoomState.FINISHED}.get(
            self.event.phase, RoomState.PLAYING)

    # ------------------------------------------------------------------ what followers see

    def _public(self) -> dict[str, Any]:
        """The public part with the rounds' match rooms (a copy: the event's is shared)."""
        ev = self.event
        public = dict(ev.public_view())
        public["r"] = self.id
        if "pairings" in public:
            public["pairings"] = [
                {**p, "room": self.matches[(ev.round, p["table"])]}
                if (ev.round, p["table"]) in self.matches else p
                for p in public["pairings"]]
        return public

    def _view(self, seat: int | None, public: dict[str, Any]) -> dict[str, Any]:
        """The event as ``seat`` (None: a spectator) sees it, with what only the room layer
        knows: the match rooms of the round, your timer and your match."""
        ev = self.event
        if seat is None or not 0 <= seat < len(ev.entrants):
            return public
        you = ev.own_view(seat)
        due = self.pick_due.get(seat)
        if ev.pack(seat) is not None and due is not None:
            you["timer"] = max(0.0, round(due[1] - self.ctx.now, 1))
        if self.build_due is not None and seat in ev.building():
            you["timer"] = max(0.0, round(self.build_due - self.ctx.now, 1))
        for p in public.get("pairings", []):
            # Offered while the match is open (docs/protocol.md section 15): once it has
            # its result there is nothing left to join.
            if seat in (p["a"], p["b"]) and "room" in p and p["result"] is None:
                you["match"] = {"r": p["room"], "seat": 0 if p["a"] == seat else 1}
        return {**public, "you": you}

    def publish(self) -> None:
        """Send each follower the event as they see it, if it changed for them."""
        views: dict[int | None, bytes] = {}
        public = self._public()
        for peer in self.members():
            seat = self._seat_of(peer)
            if seat not in views:
                views[seat] = pack(encode(EventState(self.id, self._view(seat, public))))
            frame = views[seat]
            if self._sent.get(peer) != frame:
                self._sent[peer] = frame
                self.ctx.out.send([peer], frame)
