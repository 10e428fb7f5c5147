"""First strike and double strike (CR 510.4, 702.4, 702.7): when an attacking or blocking
creature has either as the combat damage step begins, a first combat damage step deals only
their damage, and a second one deals the rest and double strikers' damage again. Players get
priority between the two steps."""

from __future__ import annotations

from .helpers import G, Scene


def _blocked(attacker: str, blocker: str, scene: Scene | None = None) -> G:
    """``attacker`` (player 0's) attacks player 1 and ``blocker`` blocks it; the game stops
    with the first priority after blockers are declared."""
    g = (scene or Scene()).battlefield(0, attacker).battlefield(1, blocker)
    g = g.at("begin_combat").start()
    g.pass_(2).attack((attacker, 1)).pass_(2).block(1, (blocker, attacker))
    assert g.decision.kind == "priority" and g.game.step == "declare_blockers"
    return g


def _combat_damage_log(g: G) -> list[str]:
    return [e.text for e in g.events if "combat damage" in e.text]


def test_510_4_first_strike_kills_before_regular_damage() -> None:
    g = _blocked("Viashino Spearhunter", "Grizzly Bears")  # 2/1 first strike against a 2/2
    g.pass_(2)
    # The first-strike step: only the Spearhunter has dealt damage, and the Bears are dead
    # before they could deal theirs.
    assert g.game.step == "first_strike_damage" and g.decision.kind == "priority"
    assert g.zone_names("graveyard", 1) == ["Grizzly Bears"]
    g.pass_(2)
    assert g.game.step == "combat_damage"
    assert g.obj("Viashino Spearhunter").damage == 0
    assert _combat_damage_log(g) == ["Viashino Spearhunter deals 2 combat damage to Grizzly Bears."]


def test_510_4_without_first_strike_there_is_one_damage_step() -> None:
    g = _blocked("Hill Giant", "Grizzly Bears")
    g.pass_(2)  # straight from declare blockers to the one combat damage step
    assert g.game.step == "combat_damage"
    assert g.zone_names("graveyard", 1) == ["Grizzly Bears"] and g.obj("Hill Giant").damage == 2


def test_702_7b_a_blocker_with_first_strike_strikes_first_and_the_attacker_second() -> None:
    # A 2/2 first striker blocking a 3/3: it deals its 2 first, survives that step, then takes
    # 3 in the regular step, where it deals nothing more.
    g = _blocked("Hill Giant", "White Knight")
    g.pass_(2)
    assert g.game.step == "first_strike_damage"
    assert g.obj("Hill Giant").damage == 2 and g.obj("White Knight").damage == 0
    g.pass_(2)
    assert g.zone_names("graveyard", 1) == ["White Knight"]
    assert g.obj("Hill Giant").damage == 2  # the Knight struck only once


def test_510_4_first_strike_given_before_damage_strikes_first() -> None:
    # Kindled Fury makes the blocking Bears a 3/2 first striker: the Giant dies first.
    scene = Scene().battlefield(1, "Mountain").hand(1, "Kindled Fury")
    g = _blocked("Hill Giant", "Grizzly Bears", scene)
    g.pass_(1)  # the active player passes; the defending player casts
    g.cast(1, "Kindled Fury", "Grizzly Bears").resolve()
    g.pass_(2)
    assert g.game.step == "first_strike_damage"
    assert g.zone_names("graveyard", 0) == ["Hill Giant"]
    g.pass_(2)
    assert g.obj("Grizzly Bears").damage == 0


def test_702_7c_first_strike_gained_after_the_first_step_still_deals_regular_damage() -> None:
    # The Griffin strikes in the first step; the Bears had neither first strike nor double
    # strike as that step began, so gaining first strike afterwards keeps them in the second.
    g = (Scene().battlefield(0, "Razorfoot Griffin", "Grizzly Bears", "Mountain")
         .hand(0, "Kindled Fury").at("begin_combat").start())
    g.pass_(2).attack(("Razorfoot Griffin", 1), ("Grizzly Bears", 1)).until("first_strike_damage")
    assert g.game.step == "first_strike_damage" and g.life(1) == 18
    g.cast(0, "Kindled Fury", "Grizzly Bears").resolve()
    g.pass_(2)
    assert g.game.step == "combat_damage"
    assert g.life(1) == 15  # the Bears' 3; the Griffin did not strike again


