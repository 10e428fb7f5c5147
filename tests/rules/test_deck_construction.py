"""Deck construction (CR 100.2a, 100.4a, 903.5a-c) and the supplementary decks of the variants
(CR 901.3, 902.3, 904.3): every violation is reported at once, with its line and its rule, and
no game starts with an illegal deck."""

from __future__ import annotations

import pytest

from arbiter.protocol.errors import Code, Refusal
from arbiter.server.rules import GameConfig, PlayerConfig, Table
from arbiter.server.rules.cards.decks import READY_MADE, DeckList, parse_deck_list, ready_made
from arbiter.server.rules.cards.formats import (
    CASUAL,
    COMMANDER,
    CONSTRUCTED,
    LIMITED,
    READY_FORMATS,
    Needs,
    deck_problems,
)
from arbiter.server.rules.config import validate

EVERYTHING = Needs(planar=True, schemes=True, vanguard=True)
NOTHING = Needs()


def _problems(text: str, fmt: str, needs: Needs = NOTHING) -> list[str]:
    return [str(p) for p in deck_problems(parse_deck_list(text), fmt, needs)]


def _sixty(extra: str = "") -> str:
    return "24 Mountain\n4 Lightning Bolt\n4 Hill Giant\n4 Lava Axe\n24 Forest\n" + extra


def test_100_2a_a_constructed_deck_has_at_least_sixty_cards() -> None:
    assert _problems(_sixty(), CONSTRUCTED) == []
    problems = _problems("20 Mountain\n4 Lightning Bolt\n", CONSTRUCTED)
    assert problems == ["the deck has 24 cards; a constructed deck has at least 60 (CR 100.2a)"]


def test_100_2a_at_most_four_of_a_card_other_than_basic_lands() -> None:
    text = "40 Mountain\n4 Lightning Bolt\n3 Hill Giant\n2 Hill Giant\n11 Lava Axe\n"
    assert _problems(text, CONSTRUCTED) == [
        "line 4 ('2 Hill Giant'): 5 cards named Hill Giant; a constructed deck has at most 4 "
        "of a card other than basic lands (CR 100.2a)",
        "line 5 ('11 Lava Axe'): 11 cards named Lava Axe; a constructed deck has at most 4 of "
        "a card other than basic lands (CR 100.2a)",
    ]
    # Basic lands are exempt, however many (Wastes is a basic land too).
    assert _problems("50 Wastes\n10 Mountain\n", CONSTRUCTED) == []


def test_100_4a_a_sideboard_has_at_most_fifteen_and_the_four_card_limit_spans_both() -> None:
    side = "Sideboard\n2 Lightning Bolt\n14 Mountain\n"
    assert _problems(_sixty(side), CONSTRUCTED) == [
        "line 7 ('2 Lightning Bolt'): the sideboard has 16 cards; a constructed sideboard has "
        "at most 15 (CR 100.4a)",
        "line 7 ('2 Lightning Bolt'): 6 cards named Lightning Bolt across the deck and the "
        "sideboard; at most 4 other than basic lands (CR 100.4a)",
    ]
    assert _problems(_sixty("Sideboard\n15 Mountain\n"), CONSTRUCTED) == []


def test_100_2b_limited_decks_have_forty_cards_and_any_number_of_copies() -> None:
    assert _problems("30 Mountain\n10 Lightning Bolt\nSideboard\n40 Hill Giant\n", LIMITED) == []
    assert _problems("30 Mountain\n", LIMITED) == [
        "the deck has 30 cards; a limited deck has at least 40 (CR 100.2b)"]


def test_casual_has_no_limits() -> None:
    assert _problems("9 Lightning Bolt\n", CASUAL) == []


def _commander_deck(*changes: tuple[str, str]) -> DeckList:
    text = ready_made("isamaru-commander").to_text()
    for old, new in changes:
        text = text.replace(old, new, 1)
    return parse_deck_list(text)


