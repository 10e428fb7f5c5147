"""What a cluster node is told at start (``arbiter serve --redis ... --postgres ...``), and the
timings that follow from the lease (docs/cluster.md, "Failover and handover")."""

from __future__ import annotations

from dataclasses import dataclass

from .directory import DEFAULT_PREFIX


@dataclass(frozen=True)
class ClusterSettings:
    redis: str  # redis://host:port/db of the Redis-protocol server
    postgres: str  # libpq connection string of the log
    node_id: str | None = None  # default: host:port, stable across restarts of the node
    public_url: str | None = None  # default: ws://host:port/
    # A dead node's rooms are claimed about this long after its last renewal. Renewals come
    # four times per lease, so a node must stall for three quarters of it to lose its rooms.
    lease: float = 4.0
    claim_every: float = 0.5  # how often live nodes look for rooms to claim
    # A dead node's rooms are claimed in batches (a few round trips each, whatever their
    # size), this many batches in flight at once: while one batch's rooms are replayed (the
    # node's core), the next ones' claims and reads wait on the services.
    claim_batch: int = 25  # rooms a claim batch takes
    claims_at_once: int = 3  # claim batches in flight at once
    prefix: str = DEFAULT_PREFIX  # Redis key prefix: several clusters may share one server
    log_timeout: float = 5.0  # bound on every PostgreSQL call
    # A batch PostgreSQL did not take is tried again for this long (its rooms' followers
    # stay connected, told ``unavailable``) before its rooms are let go (write_retry.py).
    write_retry_for: float = 10.0
    directory_timeout: float = 2.0  # bound on every Redis call

    @property
    def beat(self) -> float:
        return self.lease / 4

    @property
    def alive_for(self) -> float:
        """How long a heartbeat lists a node as alive: two beats, half a lease. A dead node
        so leaves the directory well before its leases lapse, and in between other nodes
        answer ``unavailable`` for its rooms instead of sending clients to a dead address."""
        return self.lease / 2

    @property
    def lookup_patience(self) -> float:
        """How long a lookup waits for a room whose holder has stopped beating: until the
        lease lapses (at most a lease after its last renewal), and a beat more for this node
        to take the room over. Longer, and the client hears ``unavailable``."""
        return self.lease + self.beat

    @property
    def claim_grace(self) -> float:
        """How long a node waits, once its directory answers again after an outage, before it
        claims rooms whose lease lapsed: a Redis call that was waiting on the outage times
        out (``directory_timeout``), then the owners beat, taking their leases again (two
        beats, for a beat that starts just before the outage ends)."""
        return self.directory_timeout + 2 * self.beat
