"""Continuous effects applied in layers (CR 613): the one place that computes a permanent's
power, toughness, keywords and colours from its copiable values and the effects on it.

What each layer holds here (docs/architecture.md, "Continuous effects in layers"):

* layer 1, copy (613.2a, 707.2): applied as the object is created, not here. An object's
  ``defn`` *is* its copiable values: a card's own definition, or the definition of what it
  entered as a copy of (``Game.enter_as_copy``). When it leaves the battlefield the new object
  is its card again (CR 400.7).
* layer 2, control (613.2b): ``Game.control_changed`` keeps each permanent's ``controller``
  current, because control is read everywhere and changes rarely; it runs in timestamp order.
* layer 3 (text, 613.1c, 612): "replace every colour word or land type X with Y" rewrites the
  words in the object's keyword abilities (protection from a colour, landwalk); see
  docs/rulings.md for what else text-changing effects do not reach yet.
* layer 4 (type, 613.1d): effects that add a card type ("becomes a creature"; it is still a
  land) or a subtype ("becomes a Goblin in addition to its other types"); what reads types
  after it here (lords' "Goblin creatures", protection from a subtype) and everything the
  engine asks of a permanent's types (``characteristics.is_type``) sees them.
* layer 5, colour; layer 6, abilities (keywords granted and removed, "loses all abilities");
  layer 7 (613.4): 7a characteristic-defining abilities, 7b setting, 7c modifying (resolved
  "gets +N/+N" effects, static ones from Auras and lords, and +1/+1 and -1/-1 counters, CR
  122.1a), 7d switching.

Within a layer effects apply in timestamp order (613.7), except that an effect that depends on
another (613.8a: applying the other would change whether it exists or what it applies to) waits
for it; effects that depend on each other apply in timestamp order (613.8b). Which objects an
effect applies to is decided as it is applied, so an earlier layer's outcome counts (613.6).

The result for every permanent is computed at once (dependencies span objects), cached on the
game, and dropped whenever something it reads changes (``Game.invalidate_chars``: objects
entering or leaving, counters, effects starting or ending, control, phasing). Games with no
continuous effect and no static ability of this kind never come here (``characteristics.py``
reads printed values then).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .cards.vocab import (
    BASIC_LAND_MANA,
    COLOR,
    COLOR_NAMES,
    COLOR_WORDS,
    CreaturesGet,
    CreaturesHave,
    EnchantedGets,
    EnchantedIsChosenType,
    GetsPerOtherNamed,
    Keyword,
    Landwalk,
    PowerToughnessEqualTo,
    PowerToughnessEqualToLife,
    Protection,
    SharedTypeBonus,
)
from .reveals import top_card_is
from .state import Continuous, Obj

if TYPE_CHECKING:
    from .game import Game


@dataclass(slots=True)
class Chars:
    """A permanent's characteristics after every layer."""

    oid: int
    power: int
    toughness: int
    keywords: set[Keyword]
    colors: frozenset[str]
    subtypes: frozenset[str]
    types: frozenset[str]  # card types (CR 205.2a), as layer 4 leaves them
    granted: list[Keyword] = field(default_factory=list)  # what effects gave it (a view's "kw")
    abilities: bool = True  # False once it has lost all abilities (layer 6)
    # A land whose subtype an effect set to basic land types: the mana those types give, in
    # place of its rules text's mana abilities (CR 305.7); None when no effect did.
    land_mana: tuple[str, ...] | None = None

    def copy(self) -> Chars:
        return Chars(self.oid, self.power, self.toughness, set(self.keywords), self.colors,
                     self.subtypes, self.types, list(self.granted), self.abilities,
                     self.land_mana)


def printed(obj: Obj) -> Chars:
    """The copiable values (layer 1's outcome) before layers 2-7."""
    d = obj.defn
    return Chars(obj.oid, d.power or 0, d.toughness or 0, set(d.keywords), d.colors,
                 d.subtype_set, d.types)


State = dict[int, Chars]
Affects = Callable[[State], list[int]]
Apply = Callable[[Chars], None]

# The layers and sublayers applied here, in order (CR 613.1, 613.4).
ORDER = ("3", "4", "5", "6", "7a", "7b", "7c", "7d")


@dataclass(slots=True)
class LayerEffect:
    """One continuous effect as the layer system sees it."""

    layer: str
    timestamp: int
    affects: Affects  # the objects it applies to, given the characteristics so far
    apply: Apply
    source: int | None = None  # the permanent whose static ability this is: it exists only
    # while that permanent has its abilities (CR 613.8a, "the existence of the first effect")
    cda: bool = False  # from a characteristic-defining ability (CR 613.8a(c))
    reads_layer: bool = False  # what it applies to depends on this layer's outcome
    removes: bool = False  # it takes abilities away

    def exists(self, state: State) -> bool:
        if self.source is None:
            return True
        src = state.get(self.source)
        return src is None or src.abilities  # a command-zone source keeps its abilities

    def run(self, state: State) -> None:
        if self.exists(state):
            for oid in self.affects(state):
                self.apply(state[oid])


