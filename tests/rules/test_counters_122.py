"""+1/+1 and -1/-1 counters (CR 122): they modify power and toughness in layer 7c, and a pair
of one and the other is removed as a state-based action (CR 704.5q)."""

from __future__ import annotations

from .helpers import G, Scene


def _pt(g: G, name: str) -> list[int]:
    shown: list[int] = g.view(1)[g.obj(name).oid]["pt"]
    return shown


def test_122_1_a_counter_is_a_marker_every_player_sees() -> None:
    g = Scene().battlefield(0, "Forest", "Grizzly Bears").hand(0, "Growth Rune").start()
    g.cast(0, "Growth Rune", "Grizzly Bears").resolve()
    bears = g.obj("Grizzly Bears")
    assert bears.counters == {"+1/+1": 1}
    assert g.view(1)[bears.oid]["k"] == {"+1/+1": 1} == g.view(0)[bears.oid]["k"]


def test_122_1a_plus_counters_add_and_minus_counters_subtract() -> None:
    g = (Scene().battlefield(0, "Swamp", "Grizzly Bears", counters={"+1/+1": 2})
         .battlefield(0, "Hill Giant", counters={"-1/-1": 1}).start())
    assert _pt(g, "Grizzly Bears") == [4, 4] and _pt(g, "Hill Giant") == [2, 2]


def test_122_1a_minus_counters_can_leave_a_creature_with_no_toughness() -> None:
    g = (Scene().battlefield(0, "Swamp", "Swamp", "Runeclaw Bear")
         .hand(0, "Wither Rune", "Wither Rune").start())
    g.cast(0, "Wither Rune", "Runeclaw Bear").resolve()
    assert _pt(g, "Runeclaw Bear") == [1, 1]
    g.cast(0, "Wither Rune", "Runeclaw Bear").resolve()
    assert g.zone_names("graveyard", 0)[-1] == "Runeclaw Bear"  # CR 704.5f


def test_704_5q_plus_and_minus_counters_are_removed_in_pairs() -> None:
    g = (Scene().battlefield(0, "Swamp", "Grizzly Bears", counters={"+1/+1": 2})
         .hand(0, "Wither Rune").start())
    g.cast(0, "Wither Rune", "Grizzly Bears").resolve()
    bears = g.obj("Grizzly Bears")
    assert bears.counters == {"+1/+1": 1}  # one pair removed, N = min(2, 1)
    assert _pt(g, "Grizzly Bears") == [3, 3]
    assert g.view(1)[bears.oid]["k"] == {"+1/+1": 1}


def test_122_1a_counters_apply_after_setting_and_before_switching() -> None:
    # A +1/+1 counter on a creature set to 1/1 (7b) makes it 2/2 (7c); Child of Night (2/1)
    # with a +1/+1 counter is 3/2, switched (7d) 2/3.
    g = (Scene().battlefield(0, "Island", "Island", "Hill Giant", counters={"+1/+1": 1})
         .battlefield(0, "Child of Night", counters={"+1/+1": 1})
         .hand(0, "Shrinking Hex", "Inversion Trick").start())
    g.cast(0, "Shrinking Hex", "Hill Giant").resolve()
    assert _pt(g, "Hill Giant") == [2, 2]
    g.cast(0, "Inversion Trick", "Child of Night").resolve()
    assert _pt(g, "Child of Night") == [2, 3]
