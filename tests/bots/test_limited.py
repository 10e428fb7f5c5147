"""The Limited bots' core (arbiter/bots/limited.py): rating, drafting and deck building over the
real Magic 2010 card data, and bot-built decks playing a game in the engine.

Boosters are built here from the set's card data with a seeded ``random.Random`` (one rare or
mythic rare, three uncommons, ten commons and a basic land); they stand in for the real booster
code, which this test does not depend on.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from arbiter.bots import heuristic_strategy
from arbiter.bots.limited import BASICS, build_deck, colours, pick, rate_card
from arbiter.server.local import play_local
from arbiter.server.rules.cards import catalog
from arbiter.server.rules.cards.decks import DeckList
from arbiter.server.rules.cards.formats import LIMITED, deck_problems
from arbiter.server.rules.cards.sets import printings
from arbiter.server.rules.config import GameConfig, PlayerConfig

CARDS = catalog.cards()
M10 = printings("M10")
BY_RARITY = {r: [p.name for p in M10 if p.rarity == r] for r in "CURM"}
M10_NAMES = [p.name for p in M10]


def rating(name: str) -> float:
    return rate_card(CARDS[name])


def booster(rng: random.Random) -> list[str]:
    rare = BY_RARITY["M" if rng.random() < 1 / 8 else "R"]
    return [rng.choice(rare), *rng.sample(BY_RARITY["U"], 3), *rng.sample(BY_RARITY["C"], 10),
            rng.choice(sorted(BASICS.values()))]


Picker = Callable[[list[str], list[str]], str]


def bot(pack: list[str], picks: list[str]) -> str:
    return pick(pack, picks, CARDS)


def draft(seats: int, seed: int, pickers: Sequence[Picker] = ()) -> list[list[str]]:
    """Three boosters per seat, passed left, right, left; each seat's picker (a bot unless
    ``pickers`` says otherwise) takes a card from the pack in front of it, then all pass."""
    rng = random.Random(seed)
    pickers = list(pickers) or [bot] * seats
    picks: list[list[str]] = [[] for _ in range(seats)]
    for round_ in range(3):
        packs = [booster(rng) for _ in range(seats)]
        step = 1 if round_ % 2 == 0 else -1
        while packs[0]:
            for seat in range(seats):
                card = pickers[seat](packs[seat], picks[seat])
                assert card in packs[seat]
                packs[seat].remove(card)
                picks[seat].append(card)
            packs = [packs[(seat - step) % seats] for seat in range(seats)]
    return picks


def is_basic(name: str) -> bool:
    return name in BASICS.values()


def spells_of(deck: Mapping[str, int]) -> list[str]:
    return [n for n, k in deck.items() for _ in range(k) if not is_basic(n)]


def two_colour_share(deck: Mapping[str, int]) -> float:
    """The largest share of the deck's spells castable with some two colours."""
    spells = spells_of(deck)
    return max(sum(1 for n in spells if set(CARDS[n]["colors"]) <= set(pair)) / len(spells)
               for pair in combinations("WUBRG", 2))


def assert_legal(deck: Mapping[str, int], pool: Counter[str]) -> None:
    """CR 100.2b: at least 40 cards; only cards of the pool (at most its copies) and basic
    lands; and the engine agrees (the limited format of cards/formats.py)."""
    assert sum(deck.values()) >= 40
    for name, n in deck.items():
        assert n > 0
        assert is_basic(name) or n <= pool[name], (name, n, pool[name])
    main = tuple(n for n, k in deck.items() for _ in range(k))
    assert deck_problems(DeckList(main), LIMITED) == []


# ----------------------------------------------------------------------------- ratings


def test_a_bomb_rare_rates_above_a_vanilla_common() -> None:
    assert rating("Baneslayer Angel") > rating("Runeclaw Bear") + 2
    assert rating("Shivan Dragon") > rating("Craw Wurm")


