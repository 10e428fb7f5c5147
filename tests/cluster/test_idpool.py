"""The id pool without a server (arbiter/server/cluster/idpool.py): when it fetches a block, how
it hands ids out, and that waiting callers and concurrent refills never fetch twice or hand an
id out twice. The source is a fake whose fetches take time on trio's mock clock; that ids are
unique across nodes is PostgreSQL's part (test_pglog.py)."""

from __future__ import annotations

import itertools

import pytest
import trio

from arbiter.server.cluster.idpool import IdPool, IdsExhausted, IdStock

FETCH_SECONDS = 0.5  # a round trip to the log, on the mock clock


class FakeSequence:
    """The log's sequences: fresh ids, a block per call, each call taking FETCH_SECONDS."""

    def __init__(self) -> None:
        self.next = itertools.count(1)
        self.calls: list[tuple[str, int, float]] = []  # kind, count, when it was asked

    async def allocate_ids(self, kind: str, count: int) -> list[int]:
        self.calls.append((kind, count, trio.current_time()))
        await trio.sleep(FETCH_SECONDS)
        return [next(self.next) for _ in range(count)]


def test_a_block_is_wanted_only_once_fewer_than_low_water_are_left() -> None:
    stock = IdStock("games", block=4, low_water=2)
    assert (stock.left, stock.low, stock.wanted()) == (0, True, 4)
    stock.add([7, 8, 9, 10])
    assert (stock.low, stock.wanted()) == (False, 0)
    assert [stock.take(), stock.take()] == [7, 8]  # in the order fetched
    assert (stock.left, stock.low, stock.wanted()) == (2, False, 0)
    assert stock.take() == 9
    assert (stock.left, stock.low, stock.wanted()) == (1, True, 4)
    assert stock.take() == 10
    with pytest.raises(IdsExhausted, match="no games id in hand"):
        stock.take()


def test_a_stock_is_refused_a_kind_or_levels_it_cannot_work_with() -> None:
    with pytest.raises(ValueError, match="rooms or games"):
        IdStock("seats", block=4, low_water=2)
    with pytest.raises(ValueError, match="low_water"):
        IdStock("rooms", block=4, low_water=0)  # a taker waiting on an empty stock never woke
    with pytest.raises(ValueError, match="low_water"):
        IdStock("rooms", block=4, low_water=5)  # a block would leave it low: endless fetches


async def test_concurrent_refills_fetch_one_block(autojump_clock: trio.abc.Clock) -> None:
    source = FakeSequence()
    pool = IdPool(source, "rooms", block=4, low_water=2)
    async with trio.open_nursery() as nursery:
        for _ in range(3):
            nursery.start_soon(pool.refill)
    assert source.calls == [("rooms", 4, 0.0)]  # the others found the stock full
    assert pool.left == 4 and not pool.low
    await pool.refill()  # not low: nothing to fetch
    assert len(source.calls) == 1


async def test_a_waiting_taker_gets_an_id_after_one_fetch_and_a_burst_waits_never_fails(
        autojump_clock: trio.abc.Clock) -> None:
    source = FakeSequence()
    pool = IdPool(source, "games", block=4, low_water=1)
    with pytest.raises(IdsExhausted):
        pool.take()  # the room layer's synchronous take does not wait
    started = trio.current_time()
    assert await pool.take_waiting() == 1
    assert trio.current_time() - started == FETCH_SECONDS
    taken: list[int] = []

    async def create() -> None:
        taken.append(await pool.take_waiting())

    async with trio.open_nursery() as nursery:  # ten creates at once: more than two blocks
        for _ in range(10):
            nursery.start_soon(create)
    assert sorted(taken) == list(range(2, 12))  # each id once, none skipped
    assert [count for _, count, _ in source.calls] == [4, 4, 4]
    assert pool.left == 1


async def test_a_pool_refilled_when_low_never_runs_dry(autojump_clock: trio.abc.Clock) -> None:
    """How a node uses it: take without waiting, and a task refills whenever it is low. With
    fewer takes between refills than the low water mark, no take ever finds it empty."""
    source = FakeSequence()
    pool = IdPool(source, "rooms", block=8, low_water=3)
    await pool.refill()
    low = trio.Event()

    async def keep_full() -> None:
        nonlocal low
        while True:
            await low.wait()
            low = trio.Event()
            await pool.refill()

    handed: list[int] = []
    async with trio.open_nursery() as nursery:
        nursery.start_soon(keep_full)
        for _ in range(40):
            handed.append(pool.take())
            if pool.low:
                low.set()
            await trio.sleep(FETCH_SECONDS / 2)  # two takes per round trip: under low water
        nursery.cancel_scope.cancel()
    assert handed == list(range(1, 41))
