"""The layers of docs/architecture.md, enforced on the import graph.

The folder path is the import name (``arbiter/server/rooms/hub.py`` is
``arbiter.server.rooms.hub``), so every check here reads modules straight off the tree:

- the room core does no I/O (no trio, no sockets, no disk, no clock);
- the clients need no engine (a client in another language cannot import server code, and ours
  do not either), and the server imports nothing of the clients (its seat bots and the network
  bots share one pure core, ``arbiter.bots``, which does no I/O and imports only the protocol
  and the standard library);
- the transport knows nothing of the cluster (a node drives the room core through its inputs);
- the rules engine needs nothing of Arbiter but itself and the one refusal type with its codes
  (``arbiter.protocol.errors``), so it stays pure and never needs the room core;
- wire formats live in the protocol: only ``arbiter.protocol.ids`` (and its browser port,
  src/protocol/ids.js) takes room ids apart or puts them together, and the clients send no
  request they wrote out by hand as a map;
- the server does not import the testing tools (``arbiter.testing``: throwaway servers started
  with ctypes and /proc), except ``arbiter cluster``, whose job is to start them.
"""

from __future__ import annotations

import ast
import re
import sys
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


def test_the_room_core_imports_nothing_of_the_cluster() -> None:
    """A cluster node drives the core through its inputs (rooms/routing.py decides what the
    core does not hold); the core never reaches for the node."""
    assert "arbiter.server.cluster" in ROOMS_FORBIDDEN
    assert _offenders("arbiter/server/rooms", ("arbiter.server.cluster",)) == {}


def test_the_transport_knows_nothing_of_the_cluster() -> None:
    """``arbiter serve`` composes the two (arbiter/server/serve_cmd.py); the transport runs
    whichever server it is given."""
    assert len(list((PACKAGE / "server/net").glob("*.py"))) > 5
    assert _offenders("arbiter/server/net", ("arbiter.server.cluster",)) == {}


def test_clients_import_nothing_of_the_server() -> None:
    assert len(list((PACKAGE / "clients").rglob("*.py"))) > 10
    assert _offenders("arbiter/clients", ("arbiter.server",)) == {}


def test_the_server_imports_nothing_of_the_clients() -> None:
    # arbiter/server/net/static.py finds the web client's files with importlib's find_spec,
    # which imports nothing: only import statements count here.
    assert _offenders("arbiter/server", ("arbiter.clients",)) == {}


def test_the_bot_core_does_no_io_and_imports_only_the_protocol_and_the_standard_library(
        ) -> None:
    assert len(list((PACKAGE / "bots").glob("*.py"))) >= 3
    assert _offenders("arbiter/bots", (*ROOMS_FORBIDDEN, "arbiter.server", "arbiter.clients")) \
        == {}
    for path in sorted((PACKAGE / "bots").rglob("*.py")):
        found = imported_modules(path.read_text(), module_name(path),
                                 is_package=path.name == "__init__.py")
        others = {m for m in found if m.split(".")[0] not in sys.stdlib_module_names
                  and not m.startswith(("arbiter.protocol", "arbiter.bots"))}
        assert others == set(), path


def test_the_protocol_imports_no_other_layer() -> None:
    assert _offenders("arbiter/protocol", ("arbiter.server", "arbiter.clients")) == {}


def test_the_engine_needs_only_itself_and_the_refusal_type() -> None:
    allowed = ("arbiter.server.rules", "arbiter.protocol.errors")
    found = set()
    for path in (PACKAGE / "server/rules").rglob("*.py"):
        found |= {m for m in imported_modules(path.read_text(), module_name(path),
                                              is_package=path.name == "__init__.py")
                  if m == "arbiter" or m.startswith("arbiter.")}
    assert "arbiter.protocol.errors" in found  # the engine refuses with the wire's type
    assert {m for m in found if not any(m == a or m.startswith(a + ".") for a in allowed)} \
        == set()


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


# ---------------------------------------------------------------------- wire formats

# Methods that take a string apart at a separator, or test what it starts or ends with.
_TAKE_APART = frozenset({"split", "rsplit", "partition", "rpartition", "find", "rfind", "index",
                         "rindex", "count"})
