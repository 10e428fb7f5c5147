"""A node of a cluster: the same transport and room core as the embedded server, with the
log in PostgreSQL (:mod:`.pglog`) and the live directory in Redis or Valkey (:mod:`.directory`)
(docs/cluster.md).

What the node adds to the embedded server, each in one place:

- **Writing.** :class:`ClusterWriter` writes each batch under the epochs of the rooms this node
  owns; PostgreSQL refuses a room another node has claimed (fencing), and the gate drops what
  those records caused. A batch that cannot be written at all (PostgreSQL away) drops what it
  caused too; its rooms are let go and rebuilt from the log once it answers, and meanwhile the
  core refuses writes with ``unavailable``.
- **Lookups.** The core (a hub with ``ClusterRouting``) asks before it says a session or a room
  does not exist, and where a new room goes; :meth:`ClusterNode._resolve` finds out (the log,
  the directory, or by taking a room nobody holds) and hands the frame back.
- **Leases.** :meth:`ClusterNode._beat` keeps the node alive in the directory, renews the
  leases of its rooms and lists them in the lobby; a room whose lease was lost is let go at
  once.
- **Claims.** :meth:`ClusterNode._claim` takes over rooms whose lease lapsed (their node died)
  or was handed over, replays them from the log (every recorded state hash checked) and
  resumes them with fresh grace periods.
- **Leaving.** :meth:`ClusterNode.shutdown` closes every connection (1012: come back), writes
  the last batch, hands every room over and leaves the directory, so that other nodes take
  the rooms at once instead of waiting for the leases to lapse.

The node does the awaits; the decisions are pure and tested without servers: when to beat,
which leases to take, renew and give up, which rooms to claim (:mod:`.leases`), and what a
lookup answers (:mod:`.lookups`). The core learns what the node finds out through its inputs
(``Hub.log_availability``, ``remote_lobby``, ``redirect``, ``release_room``, ``lookup_failed``).
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import assert_never

import trio

from arbiter.protocol import ids as room_ids
from arbiter.protocol.codec import pack
from arbiter.protocol.errors import Code
from arbiter.protocol.server_messages import Error, encode
from arbiter.server.net.connection import END, Connection
from arbiter.server.net.metrics import Sample
from arbiter.server.net.server import ServerBase, ServerConfig
from arbiter.server.rooms.context import SeededEntropy
from arbiter.server.rooms.effects import SERVICE_RESTART, Effects, Lookup, LookupKind, Resolved
from arbiter.server.rooms.hub import ROOM_LIST_MAX, Hub
from arbiter.server.rooms.peers import Peer
from arbiter.server.rooms.routing import ClusterRouting
from arbiter.server.store.gate import NO_ROOM, Sink, WriteFailed
from arbiter.server.store.records import Record, RoomCreated
from arbiter.server.store.rows import StoredRoom

from . import lookups as steps
from . import public_url, reachability
from .archive import PgArchive
from .directory import Directory, DirectoryUnavailable, NodeInfo
from .idpool import IdPool
from .leases import Beats, ClaimGrace, Holdings, claim_batches
from .ownership import hand_over, take_over_many
from .pglog import ClusterLog, LogUnavailable, RoomBusy, RowsExist
from .settings import ClusterSettings
from .write_retry import RetrySchedule, probes

log = logging.getLogger("arbiter.cluster")


# Rooms a claim round reads from the directory's due list (a node then claims its share).
CLAIM_ROUND = 500


class OwnerSilent(Exception):
    """A room's lease names a node that no longer beats, and did not lapse in time."""


class NotServedYet(Exception):
    """A lookup said a followed room is here, but the core does not serve it yet."""


# What keeps a lookup from being answered just now: its client hears ``unavailable``.
UNANSWERED = (DirectoryUnavailable, LogUnavailable, OwnerSilent, RoomBusy, NotServedYet)


