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
import re
from collections.abc import Callable, Mapping
from typing import Any

from arbiter.protocol import view_keys as vk
from arbiter.protocol.view_keys import View

from .combat import Fighter, can_block, fight

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

    def has(self, o: Obj, keyword: str) -> bool:
        """Does ``o`` have ``keyword``, printed (the catalog) or granted (its view entry)?"""
        c = self.cards.get(vk.name(o))
        return (c is not None and keyword in c.get("keywords", ())) or \
            keyword in vk.granted_keywords(o)

    def flying(self, o: Obj) -> bool:
        return self.has(o, "flying")

    def keywords(self, o: Obj) -> set[str]:
        c = self.cards.get(vk.name(o))
        return {*(c.get("keywords", ()) if c is not None else ()), *vk.granted_keywords(o)}

    def harmful(self, name: str) -> bool:
        """An Aura that hurts what it enchants (the catalog's "harmful")."""
        c = self.cards.get(name)
        return c is not None and bool(c.get("harmful"))

    def text(self, name: str) -> str:
        c = self.cards.get(name)
        return str(c.get("text", "")) if c is not None else ""

    def colors(self, name: str) -> str:
        c = self.cards.get(name)
        return str(c.get("colors", "")) if c is not None else ""

    def fighter(self, o: Obj) -> Fighter:
        p, t = self.pt(o)
        return Fighter(p, t - vk.damage(o), frozenset(self.keywords(o)), self.colors(vk.name(o)),
                       self.is_(vk.name(o), "Artifact"))

    def value(self, o: Obj) -> int:
        if vk.name(o) not in self.cards:
            return 0
        p, t = self.pt(o)
        return self.mana_value(vk.name(o)) * 2 + p + t


# How an equip ability reads in a priority action's label (CR 702.6a).
EQUIP = "Attach to target creature you control"


def _opposing_creatures(book: _Book, view: View, objs: Objects, me: int) -> bool:
    team = _team(view, me)
    return any(vk.zone(o) == "b" and vk.controller(o) not in team
               and book.is_(vk.name(o), "Creature") for o in objs.values())


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
            # Counterspells only at an opponent's spell, removal only where an opponent has
            # something to remove, a sweeper only when it costs them more than it costs us.
            casts = [a for a in casts if _worth_casting(book, view, me, objs, a)]
        if casts:
            best = max(casts, key=cost)
            if cost(best) >= 0:
                return int(best["id"])
        for a in by_kind.get("activate", []):
            label = str(a["label"])
            if "+4" in label or "deploy" in label or "\u22123" in label:
                return int(a["id"])
            if "Regenerate" in label and _in_danger(book, objs, a):
                return int(a["id"])
            if _worth_activating(book, view, me, objs, label):
                return int(a["id"])
        loyal = _choose_loyalty(book, view, me, objs, by_kind.get("activate", []))
        if loyal is not None:
            return loyal
        for a in by_kind.get("activate", []):
            label = str(a["label"])
            # Spare mana into tokens ("{1}{G}: Create ..."), never a permanent sacrificed for
            # one; a tapping ability that deals damage to a creature (Master of the Wild Hunt).
            # Those that may hit any target wait for _worth_activating's moment.
            if "Create" in label and "Sacrifice" not in label and "{" in label:
                return int(a["id"])
            if ("{T}" in label and "damage" in label and "Sacrifice" not in label
                    and "any target" not in label and "to you" not in label):
                return int(a["id"])
            gear = objs.get(a.get("obj", -1))
            if EQUIP in label and gear is not None and vk.attached_to(gear) is None:
                return int(a["id"])  # equip what is not yet equipped; the target: the best
        return int(by_kind["pass"][0]["id"])

    if kind == "attackers":
        return _choose_attack(book, view, objs, by_kind)

    if kind == "blockers":
        return _choose_block(book, view, me, objs, by_kind)

    if kind == "target":
        if actions and actions[0]["kind"] == "done":  # "any number of targets" after the
            return int(actions[0]["id"])  # first (done comes first): all of X to the first one
        return _choose_target(book, view, me, objs, actions)

    if kind == "enchant":  # an Aura entering uncast: chosen as its target would be
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

    if kind == "name_card" and actions and actions[0].get("obj") is not None:
        return int(actions[0]["id"])  # a permanent naming a card lists what it would stop first

    if kind in _CARD_PICKS:
        return _pick_card(book, view, me, objs, kind, actions)

    if kind in ("assign_damage", "order_triggers"):
        # Damage: the first option is lethal damage, killing what can be killed. Triggers:
        # the first is the order they triggered in.
        return int(actions[0]["id"])

    if kind == "replacement_order":  # CR 616.1: keep the shields that get used up
        return int(min(actions, key=lambda a: bool(a.get("spends")))["id"])

    if kind == "choose_source":  # the opposing source that could hurt most
        def threat(a: Mapping[str, Any]) -> int:
            o = objs.get(a.get("obj", -1))
            if o is None or vk.controller(o) == me:
                return -1
            return book.pt(o)[0] + book.mana_value(vk.name(o))
        return int(max(actions, key=threat)["id"])

    if kind == "sacrifice":  # the weakest creature goes
        def worth(a: Mapping[str, Any]) -> int:
            o = objs.get(a.get("obj", -1))
            return book.value(o) if o else 0
        return int(min(actions, key=worth)["id"])

    if kind == "pay":  # mana that keeps our spell from ward: yes; life to deny a card: rarely
        mana = [a for a in by_kind.get("yes", []) if "{" in str(a["label"])]
        return int((mana or by_kind.get("no") or actions)[0]["id"])

    if kind == "sacrifice":  # the least valuable permanent goes
        def worth(a: Mapping[str, Any]) -> int:
            o = objs.get(a.get("obj", -1))
            return book.value(o) if o is not None else 0
        return int(min(actions, key=worth)["id"])

    if kind == "divide":
        return _choose_share(book, objs, actions)

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


