"""Resolving spells and abilities (CR 608) and what each effect in the vocabulary does.

Each effect type has one handler. A handler may be a plain function or a generator that yields
decisions (a search, a choice by another player) and, for Shahrazad and Karn Liberated, the
table-level requests that start a subgame or restart the game.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from . import ending, planechase
from .activations import this_turn
from .attachments import ATTACH_HANDLERS, choose_land_type
from .card_moves import CARD_MOVE_HANDLERS
from .cards.pool import TOKEN_DEFS
from .cards.vocab import (
    BLOCK_PARTNER,
    CHOSEN,
    CHOSEN_PLAYER,
    EACH_CREATURE,
    EACH_CREATURE_OF_TARGET,
    EACH_CREATURE_WITH_FLYING,
    EACH_CREATURE_WITHOUT_FLYING,
    EACH_CREATURE_YOU_CONTROL,
    EACH_OPPONENT,
    EACH_OTHER_PLAYER,
    EACH_PLAYER,
    EACH_PLAYER_BUT_EVENT_PLAYER,
    EACH_TARGET,
    ENCHANTED,
    ENCHANTED_CONTROLLER,
    EVENT_OBJECT,
    EVENT_OBJECT_CONTROLLER,
    EVENT_PLAYER,
    EVENT_SOURCE_CONTROLLER,
    FLYING,
    INDESTRUCTIBLE,
    OTHER_OPPONENTS,
    SELF,
    TARGET_CONTROLLER,
    UNTIL_YOUR_NEXT_TURN,
    YOU,
    ActivatedThisTurnAtLeast,
    AllOf,
    CardsInHandOfRecipient,
    CardsToGraveyardThisTurnAtLeast,
    CastAnotherNamedThisGame,
    CastFromHand,
    ChooseOpponent,
    Condition,
    CopySpell,
    CreateToken,
    Damage,
    DamageTakenThisTurnAtLeast,
    Destroy,
    DividedAsYouChoose,
    Draw,
    DrawGame,
    EmptyLibraryDrawWins,
    EventAmount,
    Exile,
    ExileFromHand,
    ExtraTurn,
    GainControl,
    GainLife,
    GiveControl,
    GrantKeyword,
    HalfLibrary,
    HalfLife,
    HighestLifeWins,
    If,
    LifeAtLeast,
    LifeTotalOf,
    LoseGame,
    LoseHalfLife,
    LoseLife,
    MayPay,
    Mill,
    NoCardsInHand,
    NoCounters,
    NumberYouControl,
    OpponentChoosesCreatureToSacrifice,
    OpponentChoosesMode,
    Paid,
    PlaySubgame,
    PowerAtMost,
    PreventAllCombatDamage,
    PreventDamage,
    PutCounters,
    PutSelfIntoLibrary,
    RedirectDamage,
    Ref,
    Remembered,
    RemoveCounters,
    RestartGame,
    ReturnToHand,
    SetLife,
    Simultaneously,
    SourceUntapped,
    Tap,
    Target,
    TargetSpec,
    Untap,
    WinGame,
    WishFromOutside,
    XDividedEvenly,
    XValue,
)
from .casting import (
    describe_ref,
    spell_target_specs,
    target_still_legal,
    targeting_source,
    unlimited_source,
)
from .characteristics import has_keyword, power
from .copies import copy_spell
from .countering import COUNTER_HANDLERS
from .damage import damage_flow
from .delayed import DELAYED_HANDLERS
from .divide import target_specs
from .division import share
from .filters import matches
from .free_play import FREE_PLAY_HANDLERS
from .keywords import destroy
from .layer_effects import LAYER_HANDLERS, copy_choice
from .libraries import LIBRARY_HANDLERS
from .naming import name_choice
from .pack_strike import PACK_HANDLERS
from .replacement_effects import REPLACEMENT_HANDLERS
from .restriction_effects import RESTRICTION_HANDLERS
from .sacrifice import SACRIFICE_HANDLERS
from .state import (
    BATTLEFIELD,
    COMMAND,
    EXILE,
    GRAVEYARD,
    HAND,
    LIBRARY,
    REFRESH,
    STACK,
    Action,
    Continuous,
    Decision,
    Obj,
    RestartRequest,
    SubgameRequest,
)
from .trigger_effects import TRIGGER_HANDLERS
from .trigger_events import block_partner
from .variant_effects import VARIANT_HANDLERS

if TYPE_CHECKING:
    from .game import Flow, Game


@dataclass
class Ctx:
    """What a resolving spell or ability knows about itself."""

    game: Game
    obj: Obj  # the spell or ability on the stack
    controller: int
    source: Obj  # the spell itself, or the ability's source as last known
    targets: list[tuple[str, int] | None]  # None where a target became illegal
    event: dict[str, Any]
    memory: dict[str, Any] = field(default_factory=dict)
    # Each object target's controller as the resolution began: "its controller" after an
    # earlier effect moved it is read from this last known information (CR 608.2h).
    target_controllers: dict[int, int] = field(init=False)

    def __post_init__(self) -> None:
        objects = self.game.objects
        self.target_controllers = {t[1]: objects[t[1]].controller for t in self.targets
                                   if t is not None and t[0] == "o" and t[1] in objects}

    @property
    def unlimited(self) -> bool:
        """CR 901.13: a plane's or phenomenon's ability reaches everyone, whatever the range."""
        return planechase.exempt(self.source.defn)

    # For effect handlers in other modules (variant_effects.py), which this one imports.
    def players(self, ref: Ref) -> list[int]:
        return players_of(self, ref)

    def objects(self, ref: Ref) -> list[Obj]:
        return objects_of(self, ref)

    def refs(self, ref: Ref) -> list[tuple[str, int]]:
        return refs_of(self, ref)

    def choose(self, player: int, kind: str, prompt: str,
               build: Callable[[], list[Action]]) -> Flow:
        return choose(self.game, player, kind, prompt, build)

    def run(self, effects: tuple[Any, ...]) -> Flow:
        return run_effects(self, effects)

    def amount(self, amount: object) -> int:
        return amount_of(self, amount)

    def commander_replacement(self, obj: Obj, where: str) -> Flow:
        return commander_replacement(self.game, obj.owner, obj, where)


class Aborted(Exception):
    """The resolving object's controller left the game mid-resolution (see docs/rulings.md)."""


