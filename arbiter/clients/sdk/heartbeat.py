"""The client's heartbeat: how a server that stopped answering is noticed.

A frozen node (SIGSTOP, a stalled VM) or a cut-off network keeps the TCP connection open and
sends nothing, so only the client can tell, by asking. Every ``interval`` seconds the client
pings; a server that neither answers the ping nor sends anything else for ``timeout`` seconds
is silent, and the connection is dropped at once.

At once matters. The websockets library's own keepalive, on a ping timeout, starts the
closing handshake and waits ``close_timeout`` for a close frame that a silent server never
sends: two more seconds before the client even starts to reconnect (issue 27, item 5: a frozen
node's players acted again after p50 6 s; the lease hands its rooms over after about 4). A
server we have given up on is owed no goodbye, so the heartbeat closes the socket itself and
the reader sees the connection end without a close frame, which is what marks the node
silent for the next reconnection's order (:func:`.urls.rotation`).

Anything the server sends counts as an answer: a busy server whose pong waits behind a
queue of deltas is alive, and dropping it would turn load into a reconnect storm.
"""

from __future__ import annotations

import trio
from websockets.exceptions import ConnectionClosed

from .connection import Connection


class Heartbeat:
    """One connection's heartbeat. :meth:`heard` is told of every frame read; :meth:`run`
    pings, and closes the connection's socket when the server falls silent (then
    :attr:`silent` says so)."""

    def __init__(self, interval: float, timeout: float) -> None:
        if interval <= 0 or timeout <= 0:
            raise ValueError("a heartbeat's interval and timeout must be positive")
        self.interval, self.timeout = interval, timeout
        self.heard_at = trio.current_time()
        self.silent = False

    def heard(self) -> None:
        self.heard_at = trio.current_time()

    @property
    def reason(self) -> str:
        return f"the server did not answer for {self.timeout:g} s"

    async def run(self, ws: Connection) -> None:
        while True:
            await trio.sleep(self.interval)
            try:
                pong = await ws.ping()
            except ConnectionClosed:
                return  # closed meanwhile: the reader says why
            # Silent: no pong, and nothing else either, for ``timeout`` since the ping or
            # since the last frame, whichever came later. A frozen server is so dropped at
            # most ``interval + timeout`` after it froze.
            deadline = trio.current_time() + self.timeout
            while not pong.is_set():
                with trio.move_on_at(deadline):
                    await pong.wait()
                if pong.is_set():
                    break
                if self.heard_at + self.timeout > trio.current_time():
                    deadline = self.heard_at + self.timeout  # busy, not silent
                    continue
                self.silent = True
                # No closing handshake with a server that does not answer: drop the socket.
                # The connection's reader ends, and the client reconnects elsewhere.
                ws.drop()
                return