def _loyalty_cost(label: str) -> int | None:
    """A loyalty ability's cost from its label ("Jace Beleren: +2: ...", "...: \u2212X: ..."):
    the change in loyalty, -1 standing for "-X"; None for any other ability."""
    parts = label.split(": ")
    if len(parts) < 3:
        return None
    cost = parts[1].replace("\u2212", "-")
    if cost == "-X":
        return -1
    return int(cost) if cost.lstrip("+-").isdigit() and cost[0] in "+-" else None


_REMOVAL = ("damage to target creature", "Destroy target", "Exile target")


def _choose_loyalty(book: _Book, view: View, me: int, objs: Objects,
                    activations: list[dict[str, Any]]) -> int | None:
    """One loyalty ability of a planeswalker (CR 606): its ultimate (the largest minus, 5 or
    more) when it can pay it, a minus that removes an opposing creature when there is one worth
    it and the planeswalker survives paying, otherwise a plus. The rest of the turn's loyalty
    abilities come at the next priority: each planeswalker once (CR 606.3)."""
    threats = [o for o in objs.values() if vk.zone(o) == "b" and vk.controller(o) != me
               and book.is_(vk.name(o), "Creature")]
    for a in activations:
        cost = _loyalty_cost(str(a["label"]))
        if cost is None or "Restart" in str(a["label"]):
            continue
        source = objs.get(a.get("obj", -1))
        left = vk.counters(source).get("loyalty", 0) if source is not None else 0
        if cost <= -5:
            return int(a["id"])
        if cost < 0 and threats and any(r in str(a["label"]) for r in _REMOVAL) and (
                left + cost > 0):
            return int(a["id"])
    pluses = [a for a in activations if (_loyalty_cost(str(a["label"])) or 0) > 0]
    return int(pluses[0]["id"]) if pluses else None


def _in_danger(book: _Book, objs: Objects, a: Mapping[str, Any]) -> bool:
    """Is the creature whose ability ``a`` is lethally damaged, or in combat with a creature
    whose power could kill it? A regeneration shield is then worth its mana (each activation
    spends mana, so the bot never activates it forever)."""
    oid = a.get("obj", -1)
    o = objs.get(oid)
    if o is None:
        return False
    toughness = book.pt(o)[1]
    if vk.damage(o) >= toughness:
        return True
    foes = [f for fid, f in objs.items() if vk.blocking(f) == oid or vk.blocking(o) == fid]
    return any(book.pt(f)[0] >= toughness - vk.damage(o) for f in foes)


