"""Bot strategies: pure functions of what a player can see and the decision in front of them.

Both take ``view`` (the player's view: the snapshot map described in docs/protocol.md, with
object ids as integer keys), ``decision`` (the wire form of a decision: ``kind``, ``player`` and
``actions``, each with ``id``, ``kind``, ``label`` and optional ``obj`` / ``ref``), a
``random.Random`` and ``cards``, the card data of the server's catalog (docs/protocol.md,
"catalog": name to cost, types, power and toughness, keywords); they return the id of the chosen
action. They never look at anything a player could not see, so they play the same in the
server's rooms, over the network and in the engine benchmark. They import nothing of the
server: card data reaches them through the protocol, and they read views through its named
readers (``arbiter.protocol.view_keys``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from arbiter.protocol import view_keys as vk
from arbiter.protocol.view_keys import View

Obj = Mapping[str, Any]  # one object's entry in a view
Objects = dict[int, Obj]
Decision = Mapping[str, Any]
Cards = Mapping[str, Mapping[str, Any]]
Strategy = Callable[[View, Decision, random.Random, Cards], int]

PASS_BIAS = 0.6  # how often the random bot passes when it may, so games finish


def random_strategy(view: View, decision: Decision, rng: random.Random,
                    cards: Cards | None = None) -> int:
    """Uniform over the legal actions, but passing (or finishing a declaration) with
    probability ``PASS_BIAS`` when that is one of them."""
    actions = decision["actions"]
    settle = [a for a in actions if a["kind"] in ("pass", "done")]
    if settle and rng.random() < PASS_BIAS:
        return int(settle[0]["id"])
    return int(rng.choice(actions)["id"])


# --------------------------------------------------------------------------- heuristic


class _Book:
    """What the heuristic asks about cards, answered from the catalog's card data."""

    def __init__(self, cards: Cards) -> None:
        self.cards = cards

    def card(self, name: str) -> Mapping[str, Any] | None:
        return self.cards.get(name)

    def is_(self, name: str, card_type: str) -> bool:
        c = self.cards.get(name)
        return c is not None and card_type in str(c.get("types", "")).split()

    def mana_value(self, name: str) -> int:
        c = self.cards.get(name)
        return int(c.get("mv") or 0) if c is not None else 0

    def pt(self, o: Obj) -> tuple[int, int]:
        pt = vk.power_toughness(o)
        if pt is None:
            c = self.cards.get(vk.name(o))
            printed = c.get("pt") if c is not None else None
            pt = (int(printed[0]), int(printed[1])) if printed else (0, 0)
        return pt

    def flying(self, o: Obj) -> bool:
        c = self.cards.get(vk.name(o))
        return (c is not None and "flying" in c.get("keywords", ())) or \
            "flying" in vk.granted_keywords(o)

    def value(self, o: Obj) -> int:
        if vk.name(o) not in self.cards:
            return 0
        p, t = self.pt(o)
        return self.mana_value(vk.name(o)) * 2 + p + t


def _team(view: View, me: int, sharing: str | None = None) -> set[int]:
    """``me`` and their teammates, as the view's game entry lists them (docs/protocol.md);
    with ``sharing``, only if teammates share that ("turns", "life"), else ``me`` alone."""
    if sharing is not None and not vk.shares(view, sharing):
        return {me}
    for team in vk.teams(view):
        if me in team:
            return set(team)
    return {me}


