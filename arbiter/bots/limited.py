"""Limited bots: rating cards, drafting and building a 40-card deck (CR 100.2b).

Pure and deterministic: every function here is a function of its arguments only (card names
and the catalog's card data, docs/protocol.md "catalog"), with no randomness at all, so the
server's seat bots (an empty seat, a drafter who dropped) and ``arbiter bot`` over the network
make the same picks and build the same decks from the same inputs. Ties are broken by the order
of the pack, or for a pool by name, never by chance.

The heuristic, in short:

- :func:`rate_card` gives a card a stand-alone value from its data: a small table of weights
  (rarity, a creature's body for its mana value, evasion, removal and card advantage read from
  its text, narrow or symmetric effects marked down);
- :func:`pick` takes the best card by rating for the first few picks, then leans towards the
  two colours its picks are richest in, more firmly the more it has picked, taking an
  off-colour card only when it is much better (a bomb);
- :func:`build_deck` chooses the two colours whose best 23 cards are worth most, takes 23
  spells of those colours with a curve (enough creatures, few expensive cards), and adds 17
  basic lands split by the spells' coloured mana symbols.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from itertools import combinations
from typing import Any

Card = Mapping[str, Any]
Cards = Mapping[str, Mapping[str, Any]]

COLOURS = "WUBRG"
BASICS = {"W": "Plains", "U": "Island", "B": "Swamp", "R": "Mountain", "G": "Forest"}

DECK_SIZE = 40  # CR 100.2b: a limited deck has at least 40 cards
SPELLS = 23  # the usual split of a 40-card limited deck: 23 spells and 17 lands
LANDS = DECK_SIZE - SPELLS

# ----------------------------------------------------------------------------- rating
#
# A rating is on a rough 0-5 scale: 1.5 is a vanilla creature that costs what it should (a
# 2/2 for two), 2.5-3 a good common (a flier, solid removal), 4+ a bomb that wins games by
# itself. The weights below are the whole model; each line says why.

# Rarity: a small nudge. Rarer cards are on average stronger in ways the text patterns below
# do not see (complex triggers, planeswalker ultimates).
RARITY = {"C": 0.0, "U": 0.2, "R": 0.4, "M": 0.6}

# A creature is the backbone of a limited deck: its base value before its body and abilities.
CREATURE_BASE = 1.5
# A fair body has power + toughness of about 1.5 x its mana value + 1 (2/2 for 2, 3/3 for 3,
# 4/4 for 5); each point above or below moves the rating by this much, within the cap.
BODY_WEIGHT = 0.3
BODY_CAP = 1.5
# Past six mana a card is cast late or not at all: each mana above six costs this much.
EXPENSIVE_FROM = 6
EXPENSIVE_WEIGHT = 0.5

# Any other spell is worth little by itself; its effects (below) make its value.
SPELL_BASE = 0.5
# A planeswalker is a repeatable source of advantage the opponent must attack: a bomb.
PLANESWALKER = 3.0

# Keyword abilities of creatures. Evasion wins limited games (damage that cannot be blocked);
# combat keywords win fights; the rest are small edges.
KEYWORDS = {
    "flying": 1.0, "intimidate": 0.6, "double strike": 0.8, "first strike": 0.4,
    "deathtouch": 0.5, "indestructible": 0.6, "lifelink": 0.3, "trample": 0.2,
    "vigilance": 0.2, "reach": 0.2, "haste": 0.2, "shroud": 0.2, "flash": 0.2,
}
LANDWALK = 0.3  # unblockable against the right opponent only
# Evasion is worth the damage it lets through: full from power 2, nothing at power 0 (an
# Ornithopter's flying only blocks).
EVASIVE = ("flying", "intimidate")
EVASION_FULL_AT = 2
PROTECTION = 0.2  # per quality; mostly it dodges one colour's removal
DEFENDER = -1.0  # a wall never attacks: it holds the ground but never wins
NO_POWER = -0.5  # a creature without power deals no damage (walls already pay DEFENDER)

# Effects read from the rules text (lower case, reminder text left out, the card's own name
# as "~"). Each line is (group, pattern, weight, why). A card gets, from each group, the
# weight of the strongest line that matches its text (so "destroy target creature" is not
# counted again as "destroy target tapped creature"), and the groups add up. Removal is what
# limited decks want most after creatures; card advantage next.
EFFECTS: tuple[tuple[str, str, float, str], ...] = (
    ("removal", r"destroy target (?:nonblack )?creature", 2.0, "kills any creature"),
    ("removal", r"destroy target (?:tapped|attacking or blocking) creature", 1.6,
     "kills a creature, at the right moment"),
    ("removal", r"destroy target \w+ or \w+ creature", 1.2, "kills some creatures"),
    ("removal", r"exile target (?:[\w-]+ )*?(?:creature|permanent)(?! card)", 2.0,
     "exiles a creature"),
    ("removal", r"deals (?:[3-9x]|damage) (?:damage )?to (?:any target|target creature)", 2.0,
     "burns a creature or a player"),
    ("removal", r"deals [12] damage to (?:any target|target creature)", 1.2,
     "pings a small creature"),
    ("removal", r"damage divided", 1.8, "burns several targets"),
    ("removal", r"-[1-9x]/-[1-9x]", 1.5, "shrinks or kills a creature"),
    ("removal", r"enchanted creature can't attack or block", 1.5, "neutralises a creature"),
    ("removal", r"you control enchanted creature", 2.5, "steals a creature"),
    ("removal", r"gain control of target creature(?![^.]*until end of turn)", 2.5,
     "steals a creature for good (not a turn's borrowing)"),
    ("removal", r"tap target creature", 0.5, "holds a creature back"),
    ("removal", r"tap all creatures target player controls", 1.2, "clears the way for a turn"),
    ("removal", r"destroy all|damage to each creature", 0.8,
     "a sweeper: good when behind, but it hits our own creatures too"),
    ("advantage", r"draws? (?:two|three|x) cards", 0.9, "draws several cards"),
    ("advantage", r"draw a card", 0.4, "draws a card"),
    ("advantage", r"create (?:a|an|three|x) ", 0.6, "makes creature tokens"),
    ("advantage", r"return target creature card from your graveyard to your hand", 0.8,
     "gets a creature back"),
    ("tempo", r"return target creature to its owner's hand", 0.4, "bounces a blocker"),
    ("tempo", r"gets \+\d/\+\d until end of turn", 0.3, "a combat trick"),
    ("tempo", r"enchanted creature gets \+\d/\+\d", 0.4, "an Aura that grows a creature"),
    ("evasion", r"can't be blocked(?! except)", 1.0, "unblockable"),
    ("evasion", r"can't be blocked except", 0.5, "hard to block"),
    ("survival", r"regenerate ~", 0.3, "survives removal and combat"),
    # Narrow or marginal: the strongest markdown applies once.
    ("narrow", r"counter target", -0.3, "a counterspell: reactive, holds mana up"),
    ("narrow", r"target (?:white|blue|black|red|green)\b", -1.0, "only some colours"),
    ("narrow", r"skeleton, vampire, or zombie", -1.0, "only some creature types"),
    ("narrow", r"can't attack or block alone", -0.6, "needs company to fight"),
    ("narrow", r"may gain 1 life", -0.5, "a life trinket"),
    ("narrow", r"\bmills?\b", -0.5, "milling does not win a 40-card game fast enough"),
    ("narrow", r"you have no maximum hand size", -0.5, "does nothing on the board"),
    ("narrow", r"each player", -0.3, "helps the opponent as much"),
    ("narrow", r"sacrifice (?:a|an) (?!goblin)", -0.3, "costs a permanent"),
)
LAND = 0.3  # a nonbasic land: rarely worth a spell slot in a two-colour deck
BASIC_LAND = 0.0  # basic lands are free: never take one over a card


def _text(card: Card) -> str:
    # Reminder text (in parentheses) repeats what the keywords already say.
    text = re.sub(r"\([^)]*\)", "", str(card.get("text") or "")).lower()
    name = str(card.get("name") or "").lower()
    return text.replace(name, "~") if name else text


def _types(card: Card) -> list[str]:
    return str(card.get("types") or "").split()


def _printed_pt(card: Card) -> tuple[int, int] | None:
    """A creature's printed power and toughness; None when an ability sets them (*/*, X
    counters, a copy), which the rating then calls fair."""
    pt = card.get("pt")
    if not pt or (int(pt[0]) == 0 and int(pt[1]) == 0):
        return None
    return int(pt[0]), int(pt[1])


def _body(card: Card) -> float:
    """A creature's power and toughness against a fair body for its mana value."""
    pt = _printed_pt(card)
    if pt is None:
        return 0.0
    surplus = (pt[0] + pt[1]) - (1.5 * int(card.get("mv") or 0) + 1)
    return max(-BODY_CAP, min(BODY_CAP, surplus * BODY_WEIGHT))


