"""The live directory of a cluster, in a Redis-protocol server (Valkey or Redis).

What is here is what the nodes share about the present, and may be lost (docs/cluster.md,
"What lives where"): which nodes are alive and how loaded, which node holds which room's lease,
and the lobby's room list across nodes. What must not be lost (and the fencing that makes a
room's log safe from a node that lost its lease without knowing it) is in PostgreSQL
(:mod:`.pglog`).

Keys, under a prefix (``arbiter:`` by default)::

    node:<id>     hash: url, rooms, players         expires with the node's heartbeat
    nodes         sorted set: node id -> deadline (ms, server time); expired entries pruned
    lease:<room>  string "<epoch> <node>"           expires unless its holder renews it
    leases        sorted set: room -> lease deadline; 0 once released for a handover
    lobby         hash: room -> summary (msgpack)   listed only while the room's lease lives

Every change that reads before it writes (acquire if free, renew or release only by the holder,
publish only by the holder, pick the least-loaded node and count the room it will get) is one
Lua script, so it is atomic on the server. Deadlines are computed from the server's own clock
(``TIME``), never a node's. Every call is bounded by a timeout; an unreachable or hung server
raises :class:`DirectoryUnavailable` instead of hanging.

The client is coredis: it is built on anyio, so it runs on trio natively (no asyncio bridge,
no threads), is maintained and fully typed, and handles Lua scripts (EVALSHA with a fallback
after a server restart has emptied the script cache).
"""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Self, TypeVar, cast

import coredis
import coredis.exceptions
import msgpack
import trio
from coredis.retry import ConstantRetryPolicy

T = TypeVar("T")

DEFAULT_PREFIX = "arbiter:"

# The server's clock in milliseconds, for deadlines.
_NOW = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
"""

# KEYS: node hash, nodes zset. ARGV: node id, ttl ms, url, rooms, players.
HEARTBEAT = _NOW + """
redis.call('HSET', KEYS[1], 'url', ARGV[3], 'rooms', ARGV[4], 'players', ARGV[5])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
redis.call('ZADD', KEYS[2], now + tonumber(ARGV[2]), ARGV[1])
return 1
"""

# KEYS: node hash, nodes zset. ARGV: node id.
LEAVE = """
redis.call('DEL', KEYS[1])
return redis.call('ZREM', KEYS[2], ARGV[1])
"""

# KEYS: nodes zset. ARGV: key prefix. Returns {id, url, rooms, players, ms left} per live node.
NODES = _NOW + """
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
local out = {}
for _, id in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
    local info = redis.call('HMGET', ARGV[1] .. 'node:' .. id, 'url', 'rooms', 'players')
    local ttl = redis.call('PTTL', ARGV[1] .. 'node:' .. id)
    if info[1] and ttl > 0 then
        table.insert(out, {id, info[1], info[2], info[3], ttl})
    end
end
return out
"""

# KEYS: nodes zset. ARGV: key prefix, reserve (0/1), excluded ids... The least-loaded live node
# (fewest rooms, then fewest players, then the smallest id); with reserve, its room count goes
# up by one at once, so that placements made before its next heartbeat spread out.
PLACE = _NOW + """
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
local excluded = {}
for i = 3, #ARGV do excluded[ARGV[i]] = true end
local best, best_rooms, best_players
for _, id in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
    if not excluded[id] then
        local info = redis.call('HMGET', ARGV[1] .. 'node:' .. id, 'url', 'rooms', 'players')
        if info[1] then
            local rooms, players = tonumber(info[2]) or 0, tonumber(info[3]) or 0
            if best == nil or rooms < best_rooms
                    or (rooms == best_rooms and (players < best_players
                        or (players == best_players and id < best))) then
                best, best_rooms, best_players = id, rooms, players
            end
        end
    end
end
if best == nil then return false end
if ARGV[2] == '1' then
    redis.call('HINCRBY', ARGV[1] .. 'node:' .. best, 'rooms', 1)
    best_rooms = best_rooms + 1
end
local node = ARGV[1] .. 'node:' .. best
return {best, redis.call('HGET', node, 'url'), best_rooms, best_players,
        redis.call('PTTL', node)}
"""

# KEYS: leases zset. ARGV: key prefix, ttl ms, then (room, holder value) pairs. Takes each
# room's lease if it is free or already that holder's (a claim batch in one round trip);
# returns the rooms whose lease it took.
ACQUIRE_MANY = _NOW + """
local taken = {}
local ttl = tonumber(ARGV[2])
for i = 3, #ARGV, 2 do
    local key = ARGV[1] .. 'lease:' .. ARGV[i]
    local held = redis.call('GET', key)
    if not held or held == ARGV[i + 1] then
        redis.call('SET', key, ARGV[i + 1], 'PX', ttl)
        redis.call('ZADD', KEYS[1], now + ttl, ARGV[i])
        table.insert(taken, ARGV[i])
    end
