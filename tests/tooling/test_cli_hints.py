"""The commands the CLI prints for a person to run next work where they were printed: through
dev.py ``arbiter`` is in the checkout's .venv/bin, not on PATH (issue 29)."""

from __future__ import annotations

import sys
from pathlib import Path

from arbiter.server.cluster.cluster_cmd import INVOKED_AS, client_hint, command_name


def test_the_cluster_hints_use_the_form_dev_py_says_it_was_run_with() -> None:
    command = command_name({INVOKED_AS: "python3 dev.py arbiter", "PATH": ""})
    hint = client_hint(["ws://a/", "ws://b/"], command)
    assert "    python3 dev.py arbiter bot --url ws://a/,ws://b/ --create" in hint
    assert "    python3 dev.py arbiter play --url" in hint
    assert "\n    arbiter " not in hint and not hint.startswith("    arbiter ")


def test_without_dev_py_arbiter_on_path_or_else_the_module_form(tmp_path: Path) -> None:
    assert command_name({"PATH": str(tmp_path)}) == f"{sys.executable} -m arbiter.server.cli"
    tool = tmp_path / "arbiter"
    tool.write_text("#!/bin/sh\n")
    tool.chmod(0o755)
    assert command_name({"PATH": str(tmp_path)}) == "arbiter"


def test_dev_py_says_how_it_runs_the_cli() -> None:
    dev = (Path(__file__).resolve().parents[2] / "dev.py").read_text()
    assert f'os.environ["{INVOKED_AS}"] = "python3 dev.py arbiter"' in dev
