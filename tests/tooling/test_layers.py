"""The layers of docs/architecture.md, enforced on the import graph.

The folder path is the import name (``arbiter/server/rooms/hub.py`` is
``arbiter.server.rooms.hub``), so every check here reads modules straight off the tree:

- the room core does no I/O (no trio, no sockets, no disk, no clock);
- the clients need no engine (a client in another language cannot import server code, and ours
  do not either), and the server imports nothing of the clients (its seat bots and the network
  bots share one pure core, ``arbiter.bots``);
- the transport knows nothing of the cluster (a node drives the room core through its inputs);
- the server does not import the testing tools (``arbiter.testing``: throwaway servers started
  with ctypes and /proc), except ``arbiter cluster``, whose job is to start them.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "arbiter"

# What the room core may not import: I/O, time, concurrency, and the layers that do I/O.
ROOMS_FORBIDDEN = ("trio", "websockets", "socket", "sqlite3", "asyncio", "threading", "time",
                   "datetime", "os", "arbiter.server.net", "arbiter.server.store.db",
                   "arbiter.server.store.gate", "arbiter.server.cluster")


def module_name(path: Path) -> str:
    """The import name of a file under ``arbiter/``: its path, dotted."""
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported_modules(source: str, module: str, *, is_package: bool = False) -> set[str]:
    """Every module ``source`` (the text of ``module``) imports: absolute names, relative
    imports resolved, at module level or inside functions."""
    tree = ast.parse(source)
    package = module.split(".") if is_package else module.split(".")[:-1]
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[:len(package) - (node.level - 1)]
                name = ".".join([*base, *([node.module] if node.module else [])])
            else:
                name = node.module or ""
            names.add(name)
            names.update(f"{name}.{alias.name}" for alias in node.names)
    return names


def _offenders(folder: str, forbidden: tuple[str, ...]) -> dict[str, list[str]]:
    out = {}
    for path in sorted((ROOT / folder).rglob("*.py")):
        found = imported_modules(path.read_text(), module_name(path),
                                 is_package=path.name == "__init__.py")
        bad = sorted(m for m in found if any(m == f or m.startswith(f + ".") for f in forbidden))
        if bad:
            out[str(path.relative_to(ROOT))] = bad
    return out


def test_the_room_core_does_no_io() -> None:
    assert len(list((PACKAGE / "server/rooms").glob("*.py"))) > 8
    assert _offenders("arbiter/server/rooms", ROOMS_FORBIDDEN) == {}


def test_clients_import_nothing_of_the_server() -> None:
    assert len(list((PACKAGE / "clients").rglob("*.py"))) > 10
    assert _offenders("arbiter/clients", ("arbiter.server",)) == {}


def test_the_protocol_imports_no_other_layer() -> None:
    assert _offenders("arbiter/protocol", ("arbiter.server", "arbiter.clients")) == {}


def test_the_server_leaves_the_testing_tools_to_arbiter_cluster() -> None:
    assert (PACKAGE / "testing" / "localservers.py").exists()
    offenders = _offenders("arbiter/server", ("arbiter.testing",))
    allowed = "arbiter/server/cluster/cluster_cmd.py"
    assert allowed in offenders, "the check sees the one import that is allowed"
    del offenders[allowed]
    assert offenders == {}


def test_every_module_is_named_by_its_path() -> None:
    """No package-dir mapping: what setuptools installs is the tree as it stands."""
    assert module_name(PACKAGE / "server" / "rooms" / "hub.py") == "arbiter.server.rooms.hub"
    assert all((folder / "__init__.py").exists()
               for folder in PACKAGE.rglob("*") if folder.is_dir()
               and any(folder.glob("*.py")) and "node_modules" not in folder.parts)


def test_the_checks_see_imports_anywhere() -> None:
    source = "def f():\n    import trio\n    from ..net import server\n"
    assert imported_modules(source, "arbiter.server.rooms.probe") >= {
        "trio", "arbiter.server.net", "arbiter.server.net.server"}
    assert imported_modules("from . import hub\n", "arbiter.server.rooms",
                            is_package=True) >= {"arbiter.server.rooms.hub"}