def _choose_attack(book: _Book, view: View, objs: Objects,
                   by_kind: dict[str, list[dict[str, Any]]]) -> int:
    """Attack when no blocker wins the exchange; a planeswalker when the attacker alone can
    take its last loyalty (CR 306.8), else the player."""
    order = sorted(by_kind.get("attack", []),
                   key=lambda a: not _finishes_planeswalker(book, objs, a))
    for a in order:
        attacker = objs.get(a["obj"])
        if attacker is None:
            continue
        ref = a.get("ref")
        target = objs.get(int(ref[1])) if ref and ref[0] == "o" else None
        if target is not None and not _finishes_planeswalker(book, objs, a):
            continue  # a planeswalker only when this attack can finish it
        defender = int(ref[1]) if ref and ref[0] == "p" else (
            vk.controller(target) if target is not None else None)
        # With shared team turns the defender's whole team may block (CR 805.10d).
        defenders = _team(view, defender, "turns") if defender is not None else set()
        # Safe when no creature that can block it (by flying, reach, intimidate, protection)
        # kills it without dying too, first strike, deathtouch and the rest counted.
        me = book.fighter(attacker)
        blockers = [book.fighter(o) for o in objs.values()
                    if vk.zone(o) == "b" and not vk.tapped(o) and vk.controller(o) in defenders
                    and book.is_(vk.name(o), "Creature")]
        outcomes = [fight(me, b) for b in blockers if can_block(me, b)]
        safe = all(blocker_dies or not dies for dies, blocker_dies in outcomes)
        if me.power > 0 and safe:
            return int(a["id"])
    return _finish(by_kind, "attack")


def _choose_block(book: _Book, view: View, me: int, objs: Objects,
                  by_kind: dict[str, list[dict[str, Any]]]) -> int:
    """The next block of a plan: each attacker, the strongest first, gets the blocker that
    fares best against it (first strike, deathtouch and the rest counted), if one kills it and
    survives, survives it, trades up, or must chump because the unblocked attackers would
    take our last life; one blocker an attacker, so no gang blocks. The engine keeps the
    blocks being declared out of the views (CR 509.1), and the bot has no memory: it makes
    the whole plan again at each answer, a creature of its own no longer offered counting as
    one the plan already placed, and adds the plan's first block still offered."""
    team = _team(view, me, "life")  # in Two-Headed Giant an attack on a teammate costs us too
    offered = {(int(a["obj"]), int(a["ref"][1])): int(a["id"]) for a in by_kind.get("block", [])}
    offered_blockers = {b for b, _ in offered}
    hindered = {vk.attached_to(o) for o in objs.values() if book.harmful(vk.name(o))}
    attackers = sorted(((oid, o) for oid, o in objs.items() if vk.attacking(o) is not None
                        and vk.controller(o) not in team),
                       key=lambda e: (-book.pt(e[1])[0], e[0]))
    mine = [(oid, o) for oid, o in sorted(objs.items()) if oid in offered_blockers or (
        vk.zone(o) == "b" and vk.controller(o) == me and not vk.tapped(o)
        and oid not in hindered and book.is_(vk.name(o), "Creature"))]

    def possible(boid: int, blocker: Obj, aoid: int, attacker: Obj) -> bool:
        if boid in offered_blockers:
            return (boid, aoid) in offered
        return can_block(book.fighter(attacker), book.fighter(blocker))  # placed already

    unblocked = sum(book.pt(o)[0] for _, o in attackers if (aim := vk.attacking(o)) is not None
                    and aim[0] == "p" and aim[1] in team)
    life = vk.life(view, me)
    used: set[int] = set()
    plan: list[tuple[int, int]] = []
    for aoid, attacker in attackers:
        at = book.fighter(attacker)
        aim = vk.attacking(attacker)
        at_us = aim is not None and aim[0] == "p" and aim[1] in team
        danger = at_us and unblocked >= life
        best: tuple[tuple[int, int], int] | None = None
        for boid, blocker in mine:
            if boid in used or not possible(boid, blocker, aoid, attacker):
                continue
            bl = book.fighter(blocker)
            kills, dies = fight(at, bl)  # the attacker dies, the blocker dies
            survives = not dies
            worth_it = survives or (kills and book.value(attacker) >= book.value(blocker)) \
                or danger
            # The best outcome; among equals (a chump block), the least valuable blocker.
            score = (2 * kills + 2 * survives, -book.value(blocker))
            if worth_it and (best is None or score > best[0]):
                best = (score, boid)
        if best is not None:
            used.add(best[1])
            plan.append((best[1], aoid))
            if at_us:  # a trampler still deals what the blocker can't soak up (CR 702.19c)
                soaked = book.fighter(objs[best[1]]).toughness
                unblocked -= min(at.power, soaked) if "trample" in at.keywords else at.power
    for pair in plan:
        if pair in offered:
            return offered[pair]
    return _finish(by_kind, "block")


