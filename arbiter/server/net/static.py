"""The browser client's files, served over plain HTTP on the WebSocket port.

``arbiter serve`` answers a GET without a WebSocket upgrade for ``/`` (the page), for
``/assets/NAME`` (its script and stylesheet, whose names carry a hash of their content) and for
``/licenses.txt``; everything else is left to the caller (docs/protocol.md, section 12). The
files are those of ``arbiter.clients``' package data (``clients/web/dist``, built by
``clients/web/build.mjs``), read once at start.

Caching: a hashed asset never changes under its name, so browsers keep it for a year without
asking again (``immutable``); the page itself is revalidated on every load with its ETag
(``no-cache``), so a new build reaches players at their next load. A client that accepts gzip
gets the compressed body (compressed once, at start).
"""

from __future__ import annotations

import gzip
import hashlib
import http
import importlib.util
from dataclasses import dataclass
from pathlib import Path

from websockets.datastructures import Headers
from websockets.http11 import Request, Response

TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".txt": "text/plain; charset=utf-8",
}
IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"


@dataclass(frozen=True)
class Asset:
    body: bytes
    gzipped: bytes | None  # None when compressing saves nothing worth it
    content_type: str
    etag: str
    cache: str


def client_dir() -> Path | None:
    """``clients/web/dist`` as installed with ``arbiter.clients`` (found without importing the
    clients' code, which ``arbiter serve`` does not need)."""
    spec = importlib.util.find_spec("arbiter.clients")
    if spec is None or not spec.submodule_search_locations:
        return None
    for location in spec.submodule_search_locations:
        path = Path(location) / "web" / "dist"
        if (path / "index.html").is_file():
            return path
    return None


class StaticFiles:
    def __init__(self, root: Path | None) -> None:
        self.files: dict[str, Asset] = {}
        if root is None:
            return
        for path in sorted(root.rglob("*")):
            kind = TYPES.get(path.suffix)
            if not path.is_file() or kind is None:
                continue
            rel = path.relative_to(root).as_posix()
            body = path.read_bytes()
            squeezed = gzip.compress(body, compresslevel=9, mtime=0)
            self.files["/" + rel] = Asset(
                body=body, gzipped=squeezed if len(squeezed) < len(body) * 0.9 else None,
                content_type=kind, etag='"' + hashlib.sha256(body).hexdigest()[:20] + '"',
                cache=IMMUTABLE if rel.startswith("assets/") else REVALIDATE)
        if "/index.html" in self.files:
            self.files["/"] = self.files["/index.html"]

    def response(self, request: Request) -> Response | None:
        """The answer to a GET of one of the client's files, or None if ``request`` is not
        for one (the caller answers it)."""
        path = request.path.split("?", 1)[0]
        asset = self.files.get(path)
        if asset is None:
            if path.startswith("/assets/"):
                return _response(http.HTTPStatus.NOT_FOUND, b"no such file\n",
                                 [("Content-Type", TYPES[".txt"]), ("Cache-Control", "no-store")])
            return None
        headers = [("Content-Type", asset.content_type), ("Cache-Control", asset.cache),
                   ("ETag", asset.etag), ("Vary", "Accept-Encoding"),
                   ("X-Content-Type-Options", "nosniff")]
        wanted = {tag.strip() for value in request.headers.get_all("If-None-Match")
                  for tag in value.split(",")}
        if asset.etag in wanted or "*" in wanted:
            return _response(http.HTTPStatus.NOT_MODIFIED, b"", headers, length=False)
        body = asset.body
        accepts = ",".join(request.headers.get_all("Accept-Encoding")).lower()
        if asset.gzipped is not None and "gzip" in accepts:
            body = asset.gzipped
            headers.append(("Content-Encoding", "gzip"))
        return _response(http.HTTPStatus.OK, body, headers)


def _response(status: http.HTTPStatus, body: bytes, headers: list[tuple[str, str]], *,
              length: bool = True) -> Response:
    all_headers = Headers(headers)
    if length:
        all_headers["Content-Length"] = str(len(body))
    return Response(status.value, status.phrase, all_headers, body)
