"""Entry URLs: the pure parts (parsing a list, the ws-only check, where to reconnect next), the
command-line flags that carry several URLs, and the SDK against real servers on 127.0.0.1: it
connects to the first entry URL that answers, and after losing its node it tries that node
first, then the others in turn. (Redirects between the nodes of a cluster: test_redirects.py.)
"""

from __future__ import annotations

import argparse
import contextlib
from collections.abc import Callable
from functools import partial
from pathlib import Path

import pytest
import trio

from arbiter.clients.bots import bot_cmd
from arbiter.clients.loadtest import cmd as loadtest_cmd
from arbiter.clients.loadtest.runner import LoadConfig
from arbiter.clients.sdk import Backoff, BadURL, Client, ConnectError, entry_urls
from arbiter.clients.sdk.urls import rotation, url_argument, websocket_url
from arbiter.clients.tui import play_cmd
from arbiter.server.net.server import ArbiterServer

from ..server.harness import server_config, settle
from .helpers import client_at, url

DEAD = "ws://127.0.0.1:9/"  # the discard port: nothing listens there


# ------------------------------------------------------------------ the pure parts

def test_one_url_a_comma_separated_string_or_a_sequence_give_the_same_list() -> None:
    expected = ["ws://127.0.0.1:8765/", "wss://b.example:443/arbiter"]
    assert entry_urls("ws://127.0.0.1:8765, wss://b.example:443/arbiter") == expected
    assert entry_urls(["ws://127.0.0.1:8765/", "wss://b.example:443/arbiter"]) == expected
    assert entry_urls(["ws://127.0.0.1:8765,", " wss://b.example:443/arbiter "]) == expected
    assert entry_urls("ws://127.0.0.1:8765") == ["ws://127.0.0.1:8765/"]


def test_one_node_has_one_spelling_and_repeats_are_dropped() -> None:
    assert entry_urls("WS://h:1,ws://h:1/,ws://h:1,ws://h:2") == ["ws://h:1/", "ws://h:2/"]
    assert websocket_url("wss://h/path?x=1") == "wss://h/path?x=1"


@pytest.mark.parametrize("bad", [
    "", " ", ",", "http://h:1/", "https://h/", "ftp://h/", "javascript:alert(1)",
    "file:///etc/passwd", "h:8765", "127.0.0.1:8765", "ws://", "ws:///path",
    "ws://user:secret@h:1/", "ws://h:0/", "ws://h:99999/", "ws://h:port/",
    "ws://h:1/a b", "ws://h:1/\x00", "ws://h:1/" + "a" * 3000,
])
def test_only_websocket_urls_to_a_host_are_taken(bad: str) -> None:
    with pytest.raises(BadURL):
        entry_urls(bad)
    with pytest.raises(BadURL):
        websocket_url(bad)


def test_a_url_that_is_not_a_string_is_refused() -> None:
    with pytest.raises(BadURL):
        entry_urls([b"ws://h:1/"])  # type: ignore[list-item]
    with pytest.raises(BadURL):
        entry_urls([])


def test_after_a_drop_the_node_it_was_on_comes_first_then_the_others_in_order() -> None:
    entries = ["ws://a/", "ws://b/", "ws://c/"]
    assert rotation("ws://b/", entries) == ["ws://b/", "ws://a/", "ws://c/"]
    assert rotation("ws://a/", entries) == entries
    # A node a redirect sent us to need not be an entry URL.
    assert rotation("ws://d/", entries) == ["ws://d/", *entries]


def test_a_node_that_fell_silent_is_tried_last() -> None:
    # A frozen node's socket still accepts: tried first, its handshake would wait out the open
    # timeout while its rooms are taken over elsewhere (issue 27.5).
    entries = ["ws://a/", "ws://b/", "ws://c/"]
    assert rotation("ws://b/", entries, silent=True) == ["ws://a/", "ws://c/", "ws://b/"]
    assert rotation("ws://a/", ["ws://a/"], silent=True) == ["ws://a/"], "the only one"