def compute(game: Game) -> State:
    """Every phased-in permanent's characteristics, through layers 4 to 7.

    Whether they read a library (a lord's "as long as the top card of your library is ...")
    is recorded as they are computed (``Game.library`` sets ``chars_read_library`` while
    ``computing_chars``), so that a card leaving or entering a library drops them only
    when they did (Game._zone_changed)."""
    game.chars_read_library = False
    game.computing_chars = True
    try:
        return _compute(game)
    finally:
        game.computing_chars = False


def _compute(game: Game) -> State:
    state: State = {o.oid: printed(o) for o in game.battlefield if not o.phased_out}
    by_layer: dict[str, list[LayerEffect]] = {}
    for eff in _gather(game, state):
        by_layer.setdefault(eff.layer, []).append(eff)
    for layer in ORDER:
        effects = by_layer.get(layer)
        if effects:
            _apply_layer(effects, state)
        if layer == "7c":
            _counters(game, state)  # they add up: their order among 7c's effects is moot
    return state


def _counters(game: Game, state: State) -> None:
    """Layer 7c: each +1/+1 counter gives +1/+1 and each -1/-1 counter -1/-1 (CR 122.1a,
    613.4c)."""
    for oid, ch in state.items():
        counters = game.objects[oid].counters
        if counters:
            n = counters.get("+1/+1", 0) - counters.get("-1/-1", 0)
            ch.power += n
            ch.toughness += n


def _apply_layer(effects: list[LayerEffect], state: State) -> None:
    remaining = sorted(effects, key=lambda e: e.timestamp)  # CR 613.7; sorted() is stable
    check = len(remaining) > 1 and any(e.reads_layer or e.removes for e in remaining)
    while remaining:
        chosen = remaining[0]
        if check:  # CR 613.8b-c: the first in timestamp order that waits for no other
            for e in remaining:
                if not any(_depends(e, f, state) and not _depends(f, e, state)
                           for f in remaining if f is not e):
                    chosen = e
                    break
        chosen.run(state)
        remaining.remove(chosen)


def _depends(a: LayerEffect, b: LayerEffect, state: State) -> bool:
    """CR 613.8a: does ``a`` depend on ``b``? Only when applying ``b`` would change whether
    ``a`` exists or what it applies to (what ``a`` does to each object never depends on the
    effects of its own layer here). A characteristic-defining effect depends only on
    another such effect."""
    if a.cda != b.cda:
        return False
    before = (a.exists(state), a.affects(state))
    # ``b`` applied to a scratch state: only what it changes is copied (b.run on a full copy
    # gives the same, for the price of copying every permanent for every pair).
    scratch = dict(state)
    if b.exists(state):
        copied: set[int] = set()
        for oid in b.affects(state):
            if oid not in copied:
                copied.add(oid)
                scratch[oid] = state[oid].copy()
            b.apply(scratch[oid])
    return (a.exists(scratch), a.affects(scratch)) != before


# --------------------------------------------------------------------------- the effects


def _gather(game: Game, state: State) -> list[LayerEffect]:
    out: list[LayerEffect] = []
    for eff in game.effects:
        made = _resolved(eff, state)
        if made is not None:
            out.append(made)
    for src in game.global_sources:
        if src.phased_out:
            continue
        for st in src.defn.global_statics:
            if isinstance(st, (CreaturesGet, CreaturesHave)):
                out.append(_lord(game, src, st))
            elif isinstance(st, EnchantedGets):
                out.extend(_aura(game, src, st))
            elif isinstance(st, (PowerToughnessEqualTo, PowerToughnessEqualToLife)):
                out.append(_defining(game, src, st))
            elif isinstance(st, SharedTypeBonus):
                out.append(_shared_types(game, src))
            elif isinstance(st, EnchantedIsChosenType) and src.chosen:
                out.append(_land_type(src))
            elif isinstance(st, GetsPerOtherNamed):
                out.append(_per_other_named(game, src, st))
    return out


