#!/usr/bin/env python3
"""Arbiter's two entry points, usable on a fresh machine with only Python 3.11.

    python3 dev.py serve [ARGS...]   start the server with its embedded defaults
    python3 dev.py test  [PYTEST ARGS...]   run ruff, mypy and the whole test suite
    python3 dev.py check [PYTEST ARGS...]   the inner loop: ruff, mypy and the pure tests
    python3 dev.py cluster [--nodes 3 ...]   a local cluster to try: Redis, PostgreSQL, N nodes
    python3 dev.py arbiter ARGS...   run any other `arbiter` subcommand in the environment

``test`` runs the suite on 4 pytest-xdist workers (``-n 4 --dist loadgroup``; give ``-n`` to
choose, ``-n 0`` for none): most of its time is spent waiting on subprocesses, sockets and real
servers, which the workers overlap. ``check`` runs, in one process and in under a minute,
the tests that need nothing but Python: those with none of the markers pyproject.toml
registers (``servers``, ``cluster``, ``browser``, ``e2e``, ``slow``; tests/conftest.py applies
them by folder and file), with hypothesis's ``check`` profile (fewer examples where a test does
not set its count). Any marker expression selects a part of the suite: ``dev.py test -m
cluster``, ``dev.py test -m "servers or e2e"``, ``dev.py test -m "not browser"``.

On first use (and whenever pyproject.toml changes) this creates `.venv/` beside this file and
installs the project into it in editable mode with its development extras. Nothing outside the
checkout is touched, with one exception: the cluster tests (tests/cluster) start throwaway Redis
and PostgreSQL servers, and when either is missing and this runs as root on a machine with
apt-get (a fresh Debian CI machine), ``test`` installs the distribution's packages first
(docs/cluster.md, "Provisioning"); likewise the browser client's tests (tests/web) drive the
distribution's Chromium and build with Node.js, and ``test`` installs chromium, nodejs and npm
the same way when they are missing. Where they cannot be had, those tests fail saying what is
missing, and the summary at the end says so too.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import tomllib
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
STAMP = VENV / ".arbiter-install-stamp"


def _pyproject_digest() -> str:
    return hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()


def ensure_environment() -> None:
    """Create the virtual environment and (re)install the package when needed."""
    python = BIN / "python"
    if not python.exists():
        print(f"[dev] creating virtual environment in {VENV}", flush=True)
        venv.EnvBuilder(with_pip=True, clear=True).create(VENV)
    digest = _pyproject_digest()
    if not STAMP.exists() or STAMP.read_text().strip() != digest:
        print("[dev] installing arbiter (editable) with its dev extras", flush=True)
        _quiet([str(python), "-m", "pip", "install", "--quiet", "--upgrade", "pip"])
        _quiet([str(python), "-m", "pip", "install", "--quiet", "-e", f"{ROOT}[dev]"])
        STAMP.write_text(digest + "\n")


def _quiet(command: list[str], env: dict[str, str] | None = None, *, fatal: bool = True
           ) -> bool:
    """Run an install step, showing its output only if it fails: pip passes on the build
    backend's notes (setuptools explains its editable-install finder every time), which say
    nothing to someone who just wants to run the tests."""
    done = subprocess.run(command, capture_output=True, text=True, env=env)
    if done.returncode != 0:
        sys.stdout.write(done.stdout)
        sys.stderr.write(done.stderr)
        if fatal:
            raise SystemExit(f"[dev] failed: {' '.join(command)}")
        print(f"[dev] failed: {' '.join(command)}", flush=True)
    return done.returncode == 0


# What the cluster tests need, as Debian 12 packages: Valkey is not in its main archive, Redis
# 7.0 speaks the same protocol. The key is what the survey reports when it is missing.
SERVER_PACKAGES = {"redis": "redis-server", "postgres": "postgresql"}


def _survey() -> dict[str, object]:
    """What arbiter.testing.localservers finds: the servers, and what is missing."""
    done = subprocess.run([str(BIN / "python"), "-m", "arbiter.testing.localservers"],
                          capture_output=True, text=True, cwd=ROOT)
    if done.returncode != 0:
        return {"missing": [f"the server survey failed: {done.stderr.strip()}"]}
    report: dict[str, object] = json.loads(done.stdout)
    return report


def _apt_install(packages: list[str], why: str) -> bool:
    """Install Debian packages with apt-get (update, then install), quietly unless it fails;
    only as root on a machine that has apt-get. True when they were installed."""
    if not (packages and os.name == "posix" and os.geteuid() == 0 and shutil.which("apt-get")):
        return False
    print(f"[dev] {why}: installing {' '.join(packages)} with apt-get (update, then install)",
          flush=True)
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    wait = ["-o", "DPkg::Lock::Timeout=300"]  # another apt-get may hold the lock a while
    return (_quiet(["apt-get", *wait, "update", "-qq"], env, fatal=False)
            and _quiet(["apt-get", *wait, "install", "-y", "-qq", "--no-install-recommends",
                        *packages], env, fatal=False))


def ensure_cluster_servers() -> str:
    """Make sure a Redis-protocol server and PostgreSQL are installed (apt-get, as root, when
    they are not); return the line the summary ends with."""
    report = _survey()
    wanted = [package for key, package in SERVER_PACKAGES.items() if key not in report]
    if report["missing"] and _apt_install(
            wanted, "the cluster tests start throwaway Redis and PostgreSQL servers"):
        report = _survey()
    missing = report["missing"]
    assert isinstance(missing, list)
    if missing:
        line = ("[dev] cluster tests CANNOT RUN here (they fail, they are not skipped): "
                + "; ".join(missing))
    else:
        line = f"[dev] cluster tests' servers: {report['redis']}, {report['postgres']}"
    return line


# What the browser client's tests need (tests/web), as Debian 12 packages: the page runs in the
# distribution's Chromium (Playwright drives it, never a browser of its own) and is built and
# unit-tested with Node.js and npm.
CHROMIUM = Path("/usr/bin/chromium")


def _missing_browser_tools() -> list[str]:
    missing = [] if CHROMIUM.exists() else ["chromium"]
    missing += [package for package, command in (("nodejs", "node"), ("npm", "npm"))
                if shutil.which(command) is None]
    return missing


def ensure_browser_tools() -> str:
    """Make sure Chromium, Node.js and npm are installed (apt-get, as root, when they are
    not); return the line the summary ends with."""
    wanted = _missing_browser_tools()
    if _apt_install(wanted, "the browser client's tests need them"):
        wanted = _missing_browser_tools()
    if wanted:
        return ("[dev] browser client tests CANNOT RUN here (they fail, they are not skipped): "
                f"missing {', '.join(wanted)}")
    return f"[dev] browser client tests: {CHROMIUM}, node {shutil.which('node')}"


# `test`'s pytest-xdist workers. Twice the 2 cores of the machine this was tuned on: most tests
# wait (on subprocesses, sockets, Redis, PostgreSQL, Chromium) far more than they compute.
WORKERS = 4


def run_tests(args: list[str]) -> int:
    summaries = [ensure_cluster_servers(), ensure_browser_tools()]
    for summary in summaries:
        print(summary, flush=True)
    chosen = any(a.startswith(("-n", "--numprocesses", "--dist")) or a == "no:xdist"
                 for a in args)
    parallel = [] if chosen else ["-n", str(WORKERS), "--dist", "loadgroup"]
    code = _run_steps([*parallel, *args])
    for summary in summaries:
        if "CANNOT" in summary:  # repeated last, where nobody can miss it (pytest's line
            print(summary, flush=True)  # stays last when all is well: CI reads it)
    return code


def markers() -> list[str]:
    """The markers pyproject.toml registers: what a test needs beyond Python."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    return [line.split(":", 1)[0] for line in config["tool"]["pytest"]["ini_options"]["markers"]]