def heuristic_strategy(view: View, decision: Decision, rng: random.Random,
                       cards: Cards | None = None) -> int:
    """Plays lands, casts what it can afford (the priciest first), attacks when it does not
    lose the exchange, blocks to survive, and aims removal at the best opposing creature."""
    book = _Book(cards or {})
    me = int(decision["player"])
    kind = decision["kind"]
    actions = decision["actions"]
    objs = vk.objects(view)
    by_kind: dict[str, list[dict[str, Any]]] = {}
    for a in actions:
        by_kind.setdefault(a["kind"], []).append(a)

    if kind == "mulligan":
        hand = [o for o in objs.values() if vk.zone(o) == "h" and vk.owner(o) == me]
        lands = sum(1 for o in hand if book.is_(vk.name(o), "Land"))
        keep = 2 <= lands <= 5 or len(hand) <= 5
        return int(by_kind["keep" if keep else "mulligan"][0]["id"])

    if kind == "priority":
        if "play_land" in by_kind:
            return int(by_kind["play_land"][0]["id"])
        casts = by_kind.get("cast", [])
        if casts:
            def cost(a: Mapping[str, Any]) -> int:
                o = objs.get(a.get("obj", -1))
                if o is None:
                    return 0
                # Keep restart and subgame cards for when they help: rarely, for a bot.
                if vk.name(o) in ("Shahrazad",):
                    return -1
                return book.mana_value(vk.name(o))
            best = max(casts, key=cost)
            if cost(best) >= 0:
                return int(best["id"])
        for a in by_kind.get("activate", []):
            label = str(a["label"])
            if "+4" in label or "deploy" in label or "\u22123" in label:
                return int(a["id"])
        return int(by_kind["pass"][0]["id"])

    if kind == "attackers":
        return _choose_attack(book, view, objs, by_kind)

    if kind == "blockers":
        return _choose_block(book, view, me, objs, by_kind)

    if kind == "target":
        if "done" in by_kind:  # "any number of targets": all of X to the first one
            return int(by_kind["done"][0]["id"])
        return _choose_target(book, view, me, objs, actions)

    if kind == "x":
        return _choose_x(book, view, me, objs, actions)

    if kind in ("discard", "bottom"):
        def keepability(a: Mapping[str, Any]) -> int:
            o = objs.get(a.get("obj", -1))
            return book.mana_value(vk.name(o)) if o else 0
        return int(max(actions, key=keepability)["id"])

    if kind == "wish":
        pick = [a for a in actions if a["kind"] != "choose_none"]
        return int((pick or actions)[0]["id"])

    if kind in _CARD_PICKS:
        return _pick_card(book, view, me, objs, kind, actions)

    if kind in ("assign_damage", "order_triggers"):
        # Damage: the first option is lethal damage, killing what can be killed. Triggers:
        # the first is the order they triggered in.
        return int(actions[0]["id"])

    if kind == "pay":  # paying life to deny an opponent a card is rarely worth it
        return int((by_kind.get("no") or actions)[0]["id"])

    return int(actions[0]["id"])  # e.g. commander to the command zone: yes


# Decisions that name cards, often ones the bot cannot see in its view (a library's): it reads
# the card's name from the action's label. It finds, takes, keeps on top and names its best
# card (the priciest; on top of its library a land while it has fewer than five), takes the
# opponent's best, chooses its best exiled cards, and sacrifices its least valuable permanent.
_CARD_PICKS = ("search", "order", "choose_discard", "put_from_hand", "choose_exiled",
               "name_card", "sacrifice")


def _named(book: _Book, label: str) -> str:
    """The longest card name in ``label`` (labels name cards: "Put Forest into your hand")."""
    return max((n for n in book.cards if n in label), key=len, default="")


def _pick_card(book: _Book, view: View, me: int, objs: Objects, kind: str,
               actions: list[dict[str, Any]]) -> int:
    cards = [a for a in actions if a["kind"] not in ("choose_none", "done")]
    if not cards:
        return int(actions[0]["id"])
    if kind == "sacrifice":
        return int(min(cards, key=lambda a: book.value(objs[a["obj"]]) if a.get("obj") in objs
                       else 0)["id"])
    lands = sum(1 for o in objs.values() if vk.zone(o) == "b" and vk.controller(o) == me
                and book.is_(vk.name(o), "Land"))
    want_land = kind == "order" and lands < 5

    def worth(a: Mapping[str, Any]) -> tuple[bool, bool, int]:
        name = _named(book, str(a["label"]))
        return (book.is_(name, "Land") == want_land,
                kind == "name_card" and book.is_(name, "Creature"), book.mana_value(name))

    return int(max(cards, key=worth)["id"])


