"""Bot strategies: pure functions of what a player can see and the decision in front of them.

Both take ``view`` (the player's view: the snapshot map described in docs/protocol.md, with
object ids as integer keys), ``decision`` (the wire form of a decision: ``kind``, ``player`` and
``actions``, each with ``id``, ``kind``, ``label`` and optional ``obj`` / ``ref``), a
``random.Random`` and ``cards``, the card data of the server's catalog (docs/protocol.md,
"catalog": name to cost, types, power and toughness, keywords); they return the id of the chosen
action. They never look at anything a player could not see, so they play the same in the
server's rooms, over the network and in the engine benchmark. They import nothing of the
server: card data reaches them through the protocol.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

View = Mapping[Any, Any]
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

    def pt(self, o: Mapping[str, Any]) -> tuple[int, int]:
        pt = o.get("pt")
        if not pt:
            c = self.cards.get(o["n"])
            pt = c.get("pt") if c is not None else None
        return (int(pt[0]), int(pt[1])) if pt else (0, 0)

    def flying(self, o: Mapping[str, Any]) -> bool:
        c = self.cards.get(o["n"])
        return (c is not None and "flying" in c.get("keywords", ())) or "flying" in o.get(
            "kw", ())

    def value(self, o: Mapping[str, Any]) -> int:
        if o["n"] not in self.cards:
            return 0
        p, t = self.pt(o)
        return self.mana_value(o["n"]) * 2 + p + t


def _objects(view: View) -> dict[int, dict[str, Any]]:
    return {k: v for k, v in view.items() if isinstance(k, int)}


def _controller(o: Mapping[str, Any]) -> int:
    return int(o.get("c", o["o"]))


def _life(view: View, pid: int) -> int:
    p = view.get(f"p{pid}")
    return int(p["l"]) if p else 0


def _team(view: View, me: int, sharing: str | None = None) -> set[int]:
    """``me`` and their teammates, as the view's game entry lists them (docs/protocol.md);
    with ``sharing``, only if teammates share that ("turns", "life"), else ``me`` alone."""
    game = view.get("g") or {}
    if sharing is not None and sharing not in (game.get("shared") or []):
        return {me}
    for team in game.get("teams") or []:
        if me in team:
            return {int(p) for p in team}
    return {me}


def heuristic_strategy(view: View, decision: Decision, rng: random.Random,
                       cards: Cards | None = None) -> int:
    """Plays lands, casts what it can afford (the priciest first), attacks when it does not
    lose the exchange, blocks to survive, and aims removal at the best opposing creature."""
    book = _Book(cards or {})
    me = int(decision["player"])
    kind = decision["kind"]
    actions = decision["actions"]
    objs = _objects(view)
    by_kind: dict[str, list[dict[str, Any]]] = {}
    for a in actions:
        by_kind.setdefault(a["kind"], []).append(a)

    if kind == "mulligan":
        hand = [o for o in objs.values() if o["z"] == "h" and o["o"] == me]
        lands = sum(1 for o in hand if book.is_(o["n"], "Land"))
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
                if o["n"] in ("Shahrazad",):
                    return -1
                return book.mana_value(o["n"])
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
        return _choose_target(book, view, me, objs, actions)

    if kind in ("discard", "bottom"):
        def keepability(a: Mapping[str, Any]) -> int:
            o = objs.get(a.get("obj", -1))
            return book.mana_value(o["n"]) if o else 0
        return int(max(actions, key=keepability)["id"])

    if kind in ("search", "wish"):
        pick = [a for a in actions if a["kind"] != "choose_none"]
        return int((pick or actions)[0]["id"])

    if kind in ("assign_damage", "order_triggers"):
        # Damage: the first option is lethal damage, killing what can be killed. Triggers:
        # the first is the order they triggered in.
        return int(actions[0]["id"])

    if kind == "pay":  # paying life to deny an opponent a card is rarely worth it
        return int((by_kind.get("no") or actions)[0]["id"])

    return int(actions[0]["id"])  # e.g. commander to the command zone: yes


def _choose_attack(book: _Book, view: View, objs: dict[int, dict[str, Any]],
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
                    if o["z"] == "b" and not o.get("t") and _controller(o) in defenders
                    and book.is_(o["n"], "Creature")
                    and (not book.flying(attacker) or book.flying(o))]
        safe = all(book.pt(b)[0] < at or ap >= book.pt(b)[1] for b in blockers)
        if ap > 0 and safe:
            return int(a["id"])
    return int(by_kind["done"][0]["id"])


def _choose_block(book: _Book, view: View, me: int, objs: dict[int, dict[str, Any]],
                  by_kind: dict[str, list[dict[str, Any]]]) -> int:
    team = _team(view, me, "life")  # in Two-Headed Giant an attack on a teammate costs us too
    incoming = sum(book.pt(o)[0] for o in objs.values()
                   if (o.get("at") or [None])[0] == "p" and o["at"][1] in team)
    planned = {o.get("bl") for o in objs.values() if _controller(o) == me and o.get("bl")}
    danger = incoming >= _life(view, me)
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
            "Mind Control", "Bribery", "Karn Liberated", "Door to Nothingness")


def _choose_target(book: _Book, view: View, me: int, objs: dict[int, dict[str, Any]],
                   actions: list[dict[str, Any]]) -> int:
    source = objs.get(actions[0].get("obj", -1)) if actions else None
    source_name = source["n"] if source else ""
    friendly = source_name not in _HARMFUL and source_name != ""
    team = _team(view, me)

    def score(a: Mapping[str, Any]) -> float:
        ref = a.get("ref") or ["p", me]
        if ref[0] == "p":
            mine = int(ref[1]) in team
            base = 5.0 - _life(view, int(ref[1])) / 10
        else:
            o = objs.get(int(ref[1]))
            if o is None:
                return -100.0
            mine = _controller(o) in team
            base = float(book.value(o))
            if source_name == "Lightning Bolt":
                base += 10 if book.pt(o)[1] - o.get("d", 0) <= 3 else -10
        return base if mine == friendly else -base - 50

    return int(max(actions, key=score)["id"])


STRATEGIES: dict[str, Strategy] = {"random": random_strategy, "heuristic": heuristic_strategy}