def _resolved(eff: Continuous, state: State) -> LayerEffect | None:
    """A continuous effect from a resolved spell or ability (CR 611.2): it applies to the
    object it named, for as long as that object is on the battlefield (CR 400.7)."""
    oid = eff.affected
    if oid is None or oid not in state:
        return None
    if eff.while_on is not None and eff.while_on not in state:
        return None  # "for as long as" its source remains on the battlefield (CR 611.2b)

    def one(_: State) -> list[int]:
        return [oid]

    kind = eff.kind
    if kind == "text" and eff.words is not None:
        old, new = eff.words

        def rewrite(ch: Chars) -> None:
            ch.keywords = {reworded(k, old, new) for k in ch.keywords}

        return LayerEffect("3", eff.timestamp, one, rewrite)
    if kind == "keyword":
        keyword = eff.keyword

        def grant(ch: Chars) -> None:
            ch.keywords.add(keyword)
            ch.granted.append(keyword)

        return LayerEffect("6", eff.timestamp, one, grant)
    if kind == "lose_abilities":
        return LayerEffect("6", eff.timestamp, one, _lose_all, removes=True)
    if kind == "subtype":
        added = eff.subtype

        def join(ch: Chars) -> None:
            ch.subtypes = ch.subtypes | {added}

        return LayerEffect("4", eff.timestamp, one, join)
    if kind == "card_type":
        card_type = eff.subtype

        def add_type(ch: Chars) -> None:
            ch.types = ch.types | {card_type}

        return LayerEffect("4", eff.timestamp, one, add_type)
    if kind == "color":
        colors = frozenset(eff.colors)

        def paint(ch: Chars) -> None:
            ch.colors = colors

        return LayerEffect("5", eff.timestamp, one, paint)
    if kind == "add_color":  # "black in addition to its other colors"
        added_colors = frozenset(eff.colors)

        def tint(ch: Chars) -> None:
            ch.colors = ch.colors | added_colors

        return LayerEffect("5", eff.timestamp, one, tint)
    if kind in ("pt", "set_pt"):
        p, t = eff.power, eff.toughness
        if kind == "pt":
            def modify(ch: Chars) -> None:
                ch.power += p
                ch.toughness += t

            return LayerEffect("7c", eff.timestamp, one, modify)

        def set_pt(ch: Chars) -> None:
            ch.power, ch.toughness = p, t

        return LayerEffect("7b", eff.timestamp, one, set_pt)
    if kind == "switch_pt":
        return LayerEffect("7d", eff.timestamp, one, _switch)
    return None  # control, prevention, redirection, hand size: not characteristics


def reworded(keyword: Keyword, old: str, new: str) -> Keyword:
    """A keyword with the colour word or land type ``old`` in its text replaced by ``new``
    (CR 612.2: only a word used as a colour word or a land type): "protection from black"
    becomes "protection from red", "swampwalk" "islandwalk"."""
    if isinstance(keyword, Protection) and keyword.kind == COLOR:
        if COLOR_NAMES.get(keyword.value) == old and new in COLOR_WORDS:
            return Protection(COLOR, COLOR_WORDS[new])
    elif isinstance(keyword, Landwalk) and keyword.land_type == old:
        return Landwalk(new)
    return keyword


def _lose_all(ch: Chars) -> None:
    ch.keywords.clear()
    ch.granted.clear()
    ch.abilities = False


def _switch(ch: Chars) -> None:
    ch.power, ch.toughness = ch.toughness, ch.power  # CR 613.4d


def _lord(game: Game, src: Obj, st: CreaturesGet | CreaturesHave) -> LayerEffect:
    """"[Other] [white] [Goblin] creatures [you control] [with flying] get +N/+N / have
    KEYWORD": the creatures it reaches are decided as it applies (CR 613.6)."""
    objects = game.objects

    def affects(state: State) -> list[int]:
        out: list[int] = []
        if st.while_top_card and not top_card_is(game, src.controller, st.while_top_card):
            return out
        for oid, ch in state.items():
            o = objects[oid]
            if "Creature" not in ch.types:
                continue
            if st.whose != "all" and o.controller != src.controller:
                continue
            if st.other and oid == src.oid:
                continue
            if (st.subtype and st.subtype not in ch.subtypes
                    and not (st.self_too and oid == src.oid)):
                continue
            if st.color and st.color not in ch.colors:
                continue
            if st.having and st.having not in ch.keywords:
                continue
            out.append(oid)
        return out

    source = src.oid if src.oid in objects and src.zone == "battlefield" else None
    if isinstance(st, CreaturesHave):
        keyword = st.keyword

        def grant(ch: Chars) -> None:
            ch.keywords.add(keyword)
            ch.granted.append(keyword)

        return LayerEffect("6", src.timestamp, affects, grant, source=source,
                           reads_layer=bool(st.having))
    p, t = st.power, st.toughness

    def modify(ch: Chars) -> None:
        ch.power += p
        ch.toughness += t

    return LayerEffect("7c", src.timestamp, affects, modify, source=source)