def _choose_attack(book: _Book, view: View, objs: Objects,
                   by_kind: dict[str, list[dict[str, Any]]]) -> int:
    for a in by_kind.get("attack", []):
        attacker = objs.get(a["obj"])
        if attacker is None:
            continue
        ref = a.get("ref")
        defender = int(ref[1]) if ref and ref[0] == "p" else None
        # With shared team turns the defender's whole team may block (CR 805.10d).
        defenders = _team(view, defender, "turns") if defender is not None else set()
        ap, at = book.pt(attacker)
        blockers = [o for o in objs.values()
                    if vk.zone(o) == "b" and not vk.tapped(o) and vk.controller(o) in defenders
                    and book.is_(vk.name(o), "Creature")
                    and (not book.flying(attacker) or book.flying(o))]
        safe = all(book.pt(b)[0] < at or ap >= book.pt(b)[1] for b in blockers)
        if ap > 0 and safe:
            return int(a["id"])
    return int(by_kind["done"][0]["id"])


def _choose_block(book: _Book, view: View, me: int, objs: Objects,
                  by_kind: dict[str, list[dict[str, Any]]]) -> int:
    team = _team(view, me, "life")  # in Two-Headed Giant an attack on a teammate costs us too
    incoming = sum(book.pt(o)[0] for o in objs.values()
                   if (aim := vk.attacking(o)) is not None and aim[0] == "p" and aim[1] in team)
    planned = {vk.blocking(o) for o in objs.values()
               if vk.controller(o) == me and vk.blocking(o) is not None}
    danger = incoming >= vk.life(view, me)
    best: tuple[int, int] | None = None
    for a in by_kind.get("block", []):
        blocker, attacker = objs.get(a["obj"]), objs.get(a["ref"][1])
        if blocker is None or attacker is None or int(a["ref"][1]) in planned:
            continue
        bp, bt = book.pt(blocker)
        ap, at = book.pt(attacker)
        survives = ap < bt
        kills = bp >= at
        score = (2 if kills else 0) + (2 if survives else 0) + (3 if danger else 0)
        worth_it = survives or (kills and book.value(attacker) >= book.value(blocker)) or danger
        if worth_it and (best is None or score > best[0]):
            best = (score, int(a["id"]))
    return best[1] if best is not None else int(by_kind["done"][0]["id"])


_HARMFUL = ("Lightning Bolt", "Lava Axe", "Traumatize", "Glimpse the Unthinkable", "Act of Treason",
            "Mind Control", "Bribery", "Karn Liberated", "Door to Nothingness", "Fireball",
            "Consume Spirit", "Tome Scour", "Haunting Echoes")


def _choose_x(book: _Book, view: View, me: int, objs: Objects,
              actions: list[dict[str, Any]]) -> int:
    """The largest X it can pay (the choices are exactly the payable values, CR 107.3a),
    except that a spell hitting each player is kept below its own life total."""
    source = objs.get(actions[0].get("obj", -1)) if actions else None
    card = book.card(vk.name(source)) if source else None
    most = max(int(a["n"]) for a in actions)
    if card is not None and "each player" in str(card.get("text", "")):
        most = min(most, max(vk.life(view, me) - 1, 0))
    return int(max((a for a in actions if int(a["n"]) <= most), key=lambda a: int(a["n"]))["id"])


def _choose_target(book: _Book, view: View, me: int, objs: Objects,
                   actions: list[dict[str, Any]]) -> int:
    source = objs.get(actions[0].get("obj", -1)) if actions else None
    source_name = vk.name(source) if source else ""
    friendly = source_name not in _HARMFUL and source_name != ""
    team = _team(view, me)

    def score(a: Mapping[str, Any]) -> float:
        ref = a.get("ref") or ["p", me]
        if ref[0] == "p":
            mine = int(ref[1]) in team
            base = 5.0 - vk.life(view, int(ref[1])) / 10
        else:
            o = objs.get(int(ref[1]))
            if o is None:
                return -100.0
            mine = vk.controller(o) in team
            base = float(book.value(o))
            if source_name == "Lightning Bolt":
                base += 10 if book.pt(o)[1] - vk.damage(o) <= 3 else -10
        return base if mine == friendly else -base - 50

    return int(max(actions, key=score)["id"])


STRATEGIES: dict[str, Strategy] = {"random": random_strategy, "heuristic": heuristic_strategy}
