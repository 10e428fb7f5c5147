"""The rules engine is sans-I/O: it imports nothing that does I/O, keeps time or draws global
randomness (DESIGN.md, "The rules core")."""

from __future__ import annotations

import ast
from pathlib import Path

import arbiter.server.rules

FORBIDDEN = {"trio", "websockets", "msgpack", "socket", "time", "random", "asyncio", "threading",
             "sqlite3", "datetime", "os", "secrets"}
ENGINE = Path(arbiter.server.rules.__file__).parent


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def test_engine_imports_no_io_clock_or_global_random() -> None:
    files = sorted(ENGINE.rglob("*.py"))
    assert len(files) > 10
    offenders = {str(f.relative_to(ENGINE)): sorted(_imports(f) & FORBIDDEN) for f in files}
    offenders = {k: v for k, v in offenders.items() if v}
    assert offenders == {}


def test_the_purity_check_would_notice_a_forbidden_import(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("import time\nfrom random import choice\n")
    assert _imports(bad) & FORBIDDEN == {"time", "random"}