def _aura(game: Game, aura: Obj, st: EnchantedGets) -> list[LayerEffect]:
    """An Aura's "enchanted creature gets +N/+N and has KEYWORD": layers 7c and 6, from the
    Aura's timestamp (CR 613.7e)."""
    host = aura.attached_to

    def affects(state: State) -> list[int]:
        return [host] if host is not None and host in state else []

    n = 1
    if st.per_land:
        n = sum(1 for o in game.permanents() if o.controller == aura.controller
                and o.defn.is_("Land") and st.per_land in o.defn.subtypes)
    p, t = st.power * n, st.toughness * n

    def modify(ch: Chars) -> None:
        ch.power += p
        ch.toughness += t

    out = [LayerEffect("7c", aura.timestamp, affects, modify, source=aura.oid)]
    if st.keywords:
        keywords = st.keywords

        def grant(ch: Chars) -> None:
            ch.keywords.update(keywords)
            ch.granted.extend(keywords)

        out.append(LayerEffect("6", aura.timestamp, affects, grant, source=aura.oid))
    if st.loses:
        lost = st.loses

        def remove(ch: Chars) -> None:
            ch.keywords.difference_update(lost)
            ch.granted[:] = [k for k in ch.granted if k not in lost]

        out.append(LayerEffect("6", aura.timestamp, affects, remove, source=aura.oid,
                               removes=True))
    return out


def _land_type(aura: Obj) -> LayerEffect:
    """"Enchanted land is the chosen type" (layer 4, CR 305.7): its land types are replaced
    by the chosen basic land type (a land's subtypes are land types; an animated land keeps
    its creature types), and it has that type's mana ability instead of its own."""
    host, chosen = aura.attached_to, aura.chosen

    def affects(state: State) -> list[int]:
        return [host] if host is not None and host in state and "Land" in state[host].types \
            else []

    def set_type(ch: Chars) -> None:
        kept = ch.subtypes - set(BASIC_LAND_MANA) if "Creature" in ch.types else frozenset()
        ch.subtypes = kept | {chosen}
        ch.land_mana = (BASIC_LAND_MANA[chosen],)

    return LayerEffect("4", aura.timestamp, affects, set_type, source=aura.oid)


def _shared_types(game: Game, src: Obj) -> LayerEffect:
    """"Each creature gets +1/+1 for each other creature on the battlefield that shares at
    least one creature type with it": counted with the types layer 4 left (CR 613.1d), the
    same for every object when the effect is applied (613.6)."""
    bonus: dict[int, int] = {}

    def affects(state: State) -> list[int]:
        creatures = [(oid, ch.subtypes) for oid, ch in state.items() if "Creature" in ch.types]
        bonus.clear()
        for oid, types in creatures:
            bonus[oid] = sum(1 for other, theirs in creatures
                             if other != oid and types & theirs)
        return [oid for oid, n in bonus.items() if n]

    def modify(ch: Chars) -> None:
        n = bonus[ch.oid]
        ch.power += n
        ch.toughness += n

    return LayerEffect("7c", src.timestamp, affects, modify, source=src.oid)


def _per_other_named(game: Game, src: Obj, st: GetsPerOtherNamed) -> LayerEffect:
    """"~ gets +1/+1 for each other creature on the battlefield named ~" (layer 7c): the
    creatures counted are those layer 4 leaves creatures, with the name the source has."""
    objects = game.objects
    bonus = [0]

    def affects(state: State) -> list[int]:
        if src.oid not in state:
            return []
        bonus[0] = sum(1 for oid, ch in state.items() if oid != src.oid
                       and "Creature" in ch.types and objects[oid].name == src.name)
        return [src.oid] if bonus[0] else []

    def modify(ch: Chars) -> None:
        ch.power += st.power * bonus[0]
        ch.toughness += st.toughness * bonus[0]

    return LayerEffect("7c", src.timestamp, affects, modify, source=src.oid)


def _defining(game: Game, src: Obj,
              st: PowerToughnessEqualTo | PowerToughnessEqualToLife) -> LayerEffect:
    """A characteristic-defining ability: layer 7a (CR 613.4a). A life total below 0 still
    defines a negative power and toughness (CR 107.1b allows negative results here)."""
    if isinstance(st, PowerToughnessEqualToLife):
        n = game.players[src.controller].life
    else:
        n = sum(1 for o in game.permanents() if o.controller == src.controller
                and o.defn.is_("Land") and st.land_type in o.defn.subtypes)

    def affects(state: State) -> list[int]:
        return [src.oid] if src.oid in state else []

    def define(ch: Chars) -> None:
        ch.power = ch.toughness = n

    return LayerEffect("7a", src.timestamp, affects, define, source=src.oid, cda=True)
