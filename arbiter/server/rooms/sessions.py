"""Sessions: a player's identity on this server, held by a random token that survives
reconnects and server restarts (docs/protocol.md section 4).

A session that has never taken a seat, created a room or followed one costs memory only: it is
written to the log the first time it matters, and forgotten soon after its last connection
closes (``fresh_ttl``). A session that has mattered is kept while it holds a seat or follows a
room, and for ``ttl`` after it last held nothing. At most ``max_sessions`` exist at once; a
hello beyond that is refused with ``limit``. docs/architecture.md says what a session costs.

Such *lingering* sessions (never mattered, no connection) are also bounded per address: the
address a session last said hello from keeps at most ``fresh_per_address`` of them, and one
more makes it forget its oldest at once. A loop of connect, hello, close from one address made
99,999 sessions in 116 s and shut newcomers out (issue 27, item 12); now it only recycles its
own. Connected sessions are bounded by the transport's connection limit, and sessions that
took a seat are not lingering, so a load tester's thousands of players on one address
(127.0.0.1) are untouched.
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from arbiter.protocol.errors import Code, Refusal
from arbiter.protocol.requests import VERSIONS, Hello
from arbiter.server.store.records import SessionCreated, SessionForgotten

from .effects import Effects
from .peers import Peer

WAKE_KEY = "sessions"  # the timer key under which expiring sessions are woken


@dataclass(eq=False)
class Session:
    token: str
    name: str
    seats: dict[str, int] = field(default_factory=dict)  # match room id -> seat index
    spectating: set[str] = field(default_factory=set)
    peers: set[Peer] = field(default_factory=set)
    stored: bool = False  # written to the log (it has taken a seat or followed a room)
    idle_since: float | None = None  # when it last came to hold nothing, unconnected
    address: str | None = None  # where it last said hello from (lingering sessions' bound)
    # It has held a seat in a match that started here (in this process, or in a room resumed
    # from the log): a player with a history, for whom part of the room table is kept (hub.py).
    played: bool = False

    @property
    def idle(self) -> bool:
        return not (self.peers or self.seats or self.spectating)


@dataclass(frozen=True)
class SessionSettings:
    ttl: float = 24 * 3600.0  # a session that mattered is forgotten this long after it idles
    # A session that never mattered: this long after its last close. It holds nothing but
    # its name, and a client whose token was forgotten says hello with its name again (the
    # SDK and the browser client do so by themselves); a minute outlasts their reconnection
    # backoff (at most 5 s between tries), a page reload and a short network change.
    fresh_ttl: float = 60.0
    fresh_per_address: int = 100  # lingering sessions one address keeps (the oldest go first)
    max_sessions: int = 100_000


class SessionBook:
    def __init__(self, settings: SessionSettings, new_token: Callable[[], str]) -> None:
        self.settings = settings
        self.new_token = new_token
        self.sessions: dict[str, Session] = {}
        self.expired = 0  # forgotten so far (for /metrics)
        self._idle: list[tuple[float, int, Session]] = []  # (forget at, tie-break, session)
        self._order = itertools.count()
        # Lingering sessions (never mattered, unconnected) by address, oldest first.
        self._lingering: dict[str, dict[Session, None]] = {}

    def __len__(self) -> int:
        return len(self.sessions)

    def __contains__(self, token: object) -> bool:
        return token in self.sessions

    def get(self, token: str) -> Session | None:
        return self.sessions.get(token)

    def restore(self, token: str, name: str) -> Session:
        """A session read back from the log (after a restart, or from another node)."""
        session = self.sessions.get(token)
        if session is None:
            session = Session(token, name, stored=True)
            self.sessions[token] = session
        return session

    # ------------------------------------------------------------------ hello

    def hello(self, peer: Peer, req: Hello, now: float) -> tuple[Session, int]:
        """Start or resume ``peer``'s session; return it and the protocol version agreed.
        Raise :class:`Refusal` (nothing changed) if it cannot be done."""
        common = set(req.versions) & set(VERSIONS)
        if not common:
            raise Refusal(Code.UNSUPPORTED_VERSION,
                          f"this server speaks protocol versions "
                          f"{', '.join(map(str, VERSIONS))}", req.id)
        if req.session is not None:
            session = self.sessions.get(req.session)
            if session is None:
                raise Refusal(Code.UNKNOWN_SESSION, "no session has that token; say "
                                                    "hello with a name instead", req.id)
        else:
            if req.name is None:
                raise Refusal(Code.MISSING_FIELD, "hello needs a name or a session",
                              req.id)
            self.expire(now, Effects())  # make room first, if time has come for anyone
            if len(self.sessions) >= self.settings.max_sessions:
                raise Refusal(Code.LIMIT, "this server holds as many sessions as it may; "
                                          "try again later", req.id)
            session = Session(self.new_token(), req.name.strip())
            self.sessions[session.token] = session
        self._unlinger(session)
        session.address = peer.address
        session.peers.add(peer)
        session.idle_since = None
        return session, max(common)

    def matters(self, session: Session, out: Effects) -> None:
        """``session`` takes a seat, creates or follows a room: from now on it is kept in the
        log, so that it survives a restart."""
        if not session.stored:
            session.stored = True
            out.log(SessionCreated(session.token, session.name))

    # ------------------------------------------------------------------ idleness

    def released(self, session: Session, now: float, out: Effects) -> None:
        """``session`` may just have lost its last connection, seat or room: if it now holds
        nothing, it starts counting down to being forgotten."""
        if not session.idle or session.idle_since is not None:
            return
        session.idle_since = now
        ttl = self.settings.ttl if session.stored else self.settings.fresh_ttl
        heapq.heappush(self._idle, (now + ttl, next(self._order), session))
        if not session.stored and session.address is not None:
            lingering = self._lingering.setdefault(session.address, {})
            lingering[session] = None
            if len(lingering) > self.settings.fresh_per_address:
                self._forget(next(iter(lingering)), out)
        out.wake(WAKE_KEY, self._idle[0][0])

    def _unlinger(self, session: Session) -> None:
        """``session`` is in use again (or forgotten): it no longer counts as lingering."""
        if session.address is None:
            return
        lingering = self._lingering.get(session.address)
        if lingering is not None and session in lingering:
            del lingering[session]
            if not lingering:
                del self._lingering[session.address]

    def _forget(self, session: Session, out: Effects) -> None:
        self._unlinger(session)
        if self.sessions.get(session.token) is session:
            del self.sessions[session.token]
            self.expired += 1
            if session.stored:
                out.log(SessionForgotten(session.token))

    def released_all(self, sessions: Iterable[Session], now: float, out: Effects) -> None:
        for session in sessions:
            self.released(session, now, out)

    def expire(self, now: float, out: Effects) -> None:
        """Forget the sessions whose time has come: a server that runs for months must not
        keep every name that ever said hello. Their tokens stop working (``unknown_session``).
        A session that came back or took a seat meanwhile is skipped when its turn comes."""
        settings = self.settings
        while self._idle and self._idle[0][0] <= now:
            deadline, _, session = heapq.heappop(self._idle)
            ttl = settings.ttl if session.stored else settings.fresh_ttl
            if (session.idle and session.idle_since is not None
                    and session.idle_since + ttl == deadline):
                self._forget(session, out)
        out.wake(WAKE_KEY, self._idle[0][0] if self._idle else None)