def run_check(args: list[str]) -> int:
    """The inner loop: the tests with none of the markers, in one process (they only compute:
    workers would add their start-up and overlap nothing)."""
    pure = f"not ({' or '.join(markers())})"
    env = {**os.environ, "HYPOTHESIS_PROFILE": os.environ.get("HYPOTHESIS_PROFILE", "check")}
    return _run_steps(["-m", pure, *args], env)


def _run_steps(args: list[str], env: dict[str, str] | None = None) -> int:
    steps: list[list[str]] = [
        [str(BIN / "ruff"), "check", "."],
        [str(BIN / "mypy"), "-p", "arbiter"],
        [str(BIN / "python"), "-m", "pytest", *args],
    ]
    for step in steps:
        print(f"[dev] {' '.join(Path(step[0]).name if i == 0 else a for i, a in enumerate(step))}",
              flush=True)
        code = subprocess.run(step, cwd=ROOT, env=env).returncode
        if code != 0:
            return code
    return 0


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in {"serve", "test", "check", "cluster", "arbiter"}:
        print(__doc__)
        return 2
    ensure_environment()
    command, rest = argv[0], argv[1:]
    if command == "test":
        return run_tests(rest)
    if command == "check":
        return run_check(rest)
    if command == "cluster":
        summary = ensure_cluster_servers()  # the same servers the cluster tests use
        print(summary, flush=True)
        if "CANNOT" in summary:
            return 1
    arbiter = str(BIN / "arbiter")
    # The commands it prints for people to run next say it the way that works here.
    os.environ["ARBITER_INVOKED_AS"] = "python3 dev.py arbiter"
    args = [arbiter, command, *rest] if command in ("serve", "cluster") else [arbiter, *rest]
    os.execv(arbiter, args)
    return 0  # pragma: no cover - execv does not return


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
