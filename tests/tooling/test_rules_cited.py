"""tools/rules_cited.py finds the rule numbers tests cite, and the rules of a section none
cites."""

from __future__ import annotations

import importlib.util
from pathlib import Path

_spec = importlib.util.spec_from_file_location(
    "rules_cited", Path(__file__).resolve().parents[2] / "tools" / "rules_cited.py")
assert _spec is not None and _spec.loader is not None
rules_cited = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(rules_cited)


def test_citations_in_docstrings_and_test_names_are_found(tmp_path: Path) -> None:
    (tmp_path / "test_x.py").write_text(
        '"""CR 104.3a and 726.2."""\ndef test_800_4a_leaving() -> None: ...\n'
        "x = 1104.3  # not a rule\n")
    assert rules_cited.cited(tmp_path) == {"104.3a", "726.2", "800.4a"}


def test_the_rules_of_a_section_come_from_the_rules_text() -> None:
    text = ("807.1. The Grand Melee variant...\n807.4a There is one...\n"
            "See rule 807.4b.\n808.1. Team vs. Team...\n")
    assert rules_cited.rules_in(text, ["807"]) == ["807.1", "807.4a"]
