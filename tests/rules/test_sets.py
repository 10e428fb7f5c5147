"""The sets as the server ships them (arbiter/server/rules/cards/sets/): each card's
definition agrees with its set's card data, and ``arbiter cards`` lists them."""

from __future__ import annotations

import pytest

from arbiter.server import cli
from arbiter.server.rules.cards.catalog import type_line
from arbiter.server.rules.cards.pool import lookup
from arbiter.server.rules.cards.sets import SETS, Printing, m10, printings

M10 = printings("M10")


def test_m10_card_data_lists_the_229_cards_besides_the_basic_lands() -> None:
    assert len(M10) == 229
    assert [p.number for p in M10] == list(range(1, 230))
    assert {p.rarity for p in M10} == {"C", "U", "R", "M"}


@pytest.mark.parametrize("p", [p for p in M10 if lookup(p.name) is not None],
                         ids=lambda p: p.name)
def test_each_definition_agrees_with_its_card_data(p: Printing) -> None:
    card = lookup(p.name)
    assert card is not None
    assert (str(card.cost) if card.cost is not None else "") == p.cost
    assert type_line(card) == p.type_line
    assert card.text == p.text
    if p.power and p.power != "*":
        assert (card.power, card.toughness) == (int(p.power), int(p.toughness))
    if p.loyalty:
        assert card.loyalty == int(p.loyalty)


def test_every_card_of_m10_is_playable() -> None:
    missing = [p.name for p in M10 if lookup(p.name) is None]
    assert missing == []


def test_the_set_file_holds_its_cards_in_collector_number_order() -> None:
    number = {p.name: p.number for p in M10}
    numbers = [number[c.name] for c in m10.CARDS]
    assert numbers == sorted(numbers)


def test_arbiter_cards_lists_the_set_name_first_in_collector_order(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["cards", "--set", "M10"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [ln.split("  ")[0] for ln in lines] == [p.name for p in M10]
    assert lines[0].startswith("Ajani Goldmane  {2}{W}{W}  Legendary Planeswalker")
    assert "  5/5  M" in next(ln for ln in lines if ln.startswith("Baneslayer Angel"))


def test_arbiter_cards_with_text_prints_the_oracle_text_indented(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["cards", "--set", "m10", "--text"]) == 0
    out = capsys.readouterr().out
    assert "Lightning Bolt  {R}  Instant  C\n    Lightning Bolt deals 3 damage to any target.\n" \
        in out


def test_arbiter_cards_lists_the_sets_and_refuses_an_unknown_one(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["cards"]) == 0
    assert capsys.readouterr().out.startswith(f"M10  {SETS['M10']}  ")
    assert cli.main(["cards", "--set", "ZZZ"]) == 2
    assert "unknown set 'ZZZ'" in capsys.readouterr().err


def test_the_catalog_says_where_each_card_of_a_set_is_printed() -> None:
    from arbiter.server.rules.cards.catalog import cards
    data = cards()
    assert {k: data["Baneslayer Angel"][k] for k in ("set", "number", "rarity")} == {
        "set": "M10", "number": 4, "rarity": "M"}
    assert data["Lightning Bolt"]["rarity"] == "C"  # defined in the pool, printed in M10
    assert "set" not in data["Hill Giant"]  # a pool card that is in no set here
    assert all(data[p.name]["set"] == "M10" for p in M10)