def test_903_5a_a_commander_deck_has_exactly_a_hundred_cards_with_its_commander() -> None:
    assert deck_problems(ready_made("isamaru-commander"), COMMANDER) == []
    short = _commander_deck(("80 Plains", "79 Plains"))
    assert [str(p) for p in deck_problems(short, COMMANDER)] == [
        "the deck has 99 cards including its commander; a Commander deck has exactly 100 "
        "(CR 903.5a)"]
    long = _commander_deck(("80 Plains", "81 Plains"))
    assert "exactly 100 (CR 903.5a)" in str(deck_problems(long, COMMANDER)[0])


def test_903_5b_one_of_each_card_other_than_basic_lands() -> None:
    deck = _commander_deck(("80 Plains", "78 Plains\n2 Serra Angel"))
    assert [str(p) for p in deck_problems(deck, COMMANDER)] == [
        "line 3 ('2 Serra Angel'): more than one card named Serra Angel; other than basic "
        "lands, each card in a Commander deck has a different name (CR 903.5b)",
        "line 6 ('1 Serra Angel'): more than one card named Serra Angel; other than basic "
        "lands, each card in a Commander deck has a different name (CR 903.5b)",
    ]


def test_903_5c_every_card_within_the_commanders_colour_identity() -> None:
    deck = _commander_deck(("80 Plains", "79 Plains\n1 Lightning Bolt"))
    assert [str(p) for p in deck_problems(deck, COMMANDER)] == [
        "line 3 ('1 Lightning Bolt'): Lightning Bolt's colour identity (R) is outside "
        "Isamaru, Hound of Konda's (CR 903.5c)"]
    # Colour identity counts mana symbols in rules text too: a Forest's is green.
    forest = _commander_deck(("80 Plains", "79 Plains\n1 Forest"))
    assert "Forest's colour identity (G)" in str(deck_problems(forest, COMMANDER)[0])


def test_every_violation_is_reported_at_once_with_its_line_and_rule() -> None:
    text = """5 Lightning Bolt
        20 Mountain
        Krosa
        Sideboard
        16 Hill Giant
        Planar deck
        Krosa
        Krosa
        Lightning Bolt
        Vanguard: Krosa"""
    problems = _problems(text, CONSTRUCTED, EVERYTHING)
    assert problems == [
        "the deck has 26 cards; a constructed deck has at least 60 (CR 100.2a)",
        "the planar deck has 3 cards; a planar deck has at least 10 planes and phenomena "
        "(CR 901.3)",
        "the scheme deck has 0 cards; the archenemy's scheme deck has at least 20 (CR 904.3)",
        "line 1 ('5 Lightning Bolt'): 5 cards named Lightning Bolt; a constructed deck has at "
        "most 4 of a card other than basic lands (CR 100.2a)",
        "line 3 ('Krosa'): Krosa is a plane: it belongs in the planar deck, not in the deck "
        "(CR 901.3)",
        "line 5 ('16 Hill Giant'): the sideboard has 16 cards; a constructed sideboard has at "
        "most 15 (CR 100.4a)",
        "line 5 ('16 Hill Giant'): 16 cards named Hill Giant across the deck and the "
        "sideboard; at most 4 other than basic lands (CR 100.4a)",
        "line 8 ('Krosa'): more than one card named Krosa; each card in a planar deck has a "
        "different name (CR 901.3)",
        "line 9 ('Lightning Bolt'): Lightning Bolt is a traditional card: it belongs in the "
        "deck or the sideboard, not in the planar deck (CR 901.3)",
        "line 10 ('Vanguard: Krosa'): Krosa is a plane: it belongs in the planar deck, not in "
        "the Vanguard line (CR 901.3)",
    ]