class ClusterWriter:
    """Writes the gate's batches to PostgreSQL under the epoch of each room's owner (this
    node). Records of rooms this node does not own are refused without being sent; a new room
    is owned at epoch 1 from its first record.

    A batch PostgreSQL does not take is tried again, with pauses that double, for
    ``retry_for`` seconds (:mod:`.write_retry`); ``stalled`` is told the batch's rooms at
    its first failure (the node then refuses new writes and tells their followers
    ``unavailable``, keeping them connected), ``resumed`` once it is written. A batch whose
    answer was lost is first looked for in the log. A batch still unwritten when the time is
    up, one partly found, or one meeting rows already in the log raises :class:`WriteFailed`
    (its rooms are let go and rebuilt)."""

    def __init__(self, log: ClusterLog, epochs: dict[int, int], *, retry_for: float = 0.0,
                 stalled: Callable[[frozenset[int], str], None] = lambda rooms, why: None,
                 resumed: Callable[[], None] = lambda: None,
                 lease_new: Callable[[list[int]], Awaitable[None]] | None = None) -> None:
        self.log = log
        self.epochs = epochs
        self.lease_new = lease_new
        self.retry_for = retry_for
        self.stalled, self.resumed = stalled, resumed
        self.retried = 0  # batches written on a later try (for /metrics)

    async def write(self, records: Sequence[Record]) -> frozenset[int]:
        epochs = self.epochs
        foreign: set[int] = set()
        # The batch's rooms and their epochs now: while the write is out, the lease task may
        # let a room go; the batch is written under the epochs it was made under (PostgreSQL
        # fences it if that is stale). Only the batch's rooms: a node holds hundreds.
        under: dict[int, int] = {}
        for r in records:
            if isinstance(r, RoomCreated):
                under[r.room] = epochs.setdefault(r.room, 1)
            else:
                room = getattr(r, "room", None)
                if room is None or room in under or room in foreign:
                    continue
                epoch = epochs.get(room)
                if epoch is None:
                    foreign.add(room)
                else:
                    under[room] = epoch
        batch = [r for r in records if getattr(r, "room", None) not in foreign] \
            if foreign else records
        new = [r.room for r in batch if isinstance(r, RoomCreated)]
        if new and self.lease_new is not None:
            # Leased before the creation is written, and so before ``created`` is answered
            # (docs/cluster.md, "Fencing", step 1): a room with no lease is one that any
            # node's lookup takes over, and the creator's opponent, joining through another
            # node a moment later, would take it from its creator (bench/cluster.py chaos).
            await self.lease_new(new)
        schedule = RetrySchedule(self.retry_for)
        lost = False  # a try's answer was lost: the batch may be in the log already
        told = False  # the batch's rooms were said to stall
        while True:
            try:
                if lost:
                    await self.log.end_lost_batches()  # its fate is final from here on
                    found = await self.log.written(probes(batch, under))
                    if found and all(found):
                        fenced = await self._claimed_meanwhile(under)  # written: done
                        break
                    if any(found):  # a try written without some rooms: not to be redone
                        raise WriteFailed("part of a batch whose answer was lost is in the "
                                          "log; its rooms are rebuilt from it")
                fenced = await self.log.write_dropping_fenced(batch, under)
                break
            except RowsExist as exc:  # nothing written: the log holds what is to be rebuilt
                raise WriteFailed(str(exc)) from exc
            except LogUnavailable as exc:
                lost = lost or exc.outcome_unknown
                pause = schedule.next(trio.current_time())
                if pause is None:
                    raise WriteFailed(str(exc)) from exc
                if not told:  # once a batch: its followers hear it, and stay
                    told = True
                    self.stalled(frozenset(under), str(exc))
                await trio.sleep(pause)
        if told:
            self.retried += 1
            self.resumed()
        return fenced | foreign

    async def _claimed_meanwhile(self, under: Mapping[int, int]) -> frozenset[int]:
        """Rooms of a batch found written after its answer was lost that the log no longer
        gives this node at the batch's epoch: a try before the lost one may have been fenced
        for them and the lost one written without them, so their frames must not go out."""
        owners = await self.log.owners_of(sorted(under))
        return frozenset(room for room, epoch in under.items()
                         if room not in owners or owners[room].epoch != epoch
                         or owners[room].owner != self.log.node)


class PoolIds:
    """Room and game numbers for the core, from the cluster's shared sequences."""

    def __init__(self, rooms: IdPool, games: IdPool, on_low: Callable[[], None]) -> None:
        self.rooms, self.games, self.on_low = rooms, games, on_low

    def next_room(self) -> int:
        return self._taken(self.rooms, self.rooms.take())

    def next_game(self) -> int:
        return self._taken(self.games, self.games.take())

    async def room_waiting(self) -> int:
        """A room number for a create that may wait (its placement lookup): with none in
        hand, it waits for a block rather than failing."""
        return self._taken(self.rooms, await self.rooms.take_waiting())

    def _taken(self, pool: IdPool, number: int) -> int:
        if pool.low:
            self.on_low()  # ClusterNode._keep_ids refills it
        return number


@dataclass
class NodeStats:
    claims: int = 0  # rooms taken over from another node (or a previous run of this one)
    claim_failures: int = 0  # rooms claimed whose log did not replay
    leases_lost: int = 0  # rooms let go because their lease was lost
    leases_reasserted: int = 0  # lapsed leases taken again: the log still gave us the room
    fenced: int = 0  # rooms let go because PostgreSQL refused their writes
    handed_over: int = 0  # rooms given up by a clean shutdown
    reloads: int = 0  # rooms rebuilt after a write whose outcome was unknown
    lookups: int = 0  # requests that waited for the directory or the log
    lobby_reads: int = 0  # reads of the lobby's first page, for room lists


