"""Getting the servers: dev.py installs them when it can, the fixtures start throwaway ones on
addresses no other run can take and end every process of them, whatever a test did, and where
they cannot be had the cluster tests fail saying what is missing (docs/cluster.md,
"Provisioning")."""

from __future__ import annotations

import importlib.util
import os
import re
import signal
import socket
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import psycopg
import pytest

from arbiter.testing import processes
from arbiter.testing.localservers import (
    LocalPostgres,
    LocalRedis,
    PortTaken,
    ServersUnavailable,
    find_postgres,
    find_redis,
    leftovers,
    survey,
)

ROOT = Path(__file__).resolve().parents[2]


def _owner_uid(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("Uid:"):
            return int(line.split()[1])
    raise AssertionError("no Uid line")


def _alive(pid: int) -> bool:
    return processes.state(pid) not in (None, "Z")


def test_throwaway_servers_answer_on_their_own_sockets_and_leave_nothing_behind() -> None:
    with LocalRedis() as redis, LocalPostgres() as postgres:  # (initdb: the real first start)
        assert redis.url == f"unix://{redis.directory}/redis.sock"
        assert redis._ready() and postgres._ready()
        with psycopg.connect(postgres.dsn(), connect_timeout=5) as conn:
            # No TCP at all: an address in its own directory, which no other run can take.
            assert conn.execute("SHOW listen_addresses").fetchone() == ("",)
            assert conn.execute("SHOW unix_socket_directories").fetchone() == (
                str(postgres.directory),)
        pids = redis.processes() + postgres.processes()
        assert len(postgres.processes()) > 1  # the postmaster and its helpers
        folders = [redis.directory, postgres.directory]
        if os.geteuid() == 0:  # PostgreSQL refuses root: it runs as postgres, on its own data
            assert postgres.pid is not None
            postgres_uid = _owner_uid(postgres.pid)
            assert postgres_uid != 0
            assert postgres.data.stat().st_uid == postgres_uid
    assert not any(_alive(pid) for pid in pids)
    assert not any(folder.exists() for folder in folders)


def test_servers_asked_for_tcp_listen_on_loopback_too(postgres_data: Path) -> None:
    with LocalRedis(tcp=True) as redis, LocalPostgres(tcp=True, template=postgres_data) as pg:
        assert redis.url == f"redis://127.0.0.1:{redis.port}"
        with socket.create_connection(("127.0.0.1", redis.port or 0), timeout=5) as s:
            s.sendall(b"PING\r\n")
            assert s.recv(16).startswith(b"+PONG")
        assert pg.dsn().startswith(f"host=127.0.0.1 port={pg.port} ")
        with psycopg.connect(pg.dsn(), connect_timeout=5) as conn:
            assert conn.execute("SHOW listen_addresses").fetchone() == ("127.0.0.1",)


@pytest.mark.parametrize("kind", ["redis", "postgres"])
def test_a_first_start_whose_port_was_taken_takes_another_but_a_restart_keeps_its_own(
        kind: str, postgres_data: Path) -> None:
    server = (LocalRedis(tcp=True) if kind == "redis"
              else LocalPostgres(tcp=True, template=postgres_data))
    try:
        chosen = server.port
        assert chosen is not None
        with socket.socket() as squatter:  # another run took the free port first
            squatter.bind(("127.0.0.1", chosen))
            squatter.listen()
            server.start()
            assert server.port != chosen and server._ready()
            taken = server.port
        server.stop()
        with socket.socket() as squatter:  # and now the port a restart needs
            squatter.bind(("127.0.0.1", taken))
            squatter.listen()
            with pytest.raises(PortTaken):
                server.start()
        assert server.port == taken and not server.processes()
    finally:
        server.cleanup()


def test_a_frozen_server_stops_every_process_of_it(own_postgres: LocalPostgres) -> None:
    postgres = own_postgres
    with psycopg.connect(postgres.dsn(), connect_timeout=5) as conn:  # its own backend
        backend = conn.info.backend_pid
        assert backend in postgres.processes()
        postgres.freeze()
        try:
            states = {pid: processes.state(pid) for pid in postgres.processes()}
        finally:
            postgres.thaw()
        conn.execute("SELECT 1")  # thawed, it answers again
    assert states[backend] == "T" and states[postgres.processes()[0]] == "T"
    assert set(states.values()) == {"T"}


def test_a_server_is_ended_whole_whatever_was_done_to_it(own_postgres: LocalPostgres) -> None:
    """Frozen, then its postmaster killed alone: its helpers and backends are orphans, stopped
    for good, each in a session of its own, below nobody. Ending the server still finds them
    (they run in its directory), as the session's check would."""
    postgres = own_postgres
    with psycopg.connect(postgres.dsn(), connect_timeout=5) as conn:
        backend = conn.info.backend_pid
        postgres.freeze()
        postmaster = postgres.pid
        assert postmaster is not None
        os.kill(postmaster, signal.SIGKILL)
        processes.wait_until(lambda: not _alive(postmaster), 10, "the postmaster to die")
        orphans = postgres.processes()
        assert backend in orphans and len(orphans) >= 4  # checkpointer, walwriter, ...
        assert all(processes.state(pid) == "T" for pid in orphans)
        assert not set(orphans) & set(processes.descendants(os.getpid(), processes.table()))
        assert set(orphans) <= set(leftovers())
        postgres.kill()
    assert not any(_alive(pid) for pid in orphans)
    assert not set(orphans) & set(leftovers())


def test_a_restarted_postgres_keeps_what_was_committed(own_postgres: LocalPostgres) -> None:
    postgres = own_postgres
    dsn = postgres.create_database("keep")
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute("CREATE TABLE t(x int)")
        conn.execute("INSERT INTO t VALUES (1)")
    postgres.kill()  # every process of it, at once
    postgres.start()
    with psycopg.connect(dsn, autocommit=True) as conn:
        assert conn.execute("SELECT x FROM t").fetchall() == [(1,)]


def test_the_session_fails_loudly_when_a_test_leaves_a_server_running(tmp_path: Path) -> None:
    (tmp_path / "conftest.py").write_text(
        "from tests.cluster.conftest import nothing_left_running  # noqa: F401\n")
    (tmp_path / "test_leaky.py").write_text(
        "from arbiter.testing.localservers import LocalRedis\n"
        "def test_leaks() -> None:\n"
        "    redis = LocalRedis()\n"
        "    redis.start()\n"
        "    redis.freeze()\n"
        "    print('LEAKED', redis.pid, redis.directory)\n")
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-s", "-rA",
         "--rootdir", str(tmp_path), str(tmp_path)], cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True, text=True,
        timeout=300)
    out = done.stdout + done.stderr
    assert done.returncode != 0, out
    found = re.search(r"LEAKED (\d+) (\S+)", out)
    assert found is not None, out
    pid = int(found[1])
    assert "servers of this run were left running after their tests" in out, out
    assert f"pid {pid} (T) in {found[2]}: " in out, out
    assert not _alive(pid)  # and the check ended it


