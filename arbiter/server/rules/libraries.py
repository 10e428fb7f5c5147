"""What the library and hand words of the vocabulary do: searching (CR 701.19), shuffling
(701.20), looking at and ordering the top of a library, revealing (701.16), discarding a card
another player chooses, sacrificing (701.17), and the few effects that rebuild a library.

Who sees what: a card a player looks at or searches for reaches only that player, as the
labels of the decisions put to them (a decision's actions go to its decider alone); a
revealed card is named in a ``reveal`` log line, which every player in the room reads
(CR 701.16a); the log says only "a card" where the card stays hidden (CR 701.19e). Each
handler is registered in :data:`LIBRARY_HANDLERS`, which :mod:`resolve` adds to its own.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from .attachments import attach, choose_land_type, enchant_choices
from .cards.vocab import (
    EACH_PLAYER,
    TO_BATTLEFIELD,
    TO_HAND,
    TO_TOP,
    ExileGraveyardAndNamesakes,
    LibraryFromExile,
    LookAtTop,
    PermanentsShuffledAndRedealt,
    PutFromHand,
    RevealHandYouChoose,
    RevealTopCard,
    RevealUntil,
    SearchLibrary,
    SearchThenNamed,
    Shuffle,
)
from .naming import choose_name
from .reveals import top_card
from .state import EXILE, LIBRARY, Action, Obj

if TYPE_CHECKING:
    from .game import Flow, Game
    from .resolve import Ctx


# --------------------------------------------------------------------------- helpers


def _numbered(actions: list[Action]) -> list[Action]:
    """Give actions the ids their positions say (a decision answers by position)."""
    return [Action(i, a.kind, a.label, obj=a.obj, ref=a.ref, index=a.index)
            for i, a in enumerate(actions)]


def _by_name(cards: Iterable[Obj]) -> list[tuple[str, Obj]]:
    """One card for each name, sorted by name: cards of one name are interchangeable here,
    so a player picks a name, never one of several identical cards."""
    seen: dict[str, Obj] = {}
    for o in cards:
        seen.setdefault(o.name, o)
    return sorted(seen.items())


def _cards(n: int) -> str:
    return f"{n} card{'s' if n != 1 else ''}"


def arrange(ctx: Ctx, pid: int, cards: list[Obj], where: str) -> Flow:
    """``pid`` orders ``cards`` one pick at a time, the card nearest the top of the library
    first (CR 401.4: the owner arranges cards put into a library together). Returns them in
    that order; a player who has left leaves the rest as they were."""
    rest = list(cards)
    order: list[Obj] = []
    while len({o.name for o in rest}) > 1:
        answer = yield from ctx.choose(
            pid, "order", f"Order the cards going {where}: choose the next one from the top",
            lambda: _numbered([Action(0, "choose_card", f"{name} next", obj=o.oid)
                               for name, o in _by_name(rest)]))
        picked = next((o for o in rest if answer is not None and o.oid == answer.obj), None)
        if picked is None:
            break
        order.append(picked)
        rest.remove(picked)
    return order + rest


def restack(game: Game, pid: int, top_down: list[Obj], *, bottom: bool = False) -> None:
    """Put cards already in ``pid``'s library back on its top (or bottom), ``top_down[0]``
    nearest the top. They stay the same objects: they never left the zone."""
    lib = game.library(pid)
    for o in top_down:
        lib.remove(o)
    if bottom:
        lib[0:0] = list(reversed(top_down))
    else:
        lib.extend(reversed(top_down))
    game.invalidate_chars()  # the top card may have changed (reveals.py)


def shuffle(game: Game, pid: int) -> None:
    """CR 701.20a."""
    if game.in_game(pid):
        game.shuffle(pid)
        game.touch_player(pid)


def _reveal(game: Game, pid: int, cards: list[Obj], what: str) -> None:
    names = ", ".join(o.name for o in cards) if cards else "nothing"
    game.say(f"{game.name(pid)} reveals {what}: {names}.", "reveal", player=pid,
             cards=[o.name for o in cards])


# --------------------------------------------------------------------------- searching


_VERBS = {TO_BATTLEFIELD: "onto the battlefield", TO_HAND: "into your hand",
          TO_TOP: "on top of the library"}


def _search(ctx: Ctx, e: SearchLibrary) -> Flow:
    g = ctx.game
    owners = ctx.players(e.whose)
    if not owners:
        return
    owner = owners[0]
    searcher = ctx.controller
    must = not e.filter.has_quality  # CR 701.19d; otherwise it may fail to find (701.19b)
    found: list[Obj] = []  # the chosen cards stay in the library until the search is over

    def build() -> list[Action]:
        taken = {o.oid for o in found}
        cards = _by_name(o for o in g.library(owner)
                         if e.filter.matches(o.defn) and o.oid not in taken)
        if not cards:
            return []  # nothing it could find: nothing to ask
        acts = [] if must else [Action(0, "choose_none", "Find nothing")]
        acts += [Action(0, "choose_card", f"Put {name} {_VERBS[e.to]}", obj=o.oid)
                 for name, o in cards]
        return _numbered(acts)

    for n in range(e.count):
        left = "" if e.count == 1 else f" ({n + 1} of up to {e.count})"
        answer = yield from ctx.choose(searcher, "search",
                                       f"Search {g.name(owner)}'s library for a "
                                       f"{e.filter.describe()}{left}", build)
        if answer is None or answer.kind != "choose_card" or answer.obj not in g.objects:
            break
        found.append(g.objects[answer.obj])
    if not g.in_game(searcher):
        return  # they left while searching (800.4a): nothing more of the search happens
    found = [o for o in found if o.oid in g.objects and o.zone == LIBRARY]
    if e.reveal and found:
        _reveal(g, searcher, found, "the card found" if len(found) == 1 else "the cards found")
    if e.to == TO_TOP:
        # CR 701.20b: the found cards are not part of the shuffle; then they go on top.
        lib = g.library(owner)
        for o in found:
            lib.remove(o)
        shuffle(g, owner)
        lib.extend(found)
        g.say(f"{g.name(searcher)} shuffles and puts {_cards(len(found))} on top.")
        return
    under = ctx.players(e.under)
    for card in found:
        if e.to == TO_HAND:
            new = g.move(card, "hand", cause="search")
            if new is not None and not e.reveal:
                g.say(f"{g.name(searcher)} puts a card into their hand.")
        elif under:
            new = g.put_onto_battlefield(card, under[0], cause="search", tapped=e.tapped)
            if new is not None:
                g.say(f"{g.name(searcher)} puts {new.name} onto the battlefield from "
                      f"{g.name(owner)}'s library{' tapped' if e.tapped else ''}.")
    shuffle(g, owner)


def _search_then_named(ctx: Ctx, e: SearchThenNamed) -> Flow:
    """The searcher finds a card without showing it (CR 701.19d, 701.19e); the library's owner
    then names a card, from the names of the cards they own in this game (docs/rulings.md:
    any other name has the same effect as one of these)."""
    g = ctx.game
    owners = ctx.players(e.whose)
    if not owners:
        return
    owner, me = owners[0], ctx.controller
    answer = yield from ctx.choose(
        me, "search", f"Search {g.name(owner)}'s library for a card",
        lambda: _numbered([Action(0, "choose_card", f"Find {name}", obj=o.oid)
                           for name, o in _by_name(g.library(owner))]))
    card = g.objects.get(answer.obj) if answer is not None and answer.obj is not None else None
    g.say(f"{g.name(me)} searches {g.name(owner)}'s library"
          f"{' and finds a card' if card is not None else ''}.")

    name = yield from choose_name(owner, lambda: sorted(
        {o.name for o in g.objects.values() if o.owner == owner and o.card is not None}),
        ctx.choose)
    if name is not None:
        g.say(f"{g.name(owner)} names {name}.")
    if (card is not None and card.oid in g.objects and card.zone == LIBRARY
            and e.filter.matches(card.defn) and card.name != name):
        take = yield from ctx.choose(
            me, "may", f"Put {card.name} onto the battlefield under your control?",
            lambda: [Action(0, "yes", "Yes"), Action(1, "no", "No")])
        if take is not None and take.kind == "yes":
            new = g.put_onto_battlefield(card, me, cause="search")
            if new is not None:
                g.say(f"{g.name(me)} puts {new.name} onto the battlefield from "
                      f"{g.name(owner)}'s library.")
    shuffle(g, owner)


def _exile_graveyard_and_namesakes(ctx: Ctx, e: ExileGraveyardAndNamesakes) -> None:
    """The searcher finds every card of those names (docs/rulings.md: CR 701.19b would let
    them leave some; we find them all)."""
    g = ctx.game
    for p in ctx.players(e.who):
        exiled = [o for o in list(g.graveyard(p)) if not e.spare.matches(o.defn)]
        names = {o.name for o in exiled}
        for o in exiled:
            g.move(o, EXILE, cause="effect")
        namesakes = [o for o in list(g.library(p)) if o.name in names]
        for o in namesakes:
            g.move(o, EXILE, cause="effect")
        g.say(f"{g.name(p)} has {_cards(len(exiled))} exiled from their graveyard and "
              f"{_cards(len(namesakes))} of the same names from their library.")
        shuffle(g, p)


# --------------------------------------------------------------------------- the top


def _shuffle(ctx: Ctx, e: Shuffle) -> None:
    for p in ctx.players(e.who):
        shuffle(ctx.game, p)
        ctx.game.say(f"{ctx.game.name(p)} shuffles their library.")


def _look_at_top(ctx: Ctx, e: LookAtTop) -> Flow:
    g = ctx.game
    for p in ctx.players(e.who):
        lib = g.library(p)
        n = min(e.count, len(lib))
        if not n:
            continue
        g.say(f"{g.name(p)} looks at the top {_cards(n)} of their library.")
        order = yield from arrange(ctx, p, list(reversed(lib[-n:])), "back on top")
        restack(g, p, order)


def _reveal_top_card(ctx: Ctx, e: RevealTopCard) -> Flow:
    g = ctx.game
    me = ctx.controller
    top = top_card(g, me)
    if top is None:
        return
    _reveal(g, me, [top], "the top card of their library")
    if e.filter.matches(top.defn):
        new = g.put_onto_battlefield(top, me, cause="reveal")
        if new is not None:
            g.say(f"{new.name} enters the battlefield under {g.name(me)}'s control.")
        return
    answer = yield from ctx.choose(
        me, "may", f"Put {top.name} on the bottom of your library?",
        lambda: [Action(0, "yes", "Put it on the bottom"), Action(1, "no", "Leave it on top")])
    if answer is not None and answer.kind == "yes" and top.oid in g.objects:
        restack(g, me, [top], bottom=True)
        g.say(f"{g.name(me)} puts {top.name} on the bottom of their library.")


def _reveal_until(ctx: Ctx, e: RevealUntil) -> None:
    """The cards revealed stay in the library while they are shown (CR 701.16a); the one
    found enters, and the library is shuffled even when nothing else was revealed
    (CR 701.20d)."""
    g = ctx.game
    for p in ctx.players(e.who):
        lib = g.library(p)
        shown: list[Obj] = []
        found = None
        for o in reversed(lib):
            shown.append(o)
            if e.filter.matches(o.defn):
                found = o
                break
        _reveal(g, p, shown, "cards from the top of their library")
        if found is not None:
            new = g.put_onto_battlefield(found, p, cause="reveal")
            if new is not None:
                g.say(f"{new.name} enters the battlefield under {g.name(p)}'s control.")
        shuffle(g, p)


def _library_from_exile(ctx: Ctx, e: LibraryFromExile) -> Flow:
    g = ctx.game
    me = ctx.controller
    chosen: list[Obj] = []

    def build() -> list[Action]:
        left = [o for o in g.exile if o.owner == me and o.card is not None and o not in chosen]
        return _numbered([Action(0, "done", "Done choosing"),
                          *(Action(0, "choose_card", f"Choose {name}", obj=o.oid)
                            for name, o in _by_name(left))])

    while len(chosen) < e.count:
        answer = yield from ctx.choose(
            me, "choose_exiled", f"Choose up to {e.count} face-up exiled cards you own "
            f"({len(chosen)} chosen)", build)
        if answer is None or answer.kind != "choose_card" or answer.obj not in g.objects:
            break
        chosen.append(g.objects[answer.obj])
    lib = list(g.library(me))
    for o in lib:
        g.move(o, EXILE, cause="effect")
    g.say(f"{g.name(me)} exiles the {_cards(len(lib))} of their library.")
    order = yield from arrange(ctx, me, chosen, "on top of your library")
    for o in reversed(order):  # the last one moved ends on top
        if o.oid in g.objects and o.zone == EXILE:
            g.move(o, LIBRARY, cause="effect")
    g.say(f"{g.name(me)} puts {', '.join(o.name for o in order) or 'nothing'} on top of "
          "their library.")


# --------------------------------------------------------------------------- hands


def _put_from_hand(ctx: Ctx, e: PutFromHand) -> Flow:
    g = ctx.game
    me = ctx.controller
    answer = yield from ctx.choose(
        me, "put_from_hand", f"You may put a {e.filter.describe()} from your hand onto the "
        "battlefield",
        lambda: _numbered([Action(0, "choose_none", "Put nothing"),
                           *(Action(0, "choose_card", f"Put {name} onto the battlefield",
                                    obj=o.oid)
                             for name, o in _by_name(o for o in g.hand(me)
                                                     if e.filter.matches(o.defn)))]))
    if answer is None or answer.kind != "choose_card" or answer.obj not in g.objects:
        return
    new = g.put_onto_battlefield(g.objects[answer.obj], me, cause="effect")
    if new is not None:
        g.say(f"{g.name(me)} puts {new.name} onto the battlefield from their hand.")


def _reveal_hand_you_choose(ctx: Ctx, e: RevealHandYouChoose) -> Flow:
    g = ctx.game
    me = ctx.controller
    for p in ctx.players(e.who):
        _reveal(g, p, list(g.hand(p)), "their hand")

        def build(p: int = p) -> list[Action]:
            return _numbered([Action(0, "choose_card", f"{g.name(p)} discards {name}",
                                     obj=o.oid)
                              for name, o in _by_name(o for o in g.hand(p)
                                                      if e.filter.matches(o.defn))])

        answer = yield from ctx.choose(me, "choose_discard",
                                       f"Choose a {e.filter.describe()} for {g.name(p)} to "
                                       "discard", build)
        if answer is None or answer.obj not in g.objects:
            continue
        g.discard(g.objects[answer.obj])


# --------------------------------------------------------------------------- redealing


def _redeal(ctx: Ctx, e: PermanentsShuffledAndRedealt) -> Flow:
    """Each player shuffles the permanents they own into their library and reveals that many
    cards; the revealed cards of ``first`` types enter together, then those of ``then``
    types, then the rest go to the bottom in an order their owner chooses. A token is counted
    but ceases to exist instead of joining a library (CR 111.8, docs/rulings.md)."""
    g = ctx.game
    players = [p for p in g.apnap() if p in ctx.players(EACH_PLAYER)]
    counts = {p: 0 for p in players}
    for o in [o for o in g.battlefield if o.owner in counts]:
        counts[o.owner] += 1
        if o.card is None:
            g.remove_object(o)
        else:
            g.move(o, LIBRARY, cause="shuffle")
    revealed: dict[int, list[Obj]] = {}
    for p in players:
        shuffle(g, p)
        lib = g.library(p)
        revealed[p] = list(reversed(lib[-counts[p]:])) if counts[p] else []
        _reveal(g, p, revealed[p], f"the top {_cards(counts[p])} of their library")
    for types in (e.first, e.then):
        for p in players:
            batch = [o for o in revealed[p] if o.defn.types & types and o.zone == LIBRARY
                     and o.oid in g.objects]
            for o in batch:
                host = None
                if o.defn.is_aura:
                    # CR 303.4f: its owner chooses what it will enchant, without targeting,
                    # among the permanents there now; with none it stays (303.4g).
                    answer = yield from ctx.choose(p, "enchant",
                                                   f"Choose what {o.name} enchants",
                                                   _enchant_options(g, o, p))
                    host = g.objects.get(answer.ref[1]) if answer and answer.ref else None
                    if host is None:
                        continue
                new = g.put_onto_battlefield(o, p, cause="reveal")
                if new is not None and host is not None:
                    attach(g, new, host)
                if new is not None:
                    yield from choose_land_type(g, new, ctx.choose)
                revealed[p].remove(o)
    for p in players:
        rest = [o for o in revealed[p] if o.oid in g.objects and o.zone == LIBRARY]
        if rest:
            order = yield from arrange(ctx, p, rest, "to the bottom of your library")
            restack(g, p, order, bottom=True)
            g.say(f"{g.name(p)} puts {_cards(len(rest))} on the bottom of their library.")


def _enchant_options(game: Game, aura: Obj, pid: int) -> Callable[[], list[Action]]:
    return lambda: _numbered([Action(0, "enchant", f"Enchant {h.name}", obj=aura.oid,
                                     ref=("o", h.oid))
                              for h in enchant_choices(game, aura, pid)])


LIBRARY_HANDLERS: dict[type, Callable[[Ctx, Any], Any]] = {
    SearchLibrary: _search, Shuffle: _shuffle, LookAtTop: _look_at_top,
    PutFromHand: _put_from_hand,
    RevealHandYouChoose: _reveal_hand_you_choose, RevealTopCard: _reveal_top_card,
    RevealUntil: _reveal_until,
    ExileGraveyardAndNamesakes: _exile_graveyard_and_namesakes,
    LibraryFromExile: _library_from_exile, SearchThenNamed: _search_then_named,
    PermanentsShuffledAndRedealt: _redeal,
}
