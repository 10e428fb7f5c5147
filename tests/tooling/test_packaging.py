"""The distribution installs one import name, ``arbiter``, the folder of that name as it stands
(pyproject.toml); the ``arbiter`` command imports only the subcommand it runs."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _pyproject() -> dict:  # type: ignore[type-arg]
    return tomllib.loads((ROOT / "pyproject.toml").read_text())


def test_the_distribution_installs_the_arbiter_folder_as_it_stands() -> None:
    """No package-dir mapping: the folder path is the import name, and setuptools finds every
    package under ``arbiter/``."""
    config = _pyproject()["tool"]["setuptools"]
    assert "package-dir" not in config
    assert config["packages"]["find"]["include"] == ["arbiter*"]


def test_the_code_imports_its_packages_by_the_installed_name() -> None:
    """``import server`` would load a second copy of a module beside ``arbiter.server``'s."""
    offenders = []
    for folder in ("arbiter", "tests", "bench", "tools"):
        for path in (ROOT / folder).rglob("*.py"):
            if "node_modules" in path.parts:
                continue
            for n, line in enumerate(path.read_text().splitlines(), 1):
                stripped = line.strip()
                if stripped.startswith(("from ", "import ")) and stripped.split()[1].split(
                        ".")[0] in ("server", "protocol", "clients"):
                    offenders.append(f"{path.relative_to(ROOT)}:{n}: {stripped}")
    assert offenders == []


def _modules_loaded_by(argv: list[str]) -> set[str]:
    code = ("import sys\nfrom arbiter.server import cli\n"
            f"try:\n    cli.main({argv!r})\nexcept SystemExit:\n    pass\n"
            "print(' '.join(sorted({m.split('.')[0] for m in sys.modules})))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    return set(out.split()[-1000:])


def test_help_and_serve_do_not_load_the_clients_libraries() -> None:
    heavy = {"textual", "matplotlib"}
    assert _modules_loaded_by(["--help"]) & (heavy | {"trio", "websockets"}) == set()
    serve = _modules_loaded_by(["serve", "--help"])
    assert serve & heavy == set()
    assert "websockets" in serve, "the check sees what a subcommand imports"
