#!/usr/bin/env python3
"""Arbiter's two entry points, usable on a fresh machine with only Python 3.11.

    python3 dev.py serve [ARGS...]   start the server with its embedded defaults
    python3 dev.py test  [PYTEST ARGS...]   run ruff, mypy and the whole test suite
    python3 dev.py arbiter ARGS...   run any other `arbiter` subcommand in the environment

On first use (and whenever pyproject.toml changes) this creates `.venv/` beside this file and
installs the project into it in editable mode with its development extras. Nothing outside the
checkout is touched.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
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
        subprocess.run(
            [str(python), "-m", "pip", "install", "--quiet", "--upgrade", "pip"], check=True
        )
        subprocess.run(
            [str(python), "-m", "pip", "install", "--quiet", "-e", f"{ROOT}[dev]"], check=True
        )
        STAMP.write_text(digest + "\n")


def run_tests(args: list[str]) -> int:
    steps = [
        [str(BIN / "ruff"), "check", "."],
        [str(BIN / "mypy"), "protocol", "server", "clients"],
        [str(BIN / "python"), "-m", "pytest", *args],
    ]
    for step in steps:
        print(f"[dev] {' '.join(Path(step[0]).name if i == 0 else a for i, a in enumerate(step))}",
              flush=True)
        code = subprocess.run(step, cwd=ROOT).returncode
        if code != 0:
            return code
    return 0


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in {"serve", "test", "arbiter"}:
        print(__doc__)
        return 2
    ensure_environment()
    command, rest = argv[0], argv[1:]
    if command == "test":
        return run_tests(rest)
    arbiter = str(BIN / "arbiter")
    args = [arbiter, "serve", *rest] if command == "serve" else [arbiter, *rest]
    os.execv(arbiter, args)
    return 0  # pragma: no cover - execv does not return


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
