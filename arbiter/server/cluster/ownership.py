"""Taking a room over: the directory's lease and the log's claim, in the one order that is
safe (docs/cluster.md, "Failover and handover").

The lease (Redis) keeps live nodes from contending for a room they all see due; the claim
(PostgreSQL) is the truth that fences the writes. A node takes the lease first, at the epoch it
is about to claim, then claims; a claim that loses (another node raised the epoch meanwhile,
or the room finished) gives the lease back. A room whose lease is held is not taken.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence

import trio

from .directory import Directory, DirectoryUnavailable
from .pglog import ClusterLog


async def take_over(room: int, *, node: str, log: ClusterLog, directory: Directory,
                    ttl: float) -> int | None:
    """Make ``node`` the owner of ``room``; return the epoch it now writes under, or None if
    the room is not to be had (its lease is held, another node claimed it first, or it is
    finished or unknown). When the claim fails with an error, the lease is given back (or, if
    Redis does not answer either, left to lapse) and the error raised."""
    claimed = await take_over_many([room], node=node, log=log, directory=directory, ttl=ttl)
    return claimed.get(room)


async def take_over_many(rooms: Sequence[int], *, node: str, log: ClusterLog,
                         directory: Directory, ttl: float) -> dict[int, int]:
    """:func:`take_over` for a claim batch, in three round trips whatever its size (the
    owners read, the leases taken, the claims made: one commit), rather than three a room
    (docs/cluster.md, "Failover at scale"). Returns the rooms taken -> their new epoch; the
    others were not to be had. The order per room is the same as one at a time: lease first,
    at the epoch about to be claimed, then the claim; leases whose claim lost or failed go
    back."""
    owners = await log.owners_of(rooms)
    wanted = {room: owner.epoch + 1 for room, owner in owners.items()
              if owner.state != "finished"}
    leased = await directory.acquire_many(wanted, node=node, ttl=ttl)
    claimed: dict[int, int] = {}
    try:
        claimed = await log.claim_many({room: wanted[room] - 1 for room in leased})
    finally:
        back = sorted(leased - claimed.keys())  # lost, failed or cancelled: leases go back
        if back:
            with trio.CancelScope(shield=True), contextlib.suppress(DirectoryUnavailable):
                for room in back:
                    await directory.release(room, node=node, epoch=wanted[room])
    return claimed


async def hand_over(room: int, *, node: str, epoch: int, directory: Directory) -> bool:
    """A clean shutdown's part for one room, once the node has stopped writing it and its last
    batch is committed: the lease goes at once and the room is due for another node."""
    return await directory.release(room, node=node, epoch=epoch)