def test_702_4b_double_strike_deals_damage_in_both_steps() -> None:
    g = Scene().battlefield(0, "Fencing Ace").at("begin_combat").start()
    g.pass_(2).attack(("Fencing Ace", 1)).until("first_strike_damage")
    assert g.game.step == "first_strike_damage" and g.life(1) == 19
    g.pass_(2)
    assert g.game.step == "combat_damage" and g.life(1) == 18


def test_702_4b_a_double_striker_dead_in_the_first_step_does_not_strike_again() -> None:
    # Both strike in the first step, the 3/4 first striker and the 1/1 double striker; only
    # the Ace would strike again, but it is gone.
    g = _blocked("Fencing Ace", "Giant Spider",
                 Scene().battlefield(1, "Mountain").hand(1, "Kindled Fury"))
    g.pass_(1).cast(1, "Kindled Fury", "Giant Spider").resolve()  # a 3/4 first striker
    g.pass_(2)
    assert g.zone_names("graveyard", 0) == ["Fencing Ace"]  # 3 damage to the 1/1 at once
    assert g.obj("Giant Spider").damage == 1
    g.pass_(2)
    assert g.obj("Giant Spider").damage == 1  # the Ace is gone: no second blow


def test_702_4d_double_strike_given_after_the_first_step_strikes_again() -> None:
    g = (Scene().battlefield(0, "Viashino Spearhunter", "Mountain").hand(0, "Twin Blades")
         .at("begin_combat").start())
    g.pass_(2).attack(("Viashino Spearhunter", 1)).until("first_strike_damage")
    assert g.game.step == "first_strike_damage" and g.life(1) == 18
    g.cast(0, "Twin Blades", "Viashino Spearhunter").resolve()
    g.pass_(2)
    assert g.life(1) == 16


def test_702_4b_double_strike_trample_and_deathtouch_together() -> None:
    # A 4/4 trampler with double strike and deathtouch blocked by a 2/4: in the first step 1
    # damage is lethal to the blocker (702.2c), so 3 trample over; the blocker is destroyed
    # (704.5h); in the second step the attacker is blocked by nothing and all 4 trample over
    # (702.19d).
    scene = (Scene().battlefield(0, "Swamp", "Mountain").hand(0, "Venom Draught", "Twin Blades"))
    g = _blocked("Stampeding Rhino", "Giant Spider", scene)
    g.cast(0, "Venom Draught", "Stampeding Rhino").resolve()
    g.cast(0, "Twin Blades", "Stampeding Rhino").resolve()
    g.pass_(2)
    assert g.decision.kind == "assign_damage"
    assert [a.index for a in g.decision.actions] == [1, 2, 3, 4]
    assert g.labels()[0].endswith(", 3 to B")
    g.choose("amount", "1 to Giant Spider")
    assert g.game.step == "first_strike_damage"
    assert g.life(1) == 17 and g.zone_names("graveyard", 1) == ["Giant Spider"]
    g.pass_(2)
    assert g.game.step == "combat_damage" and g.life(1) == 13
    assert g.obj("Stampeding Rhino").damage == 0  # the Spider never struck


def test_510_1c_a_blocked_creature_whose_blocker_left_deals_no_damage() -> None:
    scene = Scene().battlefield(0, "Mountain").hand(0, "Lightning Bolt")
    g = _blocked("Hill Giant", "Grizzly Bears", scene)
    g.cast(0, "Lightning Bolt", "Grizzly Bears").resolve()
    g.pass_(2)
    assert g.game.step == "combat_damage" and g.life(1) == 20  # still blocked, no trample


def test_702_19d_a_trampler_whose_blocker_left_assigns_all_its_damage_to_the_player() -> None:
    scene = Scene().battlefield(0, "Mountain").hand(0, "Lightning Bolt")
    g = _blocked("Stampeding Rhino", "Grizzly Bears", scene)
    g.cast(0, "Lightning Bolt", "Grizzly Bears").resolve()
    g.pass_(2)
    assert g.life(1) == 16


def test_510_4_the_first_strike_step_in_a_multiplayer_combat() -> None:
    # Two defending players (CR 802): the first striker hits one of them in the first step,
    # the other attacker hits the other in the second.
    g = (Scene(3).battlefield(0, "Viashino Spearhunter", "Hill Giant").at("begin_combat")
         .start())
    g.pass_(3).attack(("Viashino Spearhunter", 1), ("Hill Giant", 2))
    g.until("first_strike_damage")
    assert g.game.step == "first_strike_damage"
    assert (g.life(1), g.life(2)) == (18, 20)
    g.pass_(3)
    assert (g.life(1), g.life(2)) == (18, 17)
