"""Throwaway Redis-protocol and PostgreSQL servers on 127.0.0.1, for the cluster tests and for
trying a cluster on one machine.

Each server gets a free port and a fresh temporary directory and is started as a child process.
A test can freeze all its processes, kill them outright, or restart it on the same port and
data (its processes are found through /proc: this is for Linux). A start is waited on, with a
bounded timeout, until the server really answers: a Redis server must reply to PING,
PostgreSQL must accept a login. Nothing here sleeps for a fixed time.

PostgreSQL refuses to run as root. When this process is root, ``initdb`` and ``postgres`` run as
the unprivileged ``postgres`` user (Debian's package creates it) and the data directory belongs
to that user. The binaries are found on PATH or where Debian puts them
(``/usr/lib/postgresql/<version>/bin``); ``python3 dev.py test`` installs the distribution's
packages when they are missing (docs/cluster.md, "Provisioning").

``python -m arbiter.testing.localservers`` prints what was found, or what is missing, as
JSON (dev.py uses it). ``ARBITER_REDIS_SERVER`` (a server binary) and ``ARBITER_PG_BIN`` (the
folder of ``postgres`` and ``initdb``) choose the binaries instead of the search.
"""

from __future__ import annotations

import contextlib
import ctypes
import json
import os
import pwd
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Self

REDIS_SERVERS = ("valkey-server", "redis-server")  # either speaks the protocol we use
POSTGRES_USER = "postgres"  # who runs PostgreSQL when we are root
SUPERUSER = "arbiter"  # the throwaway cluster's superuser (trust login on loopback only)
START_TIMEOUT = 30.0  # seconds a server gets to start answering
STOP_TIMEOUT = 10.0


class ServersUnavailable(RuntimeError):
    """A server binary (or the user to run it as) is missing; the message says exactly what."""


# --------------------------------------------------------------------------- finding binaries

def find_redis() -> Path:
    chosen = os.environ.get("ARBITER_REDIS_SERVER")
    if chosen:  # an explicit choice is not second-guessed by a search
        if Path(chosen).is_file() and os.access(chosen, os.X_OK):
            return Path(chosen)
        raise ServersUnavailable(
            f"no Redis-protocol server: ARBITER_REDIS_SERVER={chosen} is not an executable file")
    for name in REDIS_SERVERS:
        found = shutil.which(name)
        if found:
            return Path(found)
    raise ServersUnavailable(
        "no Redis-protocol server: neither valkey-server nor redis-server is on PATH "
        "(Debian: apt-get install redis-server; `python3 dev.py test` does it when run as root; "
        "or set ARBITER_REDIS_SERVER to one)")


def _version_key(path: Path) -> tuple[int, ...]:
    return tuple(int(p) for p in re.findall(r"\d+", path.parent.name)) or (0,)


def find_postgres() -> Path:
    """The folder holding ``postgres``, ``initdb`` and ``pg_ctl``."""
    chosen = os.environ.get("ARBITER_PG_BIN")
    if chosen:  # an explicit choice is not second-guessed by a search
        if all((Path(chosen) / tool).is_file() for tool in ("postgres", "initdb")):
            return Path(chosen)
        raise ServersUnavailable(
            f"no PostgreSQL server: ARBITER_PG_BIN={chosen} holds no `postgres` and `initdb`")
    candidates: list[Path] = []
    on_path = shutil.which("postgres")
    if on_path:
        candidates.append(Path(on_path).resolve().parent)
    candidates += sorted((p.parent for p in Path("/usr/lib/postgresql").glob("*/bin")),
                         key=_version_key, reverse=True)
    candidates.append(Path("/usr/local/pgsql/bin"))
    for folder in candidates:
        if all((folder / tool).is_file() for tool in ("postgres", "initdb")):
            return folder
    raise ServersUnavailable(
        "no PostgreSQL server: `postgres` and `initdb` are neither on PATH nor in "
        "/usr/lib/postgresql/*/bin (Debian: apt-get install postgresql; `python3 dev.py test` "
        "does it when run as root; or set ARBITER_PG_BIN to their folder)")


