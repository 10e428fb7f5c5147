"""Processes as /proc shows them (Linux): which belong to a throwaway server, and ending them.

A server's processes are not all below it, nor all in its process group: PostgreSQL puts each
backend and helper in a session of its own, and one whose postmaster died has been handed to
init. What they share is where they run: a server runs in its own temporary directory (Redis
there, PostgreSQL in its data directory below it), so a process whose working directory is in
that directory belongs to it, wherever it has gone.
"""

from __future__ import annotations

import contextlib
import os
import signal
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

POLL = 0.02  # seconds between two looks at something we wait for
GONE = (None, "Z")  # no such process, or a zombie: it has ended, only its reaping is left


@dataclass(frozen=True)
class Proc:
    pid: int
    ppid: int
    pgrp: int
    state: str  # R, S, D, T (stopped), Z (zombie), ...
    started: int  # clock ticks after boot: a reused pid has another


def read(pid: int) -> Proc | None:
    """The process ``pid`` as /proc/PID/stat shows it, or None if there is none."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = stat.rsplit(")", 1)[1].split()  # after the command name, which may hold spaces
    return Proc(pid, int(fields[1]), int(fields[2]), fields[0], int(fields[19]))


def cmdline(pid: int) -> str | None:
    """The process's command line, its arguments joined by spaces; None if it has gone."""
    try:
        raw = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return None
    return raw.replace(b"\0", b" ").decode(errors="replace").strip()


def table() -> list[Proc]:
    """Every process there is now, but this one."""
    me = os.getpid()
    found = (read(int(entry)) for entry in os.listdir("/proc") if entry.isdigit())
    return [p for p in found if p is not None and p.pid != me]


def state(pid: int) -> str | None:
    """The process's state letter (R, S, T, Z, ...), or None if there is no such process."""
    found = read(pid)
    return None if found is None else found.state


def alive(pid: int) -> bool:
    """Whether ``pid`` still runs (a zombie waiting to be reaped has ended)."""
    return state(pid) not in GONE


def descendants(root: int, procs: Iterable[Proc]) -> list[int]:
    """``root`` and every process below it, parents before children."""
    children: dict[int, list[int]] = {}
    for p in procs:
        children.setdefault(p.ppid, []).append(p.pid)
    found = [root]
    for pid in found:  # grows as it goes: a breadth-first walk
        found += children.get(pid, [])
    return found


def cwd(pid: int) -> str | None:
    """Where ``pid`` works (as it was named, also once deleted), or None if we cannot tell."""
    try:
        return os.readlink(f"/proc/{pid}/cwd").removesuffix(" (deleted)")
    except OSError:
        return None


def runs_in(pid: int, folder: Path) -> bool:
    """Whether ``pid`` works in ``folder`` or below it. (Not whether its command line names
    the folder: a client's does, a node given the server's socket, and it is not the
    server's.)"""
    where, prefix = cwd(pid), str(folder)
    return where is not None and (where == prefix or where.startswith(prefix + "/"))


def describe(pid: int) -> str:
    """``pid``, its state, where it works and its command line, for a report."""
    try:
        command = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(
            errors="replace").strip()
    except OSError:
        command = "?"
    return f"pid {pid} ({state(pid) or 'gone'}) in {cwd(pid) or '?'}: {command}"


def send(sig: signal.Signals, pids: Iterable[int]) -> None:
    for pid in pids:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, sig)


def end(find: Callable[[], list[int]], what: str, timeout: float) -> None:
    """SIGCONT and SIGKILL to every process ``find`` lists, again until it lists none: a
    stopped process is woken so that nothing is left waiting on it, and one started meanwhile
    (a postmaster's new backend) is found on the next round. Raises TimeoutError naming
    those still there after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while pids := find():
        if time.monotonic() > deadline:
            raise TimeoutError(f"{what} still running after SIGKILL: "
                               + "; ".join(describe(pid) for pid in pids))
        send(signal.SIGCONT, pids)
        send(signal.SIGKILL, pids)
        time.sleep(POLL)  # a poll interval: the next find() sees who has gone


def wait_until(check: Callable[[], bool], timeout: float, what: str,
               hopeless: Callable[[], str | None] | None = None) -> None:
    """Poll ``check`` until it holds; fail after ``timeout`` seconds, or as soon as
    ``hopeless`` gives a reason why waiting longer is pointless."""
    deadline = time.monotonic() + timeout
    while True:
        if check():
            return
        if hopeless is not None:
            reason = hopeless()
            if reason is not None:
                raise RuntimeError(f"{what}: {reason}")
        if time.monotonic() >= deadline:
            raise TimeoutError(f"{what}: not ready after {timeout:g} s")
        time.sleep(POLL)  # a poll interval, not a wait for something to happen
