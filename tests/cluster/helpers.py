"""Waiting on real servers: conditions polled under a bound, never a fixed sleep."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable

import trio


async def eventually(check: Callable[[], Awaitable[bool]], timeout: float = 10.0,
                     what: str = "the condition") -> None:
    """Wait until ``check`` holds, polling; fail after ``timeout`` seconds. (A real server's
    own clock drives expiries here, so the test cannot own the clock.)"""
    with trio.move_on_after(timeout):
        while not await check():
            await trio.sleep(0.02)
        return
    raise AssertionError(f"{what} did not come about within {timeout:g} s")


def wait_for(check: Callable[[], bool], timeout: float = 10.0, what: str = "the condition"
             ) -> None:
    """:func:`eventually` for code outside trio (threads driving two connections)."""
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} did not come about within {timeout:g} s")
        time.sleep(0.01)
