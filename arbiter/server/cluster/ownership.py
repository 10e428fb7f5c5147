"""Taking a room over: the directory's lease and the log's claim, in the one order that is
safe (docs/cluster.md, "Failover and handover").

The lease (Redis) keeps live nodes from contending for a room they all see due; the claim
(PostgreSQL) is the truth that fences the writes. A node takes the lease first, at the epoch it
is about to claim, then claims; a claim that loses (another node raised the epoch meanwhile,
or the room finished) gives the lease back. A room whose lease is held is not taken.
"""

from __future__ import annotations

import contextlib

import trio

from .directory import Directory, DirectoryUnavailable
from .pglog import ClusterLog


async def take_over(room: int, *, node: str, log: ClusterLog, directory: Directory,
                    ttl: float) -> int | None:
    """Make ``node`` the owner of ``room``; return the epoch it now writes under, or None if
    the room is not to be had (its lease is held, another node claimed it first, or it is
    finished or unknown). When the claim fails with an error, the lease is given back (or, if
    Redis does not answer either, left to lapse) and the error raised."""
    owner = await log.owner(room)
    if owner is None or owner.state == "finished":
        return None
    epoch = owner.epoch + 1
    if not await directory.acquire(room, node=node, epoch=epoch, ttl=ttl):
        return None
    claimed: int | None = None
    try:
        claimed = await log.claim(room, owner.epoch)
    finally:
        if claimed is None:  # lost, failed or cancelled: the lease goes back
            with trio.CancelScope(shield=True), contextlib.suppress(DirectoryUnavailable):
                await directory.release(room, node=node, epoch=epoch)
    return claimed


async def hand_over(room: int, *, node: str, epoch: int, directory: Directory) -> bool:
    """A clean shutdown's part for one room, once the node has stopped writing it and its last
    batch is committed: the lease goes at once and the room is due for another node."""
    return await directory.release(room, node=node, epoch=epoch)