def _finish(by_kind: dict[str, list[dict[str, Any]]], kind: str) -> int:
    """Finish the declaration; when requirements leave it unfinished ("done" is offered only
    for a legal declaration, CR 508.1d, 509.1c), the first attack or block offered, each of
    which leads to one."""
    return int((by_kind.get("done") or by_kind[kind])[0]["id"])


def _worth_activating(book: _Book, view: View, me: int, objs: Objects, label: str) -> bool:
    """Abilities worth using now: removal while its victim is there, a tapper on a blocker
    as its own combat begins, a pinger or a drain at the end of an opponent's turn (blockers
    stay untapped), a card back from the graveyard. Pumps and sacrifices it leaves alone."""
    step, active = vk.step(view), vk.active_player(view)
    theirs = [o for o in objs.values() if vk.zone(o) == "b" and vk.controller(o) != me
              and book.is_(vk.name(o), "Creature")]
    if "Destroy target tapped creature" in label:
        return any(vk.tapped(o) for o in theirs)
    if "Tap target creature" in label:
        return active == me and step == "begin_combat" and any(not vk.tapped(o) for o in theirs)
    if "from your graveyard to your hand" in label:
        return active == me and step in ("main1", "main2")
    if "damage to any target" in label or "loses 1 life" in label:
        if "damage to you" in label and vk.life(view, me) <= 8:
            return False
        return active != me and step == "end"
    return False


def _choose_share(book: _Book, objs: Objects, actions: list[dict[str, Any]]) -> int:
    """Divided damage: just enough to kill a creature when it can, else all it may."""
    ref = actions[0].get("ref") or ["p", 0]
    o = objs.get(int(ref[1])) if ref[0] == "o" else None
    if o is not None:
        lethal = book.pt(o)[1] - vk.damage(o)
        enough = [a for a in actions if int(a["n"]) >= lethal]
        if enough:
            return int(min(enough, key=lambda a: int(a["n"]))["id"])
    return int(max(actions, key=lambda a: int(a["n"]))["id"])


# Cards aimed at what an opponent has: a line of their text begins so (a loyalty or activated
# ability's "Target player ..." after its cost), or deals damage to a target.
_HARMFUL_TEXT = re.compile(
    r"^(Destroy target|Exile target|Counter target|Return target creature to its owner"
    r"|Put target creature on top|([^.\n]*: )?Target player (discards|mills|exiles|loses)"
    r"|Gain control of target|Search target opponent's|You control enchanted"
    r"|Exile all cards from target player's|[^.]* target [^.]*you don't control"
    r"|[^.]* deals [^.]*damage (to (any|target)|divided))", re.M)
# An ability that does one of these to its target is aimed at an opponent or their things.
_HARM_WORDS = ("damage", "discards", "mills", "Exile", "Destroy", "Tap", "loses")
# What the bot knows by name when it is given no catalog (so no card texts): the harmful cards
# it is most often handed.
_HARMFUL = ("Lightning Bolt", "Lava Axe", "Traumatize", "Glimpse the Unthinkable", "Act of Treason",
            "Mind Control", "Bribery", "Karn Liberated", "Door to Nothingness", "Fireball",
            "Consume Spirit", "Capricious Efreet", "Tome Scour", "Haunting Echoes")


def _harmful(book: _Book, name: str, ability_text: str | None = None) -> bool:
    """The one answer to "is this aimed at an opponent or their things?": for an ability on
    the stack, what its text does to its target; for a card, its text or, for an Aura, the
    catalog's "harmful" (it hurts what it enchants); without a catalog, its name."""
    if ability_text is not None and ability_text != "ability":
        return any(w in ability_text for w in _HARM_WORDS)
    if book.card(name) is None:
        return name in _HARMFUL
    return book.harmful(name) or bool(_HARMFUL_TEXT.search(book.text(name)))