def test_removal_rates_above_filler() -> None:
    for removal in ("Lightning Bolt", "Doom Blade", "Pacifism", "Tendrils of Corruption"):
        for filler in ("Goblin Piker", "Coral Merfolk", "Silvercoat Lion", "Giant Growth"):
            assert rating(removal) > rating(filler), (removal, filler)


def test_evasion_and_efficiency_count() -> None:
    # A 2/2 flier beats a 2/2; a 3/3 for three beats a 2/2 for three; a 0-power flier does
    # not get flying's worth.
    assert rating("Wind Drake") > rating("Runeclaw Bear")
    assert rating("Centaur Courser") > rating("Vampire Aristocrat")
    assert rating("Ornithopter") < rating("Stormfront Pegasus")


def test_narrow_cards_and_counterspells_rate_lower() -> None:
    assert rating("Deathmark") < rating("Doom Blade")  # only green or white creatures
    assert rating("Cancel") < rating("Divination")
    assert rating("Flashfreeze") < rating("Essence Scatter") + 0.01
    assert rating("Kraken's Eye") < rating("Runeclaw Bear")


def test_lands_other_than_basics_rate_low_and_basics_nothing() -> None:
    assert rating("Terramorphic Expanse") < rating("Runeclaw Bear")
    assert rating("Glacial Fortress") < 1
    assert rating("Forest") == 0.0


def test_ratings_are_finite_and_never_negative() -> None:
    for name in M10_NAMES:
        assert 0.0 <= rating(name) < 10.0, name


# ----------------------------------------------------------------------------- picking


def test_pick_returns_a_card_of_the_pack_and_the_first_of_equals() -> None:
    assert pick(["Forest", "Runeclaw Bear", "Terramorphic Expanse"], [], CARDS) == \
        "Runeclaw Bear"
    assert pick(["Forest"], ["Doom Blade"] * 20, CARDS) == "Forest"
    # Equal ratings: the first in pack order.
    a, b = "Goblin Piker", "Coral Merfolk"
    assert rating(a) == rating(b)
    assert pick([b, a], [], CARDS) == b and pick([a, b], [], CARDS) == a


def test_early_picks_take_the_best_card_whatever_its_colour() -> None:
    assert pick(["Runeclaw Bear", "Doom Blade"], ["Serra Angel", "Pacifism"], CARDS) == \
        "Doom Blade"


def test_a_settled_drafter_stays_in_its_colours() -> None:
    picks = ["Serra Angel", "Pacifism", "Wind Drake", "Snapping Drake", "Stormfront Pegasus",
             "Griffin Sentinel", "Illusionary Servant", "Divine Verdict", "Silvercoat Lion",
             "Sage Owl"]
    assert colours(picks, CARDS) == "WU"
    # Doom Blade rates above Wind Drake, but it is black.
    assert rating("Doom Blade") > rating("Wind Drake")
    assert pick(["Doom Blade", "Wind Drake"], picks, CARDS) == "Wind Drake"
    # Colourless cards fit every deck.
    assert pick(["Doom Blade", "Rod of Ruin"], picks, CARDS) == "Rod of Ruin"


def test_a_bomb_is_taken_even_off_colour() -> None:
    picks = ["Doom Blade", "Kelinore Bat", "Tendrils of Corruption", "Lightning Bolt",
             "Seismic Strike", "Warpath Ghoul", "Child of Night", "Goblin Piker",
             "Canyon Minotaur", "Assassinate"]
    assert colours(picks, CARDS) == "BR"
    assert pick(["Dread Warlock", "Baneslayer Angel"], picks, CARDS) == "Baneslayer Angel"


def test_colours_are_two_in_wubrg_order_even_without_picks() -> None:
    assert colours([], CARDS) == "WU"
    assert colours(["Craw Wurm", "Doom Blade", "Doom Blade"], CARDS) == "BG"


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(M10_NAMES + sorted(BASICS.values())), min_size=1,
                max_size=15),
       st.lists(st.sampled_from(M10_NAMES), max_size=44))