def test_a_missing_server_is_named(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("ARBITER_REDIS_SERVER", str(tmp_path / "redis-server"))
    monkeypatch.setenv("ARBITER_PG_BIN", str(tmp_path))
    with pytest.raises(ServersUnavailable, match=r"ARBITER_REDIS_SERVER=.*not an executable"):
        find_redis()
    with pytest.raises(ServersUnavailable, match=r"ARBITER_PG_BIN=.*no `postgres` and `initdb`"):
        find_postgres()
    report = survey()
    assert "redis" not in report and "postgres" not in report
    assert len(report["missing"]) == 2  # type: ignore[arg-type]


def test_without_servers_the_cluster_tests_fail_and_say_why(tmp_path: Path) -> None:
    env = {**os.environ, "ARBITER_REDIS_SERVER": str(tmp_path / "no-such-redis-server")}
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-rA",
         "tests/cluster/test_directory.py::test_a_node_is_listed_while_it_beats"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    out = done.stdout + done.stderr
    assert done.returncode != 0, out
    assert "the cluster tests need real servers" in out and "no-such-redis-server" in out
    assert "skipped" not in out and " passed" not in out


def _load_dev() -> ModuleType:
    spec = importlib.util.spec_from_file_location("arbiter_dev_script", ROOT / "dev.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class _FakeMachine:
    """What dev.py sees of the machine: the survey's answers in turn, and the commands run."""

    def __init__(self, *surveys: dict[str, Any]) -> None:
        self.surveys = list(surveys)
        self.commands: list[list[str]] = []

    def survey(self) -> dict[str, Any]:
        return self.surveys.pop(0) if len(self.surveys) > 1 else self.surveys[0]

    def quiet(self, command: list[str], env: Any = None, *, fatal: bool = True) -> bool:
        self.commands.append(command)
        return True


MISSING_REDIS = {"missing": ["no Redis-protocol server: ..."], "postgres": "PostgreSQL 15.18"}
BOTH = {"missing": [], "redis": "redis-server 7.0.15", "postgres": "PostgreSQL 15.18"}


def _patch(monkeypatch: pytest.MonkeyPatch, dev: ModuleType, machine: _FakeMachine, *,
           root: bool, apt: bool) -> None:
    monkeypatch.setattr(dev, "_survey", machine.survey)
    monkeypatch.setattr(dev, "_quiet", machine.quiet)
    monkeypatch.setattr(dev.os, "geteuid", lambda: 0 if root else 1000)
    monkeypatch.setattr(dev.shutil, "which",
                        lambda name: "/usr/bin/apt-get" if apt and name == "apt-get" else None)


def test_dev_installs_only_what_is_missing_with_apt_get_when_root(
        monkeypatch: pytest.MonkeyPatch) -> None:
    dev = _load_dev()
    machine = _FakeMachine(MISSING_REDIS, BOTH)
    _patch(monkeypatch, dev, machine, root=True, apt=True)
    line = dev.ensure_cluster_servers()
    update, install = machine.commands
    assert update[0] == "apt-get" and "update" in update
    assert install[0] == "apt-get" and "install" in install and "-y" in install
    assert install[-1] == "redis-server" and "postgresql" not in install
    assert line == "[dev] cluster tests' servers: redis-server 7.0.15, PostgreSQL 15.18"


def test_dev_says_plainly_when_the_servers_cannot_be_had(
        monkeypatch: pytest.MonkeyPatch) -> None:
    dev = _load_dev()
    machine = _FakeMachine(MISSING_REDIS)
    _patch(monkeypatch, dev, machine, root=False, apt=True)
    line = dev.ensure_cluster_servers()
    assert machine.commands == []  # not root: nothing is installed
    assert "CANNOT RUN" in line and "no Redis-protocol server" in line


def test_dev_installs_nothing_when_both_are_there(monkeypatch: pytest.MonkeyPatch) -> None:
    dev = _load_dev()
    machine = _FakeMachine(BOTH)
    _patch(monkeypatch, dev, machine, root=True, apt=True)
    assert "CANNOT" not in dev.ensure_cluster_servers()
    assert machine.commands == []