_COUNTER = re.compile(r"Counter target (.*?) ?spell\.")
# "Destroy all nonland permanents", "Destroy all enchantments", "deals 2 damage to each
# creature": what a sweeper hits.
_SWEEP = re.compile(r"Destroy all (nonland permanents|enchantments|artifacts|creatures)"
                    r"|[^.]* deals (\d+) damage to each creature\.")
_COLOR_WORDS = {"white": "W", "blue": "U", "black": "B", "red": "R", "green": "G"}


def _counters(book: _Book, counterspell: str, spell: str) -> bool:
    """May ``counterspell`` ("Counter target [creature / noncreature / red or green]
    spell.") target ``spell``?"""
    m = _COUNTER.match(book.text(counterspell))
    words = m.group(1) if m else ""
    if words == "creature":
        return book.is_(spell, "Creature")
    if words == "noncreature":
        return not book.is_(spell, "Creature")
    colors = {c for w, c in _COLOR_WORDS.items() if w in words}
    return not colors or bool(colors & set(book.colors(spell)))


def _worth_casting(book: _Book, view: View, me: int, objs: Objects,
                   action: Mapping[str, Any]) -> bool:
    o = objs.get(action.get("obj", -1))
    if o is None:
        return True
    name = vk.name(o)
    text = book.text(name)
    team = _team(view, me)
    theirs = [x for x in objs.values() if vk.controller(x) not in team]
    if _COUNTER.match(text):  # never at our own spells
        return any(vk.zone(x) == "s" and "ab" not in x and _counters(book, name, vk.name(x))
                   for x in theirs)
    sweep = _SWEEP.match(text)
    if sweep:
        def hit(x: Obj) -> bool:
            if vk.zone(x) != "b":
                return False
            kind, damage = sweep.group(1), sweep.group(2)
            if damage is not None:
                return (book.is_(vk.name(x), "Creature")
                        and book.pt(x)[1] - vk.damage(x) <= int(damage))
            if kind == "nonland permanents":
                return not book.is_(vk.name(x), "Land")
            return book.is_(vk.name(x), kind[:-1].capitalize())

        lost = sum(book.value(x) for x in objs.values() if hit(x) and vk.controller(x) in team)
        return sum(book.value(x) for x in theirs if hit(x)) > lost
    trick = _TRICK.match(text)
    if trick:
        return _trick_time(book, view, me, objs, trick.group(1), book.is_(name, "Instant"))
    if _needs_own_creature(book, name, text):
        return any(vk.zone(x) == "b" and vk.controller(x) == me
                   and book.is_(vk.name(x), "Creature") for x in objs.values())
    if "{X}" in str((book.card(name) or {}).get("cost", "")) and \
            _mana_sources(book, objs, me) <= book.mana_value(name):
        return False  # X would be 0: all cost, no effect (CR 107.3)
    if _harmful(book, name):
        wants = "Creature" if "creature" in text else None
        return any(vk.zone(x) == "b" and not book.is_(vk.name(x), "Land")
                   and (wants is None or book.is_(vk.name(x), wants))
                   and _fits(book, text, x) for x in theirs) \
            or "player" in text or "any target" in text
    return True


def _fits(book: _Book, text: str, x: Obj) -> bool:
    """Does ``x`` meet the words before "creature" in "target tapped creature", "target
    nonblack creature" (Assassinate, Doom Blade)? Else the only legal target may be our own."""
    if "target tapped creature" in text and not vk.tapped(x):
        return False
    return not ("target nonblack creature" in text and "B" in book.colors(vk.name(x)))


def _mana_sources(book: _Book, objs: Objects, me: int) -> int:
    """About how much mana we can make now: untapped lands and "{T}: Add" permanents."""
    return sum(1 for o in objs.values() if vk.zone(o) == "b" and vk.controller(o) == me
               and not vk.tapped(o) and (book.is_(vk.name(o), "Land")
                                         or "{T}: Add" in book.text(vk.name(o))))


