"""A node checks its ``--public-url`` at start (issue 27.8): a node knows itself by its URL
when it decides not to send a client to itself, so a wrong one went unnoticed. The decision
is pure (arbiter/server/cluster/public_url.py); the last test starts real nodes."""

from __future__ import annotations

from typing import Any

import pytest

from arbiter.server.cluster.public_url import PublicUrl, parse, url_problems

LOCAL = {"127.0.0.1": True}


def _problems(url: str, *, host: str = "0.0.0.0", port: int = 8765,
              addresses: dict[str, bool] | None = None,
              others: dict[str, str] | None = None) -> list[str]:
    return url_problems(parse(url), listen_host=host, listen_port=port,
                        addresses=LOCAL if addresses is None else addresses,
                        others=others or {}, me="me")


def test_a_url_no_client_could_connect_to_stops_the_node_naming_the_flag() -> None:
    assert parse("ws://game-1.example.org/") == PublicUrl("ws", "game-1.example.org", 80)
    assert parse("wss://game-1.example.org/") == PublicUrl("wss", "game-1.example.org", 443)
    for url, why in (("http://a:8765/", "ws:// or wss://"), ("ws:///", "no host"),
                     ("ws://a:port/", "not a URL"), ("a:8765", "ws:// or wss://")):
        with pytest.raises(ValueError, match=why) as refused:
            parse(url)
        assert "--public-url" in str(refused.value)


def test_a_url_that_reaches_this_node_is_fine() -> None:
    assert _problems("ws://localhost:8765/", addresses={"127.0.0.1": True, "::1": True}) == []
    assert _problems("ws://127.0.0.1:8765/", host="127.0.0.1") == []
    # Behind a TLS terminator, anywhere and any port: only other nodes' URLs are compared.
    assert _problems("wss://game-1.example.org/", addresses={}) == []


def test_another_port_or_another_machine_is_said() -> None:
    (port,) = _problems("ws://127.0.0.1:8766/")
    assert "names port 8766" in port and "listens on 8765" in port
    (elsewhere,) = _problems("ws://10.9.9.9:8765/", addresses={"10.9.9.9": False})
    assert "not an address of this machine" in elsewhere
    (unresolved,) = _problems("ws://nowhere.invalid:8765/", addresses={})
    assert "does not resolve" in unresolved
    (loopback_only,) = _problems("ws://10.0.0.5:8765/", host="127.0.0.1",
                                 addresses={"10.0.0.5": True})
    assert "listens on 127.0.0.1 only" in loopback_only
    (wildcard,) = _problems("ws://0.0.0.0:8765/", addresses={"0.0.0.0": True})
    assert "no client can connect to" in wildcard
    assert all(p.startswith("--public-url ") for p in (port, elsewhere, unresolved,
                                                         loopback_only, wildcard))


def test_a_url_another_live_node_announces_is_said_whatever_its_scheme() -> None:
    others = {"game-2": "wss://game.example.org/", "me": "wss://game.example.org/"}
    (shared,) = _problems("wss://game.example.org:443/", others=others)
    assert "also the URL of live node(s) game-2" in shared
    assert _problems("wss://game-1.example.org/", others=others) == []


def test_a_node_started_with_another_node_s_url_says_so(cluster: dict[str, Any]) -> None:
    (a,) = cluster["start"](1)
    (b,) = cluster["start"](1, extra=("--public-url", a.url, "--node-id", "copied"))
    said = b.errors()
    assert f"--public-url {a.url.rstrip('/')}" in said
    assert f"also the URL of live node(s) {a.node_id}" in said
    assert f"names port {a.port}, and this node listens on {b.port}" in said
    assert "--public-url" not in a.errors()
