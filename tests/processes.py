"""The child processes a test run starts, each in a process group of its own.

A test may leave a child in any state: stopped (SIGSTOP), killed (SIGKILL) with children of its
own still running, or simply running because the test failed half-way. Ending the child's whole
group ends all of that at once, and nothing of the run outlives it: tests/conftest.py ends,
after each test, every group the test started, and at the end of the session fails if any
process of the run is still alive.

A group is ended with SIGCONT then SIGKILL. SIGKILL ends a stopped process too; SIGCONT first
means a member SIGKILL cannot reach (one that changed its user) is at least not left frozen
with its sockets open.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
from dataclasses import dataclass
from typing import Any

from arbiter.testing import processes as procs


@dataclass(frozen=True)
class _Group:
    pgid: int  # its leader's PID
    started_at: int | None  # when its leader started (see ours)
    proc: subprocess.Popen[Any] | None  # the leader when it is a Popen of ours (trio reaps its own)

    def ours(self) -> bool:
        """Whether ``pgid`` still names this group. This machine's PIDs wrap within the hour
        (pid_max 32768), and once every member of a group is gone its number may lead someone
        else's new session: a process with that PID and another start time is not ours. While
        any member of ours lives the number is not reused; a leader not reaped keeps it too."""
        if self.proc is not None and self.proc.returncode is None:
            return True
        now = _started_at(self.pgid)
        return now is None or now == self.started_at


# Every group started by this process (a pytest worker), in order.
_groups: list[_Group] = []


def spawn(args: list[str], **options: Any) -> subprocess.Popen[Any]:
    """``subprocess.Popen`` in a new session, so in a process group of its own that also holds
    whatever the child starts."""
    proc: subprocess.Popen[Any] = subprocess.Popen(args, start_new_session=True, **options)
    _groups.append(_Group(proc.pid, _started_at(proc.pid), proc))
    return proc


def record(pid: int) -> None:
    """A child started elsewhere with ``start_new_session=True``: its group is ended too."""
    _groups.append(_Group(pid, _started_at(pid), None))


def _group(pid: int) -> _Group:
    return next(g for g in reversed(_groups) if g.pgid == pid)


def send(pid: int, signum: int) -> None:
    """Send ``signum`` to the whole group led by ``pid`` (started here), if it still exists."""
    if _group(pid).ours():
        with contextlib.suppress(ProcessLookupError):  # the whole group is gone already
            os.killpg(pid, signum)


def end(pid: int) -> None:
    """SIGCONT then SIGKILL to the whole group led by ``pid``; reap the leader if it is ours."""
    group = _group(pid)
    send(pid, signal.SIGCONT)
    send(pid, signal.SIGKILL)
    if group.proc is not None:
        group.proc.wait(timeout=30)


def stop(proc: subprocess.Popen[Any], timeout: float = 10.0) -> None:
    """Stop a child the way an operator does (SIGTERM: it shuts down cleanly), waking it first
    if it was stopped; end the group if it has not exited within ``timeout`` seconds."""
    if proc.poll() is None:
        send(proc.pid, signal.SIGCONT)
        proc.terminate()
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=timeout)
    end(proc.pid)


def mark() -> int:
    """Where the record stands now, for :func:`end_since`."""
    return len(_groups)


def end_since(mark: int) -> None:
    """End every group started since ``mark``."""
    for group in _groups[mark:]:
        end(group.pgid)


def _started_at(pid: int) -> int | None:
    """The process's start time (clock ticks since boot), None once it is gone."""
    found = procs.read(pid)
    return None if found is None else found.started


def _live() -> list[tuple[int, int, str]]:
    """(pid, process group, command line) of every live process but this one."""
    return [(p.pid, p.pgrp, line) for p in procs.table()
            if p.state not in procs.GONE and (line := procs.cmdline(p.pid)) is not None]


def leftovers(base: str) -> list[tuple[int, str]]:
    """The live processes of the groups this run started, and any whose command line names
    ``base`` (the run's temporary folder: every data directory a test gives a server)."""
    groups = {group.pgid for group in _groups if group.ours()}
    me = os.getpid()
    return [(pid, cmdline) for pid, pgrp, cmdline in _live()
            if pid != me and (pgrp in groups or base in cmdline)]