# Spells that help creatures until end of turn (a pump, a keyword): combat tricks.
_TRICK = re.compile(r"(Target (?:blocking |attacking )?creature|Creatures you control"
                    r"|Attacking creatures) (?:gets?|gains?) [+a-z][^.]*until end of turn\.")


def _trick_time(book: _Book, view: View, me: int, objs: Objects, aim: str,
                instant: bool) -> bool:
    """An instant trick after blockers are declared, while a creature of ours that it can
    help is in combat (attacking, or blocking for "Target blocking creature"); a sorcery one
    (Overrun) in our first main phase with a creature that can attack. Never at another time,
    where it is wasted, or lands on an opponent's creature for want of one of ours."""
    ours = [o for o in objs.values() if vk.zone(o) == "b" and vk.controller(o) == me
            and book.is_(vk.name(o), "Creature")]
    if not instant:
        return vk.active_player(view) == me and vk.step(view) == "main1" and any(
            not vk.tapped(o) and not book.has(o, "defender") for o in ours)
    if vk.step(view) != "declare_blockers":
        return False
    if "blocking" in aim:
        return any(vk.blocking(o) is not None for o in ours)
    if "Attacking" in aim:
        return any(vk.attacking(o) is not None for o in ours)
    return any(vk.attacking(o) is not None or vk.blocking(o) is not None for o in ours)


def _needs_own_creature(book: _Book, name: str, text: str) -> bool:
    """A spell that helps the creature it targets or enchants (an Aura that is not harmful,
    "target creature" in a friendly spell): cast only while we have a creature for it."""
    if _harmful(book, name):
        return False
    return text.startswith("Enchant creature") or text.startswith("Target creature")




def _finishes_planeswalker(book: _Book, objs: Objects, a: Mapping[str, Any]) -> bool:
    ref, attacker = a.get("ref"), objs.get(a.get("obj", -1))
    target = objs.get(int(ref[1])) if ref and ref[0] == "o" else None
    if target is None or attacker is None:
        return False
    return book.pt(attacker)[0] >= vk.counters(target).get("loyalty", 0)


def _choose_x(book: _Book, view: View, me: int, objs: Objects,
              actions: list[dict[str, Any]]) -> int:
    """The largest X it can pay (the choices are exactly the payable values, CR 107.3a),
    except that a spell hitting each player is kept below its own life total, and a "[-X]"
    loyalty cost is just enough for the biggest opposing creature it can kill while the
    planeswalker survives."""
    source = objs.get(actions[0].get("obj", -1)) if actions else None
    card = book.card(vk.name(source)) if source else None
    most = max(int(a["n"]) for a in actions)
    if source is not None and vk.ability_text(source) is not None:
        need = [book.pt(o)[1] - vk.damage(o) for o in objs.values() if vk.zone(o) == "b"
                and vk.controller(o) != me and book.is_(vk.name(o), "Creature")]
        fits = [n for n in need if 0 < n < most] or [most]
        most = max(fits)
    if card is not None and "each player" in str(card.get("text", "")):
        most = min(most, max(vk.life(view, me) - 1, 0))
    return int(max((a for a in actions if int(a["n"]) <= most), key=lambda a: int(a["n"]))["id"])


def _choose_target(book: _Book, view: View, me: int, objs: Objects,
                   actions: list[dict[str, Any]]) -> int:
    source = objs.get(actions[0].get("obj", -1)) if actions else None
    source_name = vk.name(source) if source else ""
    text = vk.ability_text(source) if source is not None else None
    is_ability = text is not None and text != "ability"
    friendly = (is_ability or source_name != "") and not _harmful(book, source_name, text)
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
            base = float(book.value(o))  # a spell on the stack: what it would bring
            if vk.zone(o) == "g":  # a card to bring back: the best, whoever owns it
                return base
            if source_name == "Lightning Bolt":
                base += 10 if book.pt(o)[1] - vk.damage(o) <= 3 else -10
            if friendly and mine:  # help where it counts: in combat, not on a wall
                if vk.attacking(o) is not None or vk.blocking(o) is not None:
                    base += 20
                if book.has(o, "defender"):
                    base -= 10
        return base if mine == friendly else -base - 50

    return int(max(actions, key=score)["id"])


STRATEGIES: dict[str, Strategy] = {"random": random_strategy, "heuristic": heuristic_strategy}
