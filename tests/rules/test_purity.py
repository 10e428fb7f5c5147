"""The rules engine is sans-I/O: it imports nothing that does I/O, keeps time or draws global
randomness (docs/architecture.md, "The rules engine"); its modules import one another without
cycles, even inside functions; and it names no card."""

from __future__ import annotations

import ast
import re
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


def _engine_imports(path: Path) -> set[str]:
    """The engine modules ``path`` imports at run time (anywhere but under TYPE_CHECKING)."""
    module = ".".join(path.relative_to(ENGINE).with_suffix("").parts)
    package = module.split(".")[:-1]
    found: set[str] = set()

    class Visitor(ast.NodeVisitor):
        def visit_If(self, node: ast.If) -> None:
            if isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
                for n in node.orelse:
                    self.visit(n)
                return
            self.generic_visit(node)

        def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
            if not node.level:
                return
            base = package[:len(package) - (node.level - 1)]
            target = [*base, *(node.module.split(".") if node.module else [])]
            candidates = [".".join(target)] + [".".join([*target, a.name]) for a in node.names]
            found.update(c for c in candidates if (ENGINE / (c.replace(".", "/") + ".py"))
                         .exists())

    Visitor().visit(ast.parse(path.read_text(), filename=str(path)))
    return found - {module}


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    cycles = []
    state: dict[str, int] = {}  # 1: on the path, 2: done

    def visit(node: str, path: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                cycles.append([*path[path.index(nxt):], nxt])
            elif nxt not in state:
                visit(nxt, [*path, nxt])
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node, [node])
    return cycles


def test_the_engine_has_no_import_cycles() -> None:
    graph = {".".join(f.relative_to(ENGINE).with_suffix("").parts): _engine_imports(f)
             for f in ENGINE.rglob("*.py") if f.name != "__init__.py"}
    assert "casting" in graph["flow"] and "casting" in graph["triggers"]  # the walk sees them
    assert _cycles(graph) == []


def test_the_cycle_check_would_notice_a_cycle() -> None:
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == [["a", "b", "c", "a"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def _card_names_in_code(path: Path, names: set[str]) -> set[str]:
    """Card names that ``path``'s string constants mention, docstrings aside."""
    tree = ast.parse(path.read_text(), filename=str(path))
    docstrings = {id(node.value) for node in ast.walk(tree)
                  if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)}
    pattern = re.compile("|".join(rf"\b{re.escape(n)}\b" for n in sorted(names)))
    return {m.group(0) for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str)
            and id(node) not in docstrings for m in pattern.finditer(node.value)}


def test_no_card_name_in_engine_code(tmp_path: Path) -> None:
    """Cards are data (docs/architecture.md, "Cards are data"): a mechanic is a word of the
    vocabulary any card may use, never a check of one card's name. Only the card definitions
    (``cards/``) name cards; docstrings may, as examples."""
    from arbiter.server.rules.cards.pool import POOL, TEST_POOL, TOKEN_DEFS

    names = set(POOL) | set(TEST_POOL) | set(TOKEN_DEFS)
    offenders = {str(f.relative_to(ENGINE)): sorted(found) for f in sorted(ENGINE.rglob("*.py"))
                 if "cards" not in f.relative_to(ENGINE).parts
                 and (found := _card_names_in_code(f, names))}
    assert offenders == {}
    bad = tmp_path / "bad.py"
    bad.write_text('"""Shahrazad is an example here."""\nif name == "Shahrazad":\n    pass\n')
    assert _card_names_in_code(bad, names) == {"Shahrazad"}
