"""Node.js and the client's npm packages, for the tests of the browser client's sources.

The browser client (arbiter/clients/web) is plain JavaScript built by esbuild; its tests run in
Node.js (the sources) and in Chromium (the built page). ``python3 dev.py test`` installs Node.js and
the pinned npm packages (package-lock.json) before the suite runs; where they are missing these
tests fail and say why, never skip."""

from __future__ import annotations

import fcntl
import hashlib
import json
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "arbiter" / "clients" / "web"


def node() -> str:
    path = shutil.which("node")
    if path is None:
        pytest.fail("Node.js is not installed: `python3 dev.py test` installs it (apt-get "
                    "install nodejs npm), or install it by hand")
    return path


def node_modules() -> Path:
    """arbiter/clients/web/node_modules as package-lock.json pins it (npm ci when it is missing,
    the lock file changed since, or a package it holds does not load).

    Held under a file lock: the xdist group keeps the tests that call this on one worker, but
    nothing else stops two runners (another worker, another pytest) from installing into the
    one folder at once. A package that does not load after an install is installed once more
    before this fails: a fresh clone's suite once found esbuild's lib/main.js missing after an
    `npm ci` that had said it succeeded."""
    modules = WEB / "node_modules"
    stamp = modules / ".arbiter-lock"
    lock = hashlib.sha256((WEB / "package-lock.json").read_bytes()).hexdigest()
    with open(WEB / ".node_modules.lock", "w") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        if stamp.exists() and stamp.read_text() == lock and _loads() is None:
            return modules
        for _ in range(2):
            _npm_ci()
            problem = _loads()
            if problem is None:
                stamp.write_text(lock)
                return modules
        pytest.fail(f"the npm packages in {modules} do not load after npm ci:\n{problem}")


def _npm_ci() -> None:
    npm = shutil.which("npm")
    if npm is None:
        pytest.fail("npm is not installed: `python3 dev.py test` installs it")
    done = subprocess.run([npm, "ci", "--no-audit", "--no-fund"], cwd=WEB,
                          capture_output=True, text=True, timeout=600)
    if done.returncode != 0:
        pytest.fail(f"npm ci failed in {WEB}:\n{done.stdout}\n{done.stderr}")


def _loads() -> str | None:
    """None when every package package.json names imports; else what Node.js said."""
    manifest = json.loads((WEB / "package.json").read_text())
    names = [*manifest.get("dependencies", {}), *manifest.get("devDependencies", {})]
    script = "".join(f"await import({json.dumps(name)});" for name in names)
    done = subprocess.run([node(), "--input-type=module", "-e", script], cwd=WEB,
                          capture_output=True, text=True, timeout=120)
    return None if done.returncode == 0 else done.stderr[-2000:]