def _run_as() -> pwd.struct_passwd | None:
    """The unprivileged user PostgreSQL must run as, or None when we are not root."""
    if os.geteuid() != 0:
        return None
    try:
        return pwd.getpwnam(POSTGRES_USER)
    except KeyError:
        raise ServersUnavailable(
            f"running as root, and PostgreSQL refuses to run as root, but there is no "
            f"{POSTGRES_USER!r} user to run it as (Debian's postgresql package creates it)"
        ) from None


def _version(command: list[str]) -> str:
    try:
        out = subprocess.run(command, capture_output=True, text=True, timeout=10).stdout
    except (OSError, subprocess.TimeoutExpired):
        return "unknown version"
    found = re.search(r"v=(\d[\w.]*)|(\d+\.\d+(?:\.\d+)?)", out)
    return next((g for g in found.groups() if g), "?") if found else "unknown version"


def survey() -> dict[str, object]:
    """What a cluster test run would use, and what is missing (for dev.py's summary)."""
    report: dict[str, object] = {"missing": []}
    missing: list[str] = report["missing"]  # type: ignore[assignment]
    try:
        redis = find_redis()
        report["redis"] = f"{redis.name} {_version([str(redis), '--version'])}"
    except ServersUnavailable as exc:
        missing.append(str(exc))
    try:
        folder = find_postgres()
        _run_as()
        report["postgres"] = f"PostgreSQL {_version([str(folder / 'postgres'), '--version'])}"
    except ServersUnavailable as exc:
        missing.append(str(exc))
    return report


# --------------------------------------------------------------------------- processes

def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _die_with_parent() -> None:  # pragma: no cover - runs in the child between fork and exec
    # A server whose test run was killed must not live on holding a port and a directory.
    with contextlib.suppress(Exception):
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


def wait_until(check: Callable[[], bool], timeout: float, what: str,
               alive: Callable[[], str | None] | None = None, interval: float = 0.05) -> None:
    """Poll ``check`` until it holds; fail after ``timeout`` seconds, or as soon as ``alive``
    reports (with a reason) that waiting longer is pointless."""
    deadline = time.monotonic() + timeout
    while True:
        if check():
            return
        if alive is not None:
            reason = alive()
            if reason is not None:
                raise RuntimeError(f"{what}: {reason}")
        if time.monotonic() >= deadline:
            raise TimeoutError(f"{what}: not ready after {timeout:g} s")
        time.sleep(interval)  # a poll interval, not a wait for something to happen


def _descendants(root: int) -> list[int]:
    """``root`` and every process below it, parents before children (from /proc)."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        parent = int(stat.rsplit(")", 1)[1].split()[1])
        children.setdefault(parent, []).append(int(entry))
    found = [root]
    for pid in found:  # grows as it goes: a breadth-first walk
        found += children.get(pid, [])
    return found


def _state(pid: int) -> str | None:
    """The process's state letter (R, S, T, Z, ...), or None if there is no such process."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return stat.rsplit(")", 1)[1].split()[0]


def _alive(pid: int) -> bool:
    """Whether ``pid`` still runs (a zombie waiting to be reaped by init has ended)."""
    return _state(pid) not in (None, "Z")


@dataclass
class _Child:
    process: subprocess.Popen[bytes]
    log: Path


