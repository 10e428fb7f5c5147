"""Issue 27, item 4 (the server's side): a node killed a moment ago is still listed in the
directory (for up to half a lease after its last heartbeat), and nodes sent clients to it;
they bounced between it and a live node every 100 ms. A node now tries the target's address
before it redirects anyone there (arbiter/server/cluster/reachability.py), and waits for the
dead node's lease to lapse instead, as for a node no longer listed."""

from __future__ import annotations

from typing import Any

import trio

from arbiter.server.cluster.directory import Directory
from arbiter.server.cluster.reachability import Reachability, address
from tests.server.harness import Activity, Client

from .helpers import eventually

LEASE = 6.0  # long enough that the killed node stays listed while the join is looked up


def test_what_a_url_answered_is_kept_for_a_beat_then_tried_again() -> None:
    seen = Reachability(keep=1.0)
    assert seen.known("ws://a:1/", 10.0) is None, "never tried: try it"
    seen.found("ws://a:1/", 10.0, answered=False)
    assert seen.known("ws://a:1/", 10.9) is False
    assert seen.known("ws://a:1/", 11.0) is None, "a beat later: try again"
    seen.found("ws://a:1/", 11.0, answered=True)
    assert seen.known("ws://a:1/", 11.5) is True
    seen.found("ws://b:1/", 30.0, answered=True)
    assert seen.known("ws://a:1/", 30.0) is None  # long gone: forgotten


def test_the_address_tried_is_the_one_a_client_connects_to() -> None:
    assert address("ws://10.0.0.5:8765/") == ("10.0.0.5", 8765)
    assert address("wss://game-1.example.org/") == ("game-1.example.org", 443)
    assert address("http://a/") is None


async def test_a_node_killed_a_moment_ago_is_never_a_redirect_target(
        cluster: dict[str, Any]) -> None:
    a, b = cluster["start"](2, lease=LEASE)
    activity = Activity()
    with trio.fail_after(3 * LEASE + 30):
        async with trio.open_nursery() as nursery:
            ann = await Client.open(nursery, a.port, "Ann", activity=activity)
            room = str((await ann.ok({"t": "create", "config": {"seats": 2}}))["r"])
            bob = await Client.open(nursery, b.port, "Bob", activity=activity)
            async with Directory(cluster["redis"], prefix=cluster["prefix"]) as directory:
                async def leased_by_a() -> bool:
                    lease = await directory.lease(int(room))
                    return lease is not None and lease.node == a.node_id

                await eventually(leased_by_a, LEASE, "the new room's lease")
                a.kill()
                listed = await directory.node(a.node_id) is not None
            reply = await bob.call({"t": "join", "r": room})
            assert listed, "the dead node was still listed when the join was looked up"
            assert reply["t"] == "joined", reply  # b waited, took the room over, seated Bob
            assert not bob.of_type("redirect")
            assert b.counter("arbiter_cluster_claims_total") == 1
            nursery.cancel_scope.cancel()