# --------------------------------------------------------------------------- references


def _current(game: Game, obj: Obj | None) -> Obj | None:
    """The object if it still exists as the same object (same id, CR 400.7)."""
    if obj is None:
        return None
    cur = game.objects.get(obj.oid)
    return cur if cur is not None and cur.zone == obj.zone else None


def players_of(ctx: Ctx, ref: Ref) -> list[int]:
    g = ctx.game
    if ref == YOU:
        out = [ctx.controller]
    elif ref.kind == "target":
        t = ctx.targets[ref.index] if ref.index < len(ctx.targets) else None
        out = [t[1]] if t is not None and t[0] == "p" else []
    elif ref == EACH_PLAYER:
        out = g.players_in_game()
    elif ref == EACH_OPPONENT:
        out = g.opponents(ctx.controller)
    elif ref == EVENT_PLAYER:
        ev = ctx.event
        if "player" in ev:
            out = [ev["player"]]
        elif "target" in ev and ev["target"][0] == "p":
            out = [ev["target"][1]]
        else:
            out = []
    elif ref == EVENT_OBJECT_CONTROLLER:
        o = ctx.event.get("obj")
        out = [o.controller] if isinstance(o, Obj) else []  # last known information (800.4i)
    elif ref == EVENT_SOURCE_CONTROLLER:
        o = ctx.event.get("source")
        out = [o.controller] if isinstance(o, Obj) else []
    elif ref.kind == "each_player_at_or_below":
        out = [p for p in g.players_in_game() if g.players[p].life <= ref.index]
    elif ref == CHOSEN_PLAYER:
        chosen = _chosen_player(ctx)
        out = [chosen] if chosen is not None else []
    elif ref == ENCHANTED_CONTROLLER:
        src = _current(g, ctx.source) or ctx.source
        host = g.objects.get(src.attached_to) if src.attached_to is not None else None
        out = [host.controller] if host is not None else []
    elif ref == EACH_OTHER_PLAYER:
        out = [p for p in g.players_in_game() if p != ctx.controller]
    elif ref == EACH_PLAYER_BUT_EVENT_PLAYER:
        out = [p for p in g.players_in_game() if p != ctx.event.get("player")]
    elif ref == OTHER_OPPONENTS:
        first = ctx.targets[0] if ctx.targets else None
        out = [p for p in g.opponents(ctx.controller) if first != ("p", p)]
    elif ref == TARGET_CONTROLLER:
        first = ctx.targets[0] if ctx.targets else None
        found = ctx.target_controllers.get(first[1]) if first and first[0] == "o" else None
        out = [found] if found is not None else []
    else:
        out = []
    # CR 801.10: a spell or ability can't affect players outside its controller's range.
    if ctx.unlimited:
        return [p for p in out if g.in_game(p)]
    return [p for p in out if g.in_game(p) and g.in_range(ctx.controller, p)]


def _chosen_player(ctx: Ctx) -> int | None:
    """The player chosen earlier in this resolution, or remembered by the source permanent."""
    if "chosen_player" in ctx.memory:
        return int(ctx.memory["chosen_player"])
    src = _current(ctx.game, ctx.source) or ctx.source
    return src.chosen_player


def objects_of(ctx: Ctx, ref: Ref) -> list[Obj]:
    g = ctx.game
    found: Obj | None = None
    if ref == EACH_TARGET:  # each target object still legal, as refs_of reads it
        return [o for i in range(len(ctx.targets)) for o in objects_of(ctx, Target(i))]
    if ref == SELF:
        found = ctx.obj if not ctx.obj.is_ability else _current(g, ctx.source)
    elif ref.kind == "target":
        t = ctx.targets[ref.index] if ref.index < len(ctx.targets) else None
        found = g.objects.get(t[1]) if t is not None and t[0] == "o" else None
    elif ref == EVENT_OBJECT:
        o = ctx.event.get("obj")
        found = _current(g, o) if isinstance(o, Obj) else None
    elif ref == ENCHANTED:
        src = _current(g, ctx.source)
        found = g.objects.get(src.attached_to) if src and src.attached_to else None
    elif ref == CHOSEN:
        found = ctx.memory.get("chosen")
    elif ref == BLOCK_PARTNER:
        found = _current(g, block_partner(ctx.source, ctx.event))
    elif ref in (EACH_CREATURE, EACH_CREATURE_WITH_FLYING, EACH_CREATURE_WITHOUT_FLYING):
        flying = None if ref == EACH_CREATURE else ref == EACH_CREATURE_WITH_FLYING
        return [o for o in g.creatures()
                if (ctx.unlimited or g.obj_in_range(ctx.controller, o))
                and (flying is None or has_keyword(g, o, FLYING) == flying)]
    elif ref in (EACH_CREATURE_YOU_CONTROL, EACH_CREATURE_OF_TARGET):
        whose = [ctx.controller] if ref == EACH_CREATURE_YOU_CONTROL else _target_owner(ctx)
        return [o for o in g.creatures() if o.controller in whose
                and (ctx.unlimited or g.obj_in_range(ctx.controller, o))]
    if found is None or found.oid not in g.objects:
        return []
    if (found.zone == BATTLEFIELD and not ctx.unlimited
            and not g.obj_in_range(ctx.controller, found)):
        return []  # CR 801.10
    return [found]


