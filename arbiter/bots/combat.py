"""How one attacker and one blocker would fare, for the heuristic bot: who may block whom and
who dies when they fight, with the combat keywords a bot can read in the catalog and in its
view (flying and reach, intimidate, protection from a colour, first and double strike,
deathtouch, indestructible). Pure and approximate: a bot's estimate, never the rules engine's
verdict (the engine offers only legal blocks and deals the damage)."""

from __future__ import annotations

from dataclasses import dataclass

COLOR_WORDS = {"white": "W", "blue": "U", "black": "B", "red": "R", "green": "G"}


@dataclass(frozen=True)
class Fighter:
    """What combat needs to know of a creature: ``toughness`` is what damage it can still
    take (its toughness less the damage already marked on it)."""

    power: int
    toughness: int
    keywords: frozenset[str]
    colors: str  # "WU", "" for colourless
    artifact: bool = False

    def protected_from(self, other: Fighter) -> bool:
        """Protection from one of ``other``'s colours (CR 702.16): it can't be blocked by
        it, and damage ``other`` would deal it is prevented."""
        return any(k.startswith("protection from ") and
                   COLOR_WORDS.get(k.removeprefix("protection from "), "?") in other.colors
                   for k in self.keywords)


def can_block(attacker: Fighter, blocker: Fighter) -> bool:
    """May ``blocker`` block ``attacker``? Flying needs flying or reach (CR 702.9b, 702.17b),
    intimidate an artifact creature or a shared colour (702.13b), and protection keeps the
    colours it names from blocking (702.16f)."""
    if "flying" in attacker.keywords and not {"flying", "reach"} & blocker.keywords:
        return False
    if "intimidate" in attacker.keywords and not (
            blocker.artifact or set(attacker.colors) & set(blocker.colors)):
        return False
    return not attacker.protected_from(blocker)


def fight(attacker: Fighter, blocker: Fighter) -> tuple[bool, bool]:
    """(the attacker dies, the blocker dies) when they deal each other combat damage: in
    a first-strike step with first and double strike, then a regular one with the rest and
    double strike (CR 510.4), a creature dead after the first dealing nothing in the
    second; deathtouch makes any damage lethal (702.2b), indestructible survives any (702.12b),
    protection prevents it (702.16e)."""
    hurt = [0, 0]  # damage dealt to the attacker, to the blocker
    dead = [False, False]
    both = (attacker, blocker)
    for first_step in (True, False):
        for i, (me, foe) in enumerate(((attacker, blocker), (blocker, attacker))):
            if dead[i] or not _strikes_in(me, first_step) or foe.protected_from(me):
                continue
            hurt[1 - i] += max(me.power, 0)
        for i, f in enumerate(both):
            source = both[1 - i]
            lethal = hurt[i] > 0 and ("deathtouch" in source.keywords or hurt[i] >= f.toughness)
            dead[i] = dead[i] or (lethal and "indestructible" not in f.keywords)
    return dead[0], dead[1]


def _strikes_in(f: Fighter, first_step: bool) -> bool:
    first = bool({"first strike", "double strike"} & f.keywords)
    if first_step:
        return first
    return not first or "double strike" in f.keywords