end
return taken
"""

# KEYS: leases zset. ARGV: key prefix, ttl ms, then (room, holder value) pairs. Renews each
# lease still held by that value; returns the rooms whose lease was lost.
RENEW = _NOW + """
local lost = {}
local ttl = tonumber(ARGV[2])
for i = 3, #ARGV, 2 do
    local key = ARGV[1] .. 'lease:' .. ARGV[i]
    if redis.call('GET', key) == ARGV[i + 1] then
        redis.call('PEXPIRE', key, ttl)
        redis.call('ZADD', KEYS[1], now + ttl, ARGV[i])
    else
        table.insert(lost, ARGV[i])
    end
end
return lost
"""

# KEYS: lease, leases zset. ARGV: holder value, room, lapsed too (0/1). A handover: the lease
# goes at once and the room is due for a claim (deadline 0) without waiting for an expiry.
# With "lapsed too", a room with no lease at all is made due as well (a restarted node's
# rooms whose lease is gone, which nothing else would ever claim).
RELEASE = """
local held = redis.call('GET', KEYS[1])
if held ~= ARGV[1] and (held or ARGV[3] ~= '1') then return 0 end
redis.call('DEL', KEYS[1])
redis.call('ZADD', KEYS[2], 0, ARGV[2])
return 1
"""

# The lobby is a hash (room -> summary) and a sorted set of the same rooms by id, so that a
# read can take the first rooms in order without touching the rest.

# KEYS: lease, leases zset, lobby, lobby order. ARGV: holder value, room. The room is
# finished: no lease, nothing due, not listed.
FORGET = """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('DEL', KEYS[1])
redis.call('ZREM', KEYS[2], ARGV[2])
redis.call('HDEL', KEYS[3], ARGV[2])
redis.call('ZREM', KEYS[4], ARGV[2])
return 1
"""

# KEYS: lease, lobby, lobby order. ARGV: holder value, room, summary (empty: take the room
# off the list).
PUBLISH = """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
if ARGV[3] == '' then
    redis.call('HDEL', KEYS[2], ARGV[2])
    redis.call('ZREM', KEYS[3], ARGV[2])
else
    redis.call('HSET', KEYS[2], ARGV[2], ARGV[3])
    redis.call('ZADD', KEYS[3], tonumber(ARGV[2]), ARGV[2])
end
return 1
"""

# KEYS: lobby, lobby order. ARGV: key prefix, limit. The first ``limit`` listed rooms by id
# whose lease lives (rooms of a dead node are passed over until claimed), read a page at a
# time: {room, summary, holder, ms left}.
LOBBY = """
local out = {}
local limit = tonumber(ARGV[2])
local start = 0
while #out < limit do
    local page = redis.call('ZRANGE', KEYS[2], start, start + limit - 1)
    if #page == 0 then break end
    for _, room in ipairs(page) do
        local key = ARGV[1] .. 'lease:' .. room
        local holder = redis.call('GET', key)
        if holder then
            table.insert(out, {room, redis.call('HGET', KEYS[1], room), holder,
                               redis.call('PTTL', key)})
            if #out == limit then break end
        end
    end
    start = start + limit
end
return out
"""

# KEYS: leases zset. ARGV: limit. Rooms whose lease expired or was released: due for a claim.
DUE = _NOW + """
return redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now, 'LIMIT', 0, tonumber(ARGV[1]))
"""

# ARGV: key prefix, rooms... {holder or false, ms left} per room.
LEASES = """
local out = {}
for i = 2, #ARGV do
    local key = ARGV[1] .. 'lease:' .. ARGV[i]
    table.insert(out, {redis.call('GET', key) or false, redis.call('PTTL', key)})
