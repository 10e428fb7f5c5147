"""The pure parts of Limited events stay pure: no I/O, no clock, no randomness but the seeded
``Rng``, and nothing of the server beyond the rules engine's card data and generator (so the
event engine, not these parts, decides how events meet rooms and the log)."""

from __future__ import annotations

from tests.tooling.test_layers import PACKAGE, ROOMS_FORBIDDEN, ROOT, _offenders, imported_modules

EVENTS = "arbiter/server/events"
ALLOWED_ARBITER = ("arbiter.protocol.errors", "arbiter.server.rules.rng",
                   "arbiter.server.rules.cards", "arbiter.server.events")


def test_the_events_parts_do_no_io_and_draw_only_from_the_seeded_rng() -> None:
    assert len(list((PACKAGE / "server/events").glob("*.py"))) >= 5
    assert _offenders(EVENTS, (*ROOMS_FORBIDDEN, "random", "secrets")) == {}


def test_the_events_parts_import_only_the_refusal_type_and_the_engines_cards_and_rng() -> None:
    outside = {}
    for path in sorted((ROOT / EVENTS).glob("*.py")):
        module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        found = imported_modules(path.read_text(), module, is_package=path.name == "__init__.py")
        bad = sorted(m for m in found if m.startswith("arbiter")
                     and not any(m == a or m.startswith(a + ".") for a in ALLOWED_ARBITER))
        if bad:
            outside[path.name] = bad
    assert outside == {}