class ClusterNode(ServerBase):
    fencing = True

    def __init__(self, config: ServerConfig, cluster: ClusterSettings) -> None:
        if config.port == 0 and (cluster.node_id is None or cluster.public_url is None):
            raise ValueError("a cluster node needs a fixed --port, or both --node-id and "
                             "--public-url")
        self.cluster = cluster
        self.node_id = cluster.node_id or f"{config.host}:{config.port}"
        self.url = cluster.public_url or f"ws://{config.host}:{config.port}/"
        self.public = public_url.parse(self.url)  # ValueError, naming the flag: no start
        # Three connections for writes, lookups and the claim loop, and one more for each
        # claim made in parallel, so that a failover's replays do not queue the writes of
        # the rooms this node already serves.
        self.log = ClusterLog(cluster.postgres, node=self.node_id,
                              connections=3 + cluster.claims_at_once,
                              timeout=cluster.log_timeout)
        self.directory = Directory(cluster.redis, prefix=cluster.prefix,
                                   timeout=cluster.directory_timeout)
        self._ids_low = trio.Event()  # wakes the task that keeps the id pools full
        self.room_ids = IdPool(self.log, "rooms", block=32, low_water=8)
        self.game_ids = IdPool(self.log, "games", block=128, low_water=32)
        entropy = SeededEntropy(config.seed) if config.seed is not None else None
        self.ids = PoolIds(self.room_ids, self.game_ids, lambda: self._ids_low.set())
        hub = Hub(config.hub, config.limits, entropy=entropy, routing=ClusterRouting(),
                  ids=self.ids)
        self.holdings = Holdings()  # the rooms this node owns, and their leases
        self.writer = ClusterWriter(self.log, self.holdings.epochs,
                                    retry_for=cluster.write_retry_for, stalled=self._stalled,
                                    resumed=lambda: self._fine("postgres"),
                                    lease_new=self._lease_new)
        super().__init__(config, hub, self.writer)
        self.archive = PgArchive(self.log)  # replays and histories of any node's games
        self._takes: dict[int, trio.Event] = {}  # rooms in holdings.taking -> set when done
        self.beats = Beats(cluster.beat)
        self.grace = ClaimGrace(cluster.claim_grace)  # claims wait after a Redis outage
        self.problems: dict[str, str] = {}  # "redis"/"postgres" -> why it cannot be reached
        self.stats = NodeStats()
        self.stopping = False
        self._poke = trio.Event()  # a new room: lease it and list it now, not at the next beat
        self._lobby_lock = trio.Lock()  # one lobby read at a time (see _read_lobby)
        self._nursery: trio.Nursery | None = None  # the node's own tasks, once it runs
        self.reachable = reachability.Reachability(keep=cluster.beat)

    def __repr__(self) -> str:
        return f"<ClusterNode {self.node_id}>"

    # ------------------------------------------------------------------ running

    @contextlib.asynccontextmanager
    async def services(self) -> AsyncIterator[object]:
        async with self.directory, self.log:
            yield self

    async def recover(self) -> list[str]:
        """At start: rooms this node's previous run owned are handed over at once (they
        become due, and any node, this one included, claims and replays them), and the id
        pools are filled."""
        await self.room_ids.refill()
        await self.game_ids.refill()
        lines = []
        for owner in await self.log.owners():
            if owner.owner == self.node_id:
                with contextlib.suppress(DirectoryUnavailable):
                    # Lapsed too: a room whose lease went while it was still this
                    # node's (issue 27.3) is claimed again, not left with no owner at all.
                    await self.directory.release(owner.room, node=self.node_id,
                                                 epoch=owner.epoch, lapsed_too=True)
                lines.append(f"room {owner.room} (held by this node's previous run) is up for "
                             "a claim")
        if self.port:  # listening (a node in a test's process may not be)
            for problem in await self._public_url_problems():
                log.warning("%s", problem)
        self.beats.beaten(trio.current_time())
        await self._heartbeat()
        return lines

    async def _public_url_problems(self) -> list[str]:
        """What is wrong with this node's public URL, as far as it can tell (issue 27.8: a
        node knows itself by its URL when it decides not to redirect to itself)."""
        url = self.public
        addresses: dict[str, bool] = {}
        with contextlib.suppress(OSError):
            for family, _, _, _, sockaddr in await trio.socket.getaddrinfo(
                    url.host, url.port, type=trio.socket.SOCK_STREAM):
                addresses[str(sockaddr[0])] = public_url.is_local(family, str(sockaddr[0]))
        others = {node.id: node.url for node in await self.directory.nodes()}
        return public_url.url_problems(url, listen_host=self.config.host,
                                       listen_port=self.port or 0, addresses=addresses,
                                       others=others, me=self.node_id)

    def background(self, nursery: trio.Nursery) -> None:
        self._nursery = nursery  # for lookups tried again later (_follow_later)
        nursery.start_soon(self._beat)
        nursery.start_soon(self._claim)
        nursery.start_soon(self._keep_ids)

    async def shutdown(self) -> None:
        """Leave cleanly: clients are told to come back (1012), the last batch is written,
        then every room is handed over so another node claims it at once."""
        self.stopping = True
        await super().shutdown()
        # Nothing more is accepted for the rooms going away.
        self.apply(self.hub.log_availability(False, trio.current_time()))
        await self.gate.flush()
        held = self.holdings
        with trio.move_on_after(self.cluster.lease):
            for room, epoch in sorted(held.renewals().items()):
                with contextlib.suppress(DirectoryUnavailable):
                    if await hand_over(room, node=self.node_id, epoch=epoch,
                                       directory=self.directory):
                        self.stats.handed_over += 1
            held.leased.clear()
            with contextlib.suppress(DirectoryUnavailable):
                await self.directory.leave(self.node_id)

    # ------------------------------------------------------------------ refusals

    def refused(self, rooms: frozenset[int], lost: set[Sink], failed: WriteFailed | None
                ) -> None:
        """The log refused ``rooms`` (another node claimed them) or could not write a batch
        (``failed``): let those rooms go (their followers are closed with 1012 and sent on
        when they come back), and close whoever lost frames with them."""
        now = trio.current_time()
        rooms = rooms - {NO_ROOM}
        if failed is not None:
            self._trouble("postgres", str(failed))
            self.holdings.outcome_unknown(rooms)  # still ours, as far as we know: rebuild
        for room in sorted(rooms):
            if failed is None:
                self.stats.fenced += 1
                self.holdings.forget(room)
                log.warning("room %d: another node owns it now; letting it go", room)
            self.apply(self.hub.release_room(str(room), None, now))
        for sink in lost:
            if isinstance(sink, Connection) and sink.finish(
                    SERVICE_RESTART, "the cluster could not store what you were sent; "
                                     "reconnect"):
                self.gate.send([sink], END)

    def _stalled(self, rooms: frozenset[int], why: str) -> None:
        """A batch of ``rooms`` was not written and is tried again (ClusterWriter): new writes
        are refused meanwhile, and the rooms' followers hear ``unavailable`` naming the room
        (an error with no request id) and keep their connections: their last actions are
        acknowledged once the batch is in, or, if PostgreSQL stays away, they are closed with
        1012 as before. Sent at once, past the gate: the notice causes nothing, and the
        gate's queue waits behind the very batch it is about."""
        self._trouble("postgres", why)
        for room in sorted(rooms - {NO_ROOM}):
            holder = self.hub.matches.get(str(room)) or self.hub.events.get(str(room))
            if holder is None:
                continue
            frame = pack(encode(Error(Code.UNAVAILABLE, f"{why}: the last actions in room "
                                      f"{room} wait to be stored; stay connected", None,
                                      str(room))))
            for peer in holder.members():
                if peer.reading:
                    peer.sink.deliver_all((frame,))

    def _trouble(self, service: str, why: str) -> None:
        if service not in self.problems:
            log.warning("cannot reach %s: %s", service, why)
        self.problems[service] = why
        if service == "postgres":
            self.apply(self.hub.log_availability(False, trio.current_time()))

    def _fine(self, service: str) -> None:
        if self.problems.pop(service, None) is not None:
            log.info("%s answers again", service)
            if service == "redis":  # leases may have lapsed: owners take them again first
                self.grace.back(trio.current_time())
        if service == "postgres":
            self.apply(self.hub.log_availability(not self.stopping, trio.current_time()))

    # ------------------------------------------------------------------ lookups

    async def look_up(self, peer: Peer, effects: Effects) -> None:
        # A lookup answered may raise another (a session, then its room): a bounded few.
        for _ in range(3):
            if not effects.lookups:
                break
            effects = await self._resolve(peer, effects.lookups)

    async def _resolve(self, peer: Peer, lookups: list[Lookup]) -> Effects:
        """Find out what ``lookups`` ask, then hand their frame back to the core."""
        self.stats.lookups += 1
        resolved = Resolved()
        frame: bytes | None = None
        try:
            for lookup in lookups:
                if lookup.frame is None:  # a followed room that is not here: send the peer on
                    await self._follow(peer, lookup, retry=True)
                    continue
                frame = lookup.frame
                match lookup.kind:
                    case LookupKind.SESSION:
                        await self._find_session(lookup.key)
                        resolved.sessions.add(lookup.key)
                    case LookupKind.ROOM:
                        resolved.rooms[lookup.key] = await self._where(lookup.key)
                    case LookupKind.LOBBY:
                        await self._read_lobby()
                        resolved.lobby = True
                    case LookupKind.PLACE:
                        resolved.placed = True
                        resolved.place = await self._place()
                        if resolved.place is None:
                            resolved.number = await self.ids.room_waiting()
        except UNANSWERED as exc:
            self.apply(self.hub.lookup_failed(peer, frame, self._unanswered(exc),
                                              trio.current_time()))
            return Effects()
        if frame is None:
            return Effects()
        effects = self.hub.receive(peer, frame, trio.current_time(), resolved)
        self.apply(effects)
        return effects

    def _unanswered(self, exc: Exception) -> str:
        """Why a lookup could not be answered, for its client (a service away is noted)."""
        if isinstance(exc, OwnerSilent | RoomBusy | NotServedYet):
            return str(exc)
        self._trouble("redis" if isinstance(exc, DirectoryUnavailable) else "postgres",
                      str(exc))
        return "the cluster's directory or log cannot be reached just now"

    async def _follow(self, peer: Peer, lookup: Lookup, *, retry: bool,
                      final: bool = False) -> bool:
        """Where a room ``peer`` follows (said in its hello) is: the peer is sent there, or
        attached here. When that cannot be found out just now, the peer keeps its connection
        and hears ``unavailable`` for the room; with ``retry``, a task of the node looks
        again until it can tell (:meth:`_follow_later`). True once the peer is sent on."""
        try:
            url, nowhere = await self._find(lookup.key)
            if url is None and not nowhere and not self._hosted(
                    room_ids.match_number(lookup.key)) and not final:
                # "Here", yet the core does not serve it: a rebuild or a hand-over under way
                # (or one that failed). Only the log's word that the match is over closes a
                # room for a player who stayed connected (issue 27: a player once heard
                # room_closed for a live room in the chaos test); look again.
                raise NotServedYet(f"room {lookup.key} is being restored on this node")
        except UNANSWERED as exc:
            why = self._unanswered(exc)
            if retry:
                self.apply(self.hub.lookup_failed(peer, None, why, trio.current_time(),
                                                  lookup.key))
                if self._nursery is not None:
                    self._nursery.start_soon(self._follow_later, peer, lookup)
            return False
        self.apply(self.hub.redirect(peer, lookup.key, url, trio.current_time(),
                                     lookup.resume))
        return True

    async def _follow_later(self, peer: Peer, lookup: Lookup) -> None:
        """Look for a followed room again, a claim period after the last try and twice as
        long after each failure up to a lease, while the peer stays connected. A room said to
        be here but not served is looked for within the lookups' patience; after it, what
        the lookup says is taken as it is."""
        pause = self.cluster.claim_every
        give_up = trio.current_time() + self.cluster.lookup_patience
        while True:
            await trio.sleep(pause)
            final = trio.current_time() >= give_up
            if not peer.reading or await self._follow(peer, lookup, retry=False, final=final):
                return
            pause = min(2 * pause, self.cluster.lease)

    async def _read_lobby(self) -> None:
        """The other nodes' rooms, for a room list: the first page of the directory's lobby
        (as many rooms as a list shows), this node's own left out (the core lists those).
        Room lists that ask at once share one read: a read made while one waited is used."""
        async with self._lobby_lock:
            if self.hub.lobby_fresh(trio.current_time()):
                return
            entries = await self.directory.lobby(ROOM_LIST_MAX)
            self.apply(self.hub.remote_lobby({str(room): summary for room, summary, lease
                                              in entries if lease.node != self.node_id},
                                             trio.current_time()))
            self.stats.lobby_reads += 1

    async def _find_session(self, token: str) -> None:
        name = await self.log.session(token)
        if name is not None:
            self.hub.restore_sessions({token: name})

    async def _where(self, room_id: str) -> str | None:
        """The URL of the live node that holds ``room_id``; None when it is here (or now is:
        nobody held it, so this node took it) or when it is nowhere (:mod:`.lookups` decides;
        this does what it says). :class:`OwnerSilent` when its holder has stopped beating
        and the lease did not lapse within the lookup's patience."""
        return (await self._find(room_id))[0]

    async def _find(self, room_id: str) -> tuple[str | None, bool]:
        """:meth:`_where`, and whether the answer None means nowhere (the room's match is over,
        or never was) rather than here."""
        try:
            room = room_ids.match_number(room_id)
        except room_ids.RoomIdError:  # no match's room id: no match anywhere
            return None, True
        look = steps.RoomLookup(room, node=self.node_id, url=self.url,
                                pause=self.cluster.claim_every,
                                patience=self.cluster.lookup_patience)
        while True:
            step = look.next(self.holdings, trio.current_time())
            match step:
                case steps.Here():
                    return None, False
                case steps.Nowhere():
                    return None, True
                case steps.Elsewhere(url):
                    return url, False
                case steps.GiveUp():
                    raise OwnerSilent(
                        f"room {room}'s node has stopped answering and still holds it; "
                        f"another node takes it over within {self.cluster.lease:g} s")
                case steps.Rebuild():
                    await self._reload(room)
                case steps.AwaitTake():
                    await self._take(room)
                case steps.ReadLease():
                    look.lease_read(await self.directory.lease(room))
                case steps.Take():
                    # Just after a Redis outage a free lease may be one its live owner is
                    # about to take again: give it the time (ClaimGrace), then try.
                    await trio.sleep(self.grace.wait(trio.current_time()))
                    look.took(await self._take(room))
                case steps.ReadState():
                    owner = await self.log.owner(room)
                    look.state_read(owner is not None and owner.state != "finished")
                case steps.ReleaseStale(epoch):
                    await self.directory.release(room, node=self.node_id, epoch=epoch)
                case steps.ReadHolder(node):
                    look.holder_read(await self._answering(await self.directory.node(node)))
                case steps.Pause(seconds):
                    await trio.sleep(seconds)
                case _:
                    assert_never(step)

    async def _answering(self, holder: NodeInfo | None) -> NodeInfo | None:
        """``holder`` if it answers at its URL: a node killed a moment ago is still listed,
        and is never a redirect's target (issue 27.4); None counts as silent."""
        if holder is None or holder.url == self.url:
            return holder
        now = trio.current_time()
        answered = self.reachable.known(holder.url, now)
        if answered is None:
            answered = False
            target = reachability.address(holder.url)
            if target is not None:
                with trio.move_on_after(self.cluster.beat / 2), \
                        contextlib.suppress(OSError):
                    stream = await trio.open_tcp_stream(*target)
                    await stream.aclose()
                    answered = True
            self.reachable.found(holder.url, trio.current_time(), answered)
        return holder if answered else None

    async def _place(self) -> str | None:
        """Where a new room goes (None: here)."""
        best = await self._answering(await self.directory.place(reserve=False))
        return steps.placement(best, node=self.node_id, url=self.url, rooms=len(self.hub.matches))

    # ------------------------------------------------------------------ claiming

    async def _take(self, room: int) -> bool:
        """Take ``room`` over if nobody holds it, and bring it back from the log; True when
        this node holds it afterwards. A take already under way (the claim loop's, another
        request's) is waited for, not raced."""
        under_way = self._takes.get(room)
        if under_way is not None:
            await under_way.wait()
            return room in self.holdings.epochs
        # Held already (taken meanwhile by another task, or its lease lost in a Redis
        # outage): True without a claim (Holdings.claimable).
        return bool(await self._take_batch([room])) or room in self.holdings.epochs

    async def _take_batch(self, rooms: Sequence[int]) -> list[int]:
        """Take over those of ``rooms`` that nobody holds, in one claim batch (the owners,
        the leases and the claims in three round trips, the logs in one snapshot), then
        replay each into the core; returns the rooms this node holds afterwards. Rooms held
        here or being taken by another task are left out. A failure before a room is
        restored hands back the claims of the batch (their leases released: due again), so
        that no room stays claimed and leased yet missing from the core."""
        rooms = self.holdings.claimable(rooms)
        if self.stopping or not rooms:
            return []
        with contextlib.ExitStack() as taking:
            for room in rooms:
                taking.enter_context(self._taking(room))
            epochs = await take_over_many(rooms, node=self.node_id, log=self.log,
                                          directory=self.directory, ttl=self.cluster.lease)
            for room, epoch in sorted(epochs.items()):
                self.holdings.claimed(room, epoch)
                self.stats.claims += 1
            try:
                stored = await self.log.stored_rooms(sorted(epochs))
            except BaseException:
                with trio.CancelScope(shield=True):
                    await self._hand_back(epochs)
                raise
            held = []
            for room in sorted(epochs):
                if await self._claimed(room, stored.get(room)):
                    held.append(room)
                await trio.sleep(0)  # a replay is the core's work: connections run between
            return held

    async def _claimed(self, room: int, stored: StoredRoom | None) -> bool:
        """A claimed room's log read: restore it into the core. True if held afterwards."""
        # Not restored and still held: its log did not replay (a room finished meanwhile,
        # or a match given up to its event's node, is no longer held).
        if not await self._restore_stored(room, stored) and room in self.holdings.epochs:
            self.stats.claim_failures += 1
        if room in self.holdings.epochs:
            log.info("room %d taken over at epoch %d", room, self.holdings.epochs[room])
            return True
        # Let go during its replay (lease lost, fenced): the core must not keep it.
        self._drop_unowned(room, "it was let go while it was being restored")
        return False

    async def _hand_back(self, epochs: dict[int, int]) -> None:
        """Claims whose logs could not be read: let go, their leases released, so that they
        are due again (this node's next round, or another node, claims them anew)."""
        for room, epoch in sorted(epochs.items()):
            self.holdings.forget(room)
            with contextlib.suppress(DirectoryUnavailable):
                await self.directory.release(room, node=self.node_id, epoch=epoch)

    @contextlib.contextmanager
    def _taking(self, room: int) -> Iterator[None]:
        """``room`` is being taken over or rebuilt: lookups and other takes that meet it wait
        (see :meth:`_take`) until it is restored, or given up."""
        done = self._takes[room] = trio.Event()
        self.holdings.taking.add(room)
        try:
            yield
        finally:
            del self._takes[room]
            self.holdings.taking.discard(room)
            done.set()

    def _hosted(self, room: int) -> bool:
        """Whether the core serves ``room`` (a match or an event) just now."""
        return str(room) in self.hub.matches or str(room) in self.hub.events

    def _drop_unowned(self, room: int, why: str) -> None:
        """The core serves ``room`` but this node does not own it (no epoch to write under):
        none of its writes could be stored. Its followers are closed with 1012 and come back
        to whichever node owns it."""
        if self._hosted(room) and room not in self.holdings.epochs:
            log.warning("room %d: served here without being owned (%s); letting it go",
                        room, why)
            self.apply(self.hub.release_room(str(room), None, trio.current_time()))

    async def _restore(self, room: int) -> bool:
        return await self._restore_stored(room, await self.log.stored_room(room))

    async def _restore_stored(self, room: int, stored: StoredRoom | None) -> bool:
        if stored is None:  # finished meanwhile
            await self._let_go(room)
            return False
        if self._hosted(room):
            # Never restored over a live room: its players' connections would stay attached
            # to the room replaced, and their next actions refused (issue 27.2). The live one
            # goes first (its followers come back to the restored one).
            log.warning("room %d: restoring it over the live room; the live one is let go",
                        room)
            self.apply(self.hub.release_room(str(room), None, trio.current_time()))
        line, effects = self.hub.restore_room(stored, trio.current_time())
        self.apply(effects)
        log.info("%s", line)
        if str(room) in self.hub.events:
            await self._take_matches(room)
        event = self.hub.desk.stray_match(str(room))
        if event is not None and not await self._take(int(event)):
            await self._give_up(room, f"its event {event} lives on another node")
            return False
        return str(room) in self.hub.matches or str(room) in self.hub.events

    async def _take_matches(self, event: int) -> None:
        """An event and the match rooms of its round live on one node (a match reports its end
        to its event in-process: docs/cluster.md, "Events"): the node holding ``event`` takes
        over those of its open matches that nobody holds. Those it holds or is taking already
        are left alone (one being taken is the take that brought the event here)."""
        for match in await self.log.event_matches(event):
            if match not in self.holdings.epochs and match not in self.holdings.taking:
                await self._take(match)

    async def _give_up(self, room: int, why: str) -> None:
        """Let ``room`` go at once, its lease released so that it is due (for its event's
        node, which takes it with :meth:`_take_matches`): its followers are closed with 1012
        and find it on that node when they come back."""
        epoch = self.holdings.epochs.get(room)
        self.apply(self.hub.release_room(str(room), None, trio.current_time()))
        self.holdings.forget(room)
        log.info("room %d given up: %s", room, why)
        if epoch is not None:
            with contextlib.suppress(DirectoryUnavailable):
                await hand_over(room, node=self.node_id, epoch=epoch, directory=self.directory)

    async def _reload(self, room: int) -> None:
        """Rebuild a room after a write whose outcome is unknown: the log says what holds,
        once the batch whose answer was lost can no longer commit."""
        await self.log.end_lost_batches()
        owner = await self.log.owner(room)
        node, epoch = (owner.owner, owner.epoch) if owner is not None else (None, None)
        if not self.holdings.still_ours(room, node, epoch, self.node_id):
            return  # another node has it now (or it is gone)
        if not self._hosted(room) and room not in self.holdings.taking:
            with self._taking(room):
                self.stats.reloads += 1
                try:
                    await self._restore(room)
                except BaseException:
                    # Not rebuilt (the log went away again): still to be. Otherwise the room
                    # stayed held yet missing from the core, lookups answered "here" for it
                    # (its returning players heard room_closed, then lost by concession) and
                    # the beat took it for finished and deleted its lease (the chaos test).
                    self.holdings.outcome_unknown([room])
                    raise

    async def _let_go(self, room: int) -> None:
        epoch = self.holdings.epochs.get(room)
        self.holdings.forget(room)
        if epoch is not None:
            with contextlib.suppress(DirectoryUnavailable):
                await self.directory.forget(room, node=self.node_id, epoch=epoch)

    async def _keep_ids(self) -> None:
        """Refill an id pool as soon as it runs low. A task of its own: a game starts without
        waiting (the room layer is synchronous) and fails if no game id is in hand, so a
        refill must not queue behind the claim task replaying a dead node's rooms, which can
        take seconds. A refill that fails is tried again by the claim task's rounds."""
        while True:
            await self._ids_low.wait()
            self._ids_low = trio.Event()
            with contextlib.suppress(LogUnavailable):
                await self.room_ids.refill()
                await self.game_ids.refill()

    async def _claim(self) -> None:
        """Keep the id pools full (after a failed refill), rebuild what a failed write left
        unknown, and claim this node's share of the rooms whose lease lapsed or was handed
        over."""
        backlog = False
        while True:
            # A round that claimed rooms may have left more due (a dead node's hundreds): the
            # next round starts at once.
            await trio.sleep(0 if backlog else self.cluster.claim_every)
            backlog = False
            try:
                await self.log.ping()
                self._fine("postgres")
                await self.room_ids.refill()
                await self.game_ids.refill()
                for room in sorted(self.holdings.reload):
                    await self._reload(room)
                if self.stopping:
                    continue
                for event in self.hub.desk.incomplete_events():  # a match given up to this node
                    await self._take_matches(int(event))
                asked = trio.current_time()
                due = await self.directory.due(CLAIM_ROUND)
                if trio.current_time() - asked > self.cluster.beat:
                    # Redis answered, but so late that leases may have lapsed meanwhile.
                    self.grace.back(trio.current_time())
                self._fine("redis")
                if due and not self.grace.wait(trio.current_time()):
                    ids = [n.id for n in await self.directory.nodes()]
                    rank = ids.index(self.node_id) if self.node_id in ids else 0
                    backlog = await self._take_all(self.holdings.to_claim(due, len(ids), rank))
            except LogUnavailable as exc:
                self._trouble("postgres", str(exc))
            except DirectoryUnavailable as exc:
                self._trouble("redis", str(exc))
            except RoomBusy as exc:  # its old owner hangs in a transaction: next round
                log.warning("%s", exc)

    async def _take_all(self, rooms: Sequence[int]) -> bool:
        """Take ``rooms`` over in claim batches (:func:`.leases.claim_batches`), up to
        ``claims_at_once`` batches at a time: one room after another, a node took about
        16 ms a room here (a dead node's 1,000 rooms: 16 s on top of the lease), most of it
        round trips (docs/cluster.md, "Failover at scale"). Each batch is left to end on its
        own, never cancelled half-way (a room claimed and not yet restored would be leased
        and missing); the first service failure is raised once all have ended. True when a
        room was taken (more may be due)."""
        limit = trio.CapacityLimiter(self.cluster.claims_at_once)
        failed: list[LogUnavailable | DirectoryUnavailable] = []
        took = False

        async def take(batch: list[int]) -> None:
            nonlocal took
            async with limit:
                if failed:  # a service failed meanwhile: the rest waits for the next round
                    return
                try:
                    took = bool(await self._take_batch(batch)) or took
                except RoomBusy as exc:  # its old owner hangs in a transaction: next round
                    log.warning("%s", exc)
                except (LogUnavailable, DirectoryUnavailable) as exc:
                    failed.append(exc)

        async with trio.open_nursery() as nursery:
            for batch in claim_batches(rooms, self.cluster.claim_batch):
                nursery.start_soon(take, batch)
        if failed:
            raise failed[0]
        return took

    # ------------------------------------------------------------------ the beat

    async def _heartbeat(self) -> None:
        rooms, players = self.hub.load()
        await self.directory.heartbeat(self.node_id, url=self.url, rooms=rooms,
                                       players=players, ttl=self.cluster.alive_for)

    async def _beat(self) -> None:
        """Say this node is alive, keep its leases, list its rooms; read the other nodes'."""
        while True:
            with trio.move_on_after(self.beats.wait(trio.current_time())):
                await self._poke.wait()
            self._poke = trio.Event()
            self.beats.beaten(trio.current_time())
            try:
                await self._heartbeat()
                await self._keep_leases()
                await self._publish()
                self._fine("redis")
            except DirectoryUnavailable as exc:
                self._trouble("redis", str(exc))

    async def _lease_new(self, rooms: list[int]) -> None:
        """Take the leases of rooms about to be created here (epoch 1). With Redis away they
        are left to the next beat (:meth:`Holdings.to_acquire`), as before: while Redis is
        known to be away, at once, so that the batch (every room's actions in it) does not
        wait out the directory's timeout."""
        if "redis" in self.problems:
            return
        try:
            taken = await self.directory.acquire_many(dict.fromkeys(rooms, 1),
                                                      node=self.node_id, ttl=self.cluster.lease)
        except DirectoryUnavailable as exc:
            self._trouble("redis", str(exc))
            return
        for room in taken:
            if room in self.holdings.epochs:
                self.holdings.acquired(room)

    async def _keep_leases(self) -> None:
        directory, me, ttl, held = self.directory, self.node_id, self.cluster.lease, self.holdings
        for room, epoch in held.to_acquire().items():  # new rooms: epoch 1
            if await directory.acquire(room, node=me, epoch=epoch, ttl=ttl):
                held.acquired(room)
        lapsed = await directory.renew(held.renewals(), node=me, ttl=ttl)
        lost = held.lost(await self._reassert(lapsed) if lapsed else ())
        now = trio.current_time()
        for room in lost:
            self.stats.leases_lost += 1
            log.warning("room %d: its lease was lost; letting it go", room)
            stranded = self.hub.desk.matches_of(str(room))  # an event's: they go with it
            self.apply(self.hub.release_room(str(room), None, now))
            for match in stranded:
                if int(match) not in lost:
                    await self._give_up(int(match), f"its event {room} was let go")
        open_rooms = self.hub.matches.keys() | self.hub.events.keys()  # events are rooms too
        for room in held.finished(open_rooms, writing=bool(self.gate.pending)):
            await self._let_go(room)

    async def _reassert(self, lapsed: set[int]) -> list[int]:
        """Of the rooms whose lease a renewal found gone, those to let go: the others the log
        still gives this node at its epoch, and their leases are taken again (a Redis outage
        lapsed them; nobody claimed them). A lease another node took meanwhile is not taken
        back: that node is claiming the room, and the log fences this node once it has. While
        PostgreSQL cannot say, the rooms are kept, and asked about again at the next beat."""
        try:
            owners = {o.room: (o.owner, o.epoch) for o in await self.log.owners()}
        except LogUnavailable as exc:
            self._trouble("postgres", str(exc))
            return []
        keep, gone = self.holdings.reassert(lapsed, owners, self.node_id)
        for room in keep:
            if await self.directory.acquire(room, node=self.node_id,
                                            epoch=self.holdings.epochs[room],
                                            ttl=self.cluster.lease):
                log.info("room %d: its lease lapsed while nobody claimed it; taken again",
                         room)
                self.stats.leases_reasserted += 1
            else:
                gone.append(room)
        return gone

    async def _publish(self) -> None:
        held = self.holdings
        for room, summary in held.publications(self.hub.summaries()):
            await self.directory.publish(room, summary, node=self.node_id,
                                         epoch=held.epochs[room])
            held.publish(room, summary)

    def apply(self, effects: Effects) -> None:
        super().apply(effects)
        if any(isinstance(r, RoomCreated) for r in effects.records):
            self._poke.set()

    # ------------------------------------------------------------------ the operator's view

    def health(self) -> str | None:
        if not self.problems:
            return None
        return "; ".join(f"cannot reach {service}: {why}"
                         for service, why in sorted(self.problems.items()))

    def log_samples(self) -> list[Sample]:
        s = self.stats
        return [
            ("arbiter_cluster_leases", "gauge", "Room leases this node holds.",
             [({}, len(self.holdings.leased))]),
            ("arbiter_cluster_claims_total", "counter",
             "Rooms this node took over from another node.", [({}, s.claims)]),
            ("arbiter_cluster_claim_failures_total", "counter",
             "Rooms taken over whose log did not replay.", [({}, s.claim_failures)]),
            ("arbiter_cluster_leases_lost_total", "counter",
             "Rooms let go because their lease was lost.", [({}, s.leases_lost)]),
            ("arbiter_cluster_leases_reasserted_total", "counter",
             "Lapsed leases taken again (a Redis outage; the log still gave this node the "
             "room).", [({}, s.leases_reasserted)]),
            ("arbiter_cluster_fenced_total", "counter",
             "Rooms let go because the log refused their writes (another node owns them).",
             [({}, s.fenced)]),
            ("arbiter_cluster_handed_over_total", "counter",
             "Rooms handed over by a clean shutdown.", [({}, s.handed_over)]),
            ("arbiter_cluster_reloads_total", "counter",
             "Rooms rebuilt from the log after a write whose outcome was unknown.",
             [({}, s.reloads)]),
            ("arbiter_cluster_lookups_total", "counter",
             "Requests that waited for the directory or the log.", [({}, s.lookups)]),
            ("arbiter_cluster_lobby_reads_total", "counter",
             "Reads of the lobby's first page from Redis, for room lists (at most one a "
             "second).", [({}, s.lobby_reads)]),
            ("arbiter_cluster_redirects_total", "counter",
             "Clients sent to another node.", [({}, self.hub.stats.redirects)]),
            ("arbiter_cluster_batches_retried_total", "counter",
             "Log batches written on a later try (PostgreSQL did not take the first).",
             [({}, self.writer.retried)]),
            ("arbiter_cluster_dropped_frames_total", "counter",
             "Frames never sent because their records were refused or not written.",
             [({}, self.gate.dropped_frames)]),
            ("arbiter_cluster_directory_failures_total", "counter",
             "Calls to Redis that failed or timed out.", [({}, self.directory.failures)]),
            ("arbiter_cluster_reachable", "gauge",
             "1 when this node can reach the service, by service.",
             [({"service": name}, int(name not in self.problems))
              for name in ("postgres", "redis")]),
            *self.log.metrics.samples(),
        ]
