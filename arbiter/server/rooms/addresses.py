"""What one connection address may cost the server, across all its connections.

A connection's own bucket (rooms/peers.py) bounds what one connection sends; an address opens
as many connections as it likes, so work that is costly to refuse is also charged to the
address. Here that is a refused deck or room configuration: reading a deck list and checking
it against a format is the most CPU a request can cost before it is refused (issue 27, item
15: 16 connections sending 20 KB deck lists pushed an honest player's p99 from 6 to 324 ms).
Each such refusal takes a token from the address's bucket; while the bucket is empty, the
address's decks and configurations are refused ``rate_limited`` unread. Accepted ones cost
nothing: players submitting decks are not flooding (docs/architecture.md, "What a client can
make the server hold").
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass


def is_local(address: str) -> bool:
    """Whether ``address`` is this machine's own (loopback, 127.0.0.0/8 or ::1). Its clients
    are the operator's (a load generator, the bench) or everyone's at once (a reverse proxy on
    the same machine); either way its address says nothing about who is squatting, so the caps
    on waiting rooms per address leave it out unless the operator asks
    (``HubSettings.limit_local_addresses``; docs/architecture.md)."""
    try:
        return ipaddress.ip_address(address).is_loopback
    except ValueError:  # "?" (unknown) or a name: not known to be local
        return False


@dataclass(frozen=True)
class AddressLimits:
    refusal_rate: float = 5.0  # refused decks and configurations per second, per address...
    refusal_burst: int = 50  # ...and in a burst
    tracked: int = 10_000  # addresses remembered before the full buckets are forgotten


class Bucket:
    """A token bucket: ``rate`` tokens a second, at most ``burst`` held."""

    __slots__ = ("at", "tokens")

    def __init__(self, burst: float, now: float) -> None:
        self.tokens = float(burst)
        self.at = now

    def refill(self, rate: float, burst: float, now: float) -> float:
        self.tokens = min(float(burst), self.tokens + (now - self.at) * rate)
        self.at = now
        return self.tokens


class AddressBook:
    """The refusal buckets of the addresses that have been refused lately: a bounded table of
    token buckets by key (the lobby keeps its chat's per-session buckets in one too)."""

    def __init__(self, limits: AddressLimits | None = None) -> None:
        self.limits = limits or AddressLimits()
        self._buckets: dict[str, Bucket] = {}

    def has_token(self, address: str, now: float) -> bool:
        """Whether ``address`` has a token left: may still send costly work that could be
        refused."""
        bucket = self._buckets.get(address)
        lim = self.limits
        return bucket is None or bucket.refill(lim.refusal_rate, lim.refusal_burst, now) >= 1

    def take(self, address: str, now: float) -> None:
        """Take one token from ``address``: charge it one refused deck or configuration."""
        lim = self.limits
        bucket = self._buckets.get(address)
        if bucket is None:
            if len(self._buckets) >= lim.tracked:
                self._forget_full(now)
            bucket = self._buckets[address] = Bucket(lim.refusal_burst, now)
        bucket.refill(lim.refusal_rate, lim.refusal_burst, now)
        bucket.tokens -= 1

    def _forget_full(self, now: float) -> None:
        """Forget the addresses whose buckets have filled up again (they owe nothing), so
        that the table stays bounded however many addresses pass by."""
        lim = self.limits
        for address in [a for a, b in self._buckets.items()
                        if b.refill(lim.refusal_rate, lim.refusal_burst, now) >= lim.refusal_burst]:
            del self._buckets[address]
        if len(self._buckets) >= lim.tracked:  # all still owing: the oldest charges go first
            for address in list(self._buckets)[: len(self._buckets) // 2]:
                del self._buckets[address]
