"""The browser client's built files (arbiter/clients/web/dist, served by ``arbiter serve`` and
shipped as package data) are exactly what a fresh build of the sources gives
(arbiter/clients/web/build.mjs with the packages package-lock.json pins); rebuild with
``node build.mjs`` in arbiter/clients/web."""

from __future__ import annotations

import fnmatch
import subprocess
import tomllib
from pathlib import Path

from .node import ROOT, WEB, node, node_modules


def _files(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes()
            for p in sorted(root.rglob("*")) if p.is_file()}


def test_the_shipped_client_is_a_fresh_build_of_its_sources(tmp_path: Path) -> None:
    node_modules()
    out = tmp_path / "dist"
    done = subprocess.run([node(), "build.mjs", "--out", str(out)], cwd=WEB,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    fresh, shipped = _files(out), _files(WEB / "dist")
    assert sorted(fresh) == sorted(shipped), "rebuild with `node build.mjs` in arbiter/clients/web"
    stale = [name for name in fresh if fresh[name] != shipped[name]]
    assert stale == [], (f"{stale} differ from a fresh build: run `node build.mjs` in "
                         "arbiter/clients/web")


def test_every_built_file_is_package_data() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    patterns = config["package-data"]["arbiter.clients"]
    files = [f"web/dist/{name}" for name in _files(WEB / "dist")]
    assert files and "web/dist/index.html" in files
    assert [f for f in files if not any(fnmatch.fnmatch(f, p) for p in patterns)] == []
