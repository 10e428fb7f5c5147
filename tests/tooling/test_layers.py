"""The layers of docs/architecture.md, enforced: the room core does no I/O (no trio, no
sockets, no disk, no clock), and the clients need no engine (a client in another language
cannot import server code, and ours do not either)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# What the room core may not import: I/O, time, concurrency, and the layers that do I/O.
ROOMS_FORBIDDEN = ("trio", "websockets", "socket", "sqlite3", "asyncio", "threading", "time",
                   "datetime", "os", "arbiter.server.net", "arbiter.server.store.db",
                   "arbiter.server.store.gate")


def imported_modules(path: Path) -> set[str]:
    """Every module ``path`` imports (absolute names; relative imports resolved inside
    arbiter's packages), at module level or inside functions."""
    tree = ast.parse(path.read_text(), filename=str(path))
    folder = path.parent.relative_to(ROOT).parts
    package = ["arbiter", *folder]
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[:len(package) - (node.level - 1)]
                module = ".".join([*base, *([node.module] if node.module else [])])
            else:
                module = node.module or ""
            names.add(module)
            names.update(f"{module}.{alias.name}" for alias in node.names)
    return names


def _offenders(folder: str, forbidden: tuple[str, ...]) -> dict[str, list[str]]:
    out = {}
    for path in sorted((ROOT / folder).rglob("*.py")):
        bad = sorted(m for m in imported_modules(path)
                     if any(m == f or m.startswith(f + ".") for f in forbidden))
        if bad:
            out[str(path.relative_to(ROOT))] = bad
    return out


def test_the_room_core_does_no_io() -> None:
    assert len(list((ROOT / "server/rooms").glob("*.py"))) > 8
    assert _offenders("server/rooms", ROOMS_FORBIDDEN) == {}


def test_clients_import_nothing_of_the_server() -> None:
    assert len(list((ROOT / "clients").rglob("*.py"))) > 10
    assert _offenders("clients", ("arbiter.server", "server")) == {}


def test_the_checks_see_imports_anywhere(tmp_path: Path) -> None:
    folder = ROOT / "server" / "rooms"
    probe = folder / "_probe_for_test.py"
    probe.write_text("def f():\n    import trio\n    from ..net import server\n")
    try:
        assert imported_modules(probe) >= {"trio", "arbiter.server.net",
                                           "arbiter.server.net.server"}
        assert "server/rooms/_probe_for_test.py" in _offenders("server/rooms", ROOMS_FORBIDDEN)
    finally:
        probe.unlink()
