"""``arbiter serve`` serves the browser client on its WebSocket port (arbiter/server/net/static.py):
the page and its assets with their content types and caching headers, revalidation by ETag, gzip for
those who accept it; other plain requests and every WebSocket upgrade are as before
(docs/protocol.md, section 12)."""

from __future__ import annotations

import gzip
import re
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from websockets.sync.client import connect

from arbiter.protocol.codec import pack, unpack_server

from .browser import Server, running_server


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running_server(tmp_path_factory.mktemp("static")) as s:
        yield s


def get(server: Server, path: str, **headers: str) -> tuple[int, dict[str, str], bytes]:
    request = urllib.request.Request(server.url.rstrip("/") + path, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as exc:
        return exc.code, dict(exc.headers), exc.read()


def test_the_page_is_revalidated_and_its_hashed_assets_are_cached_for_good(
        server: Server) -> None:
    status, headers, body = get(server, "/")
    assert status == 200
    assert headers["Content-Type"] == "text/html; charset=utf-8"
    assert headers["Cache-Control"] == "no-cache"
    etag = headers["ETag"]
    assets = re.findall(r'"/assets/([^"]+)"', body.decode())
    assert {a.rsplit(".", 1)[1] for a in assets} == {"js", "css"}
    assert get(server, "/", **{"If-None-Match": etag})[0] == 304
    assert get(server, "/index.html")[2] == body
    types = {"js": "text/javascript; charset=utf-8", "css": "text/css; charset=utf-8"}
    for name in assets:
        status, headers, data = get(server, f"/assets/{name}")
        assert status == 200 and data
        assert headers["Content-Type"] == types[name.rsplit(".", 1)[1]]
        assert headers["Cache-Control"] == "public, max-age=31536000, immutable"
        assert headers["X-Content-Type-Options"] == "nosniff"
        status, headers, squeezed = get(server, f"/assets/{name}", **{"Accept-Encoding": "gzip"})
        assert headers["Content-Encoding"] == "gzip" and gzip.decompress(squeezed) == data
        assert len(squeezed) < len(data)
    assert get(server, "/licenses.txt")[2].startswith(b"The page bundles")


def test_other_requests_are_answered_as_before(server: Server) -> None:
    assert get(server, "/assets/app-0000.js")[0] == 404
    assert get(server, "/healthz")[0] == 200
    assert get(server, "/metrics")[0] == 200
    assert get(server, "/somewhere")[0] == 426


def test_a_websocket_upgrade_on_the_page_path_is_the_protocol_endpoint(server: Server) -> None:
    with connect(server.ws_url) as ws:
        ws.send(pack({"t": "hello", "i": 1, "v": [1], "name": "Ann"}))
        reply = unpack_server(ws.recv(timeout=10))  # type: ignore[arg-type]
    assert reply["t"] == "welcome" and reply["name"] == "Ann"


def test_a_server_without_the_built_client_still_serves_the_protocol(tmp_path: Path) -> None:
    from arbiter.server.net.static import StaticFiles

    assert StaticFiles(None).files == {}
    assert StaticFiles(tmp_path).files == {}
