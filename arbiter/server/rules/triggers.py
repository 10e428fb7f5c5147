"""Triggered abilities (CR 603): noticing trigger events and putting the abilities on the stack.

A trigger is noticed the moment its event happens (:func:`check_triggers`) and waits in
``game.pending_triggers`` until the next time a player would receive priority, when
:func:`put_triggers_on_stack` puts them on the stack in APNAP order, each player ordering their
own (CR 603.3b), or with shared team turns each team ordering all of its members' (CR 805.7).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from .attachments import announce_targets
from .cards.vocab import (
    PLANE,
    AtDrawStep,
    AtEndStep,
    AtUpkeep,
    BecomesTapped,
    BecomesTarget,
    BecomesUntapped,
    CardLeavesYourZone,
    ChaosEnsues,
    CounterRemovedFromSelf,
    CreatureEnters,
    CreatureLeavesBattlefield,
    CreatureYouControlDies,
    DealsCombatDamage,
    LandEnters,
    LastCounterRemoved,
    PlaneswalkAway,
    PlaneswalkTo,
    PlayerLoses,
    SelfEnters,
    SetInMotion,
    Triggered,
)
from .casting import choose_targets
from .planechase import exempt
from .state import (
    BATTLEFIELD,
    COMMAND,
    GRAVEYARD,
    REFRESH,
    STACK,
    Action,
    Decision,
    Obj,
    last_known,
)
from .teams import choice_groups
from .trigger_events import CORE_EVENTS
from .trigger_events import event_players as core_event_players
from .trigger_events import matches as core_matches

if TYPE_CHECKING:
    from .game import Flow, Game


def _matches(game: Game, src: Obj, trig: Triggered, kind: str, data: dict[str, Any]) -> bool:
    ev = trig.event
    o = data.get("obj")
    obj = o if isinstance(o, Obj) else None
    if isinstance(ev, AtUpkeep):
        # An upkeep belongs to each player whose turn it is (CR 805.4: the whole active team).
        if ev.whose == "enchanted":  # the upkeep of the enchanted creature's controller
            host = game.objects.get(src.attached_to) if src.attached_to is not None else None
            return kind == "upkeep" and host is not None and host.controller in data["players"]
        return kind == "upkeep" and (ev.whose == "each" or src.controller in data["players"])
    if isinstance(ev, BecomesTarget):
        if kind != "becomes_target" or obj is None:
            return False
        return obj is src if ev.what == "self" else obj.oid == src.attached_to
    if isinstance(ev, SelfEnters):
        return kind == "enters" and obj is src
    if isinstance(ev, CreatureEnters):
        return (kind == "enters" and obj is not None and obj.defn.is_("Creature")
                and not (ev.nontoken and obj.is_token) and not (ev.other and obj is src))
    if isinstance(ev, CORE_EVENTS):
        return core_matches(game, src, ev, kind, data, obj)
    if isinstance(ev, DealsCombatDamage):
        return (kind == "combat_damage" and (ev.any_creature or data["source"] is src)
                and (data["target"][0] == "p") == (ev.to == "player"))
    if isinstance(ev, PlayerLoses):
        return kind == "player_lost"
    if isinstance(ev, CounterRemovedFromSelf):
        return kind == "counters_removed" and obj is src and data["kind"] == ev.kind
    if isinstance(ev, LastCounterRemoved):
        return (kind == "counters_removed" and obj is src and data["kind"] == ev.kind
                and data["left"] == 0)
    if isinstance(ev, BecomesTapped | BecomesUntapped):
        wanted = "tapped" if isinstance(ev, BecomesTapped) else "untapped"
        if kind != wanted or obj is None:
            return False
        return obj is src if not ev.name else obj.name == ev.name
    if isinstance(ev, CreatureLeavesBattlefield):
        return (kind == "zone_change" and data["from_zone"] == BATTLEFIELD and obj is not None
                and obj is not src and obj.defn.is_("Creature"))
    if isinstance(ev, CardLeavesYourZone):
        return (kind == "zone_change" and obj is not None and data["from_zone"] == ev.zone
                and obj.card is not None and obj.zone_owner == src.controller
                and (not ev.filter.types or bool(obj.defn.types & ev.filter.types)))
    return _matches_more(src, ev, kind, data, obj)


def _matches_more(src: Obj, ev: object, kind: str, data: dict[str, Any], obj: Obj | None
                  ) -> bool:
    """The trigger events of the variants' cards (steps, spells, planes, schemes)."""
    if isinstance(ev, AtDrawStep | AtEndStep):
        # Like an upkeep, a step belongs to each player whose turn it is (CR 805.4).
        wanted = "draw_step" if isinstance(ev, AtDrawStep) else "end_step"
        return kind == wanted and (ev.whose == "each" or src.controller in data["players"])
    if isinstance(ev, LandEnters):
        return kind == "enters" and obj is not None and obj.defn.is_("Land")
    if isinstance(ev, CreatureYouControlDies):
        return (kind == "zone_change" and obj is not None and data["from_zone"] == BATTLEFIELD
                and data["to_zone"] == GRAVEYARD and obj.defn.is_("Creature")
                and obj.controller == src.controller)
    if isinstance(ev, ChaosEnsues):
        return kind == "chaos" and src.defn.is_(PLANE)  # CR 311.7
    if isinstance(ev, PlaneswalkTo):
        return kind == "planeswalked_to" and obj is src
    if isinstance(ev, PlaneswalkAway):
        return kind == "planeswalked_away" and obj is src
    if isinstance(ev, SetInMotion):
        return kind == "set_in_motion" and obj is src
    return False


