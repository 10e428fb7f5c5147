"""Whether a node's ``--public-url`` can be where clients reach it (issue 27.8).

A node never redirects a client to itself, and knows itself by its URL: a wrong
``--public-url`` (another machine's address, another port, or the URL of a neighbour copied
onto every node) would go unnoticed until clients were sent round in circles or to a node
that holds nothing. So a node checks its URL at start against what it can know: the URL's
form (an error: it cannot start), then (warnings: a proxy or a TLS terminator in front may
make them right) the port and addresses it listens on, the machine's own addresses, and the
URLs the other live nodes announce.

Pure but for :func:`is_local` (a bind, which the node calls): :func:`url_problems` is given
what the node found out (the URL's host resolved, which of those addresses are this
machine's, the other nodes' URLs) and says what is wrong, each sentence naming the flag.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import urlsplit

FLAG = "--public-url"
DEFAULT_PORTS = {"ws": 80, "wss": 443}
ANY_ADDRESS = ("", "0.0.0.0", "::")  # a listening host that takes every local address


@dataclass(frozen=True)
class PublicUrl:
    scheme: str  # ws or wss
    host: str
    port: int


def parse(url: str) -> PublicUrl:
    """The parts of a public URL; ValueError naming the flag when it is no websocket URL a
    client could connect to."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as exc:
        raise ValueError(f"{FLAG} {url!r} is not a URL: {exc}") from None
    if parts.scheme not in DEFAULT_PORTS:
        raise ValueError(f"{FLAG} {url!r} must start with ws:// or wss://")
    if not parts.hostname:
        raise ValueError(f"{FLAG} {url!r} names no host")
    return PublicUrl(parts.scheme, parts.hostname, port or DEFAULT_PORTS[parts.scheme])


def url_problems(url: PublicUrl, *, listen_host: str, listen_port: int,
                 addresses: Mapping[str, bool], others: Mapping[str, str], me: str
                 ) -> list[str]:
    """What is wrong with ``url`` as the address of a node listening on ``listen_host``:
    ``listen_port``. ``addresses`` are the URL's host resolved, each with whether it is this
    machine's; ``others`` the live nodes' URLs by node id (``me``, this node's id, left
    out). A ``wss://`` URL is taken to be a TLS terminator's, which may be anywhere and
    forward to any port: only the other nodes' URLs are compared with it."""
    problems = []
    shown = f"{FLAG} {url.scheme}://{url.host}:{url.port}/"
    sharing = sorted(node for node, other in others.items() if node != me and _same(
        other, url))
    if sharing:
        problems.append(f"{shown} is also the URL of live node(s) {', '.join(sharing)}: "
                        "each takes the other's redirects for its own; give every node "
                        "its own URL")
    if url.scheme == "wss":
        return problems
    named = _address(url.host)
    if named is not None and named.is_unspecified:
        problems.append(f"{shown} names {url.host}, which no client can connect to: give "
                        "the address clients reach this node at")
        return problems
    if url.port != listen_port:
        problems.append(f"{shown} names port {url.port}, and this node listens on "
                        f"{listen_port}: clients sent there reach another process (or "
                        "none)")
    if not addresses:
        problems.append(f"{shown}: {url.host} does not resolve here: clients sent there "
                        "may not reach this node")
    elif not any(addresses.values()):
        problems.append(f"{shown}: {url.host} ({', '.join(sorted(addresses))}) is not an "
                        "address of this machine: clients sent there reach another one")
    elif listen_host not in ANY_ADDRESS and not _listened(addresses, listen_host):
        problems.append(f"{shown}: this node listens on {listen_host} only, which "
                        f"{url.host} does not name: connections there are refused")
    return problems


def _same(other: str, url: PublicUrl) -> bool:
    try:
        return parse(other) == url
    except ValueError:
        return False


def _listened(addresses: Mapping[str, bool], listen_host: str) -> bool:
    try:
        listening = ipaddress.ip_address(listen_host)
    except ValueError:  # a host name: what it resolves to was not asked; say nothing
        return True
    return any(_address(a) == listening for a in addresses)


def _address(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(text)
    except ValueError:
        return None


def is_local(family: int, address: str) -> bool:
    """Whether ``address`` is one of this machine's: a socket can be bound to it. (Binding
    is the kernel's own answer, interfaces and aliases included; it sends nothing.)"""
    try:
        with socket.socket(family, socket.SOCK_DGRAM) as probe:
            probe.bind((address, 0))
    except OSError:
        return False
    return True
