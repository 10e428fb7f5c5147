"""Which permanents pay a cost (CR 601.2g-h, 605.3a): the engine's choice when the player
leaves it (lands before creatures, colours the hand still needs kept untapped) and the
``pay_mana`` decision when the player pays by hand (docs/rulings.md, "Which permanents pay")."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from arbiter.server.rules.mana import ManaCost, after_paying, can_pay, plan_payment
from arbiter.server.rules.manual_payment import offers, still_owed

from .helpers import G, Scene


def cast_by_hand(g: G, pid: int, name: str) -> G:
    """Cast ``name`` with the act's ``manual`` flag: the player pays the mana by hand."""
    d = g.decision
    a = g.find("cast", f"Cast {name}", player=pid)
    assert a is not None, g.labels()
    g.table.act(d.player, d.serial, a.id, manual=True)
    g._collect()
    return g


def tapped(g: G, name: str) -> list[bool]:
    return [o.tapped for o in g.objs(name, "battlefield")]


# --------------------------------------------------------------------------- automatic


def test_601_2g_a_colour_another_card_in_hand_needs_stays_untapped() -> None:
    # Issue 29: Runeclaw Bear's {1} was paid with the Mountain while Lightning Bolt waited.
    g = (Scene().battlefield(0, "Forest", "Mountain", "Forest")
         .hand(0, "Runeclaw Bear", "Lightning Bolt").start())
    g.cast(0, "Runeclaw Bear")
    assert tapped(g, "Forest") == [True, True] and tapped(g, "Mountain") == [False]
    assert g.find("cast", "Cast Lightning Bolt") is not None  # still castable


def test_601_2g_with_nothing_else_in_hand_generic_mana_comes_from_the_most_plentiful() -> None:
    g = (Scene().battlefield(0, "Forest", "Mountain", "Mountain", "Forest", "Forest", "Forest")
         .hand(0, "Centaur Courser").start())
    g.cast(0, "Centaur Courser")  # {2}{G}: a Forest for {G}, then Forests (3 left to 2)
    assert tapped(g, "Mountain") == [False, False]


def test_605_3a_a_creature_pays_only_when_lands_cannot() -> None:
    # Issue 29: Llanowar Elves was tapped for generic mana beside an untapped Mountain.
    g = (Scene().battlefield(0, "Forest", "Forest", "Mountain", "Llanowar Elves")
         .hand(0, "Centaur Courser").start())
    g.cast(0, "Centaur Courser")
    assert not g.obj("Llanowar Elves").tapped
    assert tapped(g, "Forest") == [True, True] and tapped(g, "Mountain") == [True]


def test_605_3a_a_creature_pays_when_the_lands_are_not_enough() -> None:
    g = (Scene().battlefield(0, "Mountain", "Llanowar Elves")
         .hand(0, "Runeclaw Bear").start())
    g.cast(0, "Runeclaw Bear")
    assert g.obj("Llanowar Elves").tapped and g.obj("Mountain").tapped


def test_601_2h_the_preference_never_makes_a_payable_cost_unpayable() -> None:
    # Lands first would spend the dual land on {G} and leave nothing for {R}; the plain plan
    # (the Elves for {G}) is taken instead.
    plan = plan_payment(ManaCost.parse("{R}{G}"), {}, [(1, "RG"), (2, "G")],
                        last=frozenset({2}))
    assert plan is not None and sorted(plan.sources) == [(1, "R"), (2, "G")]


@settings(max_examples=200, deadline=None)
@given(cost=st.sampled_from(["{G}", "{1}{G}", "{2}{R}", "{R}{G}", "{3}", "{W}{U}", "{1}{B}{B}"]),
       produces=st.lists(st.sampled_from(["W", "U", "B", "R", "G", "C", "RG", "*"]),
                         max_size=6),
       keep=st.dictionaries(st.sampled_from("WUBRGC"), st.integers(0, 3)),
       last=st.sets(st.integers(0, 5)))
def test_601_2h_a_preferred_plan_exists_exactly_when_a_plain_one_does(
        cost: str, produces: list[str], keep: dict[str, int], last: set[int]) -> None:
    sources = list(enumerate(produces))
    c = ManaCost.parse(cost)
    plain = plan_payment(c, {}, sources)
    preferred = plan_payment(c, {}, sources, keep=keep, last=frozenset(last))
    assert (plain is None) == (preferred is None) == (not can_pay(c, {}, sources))
    if preferred is not None:  # it pays the cost exactly, each source once
        assert len({oid for oid, _ in preferred.sources}) == len(preferred.sources)
        left = c
        for _, color in preferred.sources:
            left = after_paying(left, color, 1)
        assert left.mana_value == 0


# --------------------------------------------------------------------------- by hand


def test_601_2g_paying_by_hand_asks_which_source_pays_once_the_cost_is_known() -> None:
    g = (Scene().battlefield(0, "Forest", "Mountain", "Forest")
         .hand(0, "Runeclaw Bear", "Lightning Bolt").start())
    cast_by_hand(g, 0, "Runeclaw Bear")
    d = g.decision
    assert d.kind == "pay_mana" and d.player == 0 and "{1}{G}" in d.prompt
    assert [a.kind for a in d.actions] == ["mana", "mana", "mana", "auto", "cancel"]
    # The player spends the Mountain on purpose (the engine would have kept it).
    g.choose("mana", "Tap Mountain for {R}")
    assert g.decision.kind == "pay_mana" and "{G}" in g.decision.prompt
    assert g.find("mana", "Mountain") is None
    second = g.objs("Forest", "battlefield")[1]
    g.choose("mana", obj=second.oid)
    assert g.decision.kind == "priority"
    assert [o.name for o in g.game.stack] == ["Runeclaw Bear"]
    assert tapped(g, "Forest") == [False, True] and tapped(g, "Mountain") == [True]
    assert not g.game.players[0].mana