def _event_players(game: Game, kind: str, data: dict[str, Any]) -> list[int]:
    """Players whose objects (or selves) the event involves (CR 801.7, 801.7a)."""
    if kind in ("upkeep", "player_lost", "draw_step", "end_step", "cast"):
        return [data["player"]]
    core = core_event_players(kind, data)
    if core is not None:
        return core
    if kind in ("combat_damage", "damage"):
        tgt = data["target"]
        victim = data.get("obj")
        other = tgt[1] if tgt[0] == "p" else (victim.controller if victim else tgt[1])
        return [data["source"].controller, other]
    o = data.get("obj")
    if isinstance(o, Obj):
        new = data.get("new")
        # CR 801.7a: a zone change is judged by the game state on the side of the event in
        # which the object is on the battlefield.
        if kind == "zone_change" and new is not None and new.zone == BATTLEFIELD:
            return [new.controller]
        return [o.controller]
    return []


def check_triggers(game: Game, kind: str, data: dict[str, Any]) -> None:
    if game.continuous:
        _delayed_triggers(game, kind, data)
    involved: list[int] | None = None
    for src in list(game.triggered_watchers):
        if src.phased_out or (src.zone != BATTLEFIELD
                              and not (src.zone == COMMAND and src.defn.supplementary)):
            continue
        for idx, ab in enumerate(src.defn.abilities):
            if not isinstance(ab, Triggered) or not _matches(game, src, ab, kind, data):
                continue
            if game.ranges is not None and not exempt(src.defn):  # CR 901.13
                if involved is None:
                    involved = _event_players(game, kind, data)
                if not all(game.in_range(src.controller, p) for p in involved):
                    continue  # CR 801.7
            if ab.condition is not None:
                from .resolve import condition_holds

                if not condition_holds(game, src, ab.condition, src.controller, {}):
                    continue  # CR 603.4 intervening "if"
            # "Whenever a counter is removed" triggers once for each counter removed.
            times = data["amount"] if isinstance(ab.event, CounterRemovedFromSelf) else 1
            for event in _occurrences(ab, data):
                for _ in range(times):
                    trig = Obj(oid=0, defn=src.defn, owner=src.controller,
                               controller=src.controller, zone=STACK, zone_owner=None,
                               ability=ab, ability_index=idx, source=last_known(src),
                               event=dict(event))
                    game.pending_triggers.append(trig)


def _occurrences(ab: Triggered, data: dict[str, Any]) -> list[dict[str, Any]]:
    """Each time the ability triggers for one event: once, except that "at the beginning of
    each player's draw step ... that player" triggers once for each player whose step it is
    when a team shares the turn (CR 805.4d)."""
    ev = ab.event
    if isinstance(ev, AtDrawStep) and ev.per_player and len(data.get("players", ())) > 1:
        return [{**data, "player": p} for p in data["players"]]
    return [dict(data)]


def _delayed_triggers(game: Game, kind: str, data: dict[str, Any]) -> None:
    """CR 603.7: a delayed triggered ability (made by trigger_effects.py) triggers the next
    time its event happens, and only once (603.7b); it refers to the object it was made
    about only while that object is still the same object in the same zone (603.7c,
    400.7)."""
    for eff in [e for e in game.effects if e.kind == "delayed"]:
        src, ab = eff.source, eff.trigger
        if src is None or ab is None or not _matches(game, src, ab, kind, data):
            continue
        game.effects.remove(eff)
        about = game.objects.get(eff.affected) if eff.affected is not None else None
        game.pending_triggers.append(Obj(
            oid=0, defn=src.defn, owner=eff.controller, controller=eff.controller, zone=STACK,
            zone_owner=None, ability=ab, ability_index=-1, source=src,
            event={**data, "obj": about}))


def _bound(ab: Triggered, event: dict[str, Any]) -> Triggered:
    """The ability with "that player" of its targets' filters bound to the player the event
    names ("target permanent that player controls")."""
    if not any(t.where is not None and t.where.controller == "event_player"
               for t in ab.targets):
        return ab
    target = event.get("target")
    player = event.get("player", target[1] if target and target[0] == "p" else None)
    specs = tuple(replace(t, where=replace(t.where, player=player))
                  if t.where is not None and t.where.controller == "event_player" else t
                  for t in ab.targets)
    return replace(ab, targets=specs)