def _keywords(card: Card) -> float:
    pt = _printed_pt(card)
    evasion = 1.0 if pt is None else min(1.0, pt[0] / EVASION_FULL_AT)
    total = 0.0
    for word in card.get("keywords") or ():
        word = str(word).lower()
        if word.startswith("protection"):
            total += PROTECTION
        elif word.endswith("walk"):
            total += LANDWALK * evasion
        elif word in EVASIVE:
            total += KEYWORDS[word] * evasion
        elif word == "defender":
            total += DEFENDER
        else:
            total += KEYWORDS.get(word, 0.0)
    if pt is not None and pt[0] == 0 and "defender" not in (card.get("keywords") or ()):
        total += NO_POWER
    return total


def _effects(text: str) -> float:
    """The strongest matching line of each group of :data:`EFFECTS`, added up."""
    strongest: dict[str, float] = {}
    for group, pattern, weight, _ in EFFECTS:
        if re.search(pattern, text) and abs(weight) > abs(strongest.get(group, 0.0)):
            strongest[group] = weight
    return sum(strongest.values())


def rate_card(card: Mapping[str, Any]) -> float:
    """A card's stand-alone limited value from its catalog data (about 0 to 5: see the table
    above). Tokens and basic lands are worth nothing to a drafter."""
    types = _types(card)
    if card.get("token"):
        return 0.0
    if "Land" in types:
        return BASIC_LAND if "Basic" in types else LAND
    rating = RARITY.get(str(card.get("rarity") or "C"), 0.0)
    if "Creature" in types:
        rating += CREATURE_BASE + _body(card) + _keywords(card)
    elif "Planeswalker" in types:
        rating += PLANESWALKER
    else:
        rating += SPELL_BASE
    text = _text(card)
    rating += _effects(text)
    mv = int(card.get("mv") or 0)
    if mv > EXPENSIVE_FROM:
        rating -= EXPENSIVE_WEIGHT * (mv - EXPENSIVE_FROM)
    return max(0.0, rating)


