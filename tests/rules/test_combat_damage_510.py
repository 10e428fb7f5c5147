"""Combat damage (CR 510): the attacking player divides a blocked creature's damage among its
blockers (510.1c), and with trample what is left once every blocker has lethal damage may go to
the player or planeswalker it attacks (702.19b). Only divisions that can end legally are
offered; the first option is always lethal damage to the blocker asked about."""

from __future__ import annotations

from .helpers import G, Scene

BEARS = ("Grizzly Bears", "Runeclaw Bear")  # 2/2 each
FLYERS = ("Assault Griffin", "Plague Stinger")  # 3/2 and 1/1: lethal damage 2 and 1


def _blocked_twice(attacker: str, blockers: tuple[str, str] = BEARS, players: int = 2,
                   **scene: object) -> G:
    g = (Scene(players, **scene).battlefield(0, attacker)  # type: ignore[arg-type]
         .battlefield(1, *blockers).at("begin_combat").start())
    g.pass_(players).attack((attacker, 1)).pass_(players)
    g.block(1, *((b, attacker) for b in blockers)).pass_(players)
    return g


def _amounts(g: G) -> list[int]:
    amounts = [a.index for a in g.decision.actions]
    assert [a.to_wire()["n"] for a in g.decision.actions] == amounts  # as clients see them
    return amounts


def test_510_1c_the_attacking_player_divides_damage_among_two_blockers() -> None:
    g = _blocked_twice("Hill Giant")
    d = g.decision
    assert (d.kind, d.player) == ("assign_damage", 0)
    asked = g.game.objects[d.actions[0].obj]  # type: ignore[index]
    assert _amounts(g) == [2, 0, 1, 3]  # lethal first, then anything up to all 3
    g.choose("amount", f"1 to {asked.name}")
    # The last blocker takes the rest: no second question.
    assert g.decision.kind == "priority" and g.game.step == "combat_damage"
    other = "Runeclaw Bear" if asked.name == "Grizzly Bears" else "Grizzly Bears"
    assert g.obj(asked.name).damage == 1  # survives
    assert other in g.zone_names("graveyard", 1)
    assert "Hill Giant" in g.zone_names("graveyard", 0)  # 4 damage from the two Bears


def test_510_1c_all_the_damage_may_go_to_one_blocker() -> None:
    g = _blocked_twice("Hill Giant")
    asked = g.game.objects[g.decision.actions[0].obj]  # type: ignore[index]
    g.choose("amount", f"0 to {asked.name}")
    assert g.obj(asked.name).damage == 0
    assert g.zone_names("graveyard", 1) == [
        "Runeclaw Bear" if asked.name == "Grizzly Bears" else "Grizzly Bears"]


def test_702_19b_trample_reaches_the_player_only_past_lethal_damage_to_every_blocker() -> None:
    g = _blocked_twice("Abyssal Persecutor", FLYERS)  # 6/6 flying, trample
    assert g.game.objects[g.decision.actions[0].obj].name == "Assault Griffin"  # type: ignore
    assert _amounts(g) == [2, 0, 1, 3, 4, 5, 6]
    g.choose("amount", "2 to Assault Griffin")
    # Lethal to the Griffin: the Stinger may take from its lethal 1 up to all 4 that are
    # left, and the rest tramples over to the player.
    assert g.decision.kind == "assign_damage" and _amounts(g) == [1, 2, 3, 4]
    assert g.labels()[1].startswith("2 to Plague Stinger") and g.labels()[1].endswith(", 2 to B")
    assert ", " not in g.labels()[3]  # all 4 to the Stinger: nothing left to trample over
    g.choose("amount", "2 to Plague Stinger")
    assert g.life(1) == 18
    assert sorted(g.zone_names("graveyard", 1)) == ["Assault Griffin", "Plague Stinger"]


def test_702_19b_short_of_lethal_on_one_blocker_nothing_tramples_over() -> None:
    g = _blocked_twice("Abyssal Persecutor", FLYERS)
    g.choose("amount", "1 to Assault Griffin")
    # The Griffin did not get lethal damage, so the Stinger must take all that is left.
    assert g.decision.kind == "priority"
    assert g.life(1) == 20 and g.obj("Assault Griffin").damage == 1
    assert g.zone_names("graveyard", 1) == ["Plague Stinger"]


def test_702_19b_one_blocker_more_than_lethal_is_the_attacking_players_choice() -> None:
    g = (Scene().battlefield(0, "Abyssal Persecutor").battlefield(1, "Assault Griffin")
         .at("begin_combat").start())
    g.pass_(2).attack(("Abyssal Persecutor", 1)).pass_(2)
    g.block(1, ("Assault Griffin", "Abyssal Persecutor")).pass_(2)
    assert _amounts(g) == [2, 3, 4, 5, 6]
    g.choose("amount", "6 to")
    assert g.life(1) == 20


def test_702_19b_trample_past_a_blocker_hits_the_planeswalker_it_attacks() -> None:
    g = (Scene().battlefield(0, "Abyssal Persecutor")
         .battlefield(1, "Karn Liberated", counters={"loyalty": 6})
         .battlefield(1, "Assault Griffin").at("begin_combat").start())
    g.pass_(2).attack(("Abyssal Persecutor", "Karn Liberated")).pass_(2)
    g.block(1, ("Assault Griffin", "Abyssal Persecutor")).pass_(2)
    assert g.labels()[0].endswith(", 4 to Karn Liberated")
    g.choose("amount", "2 to")
    assert g.obj("Karn Liberated").counters["loyalty"] == 2 and g.life(1) == 20


def test_800_4a_the_attacking_player_concedes_while_dividing_damage() -> None:
    g = _blocked_twice("Hill Giant", BEARS, 3, variant="free_for_all")
    assert g.decision.kind == "assign_damage"
    g.concede(0)
    # The Giant left with its owner (CR 800.4a): nobody deals or takes damage from it, and the
    # game goes on for the other two.
    assert not g.table.finished and g.game.players_in_game() == [1, 2]
    assert g.obj("Grizzly Bears").damage == 0 and g.obj("Runeclaw Bear").damage == 0
    assert g.decision.kind == "priority"