_ENDS = frozenset({"startswith", "endswith"})
_NUMERIC = frozenset({"isdigit", "isdecimal", "isnumeric"})
_ROOMISH = re.compile(r"room|\brid\b|match_id", re.IGNORECASE)


def _dotted(node: ast.AST) -> bool:
    """A string expression with a dot in its literal text: ".", "12.", f"{match}." ..."""
    return any(isinstance(n, ast.Constant) and isinstance(n.value, str) and "." in n.value
               for n in ast.walk(node))


def _dotted_id(node: ast.JoinedStr) -> bool:
    """An f-string made of values and dots (and digits) alone: f"{match}.{game}.{n}"."""
    literal = [v.value for v in node.values if isinstance(v, ast.Constant)]
    return (any(isinstance(v, ast.FormattedValue) for v in node.values)
            and any("." in text for text in literal)
            and all(re.fullmatch(r"[0-9.]*", text) for text in literal))


def room_id_handling(source: str) -> list[str]:
    """Where ``source`` does by hand what arbiter.protocol.ids is for: takes a string apart
    at dots (``room.split(".")``, ``rid.rpartition(".")``), tests a dotted prefix
    (``rid.startswith(f"{match}.")``), puts values together with dots (``f"{m}.{g}.{n}"``,
    ``".".join(...)``, ``a + "." + b``) or asks whether a room's id is a number
    (``room_id.isdigit()``). Each as "line: code"."""
    found = []
    for node in ast.walk(ast.parse(source)):
        hit = False
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            name, target = node.func.attr, node.func.value
            hit = ((name in _TAKE_APART and any(_dotted(a) for a in node.args))
                   or (name in _ENDS and any(_dotted(a) and not isinstance(a, ast.Constant)
                                             for a in node.args))
                   or (name == "join" and isinstance(target, ast.Constant)
                       and target.value == ".")
                   or (name in _NUMERIC and bool(_ROOMISH.search(ast.unparse(target)))))
        elif isinstance(node, ast.JoinedStr):
            hit = _dotted_id(node)
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            left = node.left
            hit = (isinstance(left, ast.BinOp) and isinstance(left.op, ast.Add)
                   and isinstance(left.right, ast.Constant) and left.right.value == ".")
        if hit:
            found.append(f"{getattr(node, 'lineno', 0)}: {ast.unparse(node)}")
    return found


def hand_made_messages(source: str) -> list[str]:
    """Maps written out as protocol messages (a literal with a type tag ``"t"``, or
    ``dict(t=...)``) instead of built by arbiter.protocol's typed requests."""
    found = []
    for node in ast.walk(ast.parse(source)):
        literal = isinstance(node, ast.Dict) and any(
            isinstance(k, ast.Constant) and k.value == "t" for k in node.keys)
        call = (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                and node.func.id == "dict" and any(k.arg == "t" for k in node.keywords))
        if literal or call:
            found.append(f"{getattr(node, 'lineno', 0)}: {ast.unparse(node)}")
    return found


def _python_outside(folder: str, skip: str | None = None) -> list[Path]:
    return [path for path in sorted((ROOT / folder).rglob("*.py"))
            if "node_modules" not in path.parts
            and (skip is None or not path.is_relative_to(ROOT / skip))]


def test_only_the_protocol_takes_room_ids_apart_or_puts_them_together() -> None:
    paths = _python_outside("arbiter", skip="arbiter/protocol")
    assert len(paths) > 100
    found = {str(p.relative_to(ROOT)): hits for p in paths
             if (hits := room_id_handling(p.read_text()))}
    assert found == {}, "use arbiter.protocol.ids (docs/protocol.md, section 7)"


