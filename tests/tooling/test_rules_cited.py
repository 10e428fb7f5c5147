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


def test_addresses_and_decimals_are_not_rules(tmp_path: Path) -> None:
    (tmp_path / "test_y.py").write_text(
        'URL = "ws://127.0.0.1:8765"\nlimit = 200.000\nwait = 240.0\nhost = "192.168.1.20"\n'
        "seconds = 100.05  # ... and 1.5, 12.25\n"
        '"""CR 104.3a, 800.4 and 702.19c."""\ndef test_702_19c_trample() -> None: ...\n'
        "ends = [510.1]  # CR 510.1, at the end of a list\n")
    assert rules_cited.cited(tmp_path) == {"104.3a", "800.4", "702.19c", "510.1"}


def test_the_rules_of_a_section_come_from_the_rules_text() -> None:
    text = ("807.1. The Grand Melee variant...\n807.4a There is one...\n"
            "See rule 807.4b.\n808.1. Team vs. Team...\n")
    assert rules_cited.rules_in(text, ["807"]) == ["807.1", "807.4a"]
