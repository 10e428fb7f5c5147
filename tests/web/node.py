"""Node.js and the client's npm packages, for the tests of the browser client's sources.

The browser client (arbiter/clients/web) is plain JavaScript built by esbuild; its tests run in
Node.js (the sources) and in Chromium (the built page). ``python3 dev.py test`` installs Node.js and
the pinned npm packages (package-lock.json) before the suite runs; where they are missing these
tests fail and say why, never skip."""

from __future__ import annotations

import hashlib
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
    """arbiter/clients/web/node_modules as package-lock.json pins it (npm ci when it is missing or
    the lock file changed since)."""
    modules = WEB / "node_modules"
    stamp = modules / ".arbiter-lock"
    lock = hashlib.sha256((WEB / "package-lock.json").read_bytes()).hexdigest()
    if not stamp.exists() or stamp.read_text() != lock:
        npm = shutil.which("npm")
        if npm is None:
            pytest.fail("npm is not installed: `python3 dev.py test` installs it")
        done = subprocess.run([npm, "ci", "--no-audit", "--no-fund"], cwd=WEB,
                              capture_output=True, text=True, timeout=600)
        if done.returncode != 0:
            pytest.fail(f"npm ci failed in {WEB}:\n{done.stdout}\n{done.stderr}")
        stamp.write_text(lock)
    return modules