def _rating(name: str, cards: Cards) -> float:
    card = cards.get(name)
    return rate_card(card) if card is not None else 0.0


def _colours_of(name: str, cards: Cards) -> str:
    card = cards.get(name)
    return str(card.get("colors") or "") if card is not None else ""


# ----------------------------------------------------------------------------- drafting

# Picks before the bot looks at colours at all: the first picks take the best card.
OPEN_PICKS = 3
# Picks over which commitment grows from nothing to full; after OPEN_PICKS + COMMIT_PICKS it
# is settled on its two colours.
COMMIT_PICKS = 6
# What an off-colour card loses when fully committed: a 2.5 card of our colours beats an
# off-colour one below 4.0. A bomb (BOMB and up) loses nothing: it is worth changing colours
# for, or splashing.
OFF_COLOUR = 1.5
BOMB = 4.0


def colours(picks: Sequence[str], cards: Cards) -> str:
    """The two colours the picks are richest in, by summed rating (a multicoloured card counts
    for each of its colours), in WUBRG order. Always two letters: a tie, or no coloured pick
    at all, falls to the earlier colour in WUBRG."""
    weight = {c: 0.0 for c in COLOURS}
    for name in picks:
        rating = _rating(name, cards)
        for c in _colours_of(name, cards):
            if c in weight:
                weight[c] += rating
    best = sorted(COLOURS, key=lambda c: (-weight[c], COLOURS.index(c)))[:2]
    return "".join(sorted(best, key=COLOURS.index))


def _commitment(picks_made: int) -> float:
    """How settled on its colours a drafter is after ``picks_made`` picks: 0 to 1."""
    return max(0.0, min(1.0, (picks_made - OPEN_PICKS + 1) / COMMIT_PICKS))


def pick(pack: Sequence[str], picks: Sequence[str], cards: Mapping[str, Mapping[str, Any]]
         ) -> str:
    """The card to take from ``pack`` given the drafter's ``picks`` so far: the best by rating,
    less a penalty for cards outside its two colours that grows as picks accumulate
    (colourless cards are in every colour). Ties go to the earlier card in the pack."""
    if not pack:
        raise ValueError("an empty pack has nothing to pick")
    penalty = OFF_COLOUR * _commitment(len(picks))
    mine = set(colours(picks, cards)) if penalty else set(COLOURS)

    def score(name: str) -> float:
        rating = _rating(name, cards)
        off = set(_colours_of(name, cards)) - mine
        return rating - (penalty if off and rating < BOMB else 0.0)

    best = 0
    for i, name in enumerate(pack):
        if score(name) > score(pack[best]):
            best = i
    return pack[best]


# ----------------------------------------------------------------------------- deck building

MIN_CREATURES = 14  # a limited deck wins through creatures: at least this many if it can
MAX_EXPENSIVE = 5  # cards of mana value 5 or more: more and the deck stumbles early
EXPENSIVE = 5


def _counts(pool: Mapping[str, int] | Sequence[str]) -> Counter[str]:
    if isinstance(pool, Mapping):
        return Counter({name: int(n) for name, n in pool.items() if int(n) > 0})
    return Counter(pool)


def _fits(name: str, pair: str, cards: Cards) -> bool:
    return set(_colours_of(name, cards)) <= set(pair)