def test_a_client_refuses_a_bad_entry_url_at_once() -> None:
    with pytest.raises(ValueError):
        Client("http://127.0.0.1:8765/", "Ann")
    client = Client("ws://a:1,ws://b:2", "Ann")
    assert client.urls == ["ws://a:1/", "ws://b:2/"] and client.url == "ws://a:1/"


def test_the_load_tests_rooms_start_at_different_entry_urls_in_turn() -> None:
    config = LoadConfig(url="ws://a/,ws://b/,ws://c/")
    assert [config.urls_of(slot)[0] for slot in range(4)] == \
        ["ws://a/", "ws://b/", "ws://c/", "ws://a/"]
    assert sorted(config.urls_of(1)) == ["ws://a/", "ws://b/", "ws://c/"]


# ------------------------------------------------------------------ the command lines

def _parse(module: object, argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    module.add_arguments(parser)  # type: ignore[attr-defined]
    return parser.parse_args(argv)


def test_url_flags_take_several_urls_comma_separated_or_repeated() -> None:
    args = _parse(bot_cmd, ["--url", "ws://a:1,ws://b:2", "--url", "ws://c:3", "--create"])
    assert args.url == ["ws://a:1/", "ws://b:2/", "ws://c:3/"]
    args = _parse(bot_cmd, ["--url", "ws://127.0.0.1:8765", "--room", "3"])
    assert args.url == ["ws://127.0.0.1:8765/"]  # the old single-URL form
    args = _parse(loadtest_cmd, ["--url", "ws://a:1", "--url", "ws://b:2"])
    assert args.url == ["ws://a:1/", "ws://b:2/"]
    assert _parse(play_cmd, []).url is None  # run() falls back to the local server
    assert _parse(play_cmd, ["--url", "ws://a:1,ws://b:2"]).url == ["ws://a:1/", "ws://b:2/"]


def test_a_bad_url_flag_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        _parse(bot_cmd, ["--url", "ws://a:1,http://b:2", "--create"])
    assert exited.value.code == 2
    assert "not a websocket URL" in capsys.readouterr().err
    with pytest.raises(argparse.ArgumentTypeError):
        url_argument("")


# ------------------------------------------------------------------ real servers

async def eventually(check: Callable[[], bool], timeout: float = 30.0) -> None:
    """Wait (virtual time: the backoff must pass) until ``check`` holds."""
    with trio.fail_after(timeout):
        while not check():
            await trio.sleep(0.01)


async def _server(nursery: trio.Nursery, data: Path, port: int = 0
                  ) -> tuple[ArbiterServer, trio.CancelScope]:
    """A server on 127.0.0.1 that the test can stop (the scope) and start again on its port."""
    scope = trio.CancelScope()

    async def serve(task_status: trio.TaskStatus[ArbiterServer]) -> None:
        with scope:
            await ArbiterServer(server_config(data, port=port)).run(task_status=task_status)

    server: ArbiterServer = await nursery.start(serve)
    return server, scope


async def test_the_client_connects_to_the_first_entry_url_that_answers(
        nursery: trio.Nursery, tmp_path: Path, autojump_clock: object) -> None:
    server, _ = await _server(nursery, tmp_path)
    client: Client = await nursery.start(Client(
        [DEAD, url(server)], "Ann", ping_interval=None, ping_timeout=None, strict=True).run)
    assert client.url == url(server) and client.connected
    assert client.stats.connects == 1 and client.stats.reconnects == 0
    assert [r["r"] for r in await client.list_rooms()] == []


async def test_no_entry_url_answering_fails_the_first_connection_naming_each(
        nursery: trio.Nursery, tmp_path: Path, autojump_clock: object) -> None:
    server, scope = await _server(nursery, tmp_path)
    gone = url(server)
    scope.cancel()
    await settle()
    with pytest.raises(ConnectError) as failed:
        await nursery.start(Client([DEAD, gone], "Nobody", open_timeout=5).run)
    assert DEAD in str(failed.value) and gone in str(failed.value)
    assert isinstance(failed.value.__cause__, OSError)


async def test_a_client_whose_node_fell_silent_tries_the_other_entry_urls_first(
        nursery: trio.Nursery, tmp_path: Path, autojump_clock: object) -> None:
    """Two real servers, A and B (not a cluster: B does not know A's session). The client is
    on A; A stops without a goodbye (no close frame: as a killed or frozen node). It tries B
    first, and settles on B with a new session. When B stops in turn and A is back, it goes
    back to A, B being the one that fell silent (issue 27.5: a frozen node tried first held
    its clients until it thawed)."""
    a, stop_a = await _server(nursery, tmp_path / "a")
    b, stop_b = await _server(nursery, tmp_path / "b")
    assert a.port is not None
    ann = await client_at(nursery, [url(a), url(b)], "Ann")
    assert ann.url == url(a)
    first = ann.session
    heard = ann.subscribe()
    stop_a.cancel()
    await eventually(lambda: ann.connected and ann.url == url(b))
    assert ann.session != first  # B never knew A's session: a new one, by name
    assert ann.stats.reconnects == 1  # B at once: A fell silent
    stop_b.cancel()
    again, _ = await _server(nursery, tmp_path / "a", port=a.port)
    await eventually(lambda: ann.connected and ann.url == url(again))
    assert ann.stats.reconnects == 2  # A answered at once
    seen = []
    while True:
        try:
            seen.append(type(heard.receive_nowait()).__name__)
        except trio.WouldBlock:
            break
    assert seen.count("Disconnected") == 2 and "Redirected" not in seen
    assert ann.stats.redirects == 0


async def test_a_request_made_while_the_client_is_between_nodes_is_sent_once_it_is_on_one(
        nursery: trio.Nursery, tmp_path: Path, autojump_clock: object) -> None:
    a, stop_a = await _server(nursery, tmp_path / "a")
    b, _ = await _server(nursery, tmp_path / "b")
    ann = await client_at(nursery, [url(a), url(b)], "Ann",
                          backoff=Backoff(initial=1.0, jitter=0.0))
    stop_a.cancel()
    await eventually(lambda: not ann.connected)
    with trio.fail_after(30):
        room = await ann.create({"seats": 2})
    assert ann.url == url(b) and [r["r"] for r in await ann.list_rooms()] == [room]


async def test_a_node_that_drops_every_connection_at_once_gets_fewer_and_fewer_reconnects(
        nursery: trio.Nursery, tmp_path: Path, autojump_clock: object) -> None:
    """Issue 27, reconnect storms: through a proxy that cuts every connection a fifth of a
    second after it is made, the client connects (the hello is answered) and is dropped, again
    and again; the backoff must grow as it would for failed connects, not start afresh at each
    short-lived connection (a reconnect every ~0.25 s of virtual time before)."""
    server, _ = await _server(nursery, tmp_path / "a")
    cut = 0

    async def proxy(stream: trio.SocketStream) -> None:
        nonlocal cut
        upstream = await trio.open_tcp_stream("127.0.0.1", server.port)

        async def pump(src: trio.abc.Stream, dst: trio.abc.Stream) -> None:
            with contextlib.suppress(trio.BrokenResourceError, trio.ClosedResourceError):
                while data := await src.receive_some(65536):
                    await dst.send_all(data)

        async with trio.open_nursery() as pipes:
            pipes.start_soon(pump, stream, upstream)
            pipes.start_soon(pump, upstream, stream)
            await trio.sleep(0.2)
            cut += 1
            pipes.cancel_scope.cancel()
        await upstream.aclose()
        await stream.aclose()

    listeners = await nursery.start(partial(trio.serve_tcp, proxy, 0, host="127.0.0.1"))
    port = listeners[0].socket.getsockname()[1]
    ann = await client_at(nursery, f"ws://127.0.0.1:{port}/", "Ann",
                          backoff=Backoff(initial=0.05, maximum=5.0, jitter=0.0))
    await trio.sleep(60)
    # 0.05, 0.1, 0.2, ..., 3.2, then 5 s a time: about 17 connects in a minute, not 200.
    assert 8 <= ann.stats.connects <= 20, ann.stats.connects
    assert cut >= ann.stats.connects - 1