def test_pick_always_returns_a_card_of_the_pack_as_good_as_any_in_its_colours(
        pack: list[str], picks: list[str]) -> None:
    chosen = pick(pack, picks, CARDS)
    assert chosen in pack
    # Nothing in the pack that fits the drafter's colours is better than what it took.
    mine = set(colours(picks, CARDS))
    if set(CARDS[chosen]["colors"]) <= mine:
        assert all(rating(n) <= rating(chosen) for n in pack
                   if set(CARDS[n]["colors"]) <= mine)


def test_pick_is_deterministic() -> None:
    rng = random.Random(7)
    for _ in range(50):
        pack = booster(rng)
        picks = rng.sample(M10_NAMES, rng.randrange(0, 30))
        assert pick(pack, picks, CARDS) == pick(list(pack), list(picks), dict(CARDS))


def test_an_eight_seat_draft_ends_with_two_colour_decks() -> None:
    picks = draft(8, seed=2009)
    assert picks == draft(8, seed=2009), "the same packs make the same picks"
    decks = [build_deck(p, CARDS) for p in picks]
    shares = [two_colour_share(d) for d in decks]
    assert sum(1 for s in shares if s >= 0.8) >= 6, shares
    for p, deck in zip(picks, decks, strict=True):
        assert len(p) == 45
        assert_legal(deck, Counter(p))


def test_drafters_settle_on_two_colours() -> None:
    # Most of what a drafter takes is in the two colours it settles on (a drafter taking cards
    # at random would have about half its cards in any two colours).
    for seed in (1, 2):
        shares = []
        for p in draft(8, seed):
            pair = colours(p, CARDS)
            spells = [n for n in p if "Land" not in CARDS[n]["types"]]
            shares.append(sum(1 for n in spells if set(CARDS[n]["colors"]) <= set(pair))
                          / len(spells))
        assert sum(1 for s in shares if s >= 0.7) >= 6, shares


def test_bots_draft_better_decks_than_random_drafters() -> None:
    # Half the table picks at random: the bots' decks are worth more, card for card.
    chance = random.Random(4)

    def at_random(pack: list[str], picks: list[str]) -> str:
        return chance.choice(pack)

    picks = draft(8, 5, [bot, at_random] * 4)

    def worth(p: list[str]) -> float:
        return sum(rating(n) for n in spells_of(build_deck(p, CARDS)))

    bots, randoms = [worth(p) for p in picks[0::2]], [worth(p) for p in picks[1::2]]
    assert min(bots) > max(randoms), (bots, randoms)


# ----------------------------------------------------------------------------- deck building


def sealed_pool(seed: int) -> list[str]:
    rng = random.Random(seed)
    return [name for _ in range(6) for name in booster(rng)]


def test_a_deck_is_23_spells_and_17_lands_split_by_colour_symbols() -> None:
    pool = sealed_pool(1)
    deck = build_deck(pool, CARDS)
    spells = spells_of(deck)
    assert len(spells) == 23 and sum(deck.values()) == 40
    pips = Counter(c for n in spells for c in str(CARDS[n]["cost"] or "") if c in "WUBRG")
    lands = {c: deck.get(BASICS[c], 0) for c in "WUBRG"}
    assert sum(lands.values()) == 17
    # Each colour's lands are its share of the symbols, rounded.
    for c in "WUBRG":
        assert abs(lands[c] - 17 * pips[c] / sum(pips.values())) < 1.5, (c, lands, pips)


def test_a_sealed_deck_has_a_curve() -> None:
    for seed in range(5):
        spells = spells_of(build_deck(sealed_pool(seed), CARDS))
        assert sum(1 for n in spells if CARDS[n]["mv"] >= 5) <= 5, spells
        assert sum(1 for n in spells if "Creature" in CARDS[n]["types"]) >= 14, spells


def test_at_most_five_expensive_cards_while_cheaper_ones_remain() -> None:
    # The behemoths rate above the bears, but a deck of ten 7-drops stumbles.
    assert rating("Kalonian Behemoth") > rating("Runeclaw Bear")
    deck = build_deck({"Kalonian Behemoth": 10, "Runeclaw Bear": 20}, CARDS)
    assert deck["Kalonian Behemoth"] == 5 and deck["Runeclaw Bear"] == 18