def _target_owner(ctx: Ctx) -> list[int]:
    """The first target if it is a player, or the controller of the first target if it is a
    planeswalker (or any permanent); nobody when that target has become illegal."""
    t = ctx.targets[0] if ctx.targets else None
    if t is None:
        return []
    if t[0] == "p":
        return [t[1]]
    o = ctx.game.objects.get(t[1])
    return [o.controller] if o is not None else []


def refs_of(ctx: Ctx, ref: Ref) -> list[tuple[str, int]]:
    if ref == EACH_TARGET:
        return [r for i in range(len(ctx.targets)) for r in refs_of(ctx, Target(i))]
    if ref.kind == "target":
        t = ctx.targets[ref.index] if ref.index < len(ctx.targets) else None
        if t is None:
            return []
        if t[0] == "p":
            return [t] if players_of(ctx, ref) else []
        return [("o", o.oid) for o in objects_of(ctx, ref)]
    return [("p", p) for p in players_of(ctx, ref)] + [("o", o.oid) for o in objects_of(ctx, ref)]


def amount_of(ctx: Ctx, amount: object, recipient: tuple[str, int] | None = None) -> int:
    if isinstance(amount, int):
        return amount
    if isinstance(amount, CardsInHandOfRecipient):
        if recipient is None or recipient[0] != "p":
            return 0
        return len(ctx.game.hand(recipient[1]))
    if isinstance(amount, HalfLibrary):
        ps = players_of(ctx, amount.who)
        return len(ctx.game.library(ps[0])) // 2 if ps else 0
    if isinstance(amount, HalfLife):
        ps = players_of(ctx, amount.who)
        return -(-ctx.game.players[ps[0]].life // 2) if ps else 0
    if isinstance(amount, LifeTotalOf):
        # CR 800.4i: a player who has left is described by the last information about them.
        who = _chosen_player(ctx) if amount.who == CHOSEN_PLAYER else (
            ctx.controller if amount.who == YOU else None)
        return max(ctx.game.players[who].life, 0) if who is not None else 0
    if isinstance(amount, Remembered):
        return int(ctx.memory.get(amount.key, 0))
    if isinstance(amount, DividedAsYouChoose):
        return share(ctx.obj, recipient)  # CR 601.2d: announced as it was cast
    if isinstance(amount, NumberYouControl):
        return sum(1 for o in ctx.game.permanents() if o.controller == ctx.controller
                   and matches(ctx.game, o, amount.where, ctx.controller))
    if isinstance(amount, EventAmount):
        return int(ctx.event.get("amount", 0))
    # X is the announced value only while the spell or ability is on the stack (CR 107.3a,
    # 107.3g); a "[-X]" loyalty ability's X is chosen as it is activated (CR 606.4).
    x = ctx.obj.x if ctx.obj.zone == STACK else 0
    if isinstance(amount, XValue):
        return x
    if isinstance(amount, XDividedEvenly):
        # Divided by the number of targets chosen, legal or not now (docs/rulings.md).
        return x // len(ctx.obj.targets) if ctx.obj.targets else 0
    raise TypeError(f"unknown amount {amount!r}")


# --------------------------------------------------------------------------- conditions


def condition_holds(game: Game, source: Obj, cond: Condition, controller: int,
                    memory: dict[str, Any], event: dict[str, Any] | None = None) -> bool:
    if isinstance(cond, CastFromHand):
        subject = source
        ev_obj = (event or {}).get("obj")
        if isinstance(ev_obj, Obj) and ev_obj.oid == source.oid:
            subject = ev_obj
        return subject.cast_from_hand != cond.negate
    if isinstance(cond, CastAnotherNamedThisGame):
        return game.players[controller].spells_cast.count(source.name) >= 2
    if isinstance(cond, LifeAtLeast):
        return game.in_game(controller) and game.players[controller].life >= cond.amount
    if isinstance(cond, NoCounters):
        return (_current(game, source) or source).counter(cond.kind) == 0
    if isinstance(cond, SourceUntapped):
        now = _current(game, source)
        return now is not None and not now.tapped
    if isinstance(cond, AllOf):
        return all(condition_holds(game, source, c, controller, memory, event)
                   for c in cond.conditions)
    if isinstance(cond, Paid):
        return bool(memory.get("paid")) != cond.negate
    if isinstance(cond, NoCardsInHand):
        return game.in_game(controller) and not game.hand(controller)
    if isinstance(cond, DamageTakenThisTurnAtLeast):
        return game.in_game(controller) and game.players[controller].damage_this_turn >= \
            cond.amount
    if isinstance(cond, CardsToGraveyardThisTurnAtLeast):
        return game.in_game(controller) and \
            game.players[controller].to_graveyard_this_turn >= cond.amount
    raise TypeError(f"unknown condition {cond!r}")


# --------------------------------------------------------------------------- card movement


def draw_cards(game: Game, pid: int, n: int) -> None:
    """CR 121. A draw from an empty library is replaced by a "win instead" effect when one
    applies (CR 614.11); otherwise the player will lose at the next check (CR 704.5b)."""
    for _ in range(n):
        if not game.in_game(pid):
            return
        lib = game.library(pid)
        if not lib:
            if any(isinstance(st, EmptyLibraryDrawWins) and o.controller == pid
                   for o in game.permanents() for st in o.defn.statics):
                game.say(f"{game.name(pid)} would draw from an empty library and wins instead.")
                ending.win(game, [pid], "effect_win")
                continue
            game.players[pid].drew_from_empty = True
            game.touch_player(pid)
            continue
        game.move(lib[-1], HAND, cause="draw")


def mill(game: Game, pid: int, n: int) -> int:
    lib = game.library(pid)
    # The top n cards, fixed before any moves: one shuffled back in instead (CR 614.1a)
    # isn't milled again.
    top = lib[::-1][:max(n, 0)]
    for card in top:
        game.move(card, GRAVEYARD, cause="mill")
    return len(top)


def choose(game: Game, player: int, kind: str, prompt: str,
           build: Callable[[], list[Action]], *, decider: Callable[[], int | None] | None = None
           ) -> Flow:
    """Ask ``player`` (or whoever ``decider`` names now) to pick one action; returns it, or None
    when nobody can choose or nothing is left to choose."""
    while True:
        who = decider() if decider is not None else (player if game.in_game(player) else None)
        if who is None:
            return None
        actions = build()
        if not actions:
            return None
        answer = yield Decision(kind, who, prompt, actions)
        if answer is REFRESH:
            continue
        return answer


# --------------------------------------------------------------------------- handlers


def _damage(ctx: Ctx, e: Damage) -> Flow:
    src = ctx.source if ctx.obj.is_ability else ctx.obj
    for ref in refs_of(ctx, e.to):
        dealt = yield from damage_flow(ctx.game, src, ref, amount_of(ctx, e.amount, ref),
                                       ctx.controller)
        if dealt:
            ctx.game.say(f"{src.name} deals {dealt} damage to {describe_ref(ctx.game, ref)}.")


def _gain_life(ctx: Ctx, e: GainLife) -> None:
    n = amount_of(ctx, e.amount)
    for p in players_of(ctx, e.who):
        ctx.game.gain_life(p, n)
        ctx.game.say(f"{ctx.game.name(p)} gains {n} life.")


def _lose_life(ctx: Ctx, e: LoseLife) -> None:
    n = amount_of(ctx, e.amount)
    total = 0
    for p in players_of(ctx, e.who):
        total += ctx.game.lose_life(p, n)
        ctx.game.say(f"{ctx.game.name(p)} loses {n} life.")
    if e.remember:
        ctx.memory[e.remember] = total


def _set_life(ctx: Ctx, e: SetLife) -> None:
    """CR 119.5: the player gains or loses the difference. In Two-Headed Giant the player's
    life total is the team's (CR 810.9a), and the team's total changes by what the player
    gained or lost (CR 810.9c)."""
    g = ctx.game
    n = amount_of(ctx, e.amount)
    for p in players_of(ctx, e.who):
        diff = n - g.players[p].life
        if diff > 0:
            g.gain_life(p, diff)
        elif diff < 0:
            g.lose_life(p, -diff)
        g.say(f"{g.name(p)}'s life total becomes {n}.")


def half_life(game: Game, pid: int) -> int:
    """Half ``pid``'s life total, rounded up (CR 107.1a); the team's in Two-Headed Giant
    (CR 810.9a)."""
    life = game.players[pid].life
    return -(-life // 2) if life > 0 else 0


def _lose_half_life(ctx: Ctx, e: LoseHalfLife) -> None:
    # Every amount is worked out before anyone loses life: the players lose it at the same
    # time, so teammates sharing a life total each lose half of the team's whole total.
    g = ctx.game
    amounts = [(p, half_life(g, p)) for p in players_of(ctx, e.who)]
    for p, n in amounts:
        g.lose_life(p, n)
        g.say(f"{g.name(p)} loses half their life ({n}).")


def _draw(ctx: Ctx, e: Draw) -> None:
    for p in players_of(ctx, e.who):
        draw_cards(ctx.game, p, amount_of(ctx, e.amount))


def _mill(ctx: Ctx, e: Mill) -> None:
    for p in players_of(ctx, e.who):
        n = mill(ctx.game, p, amount_of(ctx, e.amount))
        ctx.game.say(f"{ctx.game.name(p)} mills {n} card{'s' if n != 1 else ''}.")


def _add_effect(ctx: Ctx, eff: Continuous) -> None:
    ctx.game.effects.append(eff)


def _duration_owner(ctx: Ctx, duration: str) -> int | None:
    return ctx.controller if duration == UNTIL_YOUR_NEXT_TURN else None


def _gain_control(ctx: Ctx, e: GainControl) -> None:
    g = ctx.game
    if not g.in_game(ctx.controller):
        return  # CR 800.4b
    for o in objects_of(ctx, e.what):
        if o.zone != BATTLEFIELD:
            continue
        g.table.timestamp += 1
        _add_effect(ctx, Continuous("control", ctx.controller, g.table.timestamp, e.duration,
                                    affected=o.oid, player=ctx.controller,
                                    expires_turn_of=_duration_owner(ctx, e.duration)))
        g.control_changed()
        g.say(f"{g.name(ctx.controller)} gains control of {o.name}.")


def _give_control(ctx: Ctx, e: GiveControl) -> None:
    g = ctx.game
    receivers = players_of(ctx, e.to)
    for o in objects_of(ctx, e.what):
        for p in receivers:
            g.table.timestamp += 1
            _add_effect(ctx, Continuous("control", ctx.controller, g.table.timestamp,
                                        e.duration, affected=o.oid, player=p))
            g.control_changed()
            g.say(f"{g.name(p)} gains control of {o.name}.")


def _untap(ctx: Ctx, e: Untap) -> None:
    for o in objects_of(ctx, e.what):
        if o.zone == BATTLEFIELD:
            ctx.game.set_tapped(o, False)


def _tap(ctx: Ctx, e: Tap) -> None:
    for o in objects_of(ctx, e.what):
        if o.zone == BATTLEFIELD:
            ctx.game.set_tapped(o, True)


def _grant(ctx: Ctx, e: GrantKeyword) -> None:
    g = ctx.game
    for o in objects_of(ctx, e.what):
        g.table.timestamp += 1
        _add_effect(ctx, Continuous("keyword", ctx.controller, g.table.timestamp, e.duration,
                                    affected=o.oid, keyword=e.keyword,
                                    expires_turn_of=_duration_owner(ctx, e.duration)))
        g.touch(o)


def _win(ctx: Ctx, e: WinGame) -> None:
    ending.win(ctx.game, players_of(ctx, e.who), "effect_win")


def _lose(ctx: Ctx, e: LoseGame) -> None:
    ending.lose(ctx.game, {p: "effect_loss" for p in players_of(ctx, e.who)})


def _draw_game(ctx: Ctx, e: DrawGame) -> None:
    ending.draw(ctx.game, ctx.controller, "effect_draw")


def _highest_life(ctx: Ctx, e: HighestLifeWins) -> None:
    g = ctx.game
    seen = g.players_in_range(ctx.controller)  # CR 801.11: it sees only what is in range
    if not seen:
        return
    top = max(g.players[p].life for p in seen)
    leaders = [p for p in seen if g.players[p].life == top]
    # Teammates who share a life total (CR 810.4) always have the same one; they win together
    # (CR 810.8a), so only a tie between teams is a tie.
    if len({g.life_mates.get(p, (p,)) for p in leaders}) == 1:
        ending.win(g, leaders, "effect_win")
    else:
        ending.draw(g, ctx.controller, "effect_draw")


def _put_counters(ctx: Ctx, e: PutCounters) -> None:
    n = amount_of(ctx, e.amount)
    for o in objects_of(ctx, e.what):
        ctx.game.add_counters(o, e.kind, n)


def _remove_counters(ctx: Ctx, e: RemoveCounters) -> None:
    n = amount_of(ctx, e.amount)
    for o in objects_of(ctx, e.what):
        ctx.game.remove_counters(o, e.kind, n)


def _if(ctx: Ctx, e: If) -> Flow:
    cond = e.condition
    if isinstance(cond, PowerAtMost):  # about an object the resolving ability refers to
        found = objects_of(ctx, cond.what)
        holds = bool(found) and found[0].zone == BATTLEFIELD and \
            found[0].defn.is_("Creature") and power(ctx.game, found[0]) <= cond.amount
    elif isinstance(cond, ActivatedThisTurnAtLeast):  # about the resolving ability itself
        holds = this_turn(ctx.game, ctx.source, ctx.obj.ability_index) >= cond.times
    else:
        holds = condition_holds(ctx.game, ctx.obj if not ctx.obj.is_ability else ctx.source,
                                cond, ctx.controller, ctx.memory, ctx.event)
    yield from run_effects(ctx, e.then if holds else e.otherwise)


def _put_self_into_library(ctx: Ctx, e: PutSelfIntoLibrary) -> None:
    g = ctx.game
    spell = ctx.obj
    if spell.oid not in g.objects or spell.card is None:
        return
    lib = g.library(spell.owner)
    position = max(len(lib) - (e.position - 1), 0)  # the top of a library is its end
    g.move(spell, LIBRARY, position=position, cause="effect")
    g.say(f"{spell.name} is put into {g.name(spell.owner)}'s library "
          f"{_ordinal(e.position)} from the top.")


def _ordinal(n: int) -> str:
    return {1: "first", 2: "second", 3: "third", 7: "seventh"}.get(n, f"{n}th")


def _wish(ctx: Ctx, e: WishFromOutside) -> Flow:
    g = ctx.game
    pid = ctx.controller
    candidates = g.table.outside_candidates(g, pid, e.filter)

    def build() -> list[Action]:
        cands = g.table.outside_candidates(g, pid, e.filter)
        acts = [Action(0, "choose_none", "Take nothing")]
        for i, (label, _key) in enumerate(cands):
            acts.append(Action(i + 1, "choose_outside", f"Put {label} into your hand",
                               index=i))
        return acts

    if not candidates:
        return
    answer = yield from choose(g, pid, "wish", f"Choose a {e.filter.describe()} you own from "
                                                "outside the game", build)
    if answer is None or answer.kind != "choose_outside":
        return
    cands = g.table.outside_candidates(g, pid, e.filter)
    if answer.index < len(cands):
        label, key = cands[answer.index]
        obj = g.table.bring_in(g, pid, key)
        g.say(f"{g.name(pid)} reveals {label} from outside the game and puts it into their "
              "hand.", "reveal", player=pid, card=label, obj=obj.oid if obj else None)


def _exile_from_hand(ctx: Ctx, e: ExileFromHand) -> Flow:
    g = ctx.game
    players = players_of(ctx, e.who)
    if not players:
        return
    pid = players[0]

    def build() -> list[Action]:
        seen: dict[str, Obj] = {}
        for o in g.hand(pid):
            seen.setdefault(o.name, o)
        return [Action(i, "choose_card", f"Exile {name}", obj=o.oid)
                for i, (name, o) in enumerate(sorted(seen.items()))]

    answer = yield from choose(g, pid, "exile_from_hand", "Choose a card in your hand to exile",
                               build)
    if answer is None or answer.obj not in g.objects:
        return
    new = g.move(g.objects[answer.obj], EXILE, cause="effect")
    if new is not None:
        _link(ctx, new)
        g.say(f"{g.name(pid)} exiles {new.name} from their hand.")


def _link(ctx: Ctx, exiled: Obj) -> None:
    """CR 607.2a: remember the card as exiled with the source (Karn Liberated)."""
    src = _current(ctx.game, ctx.source) if ctx.obj.is_ability else None
    record = src.linked if src is not None else ctx.source.linked
    if exiled.card is not None:
        record.append(exiled.card.cid)


def _exile(ctx: Ctx, e: Exile) -> None:
    g = ctx.game
    for o in objects_of(ctx, e.what):
        new = g.move(o, EXILE, cause="effect")
        g.say(f"{o.name} is exiled.")
        if new is not None and e.link:
            _link(ctx, new)


def _destroy(ctx: Ctx, e: Destroy) -> None:
    g = ctx.game
    for o in objects_of(ctx, e.what):
        if o.zone != BATTLEFIELD:
            continue
        if destroy(g, o, regen=not e.no_regen):
            g.say(f"{o.name} is destroyed.")
        elif has_keyword(g, o, INDESTRUCTIBLE):
            g.say(f"{o.name} is indestructible and is not destroyed.")


def _return_to_hand(ctx: Ctx, e: ReturnToHand) -> Flow:
    g = ctx.game
    for o in objects_of(ctx, e.what):
        if o.zone not in (BATTLEFIELD, GRAVEYARD):  # a permanent, or a card in a graveyard
            continue
        if o.is_commander and g.config.variant == "commander":
            owner = o.owner
            yes = yield from commander_replacement(g, owner, o, "its owner's hand")
            if yes:
                g.move(o, COMMAND, cause="commander")
                continue
        g.move(o, HAND, cause="bounce")
        g.say(f"{o.name} returns to its owner's hand.")


def commander_replacement(game: Game, owner: int, obj: Obj, where: str) -> Flow:
    """CR 903.9b: a commander that would go to a hand or library may go to the command zone."""
    answer = yield from choose(
        game, owner, "commander_zone", f"{obj.name} would go to {where}: put it into the "
        "command zone instead?",
        lambda: [Action(0, "yes", "Put it into the command zone"),
                 Action(1, "no", f"Let it go to {where}")])
    return answer is not None and answer.kind == "yes"


def _create_token(ctx: Ctx, e: CreateToken) -> None:
    g = ctx.game
    defn = TOKEN_DEFS[e.token]
    count = amount_of(ctx, e.count)
    for p in players_of(ctx, e.under):  # CR 800.4b: none for a player who has left
        made = sum(g.create_token(defn, p) is not None for _ in range(count))
        if made:
            # CR 111.4: a token's name is often its subtypes plus "Token" already.
            what = defn.name if defn.name.endswith("Token") else f"{defn.name} token"
            g.say(f"{g.name(p)} creates {'a' if made == 1 else made} {what}"
                  f"{'s' if made > 1 else ''}.")


def _restart(ctx: Ctx, e: RestartGame) -> Flow:
    g = ctx.game
    src = _current(g, ctx.source)
    linked = src.linked if src is not None else ctx.source.linked
    exempt: list[int] = []
    for o in g.exile:
        if (o.card is not None and o.card.cid in linked and o.defn.is_permanent_card
                and not o.defn.is_aura):
            exempt.append(o.card.cid)
    yield RestartRequest(ctx.controller, tuple(exempt))


def _subgame(ctx: Ctx, e: PlaySubgame) -> Flow:
    g = ctx.game
    players = tuple(p for p in g.players_in_game() if g.in_range(ctx.controller, p))
    outcome = yield SubgameRequest(ctx.controller, players)
    yield from _returned_commanders(g, players)
    if not g.in_game(ctx.controller):
        raise Aborted  # its controller conceded the main game during the subgame
    winners = set(outcome.winners) if outcome is not None else set()
    # As for any "each player loses half their life": the amounts first, then the losses.
    amounts = [(p, half_life(g, p)) for p in players
               if g.in_game(p) and p not in winners and g.in_range(ctx.controller, p)]
    for p, n in amounts:
        g.lose_life(p, n)
        g.say(f"{g.name(p)} did not win the subgame and loses {n} life.")


def _returned_commanders(g: Game, players: tuple[int, ...]) -> Flow:
    """CR 903.9b: a commander the subgame's end put into its owner's library (CR 726.5) may go
    to the command zone instead; its owner chooses. The subgame took the participants' whole
    libraries as it began (CR 726.2) and the game has been suspended since, so every card in
    their libraries now has just come back from the subgame."""
    if g.config.variant != "commander":
        return
    for p in players:
        for o in [o for o in g.library(p) if o.is_commander]:
            if not g.in_game(p) or o.oid not in g.objects:
                continue
            yes = yield from commander_replacement(g, p, o, "its owner's library")
            if yes and o.oid in g.objects:
                g.move(o, COMMAND, cause="commander")
                g.say(f"{o.name} goes to the command zone instead.")


def _may_pay(ctx: Ctx, e: MayPay) -> Flow:
    g = ctx.game
    players = players_of(ctx, e.who)
    ctx.memory["paid"] = False
    if not players:
        return
    pid = players[0]
    answer = yield from choose(
        g, pid, "pay", f"Pay {e.life} life?",
        lambda: [Action(0, "yes", f"Pay {e.life} life"), Action(1, "no", "Don't pay")])
    # CR 800.4f: a player who left the game doesn't pay.
    if answer is not None and answer.kind == "yes" and g.in_game(pid):
        g.lose_life(pid, e.life)
        ctx.memory["paid"] = True
        g.say(f"{g.name(pid)} pays {e.life} life.")
    else:
        g.say(f"{g.name(pid)} doesn't pay.")


def _pick_opponent_chooser(ctx: Ctx) -> Flow:
    """The controller picks an opponent to make a choice (CR 801.5a: one in range). With no
    opponent in range, the closest opponent to the controller's left makes it (CR 801.5c)."""
    g = ctx.game
    me = ctx.controller

    def opponents_in_range() -> list[int]:
        return [p for p in g.opponents(me) if g.in_range(me, p)]

    if not opponents_in_range():
        nxt = g.next_player(me)
        while nxt is not None and nxt != me and not g.are_opponents(me, nxt):
            nxt = g.next_player(nxt)
        return nxt if nxt != me else None
    answer = yield from choose(
        g, me, "choose_player", "Choose an opponent to make the choice",
        lambda: [Action(i, "choose_player", f"Choose {g.name(p)}", ref=("p", p))
                 for i, p in enumerate(opponents_in_range())])
    return answer.ref[1] if answer is not None else None


def _opponent_chooses_sacrifice(ctx: Ctx, e: OpponentChoosesCreatureToSacrifice) -> Flow:
    g = ctx.game
    me = ctx.controller
    if not any(o.controller == me for o in g.creatures()):
        return
    chooser = yield from _pick_opponent_chooser(ctx)
    while chooser is not None:
        ctx.memory["chosen_player"] = chooser

        def build(c: int = chooser) -> list[Action]:
            # CR 801.5a: the chooser picks within their range (and this effect's range).
            creatures = [o for o in g.creatures() if o.controller == me
                         and g.obj_in_range(c, o) and g.obj_in_range(me, o)]
            return [Action(i, "choose_card", f"Choose {o.name}", obj=o.oid)
                    for i, o in enumerate(creatures)]

        answer = yield from choose(g, chooser, "choose_creature",
                                   f"Choose a creature {g.name(me)} controls to sacrifice",
                                   build)
        if answer is None and not g.in_game(chooser):
            # CR 800.4g: the chooser left; the controller picks another player, an opponent
            # if possible.
            chooser = yield from _pick_opponent_chooser(ctx)
            continue
        if answer is not None and answer.obj in g.objects:
            victim = g.objects[answer.obj]
            g.move(victim, GRAVEYARD, cause="sacrifice")
            g.say(f"{g.name(me)} sacrifices {victim.name}.")
        return


def _opponent_chooses_mode(ctx: Ctx, e: OpponentChoosesMode) -> Flow:
    g = ctx.game
    chooser = yield from _pick_opponent_chooser(ctx)
    while chooser is not None:
        ctx.memory["chosen_player"] = chooser
        # CR 801.5b: choosing between options is not limited by the chooser's range.
        answer = yield from choose(
            g, chooser, "choose_mode", f"Choose one for {ctx.obj.name}",
            lambda: [Action(i, "choose_mode", m.label, index=i) for i, m in enumerate(e.modes)])
        if answer is None and not g.in_game(chooser):
            chooser = yield from _pick_opponent_chooser(ctx)  # CR 800.4g
            continue
        if answer is not None:
            mode = e.modes[answer.index]
            g.say(f"{g.name(chooser)} chooses: {mode.label}.")
            ctx.memory.pop("chosen_player", None)
            yield from run_effects(ctx, mode.effects)
        return


def _choose_opponent(ctx: Ctx, e: ChooseOpponent) -> Flow:
    g = ctx.game
    me = ctx.controller
    src = _current(g, ctx.source)
    answer = yield from choose(
        g, me, "choose_player", "Choose an opponent",
        lambda: [Action(i, "choose_player", f"Choose {g.name(p)}", ref=("p", p))
                 for i, p in enumerate(p for p in g.opponents(me) if g.in_range(me, p))])
    if answer is not None and src is not None:
        src.chosen_player = answer.ref[1]
        g.touch(src)
        g.say(f"{g.name(me)} chooses {g.name(answer.ref[1])} for {src.name}.")


def _prevent(ctx: Ctx, e: PreventDamage) -> None:
    g = ctx.game
    for ref in refs_of(ctx, e.to):
        g.table.timestamp += 1
        _add_effect(ctx, Continuous("prevent", ctx.controller, g.table.timestamp,
                                    "until_end_of_turn", amount=e.amount, target=ref))


def _prevent_combat(ctx: Ctx, e: PreventAllCombatDamage) -> None:
    g = ctx.game
    g.table.timestamp += 1
    _add_effect(ctx, Continuous("prevent_combat", ctx.controller, g.table.timestamp,
                                "until_end_of_turn"))


def _redirect(ctx: Ctx, e: RedirectDamage) -> None:
    g = ctx.game
    first = ctx.targets[0] if ctx.targets else None
    second = ctx.targets[1] if len(ctx.targets) > 1 else None
    if first is None or second is None:
        return
    g.table.timestamp += 1
    _add_effect(ctx, Continuous("redirect", ctx.controller, g.table.timestamp,
                                "until_end_of_turn", amount=e.amount, target=first,
                                redirect_to=second))


def _extra_turn(ctx: Ctx, e: ExtraTurn) -> None:
    """CR 500.7: the turn is added directly after this one; several are added one at a time,
    in APNAP order, and the most recently added is taken first (``Game.extra_turns`` is a
    stack the flow pops)."""
    g = ctx.game
    who = players_of(ctx, e.who)
    for p in (q for q in g.apnap() if q in who):
        g.extra_turns.append(p)
        g.dirty.add("t")
        g.say(f"{g.name(p)} will take an extra turn after this one.", "extra_turn", player=p)


def _copy(ctx: Ctx, e: CopySpell) -> Flow:
    """Each copier, in APNAP order (CR 101.4), puts a copy of the spell on the stack. A spell
    that has left the stack since is copied as it last existed there (CR 707.10, 608.2h)."""
    g = ctx.game
    found = objects_of(ctx, e.what)
    original = found[0] if found else None
    if original is None and e.what == EVENT_OBJECT:
        last = ctx.event.get("obj")
        original = last if isinstance(last, Obj) else None
    if original is None or original.zone != STACK:
        return
    copiers = players_of(ctx, e.copiers)
    for p in [q for q in g.apnap() if q in copiers]:
        if g.in_game(p):
            yield from copy_spell(g, original, p)


def _simultaneously(ctx: Ctx, e: Simultaneously) -> None:
    """Game wins and losses in one event (CR 104.3f: winning and losing at once is a loss)."""
    winners: list[int] = []
    losers: dict[int, str] = {}
    for eff in e.effects:
        if isinstance(eff, WinGame):
            winners.extend(players_of(ctx, eff.who))
        elif isinstance(eff, LoseGame):
            losers.update({p: "effect_loss" for p in players_of(ctx, eff.who)})
    ending.win(ctx.game, winners, "effect_win", losers)


HANDLERS: dict[type, Callable[[Ctx, Any], Any]] = {
    Damage: _damage, GainLife: _gain_life, LoseLife: _lose_life, SetLife: _set_life,
    LoseHalfLife: _lose_half_life,
    Draw: _draw, Mill: _mill, GainControl: _gain_control, GiveControl: _give_control,
    Untap: _untap, Tap: _tap, GrantKeyword: _grant, WinGame: _win,
    LoseGame: _lose, DrawGame: _draw_game, HighestLifeWins: _highest_life,
    PutCounters: _put_counters, RemoveCounters: _remove_counters, If: _if,
    PutSelfIntoLibrary: _put_self_into_library, WishFromOutside: _wish,
    ExileFromHand: _exile_from_hand, Exile: _exile, Destroy: _destroy,
    ReturnToHand: _return_to_hand, CreateToken: _create_token, RestartGame: _restart,
    PlaySubgame: _subgame, MayPay: _may_pay,
    OpponentChoosesCreatureToSacrifice: _opponent_chooses_sacrifice,
    PreventDamage: _prevent, PreventAllCombatDamage: _prevent_combat,
    RedirectDamage: _redirect, Simultaneously: _simultaneously,
    OpponentChoosesMode: _opponent_chooses_mode, ChooseOpponent: _choose_opponent,
    ExtraTurn: _extra_turn, CopySpell: _copy,
    **VARIANT_HANDLERS, **LAYER_HANDLERS, **PACK_HANDLERS,
    **REPLACEMENT_HANDLERS, **DELAYED_HANDLERS, **FREE_PLAY_HANDLERS,
    **TRIGGER_HANDLERS,
    **ATTACH_HANDLERS,
    **SACRIFICE_HANDLERS,
    **RESTRICTION_HANDLERS,
    **COUNTER_HANDLERS,
    **LIBRARY_HANDLERS, **CARD_MOVE_HANDLERS,
}


def run_effects(ctx: Ctx, effects: tuple[Any, ...]) -> Flow:
    for eff in effects:
        if not ctx.game.in_game(ctx.controller):
            raise Aborted
        result = HANDLERS[type(eff)](ctx, eff)
        if isinstance(result, Iterator):
            yield from result
            if not ctx.game.in_game(ctx.controller):
                raise Aborted  # they left while a choice was pending


# --------------------------------------------------------------------------- the stack


def _check_targets(game: Game, obj: Obj, specs: tuple[TargetSpec, ...]
                   ) -> list[tuple[str, int] | None]:
    checked: list[tuple[str, int] | None] = []
    unlimited = unlimited_source(obj)
    by = targeting_source(obj)
    for spec, ref in zip(specs, obj.targets, strict=False):
        legal = target_still_legal(game, obj.controller, spec, ref, unlimited=unlimited, by=by)
        checked.append(ref if legal else None)
    return checked


def resolve_top(game: Game) -> Flow:
    """Resolve the top object of the stack (CR 608)."""
    obj = game.stack[-1]
    game.bump_version()
    try:
        if obj.is_ability:
            yield from _resolve_ability(game, obj)
        else:
            yield from _resolve_spell(game, obj)
    except Aborted:
        game.say(f"{obj.name} stops resolving: its controller has left the game.")
        if obj.oid in game.objects and obj.zone == STACK:
            if obj.card is None:
                game.remove_object(obj)
            else:
                game.move(obj, GRAVEYARD)


def _resolve_ability(game: Game, obj: Obj) -> Flow:
    ab = obj.ability
    assert ab is not None
    specs = target_specs(ab, len(obj.targets))  # "any number of targets" repeats the last
    checked = _check_targets(game, obj, specs)
    if checked and all(t is None for t in checked):  # CR 608.2b
        game.say(f"The ability of {obj.name} has no legal targets left and does nothing.")
        game.remove_object(obj)
        return
    # An ability with no source (Planechase's planeswalking ability, CR 901.8) is its own.
    source = obj.source if obj.source is not None else obj
    # CR 603.4: an intervening "if" is checked again on resolution.
    cond = getattr(ab, "condition", None)
    if cond is not None and not condition_holds(game, source, cond, obj.controller, {},
                                                obj.event):
        game.remove_object(obj)
        return
    ctx = Ctx(game, obj, obj.controller, source, checked, obj.event)
    yield from run_effects(ctx, ab.effects)
    if obj.oid in game.objects:
        game.remove_object(obj)


def _resolve_spell(game: Game, obj: Obj) -> Flow:
    d = obj.defn
    specs = spell_target_specs(d, len(obj.targets))
    checked = _check_targets(game, obj, specs)
    if checked and all(t is None for t in checked):
        # CR 608.2b: every target is illegal, so the spell doesn't resolve (with "up to"
        # targets and none chosen it has no targets, and resolves).
        game.say(f"{obj.name} has no legal targets left and does not resolve.")
        game.move(obj, GRAVEYARD, cause="fizzle")
        return
    if d.is_permanent_card:
        def ask(p: int, kind: str, prompt: str, build: Callable[[], list[Action]]) -> Flow:
            return choose(game, p, kind, prompt, build)

        copy_of = yield from copy_choice(game, obj, ask)  # layer 1 (CR 707.2), before it enters
        named = yield from name_choice(game, obj, ask)  # "as ~ enters, choose a card name"
        new = game.put_onto_battlefield(obj, obj.controller, cause="resolve",
                                        cast_from_hand=obj.cast_from_hand, copy_of=copy_of)
        if new is None:
            return
        new.chosen_name = named
        if d.enchant is not None and checked and checked[0] is not None:
            new.attached_to = checked[0][1]  # CR 303.4a: it enters attached to its target
            game.control_changed()
        yield from choose_land_type(
            game, new, lambda p, kind, prompt, build: choose(game, p, kind, prompt, build))
        if not game.in_game(obj.controller):
            raise Aborted  # they left while choosing: the permanent left with them (800.4a)
        game.say(f"{new.name} enters the battlefield under {game.name(new.controller)}'s "
                 "control.", "resolve", obj=new.oid)
        return
    ctx = Ctx(game, obj, obj.controller, obj, checked, {})
    game.say(f"{obj.name} resolves.", "resolve", obj=obj.oid)
    yield from run_effects(ctx, d.spell)
    if obj.oid in game.objects and obj.zone == STACK:
        game.move(obj, EXILE if d.exile_on_resolve else GRAVEYARD, cause="resolved")
