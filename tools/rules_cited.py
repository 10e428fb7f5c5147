#!/usr/bin/env python3
"""Which Comprehensive Rules numbers the tests cite, by rule.

    python3 tools/rules_cited.py [TESTS_DIR]                      every rule cited, by section
    python3 tools/rules_cited.py --rules CR.txt --section 807     rules of 807 nobody cites

A rule such as 104.3a counts as cited where a test file says "104.3a" (a docstring, a comment)
or names a test after it ("test_104_3a_..."). Citing a rule is a promise that the test
exercises it; this tool only finds the citations. With ``--rules``, the Comprehensive Rules text
(the plain-text edition Wizards of the Coast publishes) lists every rule of the sections asked
for, so the tool can say which of them no test cites.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import defaultdict
from pathlib import Path

# A rule number: a section of 100-999, a sub-number of 1-3 digits that does not start with 0,
# and an optional letter (104.3a, 800.4, 702.19c; "test_702_19c" in a test's name). Not part
# of a dotted address or a longer decimal: 127.0.0.1, 200.000 and 240.0 are no rules.
CITED = re.compile(r"(?<![\d.])([1-9]\d{2})[._]([1-9]\d{0,2})([a-z])?(?!\d)(?![._]\d)")
RULE_LINE = re.compile(r"^(\d{3})\.(\d{1,3})([a-z])?\.? ")


def cited(tests: Path) -> set[str]:
    found = set()
    for path in sorted(tests.rglob("*.py")):
        for m in CITED.finditer(path.read_text(errors="replace")):
            found.add(f"{m.group(1)}.{m.group(2)}{m.group(3) or ''}")
    return found


def rules_in(text: str, sections: list[str]) -> list[str]:
    out = []
    for line in text.splitlines():
        m = RULE_LINE.match(line)
        if m and m.group(1) in sections:
            out.append(f"{m.group(1)}.{m.group(2)}{m.group(3) or ''}")
    return list(dict.fromkeys(out))


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tests", nargs="?", default="tests", type=Path)
    parser.add_argument("--rules", type=Path, help="the Comprehensive Rules as plain text")
    parser.add_argument("--section", action="append", default=[],
                        help="a rule section such as 807 (repeatable); needs --rules")
    args = parser.parse_args(argv)
    found = cited(args.tests)
    if args.section:
        if args.rules is None:
            parser.error("--section needs --rules")
        wanted = rules_in(args.rules.read_text(errors="replace"), args.section)
        missing = [r for r in wanted if r not in found]
        print(f"{len(wanted) - len(missing)} of {len(wanted)} rules of "
              f"{', '.join(args.section)} are cited by a test")
        for rule in missing:
            print(f"  not cited: {rule}")
        return 0
    by_section: dict[str, list[str]] = defaultdict(list)
    for rule in sorted(found, key=lambda r: [int(x) if x.isdigit() else x
                                             for x in re.split(r"[.]|(?<=\d)(?=[a-z])", r)]):
        by_section[rule[:3]].append(rule)
    for section, rules in sorted(by_section.items()):
        print(f"{section}: {' '.join(rules)}")
    print(f"{len(found)} rules cited in {args.tests}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