def test_at_least_fourteen_creatures_while_the_pool_has_them() -> None:
    assert rating("Lightning Bolt") > rating("Goblin Piker")
    deck = build_deck({"Lightning Bolt": 15, "Goblin Piker": 20}, CARDS)
    assert deck["Goblin Piker"] == 14 and deck["Lightning Bolt"] == 9
    assert deck["Mountain"] == 17


def test_build_deck_ignores_the_pools_order_and_form() -> None:
    pool = sealed_pool(3)
    counts = Counter(pool)
    shuffled = list(pool)
    random.Random(0).shuffle(shuffled)
    assert build_deck(pool, CARDS) == build_deck(shuffled, CARDS) == \
        build_deck(dict(reversed(counts.most_common())), CARDS)


def test_a_tiny_pool_fills_with_lands() -> None:
    deck = build_deck(["Lightning Bolt", "Doom Blade", "Doom Blade"], CARDS)
    assert deck["Lightning Bolt"] == 1 and deck["Doom Blade"] == 2
    assert sum(deck.values()) == 40
    assert deck["Swamp"] > deck["Mountain"] > 0
    assert_legal(deck, Counter(["Lightning Bolt", "Doom Blade", "Doom Blade"]))
    empty = build_deck({}, CARDS)
    assert sum(empty.values()) == 40 and all(is_basic(n) for n in empty)


def test_tokens_and_nontraditional_cards_stay_out_of_a_deck() -> None:
    # CR 100.2d: planes, phenomena, schemes and vanguards are never in a traditional deck;
    # tokens are not cards at all (CR 111.1).
    odd = [n for n, c in CARDS.items() if c.get("token") or any(
        t in c["types"].split() for t in ("Plane", "Phenomenon", "Scheme", "Vanguard"))]
    assert len(odd) > 20
    pool = Counter([*odd, "Doom Blade"])
    deck = build_deck(pool, CARDS)
    assert not set(deck) & set(odd)
    assert_legal(deck, pool)


def test_a_short_pool_splashes_its_best_other_card_with_a_land_for_it() -> None:
    # 22 white and blue spells: the 23rd is the best of the rest, and its colour gets a source.
    deck = build_deck({"Serra Angel": 11, "Wind Drake": 11, "Lightning Bolt": 1}, CARDS)
    assert deck["Lightning Bolt"] == 1 and deck["Mountain"] == 1
    assert deck["Plains"] > deck["Island"] > deck["Mountain"]
    assert sum(deck.values()) == 40


names = st.sampled_from(M10_NAMES)


@settings(max_examples=40, deadline=None)
@given(st.one_of(st.lists(names, min_size=45, max_size=45),
                 st.lists(names, min_size=90, max_size=90),
                 st.lists(names, max_size=22)))
def test_build_deck_is_always_legal(pool: list[str]) -> None:
    counts = Counter(pool)
    deck = build_deck(pool, CARDS)
    assert_legal(deck, counts)
    assert deck == build_deck(counts, CARDS)
    nonland = sum(1 for n in pool if "Land" not in CARDS[n]["types"])
    assert len(spells_of(deck)) == min(23, nonland)


# ----------------------------------------------------------------------------- playing


def test_bot_built_decks_play_a_complete_game() -> None:
    # Two sealed pools, two decks, two heuristic bots: the game ends (CR 104) on its own. The
    # decks may hold five copies of a common, so the game uses the limited format (CR 100.2b).
    decks = [build_deck(sealed_pool(seed), CARDS) for seed in (11, 12)]
    players = tuple(PlayerConfig(f"bot{i}", tuple(n for n, k in deck.items() for _ in range(k)))
                    for i, deck in enumerate(decks))
    config = GameConfig(players, format=LIMITED)
    table, applied = play_local(config, 5, [heuristic_strategy] * 2, max_actions=20_000)
    assert table.finished and table.result is not None, applied
    assert applied > 50  # a real game, not a mulligan to nothing
