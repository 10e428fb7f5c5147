"""The lobby's people and chat (docs/protocol.md section 16): who is online and what each is
doing, and a chat everyone following the lobby reads.

Following is opt-in (``lobby`` with ``follow``): a connection that never follows (a bot, a load
tester) is sent nothing of it, and costs the lobby a set entry while it is connected.

The lobby's states, per connection::

    not following --lobby follow--> following --lobby unfollow, or its connection closes--> not
    following (``hidden`` is a connection's choice either way: while set, its session is not
    listed by that connection's account)

Presence is coalesced, not pushed per change: at most once every ``interval`` seconds (and only
while someone follows) the page of people (rooms/presence.py) is computed once, encoded once,
and the same bytes go to every follower, only when they differ from the last ones sent. So a
follower gets at most one presence update a second, however many people come and go, and a
tick costs O(online log PAGE) plus one frame per follower. The page is recomputed rather than
patched on every change because what people are doing changes in many places (seats taken,
freed by the grace period, matches finishing); a tick reads it where it is.

Chat: a line costs its sender a message token like room chat (and the room chat's text limits:
1-500 characters), and because it reaches everyone following the lobby rather than a table,
two buckets more bound what it costs the server: one per session and one for the whole lobby.
A line either bucket refuses is answered ``rate_limited`` and the connection stays open. The
last ``HISTORY`` lines are kept in memory (not in the log: a restart clears them) and sent to
each new follower. In a cluster each node has its own lobby (docs/cluster.md).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from arbiter.protocol import requests as rq
from arbiter.protocol.codec import pack
from arbiter.protocol.errors import Code, Refusal
from arbiter.protocol.server_messages import LobbyChatLines, Ok, PeopleList, encode

from .addresses import AddressBook, AddressLimits, Bucket
from .effects import Effects
from .peers import Peer
from .presence import Whereabouts, page
from .sessions import Session

WAKE_KEY = "lobby"  # the timer key of the presence updates
HISTORY = 50  # chat lines kept for newcomers
SEARCH_COST = 4  # tokens a search takes beyond its message's: it reads everyone online


@dataclass(frozen=True)
class LobbySettings:
    interval: float = 1.0  # seconds between two presence updates a follower may get
    chat_rate: float = 0.5  # lines a second one session may say, on average...
    chat_burst: int = 5  # ...and in a burst
    lobby_rate: float = 10.0  # lines a second the whole lobby carries, on average...
    lobby_burst: int = 30  # ...and in a burst: each line is one frame per follower


class Lobby:
    def __init__(self, where: Callable[[Session], Whereabouts],
                 settings: LobbySettings | None = None) -> None:
        self.where = where  # what a session is doing (the hub knows its rooms)
        self.settings = s = settings or LobbySettings()
        self.online: set[Session] = set()  # sessions with a connection that said hello
        self.followers: dict[Peer, None] = {}  # in the order they came
        self.hidden: set[Peer] = set()  # connections that do not list their session
        self.lines: deque[dict[str, Any]] = deque(maxlen=HISTORY)
        self._serial = 0  # the last chat line's number
        # The same bounded table of token buckets the addresses' refusals use, by session.
        self._said = AddressBook(AddressLimits(s.chat_rate, s.chat_burst))
        self._all: Bucket | None = None  # the whole lobby's chat bucket, made at first use
        self._frame: bytes | None = None  # the presence page last computed...
        self._computed = float("-inf")  # ...at this time
        self._sent: bytes | None = None  # the page followers were sent last
        self._ticking = False  # a presence tick is scheduled

    # ------------------------------------------------------------------ connections

    def arrived(self, peer: Peer) -> None:
        """``peer`` said hello: its session is online."""
        if peer.session is not None:
            self.online.add(peer.session)

    def gone(self, peer: Peer) -> None:
        """``peer``'s connection closed (its session has already let go of it)."""
        self.followers.pop(peer, None)
        self.hidden.discard(peer)
        session = peer.session
        if session is not None and not session.peers:
            self.online.discard(session)

    def listed(self) -> list[Session]:
        """The people online: sessions with a connection that is not hidden."""
        hidden = self.hidden
        if not hidden:
            return list(self.online)
        return [s for s in self.online if any(p not in hidden for p in s.peers)]

    # ------------------------------------------------------------------ requests

    def follow(self, peer: Peer, req: rq.Lobby, now: float, out: Effects) -> None:
        """Start or stop following; a new follower gets the people online and the chat's
        latest lines at once."""
        if req.hidden:
            self.hidden.add(peer)
        else:
            self.hidden.discard(peer)
        out.message([peer], Ok(req.id))
        if not req.follow:
            self.followers.pop(peer, None)
            return
        fresh = peer not in self.followers
        self.followers[peer] = None
        frame = self._page(now)
        out.send([peer], frame)
        if frame != self._sent:
            self._sent = None  # the next tick sends everyone the page, whatever it is then
        if fresh:
            out.message([peer], LobbyChatLines(list(self.lines)))
        self._schedule(now, out)

    def search(self, peer: Peer, req: rq.People, out: Effects) -> None:
        """A search of the people online: answered at once, never kept up to date. It reads
        everyone online, so it costs its connection more tokens than a plain message."""
        peer.charge(SEARCH_COST)
        count, people = page(self.listed(), self.where, req.query)
        out.message([peer], PeopleList(count, people, req.id, req.query))

    def say(self, peer: Peer, req: rq.LobbyChat, now: float, out: Effects) -> None:
        """A chat line from ``peer`` to everyone following the lobby."""
        session = peer.session
        if peer not in self.followers or session is None:
            raise Refusal(Code.NOT_SEATED, "follow the lobby before chatting in it "
                                           "(a lobby request with follow: true)")
        s = self.settings
        if not self._said.has_token(session.token, now):
            raise Refusal(Code.RATE_LIMITED, f"at most {s.chat_burst} lobby chat lines at once "
                          f"and one every {1 / s.chat_rate:g} s after: wait a moment")
        if self._all is None:
            self._all = Bucket(s.lobby_burst, now)
        if self._all.refill(s.lobby_rate, s.lobby_burst, now) < 1:
            raise Refusal(Code.RATE_LIMITED, "the lobby's chat is busy: try again in a moment")
        self._all.tokens -= 1
        self._said.take(session.token, now)
        self._serial += 1
        line = {"n": self._serial, "from": session.name, "text": req.text}
        self.lines.append(line)
        out.message([peer], Ok(req.id))
        out.message(list(self.followers), LobbyChatLines([line]))

    # ------------------------------------------------------------------ presence updates

    def tick(self, now: float, out: Effects) -> None:
        """The presence update: the page, to every follower, when it changed."""
        self._ticking = False
        if not self.followers:
            self._sent = None
            return
        frame = self._page(now, fresh=True)
        if frame != self._sent:
            self._sent = frame
            out.send(list(self.followers), frame)
        self._schedule(now, out)

    def _schedule(self, now: float, out: Effects) -> None:
        if not self._ticking:
            self._ticking = True
            out.wake(WAKE_KEY, now + self.settings.interval)

    def _page(self, now: float, *, fresh: bool = False) -> bytes:
        """The encoded page of people online; one computed less than an interval ago is
        reused for a new follower (many following at once cost one page)."""
        if fresh or self._frame is None or now >= self._computed + self.settings.interval:
            count, people = page(self.listed(), self.where)
            self._frame = pack(encode(PeopleList(count, people)))
            self._computed = now
        return self._frame
