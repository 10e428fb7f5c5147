"""Throwaway Redis-protocol and PostgreSQL servers, for the cluster tests, the benchmarks and
trying a cluster on one machine (``arbiter cluster``).

Each server gets a fresh temporary directory and is started as a child process, in a process
group of its own, listening on a Unix socket in that directory (and, when asked, on a TCP port
of 127.0.0.1). A test can freeze all its processes, kill them outright, or restart it on the
same address and data. Its processes are found through /proc (this is for Linux,
:mod:`arbiter.testing.processes`), and ending a server ends every one of them, whatever was
done to it: stopped ones are woken, and PostgreSQL helpers whose postmaster was killed are
found where they run. A start is waited on, with a bounded timeout, until the server really
answers: a Redis server must reply to PING, PostgreSQL must accept a login. Nothing here
sleeps for a fixed time.

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
from dataclasses import dataclass
from pathlib import Path
from typing import Self

from arbiter.testing import processes as proc

REDIS_SERVERS = ("valkey-server", "redis-server")  # either speaks the protocol we use
POSTGRES_USER = "postgres"  # who runs PostgreSQL when we are root
SUPERUSER = "arbiter"  # the throwaway cluster's superuser (trust: it is only local)
START_TIMEOUT = 30.0  # seconds a server gets to start answering
STOP_TIMEOUT = 10.0
PORT_ATTEMPTS = 5  # first starts with tcp=True whose free port was taken before they bound it


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
    """A TCP port on 127.0.0.1 that nothing listens on right now (something may by the time
    it is used: see :class:`LocalServer`'s ``tcp``)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _die_with_parent() -> None:  # pragma: no cover - runs in the child between fork and exec
    # A server whose test run was killed must not live on holding a port and a directory.
    with contextlib.suppress(Exception):
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


_FOLDERS: list[Path] = []  # the directory of every server this process has made


def leftovers() -> list[int]:
    """Processes still running of any server this process made, after their ``cleanup``
    should have ended them all (a session-end check: tests/cluster/conftest.py)."""
    folders = list(_FOLDERS)
    return [p.pid for p in proc.table() if p.state not in proc.GONE
            and any(proc.runs_in(p.pid, folder) for folder in folders)]


class PortTaken(RuntimeError):
    """The server could not listen: its TCP port was taken after it was chosen."""


@dataclass
class _Child:
    process: subprocess.Popen[bytes]
    log: Path
    log_from: int  # where this start's lines begin in the log


class LocalServer:
    """One server (its process and every process it starts) in a temporary directory of its
    own, where it also listens on a Unix socket: a name nobody else can take, so no test can
    lose its address to another run on the machine, as a free TCP port could be between the
    look and the server's bind (and again between a kill and a restart).

    ``tcp=True`` (for ``arbiter cluster`` and the benchmarks, which connect as a deployment
    does) also listens on a free port of 127.0.0.1. PostgreSQL cannot be told to pick a port
    itself, nor Redis to bind port 0, so the fallback is to try again: a first start that finds
    its port taken takes another free port, up to PORT_ATTEMPTS times; a restart keeps its
    port (its clients know it) and fails if it was taken meanwhile."""

    name = "server"
    _stop_signal = signal.SIGTERM
    _user: pwd.struct_passwd | None = None

    def __init__(self, *, tcp: bool = False, port: int | None = None) -> None:
        """``port``: a TCP port of the caller's choosing (``tcp`` implied); otherwise, with
        ``tcp``, a free one."""
        self.host = "127.0.0.1"
        self.tcp = tcp or port is not None
        self.port: int | None = port if port is not None else free_port() if tcp else None
        self.directory = Path(tempfile.mkdtemp(prefix=f"arbiter-{self.name}-"))
        _FOLDERS.append(self.directory)
        self._child: _Child | None = None
        self.starts = 0

    # subclasses provide these
    def _command(self) -> list[str]:
        raise NotImplementedError

    def _ready(self) -> bool:
        raise NotImplementedError

    def prepare(self) -> None:
        """Anything to do once, before the first start."""

    def _socket(self, name: str) -> Path:
        path = self.directory / name
        if len(str(path)) > 100:  # sun_path holds 108 bytes
            raise ServersUnavailable(f"the Unix socket path {path} is too long; set TMPDIR to "
                                     f"a shorter folder")
        return path

    @property
    def running(self) -> bool:
        return self._child is not None and self._child.process.poll() is None

    @property
    def pid(self) -> int | None:
        return None if self._child is None else self._child.process.pid

    def start(self, timeout: float = START_TIMEOUT) -> None:
        if self.running:
            return
        first = self.starts == 0
        if first:
            self.prepare()
        for attempt in range(1, PORT_ATTEMPTS + 1):
            try:
                self._start(timeout)
                return
            except PortTaken:
                if not first or attempt == PORT_ATTEMPTS:
                    raise
                self.port = free_port()

    def _start(self, timeout: float) -> None:
        self.starts += 1
        log = self.directory / f"{self.name}.log"
        with open(log, "ab") as out:
            # Where this start's lines begin, taken before the child exists: it shares the
            # file's offset, so once it runs, telling the offset may already be past the line
            # that says its port was taken (a flake seen under load).
            log_from = out.tell()
            user = self._user
            process = subprocess.Popen(
                self._command(), stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
                cwd=self.directory, start_new_session=True,  # a process group of its own
                user=user.pw_uid if user else None, group=user.pw_gid if user else None,
                extra_groups=[] if user else None,
                preexec_fn=(_die_with_parent
                            if threading.current_thread() is threading.main_thread() else None))
            child = self._child = _Child(process, log, log_from)
        try:
            proc.wait_until(self._ready, timeout, f"{self.name} in {self.directory}",
                            self._exited)
        except BaseException:
            self.kill()
            with open(child.log, "rb") as written:
                written.seek(child.log_from)
                if self.tcp and b"Address already in use" in written.read():
                    raise PortTaken(f"{self.name}: port {self.port} was taken") from None
            raise

    def _exited(self) -> str | None:
        if self._child is None or self._child.process.poll() is None:
            return None
        return (f"exited with status {self._child.process.returncode}; its log ends:\n"
                + self.log_tail())

    def log_tail(self, lines: int = 20) -> str:
        log = self.directory / f"{self.name}.log"
        if not log.exists():
            return ""
        return "\n".join(log.read_text(errors="replace").splitlines()[-lines:])

    def processes(self) -> list[int]:
        """Every running process of the server, parent first: its process and all below it,
        its process group, and any process working in its directory (PostgreSQL gives each
        backend a session of its own, and one whose postmaster died is no longer below it)."""
        table = proc.table()
        running = {p.pid for p in table if p.state not in proc.GONE}
        found: list[int] = []
        leader = None
        if self._child is not None:
            leader = self._child.process.pid
            if self._child.process.poll() is None:  # not reaped: its pid is not reused
                found = [pid for pid in proc.descendants(leader, table) if pid in running]
        # (A process group's id is never reused while a member lives, even without a leader.)
        found += [p.pid for p in table if p.pid in running and p.pid not in found
                  and (p.pgrp == leader or proc.runs_in(p.pid, self.directory))]
        return found

    def stop(self, timeout: float = STOP_TIMEOUT) -> None:
        """A clean shutdown (SIGTERM, or the server's own fast-shutdown signal); whatever is
        left of it after ``timeout`` is killed."""
        if self._child is None:
            return
        proc.send(signal.SIGCONT, self.processes())  # a frozen server cannot shut down
        self._child.process.send_signal(self._stop_signal)  # (not once it has been reaped)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self._child.process.wait(timeout)
        self.kill()

    def kill(self) -> None:
        """The machine dies: every process of the server gets SIGKILL (stopped ones woken
        first), until none is left. Returns once all have gone, so that a restart finds the
        port, the socket and the shared memory free."""
        if self._child is None:
            return
        proc.end(self.processes, f"{self.name}'s processes", STOP_TIMEOUT)
        self._child.process.wait(STOP_TIMEOUT)  # reaped (end() saw it gone or a zombie)
        self._child = None

    def freeze(self) -> None:
        """The server stops answering without closing anything (SIGSTOP on every process of
        it, the parent first so that it starts no new one; then any it started meanwhile): a
        hung machine. Returns once every one of them has stopped."""
        def all_stopped() -> bool:
            running = [pid for pid in self.processes() if proc.state(pid) not in ("T", "t")]
            proc.send(signal.SIGSTOP, running)
            return not running

        proc.wait_until(all_stopped, STOP_TIMEOUT, f"{self.name}'s processes to stop")

    def thaw(self) -> None:
        proc.send(signal.SIGCONT, self.processes())

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
    """``redis-server`` (or ``valkey-server``) on its Unix socket (and on loopback TCP with
    ``tcp=True``). By default it keeps nothing on disk, as a test wants; ``persistent=True``
    turns on the append-only file, so that a restart keeps the directory's leases and
    heartbeats."""

    name = "redis"

    def __init__(self, *, persistent: bool = False, tcp: bool = False,
                 port: int | None = None) -> None:
        self.binary = find_redis()
        self.persistent = persistent
        super().__init__(tcp=tcp, port=port)
        self.socket = self._socket("redis.sock")

    def _command(self) -> list[str]:
        listen = ["--bind", self.host, "--port", str(self.port)] if self.port else ["--port", "0"]
        return [str(self.binary), *listen, "--unixsocket", str(self.socket),
                "--unixsocketperm", "700", "--dir", str(self.directory), "--save", "",
                "--appendonly", "yes" if self.persistent else "no",
                "--daemonize", "no", "--loglevel", "warning"]

    @property
    def url(self) -> str:
        if self.port:
            return f"redis://{self.host}:{self.port}"
        return f"unix://{self.socket}"

    def _ready(self) -> bool:
        try:
            with socket.socket(socket.AF_UNIX) as s:
                s.settimeout(1.0)
                s.connect(str(self.socket))
                s.sendall(b"PING\r\n")
                return s.recv(16).startswith(b"+PONG")
        except OSError:
            return False


class LocalPostgres(LocalServer):
    """A PostgreSQL cluster of its own, on a Unix socket in its directory (and on loopback TCP
    with ``tcp=True``), whose superuser ``arbiter`` logs in without a password. It is made by
    ``initdb``, or, given ``template`` (the data directory of another LocalPostgres that was
    prepared and never started), as a copy of that: the same empty cluster in a fraction of
    the time. ``durable=False`` (for tests) turns off fsync: a killed server process still
    loses nothing committed, only a machine crash could."""

    name = "postgres"
    _stop_signal = signal.SIGINT  # PostgreSQL's fast shutdown
    SOCKET_PORT = 5432  # names the socket file when there is no TCP port

    def __init__(self, *, durable: bool = False, tcp: bool = False,
                 template: Path | None = None, port: int | None = None) -> None:
        self.bin = find_postgres()
        self._user = _run_as()
        self.durable = durable
        self.template = template
        super().__init__(tcp=tcp, port=port)
        self.data = self.directory / "data"
        self._socket(f".s.PGSQL.{self.SOCKET_PORT}")

    def prepare(self) -> None:
        user = self._user
        if user is not None:  # the directory must belong to whoever runs the server
            os.chown(self.directory, user.pw_uid, user.pw_gid)
        if self.data.exists():
            return
        if self.template is not None:  # cp -a keeps the owner and the 0700 PostgreSQL wants
            command = ["cp", "-a", str(self.template), str(self.data)]
        else:
            command = [str(self.bin / "initdb"), "-D", str(self.data), "-U", SUPERUSER,
                       "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync",
                       "--no-instructions"]
        done = subprocess.run(
            command, capture_output=True, text=True, cwd=self.directory, timeout=120,
            user=user.pw_uid if user and not self.template else None,
            group=user.pw_gid if user and not self.template else None,
            extra_groups=[] if user and not self.template else None)
        if done.returncode != 0:
            raise RuntimeError(f"{command[0]} failed:\n{done.stdout}\n{done.stderr}")

    def _command(self) -> list[str]:
        settings = {
            "listen_addresses": self.host if self.port else "",
            "port": str(self.port or self.SOCKET_PORT),
            "unix_socket_directories": str(self.directory),
            "max_connections": "100", "shared_buffers": "32MB", "logging_collector": "off",
            "log_min_messages": "warning",
        }
        if not self.durable:
            settings.update(fsync="off", full_page_writes="off", synchronous_commit="on")
        command = [str(self.bin / "postgres"), "-D", str(self.data)]
        for key, value in settings.items():
            command += ["-c", f"{key}={value}"]
        return command

    def dsn(self, dbname: str = "postgres") -> str:
        """How clients connect: on TCP when the server listens there, else its socket."""
        if self.port:
            return f"host={self.host} port={self.port} user={SUPERUSER} dbname={dbname}"
        return self._socket_dsn(dbname)

    def _socket_dsn(self, dbname: str = "postgres") -> str:
        # Our own checks and commands go through the socket: nobody else can answer there
        # (on TCP, whoever took the port could, or hold a check until it times out).
        return (f"host={self.directory} port={self.port or self.SOCKET_PORT} "
                f"user={SUPERUSER} dbname={dbname}")

    def _ready(self) -> bool:
        import psycopg  # only here: finding binaries must work before the venv has it

        try:
            with psycopg.connect(self._socket_dsn(), connect_timeout=2) as conn:
                conn.execute("SELECT 1")
            return True
        except psycopg.OperationalError:
            return False

    def create_database(self, name: str, template: str = "template0") -> str:
        """A new database, a copy of ``template`` (by default empty); returns its connection
        string."""
        import psycopg
        from psycopg import sql

        with psycopg.connect(self._socket_dsn(), autocommit=True, connect_timeout=5) as conn:
            conn.execute(sql.SQL("CREATE DATABASE {} TEMPLATE {}").format(
                sql.Identifier(name), sql.Identifier(template)))
        return self.dsn(name)

    def drop_database(self, name: str) -> None:
        import psycopg
        from psycopg import sql

        with psycopg.connect(self._socket_dsn(), autocommit=True, connect_timeout=5) as conn:
            conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(
                sql.Identifier(name)))


if __name__ == "__main__":
    json.dump(survey(), sys.stdout)
    sys.stdout.write("\n")