def test_605_3a_a_creature_can_be_chosen_to_pay() -> None:
    g = (Scene().battlefield(0, "Forest", "Mountain", "Llanowar Elves")
         .hand(0, "Runeclaw Bear").start())
    cast_by_hand(g, 0, "Runeclaw Bear")
    g.choose("mana", "Tap Llanowar Elves for {G}").choose("mana", "Tap Mountain")
    assert g.obj("Llanowar Elves").tapped and not g.obj("Forest").tapped


def test_601_2g_the_rest_can_be_left_to_the_engine() -> None:
    g = (Scene().battlefield(0, "Forest", "Mountain", "Forest", "Llanowar Elves")
         .hand(0, "Centaur Courser", "Lightning Bolt").start())
    cast_by_hand(g, 0, "Centaur Courser")
    g.choose("mana", "Tap Llanowar Elves").choose("auto")
    # {G} from the Elves; the engine pays {2} with the Forests, keeping the Mountain for Bolt.
    assert g.decision.kind == "priority" and g.game.stack[-1].name == "Centaur Courser"
    assert tapped(g, "Forest") == [True, True] and tapped(g, "Mountain") == [False]


def test_730_1_cancelling_a_payment_takes_the_cast_back_and_taps_nothing() -> None:
    g = (Scene().battlefield(0, "Forest", "Mountain").hand(0, "Runeclaw Bear").start())
    cast_by_hand(g, 0, "Runeclaw Bear")
    g.choose("mana", "Tap Forest").choose("cancel")
    assert g.decision.kind == "priority" and not g.game.stack
    assert g.zone_names("hand", 0) == ["Runeclaw Bear"]
    assert not g.obj("Forest").tapped and not g.obj("Mountain").tapped
    assert not g.game.players[0].mana
    assert g.find("cast", "Cast Runeclaw Bear") is not None


def test_601_2h_a_source_is_offered_only_if_the_rest_can_still_be_paid() -> None:
    # Birds of Paradise making {R} would pay only the {1}, and the Mountain can't pay {G}.
    g = (Scene().battlefield(0, "Birds of Paradise", "Mountain")
         .hand(0, "Runeclaw Bear").start())
    cast_by_hand(g, 0, "Runeclaw Bear")
    labels = [a.label for a in g.decision.actions if a.kind == "mana"]
    assert labels == ["Tap Mountain for {R}", "Tap Birds of Paradise for {G}"]


def test_601_2h_mana_in_the_pool_is_spent_before_any_source_is_asked_for() -> None:
    g = (Scene().battlefield(0, "Forest", "Mountain", "Forest")
         .hand(0, "Runeclaw Bear").start())
    g.choose("mana", "Tap Forest for {G}")
    cast_by_hand(g, 0, "Runeclaw Bear")
    d = g.decision
    assert d.kind == "pay_mana" and "Pay {1} " in d.prompt
    g.choose("mana", "Tap Mountain")
    assert g.decision.kind == "priority" and not g.game.players[0].mana
    assert tapped(g, "Forest") == [True, False] and tapped(g, "Mountain") == [True]


def test_601_2g_without_the_manual_flag_no_payment_is_asked() -> None:
    g = Scene().battlefield(0, "Forest", "Mountain").hand(0, "Runeclaw Bear").start()
    g.cast(0, "Runeclaw Bear")
    assert g.decision.kind == "priority" and g.game.stack[-1].name == "Runeclaw Bear"


def test_602_2b_an_ability_paid_by_hand_asks_for_its_mana_too() -> None:
    g = (Scene().battlefield(0, "Drudge Skeletons", "Swamp", "Swamp").start())
    d = g.decision
    a = g.find("activate", "Drudge Skeletons")
    assert a is not None
    g.table.act(d.player, d.serial, a.id, manual=True)
    g._collect()
    assert g.decision.kind == "pay_mana"
    second = g.objs("Swamp", "battlefield")[1]
    g.choose("mana", obj=second.oid)
    assert g.decision.kind == "priority" and g.game.stack[-1].is_ability
    assert tapped(g, "Swamp") == [False, True]


def test_the_manual_flag_on_an_act_that_pays_nothing_is_ignored() -> None:
    g = Scene().battlefield(0, "Forest").hand(0, "Runeclaw Bear", "Forest").start()
    d = g.decision
    a = g.find("play_land", "Play Forest")
    assert a is not None
    g.table.act(d.player, d.serial, a.id, manual=True)
    g._collect()
    assert g.game.pay_by_hand is None
    g.cast(0, "Runeclaw Bear")  # a later act without the flag pays automatically
    assert g.decision.kind == "priority" and g.game.stack[-1].name == "Runeclaw Bear"


def test_still_owed_spends_the_pool_and_the_chosen_mana_on_coloured_symbols_first() -> None:
    cost = ManaCost.parse("{2}{G}{G}")
    assert str(still_owed(cost, {"G": 1}, [(7, "R")])) == "{1}{G}"
    assert offers(ManaCost.parse("{G}"), [(1, "R"), (2, "G")]) == [(2, "G", 1)]