def test_the_room_id_check_sees_the_old_parse_sites() -> None:
    """What the hub, the SDK, the room core and a cluster node did before protocol/ids.py, and
    what the check must let be (a sentence's full stop, a file suffix, a dotted name in a
    message)."""
    old = {
        "hub": 'def match_id(room_id):\n    return room_id.split(".", 1)[0]\n',
        "sdk": 'def match_of(room):\n    return room.split(".", 1)[0]\n',
        "lifecycle": 'rid = f"{self.match_id}.{self.match_game}.{ev.data[\'game\']}"\n',
        "node": "if not room_id.isdigit():\n    pass\n",
        "prefix": 'nested.startswith(f"{main}.1.")\n',
        "rpartition": 'parent, _, n = rid.rpartition(".")\n',
        "join": '".".join([match, str(game), str(n)])\n',
        "plus": 'match + "." + str(game)\n',
    }
    for what, source in old.items():
        assert room_id_handling(source), what
    fine = ('say(text + ".")\n', 'path.endswith(".py")\n', 'stat.rsplit(")", 1)\n',
            'f"{option.owner.__name__}.{option.field} has no plain default"\n',
            'key[1:].isdigit()\n', 'room = rooms.get(room_id)\n')
    for source in fine:
        assert room_id_handling(source) == [], source


def test_the_clients_send_requests_only_through_the_typed_path() -> None:
    """Every request leaves arbiter/clients as an arbiter.protocol.requests value encoded by
    ``to_wire``: one encoding, checked against docs/protocol.md by tests/protocol."""
    paths = _python_outside("arbiter/clients")
    found = {str(p.relative_to(ROOT)): hits for p in paths
             if (hits := hand_made_messages(p.read_text()))}
    assert found == {}
    assert hand_made_messages('await self.request({"t": "join", "r": room})\n')
    assert hand_made_messages('pack(dict(t="act", r=room, s=1, a=0))\n')
    assert hand_made_messages('summary = {"r": room, "seats": []}\n') == []


# What the browser client's sources outside src/protocol may not do with room ids, line by line.
JS_ROOM_ID_HANDLING = re.compile(r"""
    \.(?:split|indexOf|lastIndexOf)\(\s*["'`][^"'`]*\.        # taken apart at a dot: .split(".")
  | \.(?:startsWith|endsWith)\(\s*(?:`[^`]*\.|[^)]*\+\s*["']\.)  # a dotted prefix built: `${m}.`
  | \}\.(?:\$\{[^}]*\}|[0-9]+)\.                            # put together: `${m}.${g}.${n}`
  | ["']\.["']\s*\+ | \+\s*["']\.["']\s*\+                  # or with +: m + "." + g
  | \[[^\]\n]*(?:0-9|\\d)[^\]\n]*\.[^\]\n]*\]               # a regular expression's class of
  | \[[^\]\n]*\.[^\]\n]*(?:0-9|\\d)[^\]\n]*\]               # digits and dots: [0-9.]+
""", re.VERBOSE)
WEB_SRC = PACKAGE / "clients" / "web" / "src"


def js_room_id_handling(source: str) -> list[str]:
    return [f"{n}: {line.strip()}" for n, line in enumerate(source.splitlines(), 1)
            if JS_ROOM_ID_HANDLING.search(line)]


def test_the_browser_client_handles_room_ids_only_in_its_protocol() -> None:
    paths = [p for p in sorted(WEB_SRC.rglob("*.js"))
             if not p.is_relative_to(WEB_SRC / "protocol")]
    assert len(paths) > 5
    found = {p.name: hits for p in paths if (hits := js_room_id_handling(p.read_text()))}
    assert found == {}, "use src/protocol/ids.js (docs/protocol.md, section 7)"
    old = ['  return String(room).split(".")[0];',
           "    const m = /^#\\/room\\/([0-9A-Za-z.]+)$/.exec(location.hash);",
           "  const sub = `${match}.${game}.${n}`;",
           '  if (rid.startsWith(match + ".")) return;',
           "  const dot = room.indexOf('.');"]
    for line in old:
        assert js_room_id_handling(line), line
    fine = ['  const line = raw.split("#", 1)[0].trim();', "  return `${n} cards.`;",
            '  text = "Game over." + more;', "  const cls = /^[WUBRGC]$/.test(s);",
            "  text += ` Match: ${score}.${m.over ? ' Over.' : ' Next game.'}`;",
            '  if (name.endsWith(".js")) load(name);']
    for line in fine:
        assert js_room_id_handling(line) == [], line