# Cards that never go in a deck: lands (basics are added by count, other lands are not worth
# a spell slot), tokens, and the nontraditional cards of the variants (CR 100.2d).
NOT_SPELLS = {"Land", "Plane", "Phenomenon", "Scheme", "Vanguard", "Conspiracy"}


def _spells(pool: Counter[str], cards: Cards) -> list[str]:
    """The pool's cards that can be a deck's spells, one entry per copy, best first (ties by
    name)."""
    out = [name for name, n in pool.items() for _ in range(n)
           if name in cards and not cards[name].get("token")
           and not NOT_SPELLS & set(_types(cards[name]))]
    return sorted(out, key=lambda name: (-_rating(name, cards), name))


def _best_pair(spells: list[str], cards: Cards) -> str:
    """The two colours whose best :data:`SPELLS` castable cards are worth most."""
    def worth(pair: str) -> float:
        fitting = [_rating(n, cards) for n in spells if _fits(n, pair, cards)]
        return sum(fitting[:SPELLS])
    pairs = ["".join(p) for p in combinations(COLOURS, 2)]
    return max(pairs, key=lambda p: (worth(p), -pairs.index(p)))


def _with_curve(candidates: list[str], cards: Cards) -> tuple[list[str], list[str]]:
    """Take candidates in order (best first) while the curve allows: at most
    :data:`MAX_EXPENSIVE` expensive cards and room left for :data:`MIN_CREATURES` creatures.
    Returns the chosen and the passed over, both in order."""
    available_creatures = sum(1 for n in candidates if "Creature" in _types(cards[n]))
    max_other = SPELLS - min(MIN_CREATURES, available_creatures)
    chosen: list[str] = []
    passed: list[str] = []
    expensive = other = 0
    for name in candidates:
        card = cards[name]
        is_expensive = int(card.get("mv") or 0) >= EXPENSIVE
        is_other = "Creature" not in _types(card)
        if len(chosen) >= SPELLS or (is_expensive and expensive >= MAX_EXPENSIVE) or \
                (is_other and other >= max_other):
            passed.append(name)
            continue
        chosen.append(name)
        expensive += is_expensive
        other += is_other
    return chosen, passed


def _pips(names: Iterable[str], cards: Cards) -> Counter[str]:
    """Coloured mana symbols in the chosen spells' costs ("{W}", and each half of a hybrid)."""
    pips: Counter[str] = Counter()
    for name in names:
        card = cards.get(name)
        cost = str(card.get("cost") or "") if card is not None else ""
        for symbol in re.findall(r"\{([^}]*)\}", cost):
            pips.update(c for c in symbol if c in COLOURS)
    return pips


def _lands(count: int, pips: Counter[str], pair: str) -> dict[str, int]:
    """``count`` basic lands split in proportion to ``pips`` (largest remainder; each colour
    with a symbol gets at least one land); without any coloured symbol, evenly over ``pair``."""
    weights = dict(pips) if pips else {c: 1 for c in pair}
    total = sum(weights.values())
    order = sorted(weights, key=COLOURS.index)
    share = {c: count * weights[c] / total for c in order}
    lands = {c: int(share[c]) for c in order}
    by_remainder = sorted(order, key=lambda c: (-(share[c] - lands[c]), COLOURS.index(c)))
    for c in by_remainder[:count - sum(lands.values())]:
        lands[c] += 1
    for c in order:  # a splashed colour gets a source, taken from the largest
        if lands[c] == 0 and count >= len(order):
            largest = max(order, key=lambda k: (lands[k], -COLOURS.index(k)))
            lands[largest] -= 1
            lands[c] += 1
    return {BASICS[c]: n for c, n in lands.items() if n}


def build_deck(pool: Mapping[str, int] | Sequence[str], cards: Mapping[str, Mapping[str, Any]]
               ) -> dict[str, int]:
    """A legal limited deck from ``pool`` (names with counts, or a list with repeats): 23
    spells of the best two colours with a curve and 17 basic lands by colour symbols; from a
    pool too small for 23, every card it can use and more lands. Always at least 40 cards,
    only cards of the pool (at most as many copies) and basic lands."""
    counts = _counts(pool)
    spells = _spells(counts, cards)
    pair = _best_pair(spells, cards)
    on_colour = [n for n in spells if _fits(n, pair, cards)]
    chosen, passed = _with_curve(on_colour, cards)
    # Short of 23: first what the curve passed over, then the best off-colour cards.
    rest = passed + [n for n in spells if not _fits(n, pair, cards)]
    chosen += rest[:SPELLS - len(chosen)]
    deck = Counter(chosen)
    for name, n in _lands(max(LANDS, DECK_SIZE - len(chosen)), _pips(chosen, cards),
                          pair).items():
        deck[name] += n
    return dict(sorted(deck.items()))

