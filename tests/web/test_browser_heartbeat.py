"""A frozen server, seen from a real Chromium (issue 27, item 5; docs/protocol.md section 1,
"Heartbeats"): ``arbiter serve`` stopped with SIGSTOP keeps its socket open and says nothing,
and a browser cannot send WebSocket pings. The page's ``ping`` requests go unanswered, it drops
the connection within the heartbeat's interval and timeout, shows that it is reconnecting, and
is back (the same session) once the server runs again. Waits are conditions with bounded
timeouts; no page may log an error or a warning."""

from __future__ import annotations

import os
import signal
import time
from typing import Any

from .browser import Person, Server

INTERVAL, TIMEOUT = 2.5, 2.5  # net.js HEARTBEAT
SLACK = 3.0  # a busy machine's delays (two cores shared with the server and the test)


def test_a_frozen_server_is_noticed_by_the_page_and_found_again_when_it_thaws(
        browser: Any, server: Server) -> None:
    ann = Person(browser, server, "Ann")
    ann.enter()
    session = ann.page.evaluate("() => window.arbiter.conn.session")
    os.kill(server.proc.pid, signal.SIGSTOP)
    try:
        frozen_at = time.monotonic()
        ann.wait("() => window.arbiter.conn.stats.silent === 1",
                 timeout=(INTERVAL + TIMEOUT + SLACK + 5) * 1000)
        noticed = time.monotonic() - frozen_at
        assert noticed <= INTERVAL + TIMEOUT + SLACK, noticed
        assert not ann.page.evaluate("() => window.arbiter.conn.ready")
        # Not connected, and saying so: "reconnecting…" while it waits out the backoff (at most
        # 0.1 s), then "connecting…" while it tries again (the frozen server takes the TCP
        # connection and never welcomes it); a check for the first alone could miss it.
        shown = ann.page.wait_for_selector(".conn.warn")
        assert shown is not None and shown.text_content() in ("reconnecting…", "connecting…")
    finally:
        os.kill(server.proc.pid, signal.SIGCONT)
    ann.wait("() => window.arbiter.conn.ready", timeout=30_000)
    assert ann.page.evaluate("() => window.arbiter.conn.session") == session
    ann.check_console()