class LocalServer:
    """One server (its process and every process it starts), on a port and in a temporary
    directory of its own."""

    name = "server"

    def __init__(self, port: int | None = None) -> None:
        self.host = "127.0.0.1"
        self.port = port or free_port()
        self.directory = Path(tempfile.mkdtemp(prefix=f"arbiter-{self.name}-"))
        self._child: _Child | None = None
        self.starts = 0

    # subclasses provide these
    def _command(self) -> list[str]:
        raise NotImplementedError

    def _ready(self) -> bool:
        raise NotImplementedError

    def _prepare(self) -> None:
        """Anything to do once, before the first start."""

    _user: pwd.struct_passwd | None = None

    @property
    def running(self) -> bool:
        return self._child is not None and self._child.process.poll() is None

    @property
    def pid(self) -> int | None:
        return None if self._child is None else self._child.process.pid

    def start(self, timeout: float = START_TIMEOUT) -> None:
        if self.running:
            return
        if self.starts == 0:
            self._prepare()
        self.starts += 1
        log = self.directory / f"{self.name}.log"
        with open(log, "ab") as out:
            user = self._user
            process = subprocess.Popen(
                self._command(), stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
                cwd=self.directory, start_new_session=True,
                user=user.pw_uid if user else None, group=user.pw_gid if user else None,
                extra_groups=[] if user else None,
                preexec_fn=(_die_with_parent
                            if threading.current_thread() is threading.main_thread() else None))
        self._child = _Child(process, log)
        try:
            wait_until(self._ready, timeout, f"{self.name} on port {self.port}", self._exited)
        except BaseException:
            self.kill()
            raise

    def _exited(self) -> str | None:
        if self._child is None or self._child.process.poll() is None:
            return None
        return (f"exited with status {self._child.process.returncode}; its log ends:\n"
                + self.log_tail())

    def log_tail(self, lines: int = 20) -> str:
        if self._child is None or not self._child.log.exists():
            return ""
        return "\n".join(self._child.log.read_text(errors="replace").splitlines()[-lines:])

    def processes(self) -> list[int]:
        """The server's process and all its descendants, parent first. (Not its process
        group: PostgreSQL puts each backend in a session of its own.)"""
        if self._child is None:
            return []
        return _descendants(self._child.process.pid)

    def _signal(self, sig: signal.Signals, pids: list[int] | None = None) -> None:
        for pid in self.processes() if pids is None else pids:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, sig)

    def stop(self, timeout: float = STOP_TIMEOUT) -> None:
        """A clean shutdown (SIGTERM, or the server's own fast-shutdown signal)."""
        if self._child is None:
            return
        pids = self.processes()
        self._signal(signal.SIGCONT, pids)  # a frozen server cannot shut down
        self._signal(self._stop_signal, pids[:1])
        try:
            self._child.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self._signal(signal.SIGKILL, self.processes())
            self._child.process.wait(timeout)
        self._wait_gone(pids)
        self._child = None

    _stop_signal = signal.SIGTERM

    def kill(self) -> None:
        """The machine dies: every process of the server gets SIGKILL at once."""
        if self._child is None:
            return
        pids = self.processes()
        self._signal(signal.SIGKILL, pids)
        self._child.process.wait(STOP_TIMEOUT)
        self._wait_gone(pids)
        self._child = None

    def _wait_gone(self, pids: list[int]) -> None:
        # Helper processes (PostgreSQL's backends) are not our children: wait until every one
        # has gone, so that a restart finds the port and the shared memory free.
        wait_until(lambda: not any(_alive(pid) for pid in pids), STOP_TIMEOUT,
                   f"{self.name}'s processes to exit")

    def freeze(self) -> None:
        """The server stops answering without closing anything (SIGSTOP on every process of
        it, the parent first so that it starts no new one): a hung machine. Returns once
        every one of them has stopped."""
        pids = self.processes()
        self._signal(signal.SIGSTOP, pids)
        # Stopped, or ended (a backend that exited is a zombie while its parent is stopped).
        wait_until(lambda: all(_state(pid) in ("T", "t", "Z", None) for pid in pids),
                   STOP_TIMEOUT, f"{self.name}'s processes to stop")

    def thaw(self) -> None:
        self._signal(signal.SIGCONT)

    def restart(self, timeout: float = START_TIMEOUT) -> None:
        self.stop()
        self.start(timeout)

    def cleanup(self) -> None:
        """Stop the server and remove its directory."""
        self.stop()
        shutil.rmtree(self.directory, ignore_errors=True)

    def __enter__(self) -> Self:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.cleanup()