def test_901_3_a_planar_deck_of_ten_different_cards_with_at_most_two_phenomena() -> None:
    planes = ["Krosa", "Goldmeadow", "Lethe Lake", "Panopticon", "Sanctum of Serra",
              "Fields of Summer", "The Hippodrome"]
    phenomena = ["Mutual Epiphany", "Planewide Disaster", "Chaotic Aether"]
    text = _sixty("Planar deck\n" + "\n".join(planes + phenomena) + "\n")
    assert _problems(text, CASUAL, Needs(planar=True)) == [
        "line 16 ('Chaotic Aether'): more than 2 phenomena in the planar deck (CR 901.3)"]
    nine = _sixty("Planar deck\n" + "\n".join(planes + phenomena[:2]) + "\n")
    assert _problems(nine, CASUAL, Needs(planar=True)) == [
        "the planar deck has 9 cards; a planar deck has at least 10 planes and phenomena "
        "(CR 901.3)"]


def test_904_3_a_scheme_deck_of_twenty_with_at_most_two_of_a_name() -> None:
    deck = ready_made("gruul-stompy")
    assert deck_problems(deck, CONSTRUCTED, Needs(schemes=True)) == []
    text = deck.to_text().replace("2 Look Skyward and Despair", "3 Look Skyward and Despair")
    assert _problems(text, CONSTRUCTED, Needs(schemes=True)) == [
        "line 30 ('3 Look Skyward and Despair'): 3 cards named Look Skyward and Despair; a "
        "scheme deck has at most 2 of a name (CR 904.3)"]


def test_902_3_a_vanguard_game_needs_a_vanguard() -> None:
    assert _problems(_sixty(), CASUAL, Needs(vanguard=True)) == [
        "a Vanguard game needs a vanguard card: add a 'Vanguard: NAME' line (CR 902.3)"]
    assert _problems(_sixty("Vanguard: Maraxus\n"), CASUAL, Needs(vanguard=True)) == []


def test_parts_a_game_does_not_use_are_not_checked() -> None:
    """A deck brings its planar and scheme decks and its vanguard to any table; only a game
    of the variant that uses a part looks at it."""
    text = _sixty("Planar deck\nKrosa\nScheme deck\nLook Skyward and Despair\n")
    assert _problems(text, CONSTRUCTED) == []


@pytest.mark.parametrize("name", sorted(READY_MADE))
def test_ready_made_decks_are_legal_in_their_format_with_every_part(name: str) -> None:
    deck = ready_made(name)
    assert deck_problems(deck, READY_FORMATS[name], EVERYTHING) == []
    assert len(deck.planar) == 10 and len(deck.schemes) == 20 and deck.vanguard is not None


def test_deck_list_sections_round_trip() -> None:
    deck = ready_made("boros-lifecycle")
    again = parse_deck_list(deck.to_text())
    assert again == deck
    assert again.planar == deck.planar and again.schemes == deck.schemes
    assert again.vanguard == "Maraxus"


def test_validate_refuses_an_illegal_deck_before_any_game_starts() -> None:
    deck = ready_made("quick-red")
    players = tuple(PlayerConfig(f"P{i}", deck.main) for i in range(2))
    config = GameConfig(players=players, format=CONSTRUCTED)
    with pytest.raises(Refusal) as err:
        Table(config, 1)
    assert err.value.code is Code.BAD_DECK
    assert err.value.message.startswith("player 0 (P0)'s deck is not legal (constructed): "
                                        "the deck has 20 cards")
    validate(GameConfig(players=players, format=CASUAL))  # the quick decks are casual decks


@pytest.mark.parametrize("variant,fmt,fragment", [
    ("two_player", "commander", "the commander format is for Commander games"),
    ("commander", "constructed", "use the commander format, or casual"),
    ("two_player", "vintage", "unknown format 'vintage'"),
])
def test_formats_fit_their_variants(variant: str, fmt: str, fragment: str) -> None:
    deck = ready_made("isamaru-commander")
    players = tuple(PlayerConfig(f"P{i}", deck.main, commander=deck.commander
                                 if variant == "commander" else None) for i in range(2))
    with pytest.raises(Refusal) as err:
        validate(GameConfig(players=players, variant=variant, format=fmt))
    assert err.value.code is Code.BAD_CONFIG and fragment in err.value.message