end
return out
"""


class DirectoryUnavailable(Exception):
    """The Redis-protocol server could not be reached or did not answer in time."""


@dataclass(frozen=True)
class NodeInfo:
    id: str
    url: str  # the node's public websocket URL, for redirects
    rooms: int
    players: int
    ttl: float  # seconds until the node counts as dead unless it beats again


@dataclass(frozen=True)
class Lease:
    room: int
    node: str
    epoch: int
    ttl: float  # seconds left


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def _holder(node: str, epoch: int) -> str:
    return f"{epoch} {node}"


def _parse_holder(room: int, value: Any, ttl_ms: Any) -> Lease:
    epoch, node = _text(value).split(" ", 1)
    return Lease(room, node, int(epoch), max(0, int(ttl_ms)) / 1000)


def _node(row: Any) -> NodeInfo:
    node_id, url, rooms, players, ttl = row
    return NodeInfo(_text(node_id), _text(url), int(rooms or 0), int(players or 0),
                    max(0, int(ttl)) / 1000)


class Directory:
    """The live directory for one node (or a test). Use as ``async with Directory(url) as d``.

    ``timeout`` bounds every call (seconds, default 2); ``prefix`` separates clusters (or
    tests) that share one server."""

    def __init__(self, url: str, *, prefix: str = DEFAULT_PREFIX, timeout: float = 2.0,
                 connect_timeout: float = 1.0) -> None:
        self.url = url
        self.prefix = prefix
        self.timeout = timeout
        # A connection broken by a server restart is replaced on the spot (one retry); a slow
        # answer is not retried: the caller's deadline is the point.
        self.client: coredis.Redis[bytes] = coredis.Redis.from_url(
            url, decode_responses=False, connect_timeout=connect_timeout,
            stream_timeout=timeout, max_idle_time=30, client_name="arbiter",
            retry_policy=ConstantRetryPolicy((coredis.exceptions.ConnectionError,),
                                             retries=1, delay=0.05))
        self._stack = contextlib.AsyncExitStack()
        self.failures = 0  # calls that raised DirectoryUnavailable (for /metrics)
        self._scripts = {name: self.client.register_script(source) for name, source in (
            ("heartbeat", HEARTBEAT), ("leave", LEAVE), ("nodes", NODES), ("place", PLACE),
            ("acquire_many", ACQUIRE_MANY), ("renew", RENEW),
            ("release", RELEASE), ("forget", FORGET),
            ("publish", PUBLISH), ("lobby", LOBBY), ("due", DUE), ("leases", LEASES))}

    async def __aenter__(self) -> Self:
        # coredis's client holds a task group for its connections: it must be entered and
        # left by the task that uses this directory, with no scope of ours in between.
        # Entering does no I/O (connections are made on first use, within our timeouts).
        await self._stack.enter_async_context(self.client)
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self._stack.aclose()

    # ------------------------------------------------------------------ plumbing

    def _key(self, *parts: object) -> str:
        return self.prefix + ":".join(str(p) for p in parts)

    async def _bounded(self, what: str, call: Callable[[], Awaitable[T]]) -> T:
        try:
            with trio.fail_after(self.timeout):
                return await call()
        except trio.TooSlowError:
            self.failures += 1
            raise DirectoryUnavailable(
                f"{what}: the Redis server at {self.url} did not answer within "
                f"{self.timeout:g} s") from None
        except (coredis.exceptions.ConnectionError, TimeoutError, OSError) as exc:
            self.failures += 1
            raise DirectoryUnavailable(
                f"{what}: the Redis server at {self.url} is unreachable: {exc}") from exc

    async def _script(self, name: str, keys: Iterable[str], args: Iterable[Any]) -> Any:
        script = self._scripts[name]
        return await self._bounded(name, lambda: script(list(keys), list(args)))

    async def ping(self) -> None:
        """Raises :class:`DirectoryUnavailable` unless the server answers (for /healthz)."""
        await self._bounded("ping", self.client.ping)

    # ------------------------------------------------------------------ nodes

    async def heartbeat(self, node: str, *, url: str, rooms: int, players: int,
                        ttl: float) -> None:
        """Say that ``node`` is alive for ``ttl`` more seconds, and how loaded it is."""
        await self._script("heartbeat", [self._key("node", node), self._key("nodes")],
                           [node, int(ttl * 1000), url, rooms, players])

    async def leave(self, node: str) -> None:
        """A clean shutdown: the node is gone at once, not when its heartbeat expires."""
        await self._script("leave", [self._key("node", node), self._key("nodes")], [node])

    async def nodes(self) -> list[NodeInfo]:
        """The live nodes, by id."""
        rows = await self._script("nodes", [self._key("nodes")], [self.prefix])
        return sorted((_node(r) for r in rows), key=lambda n: n.id)

    async def node(self, node: str) -> NodeInfo | None:
        return next((n for n in await self.nodes() if n.id == node), None)

    async def place(self, *, exclude: Iterable[str] = (), reserve: bool = True
                    ) -> NodeInfo | None:
        """The least-loaded live node (fewest rooms, then players), or None if there is
        none. ``reserve`` counts the new room against it at once."""
        row = await self._script("place", [self._key("nodes")],
                                 [self.prefix, "1" if reserve else "0", *exclude])
        return None if not row else _node(row)

    # ------------------------------------------------------------------ leases

    async def acquire(self, room: int, *, node: str, epoch: int, ttl: float) -> bool:
        """Take ``room``'s lease for ``ttl`` seconds if it is free (or already this exact
        lease); False if another holder has it (:meth:`acquire_many` for one room)."""
        return room in await self.acquire_many({room: epoch}, node=node, ttl=ttl)

    async def acquire_many(self, leases: Mapping[int, int], *, node: str, ttl: float
                           ) -> set[int]:
        """:meth:`acquire` for many rooms (room -> epoch) in one round trip; returns the
        rooms whose lease ``node`` now holds."""
        if not leases:
            return set()
        args: list[Any] = [self.prefix, int(ttl * 1000)]
        for room, epoch in sorted(leases.items()):
            args += [room, _holder(node, epoch)]
        taken = await self._script("acquire_many", [self._key("leases")], args)
        return {int(room) for room in taken}

    async def renew(self, leases: Mapping[int, int], *, node: str, ttl: float) -> set[int]:
        """Extend every lease in ``leases`` (room -> epoch) that ``node`` still holds by
        ``ttl`` seconds, in one round trip; return the rooms whose lease was lost (expired,
        or taken by another holder): the node must stop serving them."""
        if not leases:
            return set()
        args: list[Any] = [self.prefix, int(ttl * 1000)]
        for room, epoch in leases.items():
            args += [room, _holder(node, epoch)]
        lost = await self._script("renew", [self._key("leases")], args)
        return {int(r) for r in lost}

    async def release(self, room: int, *, node: str, epoch: int, lapsed_too: bool = False
                      ) -> bool:
        """Hand the room over: drop the lease now (only its holder can) and mark the room
        due for a claim. False if ``node`` did not hold it. With ``lapsed_too``, a room
        whose lease is gone altogether is made due as well (its owner, in the log, is
        ``node``: a restart's rooms)."""
        return bool(await self._script(
            "release", [self._key("lease", room), self._key("leases")],
            [_holder(node, epoch), room, "1" if lapsed_too else "0"]))

    async def forget(self, room: int, *, node: str, epoch: int) -> bool:
        """The room is finished: no lease, nothing due, off the lobby (holder only)."""
        return bool(await self._script(
            "forget", [self._key("lease", room), self._key("leases"), self._key("lobby"),
                       self._key("lobby", "order")], [_holder(node, epoch), room]))

    async def lease(self, room: int) -> Lease | None:
        return (await self.leases([room]))[room]

    async def leases(self, rooms: Iterable[int]) -> dict[int, Lease | None]:
        """The live lease of each room, if any (one round trip)."""
        wanted = list(rooms)
        if not wanted:
            return {}
        rows = await self._script("leases", [], [self.prefix, *wanted])
        return {room: None if not value else _parse_holder(room, value, ttl)
                for room, (value, ttl) in zip(wanted, rows, strict=True)}

    async def due(self, limit: int = 100) -> list[int]:
        """Rooms whose lease expired (their node died) or was released (a handover), and
        that nobody has claimed since: each wants a live node to claim it."""
        rows = await self._script("due", [self._key("leases")], [limit])
        return [int(r) for r in rows]

    # ------------------------------------------------------------------ lobby

    async def publish(self, room: int, summary: Mapping[str, Any] | None, *, node: str,
                      epoch: int) -> bool:
        """List the room in the lobby with ``summary`` (None: take it off), if ``node``
        holds its lease under ``epoch``; False otherwise."""
        packed = b"" if summary is None else cast(bytes, msgpack.packb(dict(summary),
                                                                       use_bin_type=True))
        return bool(await self._script(
            "publish", [self._key("lease", room), self._key("lobby"),
                        self._key("lobby", "order")], [_holder(node, epoch), room, packed]))

    async def lobby(self, limit: int) -> list[tuple[int, dict[str, Any], Lease]]:
        """The first ``limit`` listed rooms by id whose lease lives (a dead node's rooms drop
        out until claimed): (room, summary, lease). Costs Redis about ``limit`` rooms' work,
        however many the cluster holds."""
        rows = await self._script("lobby", [self._key("lobby"), self._key("lobby", "order")],
                                  [self.prefix, limit])
        out = []
        for room_raw, summary, holder, ttl in rows:
            room = int(room_raw)
            out.append((room, msgpack.unpackb(summary, raw=False, strict_map_key=False),
                        _parse_holder(room, holder, ttl)))
        return sorted(out, key=lambda entry: entry[0])