class LocalRedis(LocalServer):
    """``redis-server`` (or ``valkey-server``) on loopback. By default it keeps nothing on disk,
    as a test wants; ``persistent=True`` turns on the append-only file, so that a restart keeps
    the directory's leases and heartbeats."""

    name = "redis"

    def __init__(self, port: int | None = None, *, persistent: bool = False) -> None:
        self.binary = find_redis()
        self.persistent = persistent
        super().__init__(port)

    def _command(self) -> list[str]:
        return [str(self.binary), "--bind", self.host, "--port", str(self.port),
                "--dir", str(self.directory), "--save", "",
                "--appendonly", "yes" if self.persistent else "no",
                "--daemonize", "no", "--loglevel", "warning"]

    @property
    def url(self) -> str:
        return f"redis://{self.host}:{self.port}"

    def _ready(self) -> bool:
        try:
            with socket.create_connection((self.host, self.port), timeout=1.0) as s:
                s.sendall(b"PING\r\n")
                return s.recv(16).startswith(b"+PONG")
        except OSError:
            return False


class LocalPostgres(LocalServer):
    """A PostgreSQL cluster of its own (``initdb``), listening on loopback TCP only, whose
    superuser ``arbiter`` logs in without a password from 127.0.0.1. ``durable=False`` (for
    tests) turns off fsync: a killed server process still loses nothing committed, only a
    machine crash could."""

    name = "postgres"
    _stop_signal = signal.SIGINT  # PostgreSQL's fast shutdown

    def __init__(self, port: int | None = None, *, durable: bool = False) -> None:
        self.bin = find_postgres()
        self._user = _run_as()
        self.durable = durable
        super().__init__(port)
        self.data = self.directory / "data"

    def _prepare(self) -> None:
        user = self._user
        if user is not None:  # the directory must belong to whoever runs the server
            os.chown(self.directory, user.pw_uid, user.pw_gid)
        done = subprocess.run(
            [str(self.bin / "initdb"), "-D", str(self.data), "-U", SUPERUSER, "-A", "trust",
             "-E", "UTF8", "--locale=C", "--no-sync", "--no-instructions"],
            capture_output=True, text=True, cwd=self.directory, timeout=120,
            user=user.pw_uid if user else None, group=user.pw_gid if user else None,
            extra_groups=[] if user else None)
        if done.returncode != 0:
            raise RuntimeError(f"initdb failed:\n{done.stdout}\n{done.stderr}")

    def _command(self) -> list[str]:
        settings = {
            "listen_addresses": self.host, "port": str(self.port),
            "unix_socket_directories": "", "max_connections": "100",
            "shared_buffers": "32MB", "logging_collector": "off",
            "log_min_messages": "warning",
        }
        if not self.durable:
            settings.update(fsync="off", full_page_writes="off", synchronous_commit="on")
        command = [str(self.bin / "postgres"), "-D", str(self.data)]
        for key, value in settings.items():
            command += ["-c", f"{key}={value}"]
        return command

    def dsn(self, dbname: str = "postgres") -> str:
        return f"host={self.host} port={self.port} user={SUPERUSER} dbname={dbname}"

    def _ready(self) -> bool:
        import psycopg  # only here: finding binaries must work before the venv has it

        try:
            with psycopg.connect(self.dsn(), connect_timeout=2) as conn:
                conn.execute("SELECT 1")
            return True
        except psycopg.OperationalError:
            return False

    def create_database(self, name: str) -> str:
        """A new empty database; returns its connection string."""
        import psycopg
        from psycopg import sql

        with psycopg.connect(self.dsn(), autocommit=True, connect_timeout=5) as conn:
            conn.execute(sql.SQL("CREATE DATABASE {} TEMPLATE template0").format(
                sql.Identifier(name)))
        return self.dsn(name)

    def drop_database(self, name: str) -> None:
        import psycopg
        from psycopg import sql

        with psycopg.connect(self.dsn(), autocommit=True, connect_timeout=5) as conn:
            conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(
                sql.Identifier(name)))


@contextlib.contextmanager
def local_servers(*, durable: bool = False) -> Iterator[tuple[LocalRedis, LocalPostgres]]:
    """Both servers, started; stopped and removed on exit."""
    with LocalRedis() as redis, LocalPostgres(durable=durable) as postgres:
        yield redis, postgres


if __name__ == "__main__":
    json.dump(survey(), sys.stdout)
    sys.stdout.write("\n")