def put_triggers_on_stack(game: Game) -> Flow:
    """CR 603.3b: the active player puts their waiting triggers on the stack in the order they
    choose, then each other player in turn order; targets are chosen then (CR 603.3d). With
    shared team turns, the active team puts all its members' triggers on the stack in the order
    it chooses, then each other team in turn order (CR 805.7); the team's first member in
    acting order still in the game chooses the order (CR 805.2) and each trigger's controller
    its targets."""
    waiting, game.pending_triggers = game.pending_triggers, []
    for group in choice_groups(game, [t.controller for t in waiting]):
        mine = [t for t in waiting if t.controller in group]
        while True:
            # CR 800.4d: a departed player's triggers never reach the stack.
            mine = [t for t in mine if game.in_game(t.controller)]
            orderer = next((p for p in group if game.in_game(p)), None)
            if not mine or orderer is None:
                break
            trig = yield from _next_trigger(game, orderer, mine)
            if trig is None or not game.in_game(trig.controller):
                continue
            mine.remove(trig)
            assert isinstance(trig.ability, Triggered)
            pid = trig.controller
            obj = game.new_object(trig.defn, pid, pid, STACK)
            obj.ability = _bound(trig.ability, trig.event)
            obj.ability_index = trig.ability_index
            obj.source, obj.event = trig.source, trig.event
            if obj.ability.targets:
                ok = yield from choose_targets(game, obj, obj.ability.targets)
                if not ok:
                    game.remove_object(obj)  # CR 603.3d: no legal targets, removed
                    continue
                announce_targets(game, obj)
            src_name = trig.source.name if trig.source else trig.defn.name
            game.say(f"{src_name}'s ability triggers.", "trigger", obj=obj.oid)
    # Triggers of players who are no longer in the game are dropped (CR 800.4d).


# What each kind of trigger event is called in an ordering choice.
_EVENT_WORDS = {
    "AtUpkeep": "at the beginning of upkeep", "SelfEnters": "when it enters",
    "CreatureEnters": "when a creature enters", "DealsCombatDamage": "on combat damage",
    "PlayerLoses": "when a player loses", "LastCounterRemoved": "when the last counter goes",
    "BecomesTapped": "when it becomes tapped", "BecomesUntapped": "when a permanent untaps",
    "CardLeavesYourZone": "when a card leaves your zone",
    "CreatureLeavesBattlefield": "when a creature leaves the battlefield",
    "AtDrawStep": "at the beginning of the draw step",
    "AtEndStep": "at the beginning of the end step",
    "LandEnters": "when a land enters", "PlayerCastsSpell": "when a player casts a spell",
    "CreatureYouControlDies": "when a creature you control dies",
    "ChaosEnsues": "when chaos ensues", "PlaneswalkTo": "when you planeswalk to it",
    "PlaneswalkAway": "when you planeswalk away from it",
    "SetInMotion": "when you set it in motion", "PlanarDieRolled": "planeswalk",
    "PlayerDoes": "when a player acts", "DealsDamage": "when it deals damage",
    "Attacks": "when it attacks", "Blocks": "when it blocks or is blocked",
    "BecomesTarget": "when it becomes a target",
}


def _describe(game: Game, trig: Obj, pid: int) -> str:
    ab = trig.ability
    assert isinstance(ab, Triggered)
    name = trig.source.name if trig.source else trig.defn.name
    what = ab.text or _EVENT_WORDS.get(type(ab.event).__name__, "triggered ability")
    whose = f" ({game.name(trig.controller)}'s)" if trig.controller != pid else ""
    return f"{name}{whose}: {what}"


def _next_trigger(game: Game, pid: int, mine: list[Obj]) -> Flow:
    """Which of the waiting triggers ``pid`` orders goes on the stack next (CR 603.3b: the
    player chooses; the last one put there resolves first; CR 805.7: for a team, its
    members' together). Triggers of one ability of one source are interchangeable, so the
    player is asked only when the waiting ones differ. None if the player left the game
    meanwhile (CR 800.4d)."""
    prompt = ("Order your triggered abilities: which goes on the stack next? "
              "(The last one put there resolves first.)")
    while game.in_game(pid):
        kinds: dict[tuple[int, int], Obj] = {}
        for t in mine:
            if game.in_game(t.controller):  # a teammate may have left (CR 800.4d)
                key = (t.source.oid if t.source else -1, t.ability_index)
                kinds.setdefault(key, t)
        options = list(kinds.values())
        if len(options) <= 1:
            return options[0] if options else None
        actions = [Action(i, "trigger", _describe(game, t, pid),
                          obj=t.source.oid if t.source else None)
                   for i, t in enumerate(options)]
        answer = yield Decision("order_triggers", pid, prompt, actions)
        if answer is REFRESH:
            continue
        return options[answer.id]
    return None
